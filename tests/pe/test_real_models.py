"""Every gallery model against its own modules in transformers: the rotary embedding built from the
config class (no weights, no download) for inv_freq and attention scaling per layer type and the
rotary width; the attention module (built on the meta device) for the softmax scale and NoPE
layers. posviz's numbers come from posviz.pe.scaling; transformers is only the reference here.
Also the exact configs of issue 13's failures, legacy keys, and LongRoPE around its switch."""
import copy
import importlib
import json
import logging
import math

import pytest
import torch
from transformers import AutoConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

from posviz.pe import models as gallery
from posviz.pe.rope_config import read_model_rope
from posviz.pe.scaling import rope_frequencies

logging.getLogger("transformers").setLevel(logging.ERROR)
RTOL = 1e-6
ATTENTION = {"llama": "LlamaAttention", "mistral": "MistralAttention", "mixtral": "MixtralAttention",
             "qwen2": "Qwen2Attention", "qwen3": "Qwen3Attention", "qwen2_vl": "Qwen2VLAttention",
             "qwen2_5_vl": "Qwen2_5_VLAttention", "gemma2": "Gemma2Attention", "gemma3": "Gemma3Attention",
             "phi": "PhiAttention", "phi3": "Phi3Attention", "gpt_neox": "GPTNeoXAttention",
             "gptj": "GPTJAttention", "stablelm": "StableLmAttention", "deepseek_v2": "DeepseekV2Attention",
             "deepseek_v3": "DeepseekV3Attention", "gpt_oss": "GptOssAttention", "cohere": "CohereAttention",
             "olmo2": "Olmo2Attention", "llama4": "Llama4TextAttention", "qwen3_next": "Qwen3NextAttention"}
ROTARY = {"llama4": "Llama4TextRotaryEmbedding", "qwen2_vl": "Qwen2VLRotaryEmbedding",
          "qwen2_5_vl": "Qwen2_5_VLRotaryEmbedding", "gpt_neox": "GPTNeoXRotaryEmbedding",
          "gptj": "GPTJRotaryEmbedding", "stablelm": "StableLmRotaryEmbedding",
          "deepseek_v2": "DeepseekV2RotaryEmbedding", "deepseek_v3": "DeepseekV3RotaryEmbedding",
          "gpt_oss": "GptOssRotaryEmbedding", "olmo2": "Olmo2RotaryEmbedding",
          "qwen3_next": "Qwen3NextRotaryEmbedding", "phi": "PhiRotaryEmbedding", "phi3": "Phi3RotaryEmbedding",
          "gemma2": "Gemma2RotaryEmbedding", "gemma3": "Gemma3RotaryEmbedding", "cohere": "CohereRotaryEmbedding"}


def text_config(config):
    cfg = copy.deepcopy(config)
    return AutoConfig.for_model(cfg.pop("model_type"), **cfg).get_text_config(decoder=True)


def modeling(config):
    mt = config["model_type"]
    return importlib.import_module(f"transformers.models.{mt}.modeling_{mt}")


def rotary_class(config):
    mt = config["model_type"]
    return getattr(modeling(config), ROTARY.get(mt, f"{mt.capitalize()}RotaryEmbedding"))


def reference(config):
    """{layer type: (inv_freq, attention scaling)} of the model's rotary module."""
    tc = text_config(config)
    emb = rotary_class(config)(tc)
    if config["model_type"] == "gptj":   # sin/cos table: the angle at position 1 is theta_i
        table = emb.embed_positions[1].double()
        half = table.shape[0] // 2
        return tc, {"default": (torch.atan2(table[:half], table[half:]), 1.0)}
    if hasattr(emb, "inv_freq"):
        return tc, {"default": (emb.inv_freq, float(emb.attention_scaling))}
    return tc, {lt: (getattr(emb, f"{lt}_inv_freq"), float(getattr(emb, f"{lt}_attention_scaling")))
                for lt in emb.layer_types}


