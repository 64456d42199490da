"""Shared look of every figure: fonts readable on a projector, colour-blind-safe
scales, fixed ranges for compared panels, float32 payloads and decimation, and the one
layout every builder lays its figure out with (`layout`: title, legend, margins, axis titles)."""
import base64
import html
import json
import os
import unicodedata

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

FONT = dict(family="Noto Sans, Noto Sans CJK SC, Arial, sans-serif", size=15)
PRESENT_FONT = 24
PRESENT_MIN = 22     # lecture mode: nothing a student must read is smaller (issue 12)
# Diverging data: RdBu reversed (blue < 0 < red) is colour-blind safe; always zmid=0.
DIVERGING = "RdBu_r"
# Sequential data (distances, buckets, probabilities): viridis is perceptually uniform.
SEQUENTIAL = "Viridis"
# Okabe-Ito palette: distinguishable with every common colour-vision deficiency.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]
MAX_CELLS = 160_000   # a heatmap never sends more cells than a screen can show (400 x 400)
MAX_POINTS = 4_000    # a line never sends more points than pixels
GRID = "#E5E9F0"

# A small house template, registered once as the default: plotly validates a template on
# every `update_layout(template=...)`, and the stock "plotly_white" costs ~50 ms per figure.
pio.templates["posviz"] = go.layout.Template(layout=dict(
    paper_bgcolor="white", plot_bgcolor="white", colorway=PALETTE, font=FONT,
    xaxis=dict(gridcolor=GRID, zerolinecolor=GRID, automargin=True),
    yaxis=dict(gridcolor=GRID, zerolinecolor=GRID, automargin=True),
    polar=dict(bgcolor="white", radialaxis=dict(gridcolor=GRID), angularaxis=dict(gridcolor=GRID)),
    hoverlabel=dict(font_size=14),
    # the toolbar's icons at 3:1 and more on white (WCAG 1.4.11; plotly's own grey at 30 % was 1.5:1)
    modebar=dict(color="#6b6b6b", activecolor="#0072B2", bgcolor="rgba(255,255,255,0.9)"),
))
pio.templates.default = "posviz"


# Titles: under plotly's toolbar (a touch screen always shows it) and wrapped so that they never run off a phone.
TITLE_WIDTH = 40      # width units per title line (a CJK character counts 2): fits a 390 px phone
PANEL_TITLE_WIDTH = 28   # a panel drawn in one of three st.columns (about 270 px wide on a desktop)
TITLE_PX = 16         # title font (lecture mode enlarges it; LINE_PX leaves room for that)
MODEBAR_PX = 40       # room above the title for plotly's toolbar (27 px tall)
LINE_PX = 36          # one title line (lecture mode: 28 px font, and the figure 1.2x taller)
MULTILINE_SHIFT_PX = 14   # plotly lifts a title of n lines by about (n - 1) half lines: lowered by as much
MARGIN = {"l": 60, "r": 20, "b": 55}   # the house margins; the top one is the title's
TIGHT = {"l": 10, "r": 10, "b": 10}    # margins that leave a phone's width to the plot (axes' automargin adds room)
LEGENDS = {   # the places of a horizontal legend (layout's legend_at)
    "above": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
    "below": {"orientation": "h", "yanchor": "top", "y": -0.3, "x": 0, "xanchor": "left"},
    "bottom": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0, "xanchor": "left"},
}


