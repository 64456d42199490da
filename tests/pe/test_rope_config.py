"""posviz.pe.rope_config: reading a pasted config.json (or its rope part) with json.loads only."""
import json
import logging

import pytest
import torch
from transformers import DeepseekV3Config, LlamaConfig, MistralConfig, Qwen2Config
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

from posviz.pe import models as presets
from posviz.pe import rope_config
from posviz.pe.rope_config import parse_rope_config, read_rope_config
from posviz.pe.scaling import rope_frequencies

logging.getLogger("transformers").setLevel(logging.ERROR)
CONFIG_CLASS = {"llama2_7b": LlamaConfig, "mistral_7b": MistralConfig, "llama31_8b": LlamaConfig,
                "qwen25_7b": Qwen2Config, "qwen25_7b_yarn": Qwen2Config, "deepseek_v3": DeepseekV3Config}


@pytest.mark.parametrize("key", presets.KEYS)
def test_preset_configs_parse_as_json_text(key):
    p = presets.preset(key)
    head_dim, params = parse_rope_config(presets.preset_json(key))
    assert (head_dim, params) == (p["head_dim"], p["rope_parameters"])


@pytest.mark.parametrize("key", presets.KEYS)
def test_pasted_config_equals_transformers_with_the_real_config_class(key):
    """The published config fields through the model's own transformers config class."""
    cfg_dict = json.loads(presets.preset_json(key))
    cfg = CONFIG_CLASS[key](**cfg_dict)
    rt = cfg.rope_parameters["rope_type"]
    if rt == "default":
        ref, ref_a = LlamaRotaryEmbedding.compute_default_rope_parameters(cfg)
    else:
        ref, ref_a = ROPE_INIT_FUNCTIONS[rt](cfg, "cpu")
    head_dim, params = parse_rope_config(json.dumps(cfg_dict))
    ours, a = rope_frequencies(head_dim, params)
    torch.testing.assert_close(ours, ref.to(torch.float32), rtol=1e-6, atol=0.0)
    assert a == pytest.approx(float(ref_a), rel=1e-12)


def test_bare_rope_dict_and_notes():
    r = read_rope_config('{"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 32768,'
                         ' "rope_theta": 1e6, "head_dim": 128}')
    assert r["head_dim"] == 128 and r["rope_parameters"]["factor"] == 4.0
    r = read_rope_config('{"rope_scaling": {"type": "linear", "factor": 2.0}, "head_dim": 64}')
    assert r["rope_parameters"] == {"rope_type": "linear", "rope_theta": 10000.0, "factor": 2.0}
    codes = [c for c, _ in r["notes"]]
    assert "type_alias" in codes and "theta_default" in codes
    # transformers 5 spelling, nested per layer type
    r = read_rope_config(json.dumps({"head_dim": 64, "rope_parameters": {
        "full_attention": {"rope_type": "default", "rope_theta": 1e6},
        "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}}}))
    assert r["rope_parameters"]["rope_theta"] == 1e6
    # multimodal text_config, partial rotary
    r = read_rope_config(json.dumps({"text_config": {"hidden_size": 2048, "num_attention_heads": 16,
                                                     "partial_rotary_factor": 0.5, "rope_theta": 1e4}}))
    assert r["head_dim"] == 64
    # ignored keys are reported, not used
    r = read_rope_config('{"rope_type": "default", "rope_theta": 1e4, "head_dim": 8, "mrope_section": [1, 2]}')
    assert r["ignored"] == ["mrope_section"]


def test_dynamic_and_yarn_take_lengths_like_transformers():
    r = read_rope_config(json.dumps({"head_dim": 64, "max_position_embeddings": 2048,
                                     "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}))
    assert r["rope_parameters"]["original_max_position_embeddings"] == 2048
    r = read_rope_config(json.dumps({"head_dim": 64, "max_position_embeddings": 16384,
                                     "rope_scaling": {"rope_type": "yarn", "original_max_position_embeddings": 4096}}))
    assert r["rope_parameters"]["factor"] == 4.0
    r = read_rope_config(json.dumps({"head_dim": 64, "max_position_embeddings": 8192,
                                     "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1,
                                                      "high_freq_factor": 4}}))
    assert r["rope_parameters"]["original_max_position_embeddings"] == 8192


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
    ("[" * 5000 + "]" * 5000, "nested|JSON object"),
    ('{"a":' * 50 + "1" + "}" * 50, "nested"),
])
def test_rejects_bad_configs(text, name):
    with pytest.raises(ValueError, match=name):
        parse_rope_config(text)


def test_rejects_more_than_64_kb():
    big = json.dumps({"rope_theta": 10000.0, "head_dim": 64, "pad": "x" * 70000})
    with pytest.raises(ValueError, match="64 KB"):
        parse_rope_config(big)
    ok = json.dumps({"rope_theta": 10000.0, "head_dim": 64, "pad": "x" * 60000})
    assert parse_rope_config(ok)[0] == 64
    with pytest.raises(ValueError, match="text"):
        parse_rope_config(b"{}")


def test_huge_integer_is_a_value_error():
    with pytest.raises(ValueError):
        parse_rope_config('{"head_dim": ' + "9" * 5000 + "}")
    assert rope_config.MAX_BYTES == 65536
