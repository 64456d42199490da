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

# The rest of the family (issue 37): one scene per deep dive, each opening it; appended so that the story above
# stays as it is. Every number a narration states is checked in tests/views/test_view_relative_family.py.
SCENES["relative"] += [
    {"title": "relative.scene.xl", "say": "relative.scene.xl.say", "show": "rel_fig_xl_score",
     "values": {"rel_L": 8, "rel_past": 4, "rel_shift": 0, "rel_xl": True, "rel_xl_terms": ["gp"]}},
    {"title": "relative.scene.deberta", "say": "relative.scene.deberta.say", "show": "rel_fig_deb_bucket",
     "values": {"rel_L": 64, "rel_past": 0, "rel_deberta": True, "rel_deb_k": 16, "rel_deb_max": 64}},
    {"title": "relative.scene.fire", "say": "relative.scene.fire.say", "show": "rel_fig_fire",
     "values": {"rel_heads": 8, "rel_head": 3, "rel_fire": True, "rel_fire_train": 64, "rel_fire_mult": 4}},
    {"title": "relative.scene.xpos", "say": "relative.scene.xpos.say", "show": "rel_fig_xpos",
     "values": {"rel_xpos": True, "rel_xpos_base": 512, "rel_xpos_range": 4096}},
    {"title": "relative.scene.cope", "say": "relative.scene.cope.say", "show": "rel_fig_cope",
     "values": {"rel_cope": True, "rel_cope_count": "sentences", "rel_cope_sharp": 8.0}},
]
