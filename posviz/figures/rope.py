"""Figures of the RoPE page: clock faces, the client-side animation, score vs distance, a pair's
clock (worked examples and the calculator), the two pairing layouts, and the calculator's live
formula. Arrays and ONE labels dict in (every string already translated), go.Figure out.

The clocks of several pairs share one pair of axes and each kind of element (faces, arcs, q hands,
k hands) is one trace with NaN gaps: few traces, so the figure and its animation frames are cheap
to build and small to send. Phone-safe: the static clocks sit two per row, titles inside the axes'
range, legends horizontal below the plot; nothing is placed where the mode bar (top right) or the
animation's slider and buttons are.
"""
import math

import numpy as np
import plotly.graph_objects as go

from posviz.figures import style

Q_COLOR, K_COLOR, ARC_COLOR, FACE_COLOR = style.PALETTE[0], style.PALETTE[1], style.PALETTE[2], "#9a9a9a"
_CIRCLE = np.linspace(0.0, 2 * math.pi, 61)
_GAP = 2.7            # distance between clock centres, in radii
_ROW = 3.6            # distance between rows of clocks, in radii (room for a three-line title)
_GRID_COLUMNS = 2     # static clocks per row: two stay readable on a 390 px phone
_GRID_GAP = 3.3       # ... with room between them for three-line titles
_TOP = 40             # px kept free at the top of every figure for plotly's mode bar


def _figure(data=(), frames=None, layout=None):
    """A go.Figure from plain specs (frames as small lists, cheap to validate)."""
    spec = dict(data=list(data), layout=layout or {})
    if frames is not None:
        spec["frames"] = frames
    return go.Figure(spec)


