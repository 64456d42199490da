"""Figures of the attention lab: correct and chosen attention (one figure per panel), the
chosen - correct difference, the per-token error and the method x setup summary.

Arrays and one `labels` dict in, go.Figure out; every figure is readable on a 390 px phone. Token
labels are user text and go through panels.token_labels (HTML-escaped: plotly interprets a few
tags such as <b> and <a href> in tick labels and hover text).
"""
import math

import numpy as np
import plotly.graph_objects as go

from posviz.figures import style
from posviz.figures.panels import escape, heatmap_panel, title_on_top, token_labels


def _ticks(fig):
    fig.update_xaxes(tickangle=-45, tickfont=dict(size=12))
    fig.update_yaxes(tickfont=dict(size=12))
    return fig


def attention_map(weights, tokens, *, zmax, labels, height=400):
    """One attention map A [L,S] (rows = queries, columns = keys; NaN = not shown) on the fixed
    scale 0..zmax, so that the correct and the chosen map, drawn as two figures, compare.
    labels: title, x, y, colorbar."""
    t = token_labels(tokens)
    fig = heatmap_panel(style.f32(weights), x=t, y=t, labels=labels, colorscale=style.SEQUENTIAL, zmin=0.0,
                        zmax=max(float(zmax), 1e-6), height=height,
                        hover="key=%{x}<br>query=%{y}<br>A=%{z:.4f}<extra></extra>")
    return _ticks(fig)


def attention_difference(correct, chosen, tokens, *, labels, height=400):
    """chosen - correct [L,S] on a diverging scale, zmid 0, symmetric (at least +-1e-3, so float
    noise stays white). labels: title, x, y, colorbar."""
    diff = style.f32(chosen) - style.f32(correct)                     # [L,S]
    finite = diff[np.isfinite(diff)]
    hi = max(style.symmetric_range(finite if finite.size else np.zeros(1))[1], 1e-3)
    t = token_labels(tokens)
    fig = heatmap_panel(diff, x=t, y=t, labels=labels, colorscale=style.DIVERGING, zmin=-hi, zmax=hi, zmid=0.0,
                        height=height, hover="key=%{x}<br>query=%{y}<br>Δ=%{z:.3g}<extra></extra>")
    return _ticks(fig)


def error_bars(errors, tokens, *, labels, harmless, harmful, floor=1e-10):
    """Per-token max |O_chosen - O_correct| of each sentence on a log axis, the two thresholds as
    lines. errors / tokens: one list per sentence; labels: title, y, harmless, harmful, and name.<r>
    (the sentence names). Exact zeros are drawn at `floor`; the CSV keeps the real values."""
    traces = []
    for r, (err, toks) in enumerate(zip(errors, tokens)):
        name = escape(labels.get(f"name.{r}", str(r)))
        e = style.f32(err)
        traces.append(go.Bar(x=[f"{name} {lab}" for lab in token_labels(toks)], name=name,
                             marker_color=style.PALETTE[r % len(style.PALETTE)],
                             **style.real_values("y", np.maximum(e, floor), e),
                             hovertemplate="%{x}<br>max |ΔO| = %{customdata:.3g}<extra></extra>"))
    shapes, notes = [], []
    for y, key, dash in ((harmless, "harmless", "dot"), (harmful, "harmful", "dash")):
        shapes.append(dict(type="line", xref="paper", x0=0, x1=1, yref="y", y0=y, y1=y,
                           line=dict(color="#555555", dash=dash, width=1.5)))
        # on a log axis an annotation's y is log10 of the value
        notes.append(dict(x=1, xref="paper", xanchor="right", y=math.log10(y), yref="y", yanchor="bottom",
                          text=labels.get(key, ""), showarrow=False, font=dict(color="#333333")))
    fig = go.Figure(data=traces, layout=dict(
        shapes=shapes, annotations=notes,
        yaxis=dict(type="log", range=[math.log10(floor) - 0.5, 0.5], exponentformat="power"),
        xaxis=dict(tickangle=-45, tickfont=dict(size=12))))
    style.layout(fig, y_title=labels.get("y"), height=400)
    fig.update_layout(legend=dict(orientation="h", x=0, xanchor="left", y=-0.35, yanchor="top"),
                      margin=dict(l=10, r=10, b=10))
    return title_on_top(fig, labels.get("title"))


def _cell_text(e):
    """A short cell label: 2 significant digits above 1e-2, else the order of magnitude (2e-7)."""
    if e >= 1e-2:
        return f"{e:.2f}"
    mant, exp = f"{e:.0e}".split("e")
    return f"{mant}e{int(exp)}"


def summary_heatmap(err, status, row_labels, col_labels, *, labels, selected=None, floor=1e-9):
    """Method (rows) x setup (columns) -> log10(max error), each cell printed (short: "2e-7",
    "0.72", "n/a"). Readable on a phone for up to ~7 columns: the page draws the position-id
    schemes and the bugs as two figures. labels: title, na, oor. selected: (row, col) outlined."""
    e = np.asarray(err, dtype=np.float64)
    z = np.log10(np.maximum(np.where(np.isfinite(e), e, np.nan), floor))
    text = [[labels.get("na", "n/a") if status[i][j] == "na" else labels.get("oor", "-")
             if status[i][j] == "out_of_range" else _cell_text(e[i, j]) for j in range(e.shape[1])]
            for i in range(e.shape[0])]
    tr = style.heatmap(z, x=[escape(c) for c in col_labels], y=[escape(r) for r in row_labels], colorscale="Cividis",
                       zmin=math.log10(floor), zmax=0.5, text=np.array(text), showscale=False,
                       hover="%{y} · %{x}<br>max |ΔO| = %{text}<extra></extra>")
    # the CSV gets the real errors, not log10; cell text in the layout font, so lecture mode enlarges it
    tr.update(xgap=2, ygap=2, **style.real_values("z", tr.z, e))
    shapes = []
    if selected is not None:
        i, j = selected
        shapes.append(dict(type="rect", x0=j - 0.5, x1=j + 0.5, y0=i - 0.5, y1=i + 0.5, xref="x", yref="y",
                           line=dict(color="#D55E00", width=4)))
    fig = go.Figure(data=[tr], layout=dict(shapes=shapes, yaxis=dict(autorange="reversed", tickfont=dict(size=13)),
                                          xaxis=dict(tickangle=-45, side="bottom", tickfont=dict(size=13))))
    style.layout(fig, height=300 + 30 * len(row_labels), legend=False)
    fig.update_layout(plot_bgcolor="#dddddd", margin=dict(l=10, r=10, b=10))
    return title_on_top(fig, labels.get("title"))
