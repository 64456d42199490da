"""Figures of the RoPE clock page: clock faces, the client-side animation, score vs distance,
a worked example's clock and the two pairing layouts. Arrays in, go.Figure out.

The clocks of several pairs share one pair of axes (centres side by side) and each kind of
element (faces, arcs, q hands, k hands) is one trace with NaN gaps: few traces, so the figure
and its animation frames are cheap to build and small to send.
"""
import math

import numpy as np
import plotly.graph_objects as go

from posviz.figures import style

Q_COLOR, K_COLOR, ARC_COLOR, FACE_COLOR = style.PALETTE[0], style.PALETTE[1], style.PALETTE[2], "#9a9a9a"
_CIRCLE = np.linspace(0.0, 2 * math.pi, 61)
_GAP = 2.7            # distance between clock centres, in radii


def _figure(data=(), frames=None, layout=None):
    """A go.Figure from plain specs (frames as small lists, cheap to validate)."""
    spec = dict(data=list(data), layout=layout or {})
    if frames is not None:
        spec["frames"] = frames
    return go.Figure(spec)


def _house(fig, **kw):
    return style.layout(fig, **kw)


def _np(a):
    return style.f32(a)


def _centres(c, radius):
    return np.arange(c) * _GAP * radius


def _faces(c, radius):
    """c circles side by side as one NaN-separated line."""
    cx = _centres(c, radius)
    xs = [np.append(x0 + radius * np.cos(_CIRCLE), np.nan) for x0 in cx]
    ys = [np.append(radius * np.sin(_CIRCLE), np.nan) for _ in cx]
    return style.f32(np.concatenate(xs)), style.f32(np.concatenate(ys))


def _hand(x, y):
    """A single hand from the origin to (x, y); the tip carries the marker."""
    return style.f32([0.0, x]), style.f32([0.0, y])


def _hands(tips, radius):
    """tips [c, 2] -> one line centre -> tip per clock (NaN-separated) and marker sizes."""
    tips = np.asarray(tips, dtype=np.float64)
    c = tips.shape[0]
    cx = _centres(c, radius)
    x = np.stack((cx, cx + tips[:, 0], np.full(c, np.nan)), -1).ravel()
    y = np.stack((np.zeros(c), tips[:, 1], np.full(c, np.nan)), -1).ravel()
    return style.f32(x), style.f32(y)


def _arcs(start, sweep, radius, n=25):
    """Arcs from angle start[j] sweeping sweep[j] (signed), radius 0.35 R, one per clock."""
    c = len(start)
    cx = _centres(c, radius)
    xs, ys = [], []
    for j in range(c):
        t = float(start[j]) + np.linspace(0.0, 1.0, n) * float(sweep[j])
        xs.append(np.append(cx[j] + 0.35 * radius * np.cos(t), np.nan))
        ys.append(np.append(0.35 * radius * np.sin(t), np.nan))
    return style.f32(np.concatenate(xs)), style.f32(np.concatenate(ys))


def _hand_trace(x, y, name, color, c, **kw):
    sizes = [0, 12, 0] * c
    return go.Scatter(x=x, y=y, mode="lines+markers", name=name, line=dict(color=color, width=4),
                      marker=dict(size=sizes, color=color), connectgaps=False, **kw)


def _clock_axes(fig, c, radius, xaxis="xaxis", yaxis="yaxis", anchor="y", top=1.5):
    cx = _centres(c, radius)
    fig.update_layout({
        xaxis: dict(range=[-1.15 * radius, cx[-1] + 1.15 * radius], visible=False, scaleanchor=anchor,
                    scaleratio=1, constrain="domain", fixedrange=True),
        yaxis: dict(range=[-1.15 * radius, top * radius], visible=False, constrain="domain", fixedrange=True),
    })


def _pair_titles(texts, radius, xref="x", yref="y"):
    cx = _centres(len(texts), radius)
    return [dict(x=float(x0), y=1.12 * radius, xref=xref, yref=yref, text=t, showarrow=False,
                 yanchor="bottom", font=dict(size=14)) for x0, t in zip(cx, texts)]


