"""Figures of the sinusoidal & learned page: arrays and one `labels` dict in, go.Figure out.

Every figure is a single panel: where the page compares two panels it draws each as its own figure
inside st.columns (which stack on a phone), with the colour range fixed explicitly (PE in [-1, 1]).
The figures are written as plain dicts and wrapped without plotly's validation (it costs ~20x the
build; tests/figures/test_figures_sinusoidal.py validates every builder).
"""
import numpy as np
import plotly.graph_objects as go

from posviz.figures import style

MAX_WAVES = 8
MAX_ROTATION_DIMS = 16   # the block structure of M(Delta) is only readable for a few pairs
# Heatmaps are decimated along the POSITION axis only: striding the dimension axis of an
# interleaved table would keep every other column, i.e. only the sines.
MAX_POSITIONS_SHOWN = 160   # also keeps the CSV under each figure quick to build
MAX_LAYOUT_POSITIONS = 96
PE_RANGE = (-1.0, 1.0)      # every PE entry is a sine or a cosine: one fixed scale for every panel
HEIGHT = 440
# spelled out, as plotly.py's validation (skipped here) expands it once: plotly.js does not know "RdBu_r"
DIVERGING = [list(stop) for stop in go.Heatmap(colorscale=style.DIVERGING).colorscale]


figure = style.figure      # plain dicts, not validated (tests: validated_equals_built)


def heatmap(z, *, x=None, y=None, zmin=None, zmax=None, colorbar_title=None, text=None, hover, showscale=True,
            colorbar=True):
    """style.heatmap as a dict: a decimated float32 heatmap on the diverging scale (zmid 0). x, y: the
    coordinates of the columns / rows (default 0..n-1), decimated with z; text: per-cell labels, used
    only when the heatmap is small (<= 400 cells); colorbar: the panels' thin colour bar."""
    zd, ri, ci = style.decimate_2d(z)
    xs = np.arange(np.shape(z)[1]) if x is None else np.asarray(x)
    ys = np.arange(np.shape(z)[0]) if y is None else np.asarray(y)
    tr = {"type": "heatmap", "z": zd, "x": xs[ci], "y": ys[ri], "colorscale": DIVERGING, "zmid": 0.0,
          "hovertemplate": hover, "showscale": showscale, "colorbar": {}}
    tr.update({k: v for k, v in (("zmin", zmin), ("zmax", zmax)) if v is not None})
    if colorbar_title is not None:
        tr["colorbar"]["title"] = {"text": colorbar_title}
    if colorbar:
        tr["colorbar"].update(len=0.85, thickness=14)
    if text is not None and zd.size <= 400:
        tr.update(text=np.asarray(text)[np.ix_(ri, ci)], texttemplate="%{text}")
    return tr