def _grid(c, columns, gap=_GAP):
    """Centres of c clocks in rows of `columns` (unit radius) -> (cx [c], cy [c])."""
    j = np.arange(c)
    return (j % columns) * gap, -(j // columns) * _ROW


def _faces(cx, cy, radius):
    """Circles at the centres as one NaN-separated line."""
    xs = [np.append(x0 + radius * np.cos(_CIRCLE), np.nan) for x0 in cx]
    ys = [np.append(y0 + radius * np.sin(_CIRCLE), np.nan) for y0 in cy]
    return style.f32(np.concatenate(xs)), style.f32(np.concatenate(ys))


def _hands(tips, cx, cy):
    """tips [c, 2] -> one line centre -> tip per clock (NaN-separated)."""
    tips = np.asarray(tips, dtype=np.float64)
    c = tips.shape[0]
    x = np.stack((cx, cx + tips[:, 0], np.full(c, np.nan)), -1).ravel()
    y = np.stack((cy, cy + tips[:, 1], np.full(c, np.nan)), -1).ravel()
    return style.f32(x), style.f32(y)


def _arcs(start, sweep, cx, cy, radius, n=25):
    """Arcs from angle start[j] sweeping sweep[j] (signed), radius 0.35 R, one per clock."""
    xs, ys = [], []
    for j in range(len(start)):
        t = float(start[j]) + np.linspace(0.0, 1.0, n) * float(sweep[j])
        xs.append(np.append(cx[j] + 0.35 * radius * np.cos(t), np.nan))
        ys.append(np.append(cy[j] + 0.35 * radius * np.sin(t), np.nan))
    return style.f32(np.concatenate(xs)), style.f32(np.concatenate(ys))


def _hand_trace(x, y, name, color, c, **kw):
    return go.Scatter(x=x, y=y, mode="lines+markers", name=name, line=dict(color=color, width=4),
                      marker=dict(size=[0, 12, 0] * c, color=color), connectgaps=False, **kw)


def _axes(cx, cy, radius, top):
    """Equal-aspect, hidden axes around the clocks; `top` radii above the top row for titles."""
    return dict(
        xaxis=dict(range=[float(cx.min()) * radius - 1.15 * radius, float(cx.max()) * radius + 1.15 * radius],
                   visible=False, scaleanchor="y", scaleratio=1, constrain="domain", fixedrange=True),
        yaxis=dict(range=[float(cy.min()) * radius - 1.15 * radius, top * radius], visible=False,
                   constrain="domain", fixedrange=True))


def _titles(texts, cx, cy, radius, size=14):
    return [dict(x=float(x0) * radius, y=float(y0) * radius + 1.12 * radius, xref="x", yref="y", text=t,
                 showarrow=False, yanchor="bottom", font=dict(size=size)) for x0, y0, t in zip(cx, cy, texts)]


def clock_faces(hands, pair_index, *, labels, height=None):
    """One clock per shown pair (two per row): q hand, k hand, the arc between them.

    hands: dict of arrays [c] (q_x, q_y, q_angle, k_x, k_y, between, delta, theta) for the c shown
    pairs; pair_index [c]. labels: q, k, arc (legend names); pair ({i}, {theta}) and angle ({deg},
    the rotation (n - m)θ, which is the angle drawn for unit hands) title templates; or, for content
    that is not the unit hands, between and added ({deg}) instead of angle: the title then states the
    angle drawn (q -> k), then what the rotation (n - m)θ added to it.
    """
    h = {key: np.asarray(style.f32(v), dtype=np.float64) for key, v in hands.items()}
    idx = np.asarray(pair_index).astype(int)
    c = len(idx)
    radius = float(max(np.hypot(h["q_x"], h["q_y"]).max(), np.hypot(h["k_x"], h["k_y"]).max(), 1e-6))
    cx, cy = _grid(c, min(c, _GRID_COLUMNS), gap=_GRID_GAP)
    cxr, cyr = cx * radius, cy * radius
    fx, fy = _faces(cxr, cyr, radius)
    ax, ay = _arcs(h["q_angle"], h["between"], cxr, cyr, radius)
    qx, qy = _hands(np.stack((h["q_x"], h["q_y"]), -1), cxr, cyr)
    kx, ky = _hands(np.stack((h["k_x"], h["k_y"]), -1), cxr, cyr)
    fig = _figure([
        go.Scatter(x=fx, y=fy, mode="lines", line=dict(color=FACE_COLOR, width=1.5), hoverinfo="skip",
                   showlegend=False, name="face"),
        go.Scatter(x=ax, y=ay, mode="lines", line=dict(color=ARC_COLOR, width=3), name=labels["arc"],
                   hoverinfo="skip"),
        _hand_trace(qx, qy, labels["q"], Q_COLOR, c, hovertemplate="%{x:.3f}, %{y:.3f}"),
        _hand_trace(kx, ky, labels["k"], K_COLOR, c, hovertemplate="%{x:.3f}, %{y:.3f}"),
    ])
    titles = []
    for j, i in enumerate(idx):
        lines = [labels["pair"].format(i=int(i), theta=float(h["theta"][j]))]
        if "between" in labels:
            lines.append(labels["between"].format(deg=math.degrees(float(h["between"][j]))))
        lines.append(labels["added" if "between" in labels else "angle"].format(deg=math.degrees(float(h["delta"][j]))))
        titles.append("<br>".join(lines))
    rows = -(-c // _GRID_COLUMNS)
    style.layout(fig, height=height or 110 + 215 * rows)
    fig.update_layout(**_axes(cx, cy, radius, top=2.35 if "between" in labels else 1.95),
                      annotations=_titles(titles, cx, cy, radius), margin=dict(l=10, r=10, t=_TOP, b=10),
                      legend=dict(orientation="h", x=0.5, xanchor="center", y=-0.02, yanchor="top"))
    return fig


def clock_animation(q_xy, k_xy, scores, steps, m_pos, n_pos, pair_index, *, labels, height=680):
    """Client-side animation: hands of the shown pairs over steps t, and the score line.

    q_xy, k_xy: [T, c, 2] hand tips; scores [T] full score; steps [T]; m_pos, n_pos [T] positions.
    labels: q, k, score, now, x, y, play, pause, step (template with {t} {m} {n} {score}), pair
    (template with {i}). Frames replace only the two hand traces, the "now" marker and the step
    caption (a text trace in a row of its own above the clocks), so the browser plays it without a
    rerun. From the top: caption row, clocks, legend, score line, then the frame slider and below
    it the play / pause buttons — nothing overlaps on a phone.

    Frames carry plain lists (a few numbers each), which plotly validates much faster than
    numpy arrays.
    """
    q_xy, k_xy, scores = style.f32(q_xy), style.f32(k_xy), style.f32(scores)
    steps, m_pos, n_pos = np.asarray(steps), np.asarray(m_pos), np.asarray(n_pos)
    idx = np.asarray(pair_index).astype(int)
    t_count, c = q_xy.shape[0], q_xy.shape[1]
    radius = float(max(np.hypot(q_xy[..., 0], q_xy[..., 1]).max(), np.hypot(k_xy[..., 0], k_xy[..., 1]).max(),
                       1e-6))
    cx, cy = _grid(c, c)
    cxr, cyr = cx * radius, cy * radius
    fx, fy = _faces(cxr, cyr, radius)
    sx, sy = style.line_xy(steps, scores)

    def lst(a):
        """Tiny frame arrays as plain lists (None = gap): no numpy validation per frame."""
        return [None if np.isnan(v) else round(float(v), 5) for v in a]

    def hands(f):
        (qx, qy), (kx, ky) = _hands(q_xy[f], cxr, cyr), _hands(k_xy[f], cxr, cyr)
        return dict(type="scatter", x=lst(qx), y=lst(qy)), dict(type="scatter", x=lst(kx), y=lst(ky))

    def now(f):
        return dict(type="scatter", x=[int(steps[f])], y=[round(float(scores[f]), 6)])

    def text(f):
        caption = labels["step"].format(t=int(steps[f]), m=int(m_pos[f]), n=int(n_pos[f]), score=float(scores[f]))
        return dict(type="scatter", x=[0.0], y=[0.5], text=[caption])

    sizes = [0, 12, 0] * c
    q0, k0 = hands(0)
    data = [
        dict(type="scatter", x=fx, y=fy, mode="lines", line=dict(color=FACE_COLOR, width=1.5), hoverinfo="skip",
             showlegend=False, name="face"),
        dict(q0, mode="lines+markers", name=labels["q"], line=dict(color=Q_COLOR, width=4),
             marker=dict(size=sizes, color=Q_COLOR), hoverinfo="skip"),
        dict(k0, mode="lines+markers", name=labels["k"], line=dict(color=K_COLOR, width=4),
             marker=dict(size=sizes, color=K_COLOR), hoverinfo="skip"),
        dict(type="scatter", x=sx, y=sy, mode="lines+markers", line=dict(color=style.PALETTE[2], width=2.5),
             marker=dict(size=5), name=labels["score"], xaxis="x2", yaxis="y2",
             hovertemplate="t=%{x}<br>score=%{y:.4f}<extra></extra>"),
        dict(now(0), mode="markers", xaxis="x2", yaxis="y2", name=labels["now"], hoverinfo="skip",
             marker=dict(size=15, color=style.PALETTE[3], symbol="diamond")),
        dict(text(0), mode="text", textposition="middle right", hoverinfo="skip",                # the figure's font size
             showlegend=False, name="step", xaxis="x3", yaxis="y3"),
    ]
    # the caption is a text trace (not the title): a frame with a layout costs a full Layout validation
    frames = [dict(name=str(t), traces=[1, 2, 4, 5], data=[*hands(t), now(t), text(t)]) for t in range(t_count)]
    anim = dict(mode="immediate", transition=dict(duration=0))
    play = dict(label=labels["play"], method="animate",
                args=[None, dict(anim, frame=dict(duration=200, redraw=True), fromcurrent=True)])
    pause = dict(label=labels["pause"], method="animate",
                 args=[[None], dict(anim, frame=dict(duration=0, redraw=False))])
    slider_steps = [dict(method="animate", label=str(int(steps[t])),
                         args=[[str(t)], dict(anim, frame=dict(duration=0, redraw=True))]) for t in range(t_count)]
    lo, hi = float(scores.min()), float(scores.max())
    pad = max(0.1 * (hi - lo), 0.05 * max(abs(lo), abs(hi)), 0.05)
    clocks = _axes(cx, cy, radius, top=1.8)
    clocks["yaxis"]["domain"] = [0.53, 0.9]
    layout = dict(
        **clocks,
        xaxis2=dict(anchor="y2", range=[float(steps[0]) - 0.5, float(steps[-1]) + 0.5], title=dict(text=labels["x"])),
        yaxis2=dict(anchor="x2", domain=[0.0, 0.36], range=[lo - pad, hi + pad], title=dict(text=labels["y"])),
        xaxis3=dict(anchor="y3", range=[0, 1], visible=False, fixedrange=True),
        yaxis3=dict(anchor="x3", domain=[0.92, 1.0], range=[0, 1], visible=False, fixedrange=True),
        annotations=_titles([labels["pair"].format(i=int(i)) for i in idx], cx, cy, radius),
        sliders=[dict(steps=slider_steps, active=0, x=0.0, len=1.0, y=-0.21, yanchor="top",
                      currentvalue=dict(visible=False), pad=dict(t=0, b=0), font=dict(size=11))],
        updatemenus=[dict(type="buttons", direction="left", buttons=[play, pause], x=0.0, y=-0.42,
                          xanchor="left", yanchor="top", showactive=False, pad=dict(t=0, r=10))],
    )
    fig = _figure(data, frames, layout)
    style.layout(fig, height=height)
    fig.update_layout(margin=dict(l=60, r=20, t=_TOP, b=260),
                      legend=dict(orientation="h", x=0.5, xanchor="center", y=0.445, yanchor="middle"))
    return fig


def score_vs_distance(distances, per_pair, mean, pair_index, current, *, labels, height=440):
    """cos((n-m) theta_i) for the shown pairs and the mean over all pairs, against n - m.

    distances [R]; per_pair [c, R]; mean [R]; current: the current n - m (a vertical line).
    labels: x, y, pair (template {i}), mean (already formatted), now.
    """
    per_pair = style.f32(per_pair)
    fig = _figure()
    for j, i in enumerate(np.asarray(pair_index).astype(int)):
        x, y = style.line_xy(distances, per_pair[j])
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=labels["pair"].format(i=int(i)),
                                 line=dict(width=1.4, color=style.PALETTE[(4, 5, 2, 6)[j % 4]]),
                                 opacity=0.7))
    x, y = style.line_xy(distances, mean)
    fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=labels["mean"], line=dict(width=4, color="#000000")))
    fig.add_vline(x=float(current), line=dict(color=style.PALETTE[3], width=2, dash="dash"),
                  annotation_text=labels["now"], annotation_position="top right")
    style.layout(fig, x_title=labels["x"], y_title=labels["y"], height=height)
    fig.update_yaxes(range=[-1.08, 1.08], zeroline=True)
    fig.update_layout(margin=dict(t=_TOP, b=140),
                      legend=dict(orientation="h", x=0, xanchor="left", y=-0.3, yanchor="top"))
    return fig


