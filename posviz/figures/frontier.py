"""Figures of the page of today's mechanisms: M-RoPE's three position-id rows of a composed sequence, which
frequency pair follows which axis (per model, and the wavelengths each axis gets), the angles of every pair
at every token; MLA's cache per token and the error of absorbing W_UK with and without RoPE.

Builders take arrays and one `labels` dict of already translated strings; one panel each, written as plain
dicts and wrapped without plotly's validation (the tests validate every builder).
"""
import numpy as np
import plotly.graph_objects as go

from posviz.figures import style

PLACES = {"legend_at": "under"}   # every figure: the title wrapped under the toolbar, the legend under the x axis
AXIS_COLORS = (style.PALETTE[0], style.PALETTE[3], style.PALETTE[2])      # temporal, height, width
AXIS_LINES = ({"width": 4}, {"width": 2, "dash": "dash"}, {"width": 2, "dash": "dot"})
AXIS_SYMBOLS = ("circle", "square-open", "x-thin-open")
WAVE_SYMBOLS = ("circle", "square", "diamond")
SPAN_COLORS = {"image": style.PALETTE[1], "video": style.PALETTE[4]}
CACHE_COLORS = (style.PALETTE[0], style.PALETTE[3])
MODE_COLORS = {"none": style.PALETTE[2], "whole": style.PALETTE[3], "decoupled": style.PALETTE[0]}
MODE_DASH = {"none": "solid", "whole": "solid", "decoupled": "dash"}
FLOOR = 1e-17          # a log axis cannot draw an exact 0: drawn here, exported as 0
_LOG_AXIS = {"type": "log", "exponentformat": "power", "dtick": 1}
DIVERGING = [list(stop) for stop in go.Heatmap(colorscale=style.DIVERGING).colorscale]   # as plotly spells it out


def position_ids_figure(ids, next_position, blocks, *, labels, height=470):
    """The three rows of M-RoPE's position ids (temporal, height, width) against the token index, each image
    or video shaded, and the position of the next generated token (a star after the last token).

    ids [3, L]; blocks: [{"kind", "first", "last"}]; labels: title, x, y, temporal, height, width, image,
    video, next."""
    ids = np.asarray(ids)
    x = np.arange(ids.shape[1])
    data = []
    for a, name in enumerate(("temporal", "height", "width")):
        data.append({"type": "scatter", "x": style.f32(x), "y": style.f32(ids[a]), "mode": "lines+markers",
                     "name": labels[name], "line": {"color": AXIS_COLORS[a], **AXIS_LINES[a]},
                     "marker": {"size": 7, "symbol": AXIS_SYMBOLS[a], "color": AXIS_COLORS[a]},
                     "hovertemplate": labels[name] + "<br>token %{x}<br>id %{y}<extra></extra>"})
    data.append({"type": "scatter", "x": [int(ids.shape[1])], "y": [int(next_position)], "mode": "markers",
                 "name": labels["next"], "marker": {"size": 16, "symbol": "star", "color": "#000000"},
                 "hovertemplate": labels["next"] + ": %{y}<extra></extra>"})
    shapes, notes = [], []
    for b in blocks:
        color = SPAN_COLORS[b["kind"]]
        shapes.append({"type": "rect", "x0": b["first"] - 0.5, "x1": b["last"] + 0.5, "xref": "x", "y0": 0, "y1": 1,
                       "yref": "y domain", "fillcolor": color, "opacity": 0.15, "line": {"width": 0}})
        notes.append({"x": b["first"] - 0.5, "xref": "x", "y": 1, "yref": "y domain", "text": labels[b["kind"]],
                      "showarrow": False, "xanchor": "left", "yanchor": "top", "font": {"size": 13}})
    return style.figure(data, style.layout(labels, height=height, **PLACES, shapes=shapes, annotations=notes,
                                           yaxis={"rangemode": "tozero"}))


def pair_axes_figure(rows, *, labels, height=None):
    """One row per model, one cell per frequency pair (0 = fastest, left), coloured by the axis whose id turns it.

    rows: [(name, mrope_section, axes [d/2] of 0 / 1 / 2)], each named on two lines (name, then its sections);
    labels: title, x, temporal, height, width."""
    n = max(len(a) for _, _, a in rows)
    z = np.full((len(rows), n), np.nan, dtype=np.float32)
    text = [["" for _ in range(n)] for _ in rows]
    names = ("temporal", "height", "width")
    for r, (_, _, axes) in enumerate(rows):
        z[r, :len(axes)] = axes
        for i, a in enumerate(axes):
            text[r][i] = labels[names[int(a)]]
    scale = []
    for a in range(3):
        scale += [[a / 3, AXIS_COLORS[a]], [(a + 1) / 3, AXIS_COLORS[a]]]
    names_y = [f"{style.escape(name)}<br>{list(sec)}" for name, sec, _ in rows][::-1]
    data = [{"type": "heatmap", "z": z[::-1], "x": np.arange(n), "y": names_y,
             "text": text[::-1], "zmin": -0.5, "zmax": 2.5, "colorscale": scale, "showscale": False, "xgap": 1,
             "ygap": 6, "hovertemplate": "%{y}<br>i = %{x}: %{text}<extra></extra>"}]
    data += [{"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": labels[names[a]],
              "marker": {"size": 12, "symbol": "square", "color": AXIS_COLORS[a]}} for a in range(3)]
    lay = style.layout(labels, height=height or 210 + 52 * len(rows), **PLACES, xaxis={"showgrid": False},
                       yaxis={"automargin": True, "showgrid": False})
    return style.figure(data, lay)


