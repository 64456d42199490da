"""Scenes of the overview page: an ordered story, each scene a title and narration key (posviz.text),
the key of the figure it talks about (`show`) and the widget values it sets."""

SCENES = {"overview": [
    {"title": "overview.scene.bag", "say": "overview.scene.bag.say", "show": "ov_equiv",
     "values": {"ov_method": "nope", "ov_causal": False},
     "question": {"id": "overview.bag", "choices": ("moved", "changed")}},
    {"title": "overview.scene.mask", "say": "overview.scene.mask.say", "show": "ov_equiv",
     "values": {"ov_method": "nope", "ov_causal": True},
     "question": {"id": "overview.mask", "choices": ("yes", "no")}},
    {"title": "overview.scene.sin", "say": "overview.scene.sin.say", "show": "ov_equiv",
     "values": {"ov_method": "sinusoidal", "ov_causal": False}},
    {"title": "overview.scene.rope", "say": "overview.scene.rope.say", "show": "ov_equiv",
     "values": {"ov_method": "rope", "ov_causal": False}},
    {"title": "overview.scene.alibi", "say": "overview.scene.alibi.say", "show": "ov_bars",
     "values": {"ov_method": "alibi", "ov_causal": False}},
]}
