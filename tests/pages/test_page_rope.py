"""AppTest of app_pages/rope.py: both languages, controls change figures, the new sections (calculator,
apply_rope step by step, rope_attention), scenes show their figure, bad URLs still draw every figure.

Scene order / URL round trip and hostile query parameters are covered for every page by
tests/app/test_scenes.py and tests/app/test_fuzz_pages.py; what they do not assert stays here."""
import json

import pytest

from harness.apptest import assert_clean, charts, figures, open_page
from posviz import scenes, text

FIGURES = 6        # clocks, animation, distance, worked example, calculator, layouts
SCORE, CALC, SDPA, LAYOUT = 0, 3, 4, 9     # index of the first metric of each section (SDPA: 4 + grouped heads)


def _metric_values(at):
    return [m.value for m in at.metric]


def _plot_keys(at):
    return list(charts(at))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders(lang):
    at = open_page("rope", lang)
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == FIGURES
    anim = [f for f in figs if f.get("frames")]
    assert len(anim) == 1 and len(anim[0]["frames"]) == 48
    assert anim[0]["layout"]["updatemenus"][0]["buttons"][0]["method"] == "animate"
    # the shift test: score before and after the common shift are equal, moving the key differs
    vals = _metric_values(at)
    assert vals[SCORE] == vals[SCORE + 1] and vals[SCORE + 2] != vals[SCORE]
    # the two layouts give identical scores; mixing them does not
    assert vals[LAYOUT] == vals[LAYOUT + 1] and vals[LAYOUT + 2] != vals[LAYOUT]
    title = at.title[0].value
    assert title == text.get(lang, "rope.title")
    # hand example table of the seeds
    df = at.dataframe[0].value
    assert len(df) == 6


def test_clock_caption_states_the_computed_slowest_pair():
    """Issue 14: "θ ≈ 1/base" was wrong (d=8: base^(-3/4) = 0.001, not 1e-4)."""
    at = open_page("rope", "en")
    caption = next(c.value for c in at.caption if "slowest" in c.value)
    assert "10000^(−0.75) ≈ 0.001 rad" in caption and "1/base" not in caption
    at = open_page("rope", "en", rope_dim="64", rope_base="500000")
    caption = next(c.value for c in at.caption if "slowest" in c.value)
    assert "pair 31" in caption and "500000^(−0.9688) ≈ 3.01e-06" in caption


def test_random_content_titles_do_not_claim_a_zero_arc():
    at = open_page("rope", "en", rope_m="5", rope_n="5", rope_content="random")
    assert_clean(at)
    titles = [a["text"] for a in figures(at)[0]["layout"]["annotations"]]
    assert all(t.endswith("(n−m)θ = 0°") and "angle q→k = " in t for t in titles)
    assert any("angle q→k = 0°" not in t for t in titles)


def test_controls_change_figures():
    at = open_page("rope", "en")
    before = figures(at)
    at.slider(key="rope_m").set_value(5).run()
    assert_clean(at)
    after = figures(at)
    assert before[0]["data"] != after[0]["data"]
    assert after[0]["layout"]["annotations"][0]["text"].endswith("0°")   # (n-m)θ0 = 0 when m = n = 5
    vals = _metric_values(at)
    assert vals[SCORE] == vals[SCORE + 1]
    at.select_slider(key="rope_dim").set_value(64).run()
    assert_clean(at)
    at.toggle(key="rope_only_q").set_value(True).run()
    assert_clean(at)
    vals = _metric_values(at)
    assert vals[SCORE] != vals[SCORE + 1]                             # only Q rotated: the shift test fails
    at.radio(key="rope_anim").set_value("key").run()
    assert_clean(at)
    at.selectbox(key="rope_example").set_value("s17_c").run()
    assert_clean(at)
    hand = figures(at)[3]
    assert "-3.7679" in hand["layout"]["title"]["text"]


def test_calculator():
    at = open_page("rope", "en")
    assert _metric_values(at)[CALC] == "-3.7679"                      # §17: q=[1,2], k=[3,4], θ=π/3, (5,7)
    assert any(r"&= -3.7679" in m.value for m in at.latex)
    at.number_input(key="rope_calc_p").set_value(6).run()
    at.number_input(key="rope_calc_s").set_value(8).run()
    assert_clean(at)
    assert _metric_values(at)[CALC] == "-3.7679"                      # same s - p: same score
    at.toggle(key="rope_calc_only_q").set_value(True).run()
    only_q = _metric_values(at)[CALC]
    at.number_input(key="rope_calc_p").set_value(7).run()
    at.number_input(key="rope_calc_s").set_value(9).run()
    assert _metric_values(at)[CALC] != only_q                         # the bug: a common shift changes it
    # a link sets every input of the calculator
    at = open_page("rope", "en", rope_calc_theta="other", rope_calc_theta_x="0.25", rope_calc_q1="1",
                   rope_calc_q2="0", rope_calc_k1="1", rope_calc_k2="0", rope_calc_p="0", rope_calc_s="4")
    assert_clean(at)
    assert _metric_values(at)[CALC] == "0.5403"                       # cos(4 · 0.25) = cos 1
    at = open_page("rope", "en", rope_calc_only_q="true", rope_calc_p="7", rope_calc_s="9")
    assert _metric_values(at)[CALC] != only_q and at.toggle(key="rope_calc_only_q").value


