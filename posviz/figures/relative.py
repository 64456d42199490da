"""Figures of the relative-position page: arrays and ONE `labels` dict in, go.Figure out.

Every panel is its own figure: the page lays compared panels out in st.columns (which stack on a
phone) and passes their shared colour range (zmin / zmax) explicitly. Heatmaps are decimated by
striding (values stay exact) and print their numbers only when small. The figures are written as
plain dicts and wrapped without plotly's validation (it costs ~20x the build; tests validate them).
"""
import math

import numpy as np
from plotly.colors import get_colorscale

from posviz.figures import style

SMALL = 400                          # heatmaps with at most this many cells print their numbers in the cells
TEXT_COLS = 16                       # ... and at most this many columns
FULL_CELLS = style.MAX_CELLS         # a heatmap across the whole width: 400 x 400 cells at most
PANEL_CELLS = style.MAX_CELLS // 4   # a panel that shares the width with others: 200 x 200 cells at most
CLEAR = "rgba(0,0,0,0)"              # outline of filled areas: invisible even where lecture mode thickens lines
# colour scales spelled out: plotly.js knows neither "RdBu_r" nor "Oranges" (plotly.py's validation, which
# these figures skip, would have expanded the names)
SCALES = {"diverging": get_colorscale(style.DIVERGING), "sequential": get_colorscale(style.SEQUENTIAL),
          "oranges": get_colorscale("Oranges"), "mask": [[0, "#f2f2f2"], [1, style.PALETTE[0]]]}
HOVER = "j=%{x}<br>i=%{y}<br>%{z:.4g}<extra></extra>"
# The title under plotly's toolbar (a phone shows it all the time); a legend, if any, in rows of its own at the
# bottom of the figure, never on the axis title.
PLACES = {"title_at": "toolbar", "legend_at": None}
LEGEND = {"title_at": "toolbar", "legend_at": "bottom", "margin": {"b": 40}}


figure = style.figure      # plain dicts, not validated (tests: validated_equals_built)


def _cell_text(z, max_cols):
    """Per-cell labels for small integer matrices only (<= SMALL cells, narrow enough to read on a phone;
    fractions such as ALiBi's -0.5 |i - j| do not fit a cell: their numbers are in the hover)."""
    if z.size > SMALL or z.shape[1] > max_cols or not np.all(z == np.round(z)):
        return None
    return np.char.replace(z.astype(np.int64).astype(str), "-", "−").tolist()


def _ticks(n):
    """Integer ticks on short axes (1 apart up to 8 rows, 2 apart up to 16), plotly's choice beyond."""
    return {} if n > 16 else {"dtick": 1 if n <= 8 else 2}


def matrix(z, query_pos, key_pos, *, labels, scale="diverging", zmin=None, zmax=None, showscale=True,
           text_cols=TEXT_COLS, text_size=11, max_cells=PANEL_CELLS, height=440, title_at="toolbar"):
    """One [L,S] heatmap: rows are query positions i (right-aligned, downwards), columns key positions j.

    labels: title, x, y, colorbar. scale: "diverging" (zmid 0, symmetric range unless zmin/zmax are
    given), "sequential", "oranges" or "mask" (two colours). Numbers in the cells (text_size px) when
    small (text_cols=0: never). title_at: style.layout's ("phone" wraps a sentence-long title)."""
    z = np.asarray(z)
    if scale == "diverging" and zmin is None:
        zmin, zmax = style.symmetric_range(z)
    zd, ri, ci = style.decimate_2d(z, max_cells=max_cells)
    trace = {"type": "heatmap", "z": zd, "x": np.asarray(key_pos)[ci], "y": np.asarray(query_pos)[ri],
             "colorscale": SCALES[scale], "showscale": showscale, "hovertemplate": HOVER,
             "colorbar": {"title": {"text": labels.get("colorbar", ""), "side": "right"}, "thickness": 14, "len": 1.0}}
    trace.update({k: float(v) for k, v in (("zmin", zmin), ("zmax", zmax)) if v is not None})
    if np.issubdtype(z.dtype, np.integer) and zmin is not None and zmax is not None:
        # rows, buckets, distances: whole numbers (plotly ticked Shaw's 0..2 rows at 0.5 and 1.5)
        trace["colorbar"].update(tick0=0, dtick=max(1, math.ceil((float(zmax) - float(zmin)) / 6)))
    if scale == "diverging":
        trace["zmid"] = 0.0
    text = _cell_text(z, text_cols)
    if text is not None:
        trace.update(text=text, texttemplate="%{text}", textfont={"size": text_size})
    return figure([trace], style.layout(labels, height=height, **{**PLACES, "title_at": title_at},
                                        xaxis={"side": "bottom", **_ticks(z.shape[1])},
                                        yaxis={"autorange": "reversed", **_ticks(z.shape[0])}))


