"""Figures of the attention lab: correct and chosen attention (one figure per panel), the
chosen - correct difference, the per-token error and the method x setup summary.

Arrays and one `labels` dict in, go.Figure out; every figure is readable on a 390 px phone. Token
labels are user text and go through style.token_labels (HTML-escaped: plotly interprets a few
tags such as <b> and <a href> in tick labels and hover text). The figures are written as plain
dicts and wrapped without plotly's validation (it costs ~20x the build; the tests validate every
builder: tests/figures/test_figures_lab.py).
"""
import math

import numpy as np
import plotly.graph_objects as go

from posviz.figures import style
from posviz.figures.style import escape, token_labels

# colour scales spelled out as plotly's validation expands their names (plotly.js does not know plotly.py's
# names such as "RdBu_r"; these figures skip the validation)
SCALES = {k: [list(stop) for stop in go.Heatmap(colorscale=name).colorscale]
          for k, name in (("sequential", style.SEQUENTIAL), ("diverging", style.DIVERGING), ("summary", "Cividis"))}
TICKS = {"tickangle": -45, "tickfont": {"size": 12}}


figure = style.figure      # plain dicts, not validated (tests: validated_equals_built)


def _heatmap(z, x, y, **trace):
    """A decimated float32 heatmap trace (style.heatmap) as a dict: x, y the labels of columns / rows."""
    zd, ri, ci = style.decimate_2d(z)
    return {"type": "heatmap", "z": zd, "x": [x[i] for i in ci], "y": [y[i] for i in ri], **trace}


def short_number(v):
    """A colour bar label of a few characters: 0.31, −0.31, 0.001 (a narrow panel keeps its width for the map)."""
    if v == 0:
        return "0"
    return ("−" if v < 0 else "") + format(abs(v), ".2g" if abs(v) >= 0.01 else ".1g")


def _panel(z, tokens, *, labels, scale, zmin, zmax, hover, height, zmid=None, ticks=None, lecture=None):
    """One heatmap panel as its own figure: rows read top-down, a thin colorbar on its right with its title on
    top (`ticks`: its tick values, labelled short_number; default: about 5 chosen by plotly). `lecture`: layout
    keys for lecture mode (style.presentation)."""
    t = token_labels(tokens)
    bar = {"title": {"text": labels.get("colorbar", ""), "side": "top"}, "thickness": 10, "len": 1.0, "nticks": 5,
           "xpad": 4}
    if ticks is not None:
        bar.update(tickvals=list(ticks), ticktext=[short_number(v) for v in ticks])
    trace = _heatmap(z, t, t, colorscale=SCALES[scale], zmin=zmin, zmax=zmax, hovertemplate=hover, showscale=True,
                     colorbar=bar)
    if zmid is not None:
        trace["zmid"] = zmid
    meta = {"lecture": lecture} if lecture else {}
    return figure([trace], style.layout({"x": "", "y": "", **labels}, height=height, narrow=True, showlegend=False,
                                        margin=style.TIGHT, xaxis=TICKS, meta=meta,
                                        yaxis={"autorange": "reversed", "tickfont": {"size": 12}}))


def attention_map(weights, tokens, *, zmax, labels, height=400):
    """One attention map A [L,S] (rows = queries, columns = keys; NaN = not shown) on the fixed
    scale 0..zmax, so that the correct and the chosen map, drawn as two figures, compare.
    labels: title, x, y, colorbar."""
    return _panel(style.f32(weights), tokens, labels=labels, scale="sequential", zmin=0.0,
                  zmax=max(float(zmax), 1e-6), height=height,
                  hover="key=%{x}<br>query=%{y}<br>A=%{z:.4f}<extra></extra>")


