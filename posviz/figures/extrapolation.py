"""Figures of the extrapolation page: wavelengths vs the trained length, phases seen vs needed,
the frequency spectrum of each scaling method, the new/old ratio per pair by band, and the
score-vs-distance decay out to the target length.

Builders take arrays (numpy or torch) and a `t(key, **fmt)` function for every label.
"""
import numpy as np
import plotly.graph_objects as go

from posviz.figures import style

# One colour per method on every figure of the page (Okabe-Ito).
METHOD_COLORS = {"default": "#000000", "linear": style.PALETTE[0], "ntk": style.PALETTE[1],
                 "dynamic": style.PALETTE[4], "yarn": style.PALETTE[2], "llama3": style.PALETTE[3],
                 "model": style.PALETTE[5]}
METHOD_DASH = {"default": "solid", "linear": "dash", "ntk": "dot", "dynamic": "dashdot",
               "yarn": "solid", "llama3": "longdash", "model": "solid"}
# Bands of band_of_ratio: 0 kept, 1 in between, 2 divided by the full factor.
BAND_COLORS = (style.PALETTE[2], style.PALETTE[1], style.PALETTE[0])
SEEN_COLOR, NEVER_COLOR = style.PALETTE[2], style.PALETTE[3]


def _np(a, dtype=np.float64):
    if hasattr(a, "detach"):
        a = a.detach().cpu().numpy()
    return np.asarray(a, dtype=dtype)


def _hline(fig, y, text, dash, color="#444", log=False):
    """Horizontal line with its label; on a log axis annotations take log10 (shapes do not)."""
    fig.add_hline(y=y, line=dict(color=color, dash=dash, width=1.5))
    fig.add_annotation(xref="paper", x=0.01, y=float(np.log10(y)) if log else y, yref="y", text=text,
                       showarrow=False, xanchor="left", yanchor="bottom", font=dict(size=13, color=color))


def _vline(fig, x, text, dash, color="#444", log=False, yanchor="top", y=0.98):
    fig.add_vline(x=x, line=dict(color=color, dash=dash, width=1.5))
    fig.add_annotation(x=float(np.log10(x)) if log else x, xref="x", yref="paper", y=y, text=text,
                       showarrow=False, xanchor="right", yanchor=yanchor, font=dict(size=13, color=color),
                       bgcolor="rgba(255,255,255,0.7)")


def _finish(fig, *, title, x_title, y_title, height):
    """House layout, with room for the title above a (possibly two-row) legend."""
    style.layout(fig, title=title, x_title=x_title, y_title=y_title, height=height)
    fig.update_layout(margin=dict(t=100), title=dict(y=0.985, yanchor="top"),
                      legend=dict(y=1.02, yanchor="bottom", font=dict(size=13)))
    return fig


def wavelength_figure(wavelengths, l_train, l_target, *, t, scaled=None, scaled_name=None, height=420):
    """lambda_i = 2 pi / theta_i per pair (log y) against L_train and L_target.

    Pairs with lambda_i <= L_train complete at least one full turn inside the trained window;
    the others never do. scaled: optional wavelengths of the selected method (open markers).
    """
    lam = _np(wavelengths)
    i = np.arange(lam.size)
    turns = lam <= l_train
    fig = go.Figure()
    for mask, name, color in ((turns, t("extrapolation.fig.turns"), SEEN_COLOR),
                              (~turns, t("extrapolation.fig.never_turns"), NEVER_COLOR)):
        fig.add_trace(go.Scatter(x=style.f32(i[mask]), y=style.f32(lam[mask]), mode="markers", name=name,
                                 marker=dict(color=color, size=8),
                                 hovertemplate="i=%{x}<br>λ=%{y:.4g}<extra></extra>"))
    if scaled is not None:
        fig.add_trace(go.Scatter(x=style.f32(i), y=style.f32(_np(scaled)), mode="markers", name=scaled_name,
                                 marker=dict(color="#000000", size=7, symbol="circle-open"),
                                 hovertemplate="i=%{x}<br>λ'=%{y:.4g}<extra></extra>"))
    _hline(fig, l_train, t("extrapolation.fig.l_train", n=f"{l_train:,}"), "solid", log=True)
    if l_target != l_train:
        _hline(fig, l_target, t("extrapolation.fig.l_target", n=f"{l_target:,}"), "dash", NEVER_COLOR, log=True)
    fig.update_yaxes(type="log", exponentformat="power", dtick=1)
    return _finish(fig, title=t("extrapolation.fig.wavelength.title"), x_title=t("extrapolation.fig.pair"),
                        y_title=t("extrapolation.fig.wavelength.y"), height=height)