def t5_step(distance, bucket, *, labels, max_exact, max_distance, bidirectional, height=460):
    """Bucket vs distance d = i - j as a step plot; the exact region shaded, +-max_distance dashed, both
    named in the legend (a label inside the plot would sit on the steps on a phone).

    labels: title, x, y, trace, exact, log, max."""
    x, y = style.line_xy(np.asarray(distance), np.asarray(bucket))
    lo, hi = -0.5, float(np.max(bucket)) + 0.5
    e0, e1 = (-(max_exact - 0.5) if bidirectional else -0.5), max_exact - 0.5
    sides = (1, -1) if bidirectional else (1,)
    data = [
        {"type": "scatter", "x": [e0, e1, e1, e0, e0], "y": [lo, lo, hi, hi, lo], "fill": "toself", "mode": "lines",
         "line": {"width": 0, "color": CLEAR}, "fillcolor": "rgba(0,158,115,0.18)", "name": labels["exact"],
         "hoverinfo": "skip"},
        {"type": "scatter", "x": x, "y": y, "mode": "lines", "name": labels["trace"],
         "line": {"shape": "hv", "width": 2.5, "color": style.PALETTE[0]},
         "hovertemplate": "d=%{x}<br>b=%{y}<extra></extra>"},
        {"type": "scatter", "x": [v for s in sides for v in (s * max_distance, s * max_distance, None)],
         "y": [v for _ in sides for v in (lo, hi, None)], "mode": "lines", "name": labels["max"],
         "line": {"color": style.PALETTE[3], "dash": "dash", "width": 2}, "hoverinfo": "skip"}]
    # the log region's name below its steps (they rise from max_exact, so the lower right stays free)
    note = {"x": (max_exact + max_distance) / 2, "y": 0.2, "yref": "paper", "text": labels["log"], "showarrow": False,
            "yanchor": "top", "font": {"color": style.PALETTE[0]}}
    return figure(data, style.layout(labels, height=height, **LEGEND, annotations=[note], yaxis={"range": [lo, hi]}))


SLOPE_TEXT_OCTAVES = 4      # of a log axis (about 27 px each on a projector): room for a rotated "0.0884"


def slope_bars(slopes, *, labels, n_base, selected=None, height=400):
    """ALiBi's slope per head (1-based), log y: heads 1..n_base take the geometric slopes, the rest the
    interleaved slopes of 2 n_base heads (colour tells which); the selected head is outlined.

    labels: title, x, y, base, fill."""
    slopes = style.f32(slopes)
    h = np.arange(1, len(slopes) + 1)
    opacity = np.where(h == selected, 1.0, 0.55)
    outline = np.where(h == selected, 2.5, 0.0)
    # a bar at least SLOPE_TEXT_OCTAVES above the lowest one holds its number (a projector's 24 px, rotated), the
    # others carry it above them
    inside = np.where(np.log2(slopes) - np.log2(float(slopes.min())) >= SLOPE_TEXT_OCTAVES, "inside", "outside")
    data = [{"type": "bar", "x": h[part], "y": slopes[part], "name": name,
             "hovertemplate": "h=%{x}<br>m=%{y:.6g}<extra></extra>",
             # each head's slope written on its bar: the numbers the ALiBi scene quotes, on the figure it lands on;
             # at the figure's font size (not shrunk to the bar: 19 px on a projector), above a bar too short for it
             "text": [f"{s:.3g}" for s in slopes[part]], "textposition": inside[part].tolist(), "textangle": -90,
             "constraintext": "none", "insidetextanchor": "end",
             "insidetextfont": {"color": [style.text_on(style.blend(colour, o)) for o in opacity[part]]},
             "outsidetextfont": {"color": "#333333"}, "cliponaxis": False,
             "marker": {"color": colour, "opacity": opacity[part].tolist(),
                        "line": {"color": "#000000", "width": outline[part].tolist()}}}
            for part, name, colour in ((slice(0, n_base), labels["base"], style.PALETTE[0]),
                                       (slice(n_base, len(h)), labels["fill"], style.PALETTE[1])) if len(h[part])]
    exps = range(0, int(np.floor(np.log2(max(float(slopes.min()), 2.0**-30)))) - 1, -1)
    yaxis = {"type": "log", "tickvals": [2.0**e for e in exps],
             "ticktext": ["1" if e == 0 else f"1/{2**-e}" for e in exps]}
    return figure(data, style.layout(labels, height=height, **LEGEND, bargap=0.15, yaxis=yaxis))


