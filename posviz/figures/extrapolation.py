"""Figures of the extrapolation page: wavelengths vs the trained length, phases seen vs needed,
the frequency spectrum of each scaling method (or each layer type), the new/old ratio per pair
by band, the score-vs-distance decay out to the target length, Llama 4's query temperature.

Builders take arrays and one `labels` dict of already translated strings; each returns a figure.
Every figure is one panel (phone-safe): title above, legend below the plot area. The figures are
written as plain dicts and wrapped without plotly's validation (it costs more than the build; the
tests validate every builder).
"""
import numpy as np

from posviz.figures import style

# every figure: the title under the toolbar, wrapped (a phone always shows the toolbar), the legend under the x axis
PLACES = {"title_at": "phone", "legend_at": "under"}
# One colour per method on every figure of the page (Okabe-Ito); layer types take the rest in turn.
METHOD_COLORS = {"default": "#000000", "linear": style.PALETTE[0], "ntk": style.PALETTE[1],
                 "dynamic": style.PALETTE[4], "yarn": style.PALETTE[2], "llama3": style.PALETTE[3],
                 "model": style.PALETTE[5]}
METHOD_DASH = {"default": "solid", "linear": "dash", "ntk": "dot", "dynamic": "dashdot",
               "yarn": "solid", "llama3": "longdash", "model": "solid"}
SERIES = (style.PALETTE[0], style.PALETTE[3], style.PALETTE[2], style.PALETTE[4], style.PALETTE[1], "#000000")
# Bands of band_of_ratio: 0 kept, 1 in between, 2 divided by the full factor.
BAND_COLORS = (style.PALETTE[2], style.PALETTE[1], style.PALETTE[0])
SEEN_COLOR, NEVER_COLOR = style.PALETTE[2], style.PALETTE[3]
SECTION_COLORS = (style.PALETTE[0], style.PALETTE[1], style.PALETTE[2])


def _np(a, dtype=np.float64):
    if hasattr(a, "detach"):
        a = a.detach().cpu().numpy()
    return np.asarray(a, dtype=dtype)


def _color(key, i):
    return METHOD_COLORS.get(key, SERIES[i % len(SERIES)])


def _hline(shapes, notes, y, text, dash, color="#444", log=False, opacity=None):
    """A horizontal line across the plot with its label at the left; on a log axis annotations take
    log10 (shapes do not)."""
    shape = {"type": "line", "x0": 0, "x1": 1, "xref": "x domain", "y0": y, "y1": y, "yref": "y",
             "line": {"color": color, "dash": dash, "width": 1.5}}
    shapes.append(shape)
    notes.append({"x": 0.01, "xref": "paper", "y": float(np.log10(y)) if log else y, "yref": "y", "text": text,
                  "showarrow": False, "xanchor": "left", "yanchor": "bottom",
                  "font": {"size": 13, "color": style.readable(color)}, "bgcolor": "rgba(255,255,255,0.7)"})


def _vline(shapes, notes, x, text, dash, color="#444", log=False, yanchor="top", y=0.98):
    shapes.append({"type": "line", "x0": x, "x1": x, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain",
                   "line": {"color": color, "dash": dash, "width": 1.5}})
    notes.append({"x": float(np.log10(x)) if log else x, "xref": "x", "yref": "paper", "y": y, "text": text,
                  "showarrow": False, "xanchor": "right", "yanchor": yanchor,
                  "font": {"size": 13, "color": style.readable(color)}, "bgcolor": "rgba(255,255,255,0.7)"})


def _vrect(shapes, notes, x0, x1, color, text, position):
    """A shaded band x0..x1 over the plot's height, its name at the top or bottom left."""
    shapes.append({"type": "rect", "x0": x0, "x1": x1, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain",
                   "fillcolor": color, "opacity": 0.12, "line": {"width": 0}})
    if text:
        top = position == "top"
        notes.append({"x": x0, "xref": "x", "y": 1 if top else 0, "yref": "y domain", "text": text, "showarrow": False,
                      "xanchor": "left", "yanchor": "top" if top else "bottom", "font": {"size": 13}})


LOG_AXIS = {"type": "log", "exponentformat": "power", "dtick": 1}


