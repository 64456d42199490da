"""posviz.pe.mla: MLA's decoupled RoPE. Absorbing W_UK into the query is exact without RoPE and with the
decoupled rotated part, and wrong when RoPE rotates the whole key; the scores equal transformers' own
DeepseekV3Attention (random weights, its YaRN rotary embedding, eager attention); the cache per token and the
softmax scale (YaRN's mscale squared: 1.874 for V3) equal the published configs and transformers' attention."""
import logging
import math

import numpy as np
import pytest
import torch
from transformers.models.deepseek_v2 import DeepseekV2Config
from transformers.models.deepseek_v2.modeling_deepseek_v2 import DeepseekV2Attention
from transformers.models.deepseek_v3 import DeepseekV3Config
from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3Attention, DeepseekV3RotaryEmbedding

from posviz.pe import mla
from posviz.pe import models as gallery
from posviz.validate import PosvizError

logging.getLogger("transformers").setLevel(logging.ERROR)


def test_absorbing_is_exact_without_rope_and_with_decoupled_rope_only():
    r = mla.absorption_errors()
    assert r["none"]["max"] < 1e-12 and r["decoupled"]["max"] < 1e-12
    whole = r["whole"]["error"]
    assert whole[0] < 1e-6                      # distance 0: R(n - m) = I, the absorbed product is right
    assert whole[1:].min() > 0.1 and r["whole"]["max"] > 1     # any other distance: wrong by the score's own size
    assert list(r["distance"]) == list(range(48))


def test_absorbed_equals_rebuilt_for_any_positions():
    g = torch.Generator().manual_seed(3)
    h, length, dn, dr, dc = 3, 10, 16, 8, 24
    pieces = [torch.randn(h, length, dn, generator=g, dtype=torch.float64),
              torch.randn(h, length, dr, generator=g, dtype=torch.float64),
              torch.randn(length, dc, generator=g, dtype=torch.float64),
              torch.randn(length, dr, generator=g, dtype=torch.float64),
              torch.randn(h, dn, dc, generator=g, dtype=torch.float64)]
    qp, kp = torch.arange(100, 110), torch.arange(length) * 7
    for mode in ("none", "decoupled"):
        a = mla.absorbed_scores(*pieces, q_positions=qp, k_positions=kp, rope=mode)
        b = mla.expanded_scores(*pieces, q_positions=qp, k_positions=kp, rope=mode)
        assert torch.allclose(a, b, rtol=0, atol=1e-11)
    # the decoupled scores depend on positions only through n - m: shift both, nothing changes
    a = mla.expanded_scores(*pieces, q_positions=qp, k_positions=kp)
    b = mla.expanded_scores(*pieces, q_positions=qp + 1000, k_positions=kp + 1000)
    assert torch.allclose(a, b, rtol=0, atol=1e-3)


def _tiny_config(cls=DeepseekV3Config, **rope):
    params = {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 40.0, "mscale": 1.0, "mscale_all_dim": 1.0,
              "original_max_position_embeddings": 64, "beta_fast": 32.0, "beta_slow": 1.0, **rope}
    cfg = cls(hidden_size=64, num_attention_heads=2, num_key_value_heads=2, q_lora_rank=None, kv_lora_rank=24,
              qk_nope_head_dim=16, qk_rope_head_dim=8, v_head_dim=16, max_position_embeddings=2560,
              rope_parameters=params, num_hidden_layers=1)
    cfg._attn_implementation = "eager"
    return cfg


@pytest.mark.parametrize("interleave", [True, False])
def test_scores_equal_transformers_deepseek_v3_attention(interleave):
    """Our decoupled scores (rebuilt and absorbed), scaled and softmaxed, are transformers' attention weights."""
    torch.manual_seed(0)
    cfg = _tiny_config()
    cfg.rope_interleave = interleave
    attn = DeepseekV3Attention(cfg, 0).eval()
    for p in attn.parameters():
        torch.nn.init.normal_(p, std=0.3)
    rotary = DeepseekV3RotaryEmbedding(cfg)
    assert rotary.attention_scaling == 1.0
    length = 12
    hidden = torch.randn(1, length, 64)
    positions = torch.arange(length)[None] * 150                    # far past the original 64: YaRN's frequencies
    with torch.no_grad():
        _, weights = attn(hidden, rotary(hidden, positions), attention_mask=None)
        q = attn.q_proj(hidden).view(length, 2, 24).transpose(0, 1)                   # [H,L,24]
        latent, k_rope = attn.kv_a_proj_with_mqa(hidden)[0].split([24, 8], dim=-1)     # [L,24], [L,8]
        latent = attn.kv_a_layernorm(latent)
        w_uk = attn.kv_b_proj.weight.view(2, 32, 24)[:, :16]                          # [H,d_C,d_c]
    pieces = (q[..., :16], q[..., 16:], latent, k_rope, w_uk)
    # transformers' "half" pairing (rope_interleave=False) is the same rotation on permuted dims: feed our
    # interleaved rotation the pairs (i, i + d/2) as (2i, 2i + 1)
    if not interleave:
        perm = torch.tensor([0, 4, 1, 5, 2, 6, 3, 7])
        pieces = (pieces[0], pieces[1][..., perm], latent, k_rope[..., perm], w_uk)
    scale = mla.mla_softmax_scale({**cfg.to_dict(), "rope_scaling": cfg.rope_parameters})["scale"]
    assert scale == pytest.approx(attn.scaling, rel=1e-12)
    for fn in (mla.expanded_scores, mla.absorbed_scores):
        s = fn(*pieces, q_positions=positions[0], k_positions=positions[0], inv_freq=rotary.inv_freq)
        ours = torch.softmax(s * scale, dim=-1)
        assert torch.allclose(ours, weights[0], rtol=0, atol=2e-6), (fn.__name__, (ours - weights[0]).abs().max())


