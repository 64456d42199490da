"""Scenes of the kv_cache page: an ordered story, each scene a title and narration key (posviz.text),
the widget values it sets and the figure it talks about ("show": a ui.plot or widget key of
pages/kv_cache.py).

Every scene pins heads, head width and pairing, so the numbers its narration states hold whatever
the visitor changed before (tests/views/test_view_kv_cache.py checks them)."""

_ALL = ["correct", "restart", "rerotate", "rotate_on_read"]
_STREAM = ["on_read", "shift", "global", "stale"]
_SETUP = {"kv_heads": 2, "kv_head_dim": 16, "kv_layout": "interleaved"}
_STREAMING = {"kv_L": 6, "kv_prefill": 4, "kv_dtype": "float32", "kv_modes": _ALL, "kv_stream_L": 48,
              "kv_stream_sinks": 4, "kv_stream_window": 8}


def _scene(name, show, question=None, **values):
    scene = {"title": f"kv_cache.scene.{name}", "say": f"kv_cache.scene.{name}.say", "show": show,
             "values": {**_SETUP, **values}}
    return scene | ({"question": question} if question else {})


_RESTART = {"id": "kv_cache.restart", "number": (0, 96), "tol": 0}     # the hall's questions (posviz.scenes)
_STREAM_Q = {"id": "kv_cache.stream", "number": (0, 96), "tol": 0}
SCENES = {"kv_cache": [
    _scene("diagram", "kv_errors", _RESTART, kv_L=6, kv_prefill=4, kv_dtype="float32", kv_modes=_ALL,
           kv_trace_mode="correct"),
    _scene("one", "kv_trace_mode", kv_L=8, kv_prefill=1, kv_dtype="float32", kv_modes=_ALL,
           kv_trace_mode="rerotate"),
    _scene("reread", "kv_trace_mode", kv_L=8, kv_prefill=4, kv_dtype="float32",
           kv_modes=["correct", "rotate_on_read"], kv_trace_mode="rotate_on_read"),
    _scene("bf16", "kv_errors", kv_L=16, kv_prefill=4, kv_dtype="bfloat16", kv_modes=_ALL, kv_trace_mode="correct"),
    _scene("long", "kv_trace", kv_L=96, kv_prefill=16, kv_dtype="float32", kv_modes=_ALL,
           kv_trace_mode="rerotate"),
    _scene("stream", "kv_stream_positions", _STREAM_Q, **{**_STREAMING, "kv_stream": True, "kv_stream_modes": _STREAM}),
    _scene("stale", "kv_stream_errors", **{**_STREAMING, "kv_stream": True, "kv_stream_modes": ["on_read", "stale"]}),
    _scene("sinks", "kv_sink_mass", **{**_STREAMING, "kv_L": 16, "kv_sinks": True, "kv_sink": 2.0}),
]}

# Positions in today's serving (issue 37): evicted keys and a tree of drafts, each opening its deep dive; appended.
SCENES["kv_cache"] += [
    _scene("evict", "kv_evict_errors", kv_evict=True, kv_ev_P=24, kv_ev_start=8, kv_ev_count=6, kv_ev_policy="span"),
    _scene("tree", "kv_tree_errors", kv_tree=True, kv_tree_P=6, kv_tree_shape="2x2", kv_tree_setup="consecutive"),
]