def attention_difference(correct, chosen, tokens, *, labels, height=400):
    """chosen - correct [L,S] on a diverging scale, zmid 0, symmetric (at least +-1e-3, so float
    noise stays white), the colour bar labelled at -max, 0 and max. labels: title, x, y, colorbar."""
    diff = style.f32(chosen) - style.f32(correct)                     # [L,S]
    finite = diff[np.isfinite(diff)]
    hi = max(style.symmetric_range(finite if finite.size else np.zeros(1))[1], 1e-3)
    # three short colour bar labels (plotly's own, −0.0005 …, widened the bar); in lecture mode, where the panel is
    # the third of a row beside the two maps, their query labels name its rows: without its own the map keeps the
    # width its keys' labels need at 22 px (they touched at -45 degrees)
    lecture = {"height": int(1.2 * height), "yaxis": {"showticklabels": False, "title": {"text": ""}}}
    return _panel(diff, tokens, labels=labels, scale="diverging", zmin=-hi, zmax=hi, zmid=0.0, height=height,
                  hover="key=%{x}<br>query=%{y}<br>Δ=%{z:.3g}<extra></extra>", ticks=(-hi, 0.0, hi), lecture=lecture)


def error_bars(errors, tokens, *, labels, harmless, harmful, floor=1e-10):
    """Per-token max |O_chosen - O_correct| of each sentence on a log axis, the two thresholds as
    lines. errors / tokens: one list per sentence; labels: title, y, harmless, harmful, and name.<r>
    (the sentence names). Exact zeros are drawn at `floor`; the CSV keeps the real values."""
    traces = []
    for r, (err, toks) in enumerate(zip(errors, tokens)):
        name = escape(labels.get(f"name.{r}", str(r)))
        e = style.f32(err)
        traces.append({"type": "bar", "x": [f"{name} {lab}" for lab in token_labels(toks)], "name": name,
                       "marker": {"color": style.PALETTE[r % len(style.PALETTE)]},
                       **style.real_values("y", np.maximum(e, floor), e),
                       # a harmful error written on its bar (the number a scene quotes)
                       "text": [short_number(v) if v >= harmful else "" for v in e], "textposition": "outside",
                       "cliponaxis": False,
                       "hovertemplate": "%{x}<br>max |ΔO| = %{customdata:.3g}<extra></extra>"})
    shapes, notes = [], []
    for y, key, dash in ((harmless, "harmless", "dot"), (harmful, "harmful", "dash")):
        shapes.append({"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y", "y0": y, "y1": y,
                       "line": {"color": "#555555", "dash": dash, "width": 1.5}})
        # on a log axis an annotation's y is log10 of the value
        notes.append({"x": 1, "xref": "paper", "xanchor": "right", "y": math.log10(y), "yref": "y",
                      "yanchor": "bottom", "text": labels.get(key, ""), "showarrow": False,
                      "font": {"color": "#333333"}})
    yaxis = {"type": "log", "range": [math.log10(floor) - 0.5, 0.5], "exponentformat": "power"}
    return figure(traces, style.layout({"title": labels.get("title"), "y": labels.get("y")}, height=400,
                                       legend_at="below", legend={"y": -0.35}, margin=style.TIGHT, shapes=shapes,
                                       annotations=notes, yaxis=yaxis, xaxis=TICKS))


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
    text = np.array([[labels.get("na", "n/a") if status[i][j] == "na" else labels.get("oor", "-")
                      if status[i][j] == "out_of_range" else _cell_text(e[i, j]) for j in range(e.shape[1])]
                     for i in range(e.shape[0])])
    zd, ri, ci = style.decimate_2d(z)
    tr = _heatmap(z, [escape(c) for c in col_labels], [escape(r) for r in row_labels], colorscale=SCALES["summary"],
                  zmin=math.log10(floor), zmax=0.5, showscale=False, xgap=2, ygap=2,
                  hovertemplate="%{y} · %{x}<br>max |ΔO| = %{text}<extra></extra>")
    if zd.size <= 400:
        tr.update(text=text[np.ix_(ri, ci)], texttemplate="%{text}")
    # the CSV gets the real errors, not log10; cell text in the layout font, so lecture mode enlarges it
    tr.update(style.real_values("z", tr["z"], e))
    extra = {}
    if selected is not None:
        i, j = selected
        extra["shapes"] = [{"type": "rect", "x0": j - 0.5, "x1": j + 0.5, "y0": i - 0.5, "y1": i + 0.5, "xref": "x",
                            "yref": "y", "line": {"color": "#D55E00", "width": 4}}]
    return figure([tr], style.layout({"title": labels.get("title")}, height=300 + 30 * len(row_labels),
                                     showlegend=False, margin=style.TIGHT, **extra, plot_bgcolor="#dddddd",
                                     yaxis={"autorange": "reversed", "tickfont": {"size": 13}},
                                     xaxis={"tickangle": -45, "side": "bottom", "tickfont": {"size": 13}}))