def layout(labels=None, *, height, title_at="phone", narrow=False, legend_at="above", legend_rows=None, **extra):
    """The house layout of a one-panel figure as a plain dict (figures are built without plotly's
    validators; the tests validate every builder).

    labels: the figure's labels; the layout takes its "title", the axis titles "x" and "y" and, above the
    plot, a "subtitle" (each optional). title_at: where the title sits, and the top margin it gets:
      "phone": top left under plotly's toolbar, wrapped to TITLE_WIDTH units (`narrow`: PANEL_TITLE_WIDTH,
        a panel in a narrow column) with the room its lines need (wrapped_title); no title: the toolbar's room;
      "toolbar": one line at the top left under the toolbar; the top margin grows to fit it unless `margin`
        fixes it;
      "plot": right above the plot area, `subtitle` in smaller print under it;
      "top": at the very top of the figure.
    legend_at: "above" the plot; "below" it (its top 0.3 plot heights down); "under" the x-axis title (about
      78 px under the plot, small print, the axis title drawn close to its axis: rows that wrap on a phone run
      into neither); at the "bottom" of the figure, in rows of its own (`legend_rows`: room for that many when
      they wrap on a phone); None: no legend. (`showlegend=False` hides a legend and keeps its place.)
    `extra`: any other layout key; a dict merges into the house one key by key
    (legend={"y": -0.35} moves the legend, margin={"b": 10} sets one margin). Empty lists and dicts are
    left out, as plotly writes a layout."""
    labels = {} if labels is None else labels
    fixed_top = "t" in extra.get("margin", {})
    spec, top = _title(labels.get("title"), title_at, height=height, narrow=narrow, subtitle=labels.get("subtitle"),
                       automargin=not fixed_top)
    lay = {"font": dict(FONT), "height": height, "showlegend": legend_at is not None, "margin": {**MARGIN, "t": top}}
    if spec:
        lay["title"] = spec
    if legend_at == "under":
        below = -min(0.6, 78 / max(120, height - 124))
        lay["legend"] = {**LEGENDS["below"], "y": below, "font": {"size": 13}}
        lay["xaxis"] = {"title": {"standoff": 6}}
    elif legend_at is not None:
        lay["legend"] = dict(LEGENDS[legend_at])
    if legend_rows is not None:
        lay["margin"]["b"] = 70 + 26 * legend_rows
    for name, key in (("xaxis", "x"), ("yaxis", "y")):
        if labels.get(key) is not None:
            lay.setdefault(name, {}).setdefault("title", {})["text"] = labels[key]
    lay = _merge(lay, extra)
    return {k: v for k, v in lay.items() if not (isinstance(v, (dict, list)) and not v)}


def _title(title, place, *, height, narrow, subtitle, automargin):
    """(title dict or None, top margin px) of `title` at `place` (see layout)."""
    if place == "phone":
        return wrapped_title(title, height=height, width=PANEL_TITLE_WIDTH if narrow else TITLE_WIDTH)
    if place == "plot":
        if not title:
            return None, 30
        # plotly anchors a two-line title by its first line: the pad leaves room for the subtitle's
        text = f"{title}<br><sup>{subtitle}</sup>" if subtitle else title
        return ({"text": text, "x": 0.01, "xanchor": "left", "yref": "paper", "y": 1, "yanchor": "bottom",
                 "pad": {"b": 30 if subtitle else 12}}, 105 if subtitle else 75)
    text = {"text": title, "x": 0.01, "xanchor": "left"} if title else {}
    if place == "top":
        return {**text, "y": 0.985, "yanchor": "top"}, 64
    assert place == "toolbar", place
    spec = {**text, "yref": "container", "y": 1.0, "yanchor": "top", "pad": {"t": MODEBAR_PX - 6}}
    if automargin:
        spec["automargin"] = True
    return (spec if text else None), 60


def _merge(base, extra):
    """`base` with `extra` in it, as new dicts: a dict merges into a dict key by key (deeply), anything else
    replaces."""
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict):
            value = _merge(out[key] if isinstance(out.get(key), dict) else {}, value)
        out[key] = value
    return out


def _width(ch):
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def wrap(text, width=TITLE_WIDTH):
    """Break `text` into lines of at most `width` units (CJK characters count 2) at spaces, or
    anywhere in CJK runs, joined by <br>. The text is escaped: titles may hold user words."""
    lines, line, used = [], "", 0
    for word in str(text).replace("\n", " ").split(" "):
        w = sum(_width(c) for c in word)
        if line and used + 1 + w <= width:
            line, used = f"{line} {word}", used + 1 + w
            continue
        if line:
            lines.append(line)
        line, used = "", 0
        for c in word:                       # a word longer than a line (a CJK sentence) breaks anywhere
            if used + _width(c) > width and line:
                lines.append(line)
                line, used = "", 0
            line, used = line + c, used + _width(c)
    if line:
        lines.append(line)
    return "<br>".join(html.escape(x, quote=False) for x in lines)


