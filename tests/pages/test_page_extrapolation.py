"""AppTest of the extrapolation page: gallery presets in both languages, what a config says (layer
types, LongRoPE, M-RoPE, NoPE, softmax scale), the live transformers check, controls, the paste box."""
import json

import pytest

from harness.apptest import assert_clean, charts, figures, open_page
from posviz import text
from posviz.pe import models as gallery

PRESETS = ("llama2_7b", "llama31_8b", "qwen25_7b_yarn", "deepseek_v3", "gemma3_27b", "phi35_mini", "llama4_scout",
           "qwen2_vl_7b", "gpt_neox_20b")


def _captions(at):
    return " ".join(c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key", PRESETS)
def test_presets_both_languages(lang, key):
    e = gallery.model(key)
    at = open_page("extrapolation", lang, ext_preset=key, ext_ltrain=str(e["l_train"]), ext_ltarget=str(e["l_target"]))
    assert_clean(at)
    assert at.title[0].value == text.get(lang, "extrapolation.title")
    figs = figures(at)
    assert len(figs) >= 5                          # ratio, wavelength, phase, spectra, decay (+ per layer type)
    assert e["source"] in _captions(at)
    assert len(at.metric) == 5 and at.metric[4].value == str(e["rope"].rotary_dim)
    assert max(len(str(f)) for f in figs) < 300_000
    line = text.get(lang, "extrapolation.check.line").split("{")[0]
    assert line in _captions(at)                            # the live check ran


def test_llama31_default_view_shows_bands_and_distinct_factor_symbols():
    at = open_page("extrapolation", "en")
    assert_clean(at)
    ratio = figures(at)[0]
    assert [tr["type"] for tr in ratio["data"]] == ["bar"] * 3
    names = [tr["name"] for tr in ratio["data"]]
    assert names == [text.get("en", f"extrapolation.fig.band{b}").format(n=n) for b, n in ((0, 29), (1, 6), (2, 29))]
    notes = [a["text"] for a in ratio["layout"]["annotations"]]
    assert any(n.startswith("1/factor = 1/8") for n in notes)      # the model's own factor, not "s"
    assert at.metric[0].label.startswith("s = L_target / L_train") and at.metric[0].value == "16"
    at.selectbox(key="ext_method").set_value("linear").run()
    notes = [a["text"] for a in figures(at)[0]["layout"]["annotations"]]
    assert any(n.startswith("1/s = 1/16") for n in notes)


def test_gemma3_shows_each_layer_type():
    at = open_page("extrapolation", "en", ext_preset="gemma3_27b")
    assert_clean(at)
    keys = list(charts(at))
    figs = figures(at)
    titles = [f["layout"]["title"]["text"] for f in figs]
    assert text.get("en", "extrapolation.fig.layers.title") in titles
    layer = next(f for f in figs if f["layout"]["title"]["text"] == text.get("en", "extrapolation.fig.layers.title"))
    assert [tr["name"] for tr in layer["data"]] == [text.get("en", "extrapolation.type.sliding_attention"),
                                                    text.get("en", "extrapolation.type.full_attention")]
    assert at.selectbox(key="ext_layer").value == "full_attention"
    at.selectbox(key="ext_layer").set_value("sliding_attention").run()
    assert_clean(at)
    assert keys


def test_pasted_configs_phi35_deepseek_and_not_supported():
    at = open_page("extrapolation", "en", ext_preset="pasted")
    assert_clean(at)
    area = at.text_area(key="ext_paste")
    assert area.max_chars == 4 * 65536            # a paste over the limit reaches the page and is refused in words
    area.set_value(gallery.config_json("phi35_mini")).run()
    assert_clean(at)
    assert at.metric[4].value == "96"
    names = [tr["name"] for f in figures(at) for tr in f["data"]]
    assert any(text.get("en", "extrapolation.type.long").strip(" ·") in n for n in names)   # long factors drawn
    at.text_area(key="ext_paste").set_value(gallery.config_json("deepseek_v3")).run()
    assert_clean(at)
    assert at.metric[4].value == "64"
    assert any("1.8739" in c.value for c in at.caption)     # the softmax scale note
    # valid but not supported yet: a warning, never "Invalid input", and no figures of another model
    at.text_area(key="ext_paste").set_value('{"head_dim": 64, "rope_scaling": {"rope_type": "axial"}}').run()
    assert not at.exception and not at.error
    assert at.warning[0].value == text.get("en", "ui.paste.unsupported")
    assert "axial" in at.code[0].value and figures(at) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hostile_paste_is_plain_text_and_shows_no_preset(lang):
    at = open_page("extrapolation", lang, ext_preset="pasted")
    at.text_area(key="ext_paste").set_value('{"rope_scaling": {"rope_type": "linear", '
                                           '"factor": "[x](javascript:alert(1))"}, "head_dim": 64}').run()
    assert not at.exception
    assert len(at.error) == 1 and at.error[0].value == text.get(lang, "ui.invalid")
    assert "javascript" in at.code[0].value
    assert figures(at) == []                                # never the figures of a preset after a failed paste
    at.text_area(key="ext_paste").set_value('{"head_dim": 64, "rope_theta": NaN}').run()
    assert not at.exception and len(at.error) == 1
    at.text_area(key="ext_paste").set_value('{"head_dim": 64, "rope_scaling": {"rope_type": "linear", '
                                           '"factor": 0.5}}').run()
    assert not at.exception and "factor" in at.code[0].value


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


def test_preset_change_sets_lengths():
    at = open_page("extrapolation", "en", ext_preset="llama2_7b")
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


def test_paste_from_the_url_and_bad_values():
    """The paste box is bound to the URL (ext_paste); hostile values there never raise (the shared
    fuzz test covers the rest)."""
    at = open_page("extrapolation", "en", ext_preset="pasted", ext_paste=gallery.config_json("gemma3_27b"))
    assert_clean(at)
    assert at.selectbox(key="ext_layer").value == "full_attention"
    for params in ({"ext_preset": "pasted", "ext_paste": "{" * 100}, {"ext_ltrain": "1048576", "ext_ltarget": "256"}):
        at = open_page("extrapolation", "en", **params)
        assert not at.exception, [e.value for e in at.exception]


def _padded(key, size):
    """A gallery config.json padded to `size` bytes with whitespace (a long paste that still reads)."""
    text = gallery.config_json(key)
    return text[:-1] + " " * (size - len(text.encode("utf-8"))) + "}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_paste_travels_by_id_and_reopens(lang, tmp_path, monkeypatch):
    """Issue 32: a 56 KB paste put 79,648 characters in the URL and reloading it answered HTTP 400. A paste over
    INLINE_PASTE characters goes into the URL as its id; the link reopens it; a link whose paste is gone says so;
    a paste over 64 KB is refused in the user's language, never replaced by the gallery's model."""
    monkeypatch.setenv("POSVIZ_CACHE_DIR", str(tmp_path))
    at = open_page("extrapolation", lang, ext_preset="pasted")
    long = _padded("deepseek_v3", 56_000)
    at.text_area(key="ext_paste").set_value(long).run()
    assert_clean(at)
    assert "ext_paste" not in at.query_params and len(at.query_params["ext_paste_id"]) == 16
    assert at.metric[4].value == "64"
    again = open_page("extrapolation", lang, ext_preset="pasted", ext_paste_id=at.query_params["ext_paste_id"])
    assert_clean(again)
    assert again.text_area(key="ext_paste").value == long and again.metric[4].value == "64"
    gone = open_page("extrapolation", lang, ext_preset="pasted", ext_paste_id="0123456789abcdef")
    assert any(w.value == text.get(lang, "ui.paste.lost") for w in gone.warning)
    at.text_area(key="ext_paste").set_value(_padded("deepseek_v3", 72_000)).run()
    assert not at.exception and not at.metric                          # no figures of another model
    shown = " ".join(c.value for c in at.code)
    assert "72,000" in shown and "65,536" in shown
    assert "ext_paste_id" not in at.query_params and "ext_paste" not in at.query_params


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluation_note_links_to_length_and_models_pages(lang):
    """“Same words, different order…” §14: report per length bucket, not just 'no OOM'; link to the page that
    does it."""
    at = open_page("extrapolation", lang)
    assert not at.exception
    why = next(m.value for m in at.markdown if text.get(lang, "extrapolation.why.eval") in m.value)
    assert why.endswith(text.get(lang, "extrapolation.why.eval"))              # the link to /length follows it
    assert len(at.get("page_link")) == 2


# ---------------------------------------------------------------- issue 26: a pasted config at its own lengths
def _numbers(at):
    """What the analysis states: the five metrics and the figure titles."""
    titles = [f["layout"]["title"]["text"].replace("<br>", " ") for f in figures(at) if "title" in f["layout"]]
    return [(m.label, m.value) for m in at.metric], titles          # a title wrapped for a phone: its words


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pasted_qwen25_yarn_gets_the_gallery_presets_numbers(lang):
    """Pasting Qwen2.5-7B-Instruct's config (YaRN x4 from 32,768) drives the length sliders as choosing the
    same model from the list does: s = 4, 24 / 64 pairs with λ > L_train, 0 of 64 never-seen -- not 8192's."""
    preset = open_page("extrapolation", lang)
    preset.selectbox(key="ext_preset").set_value("qwen25_7b_yarn").run()
    assert_clean(preset)
    at = open_page("extrapolation", lang)
    at.selectbox(key="ext_preset").set_value("pasted").run()
    at.text_area(key="ext_paste").set_value(gallery.config_json("qwen25_7b_yarn")).run()
    assert_clean(at)
    assert (at.select_slider(key="ext_ltrain").value, at.select_slider(key="ext_ltarget").value) == (32768, 131072)
    metrics, titles = _numbers(at)
    assert metrics == _numbers(preset)[0]
    assert dict(metrics)[text.get(lang, "extrapolation.metric.ratio_s")] == "4"
    assert dict(metrics)[text.get(lang, "extrapolation.metric.never")] == "24 / 64"
    phase = text.get(lang, "extrapolation.fig.phase.title").format(n=0, d=64)
    assert phase in titles and phase in _numbers(preset)[1]
    ratio = text.get(lang, "extrapolation.ratio.text")
    assert ratio in [m.value for m in at.markdown] and "Llama" not in ratio      # no other model's example


def test_pasted_models_of_today_read_without_a_crash():
    """Gemma 4 (its text_config alone, too), DeepSeek-V4, Qwen3-VL, Kimi Linear, Mistral 7B: each says what it is."""
    at = open_page("extrapolation", "en", ext_preset="pasted")
    for key in ("gemma4_31b", "deepseek_v4_flash", "qwen3_vl_8b", "kimi_linear", "mistral_7b"):
        at.text_area(key="ext_paste").set_value(gallery.config_json(key)).run()
        assert_clean(at)
        captions = " ".join(c.value for c in at.caption)
        if key == "gemma4_31b":
            assert "b^(2k/D) = 31.62" in captions and at.metric[4].value == "128"
            assert (at.select_slider(key="ext_ltrain").value, at.select_slider(key="ext_ltarget").value) == \
                (262144, 1048576)
        if key == "deepseek_v4_flash":
            assert "values turn with position" in captions and "rotates each head's attention output back" in captions
            rows = at.dataframe[0].value if at.dataframe else None
            assert rows is None or set(rows.iloc[:, 1]) == {41, 2}
        if key == "qwen3_vl_8b":
            assert "1, 4, …, 58" in captions and "2, 5, …, 59" in captions
        if key == "kimi_linear":
            assert at.info[0].value == text.get("en", "extrapolation.no_rope.linear") and not at.metric
        if key == "mistral_7b":
            assert "window 4,096" in captions and "distances 0 … 4,095" in captions
    tc = json.dumps(gallery.GALLERY["gemma4_e2b"]["config"]["text_config"])
    at.text_area(key="ext_paste").set_value(tc).run()
    assert not at.exception and at.metric[4].value == "128"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pasted_failures_of_any_kind_are_messages(lang):
    at = open_page("extrapolation", lang, ext_preset="pasted")
    bad = {"model_type": "gemma2", "hidden_size": 512, "num_attention_heads": 4, "num_hidden_layers": 2,
           "head_dim": 128, "query_pre_attn_scalar": -256}
    at.text_area(key="ext_paste").set_value(json.dumps(bad)).run()
    assert not at.exception and at.error[0].value == text.get(lang, "ui.invalid")
    assert "query_pre_attn_scalar" in at.code[0].value and figures(at) == []
    for cfg, name in (({**gallery.GALLERY["mixtral_8x7b"]["config"], "text_config": 3}, "text_config"),
                      ({**gallery.GALLERY["deepseek_v3"]["config"], "text_config": {"hidden_size": 64}}, "deepseek_v3"),
                      ({**gallery.GALLERY["kimi_linear"]["config"], "model_max_length": "x"},
                       "max_position_embeddings")):
        at.text_area(key="ext_paste").set_value(json.dumps(cfg)).run()   # failures the fuzz test of the views found
        assert not at.exception and at.error[0].value == text.get(lang, "ui.invalid")
        assert name in at.code[0].value and figures(at) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_pasted_model_shows_another_models_example(lang):
    """Under a pasted model (Qwen2.5 YaRN, gpt-oss, Gemma 3) the analysis speaks of that model only: no
    sentence about Llama 3.1's bands (8192/4 = 2048) outside the background section on the methods."""
    at = open_page("extrapolation", lang, ext_preset="pasted")
    why = {text.get(lang, f"extrapolation.why.{p}") for p in ("angles", "pi", "ntk", "yarn", "llama3", "longrope",
                                                                 "train", "eval", "deepseek")}
    for key in ("qwen25_7b_yarn", "gpt_oss_20b", "gemma3_27b"):
        at.text_area(key="ext_paste").set_value(gallery.config_json(key)).run()
        assert_clean(at)
        shown = [m.value for m in at.markdown if not any(w in m.value for w in why)] + [c.value for c in at.caption]
        assert not [s for s in shown if "Llama 3.1" in s or "8192/4" in s], key
        own = gallery.model(key)
        assert (at.select_slider(key="ext_ltrain").value, at.select_slider(key="ext_ltarget").value) == \
            (own["l_train"], own["l_target"]), key