def rel(a, b):
    a, b = torch.as_tensor(a, dtype=torch.float64), torch.as_tensor(b, dtype=torch.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    return float(((a - b).abs() / b.abs()).max())


def attention_modules(config, tc):
    cls = getattr(modeling(config), ATTENTION[config["model_type"]])
    with torch.device("meta"):
        return [cls(tc, layer_idx=i) for i in range(tc.num_hidden_layers)
                if not (getattr(tc, "layer_types", None) and tc.layer_types[i] == "linear_attention")]


@pytest.mark.parametrize("key", gallery.KEYS)
def test_gallery_model_equals_its_transformers_rotary_module(key):
    config = gallery.GALLERY[key]["config"]
    m = read_model_rope(copy.deepcopy(config))
    tc, ref = reference(config)
    assert set(ref) == set(m.rope)
    for lt, (inv, a) in ref.items():
        ours, att = m.rope[lt].frequencies()
        assert rel(ours, inv) <= RTOL, (key, lt)
        assert att == pytest.approx(a, rel=1e-12), (key, lt)
        assert m.rope[lt].rotary_dim == 2 * inv.shape[0]
    assert m.rotary_dim == m.rope[next(iter(m.rope))].rotary_dim
    # LongRoPE: the module swaps to the long factors when seq_len > original_max_position_embeddings
    main = m.rope.get("default")
    if main is not None and main.rope_parameters["rope_type"] == "longrope":
        L0 = main.rope_parameters["original_max_position_embeddings"]
        for seq_len in (L0 - 1, L0, L0 + 1, 4 * L0):
            inv, a = ROPE_INIT_FUNCTIONS["longrope"](tc, "cpu", seq_len=seq_len)
            ours, att = main.frequencies(seq_len=seq_len)
            assert rel(ours, inv) <= RTOL and att == pytest.approx(a, rel=1e-12), (key, seq_len)


@pytest.mark.parametrize("key", gallery.KEYS)
def test_gallery_model_softmax_scale_nope_layers_and_head_dim(key):
    config = gallery.GALLERY[key]["config"]
    m = read_model_rope(copy.deepcopy(config))
    tc = text_config(config)
    attns = attention_modules(config, tc)
    for attn in attns:
        assert attn.scaling == pytest.approx(m.softmax_scale / math.sqrt(m.head_dim), rel=1e-12), key
    assert len(m.layer_rope) == tc.num_hidden_layers
    if config["model_type"] == "llama4":
        assert [i for i, a in enumerate(attns) if not a.use_rope] == [i for i, r in enumerate(m.layer_rope)
                                                                       if r == "nope"]
    elif config["model_type"] == "qwen3_next":
        assert [i for i, k in enumerate(tc.layer_types) if k == "linear_attention"] == \
            [i for i, r in enumerate(m.layer_rope) if r == "nope"]
    else:
        assert "nope" not in m.layer_rope


# ---------------------------------------------------------------- issue 13's failures, exactly
def model(key):
    return read_model_rope(json.dumps(gallery.GALLERY[key]["config"]))


def test_gpt_neox_pythia_stablelm_rotate_a_quarter():
    """rotary_pct / rope_pct 0.25: 12 frequencies for NeoX-20B (not 48), 16 for Pythia 6.9B, 10 for StableLM."""
    for key, head_dim, pairs in (("gpt_neox_20b", 96, 12), ("pythia_6_9b", 128, 16), ("stablelm_3b_4e1t", 80, 10)):
        m = model(key)
        assert (m.head_dim, m.rotary_dim) == (head_dim, 2 * pairs)
        assert m.rope["default"].frequencies()[0].shape == (pairs,)
        assert ("partial", f"{2 * pairs}/{head_dim}") in m.notes


def test_gemma3_27b_local_and_global_bases():
    """No rope_theta in the file: global layers 1e6 x linear 8 (Gemma 3's class default), local 1e4."""
    m = model("gemma3_27b")
    assert m.rope["full_attention"].rope_parameters == {"rope_type": "linear", "rope_theta": 1e6, "factor": 8.0}
    assert m.rope["sliding_attention"].rope_parameters == {"rope_type": "default", "rope_theta": 1e4}
    assert m.layer_rope.count("sliding_attention") == 52 and m.layer_rope.count("full_attention") == 10
    assert m.layer_rope[5] == "full_attention" and m.layer_rope[:5] == ["sliding_attention"] * 5
    assert m.softmax_scale == pytest.approx(math.sqrt(128 / 168))


@pytest.mark.parametrize("key", ["phi3_mini_128k", "phi35_mini"])
def test_phi3_longrope_below_and_above_the_original_length(key):
    m = model(key)
    lr = m.rope["default"]
    p = lr.rope_parameters
    assert p["rope_type"] == "longrope" and p["original_max_position_embeddings"] == 4096
    assert p["factor"] == 131072 / 4096 and (m.trained_length, m.max_length) == (4096, 131072)
    short, a = lr.frequencies(seq_len=4096)
    long, a2 = lr.frequencies(seq_len=4097)
    theta = rope_frequencies(96, {"rope_type": "default", "rope_theta": 1e4})[0]
    torch.testing.assert_close(short, theta / torch.tensor(p["short_factor"]), rtol=1e-6, atol=0)
    torch.testing.assert_close(long, theta / torch.tensor(p["long_factor"]), rtol=1e-6, atol=0)
    assert a == a2 == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))
    assert torch.equal(lr.frequencies()[0], short)


