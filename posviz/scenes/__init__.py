"""Each page's ordered scenes, as data: {page: [{"title": key, "say": key, "values": {widget key: value}}]}.

Imports nothing of posviz; titles and narrations are keys of posviz.text.
"""
from importlib import import_module

PAGES = ('checks', 'decay', 'extrapolation', 'kv_cache', 'lab', 'length', 'overview', 'relative', 'rope', 'sinusoidal')


def _load():
    scenes = {}
    for page in PAGES:
        scenes.update(import_module(f"posviz.scenes.{page}").SCENES)
    return scenes


SCENES = _load()