def test_apply_rope_steps_are_a_closed_deep_dive_by_default():
    """The step-by-step section sits behind a lazy expander: closed, nothing of it runs (issue 12)."""
    at = open_page("rope", "en")
    assert_clean(at)
    assert [e.label for e in at.expander if e.label == text.get("en", "w.rope_steps")]
    assert not [s for s in at.slider if s.key == "rope_step_p"]
    assert len(at.dataframe) == 1                                     # the worked examples' table only
    assert "rotated_even = even * cos - odd * sin" not in [c.value for c in at.code]


def test_apply_rope_step_by_step_and_sdpa():
    at = open_page("rope", "zh", rope_steps="true", rope_step_p="900")
    assert_clean(at)
    assert at.slider(key="rope_step_p").value == 900
    codes = [c.value for c in at.code]
    assert "rotated_even = even * cos - odd * sin" in codes
    assert "return torch.stack((rotated_even, rotated_odd), dim=-1).flatten(-2)" in codes
    tables = [t.value for t in at.dataframe]
    assert any(list(t.iloc[:, 0]) == ["p=900", "p=901", "p=902"] for t in tables)
    vals = _metric_values(at)
    sdpa_vs_own, shift, plain, roped = (float(v) for v in vals[SDPA:SDPA + 4])
    assert sdpa_vs_own < 1e-5 and shift < 1e-4 and plain < 1e-5 and roped > 1e-2


def test_lecture_mode_draws_tables_as_st_table():
    at = open_page("rope", "en", present="1", rope_steps="true")
    assert_clean(at)
    assert len(at.table) >= 10 and len(figures(at)) == FIGURES


def test_every_scene_shows_a_figure_of_the_page():
    at = open_page("rope", "en")
    keys = set(_plot_keys(at)) | {"rope_scores"}       # scene 1 lands on the scores it quotes (issue 33 item 3)
    for sc in scenes.SCENES["rope"]:
        assert sc["show"] in keys, sc["show"]


def test_scenes_run_in_chinese():
    """The shared scene test runs in English; the Chinese page walks the same story cleanly."""
    at = open_page("rope", "zh")
    n = len(scenes.SCENES["rope"])
    for i in range(n):
        at.button(key="rope_next").click().run()
        assert_clean(at)
        for key, value in scenes.SCENES["rope"][i]["values"].items():
            assert at.session_state[key] == value, (i, key)
    assert at.slider(key="rope_m").value == scenes.SCENES["rope"][-1]["values"]["rope_m"]


@pytest.mark.parametrize("params", [
    dict(rope_m="-5"), dict(rope_n="1e308"), dict(rope_shift="abc"), dict(rope_dim="7"),
    dict(rope_dim="abc"), dict(rope_base="1"), dict(rope_base="-3"), dict(rope_content="<b>x</b>"),
    dict(rope_example="nope"), dict(rope_anim="x"), dict(rope_only_q="maybe"),
    dict(rope_step_p="-3", rope_steps="true"),
    dict(rope_calc_theta="pi4"), dict(rope_calc_theta_x="nan"), dict(rope_calc_p="1e9"),
])
def test_bad_query_params_still_draw_every_figure(params):
    """Beyond "no exception" (the fuzz test): a bad value is dropped and every figure is still drawn."""
    at = open_page("rope", "en", **params)
    assert not at.exception, [e.value for e in at.exception]
    assert len(figures(at)) == FIGURES


def test_max_settings():
    at = open_page("rope", "en", rope_m="128", rope_n="0", rope_shift="-64", rope_dim="256",
                   rope_base="1000000", rope_content="random", rope_anim="key", rope_steps="true",
                   rope_step_p="100000")
    assert_clean(at)
    figs = figures(at)
    assert max(len(json.dumps(f)) for f in figs) < 300_000


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_where_rope_sits_is_a_plain_text_diagram(lang):
    """The pipeline diagram is st.text (ui.diagram), not st.code: a code block would load the syntax
    highlighter's 1.5 MB of JavaScript on every page load for nothing to highlight."""
    at = open_page("rope", lang)
    assert_clean(at)
    assert text.get(lang, "rope.where.diagram") in [t.value for t in at.text]
    assert not at.code


def test_scene_1_caption_names_one_pair_and_the_first_score_is_the_narrations():
    """Issue 26 item 5, on the page: scene 1 (d = 2) captions one pair (not "from pair 0 to pair 0"), and the
    first score under the clock is the −0.4161 the narration states."""
    at = open_page("rope", "en")
    at.button(key="rope_next").click().run()
    captions = [c.value for c in at.caption]
    assert text.get("en", "rope.clock.caption.one") in captions
    assert not any("to the slowest (pair 0" in c for c in captions)
    assert _metric_values(at)[SCORE] == "-0.4161"
    assert "−0.4161" in at.info[0].value


def test_layout_metrics_at_d_2_call_the_one_pairing_the_same():
    """Issue 33 item 9: the verdict beside "half code, interleaved weights" is computed: at d = 2 it is not "wrong"."""
    for lang in ("en", "zh"):
        at = open_page("rope", lang, rope_dim="2")
        deltas = {m.label: m.proto.delta for m in at.metric}
        mixed = deltas[text.get(lang, "rope.layout.m_mixed")]
        assert mixed == text.get(lang, "rope.layout.one", d=2) and text.get(lang, "rope.layout.wrong") not in mixed
        at = open_page("rope", lang)
        assert {m.label: m.proto.delta for m in at.metric}[text.get(lang, "rope.layout.m_mixed")] == \
            text.get(lang, "rope.layout.wrong")
