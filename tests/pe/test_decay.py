"""posviz.pe.decay: RoFormer's long-term decay bound and the score-vs-distance curves."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from posviz.pe import decay
from posviz.pe.rope import apply_rope, rope_inv_freq
from posviz.pe.sinusoidal import sinusoidal_positions
from posviz.validate import PosvizError


# ---------------------------------------------------------------- RoFormer bound
def test_bound_at_zero_is_32_5_for_d128():
    b = decay.roformer_decay_bound(128, 10)
    assert b.dtype == torch.float64 and b.shape == (11,)
    assert b[0].item() == pytest.approx(32.5, abs=1e-12)


@pytest.mark.parametrize("d", [2, 4, 6, 64, 128, 256, 1024])
def test_bound_at_zero_is_d_over_4_plus_half(d):
    # |S_j(0)| = j  ->  (1/(d/2)) sum_{j=1}^{d/2} j = (d/2 + 1)/2 = d/4 + 1/2
    b0 = decay.roformer_decay_bound(d, 0, base=500000.0)
    assert b0.shape == (1,)
    assert b0[0].item() == pytest.approx(d / 4 + 0.5, rel=1e-12)
    assert b0[0].item() == pytest.approx(sum(range(1, d // 2 + 1)) / (d // 2), rel=1e-12)


def _numpy_bound(theta, r_max):
    """Direct complex sum in float64: S_j = sum_{k<j} exp(i r theta_k), B = mean_j |S_j|."""
    out = np.empty(r_max + 1)
    for r in range(r_max + 1):
        s = 0j
        total = 0.0
        for th in theta:
            s += np.exp(1j * r * th)
            total += abs(s)
        out[r] = total / len(theta)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_bound_matches_direct_complex_sum(seed):
    rng = np.random.default_rng(seed)
    d = int(rng.integers(1, 40)) * 2
    base = float(10 ** rng.uniform(1, 6.5))
    r_max = 150
    theta = rope_inv_freq(d, base).double().numpy()     # the same float32 theta models store
    ref = _numpy_bound(theta, r_max)
    got = decay.roformer_decay_bound(d, r_max, base=base).numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-10)
    # and with exact float64 theta (no float32 rounding) the curve is the same to plotting accuracy
    theta64 = base ** (-np.arange(0, d, 2) / d)
    np.testing.assert_allclose(got, _numpy_bound(theta64, r_max), atol=1e-3)


def test_bound_known_shape_for_roformer_settings():
    b = decay.roformer_decay_bound(128, 256).numpy()
    assert b[0] == pytest.approx(32.5)
    assert np.all(b[1:] < b[0])                    # every r > 0 is below the r = 0 value
    assert b[200:].max() < 0.5 * b[0]              # and it has decayed by r = 200
    assert np.any(np.diff(b) > 0)                  # with ripples: not monotone


def test_bound_at_matches_full_and_large_chunks():
    full = decay.roformer_decay_bound(1024, 5000, base=10000.0)   # several [P, d/2] blocks
    grid = decay.distance_grid(5000, points=101)
    at = decay.roformer_decay_bound_at(1024, grid, base=10000.0)
    torch.testing.assert_close(at, full[grid], rtol=0, atol=1e-12)
    theta = rope_inv_freq(1024).double().numpy()
    ref = np.array([np.abs(np.cumsum(np.exp(1j * r * theta))).mean() for r in (0, 1, 777, 4999, 5000)])
    np.testing.assert_allclose(full[[0, 1, 777, 4999, 5000]].numpy(), ref, rtol=1e-10)


def test_bound_symmetric_ripple_free_for_d2():
    # one pair: |S_1| = 1 at every distance, so there is no decay at all
    torch.testing.assert_close(decay.roformer_decay_bound(2, 100), torch.ones(101, dtype=torch.float64))


# ---------------------------------------------------------------- scores vs distance
def _rope_scores(q, k, r_max, base, m0=5):
    """(R(m) q) . (R(n) k) with the key r tokens before the query, via apply_rope."""
    d = q.shape[-1]
    rs = torch.arange(r_max + 1)
    qr = apply_rope(q.reshape(1, 1, 1, d).expand(1, 1, r_max + 1, d).contiguous(), rs + m0, base=base)
    kr = apply_rope(k.reshape(1, 1, 1, d), torch.tensor([m0]), base=base)
    return (qr[0, 0] * kr[0, 0]).sum(-1)                       # key at m0, query at m0 + r


def test_ones_curve_is_d_at_zero_and_sum_of_cosines():
    d, base = 128, 10000.0
    s = decay.ones_score_curve(d, 300, base=base)
    assert s[0].item() == pytest.approx(d)
    theta = rope_inv_freq(d, base).double()
    r = torch.arange(301, dtype=torch.float64)
    torch.testing.assert_close(s, 2 * torch.cos(r[:, None] * theta).sum(-1))


@pytest.mark.parametrize("d,base", [(128, 10000.0), (64, 500000.0), (2, 10000.0), (16, 100.0)])
def test_ones_curve_matches_apply_rope(d, base):
    ones = torch.ones(d)
    ref = _rope_scores(ones, ones, 512, base).double()
    got = decay.ones_score_curve(d, 512, base=base)
    torch.testing.assert_close(got, ref, rtol=0, atol=2e-3 * d)   # apply_rope angles are float32


def test_score_curve_matches_apply_rope_for_random_content_and_is_shift_invariant():
    g = torch.Generator().manual_seed(3)
    q, k = torch.randn(32, generator=g), torch.randn(32, generator=g)
    got = decay.rope_score_curve(q, k, 200, base=10000.0)
    for m0 in (0, 7, 1000):
        ref = _rope_scores(q, k, 200, 10000.0, m0=m0).double()
        torch.testing.assert_close(got, ref, rtol=0, atol=1e-3)


def test_score_curve_batched_shape():
    q = torch.randn(3, 5, 16, dtype=torch.float64)
    s = decay.rope_score_curve(q, q, [0, 1, 10])
    assert s.shape == (3, 5, 3)
    torch.testing.assert_close(s[..., 0], (q * q).sum(-1))


def test_single_pair_is_cos_r_theta():
    d, base, pair = 64, 10000.0, 9
    theta = rope_inv_freq(d, base).double()[pair]
    r = torch.arange(0, 401, dtype=torch.float64)
    torch.testing.assert_close(decay.pair_oscillation(d, 400, pair, base=base), torch.cos(r * theta))


def test_seed_001_cos_3_theta():
    # seed 001: q = k = (1, 0), m = 2, n = 5 -> cos(3 theta); in 2-D theta_0 = 1 rad
    v = decay.pair_oscillation(2, [3], 0)[0].item()
    assert v == pytest.approx(math.cos(3.0), abs=1e-12)
    assert v == pytest.approx(-0.98999, abs=1e-5)
    q = torch.tensor([1.0, 0.0])
    assert decay.rope_score_curve(q, q, 3)[3].item() == pytest.approx(math.cos(3.0))
    ref = _rope_scores(q, q, 3, 10000.0, m0=2)[3].item()      # query at m = 5, key at n = 2
    assert ref == pytest.approx(math.cos(3.0), abs=1e-6)


# ---------------------------------------------------------------- random content
def test_random_band_is_seeded_and_deterministic():
    a = decay.random_score_band(64, 100, n_samples=16, correlation=0.5, seed=7)
    b = decay.random_score_band(64, 100, n_samples=16, correlation=0.5, seed=7)
    c = decay.random_score_band(64, 100, n_samples=16, correlation=0.5, seed=8)
    for x, y in zip(a, b):
        assert torch.equal(x, y)
    assert not torch.equal(a.mean, c.mean)
    assert a.mean.shape == a.std.shape == a.example.shape == (101,)
    assert a.mean.dtype == torch.float64


def test_random_band_matches_manual_apply_rope():
    d, n, seed, rho = 16, 4, 11, 0.3
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(n, d, dtype=torch.float64, generator=g)
    z = torch.randn(n, d, dtype=torch.float64, generator=g)
    k = rho * q + math.sqrt(1 - rho**2) * z
    c = torch.stack([_rope_scores(q[i].float(), k[i].float(), 50, 10000.0).double() / (q[i].norm() * k[i].norm())
                     for i in range(n)])
    band = decay.random_score_band(d, 50, n_samples=n, correlation=rho, seed=seed)
    torch.testing.assert_close(band.mean, c.mean(0), rtol=0, atol=1e-4)
    torch.testing.assert_close(band.std, c.std(0, correction=0), rtol=0, atol=1e-4)
    torch.testing.assert_close(band.example, c[0], rtol=0, atol=1e-4)


def test_random_same_content_follows_ones_curve():
    d = 128
    band = decay.random_score_band(d, 2000, n_samples=1024, correlation=1.0, seed=0)
    assert band.mean[0].item() == pytest.approx(1.0) and band.std[0].item() == pytest.approx(0.0, abs=1e-12)
    expected = decay.random_score_expectation(d, 2000, correlation=1.0)
    torch.testing.assert_close(expected, decay.ones_score_curve(d, 2000) / d)
    assert (band.mean - expected).abs().max() < 0.02
    assert band.example.abs().max() <= 1 + 1e-12 and (band.mean + band.std).max() <= 1 + 1e-9


def test_random_independent_content_has_zero_mean_everywhere():
    d, n = 128, 1024
    band = decay.random_score_band(d, 1000, n_samples=n, correlation=0.0, seed=1)
    assert band.mean.abs().max() < 5 / math.sqrt(n * d)        # E = 0 at every distance
    # the spread does not shrink with distance: near and far alike ~ 1/sqrt(d)
    assert band.std[1:10].mean().item() == pytest.approx(band.std[-100:].mean().item(), rel=0.2)
    assert band.std.mean().item() == pytest.approx(1 / math.sqrt(d), rel=0.2)


def test_single_random_pair_is_not_monotone():
    band = decay.random_score_band(128, 500, n_samples=1, correlation=1.0, seed=0)
    assert torch.equal(band.mean, band.example)
    assert (torch.diff(band.example) > 0).any()


# ---------------------------------------------------------------- ALiBi and sinusoidal
def _official_get_slopes(n):
    """Press et al. get_slopes (ALiBi repository), rewritten from the paper's algorithm."""
    def power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        return [start * start**i for i in range(n)]
    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + _official_get_slopes(2 * closest)[0::2][: n - closest]


