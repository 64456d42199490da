"""AppTest of the debugging checklist page."""
import pytest

from conftest import assert_clean, open_page
from posviz import scenes, text
from posviz.lab import checklist


def _verdicts(at, lang="en"):
    return list(at.dataframe[0].value.iloc[:, 2])


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


def test_scenes_apply():
    at = open_page("checks", "zh")
    for sc in scenes.SCENES["checks"]:
        at.button(key="checks_next").click().run()
        assert_clean(at)
        broken = [i for i in checklist.STEPS if sc["values"][f"chk_break{i}"]]
        v = _verdicts(at)
        assert [i for i in checklist.STEPS if v[i - 1] == text.get("zh", "checks.fail")] == broken


def test_number_inputs_accept_answers():
    at = open_page("checks", "en")
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


@pytest.mark.parametrize("params", [dict(chk_ex1_a="abc"), dict(chk_ex1_a="1e308"), dict(chk_break3="maybe"),
                                    dict(chk_ex3="-5")])
def test_bad_query_params_do_not_raise(params):
    at = open_page("checks", "en", **params)
    assert not at.exception
