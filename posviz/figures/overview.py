"""Figures of the overview page: permutation equivariance, where position enters, seat numbers.

Arrays and one `labels` dict in, go.Figure out. Every figure is one panel: the page sets compared
panels side by side in st.columns (stacked on a phone) and passes their shared colour range.
Token labels are user text and are HTML-escaped (plotly reads a few tags in labels).
The figures are written as plain dicts and wrapped without plotly's validation (it costs ~20x the
build; tests/figures/test_figures_overview.py validates every builder).
"""
import math

import numpy as np
import plotly.graph_objects as go

from posviz.figures import style

PANEL_HEIGHT = 420
FLOOR = 1e-9          # the log axis of the bar chart draws an exact 0 here (the CSV keeps the 0)
# spelled out, as plotly.py's validation (skipped here) expands it once: plotly.js does not know "RdBu_r"
DIVERGING = [list(stop) for stop in go.Heatmap(colorscale=style.DIVERGING).colorscale]


figure = style.figure      # plain dicts, not validated (tests: validated_equals_built)


def _vline(x, line):
    """fig.add_vline as a shape dict."""
    return {"type": "line", "x0": x, "x1": x, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain", "line": line}


def _hline(y, line):
    """fig.add_hline as a shape dict."""
    return {"type": "line", "x0": 0, "x1": 1, "xref": "x domain", "y0": y, "y1": y, "yref": "y", "line": line}


def _bar_ticks(lo, hi):
    """Colour bar ticks at both ends of the range and at 0 between them (plotly's own choice for +-0.96 was
    a lone "0")."""
    vals = [lo, 0.0, hi] if lo < 0 < hi else [lo, hi]
    return {"tickvals": vals, "ticktext": [f"{v:.2g}".replace("-", "−") for v in vals]}


def equivariance_panel(z, tokens, *, zrange, labels, height=PANEL_HEIGHT):
    """One [L,D] output (rows = tokens of PX, columns = output dimensions) on a diverging scale fixed
    at `zrange` = (lo, hi): the page passes one range to Attn(PX) and P·Attn(X), so they compare colour
    for colour, and a symmetric range of its own to their difference. labels: title, x, y, value."""
    z = style.f32(z)
    lo, hi = (float(v) for v in zrange)
    zd, ri, ci = style.decimate_2d(z)
    # a horizontal colour bar at the bottom: three panels side by side keep their width for the data
    tr = {"type": "heatmap", "z": zd, "x": np.arange(z.shape[1])[ci], "y": [style.token_labels(tokens)[i] for i in ri],
          "colorscale": DIVERGING, "zmin": lo, "zmax": hi, "zmid": 0.0, "showscale": True,
          "hovertemplate": labels["x"] + "=%{x}<br>" + labels["y"] + "=%{y}<br>%{z:.4g}<extra></extra>",
          "colorbar": {"title": {"text": labels["value"], "side": "right"}, "orientation": "h", "x": 0.5,
                       "xanchor": "center", "yref": "container", "y": 0, "yanchor": "bottom", "len": 0.9,
                       "thickness": 10, **_bar_ticks(lo, hi)}}
    # the axes' automargin makes room for the token labels
    return figure([tr], style.layout(labels, height=height, showlegend=False, narrow=True,
                                     yaxis={"autorange": "reversed", "type": "category"},
                                     margin={"l": 10, "r": 20, "b": 120}))


def equivariance_bars(table, method_labels, *, labels, floor=FLOOR):
    """max |Attn(PX) - P Attn(X)| per method, without / with the causal mask (log axis; an exact 0 is
    drawn at `floor`, the CSV and the hover keep the real number). labels: title, y, nomask, causal."""
    real = np.asarray(table, dtype=np.float64)
    drawn = np.maximum(real, floor)
    data = [{"type": "bar", "x": list(method_labels), "name": lab, "marker": {"color": style.PALETTE[j]},
             **style.real_values("y", style.f32(drawn[:, j]), real[:, j]),
             "hovertemplate": "%{x}<br>%{customdata:.3g}<extra>" + lab + "</extra>"}
            for j, lab in enumerate((labels["nomask"], labels["causal"]))]
    yaxis = {"type": "log", "range": [math.log10(floor) - 0.5, 1.0], "exponentformat": "power"}
    return figure(data, style.layout({"title": labels["title"], "y": labels["y"]}, height=420, legend_at="bottom",
                                     legend_rows=1, yaxis=yaxis,
                                     shapes=[_hline(1e-5, {"color": "#555555", "dash": "dot", "width": 1.5})]))


def _q(s):
    """A DOT string; a shape such as " [N,L,D]" goes on its own line, so the boxes stay narrow (a phone)."""
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"').replace(" [", "\\n[") + '"'


def where_position_dot(lab, *, kinds=("abs", "rope", "bias"), fontsize=12, rankdir="LR"):
    """Graphviz DOT of the places position enters (“Same words, different order…” §02): one box per method
    in `kinds` (absolute, RoPE, relative bias), its data flow `rankdir` ("LR" left to right, "TB" top down),
    text `fontsize` pt; lab = {key: label}. The overview draws each method as its own top-down diagram, side
    by side on a wide screen, one under the other on a phone, each at a readable size."""
    node = (f'node [shape=box, style="rounded,filled", fontname="Noto Sans CJK SC", fontsize={fontsize}, '
            'fillcolor="#f4f4f4"];')
    pos = 'fillcolor="#F0E442"'
    lines = ["digraph G {", f"rankdir={rankdir}; nodesep=0.2; ranksep=0.3;", node,
             f'edge [fontname="Noto Sans CJK SC", fontsize={max(fontsize - 1, 1)}];']
    # graphviz stacks LR clusters bottom-up: list them in reverse to read top-down abs, rope, bias
    colors = {"bias": "#D55E00", "rope": "#009E73", "abs": "#0072B2"}
    for i, kind in enumerate(k for k in ("bias", "rope", "abs") if k in kinds):
        color = colors[kind]
        lines += [f"subgraph cluster_{i} {{", f"label={_q(lab[kind])}; fontname=\"Noto Sans CJK SC\"; "
                  f"fontsize={fontsize + 1}; color=\"{color}\"; penwidth=2;"]
        p = f"{kind}_"
        if kind == "abs":
            lines += [f"{p}tok [label={_q(lab['tok'])}];", f"{p}pe [label={_q(lab['pe'])}, {pos}];",
                      f"{p}add [label=\"+\", shape=circle, {pos}];", f"{p}h [label={_q(lab['hidden'])}];",
                      f"{p}qkv [label={_q(lab['qkv'])}];", f"{p}att [label={_q(lab['softmax'])}];",
                      f"{p}tok -> {p}add; {p}pe -> {p}add; {p}add -> {p}h -> {p}qkv -> {p}att;"]
        elif kind == "rope":
            lines += [f"{p}h [label={_q(lab['hidden'])}];", f"{p}qk [label={_q(lab['qk'])}];",
                      f"{p}rot [label={_q(lab['rot'])}, {pos}];", f"{p}v [label={_q(lab['v'])}];",
                      f"{p}att [label={_q(lab['softmax'])}];",
                      f"{p}h -> {p}qk -> {p}rot -> {p}att; {p}h -> {p}v -> {p}att;"]
        else:
            lines += [f"{p}h [label={_q(lab['hidden'])}];", f"{p}qk [label={_q(lab['scores'])}];",
                      f"{p}b [label={_q(lab['bias_node'])}, {pos}];", f"{p}add [label=\"+\", shape=circle, {pos}];",
                      f"{p}att [label={_q(lab['softmax'])}];",
                      f"{p}h -> {p}qk -> {p}add -> {p}att; {p}b -> {p}add;"]
        lines.append("}")
    lines.append("}")
    return "\n".join(lines)


def seat_integer(p, integer, normalised, train_length, *, labels, height=440):
    """A bare integer p (unbounded, one scale) and p / L_train (leaves [0, 1] past training) on a log
    axis, with the training length and the size of an embedding entry marked.
    labels: title, x, int, norm, train, emb."""
    data = []
    for y, name, color in ((integer, labels["int"], style.PALETTE[7]), (normalised, labels["norm"], style.PALETTE[0])):
        xs, ys = style.line_xy(p, y)
        data.append({"type": "scatter", "x": xs, "y": ys, "name": name, "line": {"color": color, "width": 2.5}})
    shapes = [_vline(train_length, {"color": "#555555", "dash": "dash"}),
              _hline(1, {"color": "#555555", "dash": "dot"})]
    notes = [{"x": train_length, "y": 1, "xref": "x", "yref": "y domain", "text": labels["train"], "showarrow": False,
              "xanchor": "left", "yanchor": "top"},
             {"x": 1, "y": 0, "xref": "x domain", "yref": "y", "text": labels["emb"], "showarrow": False,
              "xanchor": "right", "yanchor": "top"}]
    return figure(data, style.layout({"title": labels["title"], "x": labels["x"]}, height=height, legend_at="bottom",
                                     legend_rows=2, shapes=shapes, annotations=notes,
                                     yaxis={"type": "log", "dtick": 1, "exponentformat": "power"}))


def seat_sinusoids(p, sinusoids, omegas, *, labels, height=440):
    """Three sinusoid channels sin(p w): bounded, several scales. sinusoids [3, P]. labels: title, x."""
    data = []
    for k, (w, y) in enumerate(zip(omegas, sinusoids)):
        xs, ys = style.line_xy(p, y)
        data.append({"type": "scatter", "x": xs, "y": ys, "name": f"sin({w:g}·p)",
                     "line": {"color": style.PALETTE[(1, 2, 4)[k % 3]], "width": 2}})
    return figure(data, style.layout({"title": labels["title"], "x": labels["x"]}, height=height, legend_at="bottom",
                                     legend_rows=2, yaxis={"range": [-1.15, 1.15]}))


def score_map(scores, *, labels, height=PANEL_HEIGHT):
    """The score s(m, n) of one token at query position m (rows) and key position n (columns), on the diverging
    scale around 0: a score that depends on n − m only is constant along every diagonal. labels: title, x, y, value."""
    z = style.f32(scores)
    lo, hi = style.symmetric_range(z)
    tr = {"type": "heatmap", "z": z, "colorscale": DIVERGING, "zmin": lo, "zmax": hi, "zmid": 0.0,
          "colorbar": {"title": {"text": labels["value"]}, "len": 0.85, "thickness": 14},
          "hovertemplate": labels["y"] + "=%{y}<br>" + labels["x"] + "=%{x}<br>" + labels["value"]
          + "=%{z:.4g}<extra></extra>"}
    return figure([tr], style.layout(labels, height=height, showlegend=False, yaxis={"autorange": "reversed"}))


def score_lines(lines, offsets, *, labels, height=PANEL_HEIGHT):
    """The score along fixed offsets n − m = Δ against the query position m: flat lines when the score depends
    on n − m only. lines [len(offsets), L] (NaN past the end). labels: title, x, y, offset (a template with {d})."""
    data = []
    for k, (d, y) in enumerate(zip(offsets, style.f32(lines))):
        keep = ~np.isnan(y)
        data.append({"type": "scatter", "x": np.arange(len(y))[keep].astype(np.float32), "y": y[keep],
                     "name": labels["offset"].format(d=d), "mode": "lines",
                     "line": {"color": style.PALETTE[(0, 3, 7)[k % 3]], "width": 2.5,
                              "dash": ("solid", "dash", "dot")[k % 3]}})
    return figure(data, style.layout(labels, height=height, legend_at="bottom", legend_rows=1))
