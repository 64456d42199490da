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


def _centres(coords, n):
    """A heatmap's coordinates of its n cells: plotly also takes n + 1 edges (figures.models' labelled rows)."""
    if coords.dtype.kind in "fiu" and len(coords) == n + 1:
        return (coords[:-1] + coords[1:]) / 2
    return coords


def _rows(trace, k, name, figure_title, lay, rows):
    """Append the rows of trace number k to `rows`."""
    label = plain(trace.get("name") or "") or _names(trace, lay)[2] or figure_title or f"trace{k}"
    real = (trace.get("meta") or {}).get("real") if isinstance(trace.get("meta"), dict) else None
    custom = _array(trace.get("customdata"))
    z = _array(trace.get("z"))
    if z is not None and z.ndim == 2:
        if real == "z" and custom is not None and custom.shape == z.shape:
            z = custom
        xs = _array(trace.get("x")) if trace.get("x") is not None else np.arange(z.shape[1])
        ys = _array(trace.get("y")) if trace.get("y") is not None else np.arange(z.shape[0])
        xs, ys = _centres(xs, z.shape[1]), _centres(ys, z.shape[0])
        named = custom if custom is not None and custom.shape == z.shape and custom.dtype.kind in "OUS" else None
        rows += [[name, label, _cell(xv), _cell(named[i, 0] if named is not None else yv), _cell(z[i, j])]
                 for i, yv in enumerate(ys) if not (z.dtype.kind == "f" and np.isnan(z[i]).all())
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
