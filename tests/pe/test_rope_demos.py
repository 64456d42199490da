"""posviz.pe.rope_demos: the seeds' hand examples, the scores of rotated content vectors (the shift
tests), clock hands, the layout demo, apply_rope step by step, coded errors."""
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from posviz.pe.rope import ROPE_LAYOUTS, apply_rope, rope_inv_freq, rope_rotation_matrix
from posviz.pe.rope_demos import (
    apply_rope_steps,
    clock_hands,
    content_vectors,
    hand_examples,
    layout_demo,
    pair_rotate,
    pair_score,
    pair_score_closed_form,
    pair_score_relative,
    rotated_score,
    rotated_score_relative,
    shift_scores,
    shown_pairs,
)
from posviz.validate import PosvizError


# ---------------------------------------------------------------- hand examples
def test_seed000_s08_by_hand():
    # q = k = [1,0], theta = pi/2: R(1)q = [cos pi/2, sin pi/2] = [0,1]; R(3)k = [cos 3pi/2, sin 3pi/2] = [0,-1]
    th = math.pi / 2
    assert torch.allclose(pair_rotate([1, 0], 1, th), torch.tensor([0.0, 1.0], dtype=torch.float64), atol=1e-12)
    assert torch.allclose(pair_rotate([1, 0], 3, th), torch.tensor([0.0, -1.0], dtype=torch.float64), atol=1e-12)
    assert float(pair_score([1, 0], [1, 0], 1, 3, th)) == pytest.approx(-1.0, abs=1e-12)
    # relative form: [1,0] R(2) [1,0] = cos(pi) = -1; shifted by 4: p=5, s=7 -> still -1
    assert float(pair_score_relative([1, 0], [1, 0], 1, 3, th)) == pytest.approx(-1.0, abs=1e-12)
    assert float(pair_score([1, 0], [1, 0], 5, 7, th)) == pytest.approx(-1.0, abs=1e-12)


def test_seed001_cos3theta_oscillates():
    # q = k = (1,0), m = 2, n = 5: score = cos(3 theta) for any theta
    for th in (0.1, 0.5, 1.0, 2.0):
        assert float(pair_score([1, 0], [1, 0], 2, 5, th)) == pytest.approx(math.cos(3 * th), abs=1e-12)
    # as a function of the distance it oscillates: not monotone
    vals = [float(pair_score([1, 0], [1, 0], 0, r, 1.0)) for r in range(0, 8)]
    diffs = [b - a for a, b in zip(vals, vals[1:])]
    assert any(d > 0 for d in diffs) and any(d < 0 for d in diffs)


def test_seed000_s17_exercise1_by_hand():
    # q = [1,2], k = [3,4], theta = pi/3.  q^T R(phi) k = cos(phi)(q.k) + sin(phi)(q_b k_a - q_a k_b)
    # q.k = 3 + 8 = 11;  q_b k_a - q_a k_b = 2*3 - 1*4 = 2.
    # (p,s) = (1,2) and (5,6): phi = pi/3 -> 11 * 1/2 + 2 * sqrt(3)/2 = 5.5 + sqrt(3) = 7.2320508...
    # (p,s) = (5,7): phi = 2pi/3 -> 11 * (-1/2) + 2 * sqrt(3)/2 = -5.5 + sqrt(3) = -3.7679491...
    th = math.pi / 3
    same = 5.5 + math.sqrt(3)
    diff = -5.5 + math.sqrt(3)
    assert float(pair_score([1, 2], [3, 4], 1, 2, th)) == pytest.approx(same, abs=1e-12)
    assert float(pair_score([1, 2], [3, 4], 5, 6, th)) == pytest.approx(same, abs=1e-12)
    assert float(pair_score([1, 2], [3, 4], 5, 7, th)) == pytest.approx(diff, abs=1e-12)
    # by hand also R(1)q = [cos60 - 2 sin60, sin60 + 2 cos60] = [0.5 - sqrt3, sqrt3/2 + 1]
    r = pair_rotate([1, 2], 1, th)
    assert torch.allclose(r, torch.tensor([0.5 - math.sqrt(3), math.sqrt(3) / 2 + 1], dtype=torch.float64))


def test_hand_examples_table():
    rows = {r["example"]: r for r in hand_examples()}
    assert rows["s08"]["rq"] == [0.0, 1.0] and rows["s08"]["rk"] == [0.0, -1.0]
    assert rows["s08"]["score"] == pytest.approx(-1) and rows["s08_shift"]["score"] == pytest.approx(-1)
    assert rows["s001"]["score"] == pytest.approx(math.cos(3.0))
    assert rows["s17_a"]["score"] == pytest.approx(rows["s17_b"]["score"])
    assert rows["s17_c"]["score"] == pytest.approx(-5.5 + math.sqrt(3))
    for r in rows.values():
        assert r["score"] == pytest.approx(r["relative"], abs=1e-12)


