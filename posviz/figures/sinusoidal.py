"""Figures of the sinusoidal & learned page: arrays and one `labels` dict in, go.Figure out.

Every figure is a single panel: where the page compares two panels it draws each as its own figure
inside st.columns (which stack on a phone), with the colour range fixed explicitly (PE in [-1, 1]).
"""
import numpy as np
import plotly.graph_objects as go

from posviz.figures import panels, style

MAX_WAVES = 8
MAX_ROTATION_DIMS = 16   # the block structure of M(Delta) is only readable for a few pairs
# Heatmaps are decimated along the POSITION axis only: striding the dimension axis of an
# interleaved table would keep every other column, i.e. only the sines.
MAX_POSITIONS_SHOWN = 160   # also keeps the CSV under each figure quick to build
MAX_LAYOUT_POSITIONS = 96
PE_RANGE = (-1.0, 1.0)      # every PE entry is a sine or a cosine: one fixed scale for every panel
HEIGHT = 440


def _clear_top(fig, narrow=False):
    """The title (set by style.layout) under plotly's toolbar, which a touch screen always shows, and
    wrapped so that it never runs off a phone: panels.title_on_top. `narrow`: a panel in a narrow column."""
    return panels.title_on_top(fig, fig.layout.title.text, width=panels.PANEL_TITLE_WIDTH if narrow else panels.TITLE_WIDTH)


def _legend_below(fig, rows=2):
    """Horizontal legend at the very bottom of the figure, under the x axis title (never over the curves
    or the axis title), with room for `rows` lines of entries when it wraps on a phone."""
    fig.update_layout(legend=dict(orientation="h", x=0, xanchor="left", yref="container", y=0, yanchor="bottom"),
                      margin=dict(b=70 + 26 * rows))
    return fig


def _square(fig):
    """Equal units on x and y without padding the axis ranges (the heatmap keeps its own extent)."""
    fig.update_xaxes(constrain="domain")
    fig.update_yaxes(scaleanchor="x", constrain="domain")
    return fig


