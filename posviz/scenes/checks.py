"""Scenes of the checks page: an ordered story, each scene a title and narration key (posviz.text),
the widget it talks about (`show`: the break switch of its step, or the problem number) and the widget
values it sets."""


def _breaks(*on):
    return {f"chk_break{i}": i in on for i in range(1, 10)}


SCENES = {"checks": [
    {"title": "checks.scene.pass", "say": "checks.scene.pass.say", "show": "chk_break1", "values": _breaks()},
    {"title": "checks.scene.shift", "say": "checks.scene.shift.say", "show": "chk_break3", "values": _breaks(3)},
    {"title": "checks.scene.cache", "say": "checks.scene.cache.say", "show": "chk_break6", "values": _breaks(6)},
    {"title": "checks.scene.padding", "say": "checks.scene.padding.say", "show": "chk_break2",
     "values": _breaks(2, 7)},
    {"title": "checks.scene.boundary", "say": "checks.scene.boundary.say", "show": "chk_break8",
     "values": _breaks(8)},
    {"title": "checks.scene.angles", "say": "checks.scene.angles.say", "show": "chk_break9", "values": _breaks(9)},
    {"title": "checks.scene.generator", "say": "checks.scene.generator.say", "show": "chk_gen_seed",
     "values": _breaks() | {"chk_more_gen": True, "chk_gen_seed": 22, "chk_gen_reveal": False}},
]}
