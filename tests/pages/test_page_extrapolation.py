"""AppTest of the extrapolation page: every preset in both languages, scenes, controls, the paste
box, and hostile query parameters."""
import pytest
from conftest import assert_clean, figures, open_page

from posviz import scenes, text
from posviz.pe import models as presets


def _captions(at):
    return " ".join(c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key", presets.KEYS)
def test_every_preset_both_languages(lang, key):
    p = presets.PRESETS[key]
    # choice widgets carry their option code in the URL (posviz.ui)
    at = open_page("extrapolation", lang, ext_preset=key, ext_ltrain=str(p["l_train"]),
                   ext_ltarget=str(p["l_target"]))
    assert_clean(at)
    assert at.title[0].value == text.get(lang, "extrapolation.title")
    figs = figures(at)
    assert len(figs) == 6                                 # ratio, wavelength, phase, spectra, decay, paste
    assert p["source"] in _captions(at)                   # the preset's source is shown
    assert len(at.metric) == 5
    assert at.metric[4].value == str(presets.preset(key)["head_dim"])
    assert max(len(str(f)) for f in figs) < 300_000


def test_llama31_default_view_shows_bands():
    at = open_page("extrapolation", "en")
    assert_clean(at)
    ratio = figures(at)[0]
    assert [tr["type"] for tr in ratio["data"]] == ["bar"] * 3
    names = [tr["name"] for tr in ratio["data"]]
    assert names == [text.get("en", f"extrapolation.fig.band{b}").format(n=n) for b, n in ((0, 29), (1, 6), (2, 29))]


def test_method_and_lengths_change_figures():
    at = open_page("extrapolation", "zh", ext_preset="llama2_7b", ext_ltrain="4096", ext_ltarget="16384",
                   ext_method="default")
    assert at.session_state["ext_method"] == "default"
    assert_clean(at)
    phase = figures(at)[2]
    assert "18" in phase["layout"]["title"]["text"]
    at.selectbox(key="ext_method").set_value("linear").run()
    assert_clean(at)
    assert figures(at)[2]["layout"]["title"]["text"] != phase["layout"]["title"]["text"]
    before = figures(at)[4]
    at.select_slider(key="ext_ltarget").set_value(65536).run()
    assert_clean(at)
    assert figures(at)[4] != before


def test_scenes_apply():
    at = open_page("extrapolation", "en")
    items = scenes.SCENES["extrapolation"]
    assert 3 <= len(items) <= 6
    for sc in items:
        at.button(key="extrapolation_next").click().run()
        assert_clean(at)
        for k, v in sc["values"].items():
            assert at.session_state[k] == v
    assert at.session_state["ext_preset"] == "llama31_8b"


def test_preset_change_sets_lengths():
    at = open_page("extrapolation", "en", ext_preset="llama2_7b")
    assert at.session_state["ext_preset"] == "llama2_7b"
    at.selectbox(key="ext_preset").set_value("qwen25_7b_yarn").run()
    assert_clean(at)
    assert at.select_slider(key="ext_ltrain").value == 32768
    assert at.select_slider(key="ext_ltarget").value == 131072
    assert at.selectbox(key="ext_method").value == "model"


def test_url_carries_codes_and_reopens_the_view():
    at = open_page("extrapolation", "en", ext_preset="deepseek_v3", ext_ltrain="4096", ext_ltarget="163840",
                   ext_method="yarn")
    assert_clean(at)
    assert at.session_state["ext_preset"] == "deepseek_v3" and at.metric[4].value == "64"
    assert at.query_params["ext_preset"] in ("deepseek_v3", ["deepseek_v3"])


def test_custom_model():
    at = open_page("extrapolation", "zh", ext_preset="custom", ext_head_dim="64", ext_theta="500000.0")
    assert_clean(at)
    assert at.metric[4].value == "64"
    at.select_slider(key="ext_head_dim").set_value(256).run()
    assert_clean(at)
    assert at.metric[4].value == "256"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_paste_box(lang):
    at = open_page("extrapolation", lang, ext_preset="pasted")
    assert_clean(at)
    assert len(at.dataframe) == 2                         # parsed parameters + presets table
    area = at.text_area(key="ext_paste")
    assert area.max_chars == 65536
    area.set_value(presets.preset_json("deepseek_v3")).run()
    assert_clean(at)
    assert at.metric[4].value == "64"
    # hostile paste: an error box with the message as plain code, the page goes on (falls back)
    at.text_area(key="ext_paste").set_value('{"rope_scaling": {"rope_type": "[x](javascript:alert(1))"}, '
                                           '"head_dim": 64}').run()
    assert not at.exception
    assert len(at.error) == 1 and at.error[0].value == text.get(lang, "ui.invalid")
    assert "javascript" in at.code[0].value
    assert len(figures(at)) == 5                          # the main figures, for the fallback preset
    at.text_area(key="ext_paste").set_value('{"head_dim": 64, "rope_theta": NaN}').run()
    assert not at.exception and len(at.error) == 1
    at.text_area(key="ext_paste").set_value('{"head_dim": 64, "rope_scaling": {"rope_type": "linear", '
                                           '"factor": 0.5}}').run()
    assert not at.exception and "factor" in at.code[0].value


@pytest.mark.parametrize("params", [
    {"ext_ltrain": "-5"}, {"ext_ltrain": "abc"}, {"ext_ltarget": "1e308"}, {"ext_ltarget": "99999999999"},
    {"ext_preset": "nope"}, {"ext_method": "xpos"}, {"ext_preset": "Llama 2 7B"},
    {"ext_preset": "custom", "ext_head_dim": "7"}, {"ext_preset": "custom", "ext_theta": "1.0"},
    {"ext_preset": "pasted", "ext_paste": "{" * 100}, {"ext_ltrain": "1048576", "ext_ltarget": "256"},
])
def test_bad_query_params_do_not_raise(params):
    at = open_page("extrapolation", "en", **params)
    assert not at.exception, [e.value for e in at.exception]
    assert figures(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluation_note_links_to_length_page(lang):
    """Seed 000 §14: report per length bucket, not just 'no OOM'; link to the page that does it."""
    at = open_page("extrapolation", lang)
    assert not at.exception
    assert any(m.value == text.get(lang, "extrapolation.why.eval") for m in at.markdown)
    assert len(at.get("page_link")) == 1
