"""posviz.pe.scaling: agreement with transformers' ROPE_INIT_FUNCTIONS for every rope type, and the
hand properties of PI, NTK-aware, dynamic NTK, YaRN, Llama 3 and LongRoPE scaling."""
import itertools
import logging
import math

import pytest
import torch
from transformers import LlamaConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
from transformers.models.phi.modeling_phi import PhiRotaryEmbedding

from posviz.pe import decay, scaling
from posviz.pe.rope import apply_rope, rope_inv_freq
from posviz.pe.scaling import rope_frequencies
from posviz.views import extrapolation as view

logging.getLogger("transformers").setLevel(logging.ERROR)
RTOL = 1e-6


def hf_frequencies(head_dim, params, seq_len=None):
    """The same parameters through a real LlamaConfig and transformers' init functions.

    Mapping (documented in posviz.pe.scaling): head_dim -> config.head_dim; for "dynamic" our
    original_max_position_embeddings is config.max_position_embeddings; for "yarn" / "llama3" /
    "longrope" it stays in rope_parameters and max_position_embeddings = original * factor.
    """
    rp = dict(params)
    heads = 4
    kw = dict(hidden_size=head_dim * heads, num_attention_heads=heads, num_key_value_heads=heads,
              head_dim=head_dim, num_hidden_layers=1, vocab_size=32, intermediate_size=16)
    rt = rp["rope_type"]
    if rt == "dynamic":
        kw["max_position_embeddings"] = rp.pop("original_max_position_embeddings")
    elif rt in ("yarn", "llama3", "longrope"):
        kw["max_position_embeddings"] = int(rp["original_max_position_embeddings"] * rp["factor"])
    else:
        kw["max_position_embeddings"] = 4096
    cfg = LlamaConfig(rope_parameters=rp, **kw)
    if rt == "default":   # Llama's default ignores partial_rotary_factor; Phi's (same formula) applies it
        if "partial_rotary_factor" in rp:
            return PhiRotaryEmbedding.compute_default_rope_parameters(cfg)
        return LlamaRotaryEmbedding.compute_default_rope_parameters(cfg)
    return ROPE_INIT_FUNCTIONS[rt](cfg, "cpu", seq_len=seq_len)