def pair_clock(q0, k0, rq, rk, *, labels, height=420):
    """One pair on one clock: unrotated q, k (faint, dotted) and R(p)q, R(s)k (solid).

    labels: q0, k0, rq, rk (names), title. Used by the worked examples and the calculator.
    """
    q0, k0, rq, rk = (style.f32(v) for v in (q0, k0, rq, rk))
    radius = float(max(np.hypot(*q0), np.hypot(*k0), 1e-6))
    fig = _figure()
    for r in sorted({float(np.hypot(*q0)), float(np.hypot(*k0))}):
        fig.add_trace(go.Scatter(x=style.f32(r * np.cos(_CIRCLE)), y=style.f32(r * np.sin(_CIRCLE)),
                                 mode="lines", line=dict(color=FACE_COLOR, width=1.2), hoverinfo="skip",
                                 showlegend=False, name="face"))
    for vec, name, color, dash, width in ((q0, labels["q0"], Q_COLOR, "dot", 2), (k0, labels["k0"], K_COLOR, "dot", 2),
                                          (rq, labels["rq"], Q_COLOR, "solid", 5),
                                          (rk, labels["rk"], K_COLOR, "solid", 5)):
        fig.add_trace(go.Scatter(x=style.f32([0.0, vec[0]]), y=style.f32([0.0, vec[1]]), mode="lines+markers",
                                 name=name, line=dict(color=color, width=width, dash=dash),
                                 marker=dict(size=[0, 12 if dash == "solid" else 7], color=color),
                                 opacity=1.0 if dash == "solid" else 0.55,
                                 hovertemplate=f"{name}<br>(%{{x:.4f}}, %{{y:.4f}})<extra></extra>"))
    lim = 1.15 * radius
    style.layout(fig, title=labels["title"], height=height)
    fig.update_xaxes(range=[-lim, lim], zeroline=True, scaleanchor="y", scaleratio=1, constrain="domain")
    fig.update_yaxes(range=[-lim, lim], zeroline=True, constrain="domain")
    fig.update_layout(title=dict(yref="container", y=1.0, yanchor="top", pad=dict(t=_TOP - 6)),
                      margin=dict(t=_TOP + 40, b=10, l=50, r=10),
                      legend=dict(orientation="h", x=0, xanchor="left", y=-0.12, yanchor="top"))
    return fig


