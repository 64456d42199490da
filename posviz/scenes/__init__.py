"""Each page's ordered scenes, as data: {page: [{"title": key, "say": key, "show": key, "values": {...}}]}.

`title` and `say` are keys of posviz.text; `show` is the key of the figure (or widget) the scene talks
about, which the frame scrolls to; `values` sets the page's widgets. One module per page, found by
name. Imports nothing of posviz.
"""
import pkgutil
from importlib import import_module


def _load():
    scenes = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        scenes.update(import_module(f"{__name__}.{info.name}").SCENES)
    return scenes


SCENES = _load()
