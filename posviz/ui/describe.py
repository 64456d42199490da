"""A chart's text alternative, in the page's language: a sentence per trace, computed from the numbers the figure
shows (figures.export.digest), the text written on it, and a small table of those numbers when there are few. The
chart element shows it under the figure, behind a disclosure a user opens (assets/chart/chart.js)."""
import math

from posviz import text
from posviz.figures import export

MAX_SENTENCES = 10     # traces described one by one; the others are counted (their numbers are in the CSV)


def number(v):
    """A number as a sentence shows it: an integer whole, else three significant digits (no exponent between
    0.001 and a million); text as it is."""
    if isinstance(v, str):
        return v
    if isinstance(v, int) or (math.isfinite(v) and v == int(v) and abs(v) < 1e9):
        return str(int(v))
    if not math.isfinite(v):
        return str(v)
    if v != 0 and not 1e-3 <= abs(v) < 1e6:
        return f"{v:.3g}"
    return f"{float(f'{v:.3g}'):f}".rstrip("0").rstrip(".")


def sentence(item, lang):
    """One trace of a digest (export.digest) as a sentence in `lang`."""
    def t(key, **fmt):
        return text.get(lang, key, **fmt)

    x, y, z = item["names"]
    x, y, z = x or "x", y or "y", z or t("ui.alt.value")
    said = z if item["kind"] == "grid" else y       # a trace named as its quantity ("A", "score") is not named twice
    name = t("ui.alt.name", name=item["name"]) if item["name"] and item["name"] != said else ""
    if item["kind"] == "grid":
        (xl, yl, low), (xh, yh, high) = item["low"], item["high"]
        return t("ui.alt.grid", name=name, rows=item["rows"], cols=item["cols"], x=x, y=y, z=z, low=number(low),
                 xlow=number(xl), ylow=number(yl), high=number(high), xhigh=number(xh), yhigh=number(yh))
    (x0, y0), (x1, y1) = item["first"], item["last"]
    (xl, low), (xh, high) = item["low"], item["high"]
    fields = dict(name=name, x=x, y=y, n=item["n"], x0=number(x0), y0=number(y0), x1=number(x1), y1=number(y1),
                  low=number(low), xlow=number(xl), high=number(high), xhigh=number(xh))
    if item["n"] == 1:
        return t("ui.alt.point", **fields)
    if fields["low"] == fields["high"]:
        return t("ui.alt.line.flat", **fields)
    if fields["y1"] == fields["y0"]:
        return t("ui.alt.line.back", **fields)
    return t("ui.alt.line.rises" if y1 > y0 else "ui.alt.line.falls", **fields)


def describe(fig, lang):
    """The text alternative of `fig` (a go.Figure or its dict spec): {"sentences": a sentence per trace that carries
    data, then the text written on the figure, "head": column names or
    None, "rows": the figure's numbers as rows of text, or None when it has more than export.SMALL points}."""
    def t(key, **fmt):
        return text.get(lang, key, **fmt)

    d = export.digest(fig)
    items = d["traces"]
    sentences = [sentence(item, lang) for item in items[:MAX_SENTENCES]]
    if len(items) > MAX_SENTENCES:
        sentences.append(t("ui.alt.more", n=len(items) - MAX_SENTENCES))
    if d["notes"]:
        sentences.append(t("ui.alt.notes", notes=t("ui.alt.join").join(d["notes"])))
    if not sentences:
        sentences.append(t("ui.alt.none"))
    head = d["head"]
    if head:
        head = [t("ui.alt.trace") if i == 0 else h for i, h in enumerate(head)]
    return {"sentences": sentences, "head": head, "rows": d["rows"]}
