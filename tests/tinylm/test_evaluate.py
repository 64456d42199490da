"""posviz.tinylm.evaluate: per-bucket accuracy, loss and entropy; RoPE scalings at evaluation time."""
import math

import pytest
import torch

from posviz.pe.learned import PositionOutOfRangeError
from posviz.pe.rope import rope_inv_freq
from posviz.tinylm import evaluate as le
from posviz.tinylm import recipes
from posviz.tinylm.model import TinyConfig, TinyLM, rope_spectrum
from posviz.tinylm.task import IGNORE
from posviz.validate import PosvizError


def test_bucket_accuracy_hand_made():
    # 2 sequences of length 8, buckets of 4; positions 0,1 carry no answer
    targets = torch.tensor([[IGNORE, IGNORE, 1, 2, 3, 4, 5, 6],
                            [IGNORE, IGNORE, 1, 2, 3, 4, 5, 6]])
    pred = torch.tensor([[9, 9, 1, 0, 3, 4, 0, 0],
                         [1, 2, 1, 2, 3, 0, 0, 0]])
    acc, count = le.bucket_accuracy(pred, targets, 4)
    # bucket 0: positions 2,3 -> hits (1,0) + (1,1) = 3 of 4; predictions at 0,1 do not count
    # bucket 1: positions 4..7 -> hits (1,1,0,0) + (1,0,0,0) = 3 of 8
    assert count.tolist() == [4, 8]
    assert acc.tolist() == [0.75, 0.375]


def test_bucket_mean_uneven_and_empty():
    v = torch.arange(10.0)[None]                       # [1,10]
    m = torch.ones(1, 10, dtype=torch.bool)
    m[0, :4] = False                                   # bucket 0 (positions 0..3) empty
    mean, count = le.bucket_mean(v, m, 4)
    assert count.tolist() == [0, 4, 2]
    assert math.isnan(mean[0]) and mean[1] == 5.5 and mean[2] == 8.5


def test_bucket_mean_shape_error():
    with pytest.raises(PosvizError, match="values") as e:
        le.bucket_mean(torch.zeros(2, 3), torch.ones(2, 4, dtype=torch.bool), 2)
    assert e.value.code == "tinylm_bucket_shapes" and "[2, 3]" in e.value.message("zh")
    with pytest.raises(ValueError, match="bucket_size"):
        le.bucket_index(8, 0)


def test_attention_entropy():
    L = 6
    causal_uniform = torch.tril(torch.ones(L, L)) / torch.arange(1, L + 1)[:, None]
    h = le.attention_entropy(causal_uniform)
    assert torch.allclose(h, torch.log(torch.arange(1, L + 1, dtype=torch.float32)))
    one_hot = torch.eye(L)
    assert torch.equal(le.attention_entropy(one_hot), torch.zeros(L))


def test_rope_overrides():
    d, base = 16, 10000.0
    inv = rope_inv_freq(d, base)
    assert le.rope_override("rope", d, base, 64, 512) is None
    pi, f = le.rope_override("rope_pi", d, base, 64, 512)
    assert torch.allclose(pi, inv / 8) and f == 1.0
    ntk, f = le.rope_override("rope_ntk", d, base, 64, 512)
    assert torch.allclose(ntk, rope_inv_freq(d, base * 8 ** (d / (d - 2))), rtol=1e-5) and f == 1.0
    assert math.isclose(float(ntk[0]), 1.0) and math.isclose(float(ntk[-1]), float(inv[-1]) / 8, rel_tol=1e-5)
    yarn, f = le.rope_override("rope_yarn", d, base, 64, 512)
    assert math.isclose(f, 0.1 * math.log(8) + 1)
    assert float(yarn[0]) == pytest.approx(1.0) and float(yarn[-1]) == pytest.approx(float(inv[-1]) / 8)


def test_base_method():
    assert le.base_method("rope_yarn") == "rope"
    assert le.base_method("learned_clamp") == "learned"
    assert le.base_method("t5") == "t5"
    with pytest.raises(ValueError, match="variant"):
        le.base_method("rope_xyz")


