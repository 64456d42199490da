"""Figures of the long-term decay page: score vs relative distance on one normalised axis.

Normalisation (so RoPE, ALiBi and sinusoidal curves share the y-axis; see posviz.pe.decay):
- RoFormer bound B(r) / B(0), B(0) = d/4 + 1/2;
- q = k = 1 RoPE score / d (= mean_i cos(r theta_i));
- random q, k: score / (|q| |k|) (already normalised by posviz.pe.decay.random_score_band);
- sinusoidal PE(p).PE(p+r) / (D/2);
- ALiBi: 1 - m_h r (a content score of 1 plus the bias -m_h r).
Builders take arrays (numpy or torch) and a `t(key, **fmt)` function for the labels.
"""
import numpy as np
import plotly.graph_objects as go

from posviz.figures import style

Y_RANGE = (-1.1, 1.1)
ALIBI_DASHES = ("dash", "longdash", "dot", "longdashdot")
MARKERS_UP_TO = 160   # below this many distances, draw markers: scores exist only at integer r


def _rgba(hex_colour, alpha):
    h = hex_colour.lstrip("#")
    return f"rgba({int(h[0:2], 16)},{int(h[2:4], 16)},{int(h[4:6], 16)},{alpha})"


def _base_label(base):
    """10000 -> '1e4', 500000 -> '5e5', 100 -> '100'."""
    base = float(base)
    if base < 1000:
        return f"{base:g}"
    exp = int(np.floor(np.log10(base)))
    mant = base / 10**exp
    return f"{mant:g}e{exp}"


