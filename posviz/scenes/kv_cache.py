"""Scenes of the kv_cache page: an ordered story, each scene a title and narration key (posviz.text),
the widget values it sets and the figure it talks about ("show": a ui.plot or widget key of
pages/kv_cache.py).

Every scene pins heads, head width and pairing, so the numbers its narration states hold whatever
the visitor changed before (tests/views/test_view_kv_cache.py checks them)."""

_ALL = ["correct", "restart", "rerotate", "rotate_on_read"]
_SETUP = {"kv_heads": 2, "kv_head_dim": 16, "kv_layout": "interleaved"}


def _scene(name, show, **values):
    return {"title": f"kv_cache.scene.{name}", "say": f"kv_cache.scene.{name}.say", "show": show,
            "values": {**_SETUP, **values}}


SCENES = {"kv_cache": [
    _scene("diagram", "kv_errors", kv_L=6, kv_prefill=4, kv_dtype="float32", kv_modes=_ALL, kv_trace_mode="correct"),
    _scene("one", "kv_trace_mode", kv_L=8, kv_prefill=1, kv_dtype="float32", kv_modes=_ALL,
           kv_trace_mode="rerotate"),
    _scene("reread", "kv_trace_mode", kv_L=8, kv_prefill=4, kv_dtype="float32",
           kv_modes=["correct", "rotate_on_read"], kv_trace_mode="rotate_on_read"),
    _scene("bf16", "kv_errors", kv_L=16, kv_prefill=4, kv_dtype="bfloat16", kv_modes=_ALL, kv_trace_mode="correct"),
    _scene("long", "kv_trace_mode", kv_L=96, kv_prefill=16, kv_dtype="float32", kv_modes=_ALL,
           kv_trace_mode="rerotate"),
]}