def phase_figure(seen, needed, never_seen, *, t, height=400):
    """Per pair: fraction of a full turn covered in training (bars) vs needed at the target
    length (diamonds); pairs that reach never-seen angles are marked in red."""
    seen, needed, never = _np(seen), _np(needed), _np(never_seen, bool)
    i = np.arange(seen.size)
    fig = go.Figure()
    fig.add_trace(go.Bar(x=style.f32(i), y=style.f32(seen), name=t("extrapolation.fig.seen"),
                         marker_color="#9fb6c8", hovertemplate="i=%{x}<br>%{y:.3f}<extra></extra>"))
    for mask, name, color, symbol in ((~never, t("extrapolation.fig.needed_ok"), SEEN_COLOR, "diamond"),
                                      (never, t("extrapolation.fig.needed_new"), NEVER_COLOR, "x")):
        fig.add_trace(go.Scatter(x=style.f32(i[mask]), y=style.f32(needed[mask]), mode="markers", name=name,
                                 marker=dict(color=color, size=9, symbol=symbol),
                                 hovertemplate="i=%{x}<br>%{y:.3f}<extra></extra>"))
    fig.update_layout(bargap=0.15)
    fig.update_yaxes(range=[0, 1.08], tickformat=".0%")
    return _finish(fig, title=t("extrapolation.fig.phase.title", n=int(never.sum()), d=int(seen.size)),
                        x_title=t("extrapolation.fig.pair"), y_title=t("extrapolation.fig.phase.y"), height=height)


def frequencies_figure(curves, *, t, yarn_range=None, llama3_edges=None, height=460):
    """inv_freq theta'_i per pair of each method on one log-scale plot.

    curves: [(method_key, label, inv_freq [d/2])]; yarn_range: (low, high) pair indices of the
    YaRN ramp (shaded); llama3_edges: pair indices where Llama 3's bands change (dotted lines).
    """
    fig = go.Figure()
    if yarn_range is not None:
        lo, hi = yarn_range
        fig.add_vrect(x0=lo, x1=hi, fillcolor=METHOD_COLORS["yarn"], opacity=0.12, line_width=0,
                      annotation_text=t("extrapolation.fig.yarn_ramp"), annotation_position="top left",
                      annotation_font_size=13)
    for x in llama3_edges or ():
        fig.add_vline(x=x, line=dict(color=METHOD_COLORS["llama3"], dash="dot", width=1.5))
    for key, label, inv in curves:
        y = _np(inv)
        fig.add_trace(go.Scatter(x=style.f32(np.arange(y.size)), y=style.f32(y), mode="lines+markers",
                                 name=label, line=dict(color=METHOD_COLORS.get(key, "#000"),
                                                       dash=METHOD_DASH.get(key, "solid"), width=2),
                                 marker=dict(size=4),
                                 hovertemplate=label + "<br>i=%{x}<br>θ=%{y:.4g}<extra></extra>"))
    fig.update_yaxes(type="log", exponentformat="power", dtick=1)
    return _finish(fig, title=t("extrapolation.fig.freq.title"), x_title=t("extrapolation.fig.pair"),
                        y_title=t("extrapolation.fig.freq.y"), height=height)


def ratio_figure(ratio, bands, factor, *, t, name="", height=400):
    """theta'_i / theta_i per pair, bars coloured by band (kept / in between / divided by s)."""
    r, b = _np(ratio), _np(bands, int)
    i = np.arange(r.size)
    fig = go.Figure()
    for code, color in enumerate(BAND_COLORS):
        m = b == code
        fig.add_trace(go.Bar(x=style.f32(i[m]), y=style.f32(r[m]), marker_color=color,
                             name=t(f"extrapolation.fig.band{code}", n=int(m.sum())),
                             hovertemplate="i=%{x}<br>θ'/θ=%{y:.4f}<extra></extra>"))
    if factor > 1:
        _hline(fig, 1.0 / factor, t("extrapolation.fig.one_over_s", s=f"{factor:g}"), "dot")
    fig.update_layout(bargap=0.1, barmode="overlay")
    fig.update_yaxes(range=[0, max(1.08, float(r.max()) * 1.05) if r.size else 1.08])
    return _finish(fig, title=t("extrapolation.fig.ratio.title", name=name), x_title=t("extrapolation.fig.pair"),
                        y_title=t("extrapolation.fig.ratio.y"), height=height)


def decay_figure(distances, curves, l_train, l_target, *, t, shown=None, height=440):
    """Score of q = k = 1 vs relative distance (log x) per method, out to L_target.

    curves: [(method_key, label, score [R])] on the same integer distances; shown: the method
    keys drawn at first (the others are one click away in the legend), default all."""
    r = _np(distances)
    keep = r >= 1                                      # log axis: distance 0 cannot be drawn
    fig = go.Figure()
    for key, label, s in curves:
        x, y = style.line_xy(r[keep], _np(s)[keep])
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=label,
                                 visible=True if shown is None or key in shown else "legendonly",
                                 line=dict(color=METHOD_COLORS.get(key, "#000"),
                                           dash=METHOD_DASH.get(key, "solid"), width=1.6),
                                 hovertemplate=label + "<br>r=%{x:.0f}<br>%{y:.4f}<extra></extra>"))
    _vline(fig, l_train, t("extrapolation.fig.l_train", n=f"{l_train:,}"), "solid", log=True)
    if l_target != l_train:
        _vline(fig, l_target, t("extrapolation.fig.l_target", n=f"{l_target:,}"), "dash", NEVER_COLOR, log=True,
               y=0.02, yanchor="bottom")
    fig.update_xaxes(type="log", exponentformat="power", dtick=1)
    return _finish(fig, title=t("extrapolation.fig.decay.title"), x_title=t("extrapolation.fig.decay.x"),
                        y_title=t("extrapolation.fig.decay.y"), height=height)
