"""Figures of the "train short, test long" page: per-bucket accuracy / loss / attention entropy of the tiny
trained models, one head's attention map (with the phase aliases of an offset overlaid), and the
phase-alias error per offset. Every builder takes arrays and one `labels` dict of translated strings."""
import numpy as np
import plotly.graph_objects as go

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
TRAIN_FILL = "#56B4E9"
MARK = "#D55E00"          # training boundary on the maps, aliases
MAX_SIDE = 192            # attention maps are block-max pooled to at most 192 x 192 cells


def bucket_centers(buckets):
    """[[start, end), ...] -> centre of each bucket (the x of its point)."""
    return [(a + b - 1) / 2 for a, b in buckets]


def _train_region(fig, train_length, label):
    fig.add_vrect(x0=-0.5, x1=train_length - 0.5, fillcolor=TRAIN_FILL, opacity=0.12, line_width=0)
    fig.add_vline(x=train_length - 0.5, line=dict(color="#000000", width=2, dash="dash"))
    fig.add_annotation(x=train_length - 0.5, y=1.0, yref="paper", text=label, showarrow=False,
                       xanchor="left", yanchor="top", font=dict(size=13), bgcolor="rgba(255,255,255,0.7)")


def bucket_lines(buckets, series, train_length, *, labels, y_range=None, reference=None, height=580):
    """One line per variant over the position buckets; the trained range shaded.

    series: {variant: [value or None per bucket]} (None = not computable: a gap);
    reference: optional [value per bucket] drawn as a thin grey line (chance / uniform).
    labels: "title", "subtitle" (optional), "x", "y", "train", "reference", and the legend name of every
    variant (by its key).
    The legend sits under the plot in rows, so a phone keeps the whole width for the lines.
    """
    x = bucket_centers(buckets)
    tick = [f"{a}–{b - 1}" for a, b in buckets]
    fig = go.Figure()
    if reference is not None:
        fig.add_trace(go.Scatter(x=x, y=style.f32([np.nan if v is None else v for v in reference]),
                                 mode="lines", name=labels.get("reference"),
                                 line=dict(color="#999999", width=1.5, dash="dot")))
    for name, ys in series.items():
        y = style.f32([np.nan if v is None else v for v in ys])
        shown = labels.get(name, name)
        fig.add_trace(go.Scatter(
            x=x, y=y, mode="lines+markers", name=shown, connectgaps=False,
            line=dict(color=COLORS.get(name), dash=DASHES.get(name, "solid"), width=2.5),
            marker=dict(symbol=MARKERS.get(name, "circle"), size=9),
            customdata=tick, hovertemplate="%{customdata}: %{y:.3f}<extra>" + shown + "</extra>"))
    _train_region(fig, train_length, labels.get("train"))
    _titled(fig, labels, height)
    edges = [a for a, _ in buckets] + [buckets[-1][1]]
    fig.update_xaxes(tickvals=edges, range=[-0.5, buckets[-1][1] + 0.5])
    if y_range is not None:
        fig.update_yaxes(range=y_range)
    _legend_below(fig)
    return fig


def _titled(fig, labels, height):
    """House layout with a short title and, under it, an optional smaller subtitle (phone-wide titles)."""
    title, sub = labels.get("title"), labels.get("subtitle")
    style.layout(fig, title=f"{title}<br><sup>{sub}</sup>" if title and sub else title, x_title=labels.get("x"),
                 y_title=labels.get("y"), height=height)
    _title_under_toolbar(fig, 105 if sub else 75, lines=2 if sub else 1)


def _title_under_toolbar(fig, top, lines=1):
    """The title sits right above the plot area, below the band where plotly's toolbar appears (always
    shown on touch screens), so the two never overlap on a phone. Plotly anchors a two-line title by its
    first line: the pad leaves room for the (smaller) second line."""
    if fig.layout.title.text:
        fig.update_layout(title=dict(yref="paper", y=1, yanchor="bottom", pad=dict(b=12 if lines == 1 else 30)),
                          margin_t=top)


def _legend_below(fig):
    """A horizontal legend under the plot, anchored to the bottom of the figure: entries wrap into rows
    on a phone and never cover the axis title; the bottom margin grows to hold them."""
    fig.update_layout(legend=dict(orientation="h", yref="container", y=0, yanchor="bottom", x=0, xanchor="left"),
                      margin=dict(r=10))


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


def _diagonals(offsets, n):
    """Line segments i - j = d across an n x n map, joined into one trace with gaps (None)."""
    xs, ys = [], []
    for d in offsets:
        if 0 <= d < n:
            xs += [-0.5, n - 1 - d + 0.5, None]
            ys += [d - 0.5, n - 0.5, None]
    return xs, ys


