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
# The strips' sizes on each screen (issue 33 item 5): a figure tall enough for its rows and for a legend at its
# bottom, under the ticks and the axis title, in STRIP_COLUMNS columns of equal width, a row of STRIP_LEGEND_PX px
# per STRIP_COLUMNS entries; nothing taller, so that a scene's narration and the whole figure share a phone's or a
# projector's screen. normal: a desktop; phone: 390 px wide (the builder's meta["phone"]); lecture: the projector
# (meta["lecture"], its fonts 22 px).
STRIP_VIEWS = ("normal", "phone", "lecture")
STRIP_ROW_PX = {"normal": 52, "phone": 46, "lecture": 64}       # a row: its name above, its strip under it
STRIP_AXIS_PX = {"normal": 62, "phone": 62, "lecture": 84}      # the tick labels and the x-axis title
STRIP_LEGEND_PX = {"normal": 24, "phone": 24, "lecture": 34}    # a row of the legend
STRIP_COLUMNS = {"normal": 3, "phone": 2, "lecture": 3}         # legend entries side by side
STRIP_LEGEND_FONT = 13                                           # px (lecture mode: 22)
MARKERS = {"partial": {"size": 4, "symbol": "circle", "color": "#000000"},   # small: 61 dots stay apart on a phone
           "proportional": {"size": 7, "symbol": "diamond", "color": "#FFFFFF", "line": {"color": "#000000",
                                                                                          "width": 1}}}
MODEL_COLORS = (style.PALETTE[0], style.PALETTE[3], style.PALETTE[2], style.PALETTE[4], style.PALETTE[1],
                "#000000", style.PALETTE[5])
_LOG_AXIS = {"type": "log", "exponentformat": "power", "dtick": 1}


LABEL_BAND = 0.42        # of each row's height: the row's name, above its strip (the strip takes the rest)


def _labelled_rows(z, text, names):
    """Rows with their names written above them, inside the plot, instead of as y tick labels (which took most of a
    phone's width and left the cells a few px wide): z [R, n] -> (heatmap keys: z [2R, n] with an empty band above
    each row, its text, y edges; the annotations naming the rows; the y axis; the centre of each row's strip)."""
    rows, n = np.shape(z)
    zz = np.full((2 * rows, n), np.nan, dtype=np.float32)
    zz[1::2] = z
    tt = [["" for _ in range(n)] for _ in range(2 * rows)]
    tt[1::2] = text
    edges = [y for r in range(rows) for y in (r, r + LABEL_BAND)] + [rows]
    notes = [{"text": style.escape(name), "x": 0, "xref": "paper", "xanchor": "left", "y": r + LABEL_BAND / 2,
              "yref": "y", "yanchor": "middle", "showarrow": False} for r, name in enumerate(names)]
    yaxis = {"showgrid": False, "showticklabels": False, "ticks": "", "zeroline": False, "autorange": "reversed"}
    centres = [r + (1 + LABEL_BAND) / 2 for r in range(rows)]
    return {"z": zz, "text": tt, "y": edges}, notes, yaxis, centres


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
    shown = list(names)                 # a row's name, and the windows of its local layers (a scene quotes them)
    for r, ws in enumerate(windows or []):
        sizes = sorted({w for w in ws if w})
        if sizes and "window" in labels:
            shown[r] += " · " + ", ".join(labels["window"].format(w=f"{w:,}") for w in sizes)
    cells, notes, yaxis, centres = _labelled_rows(z, text, shown)
    data = [{"type": "heatmap", "name": "", **cells, "x": np.arange(n), "customdata": _row_names(names, n),
             "zmin": -0.5, "zmax": k - 0.5, "colorscale": scale, "showscale": False, "xgap": 1,
             "hovertemplate": "%{customdata}<br>%{x}: %{text}<extra></extra>"}]
    data += [{"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": labels[c], "showlegend": True,
              "marker": {"size": 12, "symbol": "square", "color": STRIP_COLORS[c]}}   # legend entries (a heatmap
             for c in STRIP if any(c in s for s in strips)]                            # has none of its own)
    for mark in MARK_SYMBOLS:
        xy = [(i, centres[r]) for r, ms in enumerate(marks or []) for i, m in enumerate(ms) if m == mark]
        if xy:
            data.append({"type": "scatter", "x": [x for x, _ in xy], "y": [y for _, y in xy], "mode": "markers",
                         "name": labels[mark], "hoverinfo": "skip",
                         "marker": MARKERS[mark]})
    # the legend at the bottom of the figure in rows of its own, under the ticks and the axis title: placed a share of
    # the plot's height under it, it ran into the ticks of a one-row strip (/extrapolation)
    sizes = {v: strip_size(len(strips), len(data) - 1, labels.get("title"), v) for v in STRIP_VIEWS}
    top, bottom, tall = sizes["normal"]
    lay = style.layout(labels, height=height or tall, title_at="phone", legend_at="bottom",
                       legend={"font": {"size": STRIP_LEGEND_FONT}, "entrywidth": 1 / STRIP_COLUMNS["normal"],
                               "entrywidthmode": "fraction"},
                       margin={"l": 20, "t": top, "b": bottom}, xaxis={"showgrid": False}, yaxis=yaxis,
                       annotations=notes)
    if height is None:   # its own height on a phone and a projector; its top fits its title (not margins.json's)
        lay["meta"] = {"own_top": True, **{v: _strip_view(sizes[v], labels.get("title"), v) for v in ("phone",
                                                                                                      "lecture")}}
    return style.figure(data, lay)


