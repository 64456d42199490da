"""AppTest of the debugging checklist page: nine checks, their break switches, the fixed exercises of §17,
the generated problems, and the text checked against the functions it describes."""
import inspect
import re

import pytest

from harness.apptest import assert_clean, markdown_tables, open_page
from posviz import scenes, text
from posviz.lab import checklist, exercises
from posviz.text import checks as checks_text
from posviz.views import checks as view


def _verdicts(at, lang="en"):
    return list(markdown_tables(at)[0].iloc[:, 2])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders_all_pass(lang):
    at = open_page("checks", lang)
    assert_clean(at)
    assert _verdicts(at) == [text.get(lang, "checks.pass")] * 9
    assert not at.warning


@pytest.mark.parametrize("step", checklist.STEPS)
def test_break_switch_fails_its_step(step):
    at = open_page("checks", "en")
    at.toggle(key=f"chk_break{step}").set_value(True).run()
    assert_clean(at)
    v = _verdicts(at)
    assert v[step - 1] == "FAIL"
    assert v.count("FAIL") == 1
    assert any(text.get("en", f"checks.step{step}.fail") == w.value for w in at.warning)


def test_scenes_fail_exactly_their_steps_in_chinese():
    """tests/app/test_scenes.py checks the widgets of each scene; here: the verdicts it produces, in Chinese."""
    at = open_page("checks", "zh")
    for sc in scenes.SCENES["checks"]:
        at.button(key="checks_next").click().run()
        assert_clean(at)
        broken = [i for i in checklist.STEPS if sc["values"][f"chk_break{i}"]]
        v = _verdicts(at)
        assert [i for i in checklist.STEPS if v[i - 1] == text.get("zh", "checks.fail")] == broken
        # issue 26 item 12: a scene shows the box of the step it breaks (its heading and FAIL badge; the break
        # switch sits below them), or the summary when it compares steps (2 and 7) or breaks none
        assert sc["show"] in ({f"chk_step{i}" for i in broken} if len(broken) == 1 else {"chk_summary", "chk_gen_seed"})


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_step_1_uses_the_overview_sentence(lang):
    at = open_page("checks", lang)
    a, b = text.get(lang, "overview.default_a"), text.get(lang, "overview.default_b")
    md = " ".join(m.value for m in at.markdown)
    assert f"“{a}”" in md and f"“{b}”" in md
    if lang == "zh":
        assert (a, b) == ("猫追狗", "狗追猫") and "dog" not in md
    numbers = markdown_tables(at)[1]                     # step 1's table
    assert "[2, 1, 0]" in list(numbers.iloc[:, 1])


def test_step_8_shows_the_hard_boundary_in_the_users_language():
    at = open_page("checks", "zh")
    assert_clean(at)
    boundary = [i.value for i in at.info if "PositionOutOfRangeError" in i.value]
    assert len(boundary) == 1
    assert "这正是文章提醒的硬边界" in boundary[0] and "max_length=8" in boundary[0]
    assert not re.search(r"[A-Za-z]{3,} [a-z]{3,} [a-z]{3,}", boundary[0].replace("PositionOutOfRangeError", ""))
    assert not at.warning and not at.error               # a pass, shown as what it is: not "invalid input"
    at.toggle(key="chk_break8").set_value(True).run()
    values = [v for df in markdown_tables(at) for v in df.iloc[:, -1]]
    assert text.get("zh", "chk.v.no_error") in values and "no error" not in values


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_method_and_cache_mode_are_words_in_the_users_language(lang):
    """Steps 1 and 6 name a position method and a cache mode: as the overview and KV-cache pages name them,
    never as the code ("nope", "restart") the check returns."""
    def value(at, number):
        rows = {row.iloc[0]: row.iloc[1] for df in markdown_tables(at) if df.shape[1] == 2 for _, row in df.iterrows()}
        return rows[text.get(lang, number)]

    at = open_page("checks", lang)
    assert value(at, "chk.n.method") == text.get(lang, "w.ov_method.nope")
    assert value(at, "chk.n.mode") == text.get(lang, "w.kv_modes.correct")
    at.toggle(key="chk_break1").set_value(True).run()
    at.toggle(key="chk_break6").set_value(True).run()
    assert_clean(at)
    assert value(at, "chk.n.method") == text.get(lang, "w.ov_method.rope")
    assert value(at, "chk.n.mode") == text.get(lang, "w.kv_modes.restart")


@pytest.mark.parametrize("present", ["0", "1"])
def test_tables_are_markdown_in_both_modes(present):
    """Short read-only tables: one markdown element each (the projector CSS enlarges them; no canvas)."""
    at = open_page("checks", "zh", present=present)
    assert_clean(at)
    assert not at.dataframe and not at.table
    assert len(markdown_tables(at)) == 1 + 9 + 3    # summary, nine steps, the tables of steps 2, 6, 9
    assert text.get("zh", "checks.numbers") == "测量项"


def test_exercises_and_problems_run_only_when_opened():
    """Both deep dives are closed on a plain visit (their widgets are not even made), open from the
    expander, from ?chk_more_ex=true, or from a link that carries one of their answers."""
    at = open_page("checks", "en")
    assert_clean(at)
    keys = {w.key for w in at.number_input}
    assert not keys & {"chk_ex1_a", "chk_gen_seed"}
    assert [e.label for e in at.expander if e.label.startswith(("Exercises", "New problems"))] == [
        text.get("en", "w.chk_more_ex"), text.get("en", "w.chk_more_gen")]
    at = open_page("checks", "en", chk_more_ex="true")
    assert "chk_ex1_a" in {w.key for w in at.number_input} and "chk_gen_seed" not in {w.key for w in at.number_input}
    at = open_page("checks", "zh", chk_ex1_a="7.23")
    assert at.number_input(key="chk_ex1_a").value == 7.23 and at.success


