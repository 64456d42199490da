"""Figures of the "train short, test long" pages: per-bucket accuracy / loss / attention entropy of the tiny
trained models (the mean over the seeds with their min-max band), one head's attention map (with the phase
aliases of an offset overlaid), the phase-alias error per offset, and the "Today's RoPE" page's frequency shares,
rotation ablation and marker sweep. Every builder takes arrays and one `labels` dict of translated strings.
The figures are written as plain dicts and wrapped without plotly's validation (it costs ~20x the
build; tests/figures/test_figures_length.py validates every builder)."""
import numpy as np
import plotly.graph_objects as go

from posviz.figures import style

# One colour per trained model; the RoPE scalings share RoPE's colour with their own dash.
P = style.PALETTE
COLORS = {"nope": P[7], "sinusoidal": P[1], "learned": P[4], "learned_clamp": P[4], "learned_mod": P[3],
          "learned_grow": P[2], "rope": P[0], "rope_pi": P[5], "rope_ntk": P[0], "rope_yarn": P[5], "alibi": P[2],
          "t5": P[3], "live": "#555555",
          "rope_l4": P[5], "rope_nope4": P[2], "rope_nope2": P[1], "rope_partial": P[4], "rope_prop": P[3],
          "rope_qknorm": P[7],
          "rope_pi4": P[1], "rope_ntk4": P[2], "rope_yarn4": P[4], "ft_none": P[0], "ft_pi": P[1], "ft_ntk": P[2],
          "ft_yarn": P[4],
          "short_learned": P[4], "shift_learned": P[4], "short_rope": P[0], "shift_rope": P[0]}
DASHES = {"learned_clamp": "dot", "rope_pi": "dot", "rope_ntk": "dash", "rope_yarn": "dashdot", "live": "dot",
          "learned_mod": "dash", "learned_grow": "dashdot", "rope_l4": "dash", "rope_pi4": "dot",
          "rope_ntk4": "dot", "rope_yarn4": "dot", "short_learned": "dot", "short_rope": "dot"}
MARKERS = {"nope": "x", "sinusoidal": "diamond", "learned": "square", "learned_clamp": "square-open",
           "rope": "circle", "rope_pi": "circle-open", "rope_ntk": "triangle-down-open", "rope_yarn": "diamond-open",
           "alibi": "triangle-up", "t5": "star", "live": "cross-thin", "learned_mod": "x", "learned_grow": "diamond",
           "rope_l4": "circle-open", "rope_nope4": "triangle-up", "rope_nope2": "diamond", "rope_partial": "square",
           "rope_prop": "star", "rope_qknorm": "x", "rope_pi4": "diamond-open", "rope_ntk4": "triangle-up-open",
           "rope_yarn4": "square-open", "ft_none": "circle", "ft_pi": "diamond", "ft_ntk": "triangle-up",
           "ft_yarn": "square", "short_learned": "square-open", "shift_learned": "square", "short_rope": "circle-open",
           "shift_rope": "circle"}
BAND_ALPHA = 0.16         # the min-max band of the seeds under each line
# A chart's vertical budget on a phone (also a desktop's) and on a projector (placed, line_chart): under plotly's
# toolbar, the title's and the subtitle's lines wrapped to the screen, a gap, the legend's rows, then the lines and
# the x axis -- so that a chart and its scene's narration fit the screen together.
PHONE = {"title_units": 34, "sub_units": 46, "head_px": style.MODEBAR_PX, "title_px": 24, "sub_px": 26,
         "row_px": 30, "legend_px": 250, "scale": 1.0, "plot_px": 170, "bottom_px": 60}
LECTURE = {"title_units": 56, "sub_units": 70, "head_px": style.MODEBAR_PX + 6, "title_px": 36, "sub_px": 32,
           "row_px": 42, "legend_px": 780, "scale": 22 / 13, "plot_px": 290, "bottom_px": 75}
PLOT_PX = 330             # a desktop keeps more room for the lines, however many legend rows
GAP_PX = 14               # between the title (or its subtitle) and the legend or the plot
ALIAS_PHONE_PX = 236      # the alias figure on a phone under its title: a 150 px plot, its ticks, axis title, legend
TRAIN_FILL = "#56B4E9"
MARK = "#D55E00"          # training boundary on the maps, aliases
MAX_SIDE = 192            # attention maps are block-max pooled to at most 192 x 192 cells
# spelled out, as plotly.py's validation (skipped here) expands it once: plotly.js does not know "Viridis"
SEQUENTIAL = [list(stop) for stop in go.Heatmap(colorscale=style.SEQUENTIAL).colorscale]
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


