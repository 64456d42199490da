"""Figures of the extrapolation page: wavelengths vs the trained length, phases seen vs needed,
the frequency spectrum of each scaling method (or each layer type), the new/old ratio per pair
by band, the score-vs-distance decay out to the target length, Llama 4's query temperature.

Builders take arrays and one `labels` dict of already translated strings; each returns a figure.
Every figure is one panel (phone-safe), with its legend above the plot area.
"""
import numpy as np
import plotly.graph_objects as go

from posviz.figures import style

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


def _hline(fig, y, text, dash, color="#444", log=False):
    """Horizontal line with its label; on a log axis annotations take log10 (shapes do not)."""
    fig.add_hline(y=y, line=dict(color=color, dash=dash, width=1.5))
    fig.add_annotation(xref="paper", x=0.01, y=float(np.log10(y)) if log else y, yref="y", text=text,
                       showarrow=False, xanchor="left", yanchor="bottom", font=dict(size=13, color=color),
                       bgcolor="rgba(255,255,255,0.7)")


def _vline(fig, x, text, dash, color="#444", log=False, yanchor="top", y=0.98):
    fig.add_vline(x=x, line=dict(color=color, dash=dash, width=1.5))
    fig.add_annotation(x=float(np.log10(x)) if log else x, xref="x", yref="paper", y=y, text=text,
                       showarrow=False, xanchor="right", yanchor=yanchor, font=dict(size=13, color=color),
                       bgcolor="rgba(255,255,255,0.7)")




def wavelength_figure(wavelengths, l_train, l_target, *, labels, scaled=None, height=480):
    """lambda_i = 2 pi / theta_i per pair (log y) against L_train and L_target.

    labels: title, x, y, turns, never_turns, l_train, l_target, scaled. Pairs with
    lambda_i <= L_train complete a full turn inside the trained window; scaled: wavelengths of the
    focus method (open markers).
    """
    lam = _np(wavelengths)
    i = np.arange(lam.size)
    turns = lam <= l_train
    fig = go.Figure()
    for mask, name, color in ((turns, labels["turns"], SEEN_COLOR), (~turns, labels["never_turns"], NEVER_COLOR)):
        fig.add_trace(go.Scatter(x=style.f32(i[mask]), y=style.f32(lam[mask]), mode="markers", name=name,
                                 marker=dict(color=color, size=8),
                                 hovertemplate="i=%{x}<br>λ=%{y:.4g}<extra></extra>"))
    if scaled is not None:
        fig.add_trace(go.Scatter(x=style.f32(i), y=style.f32(_np(scaled)), mode="markers", name=labels["scaled"],
                                 marker=dict(color="#000000", size=7, symbol="circle-open"),
                                 hovertemplate="i=%{x}<br>λ'=%{y:.4g}<extra></extra>"))
    _hline(fig, l_train, labels["l_train"], "solid", log=True)
    if l_target != l_train:
        _hline(fig, l_target, labels["l_target"], "dash", NEVER_COLOR, log=True)
    fig.update_yaxes(type="log", exponentformat="power", dtick=1)
    return style.titled_legend_below(fig, labels, height=height)


def phase_figure(seen, needed, never_seen, *, labels, height=460):
    """Per pair: fraction of a full turn covered in training (bars) vs needed at the target length
    (markers); pairs that reach never-seen angles in red. labels: title, x, y, seen, needed_ok, needed_new."""
    seen, needed, never = _np(seen), _np(needed), _np(never_seen, bool)
    i = np.arange(seen.size)
    fig = go.Figure()
    fig.add_trace(go.Bar(x=style.f32(i), y=style.f32(seen), name=labels["seen"],
                         marker_color="#9fb6c8", hovertemplate="i=%{x}<br>%{y:.3f}<extra></extra>"))
    for mask, name, color, symbol in ((~never, labels["needed_ok"], SEEN_COLOR, "diamond"),
                                      (never, labels["needed_new"], NEVER_COLOR, "x")):
        fig.add_trace(go.Scatter(x=style.f32(i[mask]), y=style.f32(needed[mask]), mode="markers", name=name,
                                 marker=dict(color=color, size=9, symbol=symbol),
                                 hovertemplate="i=%{x}<br>%{y:.3f}<extra></extra>"))
    fig.update_layout(bargap=0.15)
    fig.update_yaxes(range=[0, 1.08], tickformat=".0%")
    return style.titled_legend_below(fig, labels, height=height)