def test_alibi_line_is_minus_m_r():
    pen = decay.alibi_penalty(100, [1, 4, 8])
    r = torch.arange(101, dtype=torch.float64)
    for row, h in zip(pen, [1, 4, 8]):
        m = 2.0 ** -h                                  # 8 heads: m_h = 2^{-8h/8}
        torch.testing.assert_close(row, -m * r)
    assert torch.all(pen[:, 0] == 0) and not torch.signbit(pen[:, 0]).any()


@pytest.mark.parametrize("heads", [12, 16, 5])
def test_alibi_slopes_match_official_for_other_head_counts(heads):
    pen = decay.alibi_penalty([0, 1, 10], list(range(1, heads + 1)), num_heads=heads)
    m = torch.tensor(_official_get_slopes(heads), dtype=torch.float32).double()
    torch.testing.assert_close(pen[:, 1], -m)
    torch.testing.assert_close(pen[:, 2], -10 * m)
    torch.testing.assert_close(decay.normalised_alibi(pen)[:, 2], 1 - 10 * m)


def test_sinusoidal_dot_matches_positions():
    D, R = 64, 120
    dot = decay.sinusoidal_dot(D, R)
    assert dot[0].item() == pytest.approx(D / 2)
    for p in (0, 17, 500):
        pe = sinusoidal_positions(R + 1 + p, D, dtype=torch.float64)
        ref = pe[p + torch.arange(R + 1)] @ pe[p]
        torch.testing.assert_close(dot, ref, rtol=0, atol=1e-4)