@pytest.mark.parametrize("variant", ["learned", "learned_clamp", "rope_pi", "alibi"])
def test_evaluate_structure(variant):
    torch.manual_seed(0)
    model = TinyLM(TinyConfig(method=le.base_method(variant), d_model=16, n_heads=2, max_length=16,
                              t5_max_distance=16))
    r = le.evaluate(model, variant, length=48, num_sequences=3, batch_size=2, bucket_size=16)
    assert len(r["acc"]) == len(r["loss"]) == 3
    assert len(r["entropy"]) == 2 and len(r["entropy"][0]) == 2 and len(r["entropy"][0][0]) == 3
    assert model.rope_override is None                   # evaluation leaves the model as trained
    if variant == "learned":                             # no row beyond the table: N/A, not a number
        assert r["acc"][0] is not None and r["acc"][1:] == [None, None]
        assert r["count"] == [3 * 14, 0, 0]
    else:
        assert all(a is not None and 0 <= a <= 1 for a in r["acc"])
        assert r["count"] == [3 * 14, 3 * 16, 3 * 16]


def test_evaluate_matches_direct_accuracy():
    torch.manual_seed(1)
    model = TinyLM(TinyConfig(method="nope", d_model=16, n_heads=2))
    r = le.evaluate(model, "nope", length=32, num_sequences=4, batch_size=4, bucket_size=32, seed=123)
    from posviz.tinylm.task import make_batch
    x, y = make_batch(4, 32, seed=123)
    with torch.no_grad():
        pred = model(x).argmax(-1)
    m = y != IGNORE
    assert r["acc"][0] == pytest.approx(float(((pred == y) & m).sum() / m.sum()))


def test_variant_must_match_model():
    model = TinyLM(TinyConfig(method="alibi", d_model=16, n_heads=2))
    with pytest.raises(PosvizError, match="variant") as e:
        le.evaluate(model, "rope", length=16, num_sequences=1, bucket_size=8)
    assert e.value.code == "choice" and e.value.params["choices"] == "alibi"
    rope = TinyLM(TinyConfig(method="rope", d_model=16, n_heads=2))
    with pytest.raises(PosvizError) as e:
        le.evaluate(rope, "alibi", length=16, num_sequences=1, bucket_size=8)
    assert e.value.params["choices"] == "rope, rope_pi, rope_ntk, rope_yarn"


def test_learned_map_beyond_the_table_is_the_boundary_error():
    with pytest.raises(PositionOutOfRangeError) as e:
        le.attention_map("learned", 128, 0, 0)
    assert e.value.boundary and e.value.params["M"] == 64


# ---------------------------------------------------------------- phase aliases
def test_fast_pairs_are_those_with_a_whole_turn_in_the_training_range():
    inv = rope_inv_freq(16, 10000.0)                     # wavelengths 6.3, 19.9, 62.8, 198.7, ...
    assert le.fast_pairs(inv, 64) == [0, 1, 2]
    assert le.fast_pairs(inv, 62) == [0, 1]
    assert le.fast_pairs(inv, 6) == []


def test_phase_aliases_by_hand_one_pair():
    """θ = 1, t = 0: Δ aliases 0 when Δ is within ε of a multiple of 2π: 6 (0.28), 13 (0.43), 19 (0.15), 25 (0.13)."""
    r = le.phase_aliases(0, torch.tensor([1.0]), 64, max_offset=26, tol=0.3)
    assert r["pairs"] == [0] and r["aliases"] == [0, 6, 19, 25]
    assert r["error"][13] == pytest.approx(13 - 4 * math.pi, abs=1e-6)
    assert r["error"][6] == pytest.approx(2 * math.pi - 6, abs=1e-6)
    assert le.phase_aliases(0, torch.tensor([1.0]), 64, max_offset=26, tol=0.5)["aliases"] == [0, 6, 13, 19, 25]


def test_phase_aliases_of_the_tiny_rope_model():
    """Offset 2 of the shipped RoPE model (d_h = 16, base 10^4, trained at 64): aliases within 40 degrees."""
    inv = rope_inv_freq(16, 10000.0)
    r = le.phase_aliases(2, inv, 64, max_offset=512, tol=math.radians(40))
    assert r["aliases"] == [2, 121, 122, 259, 260, 322, 379, 498, 499]
    assert r["wavelengths"] == pytest.approx([2 * math.pi, 2 * math.pi * 10 ** 0.5, 20 * math.pi], rel=1e-6)
    # e is the largest wrapped phase difference over the fast pairs, by hand at 121
    d = [((121 - 2) * float(inv[i])) % (2 * math.pi) for i in range(3)]
    assert r["error"][121] == pytest.approx(max(min(x, 2 * math.pi - x) for x in d), abs=1e-5)
    assert all(e <= math.pi + 1e-9 for e in r["error"]) and r["error"][2] == 0
    with pytest.raises(ValueError, match="target"):
        le.phase_aliases(600, inv, 64, max_offset=512)
    with pytest.raises(ValueError, match="tol"):
        le.phase_aliases(2, inv, 64, tol=4.0)


