"""Property tests (hypothesis) on the public compute API of DESIGN.md: valid arguments never
raise and give the documented shapes; invalid ones raise ValueError naming the parameter."""
import math

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from posviz.lab import kv_cache as kvcache
from posviz.pe import decay, learned, relative, rope, scaling, sinusoidal
from posviz.pe import position_ids as positions

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
even_dim = st.integers(1, 64).map(lambda k: 2 * k)
odd_dim = st.integers(0, 64).map(lambda k: 2 * k + 1)
length = st.integers(1, 64)
base = st.floats(1.5, 1e7)
bad_base = st.one_of(st.floats(-1e9, 1.0), st.just(float("nan")), st.just(float("inf")))
bad_length = st.one_of(st.integers(-10**9, 0), st.integers(10**7, 10**9))


def rejects(name, fn, *args, **kwargs):
    with pytest.raises(ValueError) as e:
        fn(*args, **kwargs)
    assert name in str(e.value), f"message does not name {name!r}: {e.value}"


# ---------------------------------------------------------------- sinusoidal
@FAST
@given(length, even_dim, base, st.sampled_from(["interleaved", "concat"]), st.integers(0, 10**6))
def test_sinusoidal_valid(L, D, b, layout, offset):
    pe = sinusoidal.sinusoidal_positions(L, D, base=b, layout=layout, offset=offset)
    assert pe.shape == (L, D) and torch.isfinite(pe).all() and pe.abs().max() <= 1 + 1e-6
    assert sinusoidal.sinusoidal_frequencies(D, b).shape == (D // 2,)


@FAST
@given(odd_dim, bad_base, bad_length)
def test_sinusoidal_invalid(D, b, L):
    rejects("dim", sinusoidal.sinusoidal_positions, 4, D)
    rejects("base", sinusoidal.sinusoidal_frequencies, 8, b)
    rejects("length", sinusoidal.sinusoidal_positions, L, 8)
    rejects("layout", sinusoidal.sinusoidal_positions, 4, 8, layout="diagonal")


# ---------------------------------------------------------------- learned
@settings(max_examples=15, deadline=None)
@given(st.integers(1, 32), st.integers(1, 4))
def test_learned_boundary(M, extra):
    m = learned.LearnedAbsolutePositions(50, 8, M)
    assert m(torch.zeros(2, M, dtype=torch.long)).shape == (2, M, 8)
    with pytest.raises(ValueError) as e:
        m(torch.zeros(1, M + extra, dtype=torch.long))
    assert "max_length" in str(e.value)


# ---------------------------------------------------------------- rope
@FAST
@given(st.integers(1, 3), st.integers(1, 3), length, even_dim, base, st.sampled_from(["interleaved", "half"]))
def test_apply_rope_valid_preserves_norms(N, H, L, d, b, layout):
    x = torch.randn(N, H, L, d, generator=torch.Generator().manual_seed(L * d))
    y = rope.apply_rope(x, torch.arange(L), base=b, layout=layout)
    assert y.shape == x.shape
    torch.testing.assert_close(y.norm(dim=-1), x.norm(dim=-1), rtol=1e-4, atol=1e-4)
    assert rope.rope_inv_freq(d, b).shape == (d // 2,)


@FAST
@given(st.integers(1, 3), st.integers(1, 4), st.sampled_from([1, 8, 16, 32, 64, 96]),
       st.sampled_from([2, 8, 16, 64, 128]), st.sampled_from([torch.float32, torch.float64]), st.integers(1, 3),
       st.floats(0.5, 4.0))
def test_apply_rope_is_the_transparent_formula_bit_for_bit(N, H, L, d, dtype, threads, factor):
    """Whichever path apply_rope takes (the private complex-multiply fast path or not), its result is
    torch.equal to the transparent rotation of the same float32 angles."""
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        g = torch.Generator().manual_seed(N * 1000 + L * d)
        x = torch.randn(N, H, L, d, generator=g).to(dtype)
        pos = torch.randint(0, 100000, (N, L), generator=g)
        ang = pos.float()[..., None] * rope.rope_inv_freq(d)                  # [N,L,d/2]
        cos, sin = (ang.cos() * factor).to(dtype)[:, None], (ang.sin() * factor).to(dtype)[:, None]
        assert torch.equal(rope.apply_rope(x, pos, attention_factor=factor), rope.rotate_pairs(x, cos, sin))
    finally:
        torch.set_num_threads(old)


@FAST
@given(odd_dim, bad_base)
def test_rope_invalid(d, b):
    rejects("head_dim", rope.rope_inv_freq, d)
    rejects("base", rope.rope_inv_freq, 8, b)
    rejects("layout", rope.apply_rope, torch.zeros(1, 1, 2, 4), torch.arange(2), layout="sideways")
    rejects("position_ids", rope.apply_rope, torch.zeros(1, 1, 2, 4), torch.arange(3))


# ---------------------------------------------------------------- relative
@FAST
@given(length, st.integers(0, 64), st.booleans(), st.integers(2, 64), st.integers(1, 64), st.integers(1, 40))
def test_relative_valid(L, extra, bidir, nb, k, H):
    S = L + extra
    assert relative.relative_distance(L, S).shape == (L, S)
    idx = relative.shaw_relative_index(L, S, max_distance=k)
    assert idx.min() >= 0 and idx.max() <= 2 * k
    md = max(nb, 8) * 2
    b = relative.t5_bucket_matrix(L, S, bidirectional=bidir, num_buckets=max(nb, 4), max_distance=md)
    assert b.min() >= 0 and b.max() < max(nb, 4)
    sl = relative.alibi_slopes(H)
    assert sl.shape == (H,) and (sl > 0).all() and (sl < 1).all()
    assert relative.alibi_bias(H, L, S).shape == (H, L, S)


@FAST
@given(bad_length, st.integers(-100, 0))
def test_relative_invalid(L, H):
    rejects("query_length", relative.relative_distance, L)
    rejects("num_heads", relative.alibi_slopes, H)
    rejects("query_length", relative.relative_distance, 5, 3)
    rejects("max_distance", relative.shaw_relative_index, 4, max_distance=-1)


# ---------------------------------------------------------------- scaling
@FAST
@given(even_dim, st.sampled_from(["default", "linear", "dynamic", "yarn", "llama3"]), st.floats(1.0, 64.0),
       st.floats(1e3, 1e7))
def test_rope_frequencies_valid(d, kind, factor, theta):
    params = {"rope_type": kind, "rope_theta": theta, "factor": factor, "original_max_position_embeddings": 4096}
    if kind == "llama3":
        params.update(low_freq_factor=1.0, high_freq_factor=4.0)
    if kind == "dynamic" and d == 2:          # its base exponent d/(d-2) has no value: refused by name
        rejects("head_dim", scaling.rope_frequencies, d, params, seq_len=8192)
        return
    inv, att = scaling.rope_frequencies(d, params, seq_len=8192)
    assert inv.shape == (d // 2,) and torch.isfinite(inv).all() and (inv > 0).all()
    assert math.isfinite(att) and att > 0


@FAST
@given(st.floats(-10, 0.999), odd_dim)
def test_rope_frequencies_invalid(factor, d):
    rejects("factor", scaling.rope_frequencies, 8, {"rope_type": "linear", "rope_theta": 1e4, "factor": factor})
    rejects("rope_type", scaling.rope_frequencies, 8, {"rope_type": "quadratic", "rope_theta": 1e4})
    rejects("head_dim", scaling.rope_frequencies, d, {"rope_type": "default", "rope_theta": 1e4})


# ---------------------------------------------------------------- decay
@FAST
@given(even_dim, st.integers(0, 2000), base)
def test_decay_bound_valid(d, r, b):
    out = decay.roformer_decay_bound(d, r, base=b)
    assert out.shape == (r + 1,) and out.dtype == torch.float64
    assert abs(out[0].item() - (d / 2 + 1) / 2) < 1e-9  # mean of 1..d/2


@FAST
@given(odd_dim, st.integers(-100, -1))
def test_decay_bound_invalid(d, r):
    rejects("head_dim", decay.roformer_decay_bound, d, 10)
    rejects("max_distance", decay.roformer_decay_bound, 8, r)


# ---------------------------------------------------------------- positions
@FAST
@given(st.lists(st.lists(st.booleans(), min_size=6, max_size=6), min_size=1, max_size=4))
def test_position_ids_from_mask(rows):
    mask = torch.tensor(rows)
    pos = positions.position_ids_from_mask(mask)
    assert pos.shape == mask.shape and pos.dtype == torch.long and (pos >= 0).all()
    for r in range(mask.shape[0]):
        real = pos[r][mask[r]]
        assert real.tolist() == list(range(int(mask[r].sum())))


def test_position_ids_invalid():
    rejects("attention_mask", positions.position_ids_from_mask, torch.ones(2, 3, 4))


# ---------------------------------------------------------------- kv cache
@settings(max_examples=15, deadline=None)
@given(st.integers(2, 10), st.integers(1, 10), st.sampled_from([4, 8]), st.sampled_from(["interleaved", "half"]))
def test_correct_cache_equals_full_forward(L, P, d, layout):
    P = min(P, L)
    g = torch.Generator().manual_seed(L * 31 + P)
    q, k, v = (torch.randn(1, 2, L, d, generator=g) for _ in range(3))
    full = kvcache.full_causal_rope_attention(q, k, v, layout=layout)
    inc = kvcache.decode_with_cache(q, k, v, prefill_length=P, layout=layout)
    torch.testing.assert_close(inc, full, atol=1e-5, rtol=1e-5)


def test_kvcache_invalid():
    q = torch.randn(1, 1, 4, 8)
    rejects("prefill_length", kvcache.decode_with_cache, q, q, q, prefill_length=0)
    rejects("prefill_length", kvcache.decode_with_cache, q, q, q, prefill_length=5)
    rejects("mode", kvcache.decode_with_cache, q, q, q, prefill_length=2, mode="sometimes")
