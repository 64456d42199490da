"""Figures of the long-term decay page: score vs relative distance on one normalised axis.

Builders take curves already on the shared axis (posviz.views.decay normalises them: each divided by
its value at r = 0; ALiBi as 1 - m_h r) and ONE `labels` dict of translated strings. A trace name that
depends on its curve is a template whose fields the builder fills: {base} (e.g. "1e4"), {h}, {m},
{dim}, {i}, {theta}, {r}, {v}.
"""
import math

import numpy as np

from posviz.figures import style

Y_RANGE = (-1.1, 1.1)
CLEAR = "rgba(0,0,0,0)"   # the band's edges: invisible even where lecture mode thickens every line
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


def _figure(traces, labels, r, log_x, height, legend_title=None):
    """style.layout with a fixed y range, linear or log x, the title under plotly's toolbar, wrapped to fit a
    phone (a phone shows the toolbar all the time), and the legend in rows of its own at the bottom of the
    figure, never on the axis title (a phone stacks one item per row), each row adding to the height."""
    n_items = sum(1 for tr in traces if tr.get("showlegend") is not False) + (1 if legend_title else 0)
    r = np.asarray(r)
    r_max = float(r.max()) if r.size else 1.0
    # a log axis labels the powers of ten only: plotly draws its "2" and "5" labels at 3/4 of the tick font, 16.5 px
    # in lecture mode (under its 22 px); unlabelled minor ticks keep the scale readable
    xaxis = ({"type": "log", "range": [0, float(np.log10(max(r_max, 2.0)))], "dtick": 1,
              "minor": {"ticks": "outside", "ticklen": 4, "showgrid": True}} if log_x
             else {"type": "linear", "range": [0, max(r_max, 1.0)]})
    # lecture mode (style.presentation): two legend items a row at 22 px, 31 px a row, instead of 1.2 x the height
    lecture = int(1.2 * height + 31 * math.ceil(n_items / 2))
    legend = {"traceorder": "normal", "font": {"size": 13}}
    if legend_title:   # side "top": above the items, at their left edge ("top left" indents the items by its width)
        legend["title"] = {"text": legend_title, "side": "top"}
    lay = style.layout(labels, height=height + 22 * n_items, title_at="phone", legend_at="bottom",
                       meta={"lecture_height": lecture}, legend=legend,
                       margin={"b": 40}, xaxis=xaxis,
                       yaxis={"range": list(Y_RANGE), "zeroline": True, "zerolinecolor": "#888", "zerolinewidth": 1})
    return style.figure(traces, lay)


def _line(x, y, **kw):
    x32, y32 = style.line_xy(x, y)
    mode = "lines+markers" if len(x32) <= MARKERS_UP_TO else "lines"
    return dict(type="scatter", x=x32, y=y32, mode=kw.pop("mode", mode), hovertemplate="r=%{x}<br>%{y:.4f}", **kw)


def curves_figure(r, series, *, labels, alibi=None, sinusoidal=None, show_ones=True, log_x=False, height=400):
    """RoFormer bound and the q = k = 1 score for several bases, with ALiBi and sinusoidal lines.

    r [P] distances; series: [(base, {"bound": [P], "ones": [P]})] normalised; alibi: None or
    [(head, slope, line [P])] with line = 1 - m r; sinusoidal: None or (dim, base, line [P]).
    labels: title, x, y, bound {base}, ones {base}, alibi {h} {m}, sin {dim} {base}; ones_key (optional: the
    dotted lines' one legend entry; without it each has its own).
    """
    traces = []
    r = np.asarray(r)
    for i, (base, curves) in enumerate(series):
        c = style.PALETTE[i % len(style.PALETTE)]
        b = _base_label(base)
        traces.append(_line(r, curves["bound"], name=labels["bound"].format(base=b), line=dict(color=c, width=3),
                            marker=dict(size=5), legendgroup=b))
        if show_ones:      # with ones_key, the legend's title says what a dotted line is, for every base (fewer rows)
            traces.append(_line(r, curves["ones"], name=labels["ones"].format(base=b), marker=dict(size=4),
                                line=dict(color=c, width=1.5, dash="dot"), opacity=0.85, legendgroup=b,
                                showlegend=not labels.get("ones_key")))
    for j, (head, slope, line) in enumerate(alibi or []):
        traces.append(_line(r, line, name=labels["alibi"].format(h=head, m=f"{slope:.4g}"), mode="lines",
                            line=dict(color="#555555", width=2, dash=ALIBI_DASHES[j % len(ALIBI_DASHES)])))
    if sinusoidal is not None:
        dim, sbase, line = sinusoidal
        traces.append(_line(r, line, name=labels["sin"].format(dim=dim, base=_base_label(sbase)), mode="lines",
                            line=dict(color=style.PALETTE[7], width=1.5, dash="dashdot")))
    key = labels.get("ones_key") if show_ones and series else None
    return _figure(traces, labels, r, log_x, height, legend_title=key)


