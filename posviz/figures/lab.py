"""Figures of the attention lab: correct vs chosen attention, per-token error, summary matrix.

Arrays in, go.Figure out. Token labels are user text: they are HTML-escaped, because plotly
interprets a few tags (<b>, <a href>) in tick labels and hover text.
"""
import html
import math

import numpy as np
import plotly.graph_objects as go

from posviz.figures import style
from posviz.figures.panels import pair_and_difference, token_labels


def attention_compare(correct, chosen, tokens, *, titles, x_title, y_title, diff_title, prob_title,
                      height=430):
    """Three panels on fixed scales: correct A, chosen A (both 0..max, one colour axis) and
    chosen - correct (diverging, zmid 0, symmetric range). correct/chosen: [L,S], NaN = not shown."""
    c, g = style.f32(correct), style.f32(chosen)
    diff = g - c                                                    # [L,S]
    labels = token_labels(tokens)
    top = float(np.nanmax(np.concatenate([c.ravel(), g.ravel(), [1e-6]])))
    finite = diff[np.isfinite(diff)]
    hi = max(style.symmetric_range(finite if finite.size else np.zeros(1))[1], 1e-3)
    fig = pair_and_difference(
        c, g, diff, x=labels, y=labels, titles=titles, x_title=x_title, y_title=y_title,
        value_axis=dict(colorscale=style.SEQUENTIAL, cmin=0, cmax=top), value_title=prob_title,
        diff_max=hi, diff_title=diff_title, gap=0.11, height=height,
        hovers=("key=%{x}<br>query=%{y}<br>A=%{z:.4f}<extra></extra>",
                "key=%{x}<br>query=%{y}<br>Δ=%{z:.3g}<extra></extra>"))
    fig.update_xaxes(tickangle=-45, tickfont=dict(size=12))
    fig.update_yaxes(tickfont=dict(size=12))
    fig.update_layout(margin=dict(b=90))
    return fig


def error_bars(errors, tokens, names, *, title, y_title, harmless_label, harmful_label, floor=1e-10):
    """Per-token max |O_chosen - O_correct| for each sentence, log axis; the two thresholds as lines."""
    traces = []
    for r, (err, toks, name) in enumerate(zip(errors, tokens, names)):
        e = np.maximum(style.f32(err), floor)
        traces.append(go.Bar(x=[f"{name} {lab}" for lab in token_labels(toks)], y=e, name=html.escape(name),
                             marker_color=style.PALETTE[r % len(style.PALETTE)],
                             hovertemplate="%{x}<br>max |ΔO| = %{y:.3g}<extra></extra>"))
    shapes, notes = [], []
    for y, lab, dash in ((1e-5, harmless_label, "dot"), (1e-2, harmful_label, "dash")):
        shapes.append(dict(type="line", xref="paper", x0=0, x1=1, yref="y", y0=y, y1=y,
                           line=dict(color="#555555", dash=dash, width=1.5)))
        # on a log axis an annotation's y is log10 of the value
        notes.append(dict(x=1, xref="paper", xanchor="right", y=math.log10(y), yref="y", yanchor="bottom",
                          text=lab, showarrow=False, font=dict(color="#333333")))
    fig = go.Figure(data=traces, layout=dict(
        shapes=shapes, annotations=notes,
        yaxis=dict(type="log", range=[math.log10(floor) - 0.5, 0.5], exponentformat="power"),
        xaxis=dict(tickangle=-45, tickfont=dict(size=12))))
    style.layout(fig, title=title, y_title=y_title, height=380)
    fig.update_layout(legend=dict(x=1, xanchor="right", y=1.0, yanchor="bottom"))
    return fig


def summary_heatmap(err, status, row_labels, col_labels, *, title, na_label, oor_label, colorbar_title,
                    selected=None, floor=1e-9):
    """Method x setup -> log10(max error) with the value written in each cell (small matrix)."""
    e = np.asarray(err, dtype=np.float64)
    z = np.log10(np.maximum(np.where(np.isfinite(e), e, np.nan), floor))
    text = []
    for i in range(e.shape[0]):
        row = []
        for j in range(e.shape[1]):
            st = status[i][j]
            row.append(na_label if st == "na" else oor_label if st == "out_of_range" else f"{e[i, j]:.0e}")
        text.append(row)
    tr = style.heatmap(z, x=list(col_labels), y=list(row_labels), colorscale="Cividis", zmin=math.log10(floor),
                       zmax=0.5, colorbar_title=colorbar_title, text=np.array(text),
                       hover="%{y} · %{x}<br>max |ΔO| = %{text}<extra></extra>")
    tr.update(colorbar=dict(title=colorbar_title, tickvals=[-9, -7, -5, -3, -1],
                            ticktext=["1e-9", "1e-7", "1e-5", "1e-3", "0.1"]),
              textfont=dict(size=12), xgap=2, ygap=2)
    shapes = []
    if selected is not None:
        i, j = selected
        shapes.append(dict(type="rect", x0=j - 0.5, x1=j + 0.5, y0=i - 0.5, y1=i + 0.5, xref="x", yref="y",
                           line=dict(color="#D55E00", width=4)))
    fig = go.Figure(data=[tr], layout=dict(shapes=shapes, yaxis=dict(autorange="reversed"),
                                          xaxis=dict(tickangle=-35, side="bottom")))
    style.layout(fig, title=title, height=460, legend=False)
    fig.update_layout(plot_bgcolor="#dddddd", margin=dict(l=150, r=20, t=60, b=150))
    return fig


def tensor_rows(tokens, ids, mask, pos, *, names, labels):
    """The three tensors of seed 000 §12 step 2 as table rows (one row per sentence and tensor).

    labels = (token, token id, valid mask, position id) in the page language. Cells are plain
    strings for st.dataframe (which never renders HTML)."""
    width = max(len(t) for t in tokens)
    rows = []
    for name, toks, i, m, p in zip(names, tokens, ids, mask, pos):
        for lab, vals in zip(labels, (toks, i, m, p)):
            row = {"": f"{name} · {lab}"}
            for c in range(width):
                row[str(c)] = str(vals[c]) if c < len(vals) else ""
            rows.append(row)
    return rows
