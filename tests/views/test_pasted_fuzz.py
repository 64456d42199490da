"""Any config.json an engineer pastes -- a gallery model's file with fields set to null, negative, zero,
huge, of the wrong type, removed, or added where they do not belong -- reaches the user as a message
with an error code in both languages, never as an exception of another type: while it is read
(posviz.pe.rope_config.read_model_rope) and in every view /extrapolation computes from it (the lengths
it is analysed at, the layer-type table, windows, M-RoPE axes, per-type curves, query temperature,
the analysis of each layer type, the live transformers check)."""
import copy
import json
import logging

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from posviz import text
from posviz.pe import models as gallery
from posviz.pe.rope_config import ModelRope, read_model_rope
from posviz.validate import PosvizError
from posviz.views import extrapolation as view
from posviz.views import models as mview

logging.getLogger("transformers").setLevel(logging.ERROR)

# What a field is set to: the values that broke pasted configs before (DeepSeek's "factor": null, a negative
# query_pre_attn_scalar, a text_config that is a number) and their neighbours.
VALUES = (None, -1, 0, -256, 0.5, 1.5, 3, 7, 1e308, -1e308, 1e-300, 2 ** 40, 10 ** 30, "x", "", "yarn",
          "proportional", "longrope", "llama3", "dynamic", "linear", "default", "gemma4", "deepseek_v3", True, False,
          [], {}, [1, -1], [0, 0, 0], [24, 20, 20], ["full_attention"], {"a": 1}, {"rope_type": "yarn"})
# Fields added to a dict of the config (the keys read_model_rope and transformers read).
FIELDS = ("factor", "rope_type", "type", "partial_rotary_factor", "query_pre_attn_scalar", "head_dim", "layer_types",
          "mrope_section", "mrope_interleaved", "sliding_window", "attention_chunk_size", "rope_theta",
          "original_max_position_embeddings", "max_position_embeddings", "no_rope_layers", "qk_rope_head_dim",
          "qk_nope_head_dim", "mscale", "mscale_all_dim", "beta_fast", "beta_slow", "short_factor", "long_factor",
          "low_freq_factor", "high_freq_factor", "attention_factor", "num_hidden_layers", "rope_scaling",
          "rope_parameters", "global_head_dim", "rope_interleave", "attn_temperature_tuning", "floor_scale",
          "attn_scale", "attention_multiplier", "num_attention_heads", "hidden_size", "model_type", "text_config")
MUTATION = st.tuples(st.sampled_from(("set", "set", "drop", "add")), st.integers(0, 10 ** 6),
                     st.sampled_from(FIELDS), st.sampled_from(VALUES))
FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _paths(obj, pre=()):
    """Every key path of a config (list items of short lists too), parents before children."""
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) and len(obj) <= 8 else ()
    for k, v in items:
        yield pre + (k,)
        yield from _paths(v, pre + (k,))


def _at(obj, path):
    for k in path:
        obj = obj[k]
    return obj


def mutate(config, mutations):
    """config with each (op, where, field, value) applied: set the where-th field to value, drop it, or add
    `field` = value to the where-th dict."""
    cfg = copy.deepcopy(config)
    for op, where, field, value in mutations:
        paths = list(_paths(cfg))
        if op in ("set", "drop") and paths:
            p = paths[where % len(paths)]
            parent = _at(cfg, p[:-1])
            if op == "set":
                parent[p[-1]] = copy.deepcopy(value)
            elif isinstance(parent, dict):
                del parent[p[-1]]
        else:
            dicts = [()] + [p for p in paths if isinstance(_at(cfg, p), dict)]
            _at(cfg, dicts[where % len(dicts)])[field] = copy.deepcopy(value)
    return cfg


def coded(e):
    """A PosvizError whose code has its text in both languages (formatted with its fields)."""
    assert isinstance(e, PosvizError), repr(e)
    en, zh = e.message("en"), e.message("zh")
    assert f"err.{e.code}" in text.TABLES["en"] and f"err.{e.code}" in text.TABLES["zh"], e.code
    assert en and zh and en != zh
    assert e.code != "config_unreadable", en          # every failure met here is named, not a generic catch-all


def pasted_views(config_text):
    """What /extrapolation computes from a pasted config, in the page's order; a PosvizError stops it, as
    ui.guard / read_pasted show it."""
    r = mview.read_pasted(config_text)
    if r.get("model") is None:
        assert f"err.{r['code']}" in text.TABLES["zh"] and r["code"] != "config_unreadable", r
        assert text.get("zh", f"err.{r['code']}", **r["params"]) != text.get("en", f"err.{r['code']}", **r["params"])
        return
    m = r["model"]
    l_train, l_target = mview.paste_lengths(config_text) or (8192, 131072)
    if m["types"]:
        view.type_rows(m)
    view.window_phases(view.window_inputs(m))
    if m["mrope_interleaved"]:
        view.mrope_axis_pairs(m["mrope_axes"])
    if view.has_layer_curves(m):
        view.layer_curves(view.curve_inputs(m), l_target)
    if m["query_scaling"]:
        view.query_curve(m["query_scaling"]["kind"], m["query_scaling"]["params_json"], l_target)
    for layer in m["types"]:
        d, params_json = view.spectrum_inputs(m, layer)
        view.proportional_equivalent(m, layer)
        view.mrope_sections(m["mrope_section"], m["mrope_scheme"])
        view.mrope_half_rows(m["mrope_rows"])
        view.analysis(d, params_json, l_train, l_target, "model")
    mview.transformers_check(config_text)


@FUZZ
@given(st.sampled_from(gallery.KEYS), st.lists(MUTATION, min_size=1, max_size=3))
def test_any_mutated_config_is_read_or_refused_with_a_coded_message(key, mutations):
    config_text = json.dumps(mutate(gallery.GALLERY[key]["config"], mutations))
    try:
        assert isinstance(read_model_rope(config_text), ModelRope)
    except Exception as e:   # noqa: BLE001  the property: whatever is raised is a coded PosvizError
        coded(e)
    try:
        pasted_views(config_text)
    except Exception as e:   # noqa: BLE001
        coded(e)


def test_the_failures_met_before_are_named():
    """The cases that once escaped as raw exceptions (found by the property above): a text_config that is a
    number, one whose model_type is a list, a text_config under a model type without one, Llama 4's
    floor_scale 0 (an infinite query temperature) and attn_scale 1e300."""
    mixtral, gemma3 = gallery.GALLERY["mixtral_8x7b"]["config"], gallery.GALLERY["gemma3_27b"]["config"]
    llama4 = copy.deepcopy(gallery.GALLERY["llama4_scout"]["config"])
    llama4["text_config"]["floor_scale"] = 0
    cases = [({**mixtral, "text_config": 3}, "rope_dict", "text_config"),
             ({**gemma3, "text_config": {**gemma3["text_config"], "model_type": [1]}}, "config_field",
              "text_config.model_type"),
             ({**gallery.GALLERY["deepseek_v3"]["config"], "text_config": {"hidden_size": 64}}, "config_foreign_text",
              "deepseek_v3"),
             (llama4, "at_least", "floor_scale")]
    huge = copy.deepcopy(gallery.GALLERY["llama4_scout"]["config"])
    huge["text_config"]["attn_scale"] = 1e300
    cases.append((huge, "at_most", "attn_scale"))
    for cfg, code, name in cases:
        r = mview.read_pasted(json.dumps(cfg))
        assert r.get("model") is None and r["code"] == code, r
        assert name in text.get("en", f"err.{code}", **r["params"])
        assert name in text.get("zh", f"err.{code}", **r["params"])
