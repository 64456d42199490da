"""Scenes of the relative page: an ordered story, each scene a title and narration key (posviz.text)
and the widget values it sets."""

SCENES = {"relative": [
    {"title": "relative.scene.distance", "say": "relative.scene.distance.say",
     "values": {"rel_L": 8, "rel_past": 0, "rel_shift": 10}},
    {"title": "relative.scene.shaw", "say": "relative.scene.shaw.say",
     "values": {"rel_L": 12, "rel_past": 0, "rel_shift": 0, "rel_k": 2}},
    {"title": "relative.scene.t5", "say": "relative.scene.t5.say",
     "values": {"rel_L": 48, "rel_past": 0, "rel_t5_bidir": True, "rel_t5_nb": 16, "rel_t5_md": 32}},
    {"title": "relative.scene.t5causal", "say": "relative.scene.t5causal.say",
     "values": {"rel_L": 48, "rel_past": 0, "rel_t5_bidir": False, "rel_t5_nb": 32, "rel_t5_md": 128}},
    {"title": "relative.scene.alibi", "say": "relative.scene.alibi.say",
     "values": {"rel_L": 16, "rel_past": 0, "rel_heads": 12, "rel_head": 12}},
    {"title": "relative.scene.decode", "say": "relative.scene.decode.say",
     "values": {"rel_L": 4, "rel_past": 28, "rel_shift": 0, "rel_k": 4, "rel_t5_bidir": False,
                "rel_t5_nb": 32, "rel_t5_md": 128}},
]}
