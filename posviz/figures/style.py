"""Shared look of every figure: fonts readable on a projector, colour-blind-safe
scales, fixed ranges for compared panels, float32 payloads and decimation."""
import base64
import json
import os

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
))
pio.templates.default = "posviz"


def layout(fig, *, title=None, x_title=None, y_title=None, height=420, legend=True):
    """Apply the house layout to `fig` and return it."""
    fig.update_layout(
        title=dict(text=title, x=0.01, xanchor="left") if title else None,
        font=FONT, height=height, margin=dict(l=60, r=20, t=60 if title else 30, b=55),
        showlegend=legend, legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
    )
    if x_title is not None:
        fig.update_xaxes(title_text=x_title)
    if y_title is not None:
        fig.update_yaxes(title_text=y_title)
    return fig


def titled_legend_below(fig, labels, *, height):
    """House layout with the title above and the legend below the plot: a legend that wraps into
    several rows on a phone would otherwise run into the title (about 78 px under the plot area, clear
    of the x-axis title; plotly grows the bottom margin to fit it)."""
    layout(fig, title=labels.get("title"), x_title=labels.get("x"), y_title=labels.get("y"), height=height)
    below = -min(0.6, 78 / max(120, height - 124))
    fig.update_layout(margin=dict(t=64), title=dict(y=0.985, yanchor="top"),
                      legend=dict(orientation="h", x=0, xanchor="left", y=below, yanchor="top", font=dict(size=13)))
    fig.update_xaxes(title_standoff=6)
    return fig


def legend_below_layout(labels, *, height, **extra):
    """titled_legend_below as a plain layout dict (for figures built without plotly's validators): the
    house layout with the title above and the legend below the plot. `extra` merges into it (dicts one
    level deep)."""
    title = {"text": labels["title"], "x": 0.01, "xanchor": "left"} if labels.get("title") else {}
    title.update(y=0.985, yanchor="top")
    below = -min(0.6, 78 / max(120, height - 124))
    lay = {"title": title, "font": dict(FONT), "margin": {"l": 60, "r": 20, "t": 64, "b": 55},
           "legend": {"orientation": "h", "yanchor": "top", "y": below, "x": 0, "font": {"size": 13}, "xanchor": "left"},
           "height": height, "showlegend": True, "xaxis": {"title": {"standoff": 6}}, "yaxis": {}}
    if labels.get("x") is not None:
        lay["xaxis"]["title"]["text"] = labels["x"]
    if labels.get("y") is not None:
        lay["yaxis"]["title"] = {"text": labels["y"]}
    for key, value in extra.items():
        if isinstance(lay.get(key), dict):
            lay[key] = {**lay[key], **value}
        else:
            lay[key] = value
    return {k: v for k, v in lay.items() if v not in ([], {})}   # nothing empty (as plotly writes it)


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
    lines; same colours and ranges."""
    fig.update_layout(font=dict(size=PRESENT_FONT), title_font=dict(size=PRESENT_FONT + 4))
    if fig.layout.title is not None and fig.layout.title.subtitle is not None and fig.layout.title.subtitle.text:
        fig.update_layout(title_subtitle_font_size=PRESENT_MIN)
    fig.update_xaxes(title_font=dict(size=PRESENT_FONT), tickfont=dict(size=PRESENT_MIN))
    fig.update_yaxes(title_font=dict(size=PRESENT_FONT), tickfont=dict(size=PRESENT_MIN))
    fig.update_layout(legend=dict(font=dict(size=PRESENT_MIN)), hoverlabel=dict(font_size=PRESENT_MIN))
    fig.update_coloraxes(colorbar=dict(tickfont=dict(size=PRESENT_MIN), title_font=dict(size=PRESENT_MIN)))
    fig.for_each_trace(lambda tr: tr.update(colorbar=dict(tickfont=dict(size=PRESENT_MIN), title_font=dict(size=PRESENT_MIN)))
                       if hasattr(tr, "colorbar") else None)
    fig.for_each_annotation(lambda a: a.update(font=dict(size=max(a.font.size or 0, PRESENT_MIN))))
    if fig.layout.polar is not None:
        fig.update_polars(radialaxis_tickfont_size=PRESENT_MIN, angularaxis_tickfont_size=PRESENT_MIN)
    for tr in fig.data:
        if getattr(tr, "type", None) == "scatter":
            width = (tr.line.width or 2) if tr.line is not None else 2
            tr.update(line=dict(width=max(3.5, width * 1.8)))
    if fig.layout.height:
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
    A new dict: the cached spec is left as it was."""
    entry = MARGINS.get(key, {})
    fit = entry.get("present") if projector else (phone and entry.get("phone")) or entry.get("normal")
    if not fit:
        return spec
    lay = spec.get("layout", {})
    margin = dict(lay.get("margin", {}))
    for side, px in fit.items():
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
