"""Figures of the relative-position page: arrays in, go.Figure out (no streamlit, no text
lookups: every label is passed in by the page)."""
import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from posviz.figures import style

SMALL = 400          # heatmaps with at most this many cells print their numbers in the cells


def _ticks(n, offset=0):
    return np.arange(n) + offset


def _cell_text(z, max_cols=16):
    """Per-cell labels for small matrices only (<= SMALL cells and narrow enough to read)."""
    z = np.asarray(z)
    if z.size > SMALL or z.shape[1] > max_cols:
        return None
    if np.issubdtype(z.dtype, np.integer):
        return z.astype(str)
    return np.char.mod("%.3g", z.astype(np.float64))


def _matrix_axes(fig, x_title, y_title, row=None, col=None, n_rows=None, n_cols=None):
    """Rows downwards (query i), columns left to right (key j); integer ticks on short axes."""
    kw = {} if row is None else dict(row=row, col=col)
    fig.update_yaxes(autorange="reversed", title_text=y_title, **kw)
    fig.update_xaxes(title_text=x_title, side="bottom", **kw)
    if n_rows is not None and n_rows <= 16:
        fig.update_yaxes(dtick=1 if n_rows <= 8 else 2, **kw)
    if n_cols is not None and n_cols <= 16:
        fig.update_xaxes(dtick=1 if n_cols <= 8 else 2, **kw)


def matrix(z, *, query_pos, key_pos=None, title, x_title, y_title, colorbar_title, diverging=True,
           zmin=None, zmax=None, height=440, hover="j=%{x}<br>i=%{y}<br>%{z}", text_cols=16):
    """One [L,S] heatmap: rows are query positions i (right-aligned), columns key positions j.
    Diverging (zmid 0, symmetric range unless given) or sequential; numbers in the cells
    when small."""
    z = np.asarray(z)
    if diverging and zmin is None:
        zmin, zmax = style.symmetric_range(z)
    kp = _ticks(z.shape[1]) if key_pos is None else np.asarray(key_pos)
    tr = style.heatmap(z, x=kp, y=np.asarray(query_pos),
                       colorscale=style.DIVERGING if diverging else style.SEQUENTIAL,
                       zmin=zmin, zmax=zmax, zmid=0.0 if diverging else None,
                       colorbar_title=colorbar_title, text=_cell_text(z, text_cols), hover=hover)
    fig = go.Figure(tr)
    style.layout(fig, title=title, height=height, legend=False)
    _matrix_axes(fig, x_title, y_title, n_rows=z.shape[0], n_cols=z.shape[1])
    return fig


def _panel(z, max_cells):
    """Decimate a panel of a multi-panel figure so the whole figure stays within MAX_CELLS."""
    zd, ri, ci = style.decimate_2d(z, max_cells=max_cells)
    return zd, ri, ci


def shaw(index, lost, *, k, query_pos, titles, x_title, y_title, colorbar_titles, height=440):
    """Left: Shaw's table row clip(j-i,-k,k)+k (sequential 0..2k). Right: steps of distance lost
    to clipping, max(|i-j|-k, 0) (0 = exact)."""
    index, lost = np.asarray(index), np.asarray(lost)
    fig = make_subplots(rows=1, cols=2, subplot_titles=titles, horizontal_spacing=0.14)
    per = style.MAX_CELLS // 2
    qp = np.asarray(query_pos)
    for c, (z, zmax, cb, cs, x_cb) in enumerate(
            [(index, max(2 * k, 1), colorbar_titles[0], style.SEQUENTIAL, 0.43),
             (lost, max(float(lost.max()), 1.0), colorbar_titles[1], "Oranges", 1.0)], start=1):
        zd, ri, ci = _panel(z, per)
        text = _cell_text(z)
        kw = dict(text=text, texttemplate="%{text}") if text is not None else {}
        fig.add_trace(go.Heatmap(z=zd, x=ci, y=qp[ri], colorscale=cs, zmin=0, zmax=zmax,
                                 colorbar=dict(title=dict(text=cb, side="right"), x=x_cb, len=0.9),
                                 hovertemplate="j=%{x}<br>i=%{y}<br>%{z}<extra></extra>", **kw),
                      row=1, col=c)
        _matrix_axes(fig, x_title, y_title if c == 1 else None, row=1, col=c, n_rows=z.shape[0], n_cols=z.shape[1])
    style.layout(fig, height=height, legend=False)
    fig.update_layout(margin=dict(t=70))
    return fig


