"""posviz.pe.position_scores (issue 33 items 14, 15): the score of one token at positions m and n through a linear
layer, by hand for the identity, and how far it depends on n − m alone."""
import math

import pytest
import torch

from posviz.pe import position_scores as ps
from posviz.pe import sinusoidal
from posviz.validate import PosvizError


def test_relative_part_and_residual_by_hand():
    s = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
    t = ps.relative_part(s)
    # diagonals n - m = 0: 1, 5, 9 -> 5; n - m = 1: 2, 6 -> 4; n - m = -1: 4, 8 -> 6; corners stay
    assert t.tolist() == [[5.0, 4.0, 3.0], [6.0, 5.0, 4.0], [7.0, 6.0, 5.0]]
    want = math.sqrt(sum((a - b) ** 2 for a, b in zip(s.flatten().tolist(), t.flatten().tolist())))
    assert ps.relative_residual(s) == pytest.approx(want / math.sqrt(60.0))        # ||s - mean||^2 = 60
    toeplitz = torch.tensor([[0.0, 1.0, 2.0], [-1.0, 0.0, 1.0], [-2.0, -1.0, 0.0]])
    assert ps.relative_residual(toeplitz) == 0.0 and ps.relative_residual(torch.ones(3, 3)) == 0.0


def test_identity_weights_by_hand():
    s = ps.position_scores("integer", 12, 8, weights="identity")
    m = torch.arange(12.0)
    torch.testing.assert_close(s, 1 + m[:, None] * m[None, :])                      # grows with m·n
    s = ps.position_scores("sinusoidal", 20, 16, weights="identity")
    d = sinusoidal.dot_by_offset(19, 16)                                            # sum_i cos(Δ w_i)
    want = torch.stack([torch.stack([d[abs(n - mm)] for n in range(20)]) for mm in range(20)])
    torch.testing.assert_close(s, want, atol=2e-5, rtol=0)


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_rope_forces_the_offset_sinusoidal_and_integer_do_not(seed):
    for dim in (8, 64):
        assert ps.relative_residual(ps.position_scores("rope", 48, dim, seed=seed)) < ps.RELATIVE
        assert ps.relative_residual(ps.position_scores("rope", 48, dim, weights="identity", seed=seed)) < ps.RELATIVE
        assert ps.relative_residual(ps.position_scores("sinusoidal", 48, dim, seed=seed)) > 0.3
    assert ps.relative_residual(ps.position_scores("sinusoidal", 48, 64, weights="identity")) < ps.RELATIVE
    assert ps.relative_residual(ps.position_scores("integer", 48, 16, seed=seed)) > 0.5
    # rope, by hand: x^T W_Q R(n - m) W_K^T x, the same on every diagonal
    s = ps.position_scores("rope", 10, 4, seed=seed)
    assert float((s - ps.relative_part(s)).abs().max()) < 1e-5


def test_bad_arguments_are_posviz_errors():
    for kw in (dict(method="bogus"), dict(weights="bogus"), dict(length=1), dict(length=10**6),
               dict(dim=3, method="rope")):
        args = {"method": "rope", "length": 8, "dim": 8, **kw}
        with pytest.raises(PosvizError):
            ps.position_scores(args.pop("method"), args.pop("length"), args.pop("dim"), **args)
