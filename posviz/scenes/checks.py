"""Scenes of the checks page: an ordered story, each scene a title and narration key (posviz.text)
and the widget values it sets."""

def _breaks(*on):
    return {f"chk_break{i}": i in on for i in range(1, 10)}


SCENES = {"checks": [
    {"title": "checks.scene.pass", "say": "checks.scene.pass.say", "values": _breaks()},
    {"title": "checks.scene.shift", "say": "checks.scene.shift.say", "values": _breaks(3)},
    {"title": "checks.scene.cache", "say": "checks.scene.cache.say", "values": _breaks(6)},
    {"title": "checks.scene.padding", "say": "checks.scene.padding.say", "values": _breaks(2, 7)},
    {"title": "checks.scene.boundary", "say": "checks.scene.boundary.say", "values": _breaks(8)},
    {"title": "checks.scene.angles", "say": "checks.scene.angles.say", "values": _breaks(9)},
]}
