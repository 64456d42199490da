"""Figures of the overview page: permutation equivariance, where position enters, seat numbers.

Token labels are user text and are HTML-escaped (plotly reads a few tags in labels).
"""
import math

import numpy as np
import plotly.graph_objects as go

from posviz.figures import style
from posviz.figures.panels import pair_and_difference, panel_layout, token_labels


def equivariance_panels(out_b, p_out_a, diff, tokens_b, *, titles, x_title, y_title, value_title,
                        diff_title, height=360):
    """Attn(PX) | P·Attn(X) | difference, rows = tokens of PX, columns = output dimensions.

    The first two share one diverging scale; the difference has its own (symmetric, zmid 0),
    floored at 1e-6 so an exact zero shows as white, not as amplified float noise."""
    a, b, dz = style.f32(out_b), style.f32(p_out_a), style.f32(diff)
    lo, hi = style.symmetric_range(a, b)
    return pair_and_difference(
        a, b, dz, x=np.arange(a.shape[1]), y=token_labels(tokens_b), titles=titles, x_title=x_title,
        y_title=y_title, value_axis=dict(colorscale=style.DIVERGING, cmin=lo, cmax=hi, cmid=0.0),
        value_title=value_title, diff_max=max(float(np.abs(dz).max()), 1e-6), diff_title=diff_title,
        height=height, hovers=("dim=%{x}<br>token=%{y}<br>%{z:.4g}<extra></extra>",) * 2)


def equivariance_bars(table, method_labels, mask_labels, *, title, y_title, floor=1e-9):
    """max |Attn(PX) - P Attn(X)| per method, without / with the causal mask (log axis)."""
    t = np.maximum(np.asarray(table, dtype=np.float64), floor)
    fig = go.Figure()
    for j, lab in enumerate(mask_labels):
        fig.add_trace(go.Bar(x=list(method_labels), y=style.f32(t[:, j]), name=lab,
                             marker_color=style.PALETTE[j],
                             hovertemplate="%{x}<br>%{y:.3g}<extra>" + lab + "</extra>"))
    fig.add_hline(y=1e-5, line=dict(color="#555555", dash="dot", width=1.5))
    style.layout(fig, title=title, y_title=y_title, height=360)
    fig.update_layout(legend=dict(x=1, xanchor="right", y=1.0, yanchor="bottom"))
    fig.update_yaxes(type="log", range=[math.log10(floor) - 0.5, 1.0], exponentformat="power")
    return fig


def _q(s):
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'


def where_position_dot(lab):
    """Graphviz DOT of the three places position enters (seed 000 §02); lab = {key: label}."""
    node = 'node [shape=box, style="rounded,filled", fontname="Noto Sans CJK SC", fontsize=12, fillcolor="#f4f4f4"];'
    pos = 'fillcolor="#F0E442"'
    lines = ["digraph G {", "rankdir=LR; nodesep=0.25; ranksep=0.35;", node,
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


SEAT_OMEGAS = (0.2, 0.05, 0.0125)


def seat_number_figure(length, *, train_length, titles, x_title, labels, height=380):
    """Left: a bare integer p (unbounded, one scale) vs p / L_train (leaves [0, 1] past training).
    Right: three sinusoid channels sin(p w), w in SEAT_OMEGAS (bounded, several scales)."""
    p = np.arange(1, length + 1, dtype=np.float64)
    lay, axes = panel_layout(titles, gap=0.1, shared_y=False)
    (x1, y1), (x2, y2) = axes
    traces = []
    for y, name, color, width in ((p, labels["int"], style.PALETTE[7], 2.5),
                                  (p / train_length, labels["norm"], style.PALETTE[0], 2.5)):
        xs, ys = style.line_xy(p, y)
        traces.append(go.Scatter(x=xs, y=ys, name=name, line=dict(color=color, width=width), xaxis=x1, yaxis=y1))
    for k, w in enumerate(SEAT_OMEGAS):
        xs, ys = style.line_xy(p, np.sin(p * w))
        traces.append(go.Scatter(x=xs, y=ys, name=f"sin({w:g}·p)", xaxis=x2, yaxis=y2,
                                 line=dict(color=style.PALETTE[(1, 2, 4)[k]], width=2)))
    lay["xaxis"].update(title=dict(text=x_title))
    lay["xaxis2"].update(title=dict(text=x_title))
    lay["yaxis"].update(type="log", dtick=1, exponentformat="power")
    lay["yaxis2"].update(range=[-1.15, 1.15])
    lay["shapes"] = [dict(type="line", xref="x", yref="y domain", x0=train_length, x1=train_length, y0=0, y1=1,
                          line=dict(color="#555555", dash="dash")),
                     dict(type="line", xref="x domain", yref="y", x0=0, x1=1, y0=1, y1=1,
                          line=dict(color="#555555", dash="dot"))]
    lay["annotations"] += [
        dict(x=train_length, xref="x", y=1, yref="y domain", text=labels["train"], showarrow=False,
             xanchor="left", yanchor="top"),
        dict(x=1, xref="x domain", y=0, yref="y", text=labels["emb"], showarrow=False, xanchor="right",
             yanchor="top")]
    fig = go.Figure(data=traces, layout=lay)
    style.layout(fig, height=height)
    fig.update_layout(legend=dict(orientation="h", x=0, y=-0.25, yanchor="top"), margin=dict(b=120))
    return fig