def layout_pairs(pairs_interleaved, pairs_half, *, labels, height=250):
    """Which dimensions pair up: a 2 x d grid, cell = pair index i (same colour = same theta_i).

    pairs_*: [d/2, 2] dimension indices of pair i. labels: rows (two names), x, z.
    """
    rows = []
    for pairs in (pairs_interleaved, pairs_half):
        p = np.asarray(pairs)
        row = np.empty(p.size, dtype=np.float32)
        row[p[:, 0]] = np.arange(p.shape[0])
        row[p[:, 1]] = np.arange(p.shape[0])
        rows.append(row)
    z = np.stack(rows)                                                   # [2, d]
    d = z.shape[1]
    text = z.astype(int).astype(str) if d <= 32 else None
    tr = style.heatmap(z, x=np.arange(d), y=np.asarray(labels["rows"]), colorscale=style.SEQUENTIAL,
                       zmin=0, zmax=max(d // 2 - 1, 1), colorbar_title=labels["z"], text=text,
                       hover="dim=%{x}<br>pair i=%{z}<extra>%{y}</extra>")
    fig = _figure([tr])
    style.layout(fig, x_title=labels["x"], height=height, legend=False)
    fig.update_traces(xgap=2, ygap=4, colorbar=dict(thickness=14, len=1.0))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(dtick=1 if d <= 16 else None)
    fig.update_layout(margin=dict(t=_TOP))
    return fig


def _num(v, digits=4):
    """A number for a formula: rounded, no "-0"."""
    return f"{round(float(v), digits) + 0.0:g}"


def _arg(v):
    """A number as an operand: negative numbers in parentheses."""
    t = _num(v)
    return f"({t})" if t.startswith("-") else t


def calculator_formula(values):
    r"""The calculator's closed form with its live numbers, as one LaTeX string (st.latex), in short
    lines that fit a phone.

    values: the dict of posviz.views.rope.calculator (q, k, theta, p, s, phi, dot, cross, closed, only_q).
    """
    v = values
    phi = (rf"\phi &= -p\,\theta = -{_arg(v['p'])}\cdot{_arg(v['theta'])}" if v["only_q"] else
           rf"\phi &= (s-p)\,\theta = ({_num(v['s'])}-{_arg(v['p'])})\cdot{_arg(v['theta'])}")
    c, s = math.cos(v["phi"]), math.sin(v["phi"])
    lines = [phi, rf"&= {_num(v['phi'])}", rf"q\cdot k &= {_num(v['dot'])}, \quad q_2k_1 - q_1k_2 = {_num(v['cross'])}",
             rf"q^\top R(\phi)\,k &= \cos\phi\cdot {_arg(v['dot'])} + \sin\phi\cdot {_arg(v['cross'])}",
             rf"&= {_arg(c)}\cdot {_arg(v['dot'])} + {_arg(s)}\cdot {_arg(v['cross'])}", rf"&= {_num(v['closed'])}"]
    return r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"