def _rgba(color, alpha):
    """"#RRGGBB" -> "rgba(r,g,b,alpha)"."""
    c = color.lstrip("#")
    return f"rgba({int(c[0:2], 16)},{int(c[2:4], 16)},{int(c[4:6], 16)},{alpha})"


def band_trace(x, lo, hi, color, group):
    """The min-max band of one line as a filled polygon (no legend entry, no hover; drawn with its line's
    legend group, so hiding the line hides its band). Buckets where lo or hi is None are left out."""
    keep = [i for i in range(len(x)) if lo[i] is not None and hi[i] is not None]
    if not keep:
        return None
    xs = [x[i] for i in keep]
    ys = [hi[i] for i in keep] + [lo[i] for i in reversed(keep)]
    return {"type": "scatter", "x": style.f32(xs + xs[::-1]), "y": style.f32(ys), "fill": "toself", "mode": "lines",
            "fillcolor": _rgba(color or "#555555", BAND_ALPHA), "line": {"color": "rgba(0,0,0,0)", "width": 0},
            "hoverinfo": "skip", "showlegend": False, "legendgroup": group}


def legend_rows(names, width=PHONE["legend_px"], scale=1.0):
    """Rows a horizontal legend of `names` takes: plotly fills a row left to right up to about `width` px
    and starts the next; an entry is its symbol and its text (a CJK character ~14 px, any other ~7.5 px at
    13 px; `scale` for a larger font); an entry wider than a row takes a row of its own."""
    rows, used = 1, 0.0
    for name in names:
        w = scale * (40 + sum(14.0 if ord(c) >= 0x2E80 else 7.5 for c in str(name)))
        if used and used + w > width:
            rows, used = rows + 1, 0.0
        used += w
    return rows


def _heading(labels, names, screen):
    """(title text, top margin) of a chart on `screen` (PHONE or LECTURE): the title and its subtitle wrapped to
    the screen's width; the margin holds the toolbar's band, their lines, a gap and the legend's rows."""
    title = style.wrap(labels.get("title") or "", screen["title_units"])
    lines = title.count("<br>") + 1
    subs = 0
    if labels.get("subtitle"):
        sub = style.wrap(labels["subtitle"], screen["sub_units"])
        subs = sub.count("<br>") + 1
        title += "<br><sup>" + sub.replace("<br>", "</sup><br><sup>") + "</sup>"
    rows = legend_rows(names, screen["legend_px"], screen["scale"]) if names else 0
    return title, _head(title, screen) + screen["title_px"] * lines + screen["sub_px"] * subs + GAP_PX + \
        screen["row_px"] * rows


def _head(text, screen):
    """Where a title's first line starts on `screen`: under the toolbar's band, lowered by MULTILINE_SHIFT_PX per
    further line (plotly lifts a title of n lines by about (n - 1) half lines)."""
    return screen["head_px"] + style.MULTILINE_SHIFT_PX * text.count("<br>")


def _title_at(text, screen, height):
    """A title at the top left of a figure `height` px tall on `screen`, under plotly's toolbar (_head)."""
    return {"text": text, "x": 0.01, "xanchor": "left", "yref": "container", "y": 1 - _head(text, screen) / height,
            "yanchor": "top", "pad": {"b": 0}}


def placed(labels, names=(), *, height, lecture_height=None, phone_height=None):
    """Every figure's title under the band where plotly's toolbar appears (always shown on touch screens), so the
    two never overlap on a phone, a "subtitle" label in smaller print under it, both wrapped to a phone's width
    and, in lecture mode, a projector's (_heading); `names`: the entries of a legend between them and the plot.
    Returns (labels, style.layout arguments). The top margin is this builder's own (margins.json's is not
    applied); the phone's and the lecture-mode layout go to style.one_pass and style.presentation through the
    layout's meta (`lecture_height`, `phone_height`: functions of that screen's top margin; defaults: 1.2 x
    `height`, `height`)."""
    text, top = _heading(labels, names, PHONE)
    lecture_text, lecture_top = _heading(labels, names, LECTURE)
    lecture_h = lecture_height(lecture_top) if lecture_height else int(1.2 * height)
    phone_h = phone_height(top) if phone_height else height
    meta = {"own_top": True,
            "lecture": {"height": lecture_h, "margin": {"t": lecture_top},
                        "title": _title_at(lecture_text, LECTURE, lecture_h)},
            "phone": {"height": phone_h, "title": {"y": _title_at(text, PHONE, phone_h)["y"]}}}
    shown = {**labels, "title": None, "subtitle": None}            # the title is placed here, not by style.layout
    return shown, {"height": height, "title": _title_at(text, PHONE, height), "title_at": "plot",
                   "margin": {"r": 10, "t": top}, "meta": meta}