def wrapped_title(title, *, height, width=TITLE_WIDTH):
    """`title` (wrapped to `width` units) at the top left of a figure `height` px tall, under plotly's
    toolbar, and the top margin its lines need: (title dict, or None without a title; margin top px).
    The toolbar never covers it, a long title never runs off a phone, and no line overlaps the plot.

    Formula: the first line's top sits MODEBAR_PX down, lowered MULTILINE_SHIFT_PX per extra line
    (plotly lifts an n-line title by about (n - 1) half lines); the margin is that plus LINE_PX a line."""
    text = wrap(title, width) if title else ""
    lines = text.count("<br>") + 1 if text else 0
    top = MODEBAR_PX + MULTILINE_SHIFT_PX * max(lines - 1, 0)
    spec = {"text": text, "x": 0, "xref": "container", "xanchor": "left", "y": 1 - top / height,
            "yref": "container", "yanchor": "top", "pad": {"l": 6}, "font": {"size": TITLE_PX}} if text else None
    return spec, top + LINE_PX * lines + (6 if lines else 0)


def _rgb(color):
    """[r, g, b] (0-255) of "#rrggbb" or "#rgb"."""
    if len(color) == 4:
        color = "#" + "".join(ch * 2 for ch in color[1:])
    return [int(color[i:i + 2], 16) for i in (1, 3, 5)]


def luminance(color):
    """WCAG 2's relative luminance of a "#rrggbb" (or "#rgb") colour.

    Formula: each channel c = v / 255 is linearised, c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4;
      L = 0.2126 R + 0.7152 G + 0.0722 B"""
    rgb = [v / 255 for v in _rgb(color)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a, b):
    """WCAG 2's contrast ratio of two "#rrggbb" colours, 1 to 21.

    Formula: (L_lighter + 0.05) / (L_darker + 0.05)"""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


TEXT_CONTRAST = 4.5   # WCAG 1.4.3 (AA) for text under 24 px (18.66 px bold)
INK = "#1a1a1a"       # dark text on a light fill


def blend(color, opacity, background="#ffffff"):
    """The "#rrggbb" a fill of `color` at `opacity` shows over `background`: opacity c + (1 - opacity) b per channel."""
    return "#" + "".join(f"{round(opacity * c + (1 - opacity) * b):02x}"
                         for c, b in zip(_rgb(color), _rgb(background)))


def text_on(fill):
    """White or INK, whichever reads better on `fill` ("#rrggbb"): text written inside a bar."""
    return "#ffffff" if contrast("#ffffff", fill) >= contrast(INK, fill) else INK


def readable(color, background="#ffffff", ratio=TEXT_CONTRAST):
    """`color` ("#rrggbb") for text on `background`: itself when it has `ratio` against it, else the same hue
    darkened (each channel scaled by one factor, the largest that reaches `ratio`, to 1/256) -- a line's colour for
    the label beside the line."""
    if contrast(color, background) >= ratio:
        return color
    rgb = _rgb(color)

    def scaled(k):
        return "#" + "".join(f"{round(c * k):02x}" for c in rgb)

    lo, hi = 0.0, 1.0
    while hi - lo > 1 / 256:
        k = (lo + hi) / 2
        lo, hi = (k, hi) if contrast(scaled(k), background) >= ratio else (lo, k)
    return scaled(lo)


def escape(text):
    """User or translated text for a plotly label (plotly reads a few tags such as <b>, <a href>)."""
    return html.escape(str(text), quote=False)


def token_labels(tokens):
    """Unique, escaped axis labels "i·token" (a category axis would merge repeated words)."""
    return [f"{i}·{html.escape(str(t))}" for i, t in enumerate(tokens)]


def figure(data, lay):
    """go.Figure of plain trace and layout dicts, not validated (each builder's tests validate it:
    validated_equals_built)."""
    return go.Figure({"data": data, "layout": lay}, _validate=False)


def f32(a):
    """Any array-like -> contiguous float32 numpy (plotly sends it as compact base64)."""
    if hasattr(a, "detach"):
        a = a.detach().cpu().numpy()
    return np.ascontiguousarray(np.asarray(a, dtype=np.float32))