def _axes(fig, r, log_x, t):
    """Fixed y range, linear or log x, and the legend under the plot (long legends never cover
    the title) -- one update_layout call (plotly updates are the slow part of a rerun)."""
    n_items = sum(1 for tr in fig.data if tr.showlegend is not False)
    r = np.asarray(r)
    r_max = float(r.max()) if r.size else 1.0
    xaxis = (dict(type="log", range=[0, np.log10(max(r_max, 2.0))]) if log_x
             else dict(type="linear", range=[0, max(r_max, 1.0)]))
    fig.update_layout(
        legend=dict(orientation="h", yanchor="top", y=-0.2, x=0, xanchor="left", traceorder="normal",
                    font=dict(size=13)),
        margin=dict(b=80), height=(fig.layout.height or 420) + 12 * ((n_items + 1) // 2),
        xaxis=xaxis, yaxis=dict(range=list(Y_RANGE), zeroline=True, zerolinecolor="#888", zerolinewidth=1))
    return fig


def _line(x, y, **kw):
    x32, y32 = style.line_xy(x, y)
    mode = "lines+markers" if len(x32) <= MARKERS_UP_TO else "lines"
    return go.Scatter(x=x32, y=y32, mode=kw.pop("mode", mode), hovertemplate="r=%{x}<br>%{y:.4f}", **kw)


def decay_figure(r, head_dim, series, *, alibi=None, sinusoidal=None, show_ones=True, log_x=False, t,
                 height=460):
    """RoFormer bound and the q=k=1 score for several bases, with ALiBi and sinusoidal.

    r [P] distances; series: [(base, bound [P], ones [P])] raw values from posviz.pe.decay;
    alibi: None or [(head, slope, penalty [P])] with penalty = -m r;
    sinusoidal: None or (dim, base, dot [P]).
    """
    traces = []
    r = np.asarray(r)
    for i, (base, bound, ones) in enumerate(series):
        c = style.PALETTE[i % len(style.PALETTE)]
        b = _base_label(base)
        traces.append(_line(r, style.f32(bound) / (head_dim / 4 + 0.5), name=t("decay.fig.bound", base=b),
                            line=dict(color=c, width=3), marker=dict(size=5), legendgroup=b))
        if show_ones:
            traces.append(_line(r, style.f32(ones) / head_dim, name=t("decay.fig.ones", base=b),
                                line=dict(color=c, width=1.5, dash="dot"), marker=dict(size=4),
                                opacity=0.85, legendgroup=b))
    for j, (head, slope, pen) in enumerate(alibi or []):
        traces.append(_line(r, 1.0 + style.f32(pen), name=t("decay.fig.alibi", h=head, m=f"{slope:.4g}"),
                            mode="lines", line=dict(color="#555555", width=2, dash=ALIBI_DASHES[j % len(ALIBI_DASHES)])))
    if sinusoidal is not None:
        dim, sbase, dot = sinusoidal
        traces.append(_line(r, style.f32(dot) / (dim / 2), name=t("decay.fig.sin", dim=dim, base=_base_label(sbase)),
                            mode="lines", line=dict(color=style.PALETTE[7], width=1.5, dash="dashdot")))
    fig = go.Figure(data=traces)
    style.layout(fig, title=t("decay.fig.main.title", d=head_dim), x_title=t("decay.fig.x"),
                 y_title=t("decay.fig.main.y"), height=height)
    return _axes(fig, r, log_x, t)


def random_figure(r, series, *, correlation, log_x=False, show_example=True, t, height=440):
    """Random q, k: mean +- std band of the normalised score for several bases.

    series: [(base, mean [P], std [P], example [P], expected [P] or None)], all normalised to
    [-1, 1]; expected = E[cos sim] * (q=k=1 curve / d), drawn dotted when given.
    """
    traces = []
    r = np.asarray(r)
    for i, (base, mean, std, example, expected) in enumerate(series):
        c = style.PALETTE[i % len(style.PALETTE)]
        b = _base_label(base)
        mean, std = style.f32(mean), style.f32(std)
        xu, up = style.line_xy(r, mean + std)
        xl, lo = style.line_xy(r, mean - std)
        traces.append(go.Scatter(x=xu, y=up, mode="lines", line=dict(width=0), showlegend=False,
                                 legendgroup=b, name=t("decay.fig.band_hi", base=b), hoverinfo="skip"))
        traces.append(go.Scatter(x=xl, y=lo, mode="lines", line=dict(width=0), fill="tonexty",
                                 fillcolor=_rgba(c, 0.18), legendgroup=b, name=t("decay.fig.band", base=b),
                                 hoverinfo="skip"))
        traces.append(_line(r, mean, name=t("decay.fig.mean", base=b), line=dict(color=c, width=3),
                            marker=dict(size=5), legendgroup=b))
        if expected is not None:
            traces.append(_line(r, expected, name=t("decay.fig.expected", base=b), mode="lines",
                                line=dict(color="#222222", width=1.2, dash="dot"), legendgroup=b))
        if show_example:
            traces.append(_line(r, example, name=t("decay.fig.example", base=b), mode="lines",
                                line=dict(color=c, width=1), opacity=0.7, legendgroup=b))
    fig = go.Figure(data=traces)
    style.layout(fig, title=t("decay.fig.random.title", rho=f"{correlation:g}"), x_title=t("decay.fig.x"),
                 y_title=t("decay.fig.random.y"), height=height)
    return _axes(fig, r, log_x, t)


def pair_figure(r, series, *, pair, mark=3, log_x=False, t, height=400):
    """One pair's oscillation cos(r theta_i) for several bases; the seed's cos(3 theta) marked.

    series: [(base, theta_i, cos [P])].
    """
    traces = []
    r = np.asarray(r)
    hit = np.flatnonzero(r == mark)
    for i, (base, theta, cos) in enumerate(series):
        c = style.PALETTE[i % len(style.PALETTE)]
        b = _base_label(base)
        cos = style.f32(cos)
        traces.append(_line(r, cos, name=t("decay.fig.pair", base=b, i=pair, theta=f"{theta:.4g}"),
                            line=dict(color=c, width=2), marker=dict(size=5), legendgroup=b))
        if hit.size:
            traces.append(go.Scatter(x=[mark], y=[float(cos[hit[0]])], mode="markers", legendgroup=b,
                                     marker=dict(color=c, size=14, symbol="diamond", line=dict(color="#000", width=1)),
                                     name=t("decay.fig.mark", base=b, r=mark, v=f"{float(cos[hit[0]]):.4f}"),
                                     hovertemplate=f"r={mark}<br>cos({mark}θ)=%{{y:.4f}}"))
    fig = go.Figure(data=traces)
    style.layout(fig, title=t("decay.fig.pair.title", i=pair), x_title=t("decay.fig.x"),
                 y_title=t("decay.fig.pair.y"), height=height)
    return _axes(fig, r, log_x, t)