def _vline(x, line):
    """fig.add_vline as a shape dict."""
    return {"type": "line", "x0": x, "x1": x, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain", "line": line}


def _hline(y, line):
    """fig.add_hline as a shape dict."""
    return {"type": "line", "x0": 0, "x1": 1, "xref": "x domain", "y0": y, "y1": y, "yref": "y", "line": line}


SQUARE = {"xaxis": {"constrain": "domain"}, "yaxis": {"scaleanchor": "x", "constrain": "domain"}}   # equal units


def waveforms(pe, dims, *, position=None, labels):
    """PE[:, d] against position for each chosen dimension d (fast dims first).

    pe [L,D]; dims: dimension indices (those >= D are skipped); position: a vertical
    marker at the fingerprint position. labels: title, x, y, dim (format with {d}, {kind}), sin, cos.
    """
    pe = style.f32(pe)
    length, dim = pe.shape
    x = np.arange(length)
    data = []
    shown = [d for d in dict.fromkeys(int(d) for d in dims) if 0 <= d < dim][:MAX_WAVES]
    for k, d in enumerate(shown):
        xs, ys = style.line_xy(x, pe[:, d])
        kind = labels["sin"] if d % 2 == 0 else labels["cos"]
        data.append({"type": "scatter", "x": xs, "y": ys, "mode": "lines", "name": labels["dim"].format(d=d, kind=kind),
                     "line": {"width": 2.2, "color": style.PALETTE[k % len(style.PALETTE)]}})
    marked = position is not None and 0 <= position < length
    shapes = [_vline(position, {"color": "#555555", "dash": "dash", "width": 1.5})] if marked else []
    return figure(data, style.layout(labels, height=460, legend_at="bottom", legend_rows=3, shapes=shapes,
                                     meta={"lecture_height": 500},   # under its caption on a projector's screen
                                     yaxis={"range": [-1.1, 1.1]}))


def fingerprint_table(pe, position, *, labels):
    """The [L,D] table as a heatmap (x = position, y = dimension, fast dimensions on top), with a line
    at `position`: the column cut there is `fingerprint_column`. labels: title, x, y, value."""
    pe = style.f32(pe)
    length, dim = pe.shape
    keep = style.decimate_axis(length, MAX_POSITIONS_SHOWN)
    tr = heatmap(pe[keep].T, x=keep, y=np.arange(dim), zmin=PE_RANGE[0], zmax=PE_RANGE[1],
                 colorbar_title=labels["value"], hover=labels["x"] + "=%{x}<br>" + labels["y"] + "=%{y}<br>PE=%{z:.3f}")
    shapes = [_vline(position, {"color": "#111111", "width": 2})] if 0 <= position < length else []
    return figure([tr], style.layout(labels, height=HEIGHT, showlegend=False, yaxis={"autorange": "reversed"},
                                     shapes=shapes))


def barcodes(rows, seats, dots, *, labels):
    """“A barcode printed on every seat” (“Position encodings”): the rows PE(seat) of the table as grey barcodes, one
    strip per seat (x = dimension), each pair of neighbouring seats annotated with its dot product.
    labels: title, x, seat (a word put before each seat's number), dot (a template with {a}, {b}, {d})."""
    rows = style.f32(rows)
    names = [f"{labels['seat']} {q}" for q in seats]
    tr = {"type": "heatmap", "z": rows, "x": np.arange(rows.shape[1]), "y": names, "zmin": -1.0, "zmax": 1.0,
          "colorscale": [[0.0, "#000000"], [1.0, "#ffffff"]], "showscale": False, "xgap": 0, "ygap": 14,
          "hovertemplate": "%{y}<br>" + labels["x"] + "=%{x}<br>PE=%{z:.3f}<extra></extra>"}
    notes = [{"text": labels["dot"].format(a=seats[2 * k], b=seats[2 * k + 1], d=f"{dots[k]:.4g}"), "xref": "paper",
              "x": 1.0, "xanchor": "right", "yref": "y", "y": 2 * k + 0.5, "showarrow": False,
              "bgcolor": "rgba(255,255,255,0.9)", "font": {"color": "#111111"}} for k in range(len(dots))]
    return figure([tr], style.layout({"title": labels["title"], "x": labels["x"], "y": ""}, height=300,
                                     showlegend=False, yaxis={"autorange": "reversed"}, annotations=notes))


def fingerprint_column(values, *, labels):
    """One column PE(p) of the table as horizontal bars, one per dimension, on the rows of
    `fingerprint_table`. labels: title, y."""
    fp = style.f32(values)
    dim = len(fp)
    colors = np.where(fp >= 0, style.PALETTE[3], style.PALETTE[0]).tolist()
    tr = {"type": "bar", "x": fp, "y": np.arange(dim), "orientation": "h", "marker": {"color": colors},
          "name": labels["title"], "showlegend": False,
          "hovertemplate": labels["y"] + "=%{y}<br>PE=%{x:.3f}<extra></extra>"}
    return figure([tr], style.layout({"title": labels["title"], "x": "PE", "y": labels["y"]}, height=HEIGHT,
                                     showlegend=False, narrow=True, xaxis={"range": [-1.1, 1.1]},
                                     yaxis={"autorange": "reversed"}))


def similarity(sim, *, labels, offset=0):
    """PE PE^T [L,L] on a diverging scale centred at 0 (max |value| = D/2 on the diagonal)."""
    sim = style.f32(sim)
    n = sim.shape[0]
    zmin, zmax = style.symmetric_range(sim)
    keep = style.decimate_axis(n, MAX_POSITIONS_SHOWN)
    pos = np.arange(offset, offset + n)[keep]
    tr = heatmap(sim[np.ix_(keep, keep)], x=pos, y=pos, zmin=zmin, zmax=zmax, colorbar_title="PE·PE",
                 hover="m=%{y}<br>n=%{x}<br>PE(m)·PE(n)=%{z:.3f}")
    return figure([tr], style.layout(labels, height=520, showlegend=False, xaxis=SQUARE["xaxis"],
                                     yaxis={"autorange": "reversed", **SQUARE["yaxis"]}))


def dot_vs_offset(dots, anchored, anchors, *, labels):
    """The formula sum_i cos(Delta w_i) as a line and, on top, the same curve measured from
    PE(m)·PE(m + Delta) for a few anchors m (markers): they coincide."""
    dots = style.f32(dots)
    delta = np.arange(len(dots))
    xs, ys = style.line_xy(delta, dots)
    data = [{"type": "scatter", "x": xs, "y": ys, "mode": "lines", "name": labels["formula"],
             "line": {"color": style.PALETTE[7], "width": 2.5}}]
    symbols = ["circle-open", "x-thin-open", "diamond-open", "square-open"]
    step = max(1, len(dots) // 60)
    for k, (m, row) in enumerate(zip(anchors, style.f32(anchored))):
        idx = np.arange(0, len(row), step)
        data.append({"type": "scatter", "x": delta[idx].astype(np.float32), "y": row[idx], "mode": "markers",
                     "name": labels["anchor"].format(m=m),
                     "marker": {"symbol": symbols[k % len(symbols)], "size": 8,
                                "color": style.PALETTE[(k + 1) % len(style.PALETTE)], "line": {"width": 1.6}}})
    return figure(data, style.layout(labels, height=520, legend_at="bottom", legend_rows=4,
                                     shapes=[_hline(0, {"color": "#999999", "width": 1})]))


def shift_matrix(m, *, labels):
    """The top-left corner of M(Delta) (block diagonal, one 2x2 rotation per pair). labels: title ({k})."""
    m = style.f32(m)
    k = min(MAX_ROTATION_DIMS, m.shape[0])
    tr = heatmap(m[:k, :k], zmin=-1, zmax=1, colorbar_title="M", text=np.round(m[:k, :k], 2) if k <= 8 else None,
                 hover="row=%{y}<br>col=%{x}<br>M=%{z:.4f}")
    return figure([tr], style.layout({"title": labels["title"].format(k=k)}, height=HEIGHT, showlegend=False,
                                     narrow=True, xaxis=SQUARE["xaxis"],
                                     yaxis={"autorange": "reversed", **SQUARE["yaxis"]}))


def shift_vectors(pe_p, rotated, target, *, labels):
    """PE(p), PE(p+Delta) and M(Delta)·PE(p) per dimension: the markers sit on the target line.
    labels: title, x, pe_p, target, rotated."""
    d = np.arange(len(pe_p))
    data = [{"type": "scatter", "x": d, "y": style.f32(pe_p), "mode": "lines", "name": labels["pe_p"],
             "line": {"color": style.PALETTE[5], "width": 1.5, "dash": "dot"}},
            {"type": "scatter", "x": d, "y": style.f32(target), "mode": "lines", "name": labels["target"],
             "line": {"color": style.PALETTE[7], "width": 2.5}},
            {"type": "scatter", "x": d, "y": style.f32(rotated), "mode": "markers", "name": labels["rotated"],
             "marker": {"color": style.PALETTE[1], "size": 7, "symbol": "circle-open", "line": {"width": 2}}}]
    return figure(data, style.layout({"title": labels["title"], "x": labels["x"], "y": "PE"}, height=HEIGHT,
                                     legend_at="bottom", legend_rows=2, yaxis={"range": [-1.1, 1.1]}))


def shift_blocks_latex(blocks):
    """The live 2x2 blocks {i: [[a, b], [c, d]]} as one display formula, one block per line (each line
    fits a phone): M_0(Δ) = [...] \\ M_i(Δ) = [...]."""
    def matrix(m):
        rows = r" \\ ".join(" & ".join(f"{float(v):+.4f}" for v in row) for row in np.asarray(m))
        return r"\begin{bmatrix}" + rows + r"\end{bmatrix}"

    lines = [f"M_{{{int(i)}}}(\\Delta) = " + matrix(m) for i, m in sorted(blocks.items())]
    return r"\begin{gathered}" + r" \\[6pt] ".join(lines) + r"\end{gathered}"


def hand_circle(pe, *, labels):
    """“Same words, different order…” §04: the positions of w = pi/2 on the unit circle (x = cos, y = sin).
    labels: title."""
    pe = style.f32(pe)
    n = len(pe)
    t = np.linspace(0, 2 * np.pi, 121)
    # x axis = cos (second coordinate), y axis = sin (first): angle p*w counted from the top.
    data = [{"type": "scatter", "x": np.cos(t).astype(np.float32), "y": np.sin(t).astype(np.float32), "mode": "lines",
             "line": {"color": "#bbbbbb", "width": 1}, "hoverinfo": "skip", "showlegend": False},
            {"type": "scatter", "x": pe[:, 1], "y": pe[:, 0], "mode": "markers+text",
             "text": [f"p={p}" for p in range(n)], "textposition": "middle right",
             "marker": {"size": 14, "color": style.PALETTE[:n]}, "showlegend": False,
             "hovertemplate": "sin=%{y:.0f}<br>cos=%{x:.0f}<extra></extra>"}]
    return figure(data, style.layout({"title": labels["title"], "x": "cos(pω)", "y": "sin(pω)"}, height=400,
                                     showlegend=False, narrow=True, xaxis={"range": [-1.6, 1.6]},
                                     yaxis={"range": [-1.3, 1.3], "scaleanchor": "x"}))


def hand_dots(dots, *, labels):
    """The dot products PE(m)·PE(n) = cos((m-n) w) of the hand table, with their values. labels: title."""
    dots = style.f32(dots)
    n = len(dots)
    tr = heatmap(dots, x=[f"n={p}" for p in range(n)], y=[f"m={p}" for p in range(n)], zmin=-1, zmax=1,
                 text=np.round(dots, 2), colorbar_title="cos((m−n)ω)", hover="%{y}, %{x}<br>%{z:.0f}")
    tr["x"], tr["y"] = tr["x"].tolist(), tr["y"].tolist()       # category labels, as plotly sends them
    return figure([tr], style.layout({"title": labels["title"]}, height=400, showlegend=False, narrow=True,
                                     yaxis={"autorange": "reversed"}))


def layout_table(pe, *, labels, colorbar=True):
    """One column order of the table (rows = position, columns = dimension) on the fixed PE scale, so
    the interleaved and the concat panel compare colour for colour. labels: title, x, y."""
    pe = style.f32(pe)
    keep = style.decimate_axis(pe.shape[0], MAX_LAYOUT_POSITIONS)
    tr = heatmap(pe[keep], y=keep, zmin=PE_RANGE[0], zmax=PE_RANGE[1], showscale=colorbar, colorbar_title="PE",
                 colorbar=colorbar, hover=labels["x"] + "=%{x}<br>" + labels["y"] + "=%{y}<br>PE=%{z:.3f}")
    return figure([tr], style.layout(labels, height=400, showlegend=False, yaxis={"autorange": "reversed"}))


def modulo_rows(length, max_length, rows_modulo, *, labels):
    """Which table row each position reads: correct (p, only up to M-1), and the modulo bug
    (sawtooth p mod M). The shaded band is the region with no row."""
    rows = style.f32(rows_modulo)
    p = np.arange(length, dtype=np.float32)
    ok = p[p < max_length]
    xs, ys = style.line_xy(p, rows)
    data = [{"type": "scatter", "x": ok, "y": ok, "mode": "lines", "name": labels["correct"],
             "line": {"color": style.PALETTE[2], "width": 4}},
            {"type": "scatter", "x": xs, "y": ys, "mode": "lines+markers" if length <= 200 else "lines",
             "name": labels["modulo"], "line": {"color": style.PALETTE[3], "width": 2, "dash": "dot"},
             "marker": {"size": 5}}]
    shapes, notes = [], []
    if length > max_length:   # fig.add_vrect(..., annotation_position="top left")
        shapes.append({"type": "rect", "x0": max_length - 0.5, "x1": length - 0.5, "xref": "x", "y0": 0, "y1": 1,
                       "yref": "y domain", "fillcolor": style.PALETTE[3], "opacity": 0.08, "line": {"width": 0}})
        notes.append({"text": labels["no_row"], "showarrow": False, "x": max_length - 0.5, "xref": "x",
                      "xanchor": "left", "y": 1, "yref": "y domain", "yanchor": "top"})
    shapes.append(_hline(max_length - 1, {"color": "#777777", "dash": "dash", "width": 1}))
    notes.append({"text": labels["last_row"].format(r=max_length - 1), "showarrow": False, "x": 0, "xref": "x domain",
                  "xanchor": "left", "y": max_length - 1, "yref": "y", "yanchor": "bottom"})
    return figure(data, style.layout(labels, height=460, legend_at="bottom", legend_rows=2, shapes=shapes,
                                     annotations=notes))
