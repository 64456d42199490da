"""Figures of the RoPE + KV cache page: per-position error of each decode mode (log scale)
and the positions the last decode step actually used.

Arrays and one `labels` dict in, go.Figure out. Titles sit below plotly's toolbar and wrap on a
phone (panels.title_on_top); legends are horizontal, under the plot.
"""
import numpy as np
import plotly.graph_objects as go

from posviz.figures import style
from posviz.figures.panels import escape, title_on_top

MODE_COLORS = {"correct": style.PALETTE[2], "restart": style.PALETTE[3], "rerotate": style.PALETTE[1],
               "rotate_on_read": style.PALETTE[4]}
MODE_SYMBOLS = {"correct": "circle", "restart": "x", "rerotate": "diamond", "rotate_on_read": "square"}
FLOOR = 1e-9   # exact zeros are drawn here on the log axis


def _mode(labels, mode):
    return escape(labels.get(f"mode.{mode}", mode))


def _legend_below(fig):
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.3, x=0, xanchor="left"),
                      margin=dict(l=10, r=10, b=10))
    return fig


def error_figure(positions, errors, *, prefill_length, labels, allowed=None, precision=None,
                 floor=FLOOR, height=520):
    """Max |decode - full| per position for each mode on a log axis (zeros drawn at `floor`; the
    CSV and the hover keep the real values).

    errors: {mode: [L]}; allowed / precision: optional [L] lines; the prefill positions 0..P-1
    are shaded. labels: title, x, y, prefill, allowed, precision, and mode.<mode> for each mode.
    """
    x = np.asarray(positions)
    fig = go.Figure()
    hover = "p=%{x}<br>max|Δ|=%{customdata:.3g}<extra>%{fullData.name}</extra>"

    def line(values):
        xs, ys = style.line_xy(x, np.asarray(values, dtype=np.float64))
        return dict(x=xs, hovertemplate=hover, **style.real_values("y", np.maximum(ys, floor), ys))

    for mode, err in errors.items():
        fig.add_trace(go.Scatter(mode="lines+markers", name=_mode(labels, mode),
                                 line=dict(color=MODE_COLORS.get(mode), width=2.5),
                                 marker=dict(symbol=MODE_SYMBOLS.get(mode, "circle"), size=9), **line(err)))
    if allowed is not None:
        fig.add_trace(go.Scatter(mode="lines", name=escape(labels.get("allowed", "tolerance")),
                                 line=dict(color="#000000", dash="dash", width=1.5), **line(allowed)))
    if precision is not None and float(np.max(precision)) > 0:
        fig.add_trace(go.Scatter(mode="lines", name=escape(labels.get("precision", "dtype vs float32")),
                                 line=dict(color="#888888", dash="dot", width=2), **line(precision)))
    fig.add_vrect(x0=-0.5, x1=prefill_length - 0.5, fillcolor="#56B4E9", opacity=0.12, line_width=0,
                  annotation_text=escape(labels.get("prefill", "prefill")), annotation_position="top left")
    style.layout(fig, x_title=labels.get("x"), y_title=labels.get("y"), height=height)
    fig.update_yaxes(type="log", exponentformat="power", range=[np.log10(floor) - 0.5, 1])
    fig.update_xaxes(range=[-0.5, len(x) - 0.5])
    return title_on_top(_legend_below(fig), labels.get("title"))


def positions_figure(query_positions, key_positions, *, labels, height=460):
    """Position each cached key was rotated by (y) against its slot s (x), one line per mode,
    with the query's position as a dashed level: only "correct" keeps the diagonal y = s
    together with the query at the last slot.

    query_positions: {mode: float}; key_positions: {mode: [S]}; labels: title, x, y, query, mode.<mode>.
    """
    fig = go.Figure()
    query = escape(labels.get("query", "query"))
    for mode, kp in key_positions.items():
        s = np.arange(len(kp))
        xs, ys = style.line_xy(s, np.asarray(kp, dtype=np.float64))
        color, name = MODE_COLORS.get(mode), _mode(labels, mode)
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers", name=name, line=dict(color=color, width=2.5),
                                 marker=dict(symbol=MODE_SYMBOLS.get(mode, "circle"), size=9)))
        fig.add_trace(go.Scatter(x=style.f32([0, len(kp) - 1]), y=style.f32([query_positions[mode]] * 2),
                                 mode="lines", name=f"{query} ({name})", line=dict(color=color, dash="dash", width=1.5),
                                 showlegend=False, hovertemplate=f"{query}: %{{y}}<extra>{name}</extra>"))
    style.layout(fig, x_title=labels.get("x"), y_title=labels.get("y"), height=height)
    return title_on_top(_legend_below(fig), labels.get("title"))