def test_sinusoidal_dot_equals_half_rope_ones_curve_for_same_width_and_base():
    # the same cosine sum; the frequencies differ only by float32 rounding (rope_inv_freq evaluates
    # base^(-2i/d) in float32 as transformers does, sinusoidal_frequencies in float64)
    torch.testing.assert_close(decay.sinusoidal_dot(128, 3000), decay.ones_score_curve(128, 3000) / 2,
                               rtol=0, atol=1e-3)


# ---------------------------------------------------------------- grid, summary
@pytest.mark.parametrize("log", [False, True])
def test_distance_grid(log):
    small = decay.distance_grid(100, points=2001, log=log)
    assert torch.equal(small, torch.arange(101))
    g = decay.distance_grid(decay.MAX_DISTANCE, points=2001, log=log)
    assert g[0] == 0 and g[-1] == decay.MAX_DISTANCE and len(g) <= 2001
    assert torch.all(torch.diff(g) > 0)
    if log:
        assert g[1] == 1 and len(g) > 1000


def test_summary_numbers():
    s = decay.decay_summary(128, 4096)
    assert s["bound0"] == pytest.approx(32.5)
    assert s["first_negative"] == 1707
    ones = decay.ones_score_curve(128, 1707)
    assert ones[1706] >= 0 > ones[1707]
    assert s["wavelength_max"] == pytest.approx(2 * math.pi / rope_inv_freq(128)[-1].item())
    assert decay.decay_summary(128, 1000)["first_negative"] is None


