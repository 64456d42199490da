"""Scenes of the sinusoidal page: an ordered story, each scene a title and narration key (posviz.text),
the key of the figure or widget it talks about (`show`) and the widget values it sets."""

SCENES = {"sinusoidal": [
    {"title": "sinusoidal.scene.waves", "say": "sinusoidal.scene.waves.say", "show": "sin_waves",
     "values": {"sin_D": 64, "sin_base": 10000, "sin_L": 100, "sin_dims": [0, 8, 16, 32, 62]}},
    {"title": "sinusoidal.scene.fp", "say": "sinusoidal.scene.fp.say", "show": "sin_fingerprint",
     "values": {"sin_D": 16, "sin_base": 10000, "sin_L": 32, "sin_pos": 3}},
    {"title": "sinusoidal.scene.shift", "say": "sinusoidal.scene.shift.say", "show": "sin_shift",
     "values": {"sin_D": 16, "sin_base": 10000, "sin_p": 5, "sin_delta": 3},
     "question": {"id": "sinusoidal.shift", "choices": ("delta", "both", "none")}},
    {"title": "sinusoidal.scene.sim", "say": "sinusoidal.scene.sim.say", "show": "sin_similarity",
     "values": {"sin_D": 16, "sin_base": 10000, "sin_L": 256},
     "question": {"id": "sinusoidal.sim", "choices": ("equal", "ahead", "behind")}},
    {"title": "sinusoidal.scene.edge", "say": "sinusoidal.scene.edge.say", "show": "sin_boundary",
     "values": {"sin_M": 512, "sin_learned_L": 513},
     "question": {"id": "sinusoidal.edge", "choices": ("refused", "wraps", "last", "learns")}},
    {"title": "sinusoidal.scene.mod", "say": "sinusoidal.scene.mod.say", "show": "sin_modulo",
     "values": {"sin_M": 8, "sin_learned_L": 30}},
]}