def axis_wavelength_figure(wavelengths, axes, *, labels, height=470):
    """Each pair's wavelength 2 pi / theta_i (log y) against its index, coloured by the axis it follows: with
    blocks an axis gets one band of speeds, interleaved it gets fast and slow pairs alike. Each axis's legend entry
    names its fastest and slowest wavelength (the numbers a scene quotes, on the figure it lands on).
    labels: title, x, y, temporal, height, width, band (a template with {axis}, {fast}, {slow})."""
    lam, axes = np.asarray(wavelengths, dtype=np.float64), np.asarray(axes)
    i = np.arange(lam.size)
    data = []
    for a, name in enumerate(("temporal", "height", "width")):
        keep = axes == a
        band = labels[name]
        if keep.any() and "band" in labels:
            band = labels["band"].format(axis=band, fast=f"{lam[keep].min():,.1f}", slow=f"{lam[keep].max():,.0f}")
        data.append({"type": "scatter", "x": style.f32(i[keep]), "y": style.f32(lam[keep]), "mode": "markers",
                     "name": band, "marker": {"size": 9, "symbol": WAVE_SYMBOLS[a], "color": AXIS_COLORS[a]},
                     "hovertemplate": labels[name] + "<br>i = %{x}<br>λ = %{y:.4g}<extra></extra>"})
    return style.figure(data, style.layout(labels, height=height, **PLACES, yaxis=_LOG_AXIS))


def angles_figure(cos, axes, *, labels, height=520):
    """cos of each pair's angle (rows: pairs, the fastest on top, named by index and axis) at every token
    (columns). cos [P, L]; axes [P] of 0 / 1 / 2; labels: title, x, y, temporal, height, width."""
    z, rows, cols = style.decimate_2d(cos)
    names = ("temporal", "height", "width")
    ticks = [f"{i} · {labels[names[int(axes[i])]]}" for i in rows]
    data = [{"type": "heatmap", "z": z, "x": cols, "y": ticks, "colorscale": DIVERGING, "zmin": -1, "zmax": 1,
             "zmid": 0, "colorbar": {"title": {"text": "cos"}, "thickness": 14},
             "hovertemplate": "token %{x}<br>pair %{y}<br>cos = %{z:.3f}<extra></extra>"}]
    return style.figure(data, style.layout(labels, height=height, legend_at=None,
                                           yaxis={"autorange": "reversed", "type": "category"}))


def cache_figure(rows, *, labels, height=420):
    """What one token leaves in one layer's cache, as stacked bars (short names on the x axis: a phone has room
    for three), each with its total above it.

    rows: [(name, first part, second part)] (counts; the first in blue, the second in vermilion); labels: title,
    y, first, second (the parts' names)."""
    names = [r[0] for r in rows]
    firsts, seconds = [int(r[1]) for r in rows], [int(r[2]) for r in rows]
    data = [{"type": "bar", "x": names, "y": firsts, "name": labels["first"], "marker": {"color": CACHE_COLORS[0]},
             "hovertemplate": "%{x}<br>" + labels["first"] + ": %{y:,}<extra></extra>"},
            {"type": "bar", "x": names, "y": seconds, "name": labels["second"], "marker": {"color": CACHE_COLORS[1]},
             "text": [f"{a + b:,}" for a, b in zip(firsts, seconds)], "textposition": "outside", "cliponaxis": False,
             "hovertemplate": "%{x}<br>" + labels["second"] + ": %{y:,}<extra></extra>"}]
    top = max(a + b for a, b in zip(firsts, seconds))
    return style.figure(data, style.layout(labels, height=height, **PLACES, barmode="stack",
                                           legend={"traceorder": "normal"}, yaxis={"range": [0, top * 1.18]}))


def absorb_figure(distance, errors, *, labels, height=460):
    """Error of the absorbed scores against the rebuilt keys' per distance m - n (log y), one line per mode.

    errors: {mode: [L]} for modes "none", "whole", "decoupled"; labels: title, x, y and one name per mode."""
    d = np.asarray(distance, dtype=np.float64)
    data = []
    for mode, err in errors.items():
        e = np.asarray(err, dtype=np.float64)
        data.append({"type": "scatter", "x": style.f32(d), "mode": "lines+markers", "name": labels[mode],
                     "line": {"color": MODE_COLORS[mode], "dash": MODE_DASH[mode], "width": 2},
                     "marker": {"size": 5},
                     **style.real_values("y", style.f32(np.maximum(e, FLOOR)), e),
                     "hovertemplate": labels[mode] + "<br>m − n = %{x}<br>%{customdata:.2e}<extra></extra>"})
    return style.figure(data, style.layout(labels, height=height, **PLACES,
                                           yaxis={**_LOG_AXIS, "dtick": 4, "range": [-17.3, 1.3]}))