def test_max_distance_cap_runs():
    g = decay.distance_grid(decay.MAX_DISTANCE, points=500)
    assert decay.roformer_decay_bound_at(128, g).shape == g.shape
    assert decay.random_score_band(128, g, n_samples=8).mean.shape == g.shape


# ---------------------------------------------------------------- invalid input
@pytest.mark.parametrize("call,name", [
    (lambda: decay.roformer_decay_bound(127, 10), "head_dim"),
    (lambda: decay.roformer_decay_bound(0, 10), "head_dim"),
    (lambda: decay.roformer_decay_bound(2048, 10), "head_dim"),
    (lambda: decay.roformer_decay_bound(128, 10, base=1.0), "base"),
    (lambda: decay.roformer_decay_bound(128, 10, base=0.5), "base"),
    (lambda: decay.roformer_decay_bound(128, 10, base=float("nan")), "base"),
    (lambda: decay.roformer_decay_bound(128, -1), "max_distance"),
    (lambda: decay.roformer_decay_bound(128, decay.MAX_DISTANCE + 1), "max_distance"),
    (lambda: decay.roformer_decay_bound(128, 2.5), "max_distance"),
    (lambda: decay.roformer_decay_bound(128, "10"), "max_distance"),
    (lambda: decay.ones_score_curve(7, 10), "head_dim"),
    (lambda: decay.ones_score_curve(8, -3), "max_distance"),
    (lambda: decay.ones_score_curve(8, torch.tensor([0.5, 1.0])), "distances"),
    (lambda: decay.ones_score_curve(8, torch.tensor([-1, 2])), "distances"),
    (lambda: decay.ones_score_curve(8, [[1, 2]]), "distances"),
    (lambda: decay.random_score_band(64, 10, n_samples=0), "n_samples"),
    (lambda: decay.random_score_band(64, 10, n_samples=-4), "n_samples"),
    (lambda: decay.random_score_band(64, 10, n_samples=decay.MAX_SAMPLES + 1), "n_samples"),
    (lambda: decay.random_score_band(64, 10, correlation=1.5), "correlation"),
    (lambda: decay.random_score_band(64, 10, seed=-1), "seed"),
    (lambda: decay.random_score_band(63, 10), "head_dim"),
    (lambda: decay.random_score_band(64, 10, base=1.0), "base"),
    (lambda: decay.pair_oscillation(64, 10, 32), "pair"),
    (lambda: decay.pair_oscillation(64, 10, -1), "pair"),
    (lambda: decay.alibi_penalty(10, [0]), "heads"),
    (lambda: decay.alibi_penalty(10, [9]), "heads"),
    (lambda: decay.alibi_penalty(10, []), "heads"),
    (lambda: decay.alibi_penalty(10, [1], num_heads=0), "num_heads"),
    (lambda: decay.sinusoidal_dot(5, 10), "dim"),
    (lambda: decay.sinusoidal_dot(8, 10, base=1.0), "base"),
    (lambda: decay.rope_score_curve(torch.ones(4), torch.ones(6), 3), "q and k"),
    (lambda: decay.rope_score_curve(torch.ones(5), torch.ones(5), 3), "head_dim"),
    (lambda: decay.distance_grid(-1), "max_distance"),
    (lambda: decay.distance_grid(10, points=1), "points"),
    (lambda: decay.decay_summary(128, decay.MAX_DISTANCE + 1), "max_distance"),
])
def test_invalid_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# ---------------------------------------------------------------- the bound really bounds