def line_chart(x, series, *, labels, bands=None, reference=None, ticktext=None, shapes=(), notes=(), axes=None,
               height=None):
    """Lines (the means) with their bands (bands: {name: [lo, hi]}) and an optional grey reference line. The
    legend sits right above the plot, under the title, so it is on screen whenever the chart's top is (a scene
    scrolls there); the title rises by the rows the legend needs (legend_rows), so the lines keep their room
    however many are shown: PLOT_PX on a desktop, less on a phone and a projector (PHONE, LECTURE), where the
    chart shares the screen with a scene's narration. labels: "title", "subtitle", "x", "y", "reference", and
    the legend name of every series (by its key)."""
    data = []
    bands = bands or {}
    for name in series:
        if name in bands:
            tr = band_trace(list(x), bands[name][0], bands[name][1], COLORS.get(name), name)
            if tr is not None:
                data.append(tr)
    if reference is not None:
        ref = style.f32([np.nan if v is None else v for v in reference])
        data.append({"type": "scatter", "x": style.f32(x), "y": ref, "mode": "lines",
                     "name": labels.get("reference"), "line": {"color": "#999999", "width": 1.5, "dash": "dot"}})
    for name, ys in series.items():
        shown = labels.get(name, name)
        tr = {"type": "scatter", "x": style.f32(x), "y": style.f32([np.nan if v is None else v for v in ys]),
              "mode": "lines+markers", "name": shown, "connectgaps": False, "legendgroup": name,
              "line": {"color": COLORS.get(name), "dash": DASHES.get(name, "solid"), "width": 2.5},
              "marker": {"symbol": MARKERS.get(name, "circle"), "size": 9}}
        if ticktext is not None:
            tr.update(customdata=list(ticktext), hovertemplate="%{customdata}: %{y:.3f}<extra>" + shown + "</extra>")
        data.append(tr)
    names = [labels.get(n, n) for n in series] + ([labels.get("reference")] if reference is not None else [])
    top = _heading(labels, names, PHONE)[1]
    shown, place = placed(labels, names, height=height or top + PLOT_PX + PHONE["bottom_px"],
                          lecture_height=lambda top: height or top + LECTURE["plot_px"] + LECTURE["bottom_px"],
                          phone_height=lambda top: height or top + PHONE["plot_px"] + PHONE["bottom_px"])
    return figure(data, style.layout(shown, **place, legend_at="above", shapes=list(shapes), annotations=list(notes),
                                     **(axes or {})))