def wavelength_figure(wavelengths, l_train, l_target, *, labels, scaled=None, height=480):
    """lambda_i = 2 pi / theta_i per pair (log y) against L_train and L_target.

    labels: title, x, y, turns, never_turns, l_train, l_target, scaled. Pairs with
    lambda_i <= L_train complete a full turn inside the trained window; scaled: wavelengths of the
    focus method (open markers).
    """
    lam = _np(wavelengths)
    i = np.arange(lam.size)
    turns = lam <= l_train
    data = [{"type": "scatter", "x": style.f32(i[mask]), "y": style.f32(lam[mask]), "mode": "markers", "name": name,
             "marker": {"color": color, "size": 8}, "hovertemplate": "i=%{x}<br>λ=%{y:.4g}<extra></extra>"}
            for mask, name, color in ((turns, labels["turns"], SEEN_COLOR),
                                      (~turns, labels["never_turns"], NEVER_COLOR))]
    if scaled is not None:
        data.append({"type": "scatter", "x": style.f32(i), "y": style.f32(_np(scaled)), "mode": "markers",
                     "name": labels["scaled"], "marker": {"color": "#000000", "size": 7, "symbol": "circle-open"},
                     "hovertemplate": "i=%{x}<br>λ'=%{y:.4g}<extra></extra>"})
    shapes, notes = [], []
    _hline(shapes, notes, l_train, labels["l_train"], "solid", log=True)
    if l_target != l_train:
        _hline(shapes, notes, l_target, labels["l_target"], "dash", NEVER_COLOR, log=True)
    return style.figure(data, style.layout(labels, height=height, **PLACES, shapes=shapes, annotations=notes,
                                           yaxis=LOG_AXIS))


def phase_figure(seen, needed, never_seen, *, labels, height=460):
    """Per pair: fraction of a full turn covered in training (bars) vs needed at the target length
    (markers); pairs that reach never-seen angles in red. labels: title, x, y, seen, needed_ok, needed_new."""
    seen, needed, never = _np(seen), _np(needed), _np(never_seen, bool)
    i = np.arange(seen.size)
    data = [{"type": "bar", "x": style.f32(i), "y": style.f32(seen), "name": labels["seen"],
             "marker": {"color": "#9fb6c8"}, "hovertemplate": "i=%{x}<br>%{y:.3f}<extra></extra>"}]
    for mask, name, color, symbol in ((~never, labels["needed_ok"], SEEN_COLOR, "diamond"),
                                      (never, labels["needed_new"], NEVER_COLOR, "x")):
        data.append({"type": "scatter", "x": style.f32(i[mask]), "y": style.f32(needed[mask]), "mode": "markers",
                     "name": name, "marker": {"color": color, "size": 9, "symbol": symbol},
                     "hovertemplate": "i=%{x}<br>%{y:.3f}<extra></extra>"})
    return style.figure(data, style.layout(labels, height=height, **PLACES, bargap=0.15,
                                           yaxis={"range": [0, 1.08], "tickformat": ".0%"}))


def frequencies_figure(curves, *, labels, yarn_range=None, llama3_edges=None, sections=None, height=540):
    """theta'_i per pair of each curve on one log-scale plot.

    curves: [(style key, name, inv_freq [d/2])]; yarn_range: (low, high) pair indices of the YaRN
    ramp (shaded, labels["yarn_ramp"]); llama3_edges: pair indices where Llama 3's bands change
    (dotted); sections: [(first pair, end pair, name)] shaded bands (M-RoPE's axes).
    """
    shapes, notes = [], []
    if yarn_range is not None:
        lo, hi = yarn_range
        _vrect(shapes, notes, lo, hi, METHOD_COLORS["yarn"], labels.get("yarn_ramp", ""), "top")
    for x in llama3_edges or ():
        shapes.append({"type": "line", "x0": x, "x1": x, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain",
                       "line": {"color": METHOD_COLORS["llama3"], "dash": "dot", "width": 1.5}})
    for j, (lo, hi, name) in enumerate(sections or ()):
        _vrect(shapes, notes, lo - 0.5, hi - 0.5, SECTION_COLORS[j % 3], name, "bottom")
    data = []
    for j, (key, name, inv) in enumerate(curves):
        y = _np(inv)
        x = np.arange(y.size)
        turning = y > 0                                # a log axis has no 0: proportional RoPE's still pairs
                                                       # are left out
        x, y = x[turning], y[turning]
        data.append({"type": "scatter", "x": style.f32(x), "y": style.f32(y), "mode": "lines+markers",
                     "name": name, "line": {"color": _color(key, j), "dash": METHOD_DASH.get(key, "solid"), "width": 2},
                     "marker": {"size": 4}, "hovertemplate": name + "<br>i=%{x}<br>θ=%{y:.4g}<extra></extra>"})
    return style.figure(data, style.layout(labels, height=height, **PLACES, shapes=shapes, annotations=notes,
                                           yaxis=LOG_AXIS))


