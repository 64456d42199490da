"""Scenes of the extrapolation page: an ordered story, each scene a title and narration key (posviz.text),
the figure it talks about (`show`) and the widget values it sets."""

_S = "extrapolation.scene."
SCENES = {"extrapolation": [
    {"title": _S + "wave", "say": _S + "wave.say", "show": "ext_wave",
     "values": {"ext_preset": "llama2_7b", "ext_ltrain": 4096, "ext_ltarget": 4096, "ext_method": "default"}},
    {"title": _S + "naive", "say": _S + "naive.say", "show": "ext_phase",
     "values": {"ext_preset": "llama2_7b", "ext_ltrain": 4096, "ext_ltarget": 16384, "ext_method": "default"},
     "question": {"id": "extrapolation.naive", "number": (0, 64), "tol": 2}},
    {"title": _S + "pi", "say": _S + "pi.say", "show": "ext_phase",
     "values": {"ext_preset": "llama2_7b", "ext_ltrain": 4096, "ext_ltarget": 16384, "ext_method": "linear"},
     "question": {"id": "extrapolation.pi", "number": (0, 64), "tol": 0}},
    {"title": _S + "ntk", "say": _S + "ntk.say", "show": "ext_ratio",
     "values": {"ext_preset": "llama2_7b", "ext_ltrain": 4096, "ext_ltarget": 16384, "ext_method": "ntk"}},
    {"title": _S + "yarn", "say": _S + "yarn.say", "show": "ext_freq",
     "values": {"ext_preset": "qwen25_7b_yarn", "ext_ltrain": 32768, "ext_ltarget": 131072, "ext_method": "model"}},
    {"title": _S + "llama3", "say": _S + "llama3.say", "show": "ext_ratio",
     "values": {"ext_preset": "llama31_8b", "ext_ltrain": 8192, "ext_ltarget": 65536, "ext_method": "model"}},
    {"title": _S + "window", "say": _S + "window.say", "show": "ext_strip",
     "values": {"ext_preset": "gpt_oss_20b", "ext_ltrain": 4096, "ext_ltarget": 131072, "ext_method": "model"}},
]}
