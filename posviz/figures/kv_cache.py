"""Figures of the RoPE + KV cache page: per-position error of each decode mode (log scale)
and the positions the last decode step actually used."""
import numpy as np
import plotly.graph_objects as go

from posviz.figures import style

MODE_COLORS = {"correct": style.PALETTE[2], "restart": style.PALETTE[3], "rerotate": style.PALETTE[1],
               "rotate_on_read": style.PALETTE[4]}
MODE_SYMBOLS = {"correct": "circle", "restart": "x", "rerotate": "diamond", "rotate_on_read": "square"}
FLOOR = 1e-9   # exact zeros are drawn here on the log axis


def error_figure(positions, errors, *, prefill_length, labels, allowed=None, precision=None,
                 floor=FLOOR, title=None, x_title=None, y_title=None, prefill_label="prefill",
                 allowed_label="tolerance", precision_label="dtype vs float32", height=500):
    """Max |decode - full| per position for each mode on a log axis (zeros drawn at `floor`).

    errors: {mode: [L]}; labels: {mode: legend label}; allowed / precision: optional [L] lines.
    The prefill positions 0..P-1 are shaded.
    """
    x = np.asarray(positions)
    fig = go.Figure()
    for mode, err in errors.items():
        xs, ys = style.line_xy(x, np.maximum(np.asarray(err, dtype=np.float64), floor))
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers", name=labels.get(mode, mode),
                                 line=dict(color=MODE_COLORS.get(mode), width=2.5),
                                 marker=dict(symbol=MODE_SYMBOLS.get(mode, "circle"), size=9),
                                 hovertemplate="p=%{x}<br>max|Δ|=%{y:.3g}<extra>%{fullData.name}</extra>"))
    if allowed is not None:
        xs, ys = style.line_xy(x, np.maximum(np.asarray(allowed, dtype=np.float64), floor))
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=allowed_label,
                                 line=dict(color="#000000", dash="dash", width=1.5)))
    if precision is not None and float(np.max(precision)) > 0:
        xs, ys = style.line_xy(x, np.maximum(np.asarray(precision, dtype=np.float64), floor))
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=precision_label,
                                 line=dict(color="#888888", dash="dot", width=2)))
    fig.add_vrect(x0=-0.5, x1=prefill_length - 0.5, fillcolor="#56B4E9", opacity=0.12, line_width=0,
                  annotation_text=prefill_label, annotation_position="top left")
    style.layout(fig, title=title, x_title=x_title, y_title=y_title, height=height)
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.2, x=0), margin=dict(b=120))
    fig.update_yaxes(type="log", exponentformat="power", range=[np.log10(floor) - 0.5, 1])
    fig.update_xaxes(range=[-0.5, len(x) - 0.5])
    return fig


def positions_figure(query_positions, key_positions, *, labels, title=None, x_title=None,
                     y_title=None, query_label="query", height=440):
    """Position each cached key was rotated by (y) against its slot s (x), one line per mode,
    with the query's position as a dashed level: only "correct" keeps the diagonal y = s
    together with the query at the last slot.

    query_positions: {mode: float}; key_positions: {mode: [S]}.
    """
    fig = go.Figure()
    for mode, kp in key_positions.items():
        s = np.arange(len(kp))
        xs, ys = style.line_xy(s, np.asarray(kp, dtype=np.float64))
        color = MODE_COLORS.get(mode)
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers", name=labels.get(mode, mode),
                                 line=dict(color=color, width=2.5),
                                 marker=dict(symbol=MODE_SYMBOLS.get(mode, "circle"), size=9)))
        fig.add_trace(go.Scatter(x=style.f32([0, len(kp) - 1]), y=style.f32([query_positions[mode]] * 2),
                                 mode="lines", name=f"{query_label} ({labels.get(mode, mode)})",
                                 line=dict(color=color, dash="dash", width=1.5), showlegend=False,
                                 hovertemplate=f"{query_label}: %{{y}}<extra>{labels.get(mode, mode)}</extra>"))
    style.layout(fig, title=title, x_title=x_title, y_title=y_title, height=height)
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.22, x=0), margin=dict(b=110))
    return fig
