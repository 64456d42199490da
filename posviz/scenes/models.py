"""Scenes of the models page: an ordered story through the gallery, each scene a title and narration key
(posviz.text), the figure or widget it talks about (`show`) and the widget values it sets.

Every number a narration states is read off the gallery's own views in tests/views/test_view_models.py."""

_S = "models.scene."


def _scene(name, show, pick, sort="released", **extra):
    return {"title": _S + name, "say": _S + name + ".say", "show": show,
            "values": {"models_sort": sort, "models_pick": list(pick), **extra}}


SCENES = {"models": [
    _scene("gallery", "models_sort", ("llama31_8b", "gemma3_27b", "deepseek_v3"), sort="theta"),
    _scene("theta", "models_wave", ("llama2_7b", "codellama_7b", "llama3_8b")),
    _scene("scaling", "models_wave", ("llama3_8b", "llama31_8b", "qwen25_7b", "qwen25_7b_yarn")),
    _scene("layers", "models_strip", ("gemma2_9b", "gemma3_27b", "llama4_scout", "gpt_oss_20b", "qwen3_next_80b")),
    _scene("decay", "models_decay", ("llama2_7b", "llama3_8b", "qwen25_7b_yarn")),
    _scene("today", "models_strip", ("gemma4_31b", "deepseek_v4_flash", "qwen35_397b", "kimi_linear", "mistral_7b")),
    _scene("proportional", "models_prop_metrics", ("llama31_8b", "gemma4_31b"), models_prop=True, models_prop_d=512,
           models_prop_p=0.25, models_prop_base=1000000, models_prop_ltrain=131072),
]}
