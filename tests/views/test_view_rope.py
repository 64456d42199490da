"""posviz.views.rope: plain outputs, the numbers the page states, the step-by-step listing, SDPA."""
import inspect
import math

import numpy as np
import pytest
import torch

from posviz.pe import rope, rope_demos
from posviz.validate import PosvizError
from posviz.views import rope as view

PLAIN = (int, float, str, bool, type(None), np.ndarray, np.generic)


def _plain(obj):
    """Only numbers, strings, numpy arrays, lists and dicts: no tensors, no figures."""
    if isinstance(obj, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in obj.items())
    if isinstance(obj, (list, tuple)):
        return all(_plain(v) for v in obj)
    return isinstance(obj, PLAIN)


def test_every_view_returns_plain_values():
    outs = [view.clock(2, 5, 8), view.clock(3, 9, 16, 10000.0, "random"), view.scores(2, 5, 4, 8),
            view.animation(2, 5, 8), view.distance(8), view.hand_examples(), view.hand_table(),
            view.layouts(8, 1, 2), view.steps(3), view.attention_check(4), view.step_code(),
            view.calculator(1, 2, 3, 4, "pi3", 0.5, 5, 7)]
    for out in outs:
        assert _plain(out), type(out)


@pytest.mark.parametrize("d, base", [(8, 10000.0), (2, 10000.0), (64, 500000.0), (256, 1000000.0), (16, 10.0)])
def test_clock_caption_numbers_are_the_slowest_pair(d, base):
    """Issue 14: the caption's slowest θ is base^(−(d−2)/d) (at d=8: base^(−3/4)), not 1/base."""
    cv = view.clock(2, 5, d, base)
    theta = rope.rope_inv_freq(d, base)
    assert cv["slowest"] == float(theta[-1]) == float(theta.min())
    assert cv["slowest"] == pytest.approx(base ** (-cv["exponent"]), rel=1e-6)
    assert cv["exponent"] == (d - 2) / d and cv["last"] == d // 2 - 1
    assert int(cv["pairs"][-1]) == cv["last"]                        # the slowest pair is drawn
    if d == 8:
        assert cv["slowest"] == pytest.approx(base ** -0.75, rel=1e-6) and cv["slowest"] != pytest.approx(1 / base)


def test_clock_titles_state_what_is_drawn():
    """Unit hands: the arc drawn is (n−m)θ. Random content: the arc is the angle q→k, which is the
    content's own angle plus (n−m)θ — with m = n the rotation adds 0° but the arc is not 0°."""
    unit = view.clock(5, 5, 8)
    assert unit["plain"] and np.allclose(unit["hands"]["between"], unit["hands"]["delta"], atol=1e-5)
    rnd = view.clock(5, 5, 8, 10000.0, "random")
    assert not rnd["plain"]
    assert np.allclose(rnd["hands"]["delta"], 0.0)
    assert np.abs(rnd["hands"]["between"]).max() > 0.3              # the arc of the figure is not 0°
    q, k = rope_demos.content_vectors(8, "random", 0)
    content = rope_demos.clock_hands(0, 0, 8, q=q, k=k)["between"].numpy()[rope_demos.shown_pairs(8).numpy()]
    moved = view.clock(5, 9, 8, 10000.0, "random")["hands"]
    wrapped = rope.wrap_angle(torch.tensor(content + moved["delta"], dtype=torch.float64)).numpy()
    assert np.allclose(np.cos(moved["between"]), np.cos(wrapped), atol=1e-5)


def test_scores_and_deltas():
    sc = view.scores(2, 5, 4, 8)
    assert sc["scores"][0] == pytest.approx(sc["scores"][1], abs=1e-5) and sc["deltas"][0] is None
    assert sc["deltas"][1] == "+0.0000" and sc["deltas"][2] != "+0.0000"
    bug = view.scores(2, 5, 4, 8, only_q=True)
    assert bug["scores"][0] != pytest.approx(bug["scores"][1], abs=1e-3)


def test_animation_and_distance():
    av = view.animation(2, 5, 8, mode="both")
    assert av["q_xy"].shape == (view.ANIMATION_STEPS, 4, 2) and np.ptp(av["scores"]) < 1e-4
    assert np.ptp(view.animation(2, 5, 8, mode="key")["scores"]) > 0.5
    dv = view.distance(64)
    assert dv["mean"][view.MAX_SHOWN_DISTANCE] == pytest.approx(1.0)
    assert len(dv["distances"]) == 2 * view.MAX_SHOWN_DISTANCE + 1


