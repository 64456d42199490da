"""Figures of the RoPE page: clock faces, the client-side animation, score vs distance, a pair's
clock (worked examples and the calculator), the two pairing layouts, and the calculator's live
formula. Arrays and ONE labels dict in (every string already translated), go.Figure out.

The clocks of several pairs share one pair of axes and each kind of element (faces, arcs, q hands,
k hands) is one trace with NaN gaps: few traces, so the figure and its animation frames are cheap
to build and small to send. Phone-safe: the static clocks sit two per row, titles inside the axes'
range, legends horizontal below the plot; nothing is placed where the mode bar (top right) or the
animation's slider and buttons are.

The figures are written as plain dicts and wrapped without plotly's validation (it costs more than
the build itself, most of all for the animation's frames); the tests validate every builder.
"""
import math

import numpy as np
import plotly.graph_objects as go
from plotly.colors import get_colorscale

from posviz.figures import style

Q_COLOR, K_COLOR, ARC_COLOR, FACE_COLOR = style.PALETTE[0], style.PALETTE[1], style.PALETTE[2], "#9a9a9a"
_CIRCLE = np.linspace(0.0, 2 * math.pi, 61)
_GAP = 2.7            # distance between clock centres, in radii
_ROW = 3.6            # distance between rows of clocks, in radii (room for a three-line title)
_GRID_COLUMNS = 2     # static clocks per row: two stay readable on a 390 px phone
_GRID_GAP = 3.3       # ... with room between them for three-line titles
# plotly.js does not know plotly.py's named colour scales (the validation these figures skip expanded them)
_SEQUENTIAL = get_colorscale(style.SEQUENTIAL)


class _Animated(go.Figure):
    """A go.Figure whose frames stay plain dicts until asked for: plotly validates frames even when
    told not to validate (~30 ms for the 48 frames of the animation). to_dict / to_json carry them
    as built; `frames` validates them on access (tests only)."""

    def __init__(self, spec, frames):
        super().__init__(spec, _validate=False)
        self._posviz_frames = frames

    @property
    def frames(self):
        return tuple(go.Frame(f) for f in self._posviz_frames)

    def to_dict(self):
        return {**super().to_dict(), "frames": self._posviz_frames}


def _figure(data, lay, frames=None):
    """go.Figure of plain trace, layout (and frame) dicts, not validated (the builders' tests validate
    them)."""
    spec = {"data": list(data), "layout": lay}
    return go.Figure(spec, _validate=False) if frames is None else _Animated(spec, frames)