def assert_same(head_dim, params, seq_len=None):
    ours, a = rope_frequencies(head_dim, params, seq_len=seq_len)
    ref, b = hf_frequencies(head_dim, params, seq_len)
    assert ours.dtype == torch.float32 and ours.shape == (scaling.rotary_width(head_dim, params) // 2,)
    torch.testing.assert_close(ours, ref.to(torch.float32), rtol=RTOL, atol=0.0)
    assert a == pytest.approx(float(b), rel=1e-12)


GRID = list(itertools.product((16, 64, 96, 128), (1e4, 5e5, 1e6), (1.0, 2.0, 8.0, 40.0), (2048, 8192, 32768)))


def test_default_matches_transformers():
    for d, b in itertools.product((2, 8, 16, 64, 80, 96, 128, 256), (2.0, 1e4, 5e5, 1e6, 1e8)):
        assert_same(d, {"rope_type": "default", "rope_theta": b})


def test_linear_matches_transformers():
    for d, b, s, _ in GRID:
        assert_same(d, {"rope_type": "linear", "rope_theta": b, "factor": s})


def test_dynamic_matches_transformers_at_every_seq_len():
    for d, b, s, L0 in GRID:
        p = {"rope_type": "dynamic", "rope_theta": b, "factor": s, "original_max_position_embeddings": L0}
        for seq_len in (None, 1, L0 - 1, L0, L0 + 1, 3 * L0, 16 * L0):
            assert_same(d, p, seq_len)


def test_yarn_matches_transformers():
    for d, b, s, L0 in GRID:
        base = {"rope_type": "yarn", "rope_theta": b, "factor": s, "original_max_position_embeddings": L0}
        for extra in ({}, {"beta_fast": 16, "beta_slow": 2}, {"truncate": False},
                      {"mscale": 1.0, "mscale_all_dim": 1.0}, {"mscale": 0.707, "mscale_all_dim": 1.0},
                      {"mscale": 1.0}, {"mscale_all_dim": 1.0}, {"attention_factor": 0.5},
                      {"beta_fast": 4.0, "beta_slow": 4.0}):
            assert_same(d, {**base, **extra})


def test_llama3_matches_transformers():
    for d, b, s, L0 in GRID:
        for lo, hi in ((1.0, 4.0), (1.0, 2.0), (0.5, 8.0), (2.0, 3.0)):
            assert_same(d, {"rope_type": "llama3", "rope_theta": b, "factor": s,
                            "original_max_position_embeddings": L0, "low_freq_factor": lo,
                            "high_freq_factor": hi})


def test_llama3_equal_band_factors_like_llama4():
    """low_freq_factor == high_freq_factor (Llama 4 Scout: 1 and 1): accepted, no smoothed band."""
    for d, b, s, L0 in GRID:
        assert_same(d, {"rope_type": "llama3", "rope_theta": b, "factor": s, "original_max_position_embeddings": L0,
                        "low_freq_factor": 1.0, "high_freq_factor": 1.0})
    p = {"rope_type": "llama3", "rope_theta": 5e5, "factor": 16.0, "original_max_position_embeddings": 8192,
         "low_freq_factor": 1.0, "high_freq_factor": 1.0}
    assert not (scaling.llama3_bands(128, p) == 1).any()


def test_longrope_matches_transformers_below_and_above_the_original_length():
    for d, b, s, L0 in GRID:
        n = d // 2
        p = {"rope_type": "longrope", "rope_theta": b, "factor": s, "original_max_position_embeddings": L0,
             "short_factor": [1.0 + 0.05 * i for i in range(n)], "long_factor": [1.0 + 1.5 * i for i in range(n)]}
        for seq_len in (None, 1, L0, L0 + 1, 8 * L0):
            assert_same(d, p, seq_len)
        assert_same(d, {**p, "attention_factor": 1.25}, L0 + 1)


def test_longrope_switch_and_attention_factor():
    n = 32
    p = {"rope_type": "longrope", "rope_theta": 1e4, "factor": 32.0, "original_max_position_embeddings": 4096,
         "short_factor": [1.5] * n, "long_factor": [4.0] * n}
    theta = rope_inv_freq(64, 1e4)
    short, a = rope_frequencies(64, p, seq_len=4096)
    long, a2 = rope_frequencies(64, p, seq_len=4097)
    torch.testing.assert_close(short, theta / 1.5, rtol=1e-6, atol=0)
    torch.testing.assert_close(long, theta / 4.0, rtol=1e-6, atol=0)
    assert a == a2 == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))
    assert rope_frequencies(64, {**p, "factor": 1.0})[1] == 1.0