def decimate_axis(n, max_n):
    """Indices that keep at most max_n of n evenly spaced samples (always keeps 0)."""
    if n <= max_n:
        return np.arange(n)
    step = int(np.ceil(n / max_n))
    return np.arange(0, n, step)


def decimate_2d(z, max_cells=MAX_CELLS):
    """z [R,C] -> (z', row_idx, col_idx) with R'*C' <= max_cells, by striding."""
    z = f32(z)
    r, c = z.shape
    side = int(np.sqrt(max_cells))
    ri, ci = decimate_axis(r, side), decimate_axis(c, side)
    return z[np.ix_(ri, ci)], ri, ci


def heatmap(z, *, x=None, y=None, colorscale=DIVERGING, zmin=None, zmax=None, zmid=None,
            colorbar_title=None, text=None, hover="x=%{x}<br>y=%{y}<br>z=%{z:.4g}", showscale=True):
    """A decimated float32 heatmap trace. Diverging scales get zmid=0 unless told otherwise.

    x, y: coordinates of the columns / rows (default 0..n-1), decimated with z.
    text: optional per-cell labels, only used when the heatmap is small (<= 400 cells).
    """
    zd, ri, ci = decimate_2d(z)
    xs = np.arange(np.shape(z)[1]) if x is None else np.asarray(x)
    ys = np.arange(np.shape(z)[0]) if y is None else np.asarray(y)
    if colorscale == DIVERGING and zmid is None:
        zmid = 0.0
    kw = {}
    if text is not None and zd.size <= 400:
        kw = dict(text=np.asarray(text)[np.ix_(ri, ci)], texttemplate="%{text}")
    return go.Heatmap(z=zd, x=xs[ci], y=ys[ri], colorscale=colorscale, zmin=zmin, zmax=zmax,
                      zmid=zmid, colorbar=dict(title=colorbar_title), hovertemplate=hover,
                      showscale=showscale, **kw)


def line_xy(x, y):
    """Decimate a line to at most MAX_POINTS points; float32 payloads."""
    idx = decimate_axis(len(x), MAX_POINTS)
    return f32(np.asarray(x)[idx]), f32(np.asarray(y)[idx])


def real_values(axis, plotted, real, hover_name=None):
    """Trace keywords for a trace that draws `plotted` on `axis` ("y" or "z") but whose real numbers
    are `real` (e.g. a log axis's floor drawn for an exact 0): the CSV export and the hover show `real`."""
    kw = {axis: plotted, "customdata": f32(real), "meta": {"real": axis}}
    if hover_name is not None:
        kw["hovertemplate"] = f"{hover_name}=%{{customdata:.4g}}<extra></extra>"
    return kw


def symmetric_range(*arrays):
    """(-m, m) with m the largest |value| over all arrays: one fixed scale for compared panels."""
    m = max(float(np.nanmax(np.abs(f32(a)))) for a in arrays)
    m = m if m > 0 else 1.0
    return -m, m


