"""AppTest of the page of today's mechanisms (M-RoPE and MLA): both languages, lecture mode, every model, the
conditional fps widget, the deep dive, and the numbers the page prints against the view's."""
import pytest

from harness.apptest import assert_clean, figures, markdown_tables, open_page
from posviz import text
from posviz.views import frontier as view


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_default_view(lang):
    at = open_page("frontier", lang)
    assert_clean(at)
    assert at.title[0].value == text.get(lang, "frontier.title")
    figs = figures(at)
    assert len(figs) == 5                     # ids, pairs, wavelengths, cache, absorption (angles: behind a click)
    s = view.sequence("qwen2_vl", 4, "8x8", 2, "4x4")
    assert figs[0]["layout"]["title"]["text"] == text.get(lang, "frontier.fig.ids.title")
    md = "\n".join(m.value for m in at.markdown)
    assert text.get(lang, "frontier.ids.summary", L=s["length"], next=s["next"]) in md
    table, scales = markdown_tables(at)        # the pairs per axis, the softmax scales (the MLA layout: a text)
    assert list(table.iloc[:, 1]) == ["16", "24", "24"]
    diagram = text.get(lang, "frontier.mla.diagram", name="DeepSeek-V3", nope=128, rope=64, latent=512, heads=128,
                       mla=576)
    assert diagram in md and not at.text       # issue 33 item 5: a table that wraps on a phone, not monospace text
    assert len(scales) == len(view.MLA_MODELS)
    # issue 33 item 3: scene 8 quotes every MLA model's scale: the table beside the selector shows them
    assert {"0.0722", "1.874", "0.1352", "1.590", "2.005", "0.1447"} <= set(scales.to_numpy().flatten().tolist())
    assert not at.select_slider                                                 # fps: Qwen2.5-VL only


@pytest.mark.parametrize("model", view.MROPE_MODELS)
def test_every_model_and_the_deep_dive(model):
    at = open_page("frontier", "zh", frontier_model=model, frontier_angles="true", frontier_frames="3",
                   frontier_image="16x16", frontier_video="8x12", frontier_text="32")
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == 6
    s = view.sequence(model, 32, "16x16", 3, "8x12")
    assert len(figs[0]["data"][0]["y"]["bdata"]) > 0 and figs[3]["layout"]["title"]["text"]
    assert bool(at.select_slider) == (model == "qwen2_5_vl")
    md = "\n".join(m.value for m in at.markdown)
    assert text.get("zh", "frontier.ids.summary", L=s["length"], next=s["next"]) in md


def test_controls_change_the_figures_and_lecture_mode():
    at = open_page("frontier", "en", present="1")
    assert_clean(at)
    before = figures(at)[0]["data"][0]["y"]
    at.selectbox(key="frontier_model").set_value("qwen2_5_vl").run()
    at.select_slider(key="frontier_fps").set_value(0.5).run()
    assert_clean(at)
    assert figures(at)[0]["data"][0]["y"] != before
    md = "\n".join(m.value for m in at.markdown)
    assert text.get("en", "frontier.ids.reuse", kind=text.get("en", "frontier.kind.video"), resume=14, max=20) in md
    at.selectbox(key="frontier_mla").set_value("kimi_k2").run()
    assert_clean(at)
    assert "Kimi K2" in "\n".join(m.value for m in at.markdown) and "2.005" in "\n".join(m.value for m in at.markdown)


def test_bad_url_values_are_ignored():
    at = open_page("frontier", "en", frontier_image="99x99", frontier_model="gpt5", frontier_frames="99",
                   frontier_mla="x", frontier_fps="3")
    assert not at.exception