def test_common_shift_unchanged_moving_key_changes():
    torch.manual_seed(2)
    q, k = torch.randn(64), torch.randn(64)
    for layout in ROPE_LAYOUTS:
        base = rotated_score(q, k, 3, 10, layout=layout)
        for delta in (1, 4, 50, 1000):
            shifted = rotated_score(q, k, 3 + delta, 10 + delta, layout=layout)
            assert float(shifted) == pytest.approx(float(base), rel=1e-4, abs=1e-4)
            moved = rotated_score(q, k, 3, 10 + delta, layout=layout)
            assert abs(float(moved) - float(base)) > 1e-3
        s = shift_scores(q, k, 3, 10, 4, layout=layout)
        assert s.shape == (3,)
        assert float(s[0]) == pytest.approx(float(s[1]), rel=1e-4, abs=1e-4)
        assert abs(float(s[2]) - float(s[0])) > 1e-3


def test_rotating_only_q_breaks_the_shift_test():
    torch.manual_seed(3)
    q, k = torch.randn(16), torch.randn(16)
    s = shift_scores(q, k, 3, 10, 4, rotate="q")
    assert abs(float(s[0]) - float(s[1])) > 1e-2
    # written out with apply_rope directly (seed 000 §17 exercise 2)
    x = q.expand(1, 1, 2, 16).contiguous()
    rq = apply_rope(x, torch.tensor([3, 7]))[0, 0]                   # only Q rotated
    assert abs(float(rq[0] @ k) - float(rq[1] @ k)) > 1e-2


def test_relative_form_equals_absolute():
    torch.manual_seed(4)
    q, k = torch.randn(32), torch.randn(32)
    p = torch.tensor([0, 5, 17, 300])
    s = torch.tensor([3, 1, 17, 9])
    for layout in ROPE_LAYOUTS:
        absolute = rotated_score(q, k, p, s, layout=layout)
        relative = rotated_score_relative(q, k, s - p, layout=layout)
        assert torch.allclose(absolute, relative, atol=1e-4)
        # and via the block-diagonal matrix
        r = rope_rotation_matrix(float(s[1] - p[1]), 32, layout=layout)
        assert float(q @ r @ k) == pytest.approx(float(relative[1]), abs=1e-4)


@settings(max_examples=25, deadline=None)
@given(p=st.integers(-2000, 2000), s=st.integers(-2000, 2000), delta=st.integers(-2000, 2000),
       seed=st.integers(0, 1000))
def test_shift_invariance_property(p, s, delta, seed):
    q, k = content_vectors(16, "random", seed)
    a = rotated_score(q.double(), k.double(), p, s)
    b = rotated_score(q, k, p + delta, s + delta)
    assert float(a) == pytest.approx(float(b), abs=2e-3)


def test_mixing_layouts_gives_different_scores():
    demo = layout_demo(16, 3, 9)
    assert float(demo["interleaved"]) == pytest.approx(float(demo["half"]), abs=1e-5)
    assert abs(float(demo["mixed"]) - float(demo["interleaved"])) > 1e-3


def test_apply_rope_steps_are_apply_rope():
    x = torch.tensor([1.0, 0.0, 0.6, 0.8, -0.5, 0.5, 0.0, 1.0]).expand(3, 8).contiguous()
    for p in (0, 3, 900, 10000, 99998):
        pos = torch.arange(3) + p
        st_ = apply_rope_steps(x, pos)
        assert torch.equal(st_["out"], apply_rope(x[None, None], pos)[0, 0])
        assert torch.equal(st_["inv_freq"], rope_inv_freq(8))
        assert st_["angles"].dtype == torch.float32
        assert torch.equal(st_["angles"], pos.float()[:, None] * rope_inv_freq(8))
        assert torch.equal(st_["even"], x[:, 0::2]) and torch.equal(st_["odd"], x[:, 1::2])
        assert torch.equal(st_["rotated_even"], st_["even"] * st_["cos"] - st_["odd"] * st_["sin"])
        assert torch.equal(st_["out"][:, 1::2], st_["rotated_odd"])
    xb = x.to(torch.bfloat16)
    st_ = apply_rope_steps(xb, torch.arange(3) + 5000)
    assert st_["cos"].dtype == torch.bfloat16 and st_["angles"].dtype == torch.float32
    assert torch.equal(st_["out"], apply_rope(xb[None, None], torch.arange(3) + 5000)[0, 0])