def frequencies_figure(curves, *, labels, yarn_range=None, llama3_edges=None, sections=None, height=540):
    """theta'_i per pair of each curve on one log-scale plot.

    curves: [(style key, name, inv_freq [d/2])]; yarn_range: (low, high) pair indices of the YaRN
    ramp (shaded, labels["yarn_ramp"]); llama3_edges: pair indices where Llama 3's bands change
    (dotted); sections: [(first pair, end pair, name)] shaded bands (M-RoPE's axes).
    """
    fig = go.Figure()
    if yarn_range is not None:
        lo, hi = yarn_range
        fig.add_vrect(x0=lo, x1=hi, fillcolor=METHOD_COLORS["yarn"], opacity=0.12, line_width=0,
                      annotation_text=labels.get("yarn_ramp", ""), annotation_position="top left",
                      annotation_font_size=13)
    for x in llama3_edges or ():
        fig.add_vline(x=x, line=dict(color=METHOD_COLORS["llama3"], dash="dot", width=1.5))
    for j, (lo, hi, name) in enumerate(sections or ()):
        fig.add_vrect(x0=lo - 0.5, x1=hi - 0.5, fillcolor=SECTION_COLORS[j % 3], opacity=0.12, line_width=0,
                      annotation_text=name, annotation_position="bottom left", annotation_font_size=13)
    for j, (key, name, inv) in enumerate(curves):
        y = _np(inv)
        fig.add_trace(go.Scatter(x=style.f32(np.arange(y.size)), y=style.f32(y), mode="lines+markers",
                                 name=name, line=dict(color=_color(key, j), dash=METHOD_DASH.get(key, "solid"), width=2),
                                 marker=dict(size=4),
                                 hovertemplate=name + "<br>i=%{x}<br>θ=%{y:.4g}<extra></extra>"))
    fig.update_yaxes(type="log", exponentformat="power", dtick=1)
    return style.titled_legend_below(fig, labels, height=height)


def ratio_figure(ratio, bands, factor, *, labels, height=450):
    """theta'_i / theta_i per pair, bars coloured by band; a dotted line at 1/factor.

    labels: title, x, y, band0, band1, band2 (names with their counts), one_over (the line's label,
    e.g. "1/factor = 1/8" for the model's own factor, "1/s = 1/16" for a compared method)."""
    r, b = _np(ratio), _np(bands, int)
    i = np.arange(r.size)
    fig = go.Figure()
    for code, color in enumerate(BAND_COLORS):
        m = b == code
        fig.add_trace(go.Bar(x=style.f32(i[m]), y=style.f32(r[m]), marker_color=color, name=labels[f"band{code}"],
                             hovertemplate="i=%{x}<br>θ'/θ=%{y:.4f}<extra></extra>"))
    if factor > 1:
        _hline(fig, 1.0 / factor, labels["one_over"], "dot")
    fig.update_layout(bargap=0.1, barmode="overlay")
    fig.update_yaxes(range=[0, max(1.08, float(r.max()) * 1.05) if r.size else 1.08])
    return style.titled_legend_below(fig, labels, height=height)


def decay_figure(distances, curves, l_train, l_target, *, labels, shown=None, switch=None, height=520):
    """Score of q = k = 1 vs relative distance (log x) per curve, out to L_target.

    curves: [(style key, name, score [R])] on the same integer distances; shown: the keys drawn at
    first (the others one click away in the legend), default all; switch: a distance marked with
    labels["switch"] (LongRoPE's change of factor set). labels: title, x, y, l_train, l_target.
    """
    r = _np(distances)
    keep = r >= 1                                      # log axis: distance 0 cannot be drawn
    fig = go.Figure()
    for j, (key, name, s) in enumerate(curves):
        x, y = style.line_xy(r[keep], _np(s)[keep])
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=name,
                                 visible=True if shown is None or key in shown else "legendonly",
                                 line=dict(color=_color(key, j), dash=METHOD_DASH.get(key, "solid"), width=1.6),
                                 hovertemplate=name + "<br>r=%{x:.0f}<br>%{y:.4f}<extra></extra>"))
    _vline(fig, l_train, labels["l_train"], "solid", log=True)
    if l_target != l_train:
        _vline(fig, l_target, labels["l_target"], "dash", NEVER_COLOR, log=True, y=0.02, yanchor="bottom")
    if switch is not None and switch not in (l_train, l_target):
        _vline(fig, switch, labels.get("switch", ""), "dot", style.PALETTE[4], log=True, y=0.5, yanchor="middle")
    fig.update_xaxes(type="log", exponentformat="power", dtick=1)
    return style.titled_legend_below(fig, labels, height=height)


def temperature_figure(positions, scale, *, labels, height=340):
    """Llama 4's query temperature tau(p) on its NoPE layers (log x). labels: title, x, y, name."""
    p, s = _np(positions), _np(scale)
    fig = go.Figure(go.Scatter(x=style.f32(p), y=style.f32(s), mode="lines", name=labels.get("name", ""),
                               line=dict(color=style.PALETTE[3], width=2, shape="hv"),
                               hovertemplate="p=%{x:.0f}<br>τ=%{y:.4f}<extra></extra>"))
    fig.update_xaxes(type="log", exponentformat="power", dtick=1)
    return style.titled_legend_below(fig, labels, height=height)
