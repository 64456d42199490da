"""Figures of the RoPE + KV cache page: per-position error of each decode mode (log scale),
the positions the last decode step actually used, a streaming cache's sink score per step and the
attention gpt-oss's sink logits send nowhere.

Arrays and one `labels` dict in, go.Figure out. Titles sit below plotly's toolbar and wrap on a
phone (style.layout); legends are horizontal, under the plot. The figures are
written as plain dicts and wrapped without plotly's validation (it costs ~20x the build; the tests
validate every builder: tests/figures/test_figures_kv_cache.py).
"""
import numpy as np

from posviz.figures import style
from posviz.figures.style import escape

MODE_COLORS = {"correct": style.PALETTE[2], "restart": style.PALETTE[3], "rerotate": style.PALETTE[1],
               "rotate_on_read": style.PALETTE[4],
               # the streaming cache's modes and gpt-oss's sink modes
               "on_read": style.PALETTE[2], "shift": style.PALETTE[5], "global": style.PALETTE[0],
               "stale": style.PALETTE[3], "ignored": style.PALETTE[3], "scaled": style.PALETTE[1],
               # evicted caches and draft trees (issue 37)
               "keep": style.PALETTE[2], "renumber": style.PALETTE[1], "cache_count": style.PALETTE[3],
               "consecutive": style.PALETTE[3], "causal": style.PALETTE[1]}
MODE_SYMBOLS = {"correct": "circle", "restart": "x", "rerotate": "diamond", "rotate_on_read": "square",
                "on_read": "circle", "shift": "cross", "global": "triangle-up", "stale": "x",
                "ignored": "x", "scaled": "diamond", "keep": "circle", "renumber": "diamond", "cache_count": "x",
                "consecutive": "x", "causal": "diamond"}
CONTRACT_COLORS = {"reassigned": style.PALETTE[2], "global": style.PALETTE[0]}
FLOOR = 1e-9   # exact zeros are drawn here on the log axis


PHONE_HEIGHT = 440   # a phone's figure before its legend rows: a scene's narration, the plot and a legend row per
                     # entry on one 844 px screen (520 left the last legend rows under it)


