"""The numbers behind a figure, as CSV: one header row, then one row per point.

Columns: figure, trace, x, y, z, named as the figure names them: the x, y and z columns by the figure's axis
titles (a heatmap's z by its colour bar; several panels with different titles: "x: a / b"), each trace by its
legend name (an unnamed heatmap by its colour bar or the figure's title), all as plain text (no HTML escapes
or tags). A figure that names nothing keeps HEADER. Lines and bars give (x, y); heatmaps give one row per
cell (x, y, z); polar traces give (theta, r) as (x, y). The numbers are the real ones, not the plotted ones: a trace
that draws transformed values (a log axis's floor instead of an exact 0, log10 of a heatmap) carries
the real values in `customdata` and says so in `meta` (see `style.real_values`), and those are written.
"""
import base64
import csv
import html
import io
import re

import numpy as np

HEADER = ["figure", "trace", "x", "y", "z"]


def _array(v):
    """A plotly value (list, numpy array, or a {"dtype", "bdata", "shape"} record) -> numpy, or None."""
    if v is None:
        return None
    if isinstance(v, dict) and "bdata" in v:
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
        if "shape" in v:
            a = a.reshape([int(s) for s in str(v["shape"]).split(",")])
        return a
    if isinstance(v, (tuple, list)) and v and isinstance(v[0], dict) and "bdata" in v[0]:
        return np.array([_array(x) for x in v])
    return np.asarray(v)


def _traces(fig):
    """Trace dicts of a go.Figure or of its dict spec."""
    if hasattr(fig, "to_plotly_json"):
        return [trace.to_plotly_json() for trace in fig.data]
    return list(fig.get("data", []))


def plain(text):
    """A plotly label as plain text: <br> a space, other tags dropped, HTML escapes read ("0·&lt;pad&gt;" ->
    "0·<pad>")."""
    text = re.sub(r"<br\s*/?>", " ", str(text), flags=re.I)
    return html.unescape(re.sub(r"</?[a-zA-Z][^<>]*>", "", text)).strip()


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.9g}"
    if isinstance(v, (np.integer,)):
        return str(int(v))
    return plain(v) if isinstance(v, str) else str(v)


def _title(spec):
    """The text of a plotly title (a string or {"text": ...}), plain, or ""."""
    if isinstance(spec, dict):
        spec = spec.get("text")
    return plain(spec) if spec else ""


def _layout(fig):
    if hasattr(fig, "to_plotly_json"):
        return fig.layout.to_plotly_json()
    return fig.get("layout", {}) or {}


def _names(trace, lay):
    """(x, y, z) column names of one trace: its axes' titles, its colour bar's (or its colour axis's)."""
    if trace.get("type") in ("scatterpolar", "barpolar"):
        polar = lay.get(trace.get("subplot") or "polar", {}) or {}
        return (_title((polar.get("angularaxis") or {}).get("title")) or "theta",
                _title((polar.get("radialaxis") or {}).get("title")) or "r", "")
    x = _title((lay.get("xaxis" + str(trace.get("xaxis", "x"))[1:]) or {}).get("title"))
    y = _title((lay.get("yaxis" + str(trace.get("yaxis", "y"))[1:]) or {}).get("title"))
    bar = (trace.get("colorbar") or {}).get("title")
    if not bar and trace.get("coloraxis"):
        bar = ((lay.get(trace["coloraxis"]) or {}).get("colorbar") or {}).get("title")
    return x, y, _title(bar)


def header(names):
    """The header row for the (x, y, z) names of the traces that have rows."""
    out = list(HEADER)
    for i in range(3):
        titles = list(dict.fromkeys(n[i] for n in names if n[i]))
        if len(titles) == 1:
            out[2 + i] = titles[0]
        elif titles:
            out[2 + i] = f"{HEADER[2 + i]}: " + " / ".join(titles)
    return out


def figure_csv(fig, name="figure"):
    """CSV text of every trace of `fig` (a go.Figure or its dict spec): the header (HEADER named as the figure
    names its axes), then a row per point."""
    out = io.StringIO()
    w = csv.writer(out)
    lay = _layout(fig)
    rows, names = [], []
    figure_title = _title(lay.get("title"))
    for k, trace in enumerate(_traces(fig)):
        n = len(rows)
        _rows(trace, k, name, figure_title, lay, rows)
        if len(rows) > n:
            names.append(_names(trace, lay))
    w.writerow(header(names))
    w.writerows(rows)
    return out.getvalue()


