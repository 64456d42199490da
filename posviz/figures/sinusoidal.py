"""Figures of the sinusoidal & learned page: arrays in, go.Figure out (no streamlit).

Every builder takes already-translated labels (`labels` dicts / strings), so the same
figure serves both languages.
"""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from posviz.figures import style

MAX_WAVES = 8
MAX_ROTATION_DIMS = 16   # the block structure of M(Delta) is only readable for a few pairs
# Heatmaps are decimated along the POSITION axis only: striding the dimension axis of an
# interleaved table would keep every other column, i.e. only the sines.
MAX_POSITIONS_SHOWN = 160   # also keeps the CSV under each figure quick to build


def _title_above_legend(fig, top=92):
    """Title at the very top, the horizontal legend on its own line just above the plot."""
    fig.update_layout(margin=dict(t=top), title=dict(y=0.985, yanchor="top"),
                      legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0))
    return fig


def _legend_inside(fig):
    fig.update_layout(legend=dict(orientation="v", x=0.99, xanchor="right", y=0.99, yanchor="top",
                                  bgcolor="rgba(255,255,255,0.85)", bordercolor="#cccccc", borderwidth=1))
    return fig


def waveforms(pe, dims, *, position=None, labels):
    """PE[:, d] against position for each chosen dimension d (fast dims first).

    pe [L,D]; dims: dimension indices (those >= D are skipped); position: a vertical
    marker at the fingerprint position. labels: title, x, y, dim (format with {d}, {kind}),
    sin, cos.
    """
    pe = style.f32(pe)
    length, dim = pe.shape
    x = np.arange(length)
    fig = go.Figure()
    shown = [d for d in dict.fromkeys(int(d) for d in dims) if 0 <= d < dim][:MAX_WAVES]
    for k, d in enumerate(shown):
        xs, ys = style.line_xy(x, pe[:, d])
        kind = labels["sin"] if d % 2 == 0 else labels["cos"]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=labels["dim"].format(d=d, kind=kind),
                                 line=dict(width=2.2, color=style.PALETTE[k % len(style.PALETTE)])))
    if position is not None and 0 <= position < length:
        fig.add_vline(x=position, line=dict(color="#555555", dash="dash", width=1.5))
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title=labels["y"], height=420)
    _title_above_legend(fig)
    fig.update_yaxes(range=[-1.1, 1.1])
    return fig


def fingerprint(pe, fingerprint_values, position, *, labels):
    """[L,D] heatmap (x = position, y = dimension) beside the column PE(position) as bars.

    The slice at x = position of the left panel is the bar chart on the right: the
    position's multi-scale fingerprint (seed 001).
    """
    pe = style.f32(pe)
    fp = style.f32(fingerprint_values)
    length, dim = pe.shape
    keep = style.decimate_axis(length, MAX_POSITIONS_SHOWN)
    fig = make_subplots(rows=1, cols=2, shared_yaxes=True, column_widths=[0.78, 0.22],
                        horizontal_spacing=0.03,
                        subplot_titles=(labels["heatmap"], labels["slice"].format(p=position)))
    hm = style.heatmap(pe[keep].T, x=keep, y=np.arange(dim), zmin=-1, zmax=1,
                       colorbar_title=labels["value"],
                       hover=labels["x"] + "=%{x}<br>" + labels["y"] + "=%{y}<br>PE=%{z:.3f}")
    fig.add_trace(hm, row=1, col=1)
    colors = np.where(fp >= 0, style.PALETTE[3], style.PALETTE[0])
    fig.add_trace(go.Bar(x=fp, y=np.arange(dim), orientation="h", marker_color=list(colors),
                         name=labels["slice"].format(p=position), showlegend=False,
                         hovertemplate=labels["y"] + "=%{y}<br>PE=%{x:.3f}<extra></extra>"), row=1, col=2)
    if 0 <= position < length:
        fig.add_vline(x=position, line=dict(color="#111111", width=2), row=1, col=1)
    style.layout(fig, height=460, legend=False)
    fig.update_xaxes(title_text=labels["x"], row=1, col=1)
    fig.update_xaxes(title_text="PE", range=[-1.1, 1.1], row=1, col=2)
    fig.update_yaxes(title_text=labels["y"], autorange="reversed", row=1, col=1)
    fig.data[0].colorbar.update(x=1.02, len=0.9, thickness=16)
    return fig


