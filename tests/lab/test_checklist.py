"""posviz.lab.checklist: the nine checks of seed 000 §12 pass, each break switch makes its step fail,
and the exercises of §17 match the hand-derived numbers."""
import math

import pytest

from posviz.lab import checklist as cl


@pytest.mark.parametrize("step", cl.STEPS)
def test_step_passes_normally(step):
    r = cl.run_step(step)
    assert r["step"] == step and r["passed"], r


@pytest.mark.parametrize("step", cl.STEPS)
def test_break_switch_makes_the_step_fail(step):
    r = cl.run_step(step, broken=True)
    assert r["step"] == step and not r["passed"], r


def _num(r, key):
    return dict(r["numbers"])[key]


def test_step_numbers_tell_the_story():
    assert float(_num(cl.step_1(), "chk.n.equiv_diff")) < 1e-5
    assert float(_num(cl.step_1(True), "chk.n.equiv_diff")) > 0.1
    assert _num(cl.step_2(), "chk.n.first_real") == "[0, 0]"
    assert _num(cl.step_2(True), "chk.n.first_real") == "[2, 0]"       # seed 000 §11: real tokens start at 2
    assert _num(cl.step_4(True), "chk.n.abs_diff") == "0"
    s5 = cl.step_5()
    assert _num(s5, "chk.n.score_interleaved") == _num(s5, "chk.n.score_half_perm")
    assert _num(s5, "chk.n.score_interleaved") != _num(s5, "chk.n.score_half_raw")
    assert _num(cl.step_6(True), "chk.n.mode") == "restart"
    assert "PositionOutOfRangeError" in _num(cl.step_8(), "chk.n.at_M1")
    assert _num(cl.step_8(True), "chk.n.row_of_M") == "0"
    assert _num(cl.step_8(True), "chk.n.at_M1") == cl.NO_ERROR          # a word, translated by the page


def test_step_1_runs_on_the_given_sentences():
    """Step 1 uses the overview's example (猫追狗 / 狗追猫 by default, or the page's language's)."""
    for a, b in (cl.EQUIVARIANCE_PAIR, ("dog bites man", "man bites dog")):
        r = cl.run_step(1, sentences=(a, b))
        assert r["passed"] and _num(r, "chk.n.perm") == "[2, 1, 0]"
        assert not cl.run_step(1, True, sentences=(a, b))["passed"]
    assert cl.EQUIVARIANCE_PAIR == ("猫追狗", "狗追猫")


def test_step_8_returns_the_coded_boundary_not_an_english_message():
    from posviz import text

    b = cl.step_8()["boundary"]
    assert b == {"code": "learned_boundary", "params": {"L": 9, "M": 8, "last": 7}}
    zh = text.get("zh", f"err.{b['code']}", **b["params"])
    assert zh.startswith("这正是文章提醒的硬边界") and "max_length=8" in zh
    assert cl.step_8(True)["boundary"] is None and "message" not in cl.step_8()


def test_step_2_table_is_the_seed_batch():
    tab = cl.step_2()["table"]
    rows = {(r[0], r[1]): r[2:] for r in tab["rows"]}
    assert rows[("tokens", "0")] == ["<pad>", "<pad>", "我", "爱", "ML"]
    assert rows[("valid", "0")] == ["0", "0", "1", "1", "1"]
    assert rows[("position_ids", "0")] == ["0", "0", "0", "1", "2"]      # seed 000 §11
    assert rows[("position_ids", "1")] == ["0", "1", "2", "3", "4"]


def test_step_6_errors_start_at_the_first_decoded_position():
    tab = cl.step_6(True)["table"]
    errs = [float(x) for x in tab["rows"][0][1:]]
    assert max(errs[:4]) < 1e-5 and min(errs[4:]) > 1e-3


def test_angle_errors_grow_with_position_in_low_precision():
    f32 = cl.angle_errors(dtype="float32")
    bf16 = cl.angle_errors(dtype="bfloat16")
    fp16 = cl.angle_errors(dtype="float16")
    assert max(f32) < 1e-3
    assert bf16[-1] > 0.5 and fp16[-1] > 0.5
    assert fp16[0] < fp16[2] < fp16[-1]
    assert all(b > f for b, f in zip(bf16, f32))


def test_deinterleave_permutation():
    assert cl.deinterleave_permutation(8) == [0, 2, 4, 6, 1, 3, 5, 7]


def test_exercise_1_by_hand():
    """q=[1,2], k=[3,4], θ=π/3: q^T R(φ) k = 11 cos φ + 2 sin φ."""
    ex = cl.exercise_1()
    c, s = 0.5, math.sqrt(3) / 2
    hand = [11 * c + 2 * s, 11 * c + 2 * s, 11 * (-c) + 2 * s]        # φ = π/3, π/3, 2π/3
    assert [(r["p"], r["s"]) for r in ex] == [(1, 2), (5, 6), (5, 7)]
    for r, h in zip(ex, hand):
        assert r["closed_form"] == pytest.approx(h, abs=1e-12)
        assert r["score"] == pytest.approx(h, abs=1e-4)               # apply_rope in float32
    assert hand[0] == pytest.approx(7.2320508, abs=1e-6)
    assert hand[2] == pytest.approx(-3.7679492, abs=1e-6)
    # R(1)q with θ = π/3 by hand: [c - 2s, s + 2c]
    assert ex[0]["q_rot"] == [round(c - 2 * s, 4), round(s + 2 * c, 4)]


def test_exercise_2_rotate_only_q_breaks_the_shift_test():
    ex = cl.exercise_2()
    c, s = 0.5, math.sqrt(3) / 2
    assert ex[0]["score"] == pytest.approx(11 * c - 2 * s, abs=1e-4)    # p=1: 5.5 - √3
    assert ex[1]["score"] == pytest.approx(11 * c + 2 * s, abs=1e-4)    # p=5: 5.5 + √3
    assert abs(ex[0]["score"] - ex[1]["score"]) > 1


def test_exercise_3_correct_vs_restart():
    ex = cl.exercise_3()
    assert max(ex["correct"]) < 1e-5
    assert max(ex["restart"][:2]) < 1e-6 and min(ex["restart"][2:]) > 1e-2
    assert cl.exercise_3_answer(ex) == 2


def test_check_answer():
    assert cl.check_answer(None, 1.0, 0.1) is None
    assert cl.check_answer(7.23, 7.2320508, 0.01) is True
    assert cl.check_answer(7.3, 7.2320508, 0.01) is False
    assert cl.check_answer("abc", 1.0, 0.1) is False


def test_invalid_step():
    with pytest.raises(ValueError, match="step"):
        cl.run_step(0)
    with pytest.raises(ValueError, match="step"):
        cl.run_step(10)
    with pytest.raises(ValueError, match="dtype"):
        cl.angle_errors(dtype="float64")
    with pytest.raises(ValueError, match="theta"):
        cl.exercise_1(theta=float("nan"))
