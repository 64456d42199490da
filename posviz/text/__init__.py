"""Every user-visible string, in English and Chinese: strings only.

One module per page/topic (`posviz/text/<topic>.py`), each defining `EN` and `ZH` dicts with the
same keys (a test enforces parity). Keys are namespaced by topic (`rope.title`); widget labels use
`w.<widget key>` (and `w.<key>.help`, `w.<key>.<option>` for option labels); errors `err.<code>`.
Imports nothing of posviz.
"""
from importlib import import_module

LANGS = ("en", "zh")
TOPICS = ("common", "errors", "overview", "sinusoidal", "relative", "rope", "decay", "extrapolation",
          "models", "lab", "kv_cache", "checks", "length", "remember")


def _load():
    tables = {lang: {} for lang in LANGS}
    for topic in TOPICS:
        try:
            mod = import_module(f"posviz.text.{topic}")
        except ModuleNotFoundError as e:
            if e.name != f"posviz.text.{topic}":
                raise
            continue
        tables["en"].update(mod.EN)
        tables["zh"].update(mod.ZH)
    return tables


TABLES = _load()


def get(lang, key, **fmt):
    """The string for `key` in `lang` (falls back to English, then to the key itself). Pure."""
    s = TABLES.get(lang, TABLES["en"]).get(key)
    if s is None:
        s = TABLES["en"].get(key, key)
    return s.format(**fmt) if fmt else s


def has(key):
    return key in TABLES["en"]
