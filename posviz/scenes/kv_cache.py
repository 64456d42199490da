"""Scenes of the kv_cache page: an ordered story, each scene a title and narration key (posviz.text)
and the widget values it sets."""

_ALL = ["correct", "restart", "rerotate", "rotate_on_read"]
SCENES = {"kv_cache": [
    {"title": "kv_cache.scene.diagram", "say": "kv_cache.scene.diagram.say",
     "values": {"kv_L": 6, "kv_prefill": 4, "kv_dtype": "float32", "kv_modes": _ALL, "kv_trace_mode": "correct"}},
    {"title": "kv_cache.scene.one", "say": "kv_cache.scene.one.say",
     "values": {"kv_L": 8, "kv_prefill": 1, "kv_dtype": "float32", "kv_modes": _ALL, "kv_trace_mode": "rerotate"}},
    {"title": "kv_cache.scene.reread", "say": "kv_cache.scene.reread.say",
     "values": {"kv_L": 8, "kv_prefill": 4, "kv_dtype": "float32", "kv_modes": ["correct", "rotate_on_read"],
                "kv_trace_mode": "rotate_on_read"}},
    {"title": "kv_cache.scene.bf16", "say": "kv_cache.scene.bf16.say",
     "values": {"kv_L": 16, "kv_prefill": 4, "kv_dtype": "bfloat16", "kv_modes": _ALL, "kv_trace_mode": "correct"}},
    {"title": "kv_cache.scene.long", "say": "kv_cache.scene.long.say",
     "values": {"kv_L": 96, "kv_prefill": 16, "kv_dtype": "float32", "kv_modes": _ALL, "kv_trace_mode": "rerotate"}},
]}
