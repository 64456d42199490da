"""Figures of the overview page: permutation equivariance, where position enters, seat numbers.

Arrays and one `labels` dict in, go.Figure out. Every figure is one panel: the page sets compared
panels side by side in st.columns (stacked on a phone) and passes their shared colour range.
Token labels are user text and are HTML-escaped (plotly reads a few tags in labels).
"""
import math

import numpy as np
import plotly.graph_objects as go

from posviz.figures import panels, style

PANEL_HEIGHT = 420
FLOOR = 1e-9          # the log axis of the bar chart draws an exact 0 here (the CSV keeps the 0)


def _clear_top(fig, narrow=False):
    """The title (set by style.layout) under plotly's toolbar, which a touch screen always shows, and
    wrapped so that it never runs off a phone: panels.title_on_top. `narrow`: a panel in a narrow column."""
    return panels.title_on_top(fig, fig.layout.title.text, width=panels.PANEL_TITLE_WIDTH if narrow else panels.TITLE_WIDTH)


def _legend_below(fig, rows=2):
    """Horizontal legend at the very bottom of the figure, under the x axis title, with room for
    `rows` lines of entries when it wraps on a phone."""
    fig.update_layout(legend=dict(orientation="h", x=0, xanchor="left", yref="container", y=0, yanchor="bottom"),
                      margin=dict(b=70 + 26 * rows))
    return fig


def equivariance_panel(z, tokens, *, zrange, labels, height=PANEL_HEIGHT):
    """One [L,D] output (rows = tokens of PX, columns = output dimensions) on a diverging scale fixed
    at `zrange` = (lo, hi): the page passes one range to Attn(PX) and P·Attn(X), so they compare colour
    for colour, and a symmetric range of its own to their difference. labels: title, x, y, value."""
    z = style.f32(z)
    lo, hi = (float(v) for v in zrange)
    fig = go.Figure(style.heatmap(z, x=np.arange(z.shape[1]), y=panels.token_labels(tokens), zmin=lo, zmax=hi,
                                  colorbar_title=labels["value"],
                                  hover=labels["x"] + "=%{x}<br>" + labels["y"] + "=%{y}<br>%{z:.4g}<extra></extra>"))
    style.layout(fig, title=labels["title"], x_title=labels["x"], y_title=labels["y"], height=height, legend=False)
    # a horizontal colour bar at the bottom: three panels side by side keep their width for the data
    fig.data[0].colorbar.update(orientation="h", x=0.5, xanchor="center", yref="container", y=0, yanchor="bottom",
                                len=0.9, thickness=10, nticks=3, title=dict(text=labels["value"], side="right"))
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_layout(margin=dict(l=10, r=20, b=120))   # the axes' automargin makes room for the token labels
    return _clear_top(fig, narrow=True)


def equivariance_bars(table, method_labels, *, labels, floor=FLOOR):
    """max |Attn(PX) - P Attn(X)| per method, without / with the causal mask (log axis; an exact 0 is
    drawn at `floor`, the CSV and the hover keep the real number). labels: title, y, nomask, causal."""
    real = np.asarray(table, dtype=np.float64)
    drawn = np.maximum(real, floor)
    fig = go.Figure()
    for j, lab in enumerate((labels["nomask"], labels["causal"])):
        fig.add_trace(go.Bar(x=list(method_labels), name=lab, marker_color=style.PALETTE[j],
                             **style.real_values("y", style.f32(drawn[:, j]), real[:, j]),
                             hovertemplate="%{x}<br>%{customdata:.3g}<extra>" + lab + "</extra>"))
    fig.add_hline(y=1e-5, line=dict(color="#555555", dash="dot", width=1.5))
    style.layout(fig, title=labels["title"], y_title=labels["y"], height=420)
    _legend_below(_clear_top(fig), rows=1)
    fig.update_yaxes(type="log", range=[math.log10(floor) - 0.5, 1.0], exponentformat="power")
    return fig


def _q(s):
    """A DOT string; a shape such as " [N,L,D]" goes on its own line, so the boxes stay narrow (a phone)."""
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"').replace(" [", "\\n[") + '"'


def where_position_dot(lab):
    """Graphviz DOT of the three places position enters (seed 000 §02); lab = {key: label}."""
    node = 'node [shape=box, style="rounded,filled", fontname="Noto Sans CJK SC", fontsize=12, fillcolor="#f4f4f4"];'
    pos = 'fillcolor="#F0E442"'
    lines = ["digraph G {", "rankdir=LR; nodesep=0.2; ranksep=0.3;", node,
             'edge [fontname="Noto Sans CJK SC", fontsize=11];']
    # graphviz stacks LR clusters bottom-up: list them in reverse to read top-down abs, rope, bias
    for i, (kind, color) in enumerate((("bias", "#D55E00"), ("rope", "#009E73"), ("abs", "#0072B2"))):
        lines += [f"subgraph cluster_{i} {{", f"label={_q(lab[kind])}; fontname=\"Noto Sans CJK SC\"; "
                  f"fontsize=13; color=\"{color}\"; penwidth=2;"]
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
    fig = go.Figure()
    for y, name, color in ((integer, labels["int"], style.PALETTE[7]), (normalised, labels["norm"], style.PALETTE[0])):
        xs, ys = style.line_xy(p, y)
        fig.add_trace(go.Scatter(x=xs, y=ys, name=name, line=dict(color=color, width=2.5)))
    fig.add_vline(x=train_length, line=dict(color="#555555", dash="dash"))
    fig.add_hline(y=1, line=dict(color="#555555", dash="dot"))
    fig.add_annotation(x=train_length, y=1, xref="x", yref="y domain", text=labels["train"], showarrow=False,
                       xanchor="left", yanchor="top")
    fig.add_annotation(x=1, y=0, xref="x domain", yref="y", text=labels["emb"], showarrow=False,
                       xanchor="right", yanchor="top")
    style.layout(fig, title=labels["title"], x_title=labels["x"], height=height)
    fig.update_yaxes(type="log", dtick=1, exponentformat="power")
    return _legend_below(_clear_top(fig), rows=2)


def seat_sinusoids(p, sinusoids, omegas, *, labels, height=440):
    """Three sinusoid channels sin(p w): bounded, several scales. sinusoids [3, P]. labels: title, x."""
    fig = go.Figure()
    for k, (w, y) in enumerate(zip(omegas, sinusoids)):
        xs, ys = style.line_xy(p, y)
        fig.add_trace(go.Scatter(x=xs, y=ys, name=f"sin({w:g}·p)", line=dict(color=style.PALETTE[(1, 2, 4)[k % 3]],
                                                                             width=2)))
    style.layout(fig, title=labels["title"], x_title=labels["x"], height=height)
    fig.update_yaxes(range=[-1.15, 1.15])
    return _legend_below(_clear_top(fig), rows=2)