def _label(trace, k, figure_title, lay):
    """The name of trace number k in the CSV: its legend name, its colour bar's, the figure's title, or trace<k>."""
    return plain(trace.get("name") or "") or _names(trace, lay)[2] or figure_title or f"trace{k}"


def _rows(trace, k, name, figure_title, lay, rows):
    """Append the rows of trace number k to `rows`."""
    label = _label(trace, k, figure_title, lay)
    real = (trace.get("meta") or {}).get("real") if isinstance(trace.get("meta"), dict) else None
    custom = _array(trace.get("customdata"))
    z = _array(trace.get("z"))
    if z is not None and z.ndim == 2:
        if real == "z" and custom is not None and custom.shape == z.shape:
            z = custom
        xs = _array(trace.get("x")) if trace.get("x") is not None else np.arange(z.shape[1])
        ys = _array(trace.get("y")) if trace.get("y") is not None else np.arange(z.shape[0])
        rows += [[name, label, _cell(xv), _cell(yv), _cell(z[i, j])] for i, yv in enumerate(ys)
                 for j, xv in enumerate(xs)]
        return
    xs, ys = _array(trace.get("x")), _array(trace.get("y"))
    if trace.get("type") in ("scatterpolar", "barpolar"):
        xs, ys = _array(trace.get("theta")), _array(trace.get("r"))
    if xs is None and ys is None:
        return
    if real == "y" and custom is not None and ys is not None and custom.shape == ys.shape:
        ys = custom
    if xs is None:
        xs = np.arange(len(ys))
    if ys is None:
        ys = np.full(len(xs), np.nan)
    rows += [[name, label, _cell(xv), _cell(yv), ""] for xv, yv in zip(np.ravel(xs), np.ravel(ys))]


# ---------------------------------------------------------------- the numbers a figure shows, in brief
SMALL = 24     # a figure of at most this many points (all its traces) gets a table of them in its text alternative


def _decoration(trace):
    """A trace that only draws (a clock's face, a caption written as text): a text-only trace, a hidden one, or one
    in neither the legend nor the hover."""
    unnamed = trace.get("showlegend") is False or not (trace.get("name") or "")
    text_only = str(trace.get("mode") or "").split("+") == ["text"]
    return text_only or (unnamed and trace.get("hoverinfo") == "skip") or trace.get("visible") is False


