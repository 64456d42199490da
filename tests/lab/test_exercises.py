"""posviz.lab.exercises: generated RoPE problems are reproducible, exact, and agree with posviz.pe.rope."""
import math

import pytest
import torch

from posviz.lab import exercises as X
from posviz.pe.rope import apply_rope
from posviz.pe.rope_demos import pair_rotate

SEEDS = range(0, 400, 7)


def _value(x):
    (an, ad), (bn, bd), r = x["a"], x["b"], x["r"]
    return an / ad + bn / bd * math.sqrt(r)


@pytest.mark.parametrize("seed", SEEDS)
def test_exact_answers_equal_pe_rope_rotation(seed):
    prob = X.problem(seed)
    theta = prob["theta"]["value"]
    rq = pair_rotate(prob["q"], prob["p"], theta)                        # float64 reference rotation
    rk = torch.tensor(prob["k"], dtype=torch.float64) if prob["only_q"] else pair_rotate(prob["k"], prob["s"], theta)
    assert [x["value"] for x in prob["q_rot"]] == pytest.approx(rq.tolist(), abs=1e-12)
    assert [x["value"] for x in prob["k_rot"]] == pytest.approx(rk.tolist(), abs=1e-12)
    assert prob["score"]["value"] == pytest.approx(float(rq @ rk), abs=1e-12)
    # apply_rope itself (float32, the transparent listing): the same numbers within float32 rounding
    inv = torch.tensor([theta], dtype=torch.float32)
    got = apply_rope(torch.tensor(prob["q"], dtype=torch.float32).reshape(1, 1, 1, 2), torch.tensor([prob["p"]]),
                     inv_freq=inv).flatten()
    assert got.tolist() == pytest.approx([x["value"] for x in prob["q_rot"]], abs=1e-5)
    assert X.rope_check(prob)["max_diff"] < 1e-4
    for x in prob["q_rot"] + prob["k_rot"] + [prob["score"], prob["closed"], prob["shift_score"]]:
        assert _value(x) == pytest.approx(x["value"], abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_closed_form_and_the_shift(seed):
    prob = X.problem(seed)
    q, k = prob["q"], prob["k"]
    phi = prob["phi"]["value"]
    assert prob["dot"] == q[0] * k[0] + q[1] * k[1] and prob["cross"] == q[1] * k[0] - q[0] * k[1]
    closed = prob["dot"] * math.cos(phi) + prob["cross"] * math.sin(phi)
    assert prob["closed"]["value"] == pytest.approx(closed, abs=1e-12) == pytest.approx(prob["score"]["value"])
    want = (-prob["p"] if prob["only_q"] else prob["s"] - prob["p"]) * prob["theta"]["value"]
    assert phi == pytest.approx(want)
    assert -math.pi < prob["phi_wrapped"]["value"] <= math.pi
    assert math.cos(prob["phi_wrapped"]["value"]) == pytest.approx(math.cos(phi))
    if not prob["only_q"]:
        assert prob["shift_equal"]                                        # R(p+Δ)ᵀR(s+Δ) = R(s−p)
    assert (prob["shift"] * prob["theta"]["pi"][0] / prob["theta"]["pi"][1]) % 2 != 0   # never a whole turn


def test_reproducible_and_varied():
    assert X.problem(5) == X.problem(5)
    probs = [X.problem(s) for s in range(200)]
    assert {p["theta"]["text"] for p in probs} == {"π/2", "π/3", "π/4", "π/6"}
    assert 20 < sum(p["only_q"] for p in probs) < 100
    assert len({(tuple(p["q"]), tuple(p["k"]), p["p"], p["s"]) for p in probs}) > 190
    assert all(p["q"] != [0, 0] and p["k"] != [0, 0] for p in probs)


def test_theta_pi_over_3_gives_multiples_of_sqrt3_over_2():
    """θ = π/3: every rotated component is a multiple of 1/2 plus a multiple of √3/2."""
    prob = next(X.problem(s) for s in range(2000)
                if X.problem(s)["theta"]["text"] == "π/3" and not X.problem(s)["only_q"])
    for x in prob["q_rot"] + prob["k_rot"]:
        assert x["r"] == 3 and (2 * x["a"][0]) % x["a"][1] == 0 and (2 * x["b"][0]) % x["b"][1] == 0  # halves


def test_exact_text_and_angles():
    from fractions import Fraction as F

    assert X.exact_text(F(1, 2), F(-1), 3) == "1/2 − √3"
    assert X.exact_text(F(0), F(-1, 2), 3) == "−√3/2"
    assert X.exact_text(F(11, 2), F(3, 2), 3) == "11/2 + 3√3/2"
    assert X.exact_text(F(-3), F(0), 2) == "−3"
    assert X.exact_text(F(0), F(5, 2), 2) == "5√2/2"
    assert [X.angle_text(F(n, d)) for n, d in ((0, 1), (1, 1), (-1, 2), (2, 3), (-7, 3), (4, 1))] == \
        ["0", "π", "−π/2", "2π/3", "−7π/3", "4π"]
    assert X.wrap_turn(F(-7, 3)) == F(-1, 3) and X.wrap_turn(F(1)) == 1 and X.wrap_turn(F(-1)) == 1


def test_grade_and_answers():
    prob = X.problem(22)
    ans = X.answers(prob)
    assert len(ans) == 5 and ans[-1] == pytest.approx(-1 + 3 * math.sqrt(3) / 2)
    assert X.grade(prob, [None, round(ans[1], 3), ans[2] + 1, None, ans[4]]) == [None, True, False, None, True]


def test_invalid_seed():
    with pytest.raises(ValueError, match="seed"):
        X.problem(-1)
    with pytest.raises(ValueError, match="seed"):
        X.problem(X.MAX_SEED + 1)
    with pytest.raises(ValueError, match="seed"):
        X.problem(1.5)
