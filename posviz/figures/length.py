"""Figures of the "train short, test long" page: per-bucket accuracy / loss / attention
entropy of the tiny trained models, and their attention maps at a short and a long length."""
import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from posviz.figures import style

# One colour per trained model; the RoPE scalings share RoPE's colour with their own dash.
COLORS = {"nope": style.PALETTE[7], "sinusoidal": style.PALETTE[1], "learned": style.PALETTE[4],
          "learned_clamp": style.PALETTE[4], "rope": style.PALETTE[0], "rope_pi": style.PALETTE[5],
          "rope_ntk": style.PALETTE[0], "rope_yarn": style.PALETTE[5], "alibi": style.PALETTE[2],
          "t5": style.PALETTE[3], "live": "#555555"}
DASHES = {"learned_clamp": "dot", "rope_pi": "dot", "rope_ntk": "dash", "rope_yarn": "dashdot",
          "live": "dot"}
MARKERS = {"nope": "x", "sinusoidal": "diamond", "learned": "square", "learned_clamp": "square-open",
           "rope": "circle", "rope_pi": "circle-open", "rope_ntk": "triangle-down-open", "rope_yarn": "diamond-open",
           "alibi": "triangle-up", "t5": "star", "live": "cross-thin"}


def bucket_centers(buckets):
    """[[start, end), ...] -> centre of each bucket (the x of its point)."""
    return [(a + b - 1) / 2 for a, b in buckets]


def _train_region(fig, train_length, label, *, row=None, col=None):
    kw = {} if row is None else dict(row=row, col=col)
    fig.add_vrect(x0=-0.5, x1=train_length - 0.5, fillcolor="#56B4E9", opacity=0.12, line_width=0, **kw)
    fig.add_vline(x=train_length - 0.5, line=dict(color="#000000", width=2, dash="dash"), **kw)
    fig.add_annotation(x=train_length - 0.5, y=1.0, yref="paper", text=label, showarrow=False,
                       xanchor="left", yanchor="top", font=dict(size=13), bgcolor="rgba(255,255,255,0.7)")


def bucket_lines(buckets, series, labels, train_length, *, title, x_title, y_title, train_label,
                 y_range=None, reference=None, reference_label=None, height=460):
    """One line per variant over the position buckets; the trained range shaded.

    series: {variant: [value or None per bucket]} (None = not computable: a gap);
    reference: optional [value per bucket] drawn as a thin grey line (chance / uniform).
    """
    x = bucket_centers(buckets)
    tick = [f"{a}–{b - 1}" for a, b in buckets]
    fig = go.Figure()
    if reference is not None:
        fig.add_trace(go.Scatter(x=x, y=style.f32([np.nan if v is None else v for v in reference]),
                                 mode="lines", name=reference_label,
                                 line=dict(color="#999999", width=1.5, dash="dot")))
    for name, ys in series.items():
        y = style.f32([np.nan if v is None else v for v in ys])
        fig.add_trace(go.Scatter(
            x=x, y=y, mode="lines+markers", name=labels.get(name, name), connectgaps=False,
            line=dict(color=COLORS.get(name), dash=DASHES.get(name, "solid"), width=2.5),
            marker=dict(symbol=MARKERS.get(name, "circle"), size=9),
            customdata=tick, hovertemplate="%{customdata}: %{y:.3f}<extra>" + labels.get(name, name) + "</extra>"))
    _train_region(fig, train_length, train_label)
    style.layout(fig, title=title, x_title=x_title, y_title=y_title, height=height)
    fig.update_xaxes(tickvals=x, ticktext=tick, range=[-0.5, buckets[-1][1] - 0.5])
    if y_range is not None:
        fig.update_yaxes(range=y_range)
    fig.update_layout(legend=dict(orientation="v", yanchor="top", y=1.0, x=1.02, xanchor="left"),
                      margin=dict(r=20))
    return fig


def uniform_entropy(buckets):
    """Entropy of uniform causal attention, ln(i+1), averaged over each bucket (nats)."""
    return [float(np.mean(np.log(np.arange(a, b) + 1.0))) for a, b in buckets]


MAX_SIDE = 192   # attention maps are block-max pooled to at most 192 x 192 cells


def block_max(z, max_side=MAX_SIDE):
    """[L,L] -> (z' [ceil(L/b), ceil(L/b)], coordinates of the block starts, b): the max over b x b
    blocks, b = ceil(L / max_side). Keeps thin diagonals visible where striding could drop them."""
    z = style.f32(z)
    n = z.shape[0]
    b = max(1, -(-n // max_side))
    if b == 1:
        return z, np.arange(n), 1
    m = -(-n // b) * b
    pad = np.zeros((m, m), dtype=np.float32)
    pad[:n, :n] = z
    pooled = pad.reshape(m // b, b, m // b, b).max(axis=(1, 3))
    return np.ascontiguousarray(pooled), np.arange(0, m, b), b


def attention_pair(short_map, long_map, *, train_length, titles, x_title, y_title, height=470):
    """Attention probabilities [L,L] of one head at a short and at a long length, side by side,
    on one fixed scale 0..1; the training length is marked on the long map. Maps longer than
    MAX_SIDE show the max over each b x b block (hover says so)."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=titles, horizontal_spacing=0.08,
                        column_widths=[0.5, 0.5])
    for col, z in ((1, short_map), (2, long_map)):
        n = len(z)
        zp, coords, b = block_max(z)
        hover = ("key j=%{x}<br>query i=%{y}<br>a=%{z:.3f}" if b == 1 else
                 f"{b}×{b} block around key j≈%{{x}}, query i≈%{{y}}<br>max a=%{{z:.3f}}")
        tr = style.heatmap(zp, x=coords + (b - 1) / 2, y=coords + (b - 1) / 2, colorscale=style.SEQUENTIAL,
                           zmin=0.0, zmax=1.0, colorbar_title="a<sub>ij</sub>", showscale=col == 2, hover=hover)
        fig.add_trace(tr, row=1, col=col)
        fig.update_yaxes(autorange="reversed", row=1, col=col, scaleanchor=f"x{'' if col == 1 else col}")
        fig.update_xaxes(range=[-0.5, n - 0.5], row=1, col=col, title_text=x_title)
    n_long = len(long_map)
    if n_long > train_length:
        for kw in (dict(x0=train_length - 0.5, x1=train_length - 0.5, y0=-0.5, y1=n_long - 0.5),
                   dict(x0=-0.5, x1=n_long - 0.5, y0=train_length - 0.5, y1=train_length - 0.5)):
            fig.add_shape(type="line", line=dict(color="#D55E00", width=2, dash="dash"), row=1, col=2, **kw)
    style.layout(fig, x_title=None, y_title=None, height=height, legend=False)
    fig.update_yaxes(title_text=y_title, row=1, col=1)
    return fig


def chance_level(vocab_size):
    """Accuracy of guessing uniformly among the content tokens."""
    return 1.0 / max(1, vocab_size - 1)


def loss_range(series):
    """A y range for loss plots: 0 .. a little above the largest finite value."""
    vals = [v for ys in series.values() for v in ys if v is not None and math.isfinite(v)]
    top = max(vals) if vals else 1.0
    return [0.0, top * 1.05 + 1e-6]