def clock_faces(hands, pair_index, *, labels, height=330):
    """One clock per shown pair: q hand, k hand, the arc between them.

    hands: dict of arrays [c] (q_x, q_y, q_angle, k_x, k_y, between, delta, theta) for the c
    shown pairs; pair_index [c]; labels: q, k, arc (legend names), pair and angle (format
    templates with {i}, {theta} and {deg}).
    """
    h = {key: np.asarray(_np(v), dtype=np.float64) for key, v in hands.items()}
    idx = np.asarray(pair_index).astype(int)
    c = len(idx)
    radius = float(max(np.hypot(h["q_x"], h["q_y"]).max(), np.hypot(h["k_x"], h["k_y"]).max(), 1e-6))
    fx, fy = _faces(c, radius)
    ax, ay = _arcs(h["q_angle"], h["between"], radius)
    qx, qy = _hands(np.stack((h["q_x"], h["q_y"]), -1), radius)
    kx, ky = _hands(np.stack((h["k_x"], h["k_y"]), -1), radius)
    fig = _figure([
        go.Scatter(x=fx, y=fy, mode="lines", line=dict(color=FACE_COLOR, width=1.5), hoverinfo="skip",
                   showlegend=False, name="face"),
        go.Scatter(x=ax, y=ay, mode="lines", line=dict(color=ARC_COLOR, width=3), name=labels["arc"],
                   hoverinfo="skip"),
        _hand_trace(qx, qy, labels["q"], Q_COLOR, c, hovertemplate="%{x:.3f}, %{y:.3f}"),
        _hand_trace(kx, ky, labels["k"], K_COLOR, c, hovertemplate="%{x:.3f}, %{y:.3f}"),
    ])
    titles = [labels["pair"].format(i=int(i), theta=float(h["theta"][j])) + "<br>"
              + labels["angle"].format(deg=math.degrees(float(h["delta"][j]))) for j, i in enumerate(idx)]
    _house(fig, height=height)
    _clock_axes(fig, c, radius, top=1.75)
    fig.update_layout(annotations=_pair_titles(titles, radius), margin=dict(l=10, r=10, t=10, b=10),
                      legend=dict(y=-0.02, yanchor="top"))
    return fig


def clock_animation(q_xy, k_xy, scores, steps, m_pos, n_pos, pair_index, *, labels, height=600):
    """Client-side animation: hands of the shown pairs over steps t, and the score line.

    q_xy, k_xy: [T, c, 2] hand tips; scores [T] full score; steps [T]; m_pos, n_pos [T] positions.
    labels: q, k, score, now, x, y, play, pause, step (template with {t} {m} {n} {score}), pair
    (template with {i}). Frames replace only the two hand traces and the "now" marker, so the
    browser plays it without a rerun.

    Frames carry plain lists (a few numbers each), which plotly validates much faster than
    numpy arrays.
    """
    q_xy, k_xy, scores = _np(q_xy), _np(k_xy), _np(scores)
    steps, m_pos, n_pos = np.asarray(steps), np.asarray(m_pos), np.asarray(n_pos)
    idx = np.asarray(pair_index).astype(int)
    t_count, c = q_xy.shape[0], q_xy.shape[1]
    radius = float(max(np.hypot(q_xy[..., 0], q_xy[..., 1]).max(), np.hypot(k_xy[..., 0], k_xy[..., 1]).max(),
                       1e-6))
    fx, fy = _faces(c, radius)
    sx, sy = style.line_xy(steps, scores)

    def lst(a):
        """Tiny frame arrays as plain lists (None = gap): no numpy validation per frame."""
        return [None if np.isnan(v) else round(float(v), 5) for v in a]

    def hands(t):
        (qx, qy), (kx, ky) = _hands(q_xy[t], radius), _hands(k_xy[t], radius)
        return dict(type="scatter", x=lst(qx), y=lst(qy)), dict(type="scatter", x=lst(kx), y=lst(ky))

    def now(t):
        return dict(type="scatter", x=[int(steps[t])], y=[round(float(scores[t]), 6)])

    def caption(t):
        return labels["step"].format(t=int(steps[t]), m=int(m_pos[t]), n=int(n_pos[t]), score=float(scores[t]))

    def text(t):
        return dict(type="scatter", x=[round(-1.1 * radius, 5)], y=[round(1.75 * radius, 5)], text=[caption(t)])

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
        dict(text(0), mode="text", textposition="middle right", textfont=dict(size=17), hoverinfo="skip",
             showlegend=False, name="step"),
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
    cx = _centres(c, radius)
    layout = dict(
        xaxis=dict(range=[-1.15 * radius, cx[-1] + 1.15 * radius], visible=False, scaleanchor="y", scaleratio=1,
                   constrain="domain", fixedrange=True),
        yaxis=dict(range=[-1.15 * radius, 2.0 * radius], visible=False, constrain="domain", fixedrange=True,
                   domain=[0.5, 1.0]),
        xaxis2=dict(anchor="y2", range=[float(steps[0]) - 0.5, float(steps[-1]) + 0.5], title=dict(text=labels["x"])),
        yaxis2=dict(anchor="x2", domain=[0.0, 0.38], range=[lo - pad, hi + pad], title=dict(text=labels["y"])),
        annotations=_pair_titles([labels["pair"].format(i=int(i)) for i in idx], radius),
        updatemenus=[dict(type="buttons", direction="left", buttons=[play, pause], x=0.0, y=-0.27,
                          xanchor="left", yanchor="top", showactive=False, pad=dict(t=0, r=10))],
        sliders=[dict(steps=slider_steps, active=0, x=0.22, len=0.78, y=-0.24, yanchor="top",
                      currentvalue=dict(visible=False), pad=dict(t=0, b=0), font=dict(size=11))],
    )
    fig = _figure(data, frames, layout)
    _house(fig, height=height)
    fig.update_layout(margin=dict(l=60, r=20, t=60, b=170),
                      legend=dict(orientation="h", x=0.0, xanchor="left", y=1.02, yanchor="bottom"))
    return fig