def test_hand_table_rows():
    rows = view.hand_table()
    assert [r["example"] for r in rows] == list(view.EXAMPLES)
    assert rows[0]["rq"] == "[0.0, 1.0]" and rows[-1]["score"] == pytest.approx(-3.7679)


def test_step_code_is_the_source_of_apply_rope():
    """Every line the step-by-step section shows is a line of apply_rope or of what it calls."""
    src = inspect.getsource(rope.apply_rope) + inspect.getsource(rope.rotate_pairs) + inspect.getsource(
        rope.rope_inv_freq)
    for name, code in view.step_code().items():
        for line in code.splitlines():
            assert line in src, (name, line)
    assert [s for s, _ in view.STEPS] == list(view.step_code())


STEP_LINES = {    # what the step-by-step section shows: the code of each marked line
    "theta": "inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))",
    "angles": "angles = pos[..., None] * inv_freq",
    "cos_sin": "cos = (angles.cos() * attention_factor).to(x.dtype)[:, None]\n"
               "sin = (angles.sin() * attention_factor).to(x.dtype)[:, None]",
    "even_odd": "even, odd = x[..., 0::2], x[..., 1::2]",
    "rotated_even": "rotated_even = even * cos - odd * sin",
    "rotated_odd": "rotated_odd = even * sin + odd * cos",
    "out": "return torch.stack((rotated_even, rotated_odd), dim=-1).flatten(-2)",
}


def test_step_markers_each_mark_one_line():
    """Each step's line is found by its "(step: <marker>)" comment, not by its text: every marker the
    section reads is in the source of rope_inv_freq, apply_rope and rotate_pairs exactly once, and no
    other line of posviz.pe.rope or posviz.pe.rope_demos carries one."""
    wanted = [m for _, markers in view.STEP_MARKERS for m in markers]
    found = [view._MARKER.search(line)[1] for mod in (rope, rope_demos)
             for line in inspect.getsource(mod).splitlines() if view._MARKER.search(line)]
    assert sorted(found) == sorted(wanted) and len(set(wanted)) == len(wanted)
    assert view.step_code() == STEP_LINES


def _two_markers(x):
    a = x + 1                                                        # [...]  (step: angles)
    return a * 2                                                     # [...]  (step: angles)


def _no_markers(x):
    return x + 1                                                     # [...]


def test_a_missing_or_duplicated_marker_fails():
    with pytest.raises(LookupError, match="angles"):
        view.marked_lines((_two_markers,))
    with pytest.raises(LookupError, match="angles"):
        view.marked_lines((rope.apply_rope, _two_markers))
    with pytest.raises(LookupError, match="theta"):
        view.step_code((_no_markers,))
    with pytest.raises(LookupError, match="even_odd"):
        view.step_code((rope.rope_inv_freq, rope.apply_rope))       # rotate_pairs' lines are missing
    assert view.marked_lines((_no_markers,)) == {}


@pytest.mark.parametrize("p", [0, 3, 900, 10000, view.STEP_MAX_P])
def test_steps_values(p):
    sv = view.steps(p)
    assert sv["positions"] == [p, p + 1, p + 2] and sv["max_diff"] == 0.0
    out = rope.apply_rope(torch.tensor(view.STEP_X).expand(1, 1, 3, 8).contiguous(), torch.arange(3) + p)[0, 0]
    assert [float(sv["tables"]["out"][r][str(j)]) for r in range(3) for j in range(8)] == pytest.approx(
        [round(float(v), 4) for v in out.flatten()], abs=1e-4)
    theta = [float(v) for v in sv["tables"]["inv_freq"][0].values() if v != "θᵢ"]
    assert theta == pytest.approx(rope.rope_inv_freq(8).tolist(), rel=1e-8)
    assert set(sv["tables"]) == {t for _, ts in view.STEPS for t in ts}


def test_attention_check():
    at = view.attention_check(4)
    assert at["sdpa_vs_own"] < 1e-5 and at["shift"] < 1e-4 and at["plain_shuffle"] < 1e-5
    assert at["rope_shuffle"] > 1e-2 and at["shape"] == [2, 4, 6, 8]
    assert view.attention_check(-64)["shift"] < 1e-4