def similarity(sim, *, labels, offset=0):
    """PE PE^T [L,L] on a diverging scale centred at 0 (max |value| = D/2 on the diagonal)."""
    sim = style.f32(sim)
    n = sim.shape[0]
    zmin, zmax = style.symmetric_range(sim)
    keep = style.decimate_axis(n, MAX_POSITIONS_SHOWN)
    pos = np.arange(offset, offset + n)[keep]
    fig = go.Figure(style.heatmap(sim[np.ix_(keep, keep)], x=pos, y=pos, zmin=zmin, zmax=zmax, colorbar_title="PE·PE",
                                  hover="m=%{y}<br>n=%{x}<br>PE(m)·PE(n)=%{z:.3f}"))
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title=labels["y"], height=460, legend=False)
    fig.update_yaxes(autorange="reversed", scaleanchor="x")
    return fig


def dot_vs_offset(dots, anchored, anchors, *, labels):
    """The formula sum_i cos(Delta w_i) as a line and, on top, the same curve measured from
    PE(m)·PE(m + Delta) for a few anchors m (markers): they coincide."""
    dots = style.f32(dots)
    delta = np.arange(len(dots))
    fig = go.Figure()
    xs, ys = style.line_xy(delta, dots)
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=labels["formula"],
                             line=dict(color=style.PALETTE[7], width=2.5)))
    symbols = ["circle-open", "x-thin-open", "diamond-open", "square-open"]
    step = max(1, len(dots) // 60)
    for k, (m, row) in enumerate(zip(anchors, style.f32(anchored))):
        idx = np.arange(0, len(row), step)
        fig.add_trace(go.Scatter(x=delta[idx].astype(np.float32), y=row[idx], mode="markers",
                                 name=labels["anchor"].format(m=m),
                                 marker=dict(symbol=symbols[k % len(symbols)], size=8,
                                             color=style.PALETTE[(k + 1) % len(style.PALETTE)],
                                             line=dict(width=1.6))))
    fig.add_hline(y=0, line=dict(color="#999999", width=1))
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title=labels["y"], height=460)
    return _legend_inside(fig)


def shift_rotation(m, pe_p, rotated, target, *, labels):
    """Left: the top-left corner of M(Delta) (block diagonal). Right: PE(p), PE(p+Delta) and
    M(Delta)·PE(p) per dimension: the markers sit on the target line."""
    m = style.f32(m)
    k = min(MAX_ROTATION_DIMS, m.shape[0])
    fig = make_subplots(rows=1, cols=2, column_widths=[0.34, 0.66], horizontal_spacing=0.14,
                        subplot_titles=(labels["matrix"].format(k=k), labels["vectors"]))
    fig.add_trace(style.heatmap(m[:k, :k], zmin=-1, zmax=1, colorbar_title="M",
                                text=np.round(m[:k, :k], 2) if k <= 8 else None,
                                hover="row=%{y}<br>col=%{x}<br>M=%{z:.4f}"), row=1, col=1)
    fig.data[0].colorbar.update(x=0.3, len=0.9, thickness=14)
    d = np.arange(len(pe_p))
    fig.add_trace(go.Scatter(x=d, y=style.f32(pe_p), mode="lines", name=labels["pe_p"],
                             line=dict(color=style.PALETTE[5], width=1.5, dash="dot")), row=1, col=2)
    fig.add_trace(go.Scatter(x=d, y=style.f32(target), mode="lines", name=labels["target"],
                             line=dict(color=style.PALETTE[7], width=2.5)), row=1, col=2)
    fig.add_trace(go.Scatter(x=d, y=style.f32(rotated), mode="markers", name=labels["rotated"],
                             marker=dict(color=style.PALETTE[1], size=7, symbol="circle-open",
                                         line=dict(width=2))), row=1, col=2)
    style.layout(fig, height=450)
    fig.update_layout(margin=dict(t=90), legend=dict(orientation="h", yanchor="bottom", y=1.1, x=0.45))
    fig.update_yaxes(autorange="reversed", row=1, col=1)
    fig.update_xaxes(title_text=labels["dim"], row=1, col=2)
    fig.update_yaxes(range=[-1.1, 1.1], row=1, col=2)
    return fig