@settings(max_examples=40, deadline=None)
@given(half=st.integers(1, 64), log_base=st.floats(1.0, 7.0), seed=st.integers(0, 10**6))
def test_abel_bound_holds_for_random_content(half, log_base, seed):
    """|s(r)| <= max_i |h_{i+1} - h_i| * (d/2) * B(r), h_i = a_i - i b_i, h_{d/2} = 0 (RoFormer eq. 37)."""
    d, base = 2 * half, 10.0**log_base
    g = torch.Generator().manual_seed(seed)
    q, k = torch.randn(d, dtype=torch.float64, generator=g), torch.randn(d, dtype=torch.float64, generator=g)
    a = q[0::2] * k[0::2] + q[1::2] * k[1::2]
    b = q[0::2] * k[1::2] - q[1::2] * k[0::2]
    h = torch.cat([torch.complex(a, -b), torch.zeros(1, dtype=torch.complex128)])
    step = (h[1:] - h[:-1]).abs().max()
    s = decay.rope_score_curve(q, k, 300, base=base)
    bound = decay.roformer_decay_bound(d, 300, base=base)
    assert torch.all(s.abs() <= step * half * bound + 1e-9)
    assert torch.all(bound <= bound[0] + 1e-12) and torch.all(bound >= 0)


@pytest.mark.parametrize("call,code", [
    (lambda: decay.ones_score_curve(8, torch.tensor([0.5, 1.0])), "decay_distances"),
    (lambda: decay.ones_score_curve(8, [[1, 2]]), "decay_distances"),
    (lambda: decay.ones_score_curve(8, torch.tensor([-1, 2])), "decay_distances_range"),
    (lambda: decay.rope_score_curve(torch.ones(4), torch.ones(6), 3), "decay_qk_shape"),
    (lambda: decay.rope_score_curve(torch.tensor([1.0, float("nan")]), torch.ones(2), 3), "finite"),
    (lambda: decay.alibi_penalty(10, []), "decay_heads"),
    (lambda: decay.rope_score_curve(object(), torch.ones(2), 3), "tensor"),
])
def test_errors_are_coded_and_speak_chinese(call, code):
    with pytest.raises(PosvizError) as e:
        call()
    assert e.value.code == code
    zh = e.value.message("zh")
    assert zh != e.value.message("en") and any("\u4e00" <= ch <= "\u9fff" for ch in zh)