def bucket_lines(buckets, series, train_length, *, labels, y_range=None, reference=None, bands=None, height=None):
    """One line per variant over the position buckets (the mean over the seeds), its min-max band under it;
    the trained range shaded.

    series: {variant: [value or None per bucket]} (None = not computable: a gap); bands: {variant: [lo, hi]}
    (each [value or None per bucket]); reference: optional [value per bucket] drawn as a thin grey line
    (chance / uniform). labels: "title", "subtitle" (optional), "x", "y", "train", "reference", and the legend
    name of every variant (by its key). The legend sits under the plot in rows, so a phone keeps the whole
    width for the lines, and the figure grows with its rows.
    """
    x = bucket_centers(buckets)
    tick = [f"{a}–{b - 1}" for a, b in buckets]
    shapes, notes = _train_region(train_length, labels.get("train"))
    axes = {"xaxis": {"tickvals": [a for a, _ in buckets] + [buckets[-1][1]], "range": [-0.5, buckets[-1][1] + 0.5]}}
    if y_range is not None:
        axes["yaxis"] = {"range": y_range}
    return line_chart(x, series, labels=labels, bands=bands, reference=reference, ticktext=tick, shapes=shapes,
                      notes=notes, axes=axes, height=height)


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
    shown, place = placed(labels, height=height)
    return figure(data, style.layout(shown, **place, showlegend=bool(others), legend=legend,
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
    # on a phone PHONE's plot height: the offsets the finder lists, the figure and its legend fit under a scene's
    # narration (400 px left the legend 26 px under an 844 px screen)
    shown, place = placed(labels, height=height, phone_height=lambda top: top + ALIAS_PHONE_PX)
    return figure(data, style.layout(shown, **place, legend_at="bottom", shapes=shapes,
                                     annotations=notes, yaxis={"range": [0, 185], "tickvals": [0, 45, 90, 135, 180]},
                                     xaxis={"range": [-0.5, len(e) - 0.5]}))


# ---------------------------------------------------------------- the page "Today's RoPE, trained"
def short_number(x):
    """A wavelength as a tick label short enough for eight columns on a phone: 6, 63, 199, 2k, 20k."""
    return f"{x:.0f}" if x < 1000 else f"{x / 1000:.0f}k"


def share_map(z, heads, wavelengths, *, labels, zmax=None, height=420):
    """Share of each frequency pair (columns, labelled by their wavelength) in the size of each head's score
    (rows), in percent, one cell per (head, pair) with its number; the fast pairs' columns are those with a
    wavelength up to the training length (labels "fast" names them). labels: "title", "subtitle", "x", "y",
    "fast" (optional note), "unit"."""
    z = style.f32(z)
    cols = [f"{i}<br>{short_number(w)}" if w < 1e5 else f"{i}<br>∞" for i, w in enumerate(wavelengths)]
    text = [[f"{v:.0f}" for v in row] for row in z.tolist()]
    data = [{"type": "heatmap", "z": z, "x": cols, "y": list(heads), "colorscale": SEQUENTIAL, "zmin": 0.0,
             "zmax": float(zmax if zmax is not None else max(1.0, float(z.max()))), "text": text,
             "texttemplate": "%{text}", "textfont": {"size": 12},
             "colorbar": {"title": {"text": labels.get("unit", "%")}, "thickness": 12, "len": 0.9},
             "hovertemplate": "%{y} · %{x}<br>%{z:.1f} %<extra></extra>"}]
    shown, place = placed(labels, height=height)
    return figure(data, style.layout(shown, **place, legend_at=None,
                                     yaxis={"autorange": "reversed", "type": "category"},
                                     xaxis={"type": "category", "tickangle": 0}))


def ablation_bars(pairs, groups, *, labels, base=None, height=420):
    """Accuracy with one pair's rotation removed, per pair (x, labelled by wavelength) and bucket (one bar group
    per bucket: groups = {name: (mean [d/2], lo [d/2], hi [d/2])}, in percent, the min-max over seeds as error
    bars); base: {name: mean} drawn as dashed lines (the model as trained). labels: "title", "subtitle", "x",
    "y", and each group's legend name (by its key)."""
    colors = [style.PALETTE[0], style.PALETTE[1], style.PALETTE[2]]
    data = []
    for k, (name, (mean, lo, hi)) in enumerate(groups.items()):
        m = np.asarray(mean, dtype=np.float32)
        data.append({"type": "bar", "x": list(pairs), "y": m, "name": labels.get(name, name),
                     "marker": {"color": colors[k % 3]}, "text": [f"{v:.0f}" for v in m], "textposition": "inside",
                     "insidetextanchor": "end",           # the mean (scene 4 quotes it), readable on its bar
                     "textfont": {"color": style.text_on(colors[k % 3])},
                     "error_y": {"type": "data", "symmetric": False, "array": style.f32(np.asarray(hi) - m),
                                 "arrayminus": style.f32(m - np.asarray(lo)), "color": "#333333", "thickness": 1.5},
                     "hovertemplate": "%{x}: %{y:.1f} %<extra>" + labels.get(name, name) + "</extra>"})
    shapes = []
    for k, v in enumerate((base or {}).values()):
        shapes.append({"type": "line", "x0": 0, "x1": 1, "xref": "x domain", "y0": v, "y1": v, "yref": "y",
                       "line": {"color": colors[k % 3], "width": 1.5, "dash": "dash"}})
    shown, place = placed(labels, height=height)
    return figure(data, style.layout(shown, **place, legend_at="bottom", legend_rows=1,
                                     barmode="group", shapes=shapes, yaxis={"range": [0, 105]},
                                     xaxis={"type": "category", "tickangle": 0}))


def marker_lines(positions, series, trained_at, *, labels, bands=None, chance=None, height=None):
    """Accuracy of the marker-task runs with the marker moved to each position (x), mean with the min-max band
    of the seeds; each run's training position marked by a dotted vertical line in its colour (None: trained
    everywhere). labels: "title", "subtitle", "x", "y", "reference", "trained", each run's legend name."""
    shapes, notes = [], []
    for name, at in trained_at.items():
        if at is None or name not in series:
            continue
        shapes.append({"type": "line", "x0": at, "x1": at, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain",
                       "line": {"color": "#000000", "width": 1.5, "dash": "dash"}})
    if shapes:
        at = shapes[0]["x0"]
        notes.append({"x": at, "y": 1.0, "yref": "paper", "text": labels.get("trained"), "showarrow": False,
                      "xanchor": "left", "yanchor": "top", "font": {"size": 13}, "bgcolor": "rgba(255,255,255,0.7)"})
    ref = None if chance is None else [chance] * len(positions)
    return line_chart(list(positions), series, labels=labels, bands=bands, reference=ref, shapes=shapes, notes=notes,
                      axes={"yaxis": {"range": [-0.02, 1.02]}, "xaxis": {"range": [0, max(positions) + 1]}},
                      height=height)