def hand_table(pe, dots, *, labels):
    """Seed 000 §04: the four points of w = pi/2 on the unit circle and their dot products."""
    pe, dots = style.f32(pe), style.f32(dots)
    n = len(pe)
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.16,
                        subplot_titles=(labels["circle"], labels["dots"]))
    t = np.linspace(0, 2 * np.pi, 121)
    fig.add_trace(go.Scatter(x=np.cos(t).astype(np.float32), y=np.sin(t).astype(np.float32), mode="lines",
                             line=dict(color="#bbbbbb", width=1), hoverinfo="skip", showlegend=False),
                  row=1, col=1)
    # x axis = cos (second coordinate), y axis = sin (first): angle p*w counted from the top.
    fig.add_trace(go.Scatter(x=pe[:, 1], y=pe[:, 0], mode="markers+text", text=[f"p={p}" for p in range(n)],
                             textposition="middle right", marker=dict(size=14, color=style.PALETTE[:n]),
                             showlegend=False, hovertemplate="sin=%{y:.0f}<br>cos=%{x:.0f}<extra></extra>"),
                  row=1, col=1)
    fig.add_trace(style.heatmap(dots, x=[f"n={p}" for p in range(n)], y=[f"m={p}" for p in range(n)],
                                zmin=-1, zmax=1, text=np.round(dots, 2), colorbar_title="cos((m−n)ω)",
                                hover="%{y}, %{x}<br>%{z:.0f}"), row=1, col=2)
    style.layout(fig, height=380, legend=False)
    fig.update_xaxes(range=[-1.6, 1.6], title_text="cos(pω)", row=1, col=1)
    fig.update_yaxes(range=[-1.3, 1.3], scaleanchor="x", title_text="sin(pω)", row=1, col=1)
    fig.update_yaxes(autorange="reversed", row=1, col=2)
    return fig


def layouts(pe_interleaved, pe_concat, *, labels):
    """The two column orders side by side on one colour scale (rows = position, cols = dimension)."""
    a, b = style.f32(pe_interleaved), style.f32(pe_concat)
    fig = make_subplots(rows=1, cols=2, shared_yaxes=True, horizontal_spacing=0.05,
                        subplot_titles=(labels["interleaved"], labels["concat"]))
    keep = style.decimate_axis(a.shape[0], 96)
    for col, z in ((1, a), (2, b)):
        fig.add_trace(style.heatmap(z[keep], y=keep, zmin=-1, zmax=1, showscale=col == 2, colorbar_title="PE",
                                    hover=labels["x"] + "=%{x}<br>" + labels["y"] + "=%{y}<br>PE=%{z:.3f}"),
                      row=1, col=col)
        fig.update_xaxes(title_text=labels["x"], row=1, col=col)
    style.layout(fig, height=400, legend=False)
    fig.update_yaxes(title_text=labels["y"], autorange="reversed", row=1, col=1)
    return fig


def modulo_rows(length, max_length, rows_modulo, *, labels):
    """Which table row each position reads: correct (p, only up to M-1), and the modulo bug
    (sawtooth p mod M). The shaded band is the region with no row."""
    rows = style.f32(rows_modulo)
    p = np.arange(length, dtype=np.float32)
    fig = go.Figure()
    ok = p[p < max_length]
    fig.add_trace(go.Scatter(x=ok, y=ok, mode="lines", name=labels["correct"],
                             line=dict(color=style.PALETTE[2], width=4)))
    xs, ys = style.line_xy(p, rows)
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers" if length <= 200 else "lines",
                             name=labels["modulo"], line=dict(color=style.PALETTE[3], width=2, dash="dot"),
                             marker=dict(size=5)))
    if length > max_length:
        fig.add_vrect(x0=max_length - 0.5, x1=length - 0.5, fillcolor=style.PALETTE[3], opacity=0.08,
                      line_width=0, annotation_text=labels["no_row"], annotation_position="top left")
    fig.add_hline(y=max_length - 1, line=dict(color="#777777", dash="dash", width=1),
                  annotation_text=labels["last_row"].format(r=max_length - 1), annotation_position="top left")
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title=labels["y"], height=420)
    return _title_above_legend(fig)


# Cache helpers, shared by every page (kept under these names for this module's callers).
to_cacheable, revive = style.freeze, style.thaw