def test_calculator_matches_the_articles_examples():
    c = view.calculator(1, 2, 3, 4, "pi3", 0.5, 5, 7)                 # §17: (5,7) -> -5.5 + sqrt(3)
    assert c["score"] == pytest.approx(-5.5 + math.sqrt(3)) and c["closed"] == pytest.approx(c["score"])
    assert c["phi"] == pytest.approx(2 * math.pi / 3) and c["dot"] == 11 and c["cross"] == 2
    c = view.calculator(1, 0, 1, 0, "pi2", 0.5, 1, 3)                 # §08: -1
    assert c["score"] == pytest.approx(-1.0) and c["rq"] == pytest.approx([0, 1], abs=1e-12)
    c = view.calculator(1, 2, 3, 4, "other", 0.25, 2, 9, True)       # only q: phi = -p theta
    assert c["rk"] == [3.0, 4.0] and c["phi"] == pytest.approx(-0.5)
    assert c["score"] == pytest.approx(c["closed"])


@pytest.mark.parametrize("call, name", [
    (lambda: view.animation(1, 2, 8, mode="up"), "mode"),
    (lambda: view.animation(1e300, 2, 8), "m"),
    (lambda: view.distance(8, max_distance=0), "max_distance"),
    (lambda: view.steps(-1), "p"),
    (lambda: view.calculator(1, 2, 3, 4, "pi4", 0.5, 1, 2), "theta"),
    (lambda: view.calculator(1, 2, 3, 4, "other", float("inf"), 1, 2), "theta"),
    (lambda: view.calculator(1, 2, 3, 4, "pi3", 0.5, 1e300, 2), "position"),
    (lambda: view.clock(1, 2, 7), "head_dim"),
])
def test_views_raise_coded_errors(call, name):
    with pytest.raises(PosvizError, match=name):
        call()


def test_scene_1_states_the_score_the_page_shows_and_the_articles_minus_one():
    """Issue 26 item 5: scene 1 (d = 2, m = 1, n = 3, unit hands) shows cos 2 = −0.4161 under the clock
    (θ₀ = 1 rad); the narration quoted only §08's −1 (θ = π/2). It now states both, each as computed."""
    from posviz import text
    from posviz.scenes.rope import SCENES

    v = SCENES["rope"][0]["values"]
    sc = view.scores(v["rope_m"], v["rope_n"], v["rope_shift"], v["rope_dim"], float(v["rope_base"]), v["rope_content"])
    shown = f"{sc['scores'][0]:.4f}".replace("-", "−")
    assert shown == "−0.4161" and sc["scores"][0] == pytest.approx(math.cos(2), abs=1e-6)
    hand = next(r for r in view.hand_examples() if r["example"] == v["rope_example"])
    assert hand["score"] == pytest.approx(-1, abs=1e-6)                          # §08: θ = π/2
    for lang in text.LANGS:
        say = text.get(lang, SCENES["rope"][0]["say"])
        assert shown in say and "−1" in say and "π/2" in say, lang


def test_at_d_2_the_clock_caption_names_one_pair():
    """Issue 26 item 5: at d = 2 the caption read "from the fastest (pair 0) to the slowest (pair 0 …)"."""
    from posviz import text

    assert view.clock(1, 3, 2)["last"] == 0
    for lang in text.LANGS:
        one = text.get(lang, "rope.clock.caption.one")
        assert "{last}" not in one and ("one pair" in one or "只有一对" in one)


def test_the_layout_verdicts_are_computed_from_the_scores():
    """Issue 33 item 9: at d = 2 the page printed "half code, interleaved weights = 1.2515, wrong" beside the same
    1.2515: the two pairings are one there. The verdict is the view's, from the numbers."""
    for d in view.DIMS:
        lv = view.layouts(d, 1, 5)
        close = abs(lv["mixed"] - lv["interleaved"]) <= 1e-5 * max(1.0, abs(lv["interleaved"]))
        assert lv["verdict"]["half"] == ("one" if d == 2 else "same")
        assert lv["verdict"]["mixed"] == ("one" if d == 2 else "same" if close else "wrong"), d
    lv = view.layouts(2, 1, 5)
    assert lv["mixed"] == pytest.approx(lv["interleaved"]) and lv["verdict"] == {"half": "one", "mixed": "one"}
    assert view.layouts(8, 2, 5)["verdict"] == {"half": "same", "mixed": "wrong"}


def test_the_sdpa_check_covers_grouped_query_heads():
    at = view.attention_check()
    assert at["gqa_heads"] == [4, 2] and at["gqa_group"] == [0, 0, 1, 1] and at["gqa"] < 1e-6