def test_number_inputs_accept_answers():
    at = open_page("checks", "en", chk_more_ex="true")
    ex1 = checklist.exercise_1()
    assert not at.success
    at.number_input(key="chk_ex1_a").set_value(7.23).run()
    at.number_input(key="chk_ex1_b").set_value(7.232).run()
    assert_clean(at)
    assert len(at.success) == 2
    at.number_input(key="chk_ex1_c").set_value(3.77).run()        # sign error
    assert any("3.77" in w.value for w in at.warning)
    at.number_input(key="chk_ex1_c").set_value(round(ex1[2]["closed_form"], 3)).run()
    assert_clean(at)
    assert len(at.success) == 3
    assert any("7.2321" in m.value for m in at.markdown)          # worked answer revealed
    at.number_input(key="chk_ex2_a").set_value(3.768).run()
    at.number_input(key="chk_ex2_b").set_value(7.232).run()
    at.number_input(key="chk_ex3").set_value(2).run()
    assert_clean(at)
    assert len(at.success) == 6


def test_reveal_switches():
    at = open_page("checks", "zh", chk_reveal1="true", chk_reveal2="true", chk_reveal3="true")
    assert_clean(at)
    md = " ".join(m.value for m in at.markdown)
    assert "7.2321" in md and "-3.7679" in md and "3.7679" in md and "**位置 2**" in md


def test_generated_problem_from_the_url_predict_then_reveal():
    at = open_page("checks", "en", chk_gen_seed="22")
    assert_clean(at)
    prob = exercises.problem(22)
    md = " ".join(m.value for m in at.markdown)
    assert text.get("en", "checks.gen.q").format(q=prob["q"], k=prob["k"], theta="π/3", p=2, s=1) in md
    assert not at.latex or all("bmatrix" not in x.value for x in at.latex)     # not revealed yet
    for key, value in zip(("chk_gen_q1", "chk_gen_q2", "chk_gen_k1", "chk_gen_k2", "chk_gen_score"),
                          exercises.answers(prob)):
        at.number_input(key=key).set_value(round(value, 4)).run()
    assert_clean(at)
    assert len(at.success) == 5
    latex = [x.value for x in at.latex]
    assert any(r"\frac{3\sqrt{3}}{2}" in x for x in latex)                     # −1 + 3√3/2, exactly
    assert any("−1 + 3√3/2" in str(t.to_dict()) for t in markdown_tables(at))
    md = " ".join(m.value for m in at.markdown)
    assert "Δ = " in md
    # the next problem: seed + 1, the guesses cleared, the answer hidden again
    at.button(key="chk_gen_new").click().run()
    assert_clean(at)
    assert at.number_input(key="chk_gen_seed").value == 23
    assert at.number_input(key="chk_gen_score").value is None
    assert at.query_params["chk_gen_seed"] in ("23", ["23"])


def test_generated_problem_with_only_q_rotated_says_so_in_chinese():
    seed = next(s for s in range(100) if exercises.problem(s)["only_q"])
    at = open_page("checks", "zh", chk_gen_seed=str(seed), chk_gen_reveal="true")
    assert_clean(at)
    md = " ".join(m.value for m in at.markdown)
    assert "已植入 bug" in md
    assert "共同平移测试失败" in md or "碰巧" in md


def test_quoted_numbers_match_the_checks():
    """The narration's numbers are the defaults of the functions that run the checks."""
    d = lambda fn: {k: v.default for k, v in inspect.signature(fn).parameters.items()}   # noqa: E731
    assert (d(checklist.step_3)["p"], d(checklist.step_3)["s"], d(checklist.step_3)["delta"]) == (3, 7, 100)
    assert d(checklist._content)["d"] == 8 and d(checklist.step_4)["move"] == 1
    assert (d(checklist.step_6)["length"], d(checklist.step_6)["prefill_length"]) == (8, 4)
    assert d(checklist.step_8)["max_length"] == 8 and max(checklist.LONG_POSITIONS) == 30000
    ex3 = d(checklist.exercise_3)
    assert (ex3["length"], ex3["prefill_length"], ex3["heads"], ex3["head_dim"]) == (4, 2, 1, 4)
    assert view.fixed_exercises()["ex3_answer"] == 2
    for lang in ("en", "zh"):
        t = checks_text.EN if lang == "en" else checks_text.ZH
        assert all(n in t["checks.step3.what"] for n in ("d = 8", "p = 3", "s = 7", "Δ = 100"))
        assert "M = 8" in t["checks.step8.what"] and "30000" in t["chk.n.max_angle_err"]
        assert "4..7" in t["checks.step6.fail"] and "d = 4" in t["checks.ex3.answer"]
        assert "3√3/2" in t["checks.scene.generator.say"] and "22" in t["checks.scene.generator.say"]
    prob = exercises.problem(22)
    assert (prob["q"], prob["k"], prob["theta"]["text"], prob["p"], prob["s"]) == ([-2, -3], [1, 0], "π/3", 2, 1)
    assert prob["score"]["text"] == "−1 + 3√3/2"


def test_no_seed_article_citations_in_the_page_text():
    """Articles are cited by title; only the problem number may call itself a random seed."""
    for tables in (checks_text.EN, checks_text.ZH):
        for key, s in tables.items():
            s = s.replace("random seed", "").replace("随机种子", "")
            assert not re.search(r"seed|种子", s, re.I), key
        assert "dog bites man" not in " ".join(tables.values())
    assert not any("前后半布局" in s or "对半" in s for s in checks_text.ZH.values())
