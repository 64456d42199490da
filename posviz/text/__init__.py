"""Every user-visible string, in English and Chinese: strings only.

One module per page/topic (`posviz/text/<topic>.py`), each defining `EN` and `ZH` dicts with the
same keys (a test enforces parity). Keys are namespaced by topic (`rope.title`); widget labels use
`w.<widget key>` (and `w.<key>.help`, `w.<key>.<option>` for option labels); errors `err.<code>`.
Imports nothing of posviz.
"""
import os
from importlib import import_module

LANGS = ("en", "zh")
TOPICS = ("common", "errors", "hall", "overview", "sinusoidal", "relative", "rope", "decay", "extrapolation",
          "models", "frontier", "lab", "kv_cache", "checks", "length", "remember",
          "family", "serving")     # the relative family's deep dives; evicted caches, draft trees, angles


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
    """The string for `key` in `lang`. Pure.

    A key missing in `lang` falls back to English, then to the key itself, so that a user sees a word
    rather than a traceback. Strict (POSVIZ_STRICT_TEXT=1, set for every test run and the servers its
    tests start): a key missing in `lang` raises LookupError instead, so a missing string, or a Chinese
    string hidden by the English fallback, fails the test that shows it.
    """
    s = TABLES.get(lang, TABLES["en"]).get(key)
    if s is None:
        if os.environ.get("POSVIZ_STRICT_TEXT") == "1":   # read on a miss only: a lookup costs nothing more
            raise LookupError(f"no text {key!r} in {lang!r} (posviz/text)")
        s = TABLES["en"].get(key, key)
    return s.format(**fmt) if fmt else s


def has(key):
    return key in TABLES["en"]
