"""Every gallery model against its own modules in transformers: the rotary embedding built from the
config class (no weights, no download) for inv_freq and attention scaling per layer type and the
rotary width; the attention module (built on the meta device) for the softmax scale and NoPE
layers. posviz's numbers come from posviz.pe.scaling; transformers is only the reference here.
Also the exact configs of issue 13's failures, legacy keys, and LongRoPE around its switch."""
import copy
import importlib
import inspect
import json
import logging
import math

import pytest
import torch
from transformers import AutoConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

from posviz.pe import models as gallery
from posviz.pe import rope_config
from posviz.pe.rope_config import read_model_rope
from posviz.pe.scaling import rope_frequencies
from posviz.validate import PosvizError

logging.getLogger("transformers").setLevel(logging.ERROR)
RTOL = 1e-6
# Attention class of each text model type of the gallery (built on the meta device: its softmax scale, NoPE layers).
ATTENTION = {"llama": "LlamaAttention", "mistral": "MistralAttention", "mixtral": "MixtralAttention",
             "qwen2": "Qwen2Attention", "qwen3": "Qwen3Attention", "qwen2_vl_text": "Qwen2VLAttention",
             "qwen2_5_vl_text": "Qwen2_5_VLAttention", "gemma2": "Gemma2Attention", "gemma3_text": "Gemma3Attention",
             "phi": "PhiAttention", "phi3": "Phi3Attention", "gpt_neox": "GPTNeoXAttention",
             "gptj": "GPTJAttention", "stablelm": "StableLmAttention", "deepseek_v2": "DeepseekV2Attention",
             "deepseek_v3": "DeepseekV3Attention", "gpt_oss": "GptOssAttention", "cohere": "CohereAttention",
             "olmo2": "Olmo2Attention", "llama4_text": "Llama4TextAttention", "qwen3_next": "Qwen3NextAttention",
             "gemma4_text": "Gemma4TextAttention", "gemma3n_text": "Gemma3nTextAttention",
             "deepseek_v32": "DeepseekV32Attention", "deepseek_v4": "DeepseekV4Attention",
             "qwen3_5_moe_text": "Qwen3_5MoeAttention", "qwen3_vl_text": "Qwen3VLTextAttention",
             "smollm3": "SmolLM3Attention", "cohere2": "Cohere2Attention", "glm4_moe": "Glm4MoeAttention",
             "qwen3_moe": "Qwen3MoeAttention"}
ROPE_KEYS = [k for k in gallery.KEYS if read_model_rope(copy.deepcopy(gallery.GALLERY[k]["config"])).rope]


def text_config(config):
    cfg = copy.deepcopy(config)
    return AutoConfig.for_model(cfg.pop("model_type"), **cfg).get_text_config(decoder=True)


def modeling(tc):
    """The modeling module of a text config (Mistral 3's text model is Mistral's, Kimi K2.5's DeepSeek-V3's)."""
    return importlib.import_module(type(tc).__module__.replace(".configuration_", ".modeling_"))


def rotary_class(tc):
    """The text rotary-embedding class defined in the model's module (not its vision / audio one)."""
    module = modeling(tc)
    found = [c for n, c in vars(module).items() if isinstance(c, type) and n.endswith("RotaryEmbedding")
             and c.__module__ == module.__name__ and "Vision" not in n and "Audio" not in n]
    return next((c for c in found if "Text" in c.__name__), found[0])


def reference(config):
    """{layer type: (inv_freq, attention scaling)} of the model's rotary module."""
    tc = text_config(config)
    emb = rotary_class(tc)(tc)
    if tc.model_type == "gptj":   # sin/cos table: the angle at position 1 is theta_i
        table = emb.embed_positions[1].double()
        half = table.shape[0] // 2
        return tc, {"default": (torch.atan2(table[:half], table[half:]), 1.0)}
    if hasattr(emb, "inv_freq"):
        return tc, {"default": (emb.inv_freq, float(emb.attention_scaling))}
    return tc, {lt: (getattr(emb, f"{lt}_inv_freq"), float(getattr(emb, f"{lt}_attention_scaling")))
                for lt in emb.layer_types if hasattr(emb, f"{lt}_inv_freq")}


