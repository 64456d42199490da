"""Figures of the "train short, test long" page: per-bucket accuracy / loss / attention entropy of the tiny
trained models, one head's attention map (with the phase aliases of an offset overlaid), and the
phase-alias error per offset. Every builder takes arrays and one `labels` dict of translated strings.
The figures are written as plain dicts and wrapped without plotly's validation (it costs ~20x the
build; tests/figures/test_figures_length.py validates every builder)."""
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
# spelled out, as plotly.py's validation (skipped here) expands it once: plotly.js does not know "Viridis"
SEQUENTIAL = [list(stop) for stop in go.Heatmap(colorscale=style.SEQUENTIAL).colorscale]
# Every figure's title right above the plot area, below the band where plotly's toolbar appears (always shown on
# touch screens), so the two never overlap on a phone; a "subtitle" label in smaller print under it.
PLACES = {"title_at": "plot", "margin": {"r": 10}}
ALIAS_HOVER = "i − j = %{y}<extra></extra>"


def _clean(obj):
    """Drop None values (an optional label not given), as plotly's validation drops them."""
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, list) and obj and isinstance(obj[0], dict):
        return [_clean(v) for v in obj]
    return obj


def figure(data, lay):
    """go.Figure of plain trace and layout dicts, not validated (the builders' tests validate them)."""
    return go.Figure({"data": _clean(data), "layout": _clean(lay)}, _validate=False)


def bucket_centers(buckets):
    """[[start, end), ...] -> centre of each bucket (the x of its point)."""
    return [(a + b - 1) / 2 for a, b in buckets]


def _train_region(train_length, label):
    """The trained positions shaded, their end dashed and named -> (shapes, annotations)."""
    edge = train_length - 0.5
    shapes = [{"type": "rect", "x0": -0.5, "x1": edge, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain",
               "fillcolor": TRAIN_FILL, "opacity": 0.12, "line": {"width": 0}},
              {"type": "line", "x0": edge, "x1": edge, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain",
               "line": {"color": "#000000", "width": 2, "dash": "dash"}}]
    notes = [{"x": edge, "y": 1.0, "yref": "paper", "text": label, "showarrow": False, "xanchor": "left",
              "yanchor": "top", "font": {"size": 13}, "bgcolor": "rgba(255,255,255,0.7)"}]
    return shapes, notes


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
    data = []
    if reference is not None:
        data.append({"type": "scatter", "x": x, "y": style.f32([np.nan if v is None else v for v in reference]),
                     "mode": "lines", "name": labels.get("reference"),
                     "line": {"color": "#999999", "width": 1.5, "dash": "dot"}})
    for name, ys in series.items():
        shown = labels.get(name, name)
        data.append({"type": "scatter", "x": x, "y": style.f32([np.nan if v is None else v for v in ys]),
                     "mode": "lines+markers", "name": shown, "connectgaps": False,
                     "line": {"color": COLORS.get(name), "dash": DASHES.get(name, "solid"), "width": 2.5},
                     "marker": {"symbol": MARKERS.get(name, "circle"), "size": 9},
                     "customdata": tick, "hovertemplate": "%{customdata}: %{y:.3f}<extra>" + shown + "</extra>"})
    shapes, notes = _train_region(train_length, labels.get("train"))
    axes = {"xaxis": {"tickvals": [a for a, _ in buckets] + [buckets[-1][1]], "range": [-0.5, buckets[-1][1] + 0.5]}}
    if y_range is not None:
        axes["yaxis"] = {"range": y_range}
    return figure(data, style.layout(labels, height=height, **PLACES, legend_at="bottom", shapes=shapes,
                                     annotations=notes, **axes))


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
    zd, ri, ci = style.decimate_2d(zp)
    data = [{"type": "heatmap", "z": zd, "x": c[ci], "y": c[ri], "colorscale": SEQUENTIAL, "zmin": 0.0, "zmax": 1.0,
             "colorbar": {"title": {"text": "a<sub>ij</sub>"}, "thickness": 12, "len": 0.9}, "hovertemplate": hover,
             "showscale": True}]
    shapes = []
    if train_length is not None and n > train_length:
        for kw in (dict(x0=train_length - 0.5, x1=train_length - 0.5, y0=-0.5, y1=n - 0.5),
                   dict(x0=-0.5, x1=n - 0.5, y0=train_length - 0.5, y1=train_length - 0.5)):
            shapes.append({"type": "line", "line": {"color": MARK, "width": 2, "dash": "dash"}, **kw})
    others = [d for d in aliases if d != target and 0 <= d < n]
    if others:
        xs, ys = _diagonals(others, n)
        data.append({"type": "scatter", "x": xs, "y": ys, "mode": "lines", "hoverinfo": "skip", "showlegend": False,
                     "opacity": 0.6, "line": {"color": "#FFFFFF", "width": 1, "dash": "dot"}})
        data.append({"type": "scatter", "x": [-0.5] * len(others), "y": others, "mode": "markers",
                     "name": labels.get("aliases"), "cliponaxis": False, "hovertemplate": ALIAS_HOVER,
                     "marker": {"symbol": "triangle-right", "size": 11, "color": "#FFFFFF",
                                "line": {"color": MARK, "width": 1.5}}})
    if target is not None and others and 0 <= target < n:
        data.append({"type": "scatter", "x": [-0.5], "y": [target], "mode": "markers", "name": labels.get("target"),
                     "cliponaxis": False, "marker": {"symbol": "triangle-right", "size": 11, "color": MARK},
                     "hovertemplate": ALIAS_HOVER})
    legend = {"orientation": "v", "x": 0.99, "xanchor": "right", "y": 0.99, "yanchor": "top",
              "bgcolor": "rgba(255,255,255,0.85)"}
    return figure(data, style.layout(labels, height=height, **PLACES, showlegend=bool(others), legend=legend,
                                     shapes=shapes, xaxis={"range": [-0.5, n - 0.5]}, yaxis={"range": [n - 0.5, -0.5]}))