def _value(v):
    """One coordinate for the digest: an int, a float, or plain text."""
    if isinstance(v, (np.integer, int)) and not isinstance(v, (bool, np.bool_)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return float(v)
    return plain(v) if isinstance(v, str) else str(v)


def _real(trace, key, values):
    """`values` of `key` ("y" or "z"), or the real ones the trace carries in customdata (style.real_values)."""
    meta = trace.get("meta")
    custom = _array(trace.get("customdata"))
    if isinstance(meta, dict) and meta.get("real") == key and custom is not None and custom.shape == values.shape:
        return custom
    return values


def _floats(a):
    """`a` as float64 (None read as NaN), or None when it holds values that are not numbers."""
    if a is None:
        return None
    if a.dtype.kind == "O":
        a = np.array([np.nan if v is None else v for v in a.ravel()], dtype=object).reshape(a.shape)
    try:
        return a.astype(np.float64)
    except (TypeError, ValueError):
        return None


def _grid(trace, z):
    """(rows, cols, lowest cell, highest cell) of a heatmap's z [rows, cols]; cells as (x, y, z). None: no number."""
    z = np.asarray(_real(trace, "z", z), dtype=np.float64)   # [rows, cols]
    if not np.isfinite(z).any():
        return None
    xs = _array(trace.get("x")) if trace.get("x") is not None else np.arange(z.shape[1])
    ys = _array(trace.get("y")) if trace.get("y") is not None else np.arange(z.shape[0])
    cells = [np.unravel_index(np.nanargmin(z), z.shape), np.unravel_index(np.nanargmax(z), z.shape)]
    low, high = [(_value(xs[j]), _value(ys[i]), float(z[i, j])) for i, j in cells]
    return {"kind": "grid", "rows": int(z.shape[0]), "cols": int(z.shape[1]), "low": low, "high": high}


def _line(trace):
    """The first, last, lowest and highest point of a line, bars or points as (x, y). None: no y is a number."""
    polar = trace.get("type") in ("scatterpolar", "barpolar")
    xs, ys = (_array(trace.get("theta")), _array(trace.get("r"))) if polar else (_array(trace.get("x")),
                                                                                _array(trace.get("y")))
    ys = _floats(ys)
    if ys is None:
        return None
    ys = np.ravel(_real(trace, "y", ys)).astype(np.float64)   # [n]
    xs = np.arange(len(ys)) if xs is None else np.ravel(xs)
    keep = np.flatnonzero(np.isfinite(ys))      # the gaps (NaN) between a trace's segments left out
    if not len(keep):
        return None
    y, x = ys[keep], [_value(xs[i]) for i in keep]
    lo, hi = int(np.argmin(y)), int(np.argmax(y))
    return {"kind": "line", "n": len(keep), "first": (x[0], float(y[0])), "last": (x[-1], float(y[-1])),
            "low": (x[lo], float(y[lo])), "high": (x[hi], float(y[hi]))}


def _diagram(trace, lay):
    """A trace drawn on axes that are both hidden (a clock face's hand): its coordinates are a drawing, not data."""
    if trace.get("type") in ("scatterpolar", "barpolar"):
        return False
    axes = [lay.get(a + str(trace.get(a) or a[0])[1:]) or {} for a in ("xaxis", "yaxis")]
    return all(a.get("visible") is False for a in axes)


def _notes(fig, lay, limit=12):
    """The text written on a figure: its annotations' and its text traces' (plain, each once, at most `limit`)."""
    texts = [a.get("text") for a in lay.get("annotations") or [] if isinstance(a, dict)]
    for trace in _traces(fig):
        if str(trace.get("mode") or "").split("+") == ["text"] and trace.get("visible") is not False:
            text = trace.get("text")
            texts += list(text) if isinstance(text, (list, tuple)) else [text]
    out = list(dict.fromkeys(p for p in (plain(x) for x in texts if isinstance(x, str)) if p))
    return out[:limit]


def digest(fig):
    """What `fig` (a go.Figure or its dict spec) shows, in brief, for its text alternative (ui.describe).

    "traces": one dict per trace that carries data (not a decoration: a text-only trace, or one in neither the
    legend nor the hover), in the figure's order, with its "name" (the CSV's) and "names" (its x, y, z column
    names, "" where the figure names none):
      a line, bars or points: {"kind": "line", "n": its points, "first", "last", "low", "high": (x, y) of its first
        and last point and of its lowest and highest} (points whose y is not a number, such as the gaps between
        a trace's segments, left out; the first of equal lowest or highest);
      a heatmap: {"kind": "grid", "rows", "cols", "low", "high": (x, y, z) of its lowest and highest cell}.
    A trace on axes that are both hidden is a drawing (a clock's hands), not described by its coordinates.
    "notes": the text written on the figure (its annotations, its text traces), where a drawing's numbers are.
    "rows": when those traces have at most SMALL points in all, their CSV rows (trace, x, y[, z]) as text, else
    None; "head": the rows' column names (the z column only when a trace has one).
    The numbers are the real ones, as the CSV's (a log axis's floor is read as its exact value)."""
    lay = _layout(fig)
    figure_title = _title(lay.get("title"))
    out, kept = [], []
    for k, trace in enumerate(_traces(fig)):
        if _decoration(trace) or _diagram(trace, lay):
            continue
        z = _array(trace.get("z"))
        item = _grid(trace, z) if z is not None and z.ndim == 2 else _line(trace)
        if item is None:
            continue
        label = _label(trace, k, figure_title, lay)
        label = "" if label == f"trace{k}" else label           # not named by the figure: no name
        out.append({**item, "name": label, "names": _names(trace, lay)})
        kept.append((k, trace, label))
    notes = _notes(fig, lay)
    if sum(t["rows"] * t["cols"] if t["kind"] == "grid" else t["n"] for t in out) > SMALL:
        return {"traces": out, "notes": notes, "head": None, "rows": None}     # (the rows of a large one not made)
    rows, names = [], []
    for k, trace, label in kept:
        got = []
        _rows(trace, k, "", figure_title, lay, got)
        rows += [[label, *r[2:]] for r in got if r[3] or r[4]]    # not the gaps between segments
        names.append(_names(trace, lay))
    if len(rows) > SMALL:
        return {"traces": out, "notes": notes, "head": None, "rows": None}
    width = 4 if any(r[3] for r in rows) else 3
    return {"traces": out, "notes": notes, "head": header(names)[1:1 + width], "rows": [r[:width] for r in rows]}
