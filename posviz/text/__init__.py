"""Every user-visible string, in English and Chinese.

One module per page/topic (`posviz/text/<topic>.py`), each defining `EN` and `ZH`
dicts with the same keys (a test enforces parity) and, optionally, `SCENES`: the
ordered presets that tell the page's story. Keys are namespaced by topic
(`rope.title`); widget labels use `w.<widget key>` (and `w.<key>.help`,
`w.<key>.<option>` for option labels).
"""
from importlib import import_module

LANGS = ("en", "zh")
TOPICS = ("common", "overview", "sinusoidal", "relative", "rope", "decay", "extrapolation",
          "lab", "kv_cache", "checks", "length")


def _load():
    tables = {lang: {} for lang in LANGS}
    scenes = {}
    for topic in TOPICS:
        try:
            mod = import_module(f"posviz.text.{topic}")
        except ModuleNotFoundError as e:
            if e.name != f"posviz.text.{topic}":
                raise
            continue
        tables["en"].update(mod.EN)
        tables["zh"].update(mod.ZH)
        scenes.update(getattr(mod, "SCENES", {}))
    return tables, scenes


TABLES, SCENES = _load()


def get(lang, key, **fmt):
    """The string for `key` in `lang` (falls back to English, then to the key itself)."""
    s = TABLES.get(lang, TABLES["en"]).get(key)
    if s is None:
        s = TABLES["en"].get(key, key)
    return s.format(**fmt) if fmt else s


def has(key):
    return key in TABLES["en"]
