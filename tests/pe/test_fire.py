"""posviz.pe.fire: FIRE and KERPLE against their papers' equations and worked numbers (neither ships in
transformers), the least-squares fits, and what each scheme does past the training length."""
import math

import pytest
import torch

from posviz.pe import fire as F
from posviz.pe import relative as rel
from posviz.validate import PosvizError


def test_fires_inputs_are_the_normalised_log_distance():
    """x_ij = psi(i - j) / psi(max(L, i)), psi(x) = log(c x + 1): in [0, 1]; before the threshold a function of
    i - j alone; past it divided by psi(i); 0 where the key is in the future."""
    i, j = torch.arange(0, 40), torch.arange(0, 40)
    x = F.fire_inputs(i, j, c=2.0, threshold=16)
    assert float(x.min()) == 0.0 and float(x.max()) <= 1.0 + 1e-12
    assert x[3, 1] == x[10, 8] == pytest.approx(math.log(2 * 2 + 1) / math.log(2 * 16 + 1))
    assert x[30, 10] == pytest.approx(math.log(2 * 20 + 1) / math.log(2 * 30 + 1))
    assert x[30, 0] == pytest.approx(math.log(61) / math.log(61)) == 1.0      # the farthest key of a long query: 1
    assert (x[5, 6:] == 0).all()


def test_fire_represents_alibi_below_its_threshold():
    """FIRE's Theorem (Li et al. 2024, §3): with f(x) = -m (exp(x psi(L)) - 1) / c, FIRE's bias is ALiBi's -m (i - j)
    for every query before the threshold L."""
    m, c, L = 0.125, 0.5, 64
    i = torch.arange(L)
    x = F.fire_inputs(i, i, c=c, threshold=L)
    f = -m * (torch.exp(x * math.log(c * L + 1)) - 1) / c
    alibi = -m * (i[:, None] - i[None, :]).clamp_min(0).double()
    torch.testing.assert_close(f, alibi, rtol=0, atol=1e-9)


def test_the_mlp_is_one_relu_layer():
    w = {"w": torch.tensor([1.0, -2.0]), "b": torch.tensor([0.0, 1.0]), "a": torch.tensor([3.0, 0.5]), "a0": -1.0}
    # x = 0.25: relu(0.25) = 0.25, relu(-0.5 + 1) = 0.5 -> 3 * 0.25 + 0.5 * 0.5 - 1 = 0
    # x = 1: relu(1) = 1, relu(-2 + 1) = 0 -> 3 - 1 = 2
    assert F.fire_mlp(torch.tensor([0.25, 1.0]), w).tolist() == [0.0, 2.0]


def test_kerple_by_hand():
    assert float(F.kerple_log(torch.tensor(2.0), 2.0, 0.5)) == pytest.approx(-2 * math.log(2))
    d = torch.arange(50)
    torch.testing.assert_close(F.kerple_power(d, 0.25, 1.0), -0.25 * d.double())      # r2 = 1 is ALiBi
    torch.testing.assert_close(F.kerple_power(torch.tensor(9.0), 1.0, 0.5), torch.tensor(-3.0, dtype=torch.float64))
    with pytest.raises(PosvizError):
        F.kerple_power(d, 1.0, 2.5)


@pytest.mark.parametrize("n", [16, 64, 256])
def test_the_fits_reproduce_the_target_at_the_training_length(n):
    m = float(rel.alibi_slopes(8)[2])
    target = -m * torch.arange(n, dtype=torch.float64)
    fit = F.fit_to_bias(target)
    b = F.biases_at(n - 1, fit, alibi_slope=m)
    scale = float(target.abs().max())
    assert torch.equal(b["alibi"], target)
    assert float((b["kerple"] - target).abs().max()) < 0.01 * scale
    assert float((b["fire"] - target).abs().max()) < 0.05 * scale
    # T5's table is the mean of the target over each bucket's training distances
    bucket = rel.t5_relative_position_bucket(-torch.arange(n), bidirectional=False, num_buckets=32, max_distance=128)
    for bk in bucket.unique().tolist():
        assert float(fit["t5"][bk]) == pytest.approx(float(target[bucket == bk].mean()))
    assert (fit["t5"][[bk for bk in range(32) if bk not in bucket.tolist()]] == 0).all()


def test_past_the_training_length():
    """Query 4N - 1: ALiBi's line goes on, T5's far buckets were never trained (0), FIRE's farthest key gets about what
    the last training query gave its farthest key (inputs 1 and psi(N-1)/psi(N))."""
    n, m = 64, 0.125
    fit = F.fit_to_bias(-m * torch.arange(n, dtype=torch.float64))
    far, train = F.biases_at(4 * n - 1, fit, alibi_slope=m), F.biases_at(n - 1, fit, alibi_slope=m)
    assert float(far["alibi"][-1]) == -m * (4 * n - 1)
    assert float(far["t5"][-1]) == 0.0 and float(far["t5"][n - 1]) == float(train["t5"][n - 1])
    assert float(far["fire_x"][-1]) == 1.0
    assert float(train["fire_x"][-1]) == pytest.approx(math.log(n) / math.log(n + 1))
    assert abs(float(far["fire"][-1]) - float(train["fire"][-1])) < 0.05 * m * n
    assert float(far["fire"][n - 1]) > float(train["fire"][n - 1]) + 1     # the same distance, a weaker penalty
    assert float(far["kerple"][-1]) < float(train["kerple"][-1])


def test_bad_input_is_refused():
    with pytest.raises(PosvizError):
        F.fit_to_bias(torch.tensor([0.0, float("nan")]))
    with pytest.raises(PosvizError):
        F.fire_psi(torch.tensor([1.0]), c=0.0)
    with pytest.raises(PosvizError):
        F.biases_at(-1, F.fit_to_bias(torch.zeros(4, dtype=torch.float64)), alibi_slope=0.5)