def strip_size(rows, entries, title, view):
    """(top, bottom, height) in px of a strip figure of `rows` rows and `entries` legend entries on `view` (one of
    STRIP_VIEWS): the title's room (style.wrapped_title) on top, STRIP_ROW_PX per row, then the bottom margin:
    STRIP_AXIS_PX for the axis and STRIP_LEGEND_PX per row of the legend, ⌈entries / STRIP_COLUMNS⌉ rows."""
    top = style.wrapped_title(title, height=1000)[1]
    bottom = STRIP_AXIS_PX[view] + STRIP_LEGEND_PX[view] * -(-entries // STRIP_COLUMNS[view])
    return top, bottom, top + STRIP_ROW_PX[view] * rows + bottom


def _strip_view(size, title, view):
    """The layout keys of a strip figure on a phone or a projector: its height, bottom margin, legend columns and
    the title's place at that height."""
    top, bottom, tall = size
    spec, _ = style.wrapped_title(title, height=tall)
    out = {"height": tall, "margin": {"b": bottom, "t": top},
           "legend": {"entrywidth": 1 / STRIP_COLUMNS[view], "entrywidthmode": "fraction"}}
    if spec:
        out["title"] = {"y": spec["y"]}
    return out


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
    z = np.asarray(masks, dtype=np.float32)
    scale = [[0, "#E8E8E8"], [0.5, "#E8E8E8"], [0.5, style.PALETTE[3]], [1, style.PALETTE[3]]]
    text = [[labels["rotated"] if v else labels["still"] for v in row] for row in z]
    cells, notes, yaxis, _ = _labelled_rows(z, text, names)
    data = [{"type": "heatmap", **cells, "x": np.arange(z.shape[1]), "customdata": _row_names(names, z.shape[1]),
             "zmin": 0, "zmax": 1, "colorscale": scale, "showscale": False,
             "hovertemplate": "%{customdata}<br>dim %{x}: %{text}<extra></extra>"}]
    data += [{"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": labels[c], "showlegend": True,
              "marker": {"size": 12, "symbol": "square", "color": color}}
             for c, color in (("rotated", style.PALETTE[3]), ("still", "#E8E8E8"))]
    lay = style.layout(labels, height=height or 330, **PLACES, margin={"l": 20}, xaxis={"showgrid": False},
                       yaxis=yaxis, annotations=notes)
    return style.figure(data, lay)


def _row_names(names, n):
    """Each cell's row name, for the hover (the rows' edges are numbers now): [2R, n], empty above each row."""
    return [[name] * n for row in names for name in ("", style.escape(row))]
