"""posviz.pe.xpos against the paper's equations (Sun et al. 2023, §3.2) and worked numbers: zeta, the score's
dependence on n - m only, RoPE as the limit B -> infinity, and the decay curves against posviz.pe.decay's."""
import pytest
import torch

from posviz.pe import decay, rope, xpos
from posviz.validate import PosvizError


def test_zeta_by_hand():
    """d = 64, gamma = 0.4: zeta_0 = 0.4 / 1.4 = 0.2857..., zeta_31 = (62/64 + 0.4) / 1.4 = 0.97768..."""
    z = xpos.xpos_zeta(64)
    assert z.shape == (32,)
    assert float(z[0]) == pytest.approx(0.4 / 1.4) and float(z[31]) == pytest.approx((62 / 64 + 0.4) / 1.4)
    assert bool((z[1:] > z[:-1]).all()) and float(z.max()) < 1


def _qk(seed=0, d=16):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(1, 1, 1, d, dtype=torch.float64, generator=g), torch.randn(1, 1, 1, d, dtype=torch.float64,
                                                                                   generator=g)


@pytest.mark.parametrize("shift", [0, 100, 3000])
def test_the_score_depends_on_n_minus_m_only(shift):
    q, k = _qk()
    s = [float((xpos.apply_xpos(q, [n + shift]) * xpos.apply_xpos(k, [m + shift], key=True)).sum())
         for n, m in ((9, 2), (20, 13))]
    base = float((xpos.apply_xpos(q, [7]) * xpos.apply_xpos(k, [0], key=True)).sum())
    assert s[0] == pytest.approx(base, rel=2e-5) and s[1] == pytest.approx(base, rel=2e-5)   # RoPE's float32 angles


def test_the_score_is_ropes_per_pair_contributions_times_zeta():
    q, k = _qk(d=8)
    n, m, b = 40, 11, 64.0
    rq, rk = rope.apply_rope(q, [n]), rope.apply_rope(k, [m])
    per_pair = (rq * rk)[0, 0, 0].reshape(4, 2).sum(-1)                 # each pair's share of RoPE's score
    want = (xpos.xpos_zeta(8) ** ((n - m) / b) * per_pair).sum()
    got = (xpos.apply_xpos(q, [n], scale_base=b) * xpos.apply_xpos(k, [m], key=True, scale_base=b)).sum()
    assert float(got) == pytest.approx(float(want), rel=1e-12)


def test_a_huge_scale_base_is_rope():
    q, _ = _qk()
    torch.testing.assert_close(xpos.apply_xpos(q, [5, 900][:1], scale_base=1e9), rope.apply_rope(q, [5]),
                               rtol=1e-8, atol=1e-8)


def test_the_curves():
    r = torch.arange(0, 3000)
    c = xpos.xpos_ones_curve(64, r, scale_base=512)
    torch.testing.assert_close(c["rope"], decay.ones_score_curve(64, r) / 64)          # the /decay page's curve
    assert float(c["rope"][0]) == float(c["xpos"][0]) == float(c["envelope"][0]) == 1.0
    assert bool((c["xpos"].abs() <= c["envelope"] + 1e-12).all())
    assert bool((c["envelope"][1:] < c["envelope"][:-1]).all())
    z = xpos.xpos_zeta(64)
    assert float(c["envelope"][512]) == pytest.approx(float(z.mean()))                  # r = B: (2/d) sum zeta_i
    with pytest.raises(PosvizError):
        xpos.xpos_ones_curve(63, r)