def t5_step(distance, bucket, *, max_exact, max_distance, bidirectional, title, x_title, y_title,
            exact_label, log_label, max_label, bucket_label, height=420):
    """Bucket vs distance d = i - j as a step plot; exact region shaded, +-max_distance marked."""
    x, y = style.line_xy(np.asarray(distance), np.asarray(bucket))
    fig = go.Figure()
    fig.add_vrect(x0=-(max_exact - 0.5) if bidirectional else -0.5, x1=max_exact - 0.5,
                  fillcolor=style.PALETTE[2], opacity=0.15, line_width=0,
                  annotation_text=exact_label, annotation_position="top left")
    fig.add_trace(go.Scatter(x=x, y=y, mode="lines", line=dict(shape="hv", width=2.5, color=style.PALETTE[0]),
                             name=bucket_label, hovertemplate="d=%{x}<br>b=%{y}<extra></extra>"))
    for s in ((1, -1) if bidirectional else (1,)):
        fig.add_vline(x=s * max_distance, line=dict(color=style.PALETTE[3], dash="dash", width=2))
    fig.add_annotation(x=max_distance, y=1.0, yref="paper", text=max_label, showarrow=False,
                       xanchor="right", yanchor="bottom", font=dict(color=style.PALETTE[3]))
    fig.add_annotation(x=(max_exact + max_distance) / 2, y=0.02, yref="paper", text=log_label,
                       showarrow=False, yanchor="bottom", font=dict(color=style.PALETTE[0]))
    style.layout(fig, title=title, x_title=x_title, y_title=y_title, height=height, legend=False)
    return fig


def alibi_slopes(slopes, *, n_base, title, x_title, y_title, base_label, fill_label, selected=None, height=380):
    """Bar per head (1-based), log y: heads 1..2^k take the geometric slopes, the rest are the
    interleaved slopes of 2^(k+1) (colour tells which)."""
    slopes = style.f32(slopes)
    h = np.arange(1, len(slopes) + 1)
    # the selected head (1-based) is drawn opaque with a black outline, the others lighter
    opacity = np.where(h == selected, 1.0, 0.55) if selected is not None else np.ones(len(h))
    outline = np.where(h == selected, 2.5, 0.0) if selected is not None else np.zeros(len(h))
    fig = go.Figure()
    for part, name, colour in ((slice(0, n_base), base_label, style.PALETTE[0]),
                               (slice(n_base, len(h)), fill_label, style.PALETTE[1])):
        if len(h[part]) == 0:
            continue
        fig.add_trace(go.Bar(x=h[part], y=slopes[part], name=name,
                             marker=dict(color=colour, opacity=opacity[part],
                                         line=dict(color="#000000", width=outline[part])),
                             hovertemplate="h=%{x}<br>m=%{y:.6g}<extra></extra>"))
    style.layout(fig, title=title, x_title=x_title, y_title=y_title, height=height)
    lo = int(np.floor(np.log2(max(float(slopes.min()), 2.0**-30))))
    ticks = [2.0**e for e in range(0, lo - 1, -1)]
    fig.update_yaxes(type="log", tickvals=ticks, ticktext=["1" if e == 0 else f"1/{2**-e}" for e in
                                                          range(0, lo - 1, -1)])
    fig.update_layout(bargap=0.15, margin=dict(b=110),
                      legend=dict(orientation="h", x=0, xanchor="left", y=-0.3, yanchor="top"))
    return fig