def score_vs_distance(distances, per_pair, mean, pair_index, current, *, labels, height=400):
    """cos((n-m) theta_i) for the shown pairs and the mean over all pairs, against n - m.

    distances [R]; per_pair [c, R]; mean [R]; current: the current n - m (a vertical line).
    labels: x, y, pair (template {i}), mean (already formatted), now.
    """
    per_pair = _np(per_pair)
    fig = _figure()
    for j, i in enumerate(np.asarray(pair_index).astype(int)):
        x, y = style.line_xy(distances, per_pair[j])
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=labels["pair"].format(i=int(i)),
                                 line=dict(width=1.4, color=style.PALETTE[(4, 5, 2, 6)[j % 4]]),
                                 opacity=0.7))
    x, y = style.line_xy(distances, mean)
    fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=labels["mean"], line=dict(width=4, color="#000000")))
    fig.add_vline(x=float(current), line=dict(color=style.PALETTE[3], width=2, dash="dash"),
                  annotation_text=labels["now"], annotation_position="bottom right")
    _house(fig, x_title=labels["x"], y_title=labels["y"], height=height)
    fig.update_yaxes(range=[-1.08, 1.08], zeroline=True)
    return fig


def pair_clock(q0, k0, rq, rk, *, labels, height=380):
    """A worked example on one clock: unrotated q, k (faint, dashed) and R(p)q, R(s)k (solid).

    labels: q0, k0, rq, rk (names), title.
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
        x, y = _hand(float(vec[0]), float(vec[1]))
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines+markers", name=name,
                                 line=dict(color=color, width=width, dash=dash),
                                 marker=dict(size=[0, 12 if dash == "solid" else 7], color=color),
                                 opacity=1.0 if dash == "solid" else 0.55,
                                 hovertemplate=f"{name}<br>(%{{x:.4f}}, %{{y:.4f}})<extra></extra>"))
    lim = 1.15 * radius
    _house(fig, title=labels["title"], height=height)
    fig.update_xaxes(range=[-lim, lim], zeroline=True, scaleanchor="y", scaleratio=1, constrain="domain")
    fig.update_yaxes(range=[-lim, lim], zeroline=True, constrain="domain")
    fig.update_layout(legend=dict(orientation="v", y=1, x=1.02, yanchor="top"), margin=dict(r=10))
    return fig


def layout_pairs(pairs_interleaved, pairs_half, *, labels, height=230):
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
    _house(fig, x_title=labels["x"], height=height, legend=False)
    fig.update_traces(xgap=2, ygap=4)
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(dtick=1 if d <= 32 else None)
    return fig
