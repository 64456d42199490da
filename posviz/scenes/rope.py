"""Scenes of the rope page: an ordered story, each scene a title and narration key (posviz.text),
the widget values it sets and the figure it shows ("show": the key of that ui.plot)."""

_BASE = {"rope_base": 10000, "rope_shift": 4, "rope_only_q": False}
SCENES = {"rope": [
    {"title": "rope.scene.pair", "say": "rope.scene.pair.say", "show": "rope_clocks",
     "values": {**_BASE, "rope_dim": 2, "rope_m": 1, "rope_n": 3, "rope_content": "unit",
                "rope_anim": "both", "rope_example": "s08"}},
    {"title": "rope.scene.angle", "say": "rope.scene.angle.say", "show": "rope_clocks",
     "values": {**_BASE, "rope_dim": 8, "rope_m": 2, "rope_n": 5, "rope_content": "unit",
                "rope_anim": "both", "rope_example": "s001"}},
    {"title": "rope.scene.shift", "say": "rope.scene.shift.say", "show": "rope_anim_fig",
     "values": {**_BASE, "rope_dim": 8, "rope_m": 2, "rope_n": 5, "rope_content": "unit",
                "rope_anim": "both", "rope_example": "s17_b"},
     "question": {"id": "rope.shift", "choices": ("same", "up", "down", "depends")}},
    {"title": "rope.scene.key", "say": "rope.scene.key.say", "show": "rope_anim_fig",
     "values": {**_BASE, "rope_dim": 8, "rope_m": 2, "rope_n": 5, "rope_content": "unit",
                "rope_anim": "key", "rope_example": "s17_c"}},
    {"title": "rope.scene.many", "say": "rope.scene.many.say", "show": "rope_clocks",
     "values": {**_BASE, "rope_dim": 64, "rope_m": 10, "rope_n": 40, "rope_content": "random",
                "rope_anim": "key", "rope_example": "s17_c"}},
    {"title": "rope.scene.layouts", "say": "rope.scene.layouts.say", "show": "rope_layouts",
     "values": {**_BASE, "rope_dim": 16, "rope_m": 3, "rope_n": 9, "rope_content": "random",
                "rope_anim": "both", "rope_example": "s08"},
     "question": {"id": "rope.layouts", "choices": ("same", "differ")}},
]}