def mask(mask_, uniform, *, query_pos, titles, x_title, y_title, line_x_title, line_y_title,
         allowed_label, weight_label, height=420):
    """Left: the causal mask (1 = edge exists). Right: with no position signal and equal
    contents attention is uniform over visible keys, so each weight is 1/(i+1): position leaks."""
    m = np.asarray(mask_).astype(np.float32)
    u = np.asarray(uniform, dtype=np.float32)
    qp = np.asarray(query_pos)
    fig = make_subplots(rows=1, cols=2, subplot_titles=titles, horizontal_spacing=0.12,
                        column_widths=[0.5, 0.5])
    md, ri, ci = _panel(m, style.MAX_CELLS // 2)
    text = _cell_text(m.astype(np.int64))
    kw = dict(text=text, texttemplate="%{text}") if text is not None else {}
    fig.add_trace(go.Heatmap(z=md, x=ci, y=qp[ri], colorscale=[[0, "#f2f2f2"], [1, style.PALETTE[0]]],
                             zmin=0, zmax=1, showscale=False, name=allowed_label,
                             hovertemplate="j=%{x}<br>i=%{y}<br>%{z}<extra></extra>", **kw), row=1, col=1)
    _matrix_axes(fig, x_title, y_title, row=1, col=1, n_rows=m.shape[0], n_cols=m.shape[1])
    x, y = style.line_xy(qp, u[:, 0])
    fig.add_trace(go.Scatter(x=x, y=y, mode="lines+markers", name=weight_label,
                             line=dict(color=style.PALETTE[3], width=2.5),
                             hovertemplate="i=%{x}<br>1/(i+1)=%{y:.4g}<extra></extra>"), row=1, col=2)
    fig.update_xaxes(title_text=line_x_title, row=1, col=2)
    fig.update_yaxes(title_text=line_y_title, rangemode="tozero", row=1, col=2)
    style.layout(fig, height=height, legend=False)
    fig.update_layout(margin=dict(t=70))
    return fig


def side_by_side(panels, alibi, *, query_pos, titles, alibi_title, x_title, y_title, colorbar_title,
                 alibi_colorbar_title, height=760):
    """2x2 panels of the same [L,S]: the distance-like panels share ONE diverging scale (tokens,
    zmid 0); the ALiBi bias (logits) has its own diverging scale, also zmid 0."""
    panels = [np.asarray(p) for p in panels]
    alibi = np.asarray(alibi)
    qp = np.asarray(query_pos)
    fig = make_subplots(rows=2, cols=2, subplot_titles=list(titles) + [alibi_title],
                        horizontal_spacing=0.16, vertical_spacing=0.14)
    zmin, zmax = style.symmetric_range(*panels)
    amin, amax = style.symmetric_range(alibi)
    per = style.MAX_CELLS // 4
    for n, z in enumerate(panels + [alibi]):
        r, c = divmod(n, 2)
        is_alibi = n == len(panels)
        zd, ri, ci = _panel(z, per)
        cb = dict(title=dict(text=alibi_colorbar_title if is_alibi else colorbar_title, side="right"),
                  len=0.4, y=0.21 if is_alibi else 0.79, x=1.0)
        fig.add_trace(go.Heatmap(z=zd, x=ci, y=qp[ri], colorscale=style.DIVERGING,
                                 zmin=amin if is_alibi else zmin, zmax=amax if is_alibi else zmax, zmid=0.0,
                                 showscale=is_alibi or n == 0, colorbar=cb,
                                 hovertemplate="j=%{x}<br>i=%{y}<br>%{z:.4g}<extra></extra>"),
                      row=r + 1, col=c + 1)
        _matrix_axes(fig, x_title if r == 1 else None, y_title if c == 0 else None, row=r + 1, col=c + 1,
                     n_rows=z.shape[0], n_cols=z.shape[1])
    style.layout(fig, height=height, legend=False)
    fig.update_layout(margin=dict(t=70))
    return fig