def _views(height, entries, title):
    """The layouts a projector and a phone get (style.presentation reads meta["lecture"], style.one_pass
    meta["phone"]): on a projector the legend's entries two to a row on its width, the whole figure still under a
    720 px screen's header with the scene's narration beside it; on a phone a shorter plot above the legend's rows
    (one entry a row), the title placed at that height."""
    rows = -(-entries // 2)
    tall = PHONE_HEIGHT + 26 * entries
    phone = {"height": tall}
    spec, _ = style.wrapped_title(title, height=tall)
    if spec:
        phone["title"] = {"y": spec["y"]}
    return {"lecture": {"height": int(height * 1.2), "margin": {"b": 70 + 32 * rows}}, "phone": phone}


def _mode(labels, mode):
    return escape(labels.get(f"mode.{mode}", mode))


figure = style.figure      # plain dicts, not validated (tests: validated_equals_built)


def error_figure(positions, errors, *, prefill_length, labels, allowed=None, precision=None,
                 floor=FLOOR, height=520):
    """Max |decode - full| per position for each mode on a log axis (zeros drawn at `floor`; the
    CSV and the hover keep the real values).

    errors: {mode: [L]}; allowed / precision: optional [L] lines; the prefill positions 0..P-1
    are shaded (none with prefill_length None). labels: title, x, y, prefill, allowed, precision, and
    mode.<mode> for each mode.
    """
    x = np.asarray(positions)
    hover = "p=%{x}<br>max|Δ|=%{customdata:.3g}<extra>%{fullData.name}</extra>"

    def line(values):
        xs, ys = style.line_xy(x, np.asarray(values, dtype=np.float64))
        return dict(type="scatter", x=xs, hovertemplate=hover, **style.real_values("y", np.maximum(ys, floor), ys))

    data = [{**line(err), "mode": "lines+markers", "name": _mode(labels, mode),
             "line": {"color": MODE_COLORS.get(mode), "width": 2.5},
             "marker": {"symbol": MODE_SYMBOLS.get(mode, "circle"), "size": 9}} for mode, err in errors.items()]
    if allowed is not None:
        data.append({**line(allowed), "mode": "lines", "name": escape(labels.get("allowed", "tolerance")),
                     "line": {"color": "#000000", "dash": "dash", "width": 1.5}})
    if precision is not None and float(np.max(precision)) > 0:
        data.append({**line(precision), "mode": "lines", "name": escape(labels.get("precision", "dtype vs float32")),
                     "line": {"color": "#888888", "dash": "dot", "width": 2}})
    for tr in data:
        if tr["line"]["color"] is None:
            del tr["line"]["color"]
    shapes, notes = [], []
    if prefill_length is not None:
        shapes.append({"type": "rect", "x0": -0.5, "x1": prefill_length - 0.5, "xref": "x", "y0": 0, "y1": 1,
                       "yref": "y domain", "fillcolor": "#56B4E9", "opacity": 0.12, "line": {"width": 0}})
        notes.append({"text": escape(labels.get("prefill", "prefill")), "showarrow": False, "x": -0.5,
                      "xanchor": "left", "xref": "x", "y": 1, "yanchor": "top", "yref": "y domain"})
    yaxis = {"type": "log", "exponentformat": "power", "range": [np.log10(floor) - 0.5, 1]}
    # the legend at the bottom of the figure, a row per entry as a phone wraps them: under a short plot a legend
    # placed by plot heights ran into the x-axis title
    return figure(data, style.layout(labels, height=height + 26 * len(data), legend_at="bottom",
                                     legend_rows=len(data), margin={**style.TIGHT, "b": 70 + 26 * len(data)},
                                     shapes=shapes, annotations=notes, xaxis={"range": [-0.5, len(x) - 0.5]},
                                     yaxis=yaxis, meta=_views(height, len(data), labels.get("title"))))


def positions_figure(query_positions, key_positions, *, labels, height=520):
    """Position each cached key was rotated by (y) against its slot s (x), one line per mode,
    with the query's position as a dashed level: only "correct" keeps the diagonal y = s
    together with the query at the last slot.

    query_positions: {mode: float}; key_positions: {mode: [S]}; labels: title, x, y, query, mode.<mode>.
    As tall as error_figure: on a phone the four legend rows under the plot must clear the x-axis title.
    """
    data = []
    query = escape(labels.get("query", "query"))
    for mode, kp in key_positions.items():
        s = np.arange(len(kp))
        xs, ys = style.line_xy(s, np.asarray(kp, dtype=np.float64))
        color, name = MODE_COLORS.get(mode), _mode(labels, mode)
        data.append({"type": "scatter", "x": xs, "y": ys, "mode": "lines+markers", "name": name,
                     "line": {"color": color, "width": 2.5},
                     "marker": {"symbol": MODE_SYMBOLS.get(mode, "circle"), "size": 9}})
        data.append({"type": "scatter", "x": style.f32([0, len(kp) - 1]), "y": style.f32([query_positions[mode]] * 2),
                     "mode": "lines", "name": f"{query} ({name})",
                     "line": {"color": color, "dash": "dash", "width": 1.5}, "showlegend": False,
                     "hovertemplate": f"{query}: %{{y}}<extra>{name}</extra>"})
    for tr in data:
        if tr["line"]["color"] is None:
            del tr["line"]["color"]
    rows = len(key_positions)
    return figure(data, style.layout(labels, height=height + 26 * rows, legend_at="bottom", legend_rows=rows,
                                     margin={**style.TIGHT, "b": 70 + 26 * rows},
                                     meta=_views(height, rows, labels.get("title"))))


def sink_score_figure(scores, *, first_evict, labels, height=420):
    """The score of the first sink token against one fixed query content at every decode step, one
    line per position contract; a dashed vertical line where the window first slides.

    scores: {contract: [L]}; first_evict: step index or None; labels: title, x, y, contract.<contract>, evict.
    """
    data = []
    for contract, ys in scores.items():
        xs, y = style.line_xy(np.arange(len(ys)), np.asarray(ys, dtype=np.float64))
        data.append({"type": "scatter", "x": xs, "y": y, "mode": "lines",
                     "name": escape(labels.get(f"contract.{contract}", contract)),
                     "line": {"color": CONTRACT_COLORS.get(contract, style.PALETTE[7]), "width": 3,
                              "dash": "solid" if contract == "reassigned" else "dot"},
                     "hovertemplate": "t=%{x}<br>%{y:.3f}<extra>%{fullData.name}</extra>"})
    shapes, notes = [], []
    if first_evict is not None:
        shapes.append({"type": "line", "x0": first_evict, "x1": first_evict, "xref": "x", "y0": 0, "y1": 1,
                       "yref": "y domain", "line": {"color": "#888888", "dash": "dash", "width": 1.5}})
        notes.append({"text": escape(labels.get("evict", "")), "showarrow": False, "x": first_evict,
                      "xanchor": "left", "xref": "x", "y": 1, "yanchor": "top", "yref": "y domain"})
    return figure(data, style.layout(labels, height=height, legend_at="under", margin=style.TIGHT, shapes=shapes,
                                     annotations=notes))


def sink_mass_figure(positions, sink, *, labels, height=420):
    """The attention each query gives to the sink (to nothing), one line per head, on a 0..1 axis.

    sink: [H][L] fractions; labels: title, x, y, head (a "{h}" format for the legend)."""
    x = np.asarray(positions)
    data = []
    for h, ys in enumerate(sink):
        xs, y = style.line_xy(x, np.asarray(ys, dtype=np.float64))
        data.append({"type": "scatter", "x": xs, "y": y, "mode": "lines+markers",
                     "name": escape(labels.get("head", "head {h}").format(h=h)),
                     "line": {"color": style.PALETTE[h % len(style.PALETTE)], "width": 2.5},
                     "marker": {"size": 7}, "hovertemplate": "i=%{x}<br>%{y:.3f}<extra>%{fullData.name}</extra>"})
    return figure(data, style.layout(labels, height=height, legend_at="under", margin=style.TIGHT,
                                     yaxis={"range": [0, 1.02]}))


def argmax_figure(steps, errors, agree, *, labels, floor=FLOOR, height=520):
    """Each decode step's largest output error per mode (log axis), its marker hollow where the next-token argmax
    agrees with the full forward's and a cross where it does not: a broken cache whose argmax agrees at many steps.
    errors, agree: {mode: [steps]}. labels: title, x, y, agree, differ, and mode.<mode> for each mode."""
    x = style.f32(steps)
    data = []
    for mode, err in errors.items():
        e = np.asarray(err, dtype=np.float64)
        same = np.asarray(agree[mode], dtype=bool)
        data.append({"type": "scatter", "x": x, "mode": "lines+markers", "name": _mode(labels, mode),
                     "line": {"color": MODE_COLORS.get(mode, style.PALETTE[0]), "width": 2},
                     "marker": {"symbol": np.where(same, "circle-open", "x-thin-open").tolist(), "size": 12,
                                "line": {"width": 2.5}},
                     "hovertemplate": "t=%{x}<br>max|Δ|=%{customdata:.3g}<extra>%{fullData.name}</extra>",
                     **style.real_values("y", style.f32(np.maximum(e, floor)), e)})
    for symbol, key in (("circle-open", "agree"), ("x-thin-open", "differ")):     # what the markers mean
        data.append({"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": escape(labels[key]),
                     "marker": {"symbol": symbol, "size": 12, "color": "#333333", "line": {"width": 2.5}}})
    yaxis = {"type": "log", "exponentformat": "power", "range": [np.log10(floor) - 0.5, 1]}
    rows = len(data)
    return figure(data, style.layout(labels, height=height + 26 * rows, legend_at="bottom", legend_rows=rows,
                                     margin={**style.TIGHT, "b": 70 + 26 * rows}, yaxis=yaxis))
