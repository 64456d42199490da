"""The numbers behind a figure, as CSV: one header row, then one row per point.

Columns: figure, trace, x, y, z. Lines and bars give (x, y); heatmaps give one row per cell (x, y, z);
polar traces give (theta, r) as (x, y). The numbers are the real ones, not the plotted ones: a trace
that draws transformed values (a log axis's floor instead of an exact 0, log10 of a heatmap) carries
the real values in `customdata` and says so in `meta` (see `style.real_values`), and those are written.
"""
import base64
import csv
import io

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
        return [tr.to_plotly_json() for tr in fig.data]
    return list(fig.get("data", []))


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.9g}"
    if isinstance(v, (np.integer,)):
        return str(int(v))
    return str(v)


def figure_csv(fig, name="figure"):
    """CSV text of every trace of `fig` (a go.Figure or its dict spec): HEADER, then a row per point."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(HEADER)
    for k, tr in enumerate(_traces(fig)):
        label = tr.get("name") or f"trace{k}"
        real = (tr.get("meta") or {}).get("real") if isinstance(tr.get("meta"), dict) else None
        custom = _array(tr.get("customdata"))
        z = _array(tr.get("z"))
        if z is not None and z.ndim == 2:
            if real == "z" and custom is not None and custom.shape == z.shape:
                z = custom
            xs = _array(tr.get("x")) if tr.get("x") is not None else np.arange(z.shape[1])
            ys = _array(tr.get("y")) if tr.get("y") is not None else np.arange(z.shape[0])
            for i, yv in enumerate(ys):
                for j, xv in enumerate(xs):
                    w.writerow([name, label, _cell(xv), _cell(yv), _cell(z[i, j])])
            continue
        xs, ys = _array(tr.get("x")), _array(tr.get("y"))
        if tr.get("type") in ("scatterpolar", "barpolar"):
            xs, ys = _array(tr.get("theta")), _array(tr.get("r"))
        if xs is None and ys is None:
            continue
        if real == "y" and custom is not None and ys is not None and custom.shape == ys.shape:
            ys = custom
        if xs is None:
            xs = np.arange(len(ys))
        if ys is None:
            ys = np.full(len(xs), np.nan)
        for xv, yv in zip(np.ravel(xs), np.ravel(ys)):
            w.writerow([name, label, _cell(xv), _cell(yv), ""])
    return out.getvalue()