@pytest.mark.parametrize("key", ["qwen2_vl_7b", "qwen25_vl_7b"])
def test_qwen_vl_mrope_sections_over_plain_rope(key):
    m = model(key)
    assert m.mrope_section == [16, 24, 24] and sum(m.mrope_section) == m.rotary_dim // 2
    inv, a = m.rope["default"].frequencies()
    torch.testing.assert_close(inv, rope_frequencies(128, {"rope_type": "default", "rope_theta": 1e6})[0])


def test_gptj_legacy_keys():
    m = model("gptj_6b")
    assert (m.head_dim, m.rotary_dim, m.layout) == (256, 64, "interleaved")
    assert m.rope["default"].rope_parameters == {"rope_type": "default", "rope_theta": 10000.0}


def test_llama4_scout_equal_band_factors_nope_and_temperature():
    m = model("llama4_scout")
    p = m.rope["default"].rope_parameters
    assert p["low_freq_factor"] == p["high_freq_factor"] == 1.0
    assert [i for i, r in enumerate(m.layer_rope) if r == "nope"] == list(range(3, 48, 4))
    assert m.query_temperature == {"floor_scale": 8192.0, "attn_scale": 0.1}


@pytest.mark.parametrize("key, scale", [("deepseek_v2", 1.5896), ("deepseek_v2_lite", 1.5896), ("deepseek_v3", 1.8739)])
def test_deepseek_softmax_scale(key, scale):
    m = model(key)
    assert m.softmax_scale == pytest.approx(scale, abs=5e-5)
    assert (m.head_dim, m.rotary_dim, m.trained_length, m.max_length) == (192, 64, 4096, 163840)
    assert m.rope["default"].frequencies()[1] == 1.0          # mscale / mscale_all_dim = 1 on cos and sin


def test_transformers_class_defaults_for_rope_theta():
    """Each config class has its own default base (a file without rope_theta)."""
    for mt, want in (("gemma3_text", 1e6), ("cohere", 5e5), ("llama4_text", 5e5), ("mixtral", 1e6),
                     ("qwen2_vl", 1e6)):
        m = read_model_rope({"model_type": mt, "hidden_size": 512, "num_attention_heads": 4, "head_dim": 128,
                             "num_hidden_layers": 6})
        rope = m.rope.get("full_attention", m.rope.get("default"))
        assert rope.rope_parameters["rope_theta"] == want, mt