def random_figure(r, series, *, labels, log_x=False, show_example=True, height=440):
    """Random q, k: mean +- std band of the normalised score for several bases.

    series: [(base, {"mean", "std", "example": [P], "expected": [P] or None})], all in [-1, 1];
    expected = E[cos sim] * (q=k=1 curve / d), drawn dotted when given.
    labels: title, x, y, band {base}, band_hi {base}, mean {base}, expected {base}, example {base}.
    """
    traces = []
    r = np.asarray(r)
    for i, (base, curves) in enumerate(series):
        c = style.PALETTE[i % len(style.PALETTE)]
        b = _base_label(base)
        mean, std, example, expected = (curves.get(k) for k in ("mean", "std", "example", "expected"))
        mean, std = style.f32(mean), style.f32(std)
        xu, up = style.line_xy(r, mean + std)
        xl, lo = style.line_xy(r, mean - std)
        traces.append(dict(type="scatter", x=xu, y=up, mode="lines", line=dict(width=0, color=CLEAR),
                           showlegend=False, legendgroup=b, name=labels["band_hi"].format(base=b), hoverinfo="skip"))
        traces.append(dict(type="scatter", x=xl, y=lo, mode="lines", line=dict(width=0, color=CLEAR), fill="tonexty",
                           fillcolor=_rgba(c, 0.18), legendgroup=b, name=labels["band"].format(base=b),
                           hoverinfo="skip"))
        traces.append(_line(r, mean, name=labels["mean"].format(base=b), line=dict(color=c, width=3),
                            marker=dict(size=5), legendgroup=b))
        if expected is not None:
            traces.append(_line(r, expected, name=labels["expected"].format(base=b), mode="lines",
                                line=dict(color="#222222", width=1.2, dash="dot"), legendgroup=b))
        if show_example:
            traces.append(_line(r, example, name=labels["example"].format(base=b), mode="lines",
                                line=dict(color=c, width=1), opacity=0.7, legendgroup=b))
    return _figure(traces, labels, r, log_x, height)


def pair_figure(r, series, *, labels, pair, mark=3, log_x=False, height=400):
    """One pair's oscillation cos(r theta_i) for several bases; the article's cos(3 theta) marked.

    series: [(base, {"theta": theta_i, "cos": [P]})].
    labels: title, x, y, pair {base} {i} {theta}, mark {base} {r} {v}.
    """
    traces = []
    r = np.asarray(r)
    hit = np.flatnonzero(r == mark)
    for i, (base, curve) in enumerate(series):
        c = style.PALETTE[i % len(style.PALETTE)]
        b = _base_label(base)
        theta, cos = curve["theta"], style.f32(curve["cos"])
        traces.append(_line(r, cos, name=labels["pair"].format(base=b, i=pair, theta=f"{theta:.4g}"),
                            line=dict(color=c, width=2), marker=dict(size=5), legendgroup=b))
        if hit.size:
            v = float(cos[hit[0]])
            traces.append(dict(type="scatter", x=[mark], y=[v], mode="markers", legendgroup=b,
                               marker=dict(color=c, size=14, symbol="diamond", line=dict(color="#000", width=1)),
                               name=labels["mark"].format(base=b, r=mark, v=f"{v:.4f}".replace("-", "−")),
                               hovertemplate=f"r={mark}<br>cos({mark}θ)=%{{y:.4f}}"))
    return _figure(traces, labels, r, log_x, height)