def waveforms(pe, dims, *, position=None, labels):
    """PE[:, d] against position for each chosen dimension d (fast dims first).

    pe [L,D]; dims: dimension indices (those >= D are skipped); position: a vertical
    marker at the fingerprint position. labels: title, x, y, dim (format with {d}, {kind}), sin, cos.
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
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title=labels["y"], height=460)
    _legend_below(_clear_top(fig), rows=3)
    fig.update_yaxes(range=[-1.1, 1.1])
    return fig


def fingerprint_table(pe, position, *, labels):
    """The [L,D] table as a heatmap (x = position, y = dimension, fast dimensions on top), with a line
    at `position`: the column cut there is `fingerprint_column`. labels: title, x, y, value."""
    pe = style.f32(pe)
    length, dim = pe.shape
    keep = style.decimate_axis(length, MAX_POSITIONS_SHOWN)
    fig = go.Figure(style.heatmap(pe[keep].T, x=keep, y=np.arange(dim), zmin=PE_RANGE[0], zmax=PE_RANGE[1],
                                  colorbar_title=labels["value"],
                                  hover=labels["x"] + "=%{x}<br>" + labels["y"] + "=%{y}<br>PE=%{z:.3f}"))
    if 0 <= position < length:
        fig.add_vline(x=position, line=dict(color="#111111", width=2))
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title=labels["y"], height=HEIGHT, legend=False)
    fig.data[0].colorbar.update(len=0.85, thickness=14)
    fig.update_yaxes(autorange="reversed")
    return _clear_top(fig)


def fingerprint_column(values, *, labels):
    """One column PE(p) of the table as horizontal bars, one per dimension, on the rows of
    `fingerprint_table`. labels: title, y."""
    fp = style.f32(values)
    dim = len(fp)
    colors = np.where(fp >= 0, style.PALETTE[3], style.PALETTE[0])
    fig = go.Figure(go.Bar(x=fp, y=np.arange(dim), orientation="h", marker_color=list(colors),
                           name=labels["title"], showlegend=False,
                           hovertemplate=labels["y"] + "=%{y}<br>PE=%{x:.3f}<extra></extra>"))
    style.layout(fig, title=labels["title"], x_title="PE", y_title=labels["y"], height=HEIGHT,
                 legend=False)
    fig.update_xaxes(range=[-1.1, 1.1])
    fig.update_yaxes(autorange="reversed")
    return _clear_top(fig, narrow=True)


def similarity(sim, *, labels, offset=0):
    """PE PE^T [L,L] on a diverging scale centred at 0 (max |value| = D/2 on the diagonal)."""
    sim = style.f32(sim)
    n = sim.shape[0]
    zmin, zmax = style.symmetric_range(sim)
    keep = style.decimate_axis(n, MAX_POSITIONS_SHOWN)
    pos = np.arange(offset, offset + n)[keep]
    fig = go.Figure(style.heatmap(sim[np.ix_(keep, keep)], x=pos, y=pos, zmin=zmin, zmax=zmax, colorbar_title="PE·PE",
                                  hover="m=%{y}<br>n=%{x}<br>PE(m)·PE(n)=%{z:.3f}"))
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title=labels["y"], height=520, legend=False)
    fig.data[0].colorbar.update(len=0.85, thickness=14)
    fig.update_yaxes(autorange="reversed")
    return _square(_clear_top(fig))


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
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title=labels["y"], height=520)
    return _legend_below(_clear_top(fig), rows=4)


def shift_matrix(m, *, labels):
    """The top-left corner of M(Delta) (block diagonal, one 2x2 rotation per pair). labels: title ({k})."""
    m = style.f32(m)
    k = min(MAX_ROTATION_DIMS, m.shape[0])
    fig = go.Figure(style.heatmap(m[:k, :k], zmin=-1, zmax=1, colorbar_title="M",
                                  text=np.round(m[:k, :k], 2) if k <= 8 else None,
                                  hover="row=%{y}<br>col=%{x}<br>M=%{z:.4f}"))
    style.layout(fig, title=labels["title"].format(k=k), height=HEIGHT, legend=False)
    fig.data[0].colorbar.update(len=0.85, thickness=14)
    fig.update_yaxes(autorange="reversed")
    return _square(_clear_top(fig, narrow=True))


def shift_vectors(pe_p, rotated, target, *, labels):
    """PE(p), PE(p+Delta) and M(Delta)·PE(p) per dimension: the markers sit on the target line.
    labels: title, x, pe_p, target, rotated."""
    d = np.arange(len(pe_p))
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=d, y=style.f32(pe_p), mode="lines", name=labels["pe_p"],
                             line=dict(color=style.PALETTE[5], width=1.5, dash="dot")))
    fig.add_trace(go.Scatter(x=d, y=style.f32(target), mode="lines", name=labels["target"],
                             line=dict(color=style.PALETTE[7], width=2.5)))
    fig.add_trace(go.Scatter(x=d, y=style.f32(rotated), mode="markers", name=labels["rotated"],
                             marker=dict(color=style.PALETTE[1], size=7, symbol="circle-open", line=dict(width=2))))
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title="PE", height=HEIGHT)
    fig.update_yaxes(range=[-1.1, 1.1])
    return _legend_below(_clear_top(fig), rows=2)


def shift_blocks_latex(blocks):
    """The live 2x2 blocks {i: [[a, b], [c, d]]} as one display formula, one block per line (each line
    fits a phone): M_0(Δ) = [...] \\ M_i(Δ) = [...]."""
    def matrix(m):
        rows = r" \\ ".join(" & ".join(f"{float(v):+.4f}" for v in row) for row in np.asarray(m))
        return r"\begin{bmatrix}" + rows + r"\end{bmatrix}"

    lines = [f"M_{{{int(i)}}}(\\Delta) = " + matrix(m) for i, m in sorted(blocks.items())]
    return r"\begin{gathered}" + r" \\[6pt] ".join(lines) + r"\end{gathered}"


def hand_circle(pe, *, labels):
    """Seed 000 §04: the positions of w = pi/2 on the unit circle (x = cos, y = sin). labels: title."""
    pe = style.f32(pe)
    n = len(pe)
    t = np.linspace(0, 2 * np.pi, 121)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=np.cos(t).astype(np.float32), y=np.sin(t).astype(np.float32), mode="lines",
                             line=dict(color="#bbbbbb", width=1), hoverinfo="skip", showlegend=False))
    # x axis = cos (second coordinate), y axis = sin (first): angle p*w counted from the top.
    fig.add_trace(go.Scatter(x=pe[:, 1], y=pe[:, 0], mode="markers+text", text=[f"p={p}" for p in range(n)],
                             textposition="middle right", marker=dict(size=14, color=style.PALETTE[:n]),
                             showlegend=False, hovertemplate="sin=%{y:.0f}<br>cos=%{x:.0f}<extra></extra>"))
    style.layout(fig, title=labels["title"], x_title="cos(pω)", y_title="sin(pω)", height=400, legend=False)
    fig.update_xaxes(range=[-1.6, 1.6])
    fig.update_yaxes(range=[-1.3, 1.3], scaleanchor="x")
    return _clear_top(fig, narrow=True)


def hand_dots(dots, *, labels):
    """The dot products PE(m)·PE(n) = cos((m-n) w) of the hand table, with their values. labels: title."""
    dots = style.f32(dots)
    n = len(dots)
    fig = go.Figure(style.heatmap(dots, x=[f"n={p}" for p in range(n)], y=[f"m={p}" for p in range(n)],
                                  zmin=-1, zmax=1, text=np.round(dots, 2), colorbar_title="cos((m−n)ω)",
                                  hover="%{y}, %{x}<br>%{z:.0f}"))
    style.layout(fig, title=labels["title"], height=400, legend=False)
    fig.data[0].colorbar.update(len=0.85, thickness=14)
    fig.update_yaxes(autorange="reversed")
    return _clear_top(fig, narrow=True)


def layout_table(pe, *, labels, colorbar=True):
    """One column order of the table (rows = position, columns = dimension) on the fixed PE scale, so
    the interleaved and the concat panel compare colour for colour. labels: title, x, y."""
    pe = style.f32(pe)
    keep = style.decimate_axis(pe.shape[0], MAX_LAYOUT_POSITIONS)
    fig = go.Figure(style.heatmap(pe[keep], y=keep, zmin=PE_RANGE[0], zmax=PE_RANGE[1], showscale=colorbar,
                                  colorbar_title="PE",
                                  hover=labels["x"] + "=%{x}<br>" + labels["y"] + "=%{y}<br>PE=%{z:.3f}"))
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title=labels["y"], height=400, legend=False)
    if colorbar:
        fig.data[0].colorbar.update(len=0.85, thickness=14)
    fig.update_yaxes(autorange="reversed")
    return _clear_top(fig)


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
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title=labels["y"], height=460)
    return _legend_below(_clear_top(fig), rows=2)
