"""Scenes of the decay page: an ordered story, each scene a title and narration key (posviz.text),
the key of the figure it talks about (`show`) and the widget values it sets."""

_COMMON = {"decay_d": 128, "decay_logx": False, "decay_ones": True, "decay_alibi": [], "decay_sin": False,
           "decay_rho": 1.0, "decay_n": 64, "decay_seed": 0, "decay_example": True, "decay_pair": 16}
SCENES = {"decay": [
    {"title": "decay.scene.bound", "say": "decay.scene.bound.say", "show": "decay_main",
     "values": {**_COMMON, "decay_bases": [10000], "decay_R": 256, "decay_ones": False}},
    {"title": "decay.scene.bases", "say": "decay.scene.bases.say", "show": "decay_main",
     "values": {**_COMMON, "decay_bases": [100, 10000, 500000, 1000000], "decay_R": 65536, "decay_logx": True}},
    {"title": "decay.scene.same", "say": "decay.scene.same.say", "show": "decay_random",
     "values": {**_COMMON, "decay_bases": [10000], "decay_R": 1024, "decay_rho": 1.0, "decay_n": 64,
                "decay_example": True},
     "question": {"id": "decay.same", "choices": ("decays", "flat", "grows")}},
    {"title": "decay.scene.indep", "say": "decay.scene.indep.say", "show": "decay_random",
     "values": {**_COMMON, "decay_bases": [10000], "decay_R": 1024, "decay_rho": 0.0, "decay_n": 64,
                "decay_example": True},
     "question": {"id": "decay.indep", "choices": ("decays", "zero", "grows")}},
    {"title": "decay.scene.pair", "say": "decay.scene.pair.say", "show": "decay_pair_fig",
     "values": {**_COMMON, "decay_d": 2, "decay_bases": [10000], "decay_R": 16, "decay_pair": 0}},
    {"title": "decay.scene.alibi", "say": "decay.scene.alibi.say", "show": "decay_main",
     "values": {**_COMMON, "decay_bases": [10000], "decay_R": 1024, "decay_alibi": [1, 4, 8],
                "decay_sin": True, "decay_sin_dim": 512}},
]}
