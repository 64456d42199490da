"""Figures of the models page: every layer of each model as RoPE / local / global / NoPE / linear,
and several models' wavelengths and decay on one axis against their trained and maximum lengths.

Builders take arrays and one `labels` dict of already translated strings; one panel each, written
as plain dicts and wrapped without plotly's validation (the tests validate every builder).
"""
import numpy as np

from posviz.figures import style

PLACES = {"title_at": "phone", "legend_at": "under"}   # every figure: the title under the toolbar (wrapped on a
                                                       # phone), the legend under the x axis
STRIP = ("rope", "local", "global", "nope", "linear", "compressed", "unknown")
STRIP_COLORS = {"rope": style.PALETTE[0], "local": style.PALETTE[5], "global": style.PALETTE[3],
                "nope": style.PALETTE[1], "linear": "#B8B8B8", "compressed": style.PALETTE[6], "unknown": "#262626"}
MARK_SYMBOLS = {"partial": "circle", "proportional": "diamond"}   # drawn on a cell: what its RoPE covers
# The strip's legend sits STRIP_LEGEND_GAP px under its plot (past the ticks and the axis title) in a bottom margin
# of STRIP_BOTTOM px that holds it wrapped into four rows on a phone: a fixed plot height, so a fixed gap in px.
STRIP_BOTTOM, STRIP_LEGEND_GAP = 200, 62
MARKERS = {"partial": {"size": 4, "symbol": "circle", "color": "#000000"},   # small: 61 dots stay apart on a phone
           "proportional": {"size": 7, "symbol": "diamond", "color": "#FFFFFF", "line": {"color": "#000000",
                                                                                          "width": 1}}}
MODEL_COLORS = (style.PALETTE[0], style.PALETTE[3], style.PALETTE[2], style.PALETTE[4], style.PALETTE[1],
                "#000000", style.PALETTE[5])
_LOG_AXIS = {"type": "log", "exponentformat": "power", "dtick": 1}


def layer_strip_figure(strips, names, *, labels, height=None, marks=None, windows=None):
    """One row per model, one cell per layer, coloured by what the layer does with positions.

    strips: [[category per layer]] (categories of STRIP); names: row labels; labels: title, x, and
    one name per category (labels["rope"], labels["local"], ...). Optional marks: [[""/"partial"/"proportional"
    per layer]] drawn as a symbol on the cell (labels["partial"], labels["proportional"] name them);
    windows: [[window or None per layer]] shown on hover (labels["window"] = "window {w}")."""
    n = max((len(s) for s in strips), default=1)
    code = {c: i for i, c in enumerate(STRIP)}
    z = np.full((len(strips), n), np.nan, dtype=np.float32)
    text = [["" for _ in range(n)] for _ in strips]
    for r, s in enumerate(strips):
        for i, c in enumerate(s):
            z[r, i] = code[c]
            text[r][i] = labels[c]
            w = windows[r][i] if windows and i < len(windows[r]) else None
            m = marks[r][i] if marks and i < len(marks[r]) else ""
            if w:
                text[r][i] += " · " + labels["window"].format(w=f"{w:,}")
            if m:
                text[r][i] += " · " + labels[m]
    k = len(STRIP)
    scale = []
    for i, c in enumerate(STRIP):
        scale += [[i / k, STRIP_COLORS[c]], [(i + 1) / k, STRIP_COLORS[c]]]
    data = [{"type": "heatmap", "name": "", "z": z[::-1], "x": np.arange(n), "y": list(names)[::-1], "text": text[::-1],
             "zmin": -0.5, "zmax": k - 0.5, "colorscale": scale, "showscale": False, "xgap": 1, "ygap": 4,
             "hovertemplate": "%{y}<br>%{x}: %{text}<extra></extra>"}]
    data += [{"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": labels[c], "showlegend": True,
              "marker": {"size": 12, "symbol": "square", "color": STRIP_COLORS[c]}}   # legend entries (a heatmap
             for c in STRIP if any(c in s for s in strips)]                            # has none of its own)
    rows = list(names)
    for mark in MARK_SYMBOLS:
        xy = [(i, rows[r]) for r, ms in enumerate(marks or []) for i, m in enumerate(ms) if m == mark]
        if xy:
            data.append({"type": "scatter", "x": [x for x, _ in xy], "y": [y for _, y in xy], "mode": "markers",
                         "name": labels[mark], "hoverinfo": "skip",
                         "marker": MARKERS[mark]})
    height = height or 260 + 46 * len(strips)
    lay = style.layout(labels, height=height, **PLACES, margin={"b": STRIP_BOTTOM}, xaxis={"showgrid": False},
                       yaxis={"automargin": True, "showgrid": False})
    lay["legend"]["y"] = -STRIP_LEGEND_GAP / max(20, height - lay["margin"]["t"] - STRIP_BOTTOM)   # px, not a share
    return style.figure(data, lay)