def test_offset_weights_and_far_weight():
    a = torch.tril(torch.ones(4, 4)) / torch.arange(1, 5)[:, None]      # uniform causal attention
    w = le.offset_weights(a)
    assert w.tolist() == pytest.approx([(1 + 1 / 2 + 1 / 3 + 1 / 4) / 4, (1 / 2 + 1 / 3 + 1 / 4) / 3,
                                        (1 / 3 + 1 / 4) / 2, 1 / 4])
    w2 = le.offset_weights(a, first_query=3)
    assert w2.tolist() == pytest.approx([1 / 4] * 4)
    assert math.isnan(le.offset_weights(a, first_query=4)[0])
    assert le.far_weight(a, 3, 2) == pytest.approx(0.5)                  # keys 0, 1 of query 3
    assert le.far_weight(a, 1, 2) == 0.0


# ---------------------------------------------------------------- several runs, and the new variants
def test_summary_by_hand():
    s = le.summary([[1.0, 0.5, None], [0.8, 0.7, None], [0.9, 0.3, 0.2]])
    assert s["mean"][:2] == pytest.approx([0.9, 0.5]) and s["mean"][2] is None
    assert s["min"] == [0.8, 0.3, None] and s["max"] == [1.0, 0.7, None]
    assert s["seeds"][2] == [0.9, 0.3, 0.2]


def test_variants_name_their_runs():
    assert le.base_method("learned_grow") == "learned" and le.base_method("learned_mod") == "learned"
    assert le.base_method("rope_yarn4") == "rope" and le.base_method("ft_yarn") == "ft_yarn"
    assert le.base_method("rope_nope4") == "rope_nope4"
    assert set(le.VARIANTS) <= set(le.ALL_VARIANTS) and len(set(le.ALL_VARIANTS)) == len(le.ALL_VARIANTS)
    for v in le.ALL_VARIANTS:
        assert le.base_method(v) in recipes.RECIPES


def test_fixed_scalings_are_the_fine_tunes_frequencies():
    """rope_pi4 / rope_ntk4 / rope_yarn4 at any evaluation length: the s = 4 spectra the ft_* runs train with."""
    for variant, kind in le.FIXED_SCALINGS.items():
        inv, f = le.rope_override(variant, 16, 10000.0, 64, 512)
        want = rope_spectrum(16, recipes.SCALED[kind])
        assert torch.equal(inv, want[0]) and f == want[1]
    pi, _ = le.rope_override("rope_pi4", 16, 10000.0, 64, 128)
    assert torch.allclose(pi, rope_inv_freq(16) / 4)


def test_learned_treatments():
    torch.manual_seed(0)
    m = TinyLM(TinyConfig(method="learned", d_model=16, n_heads=2, max_length=16)).eval()
    grow, kw = le.prepare(m, "learned_grow", 48)
    assert grow is not m and grow.cfg.max_length == le.GROW_ROWS and kw == {}
    same, kw = le.prepare(m, "learned_mod", 48)
    assert same is m and kw == {"clamp_positions": False, "wrap_positions": True}
    r = le.evaluate(m, "learned_grow", length=320, num_sequences=1, bucket_size=64)
    assert r["acc"][:4] == [a for a in r["acc"][:4] if a is not None] and r["acc"][4] is None   # N/A past 256 rows
    r = le.evaluate(m, "learned_mod", length=64, num_sequences=1, bucket_size=16)
    assert all(a is not None for a in r["acc"])


def test_marker_accuracy_and_sweep():
    torch.manual_seed(0)
    m = TinyLM(TinyConfig(method="rope", d_model=16, n_heads=2)).eval()
    sweep = le.marker_sweep(m, positions=(1, 10), num_sequences=4)
    assert len(sweep) == 2 and all(0 <= a <= 1 for a in sweep)
    assert sweep[1] == le.marker_accuracy(m, 10, num_sequences=4, seed=le.EVAL_SEED + 2 * 10**6 + 10)