@pytest.mark.parametrize("key", mla.MLA_MODELS)
def test_softmax_scale_equals_transformers_attention(key):
    cfg = mla.mla_config(key)["config"]
    d = mla.mla_dims(cfg)
    cls, attn_cls = (DeepseekV2Config, DeepseekV2Attention) if cfg["model_type"].startswith("deepseek_v2") else \
        (DeepseekV3Config, DeepseekV3Attention)
    hf = cls(hidden_size=64, num_attention_heads=2, num_key_value_heads=2, q_lora_rank=None,
             kv_lora_rank=d["kv_lora_rank"], qk_nope_head_dim=d["qk_nope_head_dim"],
             qk_rope_head_dim=d["qk_rope_head_dim"], v_head_dim=d["v_head_dim"], num_hidden_layers=1,
             max_position_embeddings=cfg["max_position_embeddings"], rope_theta=cfg["rope_theta"],
             rope_scaling=cfg["rope_scaling"])
    with torch.device("meta"):
        attn = attn_cls(hf, 0)
    assert mla.mla_softmax_scale(cfg)["scale"] == pytest.approx(attn.scaling, rel=1e-12)


def test_v3_numbers():
    cfg = mla.mla_config("deepseek_v3")["config"]
    assert cfg == gallery.GALLERY["deepseek_v3"]["config"]
    s = mla.mla_softmax_scale(cfg)
    assert s["qk_head_dim"] == 192 and round(s["factor"], 3) == 1.874
    assert s["factor"] == pytest.approx((0.1 * 1.0 * math.log(40) + 1) ** 2, rel=1e-15)
    c = mla.mla_cache_per_token(cfg)
    assert (c["latent"], c["rope"], c["mla"], c["mha"], c["expanded"]) == (512, 64, 576, 32768, 40960)
    assert c["layers"] == 61 and round(c["ratio"], 1) == 56.9


def test_configs_and_extras():
    assert set(mla.MLA_MODELS) - set(gallery.KEYS) <= set(mla.EXTRA_CONFIGS)
    for key in mla.MLA_MODELS:
        m = mla.mla_config(key)
        assert m["source"].startswith("https://huggingface.co/") and m["name"]
        assert mla.mla_dims(m["config"])["kv_lora_rank"] == 512
    assert mla.mla_softmax_scale(mla.mla_config("deepseek_v2")["config"])["factor"] == pytest.approx(1.5896, abs=1e-4)


@pytest.mark.parametrize("config, code", [
    ("x", "config_type"),
    ({"num_attention_heads": 2}, "mla_field"),
    ({**gallery.GALLERY["deepseek_v3"]["config"], "qk_rope_head_dim": 63}, "even"),
    ({**gallery.GALLERY["deepseek_v3"]["config"], "kv_lora_rank": 10**6}, "range"),
])
def test_bad_configs(config, code):
    with pytest.raises(PosvizError) as e:
        mla.mla_cache_per_token(config)
    assert e.value.code == code and e.value.message("zh")


def test_bad_pieces_and_modes():
    ok = [np.zeros((2, 3, 4)), np.zeros((2, 3, 2)), np.zeros((3, 5)), np.zeros((3, 2)), np.zeros((2, 4, 5))]
    ok = [torch.tensor(a) for a in ok]
    mla.absorbed_scores(*ok, q_positions=[0, 1, 2], k_positions=[0, 1, 2])
    with pytest.raises(PosvizError) as e:
        mla.absorbed_scores(*ok[:4], torch.zeros(2, 4, 6, dtype=torch.float64), q_positions=[0, 1, 2],
                            k_positions=[0, 1, 2])
    assert e.value.code == "mla_shapes"
    with pytest.raises(PosvizError) as e:
        mla.expanded_scores(*ok, q_positions=[0, 1, 2], k_positions=[0, 1, 2], rope="all")
    assert e.value.code == "choice"
    with pytest.raises(PosvizError) as e:
        mla.absorption_errors(length=10**6)
    assert e.value.code == "range"
