import pytest
from conftest import assert_clean, figures, open_page

from posviz import scenes, text


def _metric(at):
    return float(at.metric[0].value)


@pytest.mark.parametrize("lang, a, b", [("en", "dog bites man", "man bites dog"), ("zh", "猫追狗", "狗追猫")])
def test_default_page_both_languages(lang, a, b):
    at = open_page("overview", lang)
    assert_clean(at)
    assert at.title[0].value == text.get(lang, "overview.title")
    assert at.text_input(key="ov_a").value == a and at.text_input(key="ov_b").value == b
    assert _metric(at) < 1e-5                                # NoPE, no mask: equivariant
    assert at.success
    assert len(figures(at)) == 3
    assert len(at.get("graphviz_chart")) == 1
    assert len(at.get("page_link")) >= 6
    assert "Sinusoidal APE" in at.markdown[0].value or any("Sinusoidal APE" in m.value for m in at.markdown)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_position_or_mask_breaks_equivariance(lang):
    at = open_page("overview", lang)
    before = figures(at)[0]
    at.selectbox(key="ov_method").set_value("rope").run()
    assert_clean(at)
    assert _metric(at) > 1e-2 and at.warning
    assert figures(at)[0]["data"][2] != before["data"][2]
    at.selectbox(key="ov_method").set_value("nope").run()
    at.toggle(key="ov_causal").set_value(True).run()
    assert _metric(at) > 1e-2                                # the causal mask leaks position


def test_seat_slider_changes_the_figure():
    at = open_page("overview", "en")
    before = figures(at)[2]
    at.slider(key="ov_len").set_value(2048).run()
    assert_clean(at)
    assert figures(at)[2] != before


def test_scenes_apply():
    at = open_page("overview", "zh")
    for i, sc in enumerate(scenes.SCENES["overview"]):
        at.button(key="overview_next").click().run()
        assert_clean(at)
        for k, v in sc["values"].items():
            assert at.session_state[k] == v


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("bad", ["", "   ", "<script>alert(1)</script>", "x" * 10_000, "dog bites cat"])
@pytest.mark.parametrize("key", ["ov_a", "ov_b"])
def test_invalid_sentences(lang, bad, key):
    at = open_page("overview", lang, **{key: bad})
    assert not at.exception
    assert at.error                                          # not a permutation / empty / too long
    assert len(figures(at)) == 1                             # the seat-number figure still draws


def test_markup_is_plain_text():
    at = open_page("overview", "en", ov_a="<b>x</b> y", ov_b="y <b>x</b>")
    assert_clean(at)
    fig = figures(at)[0]
    assert "&lt;b&gt;x&lt;/b&gt;" in str(fig["data"][0]["y"])


@pytest.mark.parametrize("params", [dict(ov_len="-5"), dict(ov_len="1e308"), dict(ov_len="abc"),
                                    dict(ov_method="<b>"), dict(ov_causal="2")])
def test_bad_query_params(params):
    at = open_page("overview", "en", **params)
    assert not at.exception


def test_links_to_every_page():
    at = open_page("overview", "en")
    assert len(at.get("page_link")) == 9


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_debugging_step_1_note(lang):
    """Seed 000 §12 step 1 (no-position control) is named where it is run: NoPE without a mask."""
    at = open_page("overview", lang)
    assert any(c.value == text.get(lang, "overview.step1") for c in at.caption)
    at.toggle(key="ov_causal").set_value(True).run()
    assert not any(c.value == text.get(lang, "overview.step1") for c in at.caption)