# ---------------------------------------------------------------- clock hands
def test_clock_hands():
    h = clock_hands(2, 5, 8)
    theta = rope_inv_freq(8)
    assert torch.allclose(h["theta"], theta)
    assert torch.allclose(h["q_x"], torch.cos(2 * theta), atol=1e-6)
    assert torch.allclose(h["q_y"], torch.sin(2 * theta), atol=1e-6)
    assert torch.allclose(h["k_x"], torch.cos(5 * theta), atol=1e-6)
    assert torch.allclose(h["delta"], 3 * theta, atol=1e-6)          # 3 < pi: no wrap
    assert torch.allclose(h["between"], h["delta"], atol=1e-5)
    assert torch.allclose(h["score"], torch.cos(3 * theta), atol=1e-6)
    # wrapping to (-pi, pi]
    h = clock_hands(0, 4, 2)                                         # theta_0 = 1: 4 rad -> 4 - 2pi
    assert float(h["delta"][0]) == pytest.approx(4 - 2 * math.pi, abs=1e-6)
    assert float(h["q_angle"][0]) == 0.0
    # broadcasting over time; with content vectors the pair scores sum to the full score
    q, k = content_vectors(8, "random", 3)
    hh = clock_hands(torch.arange(4), torch.arange(4) + 3, 8, q=q, k=k)
    assert hh["q_x"].shape == (4, 4)
    assert torch.allclose(hh["score"].sum(-1), rotated_score(q, k, torch.arange(4), torch.arange(4) + 3), atol=1e-5)
    assert torch.allclose(hh["score"].sum(-1), hh["score"][0].sum().expand(4), atol=1e-5)


def test_content_vectors_and_shown_pairs():
    q, k = content_vectors(8, "unit")
    assert q.tolist() == [1, 0, 1, 0, 1, 0, 1, 0] and torch.equal(q, k)
    q, _ = content_vectors(8, "unit", layout="half")
    assert q.tolist() == [1, 1, 1, 1, 0, 0, 0, 0]
    a, b = content_vectors(8, "random", 1)
    assert not torch.equal(a, b) and torch.equal(a, content_vectors(8, "random", 1)[0])
    assert shown_pairs(128, 4).tolist() == [0, 21, 42, 63]
    assert shown_pairs(2, 4).tolist() == [0]
    assert shown_pairs(4, 4).tolist() == [0, 1]


# ---------------------------------------------------------------- invalid input
@pytest.mark.parametrize("call, name", [
    (lambda: pair_score([1, 0, 0], [1, 0], 1, 2, 0.5), "q"),
    (lambda: pair_rotate([1, 0], 1, float("inf")), "theta"),
    (lambda: rotated_score(torch.ones(8), torch.ones(6), 1, 2), "k"),
    (lambda: rotated_score(torch.ones(8), torch.ones(8), 1, 2, rotate="k"), "rotate"),
    (lambda: rotated_score(torch.ones(8), torch.ones(8), 1e300, 2), "p"),
    (lambda: clock_hands(1, 2, 9), "head_dim"),
    (lambda: clock_hands(1, 2, 8, base=-3), "base"),
    (lambda: content_vectors(8, "ones"), "kind"),
    (lambda: shown_pairs(8, 0), "count"),
    (lambda: shift_scores(torch.ones(8), torch.ones(8), "a", 2, 1), "m"),
    (lambda: shift_scores(torch.ones(8), torch.ones(8), 1, 2, float("nan")), "delta"),
    (lambda: pair_score([1, 0], [1, 0], 1, 2, 0.5, rotate="k"), "rotate"),
    (lambda: pair_score_closed_form([1, 0], [1, float("nan")], 0.5), "k"),
    (lambda: pair_score_closed_form([1, 0], [1, 0], float("inf")), "phi"),
    (lambda: rotated_score_relative(torch.ones(8), torch.ones(8), torch.zeros(2, 2)), "delta"),
    (lambda: clock_hands(torch.zeros(2, 2), 2, 8), "m"),
    (lambda: apply_rope_steps(torch.randn(3), torch.arange(3)), "x"),
])
def test_invalid_input_names_the_parameter(call, name):
    """Every error is a coded PosvizError (a ValueError) whose message names the parameter, in en and zh."""
    with pytest.raises(PosvizError, match=name) as e:
        call()
    assert name in e.value.message("zh")


def test_pair_score_closed_form_and_only_q():
    # §17: q=[1,2], k=[3,4], theta=pi/3, (p,s)=(5,7): phi = 2pi/3 -> -5.5 + sqrt(3)
    th = math.pi / 3
    assert float(pair_score_closed_form([1, 2], [3, 4], 2 * th)) == pytest.approx(-5.5 + math.sqrt(3), abs=1e-12)
    for p, s in [(1, 2), (5, 7), (-3, 10), (0, 0)]:
        assert float(pair_score([1, 2], [3, 4], p, s, th)) == pytest.approx(
            float(pair_score_closed_form([1, 2], [3, 4], (s - p) * th)), abs=1e-12)
        # only q rotated: (R(p)q).k = q^T R(-p) k
        assert float(pair_score([1, 2], [3, 4], p, s, th, rotate="q")) == pytest.approx(
            float(pair_score_closed_form([1, 2], [3, 4], -p * th)), abs=1e-12)
    # the bug: a common shift changes the only-q score
    assert abs(float(pair_score([1, 2], [3, 4], 1, 2, th, rotate="q")) -
               float(pair_score([1, 2], [3, 4], 5, 6, th, rotate="q"))) > 0.1