@pytest.mark.parametrize("head_dim, prf", itertools.product((64, 128, 256, 512), (0.125, 0.25, 0.5, 1.0)))
def test_proportional_matches_transformers(head_dim, prf):
    """rope_type "proportional" (Gemma 4): D/2 frequencies, the first int(p D // 2) at b^(-2i/D) / factor,
    the rest exactly 0 -- equal to transformers' ROPE_INIT_FUNCTIONS["proportional"] bit for bit."""
    for base, factor in itertools.product((1e4, 1e6), (None, 1.0, 8.0)):
        params = {"rope_type": "proportional", "rope_theta": base, "partial_rotary_factor": prf}
        if factor is not None:
            params["factor"] = factor
        ours, a = rope_frequencies(head_dim, params)
        ref, b = hf_frequencies(head_dim, params)
        assert ours.shape == (head_dim // 2,) and torch.equal(ours, ref.to(torch.float32)) and a == b == 1.0
        k = scaling.proportional_pairs(head_dim, prf)
        assert int((ours > 0).sum()) == k and scaling.rotary_width(head_dim, params) == head_dim
        torch.testing.assert_close(ours, scaling.proportional_inv_freq(head_dim, prf, base, factor or 1.0), rtol=0,
                                   atol=0)


def test_proportional_is_not_partial_rotary():
    """The same fields read as ordinary partial rotary: the same number of pairs turn, but b^(-2i/(pD)) instead
    of b^(-2i/D) -- Gemma 4's slowest rotated pair 1.24e-6 instead of 0.0334 -- and other dims rotate."""
    prop = scaling.proportional_inv_freq(512, 0.25, 1e6)
    part = scaling.partial_inv_freq(512, 0.25, 1e6)
    assert prop.shape == part.shape == (256,) and int((prop > 0).sum()) == int((part > 0).sum()) == 64
    assert prop[63].item() == pytest.approx(1e6 ** (-126 / 512), rel=1e-6)
    assert part[63].item() == pytest.approx(1e6 ** (-126 / 128), rel=1e-6)
    torch.testing.assert_close(part[:64], rope_frequencies(128, {"rope_type": "default", "rope_theta": 1e6})[0])
    pm, qm = scaling.rotated_dims(512, 0.25, "proportional"), scaling.rotated_dims(512, 0.25, "partial")
    assert pm.sum() == qm.sum() == 128
    assert pm.nonzero().flatten().tolist() == list(range(64)) + list(range(256, 320))
    assert qm.nonzero().flatten().tolist() == list(range(128))
    # proportional == ordinary RoPE of width 2k with base b^(2k/D), up to float32 rounding
    eq = rope_frequencies(128, {"rope_type": "default", "rope_theta": 1e6 ** 0.25})[0]
    torch.testing.assert_close(eq, prop[:64], rtol=2e-6, atol=0)


def test_partial_rotary_factor_as_transformers():
    """partial_rotary_factor in the dict: the rotary width is int(head_dim * factor), as in transformers."""
    for d, prf in ((96, 0.25), (80, 0.4), (128, 0.75), (256, 0.25), (128, 0.5)):
        for params in ({"rope_type": "default", "rope_theta": 1e4},
                       {"rope_type": "linear", "rope_theta": 1e4, "factor": 4.0},
                       {"rope_type": "yarn", "rope_theta": 1e6, "factor": 4.0,
                        "original_max_position_embeddings": 4096}):
            assert_same(d, {**params, "partial_rotary_factor": prf})
    with pytest.raises(ValueError, match="partial_rotary_factor|rotary"):
        rope_frequencies(10, {"rope_type": "default", "rope_theta": 1e4, "partial_rotary_factor": 0.3})


def test_llama31_8b_numbers():
    """Llama 3.1 8B: the published parameters through a full LlamaConfig (rope_scaling spelling)."""
    cfg = LlamaConfig(hidden_size=4096, num_attention_heads=32, num_key_value_heads=8, num_hidden_layers=1,
                      vocab_size=32, intermediate_size=16, max_position_embeddings=131072, rope_theta=500000.0,
                      rope_scaling={"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                                    "original_max_position_embeddings": 8192, "rope_type": "llama3"})
    ref, _ = ROPE_INIT_FUNCTIONS["llama3"](cfg, "cpu")
    ours, a = rope_frequencies(128, {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
                                     "original_max_position_embeddings": 8192, "low_freq_factor": 1.0,
                                     "high_freq_factor": 4.0})
    torch.testing.assert_close(ours, ref, rtol=RTOL, atol=0.0)
    assert a == 1.0


# ---------------------------------------------------------------- hand properties
def test_pi_equals_dividing_positions_by_s():
    """apply_rope with linear inv_freq at p equals default RoPE at p / s."""
    torch.manual_seed(0)
    x = torch.randn(1, 2, 12, 64, dtype=torch.float64)
    p = torch.arange(0, 12 * 37, 37)
    for s in (2.0, 4.0, 8.0):
        lin, _ = rope_frequencies(64, {"rope_type": "linear", "rope_theta": 1e4, "factor": s})
        default, _ = rope_frequencies(64, {"rope_type": "default", "rope_theta": 1e4})
        a = apply_rope(x, p, inv_freq=lin)
        b = apply_rope(x, p.to(torch.float64) / s, inv_freq=default)
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(lin, default / s, rtol=1e-7, atol=0)


def test_ntk_keeps_theta0_and_divides_the_lowest_by_s():
    for d, b, s in itertools.product((16, 64, 128), (1e4, 5e5), (2.0, 4.0, 8.0, 40.0)):
        b2 = scaling.ntk_aware_base(b, s, d)
        assert b2 == pytest.approx(b * s ** (d / (d - 2)), rel=1e-12)
        new = rope_inv_freq(d, b2).double()
        old = rope_inv_freq(d, b).double()
        assert new[0] == old[0] == 1.0
        assert float(new[-1]) == pytest.approx(float(old[-1]) / s, rel=1e-6)
        assert bool((new <= old * (1 + 1e-7)).all())              # every pair slowed, never sped up


def test_ntk_worked_example():
    """d = 128, b = 10000, s = 4: b' = 10000 * 4^(128/126) = 40,890.25..."""
    assert scaling.ntk_aware_base(10000.0, 4.0, 128) == pytest.approx(10000 * 4 ** (64 / 63), rel=1e-12)
    assert scaling.ntk_aware_base(10000.0, 4.0, 128) == pytest.approx(40890.2, rel=1e-5)


def test_yarn_attention_factor_is_0_1_ln_s_plus_1():
    for s in (1.5, 2.0, 4.0, 16.0, 40.0):
        _, a = rope_frequencies(64, {"rope_type": "yarn", "rope_theta": 1e4, "factor": s,
                                     "original_max_position_embeddings": 4096})
        assert a == pytest.approx(0.1 * math.log(s) + 1, rel=1e-12)
    assert scaling.yarn_get_mscale(4.0) == pytest.approx(1.1386294361, rel=1e-9)
    assert scaling.yarn_get_mscale(1.0) == 1.0 and scaling.yarn_get_mscale(0.5) == 1.0
    # DeepSeek-V3: mscale = mscale_all_dim -> ratio 1
    _, a = rope_frequencies(64, {"rope_type": "yarn", "rope_theta": 1e4, "factor": 40,
                                 "original_max_position_embeddings": 4096, "mscale": 1.0, "mscale_all_dim": 1.0})
    assert a == 1.0


def test_yarn_keeps_fast_pairs_interpolates_slow_pairs():
    p = {"rope_type": "yarn", "rope_theta": 1e6, "factor": 4.0, "original_max_position_embeddings": 32768}
    inv, _ = rope_frequencies(128, p)
    theta = rope_frequencies(128, {"rope_type": "default", "rope_theta": 1e6})[0]
    ramp, low, high = scaling.yarn_ramp(128, p)
    # hand: i(beta) = d ln(L0 / (2 pi beta)) / (2 ln b)
    i_fast = 128 * math.log(32768 / (2 * math.pi * 32)) / (2 * math.log(1e6))
    i_slow = 128 * math.log(32768 / (2 * math.pi * 1)) / (2 * math.log(1e6))
    assert (low, high) == (math.floor(i_fast), math.ceil(i_slow))
    assert torch.equal(inv[: low + 1], theta[: low + 1])
    torch.testing.assert_close(inv[high:], theta[high:] / 4, rtol=1e-6, atol=0)
    assert bool(((inv[low:high] <= theta[low:high]) & (inv[low:high] >= theta[low:high] / 4 * 0.999999)).all())


def test_llama3_high_untouched_low_divided():
    p = {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "original_max_position_embeddings": 8192,
         "low_freq_factor": 1.0, "high_freq_factor": 4.0}
    inv, _ = rope_frequencies(128, p)
    theta = rope_frequencies(128, {"rope_type": "default", "rope_theta": 500000.0})[0]
    bands = scaling.llama3_bands(128, p)
    lam = 2 * math.pi / theta.double()
    assert torch.equal(bands == 0, lam < 8192 / 4)
    assert torch.equal(bands == 2, lam > 8192 / 1)
    assert torch.equal(inv[bands == 0], theta[bands == 0])
    torch.testing.assert_close(inv[bands == 2], theta[bands == 2] / 8, rtol=1e-7, atol=0)
    mid = bands == 1
    assert mid.any() and bool(((inv[mid] < theta[mid]) & (inv[mid] > theta[mid] / 8)).all())
    # the ratio bands of the page agree with Llama 3's own bands
    assert torch.equal(scaling.band_of_ratio(scaling.frequency_ratio(inv, theta), 8.0), bands)
    assert (bands == 0).sum() == 29 and (bands == 1).sum() == 6 and (bands == 2).sum() == 29


def test_dynamic_equals_default_up_to_original_length():
    p = {"rope_type": "dynamic", "rope_theta": 1e4, "factor": 4.0, "original_max_position_embeddings": 4096}
    default, _ = rope_frequencies(64, {"rope_type": "default", "rope_theta": 1e4})
    for seq_len in (None, 1, 100, 4095, 4096):
        inv, a = rope_frequencies(64, p, seq_len=seq_len)
        torch.testing.assert_close(inv, default, rtol=1e-7, atol=0)
        assert a == 1.0
    # beyond: the NTK base with s_eff = s L / L0 - (s - 1); at L = 2 L0, s = 4: 5
    inv, _ = rope_frequencies(64, p, seq_len=8192)
    torch.testing.assert_close(inv, rope_inv_freq(64, 1e4 * 5 ** (64 / 62)), rtol=1e-6, atol=0)


def test_phase_coverage_never_seen_are_the_long_wavelengths():
    theta = rope_frequencies(128, {"rope_type": "default", "rope_theta": 1e4})[0]
    seen, needed, never = scaling.phase_coverage(theta, theta, 4096, 16384)
    lam = scaling.pair_wavelengths(theta)
    assert torch.equal(never, lam > 4096)
    assert int(never.sum()) == int((lam > 4096).sum()) > 0
    assert bool((seen[lam <= 4096] == 1).all())
    # PI: nothing new at the target; NTK-aware: the slowest pair is back in range
    pi = rope_frequencies(128, {"rope_type": "linear", "rope_theta": 1e4, "factor": 4.0})[0]
    assert not scaling.phase_coverage(theta, pi, 4096, 16384)[2].any()
    ntk = rope_inv_freq(128, scaling.ntk_aware_base(1e4, 4.0, 128))
    assert not scaling.phase_coverage(theta, ntk, 4096, 16384)[2][-1]
    # no extrapolation -> nothing never-seen
    assert not scaling.phase_coverage(theta, theta, 4096, 4096)[2].any()


def test_wavelength_worked_numbers():
    """pair 0 turns once every 2 pi positions; the slowest pair of Llama 2 every 2 pi 10000^(126/128)."""
    lam = scaling.pair_wavelengths(rope_frequencies(128, {"rope_type": "default", "rope_theta": 1e4})[0])
    assert float(lam[0]) == pytest.approx(2 * math.pi)
    assert float(lam[-1]) == pytest.approx(2 * math.pi * 1e4 ** (126 / 128), rel=1e-6)
    assert int((lam > 4096).sum()) == 18                      # Llama 2: pairs 46..63 never turn in 4K


def test_ones_score_matches_apply_rope_and_pe_decay():
    inv, a = rope_frequencies(32, {"rope_type": "yarn", "rope_theta": 1e4, "factor": 8.0,
                                   "original_max_position_embeddings": 256})
    r = torch.tensor([0, 1, 5, 100, 2000])
    got = scaling.ones_score(inv, r, a)
    q = torch.ones(1, 1, 1, 32, dtype=torch.float64)
    for j, dist in enumerate(r.tolist()):
        qr = apply_rope(q, torch.tensor([7]), inv_freq=inv, attention_factor=a)
        kr = apply_rope(q, torch.tensor([7 + dist]), inv_freq=inv, attention_factor=a)
        assert float((qr * kr).sum() / 32) == pytest.approx(float(got[j]), abs=1e-5)
    assert float(got[0]) == pytest.approx(a * a)
    # unscaled: the same curve as posviz.pe.decay's q = k = 1 score, normalised by d
    theta = rope_inv_freq(64, 1e4)
    torch.testing.assert_close(scaling.ones_score(theta, r), decay.ones_score_curve(64, r) / 64, rtol=1e-9, atol=1e-12)


def test_log_distances():
    r = scaling.log_distances(131072, 1200)
    assert r[0] == 0 and r[-1] == 131072 and torch.equal(r[:65], torch.arange(65))
    assert bool((r[1:] > r[:-1]).all()) and len(r) < 1300
    assert torch.equal(scaling.log_distances(10), torch.arange(11))


def test_method_parameters_and_view():
    for m in scaling.SCALING_METHODS:
        params, seq = scaling.method_parameters(m, 128, 1e4, 4096, 16384)
        inv, _ = rope_frequencies(128, params, seq_len=seq)
        assert inv.shape == (64,)
    assert scaling.method_parameters("ntk", 128, 1e4, 4096, 16384)[0]["rope_theta"] == pytest.approx(
        scaling.ntk_aware_base(1e4, 4.0, 128))
    assert scaling.comparison_factor(4096, 1024) == 1.0
    v = view.analysis(128, '{"rope_type": "default", "rope_theta": 10000.0}', 4096, 16384, "default")
    assert int(v["never_seen"].sum()) == 18 and v["s"] == 4.0
    assert set(v["curves"]) == set(scaling.SCALING_METHODS) | {"model"}
    v = view.analysis(128, '{"rope_type": "default", "rope_theta": 10000.0}', 4096, 16384, "linear")
    assert int(v["never_seen"].sum()) == 0 and bool((v["bands"] == 2).all())


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize("head_dim, params, name", [
    (64, {"rope_type": "linear", "rope_theta": 1e4, "factor": 0.5}, "factor"),
    (64, {"rope_type": "yarn", "rope_theta": 1e4, "factor": 0.99, "original_max_position_embeddings": 8}, "factor"),
    (64, {"rope_type": "longrope", "rope_theta": 1e4}, "rope_type"),
    (64, {"rope_type": "longrope", "rope_theta": 1e4, "factor": 2.0, "original_max_position_embeddings": 8,
          "short_factor": [1.0] * 31, "long_factor": [1.0] * 32}, "short_factor"),
    (64, {"rope_type": "longrope", "rope_theta": 1e4, "factor": 2.0, "original_max_position_embeddings": 8,
          "short_factor": [1.0] * 32, "long_factor": [1.0] * 31 + [-1.0]}, "long_factor"),
    (64, {"rope_type": "rope3d", "rope_theta": 1e4}, "rope_type"),
    (64, {"rope_theta": 1e4}, "rope_type"),
    (64, {"rope_type": "linear", "rope_theta": 1e4}, "factor"),
    (64, {"rope_type": "yarn", "rope_theta": 1e4, "factor": 2.0}, "original_max_position_embeddings"),
    (64, {"rope_type": "llama3", "rope_theta": 1e4, "factor": 2.0, "original_max_position_embeddings": 8,
          "low_freq_factor": 1.0}, "high_freq_factor"),
    (64, {"rope_type": "llama3", "rope_theta": 1e4, "factor": 2.0, "original_max_position_embeddings": 8,
          "low_freq_factor": 4.0, "high_freq_factor": 1.0}, "high_freq_factor"),
    (64, {"rope_type": "default"}, "rope_theta"),
    (63, {"rope_type": "default", "rope_theta": 1e4}, "head_dim"),
    (0, {"rope_type": "default", "rope_theta": 1e4}, "head_dim"),
    (64, {"rope_type": "default", "rope_theta": 1.0}, "rope_theta"),
    (64, {"rope_type": "default", "rope_theta": 0.5}, "rope_theta"),
    (64, {"rope_type": "default", "rope_theta": float("nan")}, "rope_theta"),
    (64, {"rope_type": "default", "rope_theta": 1e4, "fcator": 2}, "fcator"),
    (64, {"rope_type": "yarn", "rope_theta": 1e4, "factor": 2.0, "original_max_position_embeddings": 8,
          "truncate": "yes"}, "truncate"),
    (64, {"rope_type": "yarn", "rope_theta": 1e4, "factor": 2.0, "original_max_position_embeddings": 8,
          "beta_fast": 1, "beta_slow": 32}, "beta_fast"),
    (2, {"rope_type": "dynamic", "rope_theta": 1e4, "factor": 2.0, "original_max_position_embeddings": 8},
     "head_dim"),
    (64, "default", "rope_parameters"),
])
def test_invalid_parameters_name_the_parameter(head_dim, params, name):
    with pytest.raises(ValueError, match=name):
        rope_frequencies(head_dim, params)


def test_invalid_other_arguments():
    ok = {"rope_type": "dynamic", "rope_theta": 1e4, "factor": 2.0, "original_max_position_embeddings": 8}
    with pytest.raises(ValueError, match="seq_len"):
        rope_frequencies(64, ok, seq_len=0)
    with pytest.raises(ValueError, match="factor"):
        scaling.ntk_aware_base(1e4, 0.5, 64)
    with pytest.raises(ValueError, match="base"):
        scaling.ntk_aware_base(1.0, 2.0, 64)
    with pytest.raises(ValueError, match="train_length"):
        scaling.phase_coverage(torch.ones(4), torch.ones(4), 0, 10)
    with pytest.raises(ValueError, match="method"):
        view.analysis(64, '{"rope_type": "default", "rope_theta": 10000.0}', 8, 16, "xpos")
    with pytest.raises(ValueError, match="max_distance"):
        scaling.log_distances(10**9)
