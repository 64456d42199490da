"""The numbers behind a figure, as CSV: every trace's x/y (lines) or z grid (heatmaps)."""
import csv
import io

import numpy as np


def _arr(v):
    return None if v is None else np.asarray(v)


def figure_csv(fig):
    """CSV text with one block per trace: `trace,name,x,y` rows for lines, a z grid for heatmaps."""
    out = io.StringIO()
    w = csv.writer(out)
    for k, tr in enumerate(fig.data):
        name = getattr(tr, "name", None) or f"trace{k}"
        kind = tr.type
        z = _arr(getattr(tr, "z", None))
        if z is not None and z.ndim == 2:
            xs = _arr(tr.x) if tr.x is not None else np.arange(z.shape[1])
            ys = _arr(tr.y) if tr.y is not None else np.arange(z.shape[0])
            w.writerow([f"# {kind}", name, "rows=y", "cols=x"])
            w.writerow(["y\\x", *[str(v) for v in xs]])
            for yv, row in zip(ys, z):
                w.writerow([str(yv), *[f"{v:.7g}" for v in row]])
            continue
        xs, ys = _arr(getattr(tr, "x", None)), _arr(getattr(tr, "y", None))
        if xs is None and ys is None:
            continue
        if xs is None:
            xs = np.arange(len(ys))
        if ys is None:
            ys = np.full(len(xs), np.nan)
        w.writerow([f"# {kind}", name, "x", "y"])
        for xv, yv in zip(xs.ravel(), ys.ravel()):
            w.writerow(["", name, xv, yv])
    return out.getvalue()
