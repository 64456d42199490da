"""Scenes of the page of today's mechanisms: an ordered story, each scene a title and narration key (posviz.text),
the figure or widget it talks about ("show": a ui.plot or widget key of app_pages/frontier.py) and the widget
values it sets. Every scene pins every widget of the section it shows, so that its numbers hold whatever the
visitor changed before; tests/views/test_view_frontier.py reads each number of each narration off the view."""

_S = "frontier.scene."
_SEQ = {"frontier_text": 4, "frontier_image": "none", "frontier_frames": 6, "frontier_video": "4x4",
        "frontier_fps": 1.0}


def _scene(name, show, **values):
    return {"title": _S + name, "say": _S + name + ".say", "show": show, "values": values}


SCENES = {"frontier": [
    _scene("image", "frontier_ids", **{**_SEQ, "frontier_model": "qwen2_vl", "frontier_image": "8x8",
                                       "frontier_frames": 0}),
    _scene("video", "frontier_ids", **{**_SEQ, "frontier_model": "qwen2_5_vl"}),
    _scene("frames", "frontier_ids", **{**_SEQ, "frontier_model": "qwen3_vl"}),
    _scene("blocks", "frontier_wave", **{**_SEQ, "frontier_model": "qwen2_vl"}),
    _scene("interleaved", "frontier_wave", **{**_SEQ, "frontier_model": "qwen3_vl"}),
    _scene("cache", "frontier_cache", frontier_mla="deepseek_v3"),
    _scene("absorb", "frontier_absorb", frontier_mla="deepseek_v3"),
    _scene("scale", "frontier_scale", frontier_mla="kimi_k2"),
]}