def _grid(c, columns, gap=_GAP):
    """Centres of c clocks in rows of `columns` (unit radius) -> (cx [c], cy [c])."""
    j = np.arange(c)
    return (j % columns) * gap, -(j // columns) * _ROW


def _faces(cx, cy, radius):
    """Circles at the centres as one NaN-separated line."""
    xs = [np.append(x0 + radius * np.cos(_CIRCLE), np.nan) for x0 in cx]
    ys = [np.append(y0 + radius * np.sin(_CIRCLE), np.nan) for y0 in cy]
    return style.f32(np.concatenate(xs)), style.f32(np.concatenate(ys))


def _hand_lines(tips, cx, cy):
    """tips [..., c, 2] -> x, y [..., 3c]: one line centre -> tip per clock, NaN-separated (float64)."""
    tips = np.asarray(tips, dtype=np.float64)
    gap = np.full(tips.shape[:-1], np.nan)
    x = np.stack(np.broadcast_arrays(cx, cx + tips[..., 0], gap), -1).reshape(*tips.shape[:-2], -1)
    y = np.stack(np.broadcast_arrays(cy, cy + tips[..., 1], gap), -1).reshape(*tips.shape[:-2], -1)
    return x, y


def _hands(tips, cx, cy):
    """tips [c, 2] -> one line centre -> tip per clock (NaN-separated, float32)."""
    x, y = _hand_lines(tips, cx, cy)
    return style.f32(x), style.f32(y)


def _arcs(start, sweep, cx, cy, radius, n=25):
    """Arcs from angle start[j] sweeping sweep[j] (signed), radius 0.35 R, one per clock."""
    t = np.asarray(start, dtype=np.float64)[:, None] + np.linspace(0.0, 1.0, n) * np.asarray(sweep, np.float64)[:, None]
    gap = np.full((len(t), 1), np.nan)
    xs = np.hstack((np.asarray(cx, np.float64)[:, None] + 0.35 * radius * np.cos(t), gap))
    ys = np.hstack((np.asarray(cy, np.float64)[:, None] + 0.35 * radius * np.sin(t), gap))
    return style.f32(xs.ravel()), style.f32(ys.ravel())


def _hand_trace(x, y, name, color, c, **kw):
    return {"type": "scatter", "x": x, "y": y, "mode": "lines+markers", "name": name,
            "line": {"color": color, "width": 4}, "marker": {"size": [0, 12, 0] * c, "color": color},
            "connectgaps": False, **kw}


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
    data = [
        {"type": "scatter", "x": fx, "y": fy, "mode": "lines", "line": {"color": FACE_COLOR, "width": 1.5},
         "hoverinfo": "skip", "showlegend": False, "name": "face"},
        {"type": "scatter", "x": ax, "y": ay, "mode": "lines", "line": {"color": ARC_COLOR, "width": 3},
         "name": labels["arc"], "hoverinfo": "skip"},
        _hand_trace(qx, qy, labels["q"], Q_COLOR, c, hovertemplate="%{x:.3f}, %{y:.3f}"),
        _hand_trace(kx, ky, labels["k"], K_COLOR, c, hovertemplate="%{x:.3f}, %{y:.3f}"),
    ]
    titles = []
    for j, i in enumerate(idx):
        lines = [labels["pair"].format(i=int(i), theta=float(h["theta"][j]))]
        if "between" in labels:
            lines.append(labels["between"].format(deg=math.degrees(float(h["between"][j]))))
        lines.append(labels["added" if "between" in labels else "angle"].format(deg=math.degrees(float(h["delta"][j]))))
        titles.append("<br>".join(lines))
    rows = -(-c // _GRID_COLUMNS)
    lay = style.layout(height=height or 110 + 215 * rows, legend_at="below",
                       legend={"x": 0.5, "xanchor": "center", "y": -0.02}, margin=style.TIGHT,
                       annotations=_titles(titles, cx, cy, radius),
                       **_axes(cx, cy, radius, top=2.35 if "between" in labels else 1.95))
    return _figure(data, lay)


def _plain(a, digits):
    """Frame arrays [T, n] as plain lists per frame (None = gap), rounded: JSON-ready, no numpy per frame."""
    return [[None if v != v else round(v, digits) for v in row] for row in np.asarray(a).tolist()]


def clock_animation(q_xy, k_xy, scores, steps, m_pos, n_pos, pair_index, *, labels, height=540):
    """Client-side animation: hands of the shown pairs over steps t, and the score line.

    q_xy, k_xy: [T, c, 2] hand tips; scores [T] full score; steps [T]; m_pos, n_pos [T] positions.
    labels: q, k, score, now, x, y, play, pause, step (template with {t} {m} {n} {score}), pair
    (template with {i}). Frames replace only the two hand traces, the "now" marker and the step
    caption (a text trace in a row of its own above the clocks), so the browser plays it without a
    rerun. From the top: caption row, clocks, legend, score line, then the frame slider and below
    it the play / pause buttons — nothing overlaps on a phone. 540 px tall (648 in lecture mode): the whole
    figure, ▶ included, fits a 1280x720 projector under the app header. The slider labels every fifth step
    in the figure's font (lecture mode enlarges it), so the labels never run into each other.

    Frames carry plain lists (a few numbers each): small to send, cheap to encode.
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
    # every frame's hand lines at once, through float32 like the static clocks: [T, 3c] each
    (qx, qy), (kx, ky) = (tuple(a.astype(np.float32) for a in _hand_lines(xy, cxr, cyr)) for xy in (q_xy, k_xy))
    qx, qy, kx, ky = (_plain(a, 5) for a in (qx, qy, kx, ky))
    step_list = [int(v) for v in steps]
    score_list = [float(v) for v in scores]
    now_y = [round(v, 6) for v in score_list]
    captions = [labels["step"].format(t=step_list[f], m=int(m_pos[f]), n=int(n_pos[f]), score=score_list[f])
                for f in range(t_count)]

    def frame_data(f):
        return [{"type": "scatter", "x": qx[f], "y": qy[f]}, {"type": "scatter", "x": kx[f], "y": ky[f]},
                {"type": "scatter", "x": [step_list[f]], "y": [now_y[f]]},
                {"type": "scatter", "x": [0.0], "y": [0.5], "text": [captions[f]]}]

    sizes = [0, 12, 0] * c
    q0, k0, now0, text0 = frame_data(0)
    data = [
        {"type": "scatter", "x": fx, "y": fy, "mode": "lines", "line": {"color": FACE_COLOR, "width": 1.5},
         "hoverinfo": "skip", "showlegend": False, "name": "face"},
        {**q0, "mode": "lines+markers", "name": labels["q"], "line": {"color": Q_COLOR, "width": 4},
         "marker": {"size": sizes, "color": Q_COLOR}, "hoverinfo": "skip"},
        {**k0, "mode": "lines+markers", "name": labels["k"], "line": {"color": K_COLOR, "width": 4},
         "marker": {"size": list(sizes), "color": K_COLOR}, "hoverinfo": "skip"},
        {"type": "scatter", "x": sx, "y": sy, "mode": "lines+markers",
         "line": {"color": style.PALETTE[2], "width": 2.5}, "marker": {"size": 5}, "name": labels["score"],
         "xaxis": "x2", "yaxis": "y2", "hovertemplate": "t=%{x}<br>score=%{y:.4f}<extra></extra>"},
        {**now0, "mode": "markers", "xaxis": "x2", "yaxis": "y2", "name": labels["now"], "hoverinfo": "skip",
         "marker": {"size": 15, "color": style.PALETTE[3], "symbol": "diamond"}},
        {**text0, "mode": "text", "textposition": "middle right", "hoverinfo": "skip",    # in the figure's font size
         "showlegend": False, "name": "step", "xaxis": "x3", "yaxis": "y3"},
    ]
    # the caption is a text trace (not the title): frames carry data only
    frames = [{"name": str(t), "traces": [1, 2, 4, 5], "data": frame_data(t)} for t in range(t_count)]
    play = {"label": labels["play"], "method": "animate",
            "args": [None, {"mode": "immediate", "transition": {"duration": 0},
                            "frame": {"duration": 200, "redraw": True}, "fromcurrent": True}]}
    pause = {"label": labels["pause"], "method": "animate",
             "args": [[None], {"mode": "immediate", "transition": {"duration": 0},
                               "frame": {"duration": 0, "redraw": False}}]}
    jump = {"mode": "immediate", "transition": {"duration": 0}, "frame": {"duration": 0, "redraw": True}}
    slider_steps = [{"method": "animate", "label": str(step_list[t]) if t % 5 == 0 else "",      # one shared
                     "args": [[str(t)], jump]} for t in range(t_count)]                            # dict: copied once
    lo, hi = float(scores.min()), float(scores.max())
    pad = max(0.1 * (hi - lo), 0.05 * max(abs(lo), abs(hi)), 0.05)
    clocks = _axes(cx, cy, radius, top=1.8)
    clocks["yaxis"]["domain"] = [0.53, 0.9]
    lay = style.layout(
        height=height, **clocks,
        xaxis2=dict(anchor="y2", range=[float(steps[0]) - 0.5, float(steps[-1]) + 0.5], title=dict(text=labels["x"])),
        yaxis2=dict(anchor="x2", domain=[0.0, 0.36], range=[lo - pad, hi + pad], title=dict(text=labels["y"])),
        xaxis3=dict(anchor="y3", range=[0, 1], visible=False, fixedrange=True),
        yaxis3=dict(anchor="x3", domain=[0.92, 1.0], range=[0, 1], visible=False, fixedrange=True),
        annotations=_titles([labels["pair"].format(i=int(i)) for i in idx], cx, cy, radius),
        # under the score's axis title: the slider, then the buttons 95 px lower (in pixels: below the slider's
        # tick labels at any font size and plot height)
        sliders=[dict(steps=slider_steps, active=0, x=0.0, len=1.0, y=-0.25, yanchor="top",
                      currentvalue=dict(visible=False), pad=dict(t=0, b=0))],
        updatemenus=[dict(type="buttons", direction="left", buttons=[play, pause], x=0.0, y=-0.25,
                          xanchor="left", yanchor="top", showactive=False, pad=dict(t=95, r=10))],
        margin=dict(b=180), legend=dict(x=0.5, xanchor="center", y=0.445, yanchor="middle"))
    return _figure(data, lay, frames)


def score_vs_distance(distances, per_pair, mean, pair_index, current, *, labels, height=440):
    """cos((n-m) theta_i) for the shown pairs and the mean over all pairs, against n - m.

    distances [R]; per_pair [c, R]; mean [R]; current: the current n - m (a vertical line).
    labels: x, y, pair (template {i}), mean (already formatted), now.
    """
    per_pair = style.f32(per_pair)
    data = []
    for j, i in enumerate(np.asarray(pair_index).astype(int)):
        x, y = style.line_xy(distances, per_pair[j])
        data.append({"type": "scatter", "x": x, "y": y, "mode": "lines", "name": labels["pair"].format(i=int(i)),
                     "line": {"width": 1.4, "color": style.PALETTE[(4, 5, 2, 6)[j % 4]]}, "opacity": 0.7})
    x, y = style.line_xy(distances, mean)
    data.append({"type": "scatter", "x": x, "y": y, "mode": "lines", "name": labels["mean"],
                 "line": {"width": 4, "color": "#000000"}})
    now = float(current)
    lay = style.layout({"x": labels["x"], "y": labels["y"]}, height=height, legend_at="below", margin={"b": 140},
                       yaxis={"range": [-1.08, 1.08], "zeroline": True},
                       shapes=[{"type": "line", "x0": now, "x1": now, "xref": "x", "y0": 0, "y1": 1,
                                "yref": "y domain", "line": {"color": style.PALETTE[3], "width": 2, "dash": "dash"}}],
                       annotations=[{"text": labels["now"], "x": now, "xref": "x", "y": 1, "yref": "y domain",
                                     "xanchor": "left", "yanchor": "top", "showarrow": False}])
    return _figure(data, lay)


def pair_clock(q0, k0, rq, rk, *, labels, height=420):
    """One pair on one clock: unrotated q, k (faint, dotted) and R(p)q, R(s)k (solid).

    labels: q0, k0, rq, rk (names), title. Used by the worked examples and the calculator.
    """
    q0, k0, rq, rk = (style.f32(v) for v in (q0, k0, rq, rk))
    radius = float(max(np.hypot(*q0), np.hypot(*k0), 1e-6))
    data = [{"type": "scatter", "x": style.f32(r * np.cos(_CIRCLE)), "y": style.f32(r * np.sin(_CIRCLE)),
             "mode": "lines", "line": {"color": FACE_COLOR, "width": 1.2}, "hoverinfo": "skip",
             "showlegend": False, "name": "face"} for r in sorted({float(np.hypot(*q0)), float(np.hypot(*k0))})]
    for vec, name, color, dash, width in ((q0, labels["q0"], Q_COLOR, "dot", 2), (k0, labels["k0"], K_COLOR, "dot", 2),
                                          (rq, labels["rq"], Q_COLOR, "solid", 5),
                                          (rk, labels["rk"], K_COLOR, "solid", 5)):
        data.append({"type": "scatter", "x": style.f32([0.0, vec[0]]), "y": style.f32([0.0, vec[1]]),
                     "mode": "lines+markers", "name": name, "line": {"color": color, "width": width, "dash": dash},
                     "marker": {"size": [0, 12 if dash == "solid" else 7], "color": color},
                     "opacity": 1.0 if dash == "solid" else 0.55,
                     "hovertemplate": f"{name}<br>(%{{x:.4f}}, %{{y:.4f}})<extra></extra>"})
    lim = 1.15 * radius
    lay = style.layout({"title": labels["title"]}, height=height, title_at="toolbar", legend_at="below",
                       legend={"y": -0.12}, margin={"t": style.MODEBAR_PX + 40, "b": 10, "l": 50, "r": 10},
                       xaxis={"range": [-lim, lim], "zeroline": True, "scaleanchor": "y", "scaleratio": 1,
                              "constrain": "domain"},
                       yaxis={"range": [-lim, lim], "zeroline": True, "constrain": "domain"})
    return _figure(data, lay)


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
    zd, ri, ci = style.decimate_2d(z)
    trace = {"type": "heatmap", "z": zd, "x": np.arange(d)[ci], "y": [str(labels["rows"][i]) for i in ri],
             "colorscale": _SEQUENTIAL, "zmin": 0, "zmax": max(d // 2 - 1, 1), "showscale": True,
             "colorbar": {"title": {"text": labels["z"]}, "thickness": 14, "len": 1.0},
             "hovertemplate": "dim=%{x}<br>pair i=%{z}<extra>%{y}</extra>", "xgap": 2, "ygap": 4}
    if d <= 32:                                                          # the pair index in each cell
        trace.update(text=zd.astype(int).astype(str).tolist(), texttemplate="%{text}")
    lay = style.layout({"x": labels["x"]}, height=height, showlegend=False, xaxis={"dtick": 1} if d <= 16 else {},
                       yaxis={"autorange": "reversed"})
    return _figure([trace], lay)


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