def alias_errors(error, aliases, tol, train_length, *, labels, height=400):
    """e(Δ), the largest fast-pair phase difference to the target offset (degrees), for every offset Δ;
    the tolerance as a horizontal line, the aliases (e <= tol) marked, the trained offsets shaded.
    labels: "title", "subtitle" (optional), "x", "y", "tol", "alias", "train"."""
    e = style.f32(error)
    x = np.arange(len(e), dtype=np.float32)
    idx = np.asarray(aliases, dtype=int)
    hover = "Δ = %{x}<br>e = %{y:.1f}°<extra></extra>"
    data = [{"type": "scatter", "x": x, "y": e, "mode": "lines", "showlegend": False,
             "line": {"color": style.PALETTE[0], "width": 1.5}, "hovertemplate": hover},
            {"type": "scatter", "x": x[idx], "y": e[idx], "mode": "markers", "name": labels.get("alias"),
             "marker": {"color": MARK, "size": 10, "symbol": "circle"}, "hovertemplate": hover}]
    shapes, notes = _train_region(train_length, labels.get("train"))
    shapes.insert(0, {"type": "line", "x0": 0, "x1": 1, "xref": "x domain", "y0": tol, "y1": tol, "yref": "y",
                      "line": {"color": "#000000", "width": 1.5, "dash": "dash"}})
    notes.insert(0, {"x": len(e) - 1, "y": tol, "text": labels.get("tol"), "showarrow": False, "xanchor": "right",
                     "yanchor": "bottom", "font": {"size": 13}, "bgcolor": "rgba(255,255,255,0.7)"})
    return figure(data, style.layout(labels, height=height, **PLACES, legend_at="bottom", shapes=shapes,
                                     annotations=notes, yaxis={"range": [0, 185], "tickvals": [0, 45, 90, 135, 180]},
                                     xaxis={"range": [-0.5, len(e) - 0.5]}))
