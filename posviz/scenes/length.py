"""Scenes of the length page: an ordered story, each scene a title and narration key (posviz.text),
the figure it talks about (`show`, a ui.plot key of app_pages/length.py) and the widget values it sets."""

_ALL = ["nope", "sinusoidal", "learned", "learned_clamp", "rope", "rope_pi", "rope_ntk", "rope_yarn", "alibi", "t5"]
SCENES = {"length": [
    {"title": "length.s1.title", "say": "length.s1.say", "show": "len_main",
     "values": {"len_show": ["sinusoidal", "learned", "learned_clamp"], "len_metric": "acc",
                "len_model": "sinusoidal", "len_layer": 2, "len_head": 1, "len_long": 256, "len_live": False}},
    {"title": "length.s2.title", "say": "length.s2.say", "show": "len_main",
     "values": {"len_show": ["rope", "alibi", "t5"], "len_metric": "acc", "len_model": "t5",
                "len_layer": 2, "len_head": 3, "len_long": 512, "len_live": False}},
    {"title": "length.s3.title", "say": "length.s3.say", "show": "len_main",
     "values": {"len_show": ["rope", "rope_pi", "rope_ntk", "rope_yarn"], "len_metric": "acc",
                "len_model": "rope_yarn", "len_layer": 2, "len_head": 1, "len_long": 512, "len_live": False}},
    {"title": "length.s4.title", "say": "length.s4.say", "show": "len_maps_long",
     "values": {"len_show": _ALL, "len_metric": "acc", "len_model": "rope", "len_layer": 2, "len_head": 1,
                "len_long": 512, "len_live": False}},
    {"title": "length.s_alias.title", "say": "length.s_alias.say", "show": "len_alias",
     "values": {"len_model": "rope", "len_layer": 2, "len_head": 1, "len_long": 512, "len_live": False,
                "len_alias_target": 2, "len_alias_tol": 40}},
    {"title": "length.s5.title", "say": "length.s5.say", "show": "len_main",
     "values": {"len_show": ["nope", "alibi", "sinusoidal"], "len_metric": "loss", "len_model": "nope",
                "len_layer": 2, "len_head": 1, "len_long": 256, "len_live": False}},
]}