def weight_line(query_pos, weight, *, labels, height=440):
    """With no position signal and equal contents, attention is uniform over the visible keys: each
    weight is 1/(i+1), so the query row reveals how many tokens precede it.

    labels: title, x, y, trace."""
    x, y = style.line_xy(np.asarray(query_pos), np.asarray(weight))
    data = [{"type": "scatter", "x": x, "y": y, "mode": "lines+markers", "name": labels["trace"],
             "line": {"color": style.PALETTE[3], "width": 2.5},
             "hovertemplate": "i=%{x}<br>1/(i+1)=%{y:.4g}<extra></extra>"}]
    return figure(data, style.layout(labels, height=height, **PLACES, yaxis={"rangemode": "tozero"}))


# ---------------------------------------------------------------- the rest of the family (issue 37)
SCHEME_COLORS = {"alibi": style.PALETTE[7], "t5": style.PALETTE[1], "kerple": style.PALETTE[2],
                 "fire": style.PALETTE[0], "rope": style.PALETTE[7], "xpos": style.PALETTE[3],
                 "envelope": style.PALETTE[3]}
SCHEME_DASHES = {"alibi": "dash", "kerple": "dot", "envelope": "dot"}
# the family's titles are sentences: wrapped under plotly's toolbar to fit a phone (style.layout's "phone")
WRAPPED = {"title_at": "phone", "legend_at": "bottom", "margin": {"b": 40}}


def _lines(x, series, labels, hover):
    """One scatter line per series (name from labels["name.<key>"]), decimated, house colours and dashes."""
    out = []
    for key, y in series.items():
        xs, ys = style.line_xy(np.asarray(x), np.asarray(y, dtype=np.float64))
        out.append({"type": "scatter", "x": xs, "y": ys, "mode": "lines", "name": style.escape(labels[f"name.{key}"]),
                    "line": {"color": SCHEME_COLORS.get(key), "width": 2.5, "dash": SCHEME_DASHES.get(key, "solid")},
                    "hovertemplate": hover})
    return out


def bias_curves(distance, curves, *, train_length, labels, train_curve=None, height=360):
    """The bias each scheme gives one query against its keys d = 0, 1, ... back; the training length marked
    (a dashed line), and FIRE's curve of the last training query (a wide pale band) when given.

    curves: {scheme: [D]}; labels: title, x, y, train, name.<scheme>, name.fire_train."""
    data = _lines(distance, curves, labels, "d=%{x}<br>b=%{y:.3f}<extra>%{fullData.name}</extra>")
    if train_curve is not None:
        data += _lines(np.arange(len(train_curve)), {"fire_train": train_curve}, labels,
                       "d=%{x}<br>b=%{y:.3f}<extra>%{fullData.name}</extra>")
        data[-1]["line"].update(width=9, color=SCHEME_COLORS["fire"])    # a band: the others agree inside it
        data[-1]["opacity"] = 0.3
    mark = [{"type": "line", "x0": train_length - 0.5, "x1": train_length - 0.5, "xref": "x", "y0": 0, "y1": 1,
             "yref": "y domain", "line": {"color": "#888888", "dash": "dash", "width": 1.5}}]
    note = [{"text": style.escape(labels["train"]), "showarrow": False, "x": train_length - 0.5, "xref": "x",
             "xanchor": "right", "y": 0.02, "yref": "y domain", "yanchor": "bottom"}]
    return figure(data, style.layout(labels, height=height, **WRAPPED, shapes=mark, annotations=note))


def score_curves(r, series, *, labels, height=380):
    """Scores against the distance r, one line per series (xPos against plain RoPE, and xPos's envelope).

    series: {key: [R]}; labels: title, x, y, name.<key>."""
    data = _lines(r, series, labels, "r=%{x}<br>%{y:.4f}<extra>%{fullData.name}</extra>")
    axis = {"zeroline": True, "zerolinecolor": "#888"}
    return figure(data, style.layout(labels, height=height, **WRAPPED, yaxis=axis))


def token_matrix(z, tokens, *, labels, zmax, height=380):
    """A [L,L] matrix over a sentence's tokens (queries down, keys across), NaN cells blank; its numbers in the
    hover (cells of a sentence are too narrow for projector-sized numbers). labels: title, x, y, colorbar."""
    z = np.asarray(z, dtype=np.float32)
    ticks = style.token_labels(tokens)
    trace = {"type": "heatmap", "z": z, "x": ticks, "y": ticks, "colorscale": SCALES["sequential"], "zmin": 0.0,
             "zmax": float(max(zmax, 1.0)), "hovertemplate": "%{y} → %{x}<br>%{z:.3f}<extra></extra>",
             "colorbar": {"title": {"text": labels.get("colorbar", ""), "side": "right"}, "thickness": 14, "len": 1.0}}
    axis = {"tickangle": -45, "automargin": True}
    return figure([trace], style.layout(labels, height=height, title_at="phone", legend_at=None, xaxis=axis,
                                        yaxis={"autorange": "reversed", "automargin": True}))
