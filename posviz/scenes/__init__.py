"""Each page's ordered scenes, as data: {page: [{"title": key, "say": key, "show": key, "values": {...}}]}.

`title` and `say` are keys of posviz.text; `show` is the key of the figure (or widget) the scene talks
about, which the frame scrolls to; `values` sets the page's widgets. One module per page, found by
name. Imports nothing of posviz.

A scene may carry a question for the hall (posviz.hall): {"id": "<page>.<name>", "choices": (option
codes)} for multiple choice, or {"id": ..., "number": (lo, hi), "tol": t} for a number within t of the
right one. Its texts are hall.q.<id> (the question), hall.q.<id>.<option> (each choice) and
hall.q.<id>.why (after the reveal) in posviz.text; its right answer is computed by
posviz.views.hall.ANSWERS[id] from the scene's values, with the view the scene's figure shows.
QUESTIONS: {id: the question with its page, scene index, figure key (`show`) and the scene's values}.
"""
import pkgutil
from importlib import import_module


def _load():
    scenes = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        scenes.update(import_module(f"{__name__}.{info.name}").SCENES)
    return scenes


SCENES = _load()


def _questions(scenes):
    out = {}
    for page, items in scenes.items():
        for index, scene in enumerate(items):
            if "question" in scene:
                q = scene["question"]
                out[q["id"]] = {**q, "page": page, "scene": index, "show": scene["show"], "values": scene["values"]}
    return out


QUESTIONS = _questions(SCENES)