def ratio_figure(ratio, bands, factor, *, labels, height=450):
    """theta'_i / theta_i per pair, bars coloured by band; a dotted line at 1/factor.

    labels: title, x, y, band0, band1, band2 (names with their counts), one_over (the line's label,
    e.g. "1/factor = 1/8" for the model's own factor, "1/s = 1/16" for a compared method)."""
    r, b = _np(ratio), _np(bands, int)
    i = np.arange(r.size)
    data = [{"type": "bar", "x": style.f32(i[b == code]), "y": style.f32(r[b == code]), "marker": {"color": color},
             "name": labels[f"band{code}"], "hovertemplate": "i=%{x}<br>θ'/θ=%{y:.4f}<extra></extra>"}
            for code, color in enumerate(BAND_COLORS)]
    shapes, notes = [], []
    if factor > 1:
        _hline(shapes, notes, 1.0 / factor, labels["one_over"], "dot")
    top = max(1.08, float(r.max()) * 1.05) if r.size else 1.08
    return style.figure(data, style.layout(labels, height=height, **PLACES, shapes=shapes, annotations=notes,
                                           bargap=0.1, barmode="overlay", yaxis={"range": [0, top]}))


def decay_figure(distances, curves, l_train, l_target, *, labels, shown=None, switch=None, height=520):
    """Score of q = k = 1 vs relative distance (log x) per curve, out to L_target.

    curves: [(style key, name, score [R])] on the same integer distances; shown: the keys drawn at
    first (the others one click away in the legend), default all; switch: a distance marked with
    labels["switch"] (LongRoPE's change of factor set). labels: title, x, y, l_train, l_target.
    """
    r = _np(distances)
    keep = r >= 1                                      # log axis: distance 0 cannot be drawn
    data = []
    for j, (key, name, s) in enumerate(curves):
        x, y = style.line_xy(r[keep], _np(s)[keep])
        data.append({"type": "scatter", "x": x, "y": y, "mode": "lines", "name": name,
                     "visible": True if shown is None or key in shown else "legendonly",
                     "line": {"color": _color(key, j), "dash": METHOD_DASH.get(key, "solid"), "width": 1.6},
                     "hovertemplate": name + "<br>r=%{x:.0f}<br>%{y:.4f}<extra></extra>"})
    shapes, notes = [], []
    _vline(shapes, notes, l_train, labels["l_train"], "solid", log=True)
    if l_target != l_train:
        _vline(shapes, notes, l_target, labels["l_target"], "dash", NEVER_COLOR, log=True, y=0.02, yanchor="bottom")
    if switch is not None and switch not in (l_train, l_target):
        _vline(shapes, notes, switch, labels.get("switch", ""), "dot", style.PALETTE[4], log=True, y=0.5,
               yanchor="middle")
    return style.figure(data, style.layout(labels, height=height, **PLACES, shapes=shapes, annotations=notes,
                                           xaxis=LOG_AXIS))


def temperature_figure(positions, scale, *, labels, height=340):
    """Llama 4's query temperature tau(p) on its NoPE layers (log x). labels: title, x, y, name."""
    p, s = _np(positions), _np(scale)
    data = [{"type": "scatter", "x": style.f32(p), "y": style.f32(s), "mode": "lines", "name": labels.get("name", ""),
             "line": {"color": style.PALETTE[3], "width": 2, "shape": "hv"},
             "hovertemplate": "p=%{x:.0f}<br>τ=%{y:.4f}<extra></extra>"}]
    return style.figure(data, style.layout(labels, height=height, **PLACES, xaxis=LOG_AXIS))
