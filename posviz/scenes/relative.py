"""Scenes of the relative page: an ordered story, each scene a title and narration key (posviz.text),
the key of the figure it talks about (`show`) and the widget values it sets."""

SCENES = {"relative": [
    {"title": "relative.scene.distance", "say": "relative.scene.distance.say", "show": "rel_fig_distance",
     "values": {"rel_L": 8, "rel_past": 0, "rel_shift": 10},
     "question": {"id": "relative.shift", "number": (0, 64), "tol": 0}},
    {"title": "relative.scene.shaw", "say": "relative.scene.shaw.say", "show": "rel_fig_shaw",
     "values": {"rel_L": 12, "rel_past": 0, "rel_shift": 0, "rel_k": 2}},
    {"title": "relative.scene.t5", "say": "relative.scene.t5.say", "show": "rel_fig_t5_step",
     "values": {"rel_L": 48, "rel_past": 0, "rel_t5_bidir": True, "rel_t5_nb": 16, "rel_t5_md": 32}},
    {"title": "relative.scene.t5causal", "say": "relative.scene.t5causal.say", "show": "rel_fig_t5_matrix",
     "values": {"rel_L": 48, "rel_past": 0, "rel_t5_bidir": False, "rel_t5_nb": 32, "rel_t5_md": 128}},
    {"title": "relative.scene.alibi", "say": "relative.scene.alibi.say", "show": "rel_fig_alibi_slopes",
     "values": {"rel_L": 16, "rel_past": 0, "rel_heads": 12, "rel_head": 12},
     "question": {"id": "relative.alibi", "choices": ("first", "middle", "last", "same")}},
    {"title": "relative.scene.decode", "say": "relative.scene.decode.say", "show": "rel_fig_distance",
     "values": {"rel_L": 4, "rel_past": 28, "rel_shift": 0, "rel_k": 4, "rel_t5_bidir": False,
                "rel_t5_nb": 32, "rel_t5_md": 128},
     "question": {"id": "relative.decode", "number": (-100, 100), "tol": 0}},
]}