def presentation(fig):
    """Projector mode: every text >= PRESENT_MIN px (titles, ticks, legends, subplot titles), thicker
    lines; same colours and ranges; 1.2 x the height, or the layout's meta["lecture_height"] when the builder
    sets one."""
    fig.update_layout(font=dict(size=PRESENT_FONT), title_font=dict(size=PRESENT_FONT + 4))
    if fig.layout.title is not None and fig.layout.title.subtitle is not None and fig.layout.title.subtitle.text:
        fig.update_layout(title_subtitle_font_size=PRESENT_MIN)
    fig.update_xaxes(title_font=dict(size=PRESENT_FONT), tickfont=dict(size=PRESENT_MIN))
    fig.update_yaxes(title_font=dict(size=PRESENT_FONT), tickfont=dict(size=PRESENT_MIN))
    fig.update_layout(legend=dict(font=dict(size=PRESENT_MIN)), hoverlabel=dict(font_size=PRESENT_MIN))
    colorbar = dict(tickfont=dict(size=PRESENT_MIN), title_font=dict(size=PRESENT_MIN))
    fig.update_coloraxes(colorbar=colorbar)
    fig.for_each_trace(lambda tr: tr.update(colorbar=colorbar) if hasattr(tr, "colorbar") else None)
    fig.for_each_annotation(lambda a: a.update(font=dict(size=max(a.font.size or 0, PRESENT_MIN))))
    if fig.layout.polar is not None:
        fig.update_polars(radialaxis_tickfont_size=PRESENT_MIN, angularaxis_tickfont_size=PRESENT_MIN)
    for tr in fig.data:
        if getattr(tr, "type", None) == "heatmap" and tr.texttemplate:    # numbers in the cells: projector-sized too
            tr.update(textfont=dict(size=max(tr.textfont.size or 0, PRESENT_MIN)))
        if getattr(tr, "type", None) == "scatter":
            width = (tr.line.width or 2) if tr.line is not None else 2
            tr.update(line=dict(width=max(3.5, width * 1.8)))
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    if meta.get("lecture"):               # a builder that lays itself out for a projector (its legend's rows)
        fig.update_layout(meta["lecture"])
    elif meta.get("lecture_height"):      # a builder that knows its lecture-mode height (e.g. fewer legend rows)
        fig.update_layout(height=int(meta["lecture_height"]))
    elif fig.layout.height:
        fig.update_layout(height=int(fig.layout.height * 1.2))
    return fig


# The margins plotly.js settles on for each chart of the app (by its key), measured in Chromium at
# 1280x720 in both languages, normal and lecture mode (benchmarks/margins.py --write refits them).
MARGINS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "margins.json")
try:
    with open(MARGINS_FILE) as _f:
        MARGINS = json.load(_f)
except FileNotFoundError:
    MARGINS = {}


def one_pass(spec, key, projector=False, phone=False):
    """`spec` (a figure dict) asking up front for the margins plotly settles on for chart `key`
    (MARGINS: lecture mode, else a phone's or a desktop's). plotly.js draws a chart, grows any margin
    its title, colour bar, legend or axis labels do not fit in, then draws the whole chart again: asked
    for at once, it draws once (half the browser's time per chart). A margin is only ever raised, never
    lowered: a chart that needs more room than the table gives (other data, another width) still gets it.
    A builder may lay itself out for a phone (layout meta["phone"]) and size its own top margin
    (meta["own_top"]: the table's top is not applied). A new dict: the cached spec is left as it was."""
    entry = MARGINS.get(key, {})
    fit = entry.get("present") if projector else (phone and entry.get("phone")) or entry.get("normal")
    lay = spec.get("layout", {})
    meta = lay.get("meta") if isinstance(lay.get("meta"), dict) else {}
    if phone and not projector and meta.get("phone"):     # a builder's own phone layout (its height)
        lay = _merge(lay, meta["phone"])
    elif not fit:
        return spec
    margin = dict(lay.get("margin", {}))
    for side, px in (fit or {}).items():
        if not (side == "t" and meta.get("own_top")):     # a builder that sizes its top for its legend's rows
            margin[side] = max(margin.get(side) or 0, px)
    return {**spec, "layout": {**lay, "margin": margin}}


def freeze(fig):
    """A figure as a plain dict (cheap to pickle into st.cache_data); arrays become plotly's
    base64 `{"dtype", "bdata", "shape"}` records."""
    return fig.to_dict()


def _decode(obj):
    if isinstance(obj, dict):
        if "bdata" in obj and "dtype" in obj:
            a = np.frombuffer(base64.b64decode(obj["bdata"]), dtype=np.dtype(obj["dtype"]))
            if "shape" in obj:
                a = a.reshape([int(s) for s in str(obj["shape"]).split(",")])
            return a
        return {k: _decode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_decode(v) for v in obj]
    return obj


def thaw(spec):
    """The dict of `freeze` back into a go.Figure with numpy arrays, without re-validating it
    (it was validated when first built): well under a millisecond instead of tens."""
    return go.Figure({"data": _decode(spec.get("data", [])), "layout": spec.get("layout", {}),
                      "frames": _decode(spec.get("frames", []))}, _validate=False)