def rel(a, b):
    a, b = torch.as_tensor(a, dtype=torch.float64), torch.as_tensor(b, dtype=torch.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    nz = b != 0                                    # proportional RoPE's unrotated pairs: exactly 0 in both
    assert torch.equal(a[~nz], b[~nz])
    return float(((a[nz] - b[nz]).abs() / b[nz].abs()).max())


def attention_modules(config, tc):
    cls = getattr(modeling(tc), ATTENTION[tc.model_type])
    with torch.device("meta"):
        return [cls(tc, layer_idx=i) for i in range(tc.num_hidden_layers)
                if not (getattr(tc, "layer_types", None) and tc.layer_types[i] == "linear_attention")]


@pytest.mark.parametrize("key", ROPE_KEYS)
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


@pytest.mark.parametrize("key", ROPE_KEYS)
def test_gallery_model_softmax_scale_nope_layers_and_head_dim(key):
    config = gallery.GALLERY[key]["config"]
    m = read_model_rope(copy.deepcopy(config))
    tc = text_config(config)
    attns = attention_modules(config, tc)
    for attn in attns:
        assert attn.scaling == pytest.approx(m.softmax_scale / math.sqrt(m.head_dim), rel=1e-12), key
        lr = m.rope.get(m.layer_rope[attn.layer_idx])            # per layer type: its own width and scale
        if lr is not None:
            width = next(getattr(attn, a) for a in ("qk_head_dim", "head_dim", "head_size") if hasattr(attn, a))
            assert width == lr.attn_dim and attn.scaling == pytest.approx(
                lr.softmax_scale / math.sqrt(lr.attn_dim), rel=1e-12), (key, attn.layer_idx)
    assert len(m.layer_rope) == tc.num_hidden_layers
    nope_types = {"smollm3", "cohere2"}
    if tc.model_type in nope_types:
        uses = [getattr(a, "use_rope", None) for a in attns]
        if tc.model_type == "cohere2":                            # Cohere2's forward rotates only windowed layers
            uses = [a.sliding_window is not None for a in attns]
        assert [i for i, u in enumerate(uses) if not u] == [i for i, r in enumerate(m.layer_rope) if r == "nope"]
    elif tc.model_type in ("qwen3_5_moe_text",):
        assert [i for i, k in enumerate(tc.layer_types) if k == "linear_attention"] == \
            [i for i, r in enumerate(m.layer_rope) if r == "nope"]
    elif config["model_type"] == "llama4":
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


# ---------------------------------------------------------------- issue 23: today's models, exactly
def test_gemma4_proportional_rope_against_transformers():
    """Gemma 4's global layers: 64 of 256 pairs rotate at the frequencies of a 512-wide head (slowest ≈ 0.0334,
    not the ≈ 1.24e-6 of ordinary partial rotary); the other 192 turn at 0. Local layers: plain RoPE on 256."""
    m = model("gemma4_31b")
    full, local = m.rope["full_attention"], m.rope["sliding_attention"]
    assert full.rope_parameters == {"rope_type": "proportional", "rope_theta": 1e6, "partial_rotary_factor": 0.25}
    inv, a = full.frequencies()
    ref, b = ROPE_INIT_FUNCTIONS["proportional"](text_config(gallery.GALLERY["gemma4_31b"]["config"])
                                                 .per_layer_config["full_attention"], None, layer_type="full_attention")
    assert torch.equal(inv, ref) and a == b == 1.0
    assert inv.shape == (256,) and full.rotated_pairs == 64 and int((inv > 0).sum()) == 64
    assert inv[63].item() == pytest.approx(1e6 ** (-126 / 512), rel=1e-6) and f"{inv[63].item():.3f}" == "0.033"
    assert rope_frequencies(128, {"rope_type": "default", "rope_theta": 1e6})[0][63].item() == pytest.approx(
        1.24e-6, rel=2e-3)                                     # what reading it as ordinary partial rotary gives
    assert (full.attn_dim, local.attn_dim) == (512, 256)
    assert (full.softmax_scale, local.softmax_scale) == (math.sqrt(512), 16.0)   # scaling 1.0 on both
    assert m.layer_rope.count("full_attention") == 10 and m.layer_rope[5] == "full_attention"
    assert {m.windows[i] for i, k in enumerate(m.layer_kinds) if k == "sliding_attention"} == {1024}
    assert all(m.windows[i] is None for i, k in enumerate(m.layer_kinds) if k == "full_attention")
    e2b = model("gemma4_e2b")
    assert e2b.layer_rope.count("full_attention") == 7 and set(w for w in e2b.windows if w) == {512}


def test_gemma4_text_config_alone_no_longer_crashes():
    """transformers raises AmbiguousGlobalPerLayerAttributeError (a RuntimeError) for config.head_dim of a
    heterogeneous Gemma 4 text config: posviz reads each layer's own config instead."""
    tc = gallery.GALLERY["gemma4_e2b"]["config"]["text_config"]
    m = read_model_rope(json.dumps(tc))
    assert m.rope["full_attention"].attn_dim == 512 and m.rope["sliding_attention"].attn_dim == 256


def test_gemma3n_softmax_scale_16():
    m = model("gemma3n_e4b")
    assert m.softmax_scale == 16.0 and all(lr.softmax_scale == 16.0 for lr in m.rope.values())
    assert m.rope["full_attention"].rope_parameters["rope_theta"] == 1e6
    assert m.rope["sliding_attention"].rope_parameters["rope_theta"] == 1e4


def test_deepseek_v4_rope_kinds_yarn_and_interleaved_pairs():
    m = model("deepseek_v4_flash")
    assert m.layer_rope.count("main") == 2 and m.layer_rope.count("compress") == 41 and m.layer_rope[:2] == ["main"] * 2
    main, comp = m.rope["main"].rope_parameters, m.rope["compress"].rope_parameters
    assert main == {"rope_type": "default", "rope_theta": 1e4, "partial_rotary_factor": 0.125}
    assert comp["rope_type"] == "yarn" and comp["rope_theta"] == 160000.0 and comp["factor"] == 16
    assert comp["original_max_position_embeddings"] == 65536 and m.rope["compress"].frequencies()[1] == 1.0
    assert (m.head_dim, m.rotary_dim, m.layout, m.placement) == (512, 64, "interleaved", "trailing")
    assert (m.trained_length, m.max_length) == (65536, 1048576) and set(m.windows) == {128}
    assert ("output_rotation", "") in m.notes
    assert set(m.layer_kinds[2:]) == set(rope_config.COMPRESSED_KINDS)


@pytest.mark.parametrize("key, interleaved", [("qwen3_vl_8b", True), ("qwen35_397b", True), ("qwen2_vl_7b", False),
                                              ("qwen25_vl_7b", False)])
def test_mrope_axes_equal_transformers_recomposition(key, interleaved):
    """Which pair follows time, height, width: transformers' rotary module (it recomposes the three axes itself)
    fed position ids t = 1, h = 2, w = 3 at one token -- each pair's angle / θ_i is the position of its axis."""
    m = model(key)
    assert m.mrope_interleaved is interleaved and len(m.mrope_axes) == m.rotary_dim // 2
    tc = text_config(gallery.GALLERY[key]["config"])
    emb = rotary_class(tc)(tc)
    pos = torch.tensor([1, 2, 3]).view(3, 1, 1)                                 # [3, N, L]
    cos, sin = emb(torch.zeros(1, 1, m.rotary_dim), pos)                        # [N, L, d]
    ang = torch.atan2(sin, cos)[0, 0, : m.rotary_dim // 2].double()             # [d/2]
    axes = torch.round(ang / emb.inv_freq.double()).long() - 1                  # [d/2] 0 time, 1 height, 2 width
    assert tuple(axes.tolist()) == m.mrope_axes
    assert [axes.tolist().count(a) for a in (0, 1, 2)] == m.mrope_section


def test_kimi_linear_has_no_rope_and_says_so():
    m = model("kimi_linear")
    assert m.rope == {} and m.no_rope == "linear" and set(m.layer_rope) == {"nope"}
    assert m.layer_kinds.count("full_attention") == 7 and m.layer_kinds.count("linear_attention") == 20
    assert ("no_rope", "linear") in m.notes
    tc = text_config(gallery.GALLERY["kimi_linear"]["config"])
    assert not any(n.endswith("RotaryEmbedding") for n in vars(modeling(tc)))      # transformers: no RoPE either


def test_windows_per_layer_equal_transformers():
    for key, want in (("mistral_7b", {4096}), ("phi3_mini_4k", {2047}), ("gpt_oss_20b", {128, None}),
                      ("gemma2_9b", {4096, None}), ("command_r7b", {4096, None}), ("llama2_7b", {None})):
        m = model(key)
        tc = text_config(gallery.GALLERY[key]["config"])
        assert set(m.windows) == want, key
        for attn in attention_modules(gallery.GALLERY[key]["config"], tc):
            window = getattr(attn, "sliding_window", None)
            if window is None and getattr(attn.config, "sliding_window", None) and "sliding_window=getattr(" in \
                    inspect.getsource(type(attn).forward):            # Mistral, Phi-3: config.sliding_window everywhere
                window = attn.config.sliding_window
            assert window == m.windows[attn.layer_idx], (key, attn.layer_idx)


def test_pasted_edge_cases_follow_the_model():
    """Configs that once needed a rule of posviz's own now follow what transformers makes of them: DeepSeek with
    "factor": null cannot be built by transformers (yarn_get_mscale(None)) -- posviz shows the config's reading,
    marked unverified; a negative query_pre_attn_scalar gives the model a complex softmax scale -- a coded error;
    Qwen3-VL with "mrope_interleaved": "yes" interleaves (the model's code tests it for truth) -- as measured."""
    m = read_model_rope({"model_type": "deepseek_v3", "hidden_size": 512, "num_attention_heads": 4,
                         "num_hidden_layers": 2, "qk_nope_head_dim": 32, "qk_rope_head_dim": 16,
                         "max_position_embeddings": 16384,
                         "rope_scaling": {"type": "yarn", "factor": None, "original_max_position_embeddings": 4096,
                                          "mscale": 1.0, "mscale_all_dim": 1.0}})
    assert m.rope["default"].rope_parameters["factor"] == 4.0 and set(m.layer_rope) == {"unknown"}
    assert [code for code, _ in m.unverified] == ["probe_failed"] and "TypeError" in m.unverified[0][1]
    with pytest.raises(PosvizError) as e:
        read_model_rope({"model_type": "gemma2", "hidden_size": 512, "num_attention_heads": 4,
                         "num_hidden_layers": 2, "head_dim": 128, "query_pre_attn_scalar": -256})
    assert e.value.code == "softmax_scale" and e.value.message("zh") != e.value.message("en")
    m = read_model_rope({"model_type": "qwen3_vl", "text_config": {
        "hidden_size": 512, "num_attention_heads": 4, "head_dim": 128, "num_hidden_layers": 2,
        "rope_scaling": {"rope_type": "default", "mrope_section": [24, 20, 20], "mrope_interleaved": "yes"}}})
    assert m.mrope_scheme == "interleaved" and m.verified


def test_any_exception_while_reading_becomes_a_message(monkeypatch):
    def boom(cfg):
        raise RuntimeError("'head_dim' is a per-layer attribute and may vary across layers")
    monkeypatch.setattr(rope_config, "_read_hf", boom)
    with pytest.raises(PosvizError) as e:
        read_model_rope({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4})
    assert e.value.code == "config_unreadable" and "RuntimeError" in e.value.message("en")
    assert "无法读取" in e.value.message("zh")