def attention_map(z, *, labels, train_length=None, aliases=(), target=None, height=440):
    """Attention probabilities [L,L] of one head on a fixed scale 0..1 (so two maps side by side compare).

    train_length: dashed lines where training ended (drawn when the map is longer);
    aliases: offsets i - j drawn as thin, translucent dotted diagonals that start at a marker on the left edge
    (the phase aliases of `target`, whose marker is drawn apart); the stripes stay visible through the dots.
    The legend sits in the empty upper-right triangle (future keys: causal, always 0).
    Maps longer than MAX_SIDE show the max over each b x b block (hover says so).
    labels: "title", "x", "y", "block_max" (hover name of a pooled cell), "aliases", "target".
    """
    n = len(z)
    zp, coords, b = block_max(z)
    c = coords + (b - 1) / 2
    hover = (f"{labels.get('x')} %{{x}}<br>{labels.get('y')} %{{y}}<br>a = %{{z:.3f}}<extra></extra>" if b == 1 else
             f"{labels.get('x')} ≈ %{{x}}<br>{labels.get('y')} ≈ %{{y}}<br>{labels.get('block_max')} = %{{z:.3f}}"
             "<extra></extra>")
    fig = go.Figure(style.heatmap(zp, x=c, y=c, colorscale=style.SEQUENTIAL, zmin=0.0, zmax=1.0,
                                  colorbar_title="a<sub>ij</sub>", hover=hover))
    fig.update_traces(colorbar=dict(thickness=12, len=0.9))
    if train_length is not None and n > train_length:
        for kw in (dict(x0=train_length - 0.5, x1=train_length - 0.5, y0=-0.5, y1=n - 0.5),
                   dict(x0=-0.5, x1=n - 0.5, y0=train_length - 0.5, y1=train_length - 0.5)):
            fig.add_shape(type="line", line=dict(color=MARK, width=2, dash="dash"), **kw)
    others = [d for d in aliases if d != target and 0 <= d < n]
    if others:
        xs, ys = _diagonals(others, n)
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", hoverinfo="skip", showlegend=False, opacity=0.6,
                                 line=dict(color="#FFFFFF", width=1, dash="dot")))
        fig.add_trace(go.Scatter(x=[-0.5] * len(others), y=others, mode="markers", name=labels.get("aliases"),
                                 cliponaxis=False, marker=dict(symbol="triangle-right", size=11, color="#FFFFFF",
                                                               line=dict(color=MARK, width=1.5)),
                                 hovertemplate="i − j = %{y}<extra></extra>"))
    if target is not None and others and 0 <= target < n:
        fig.add_trace(go.Scatter(x=[-0.5], y=[target], mode="markers", name=labels.get("target"), cliponaxis=False,
                                 marker=dict(symbol="triangle-right", size=11, color=MARK),
                                 hovertemplate="i − j = %{y}<extra></extra>"))
    style.layout(fig, title=labels.get("title"), x_title=labels.get("x"), y_title=labels.get("y"), height=height,
                 legend=bool(others))
    _title_under_toolbar(fig, 75)
    fig.update_layout(legend=dict(orientation="v", x=0.99, xanchor="right", y=0.99, yanchor="top",
                                  bgcolor="rgba(255,255,255,0.85)"), margin=dict(r=10))
    fig.update_xaxes(range=[-0.5, n - 0.5])
    fig.update_yaxes(range=[n - 0.5, -0.5])
    return fig


def alias_errors(error, aliases, tol, train_length, *, labels, height=400):
    """e(Δ), the largest fast-pair phase difference to the target offset (degrees), for every offset Δ;
    the tolerance as a horizontal line, the aliases (e <= tol) marked, the trained offsets shaded.
    labels: "title", "subtitle" (optional), "x", "y", "tol", "alias", "train"."""
    e = style.f32(error)
    x = np.arange(len(e), dtype=np.float32)
    fig = go.Figure(go.Scatter(x=x, y=e, mode="lines", showlegend=False, line=dict(color=style.PALETTE[0], width=1.5),
                               hovertemplate="Δ = %{x}<br>e = %{y:.1f}°<extra></extra>"))
    idx = np.asarray(aliases, dtype=int)
    fig.add_trace(go.Scatter(x=x[idx], y=e[idx], mode="markers", name=labels.get("alias"),
                             marker=dict(color=MARK, size=10, symbol="circle"),
                             hovertemplate="Δ = %{x}<br>e = %{y:.1f}°<extra></extra>"))
    fig.add_hline(y=tol, line=dict(color="#000000", width=1.5, dash="dash"))
    fig.add_annotation(x=len(e) - 1, y=tol, text=labels.get("tol"), showarrow=False, xanchor="right",
                       yanchor="bottom", font=dict(size=13), bgcolor="rgba(255,255,255,0.7)")
    _train_region(fig, train_length, labels.get("train"))
    _titled(fig, labels, height)
    fig.update_yaxes(range=[0, 185], tickvals=[0, 45, 90, 135, 180])
    fig.update_xaxes(range=[-0.5, len(e) - 0.5])
    _legend_below(fig)
    return fig
