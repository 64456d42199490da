"""The labels of a figure (or the column names of a table) in the user's language, from text keys."""
from posviz.ui.frame import t


def labels(prefix=None, *names, **keys):
    """{label: string}, every string looked up once, for a figure builder's `labels=` or a table's columns.

    A name is looked up under `prefix`; a keyword gives its label's whole text key, or `(key, {fields})`
    for a string with {fields} to fill, or a list of keys for a list of strings:

        ui.labels("rope.dist", "x", "y", mean=("rope.dist.mean", {"h": 4}), pair="rope.clock.pair")
        -> {"x": t("rope.dist.x"), "y": t("rope.dist.y"), "mean": t("rope.dist.mean", h=4),
            "pair": t("rope.clock.pair")}

    A label whose name is not a Python name comes in as `**{"mode.correct": "w.kv_modes.correct"}`.
    """
    out = {name: t(f"{prefix}.{name}") for name in names}
    for name, key in keys.items():
        out[name] = _lookup(key)
    return out


def _lookup(key):
    if isinstance(key, tuple):
        key, fields = key
        return t(key, **fields)
    if isinstance(key, list):
        return [_lookup(k) for k in key]
    return t(key)
