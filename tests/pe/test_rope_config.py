"""posviz.pe.rope_config.read_model_rope: a config.json read the way transformers reads its model type
(json.loads only), legacy keys, generic reading of unknown model types, and every rejection naming
its field."""
import dataclasses
import json
import logging

import pytest
import torch

from posviz.pe import models as gallery
from posviz.pe import rope_config
from posviz.pe.rope_config import ModelRope, RopeNotSupported, read_model_rope
from posviz.pe.scaling import rope_frequencies
from posviz.validate import PosvizError

logging.getLogger("transformers").setLevel(logging.ERROR)


def test_contract_of_design_md():
    m = read_model_rope(gallery.config_json("gemma3_27b"))
    assert isinstance(m, ModelRope)
    for field in ("model_type", "head_dim", "rotary_dim", "trained_length", "layer_rope", "rope", "softmax_scale",
                  "mrope_section"):
        assert hasattr(m, field)
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.head_dim = 1                                        # frozen
    inv, a = m.rope["full_attention"].frequencies()
    assert inv.shape == (m.rope["full_attention"].rotary_dim // 2,) and inv.dtype == torch.float32
    assert set(m.layer_rope) <= set(m.rope) | {"nope"}


@pytest.mark.parametrize("key", gallery.KEYS)
def test_text_and_dict_read_alike(key):
    a = read_model_rope(gallery.config_json(key))
    b = read_model_rope(json.loads(gallery.config_json(key)))
    assert a == b


def test_legacy_keys_through_the_config_classes():
    # GPT-NeoX: rotary_pct, rotary_emb_base; GPT-J: n_embd, n_head, rotary_dim; StableLM: rope_pct
    m = read_model_rope({"model_type": "gpt_neox", "hidden_size": 512, "num_attention_heads": 8, "num_hidden_layers": 2,
                         "rotary_pct": 0.5, "rotary_emb_base": 50000})
    assert (m.head_dim, m.rotary_dim) == (64, 32) and m.rope["default"].rope_parameters["rope_theta"] == 50000
    assert ("legacy", "rotary_pct") in m.notes and ("legacy", "rotary_emb_base") in m.notes
    m = read_model_rope({"model_type": "gptj", "n_embd": 1024, "n_head": 8, "n_layer": 2, "rotary_dim": 32})
    assert (m.head_dim, m.rotary_dim, m.layout) == (128, 32, "interleaved")
    m = read_model_rope({"model_type": "stablelm", "hidden_size": 512, "num_attention_heads": 8, "rope_pct": 0.25,
                         "num_hidden_layers": 2})
    assert m.rotary_dim == 16


def test_generic_reading_of_unknown_model_types_and_bare_dicts():
    # InternLM2 (remote code, unknown to transformers): read generically, with a note
    m = read_model_rope({"model_type": "internlm2", "hidden_size": 4096, "num_attention_heads": 32,
                         "num_hidden_layers": 32, "max_position_embeddings": 32768, "rope_theta": 1000000,
                         "rope_scaling": {"type": "dynamic", "factor": 2.0}})
    assert ("generic", "internlm2") in m.notes
    assert m.rope["default"].rope_parameters == {"rope_type": "dynamic", "rope_theta": 1e6, "factor": 2.0,
                                                 "original_max_position_embeddings": 32768}
    # a bare rope dict
    m = read_model_rope('{"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 32768,'
                        ' "rope_theta": 1e6, "head_dim": 128}')
    assert m.head_dim == 128 and m.rope["default"].rope_parameters["factor"] == 4.0
    assert m.max_length == 131072
    m = read_model_rope('{"rope_scaling": {"type": "linear", "factor": 2.0}, "head_dim": 64}')
    assert m.rope["default"].rope_parameters == {"rope_type": "linear", "rope_theta": 10000.0, "factor": 2.0}
    assert ("theta_default", 10000.0) in m.notes
    # transformers 5 spelling, nested per layer type
    m = read_model_rope(json.dumps({"head_dim": 64, "rope_parameters": {
        "full_attention": {"rope_type": "default", "rope_theta": 1e6},
        "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}}}))
    assert m.rope["full_attention"].rope_parameters["rope_theta"] == 1e6
    assert m.rope["sliding_attention"].rope_parameters["rope_theta"] == 1e4
    # multimodal text_config, partial rotary (legacy spellings too)
    m = read_model_rope(json.dumps({"text_config": {"hidden_size": 2048, "num_attention_heads": 16,
                                                    "partial_rotary_factor": 0.5, "rope_theta": 1e4}}))
    assert (m.head_dim, m.rotary_dim) == (128, 64) and ("text_config", "") in m.notes
    for key in ("rotary_pct", "rope_pct"):
        m = read_model_rope({"model_type": "my_model", "n_embd": 512, "n_head": 4, key: 0.25})
        assert m.rotary_dim == 32
    m = read_model_rope({"model_type": "my_model", "n_embd": 512, "n_head": 4, "rotary_dim": 64})
    assert m.rotary_dim == 64
    # M-RoPE sections are kept (and must add up to the rotated pairs)
    m = read_model_rope('{"rope_type": "default", "rope_theta": 1e4, "head_dim": 8, "mrope_section": [1, 3]}')
    assert m.mrope_section == [1, 3]
    # NoPE layers of an unknown model type with no_rope_layers
    m = read_model_rope({"model_type": "my_model", "head_dim": 64, "num_hidden_layers": 4,
                         "no_rope_layers": [1, 1, 1, 0]})
    assert m.layer_rope == ["default", "default", "default", "nope"]


def test_dynamic_and_yarn_take_lengths_like_transformers():
    m = read_model_rope({"head_dim": 64, "max_position_embeddings": 2048,
                         "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}})
    assert m.rope["default"].rope_parameters["original_max_position_embeddings"] == 2048
    m = read_model_rope({"head_dim": 64, "max_position_embeddings": 16384,
                         "rope_scaling": {"rope_type": "yarn", "original_max_position_embeddings": 4096}})
    assert m.rope["default"].rope_parameters["factor"] == 4.0
    m = read_model_rope({"head_dim": 64, "max_position_embeddings": 8192,
                         "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1,
                                          "high_freq_factor": 4}})
    assert m.rope["default"].rope_parameters["original_max_position_embeddings"] == 8192


def test_phi3_su_is_longrope_and_top_level_original_length_wins():
    cfg = json.loads(gallery.config_json("phi3_mini_128k"))
    cfg["rope_scaling"]["type"] = "su"                        # Phi-3's first files
    m = read_model_rope(cfg)
    p = m.rope["default"].rope_parameters
    assert p["rope_type"] == "longrope" and p["original_max_position_embeddings"] == 4096


@pytest.mark.parametrize("cfg, what", [
    ({"head_dim": 64, "rope_scaling": {"rope_type": "axial", "rope_theta": 1e4}}, "axial"),
    ({"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 2,
      "rope_scaling": {"rope_type": "rope3d", "factor": 2.0}}, "rope3d"),
])
def test_valid_but_not_supported_yet(cfg, what):
    with pytest.raises(RopeNotSupported, match=what) as e:
        read_model_rope(cfg)
    assert e.value.boundary and "not supported yet" in e.value.message("en")
    assert "暂不支持" in e.value.message("zh")


@pytest.mark.parametrize("text, name", [
    ("", "empty"),
    ("{", "not valid JSON"),
    ("{'rope_theta': 10000}", "not valid JSON"),
    ("[1, 2, 3]", "JSON object"),
    ('"rope"', "JSON object"),
    ("null", "JSON object"),
    ('{"rope_theta": NaN, "head_dim": 64}', "NaN"),
    ('{"rope_theta": Infinity, "head_dim": 64}', "Infinity"),
    ('{"rope_theta": -Infinity, "head_dim": 64}', "Infinity"),
    ('{"rope_theta": 1e999, "head_dim": 64}', "finite"),
    ('{"rope_theta": "10000", "head_dim": 64}', "rope_theta"),
    ('{"rope_theta": true, "head_dim": 64}', "rope_theta"),
    ('{"rope_theta": 1.0, "head_dim": 64}', "rope_theta"),
    ('{"rope_theta": 10000, "head_dim": 63}', "head_dim"),
    ('{"rope_theta": 10000, "head_dim": 64.5}', "head_dim"),
    ('{"rope_theta": 10000, "head_dim": "64"}', "head_dim"),
    ('{"rope_theta": 10000}', "head_dim"),
    ('{"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 0.5}}', "factor"),
    ('{"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": "2"}}', "factor"),
    ('{"head_dim": 64, "rope_scaling": {"rope_type": "linear"}}', "factor"),
    ('{"head_dim": 64, "rope_scaling": {"rope_type": "longrope", "factor": 2}}', "rope_type"),
    ('{"head_dim": 64, "rope_scaling": {"rope_type": 3}}', "rope_type"),
    ('{"head_dim": 64, "rope_scaling": [1]}', "rope_scaling"),
    ('{"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 2, "original_max_position_embeddings": 8,'
     ' "truncate": "no"}}', "truncate"),
    ('{"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 2, "original_max_position_embeddings": 8.5}}',
     "original_max_position_embeddings"),
    ('{"head_dim": 64, "partial_rotary_factor": 0}', "partial_rotary_factor"),
    ('{"hidden_size": 64, "num_attention_heads": 0}', "num_attention_heads"),
    ('{"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 100000000}',
     "num_hidden_layers"),
    ('{"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2, '
     '"rope_scaling": {"rope_type": "yarn", "factor": 2, "beta_fast": 1, "beta_slow": 32}}', "beta_fast"),
    ('{"model_type": 5, "head_dim": 64}', "model_type"),
    ('{"head_dim": 64, "rope_scaling": {"rope_type": "longrope", "factor": 2, "original_max_position_embeddings": 8,'
     ' "short_factor": [1, 1], "long_factor": [1, 1]}}', "short_factor"),
    ("[" * 5000 + "]" * 5000, "nested|JSON object"),
    ('{"a":' * 50 + "1" + "}" * 50, "nested"),
])
def test_rejects_bad_configs_naming_the_field(text, name):
    with pytest.raises(PosvizError, match=name) as e:
        read_model_rope(text)
    assert not e.value.boundary


def test_what_a_config_class_rejects_is_a_named_error():
    with pytest.raises(PosvizError, match="llama") as e:
        read_model_rope({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2,
                         "layer_types": ["full_attention"]})
    assert e.value.code == "config_rejected"


def test_rejects_more_than_64_kb_and_non_text():
    big = json.dumps({"rope_theta": 10000.0, "head_dim": 64, "pad": "x" * 70000})
    with pytest.raises(PosvizError, match="64 KB"):
        read_model_rope(big)
    ok = json.dumps({"rope_theta": 10000.0, "head_dim": 64, "pad": "x" * 60000})
    assert read_model_rope(ok).head_dim == 64
    with pytest.raises(PosvizError, match="text"):
        read_model_rope(b"{}")
    with pytest.raises(PosvizError):
        read_model_rope('{"head_dim": ' + "9" * 5000 + "}")
    assert rope_config.MAX_BYTES == 65536


def test_frequencies_are_posviz_formulas():
    """LayerRope.frequencies is pe.scaling.rope_frequencies on its own dict (transformers only read it)."""
    m = read_model_rope(gallery.config_json("llama31_8b"))
    lr = m.rope["default"]
    a = lr.frequencies()
    b = rope_frequencies(lr.head_dim, lr.rope_parameters)
    assert torch.equal(a[0], b[0]) and a[1] == b[1]