def wavelength_compare_figure(models, *, labels, height=540):
    """Each model's pair wavelengths (log y) against the relative pair index i/(d/2) (so models of
    different widths share the x axis), with its trained (solid) and maximum (dashed) lengths as
    horizontal lines of its colour. models: [{"name", "x", "wavelengths", "trained", "max_length"}]."""
    data, shapes = [], []
    shared = len(models) > 1 and len({(m["trained"], m["max_length"]) for m in models}) == 1   # one set of lines
    for j, m in enumerate(models):
        color = MODEL_COLORS[j % len(MODEL_COLORS)]
        data.append({"type": "scatter", "x": style.f32(m["x"]), "y": style.f32(m["wavelengths"]),
                     "mode": "lines+markers", "name": m["name"], "line": {"color": color, "width": 2},
                     "marker": {"size": 4},
                     "hovertemplate": m["name"] + "<br>i/(d/2)=%{x:.3f}<br>λ=%{y:.4g}<extra></extra>"})
        for length, dash in ((m["trained"], "solid"), (m["max_length"], "dash")):
            if length and not (shared and j):
                shapes.append({"type": "line", "x0": 0, "x1": 1, "xref": "x domain", "y0": length, "y1": length,
                               "yref": "y", "line": {"color": "#555" if shared else color, "dash": dash,
                                                     "width": 1.3}, "opacity": 0.8})
    for name, dash, key in ((labels["trained"], "solid", "trained"), (labels["max"], "dash", "max_length")):
        if any(m[key] for m in models):                                      # what the line styles mean
            data.append({"type": "scatter", "x": [None], "y": [None], "mode": "lines", "name": name,
                         "line": {"color": "#555", "dash": dash, "width": 1.3}})
    return style.figure(data, style.layout(labels, height=height, **PLACES, shapes=shapes, yaxis=_LOG_AXIS,
                                           xaxis={"range": [0, 1]}))


def decay_compare_figure(distances, curves, *, labels, height=500):
    """The q = k = 1 score of each model vs distance (log x), its maximum length dotted.
    curves: [(name, score [R], max_length)]."""
    r = np.asarray(distances, dtype=np.float64)
    keep = r >= 1
    data, shapes = [], []
    for j, (name, score, longest) in enumerate(curves):
        color = MODEL_COLORS[j % len(MODEL_COLORS)]
        x, y = style.line_xy(r[keep], np.asarray(score, dtype=np.float64)[keep])
        data.append({"type": "scatter", "x": x, "y": y, "mode": "lines", "name": name,
                     "line": {"color": color, "width": 1.6},
                     "hovertemplate": name + "<br>r=%{x:.0f}<br>%{y:.4f}<extra></extra>"})
        if longest:
            shapes.append({"type": "line", "x0": longest, "x1": longest, "xref": "x", "y0": 0, "y1": 1,
                           "yref": "y domain", "line": {"color": color, "dash": "dot", "width": 1.3}})
    return style.figure(data, style.layout(labels, height=height, **PLACES, shapes=shapes, xaxis=_LOG_AXIS))


def rotated_dims_figure(masks, names, *, labels, height=None):
    """Which of a head's D dims rotate, one row per reading: masks [[bool per dim]], names the rows;
    labels: title, x, "rotated", "still" (the two colours' names)."""
    z = np.asarray(masks, dtype=np.float32)[::-1]
    scale = [[0, "#E8E8E8"], [0.5, "#E8E8E8"], [0.5, style.PALETTE[3]], [1, style.PALETTE[3]]]
    text = [[labels["rotated"] if v else labels["still"] for v in row] for row in z]
    data = [{"type": "heatmap", "z": z, "x": np.arange(z.shape[1]), "y": list(names)[::-1], "text": text,
             "zmin": 0, "zmax": 1, "colorscale": scale, "showscale": False, "ygap": 6,
             "hovertemplate": "%{y}<br>dim %{x}: %{text}<extra></extra>"}]
    data += [{"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": labels[c], "showlegend": True,
              "marker": {"size": 12, "symbol": "square", "color": color}}
             for c, color in (("rotated", style.PALETTE[3]), ("still", "#E8E8E8"))]
    lay = style.layout(labels, height=height or 260, **PLACES, xaxis={"showgrid": False},
                       yaxis={"automargin": True, "showgrid": False})
    return style.figure(data, lay)