def pad_loss_figure(pads, ignored, kept, current, *, labels, height=420):
    """The next-token loss of one sentence against the number of pads added to it: pad labels ignored
    (ignore_index, flat) and kept (scored like words, moving), the current pad count marked.
    labels: title, x, y, ignored, kept, now."""
    x = style.f32(pads)
    data = [{"type": "scatter", "x": x, "y": style.f32(ys), "mode": "lines+markers", "name": escape(labels[key]),
             "line": {"color": color, "width": 3, "dash": dash}, "marker": {"size": 7}}
            for key, ys, color, dash in (("ignored", ignored, style.PALETTE[2], "solid"),
                                         ("kept", kept, style.PALETTE[3], "dash"))]
    shapes = [{"type": "line", "x0": current, "x1": current, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain",
               "line": {"color": "#555555", "dash": "dot", "width": 2}}]
    # the mark's label at the foot of its line, clear of both curves (the kept one falls towards the right)
    notes = [{"text": escape(labels["now"]), "x": current, "xref": "x", "xanchor": "left", "y": 0, "yref": "y domain",
              "yanchor": "bottom", "showarrow": False}]
    return figure(data, style.layout(labels, height=height, legend_at="bottom", legend_rows=2, shapes=shapes,
                                     annotations=notes))


def phase_error_figure(x, lines, *, labels, height=460):
    """The largest phase error of RoPE's angles in each block of positions, one line per way of computing them,
    on a log axis; pi (a phase that is noise) dashed. lines: {mode: [B]}; labels: title, x, y, pi, name.<mode>."""
    colors = {"float32": style.PALETTE[2], "cos_sin_lowp": style.PALETTE[0], "angle_lowp": style.PALETTE[3]}
    data = []
    for mode, y in lines.items():
        xs, ys = style.line_xy(np.asarray(x), np.maximum(np.asarray(y, dtype=np.float64), 1e-9))
        data.append({"type": "scatter", "x": xs, "y": ys, "mode": "lines", "name": style.escape(labels[f"name.{mode}"]),
                     "line": {"color": colors.get(mode, style.PALETTE[7]), "width": 2.5},
                     "hovertemplate": "m≈%{x}<br>%{y:.3g} rad<extra>%{fullData.name}</extra>"})
    pi = [{"type": "line", "x0": 0, "x1": 1, "xref": "x domain", "y0": np.pi, "y1": np.pi, "yref": "y",
           "line": {"color": "#888888", "dash": "dash", "width": 1.5}}]
    note = [{"text": style.escape(labels["pi"]), "showarrow": False, "x": 0.01, "xref": "x domain", "xanchor": "left",
             "y": float(np.log10(np.pi)), "yref": "y", "yanchor": "bottom"}]
    return style.figure(data, style.layout(labels, height=height, legend_at="bottom", legend_rows=3,
                                           margin={k: v for k, v in style.TIGHT.items() if k != "b"},
                                           shapes=pi, annotations=note,
                                           yaxis={"type": "log", "exponentformat": "power", "range": [-9, 1]}))
