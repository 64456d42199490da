"""AppTest of the models page: the gallery table, sorting, strips, comparison of several models on one
axis, the live check against transformers, both languages."""
import pytest

from harness.apptest import assert_clean, figures, open_page
from posviz import text
from posviz.pe import models as gallery


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_default_view(lang):
    at = open_page("models", lang)
    assert_clean(at)
    assert at.title[0].value == text.get(lang, "models.title")
    assert len(at.dataframe) == 2                           # the gallery + the check of the picked models
    assert len(at.dataframe[0].value) == len(gallery.KEYS)
    figs = figures(at)
    assert len(figs) == 3                                   # strips, wavelengths, decay (all strips: behind a click)
    assert [tr["name"] for tr in figs[1]["data"]][:3] and figs[1]["layout"]["yaxis"]["type"] == "log"
    checks = at.dataframe[1].value
    assert len(checks) == 3 and all(float(x) <= 1e-6 for x in checks.iloc[:, 2])


def test_pick_fewer_than_two_and_more():
    at = open_page("models", "en", models_pick="llama2_7b")
    assert_clean(at)
    assert at.info[0].value == text.get("en", "models.pick.fewer")
    at = open_page("models", "en", models_pick=["phi35_mini", "qwen3_next_80b", "llama4_scout", "gpt_oss_20b"])
    assert_clean(at)
    strip = figures(at)[0]
    assert len(strip["data"][0]["y"]) == 4


def test_sort_and_lecture_mode_table():
    at = open_page("models", "en", models_sort="theta", present="1")
    assert_clean(at)
    assert len(at.table) >= 1 and not at.dataframe     # lecture mode: plain tables the projector CSS enlarges


def test_every_models_strip_is_a_lazy_deep_dive():
    """Closed by default, its body does not run; ?models_all=true opens it with one row per gallery model."""
    at = open_page("models", "en")
    assert [e for e in at.expander if e.label == text.get("en", "w.models_all")]
    at = open_page("models", "zh", models_all="true")
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == 4 and len(figs[-1]["data"][0]["y"]) == len(gallery.KEYS)
    assert figs[-1]["layout"]["title"]["text"] == text.get("zh", "models.all.title")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_proportional_deep_dive_and_its_scene(lang):
    """Closed by default; ?models_prop=true opens proportional vs partial: metrics, three figures, the formulas."""
    at = open_page("models", lang, models_prop="true")
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == 6                                   # strips, wavelengths, decay + dims, λ, decay
    assert figs[3]["layout"]["title"]["text"] == text.get(lang, "models.fig.prop_dims.title")
    values = [m.value for m in at.metric]
    assert values == ["0.0334", "1.24e-06", "0 / 64", "17 / 64"]
    at.select_slider(key="models_prop_p").set_value(0.5).run()
    assert_clean(at)
    # partial reading, d = 256: λ_i = 2π·10^6^(i/128) > 131,072 for i > 128·log(20,861)/log(10^6) = 92.2
    assert [m.value for m in at.metric][2:] == ["0 / 128", "35 / 128"]


def test_today_models_in_the_table_and_strip():
    at = open_page("models", "en", models_pick=["gemma4_31b", "deepseek_v4_flash", "kimi_linear", "mistral_7b"])
    assert_clean(at)
    table = at.dataframe[0].value
    names = list(table.iloc[:, 0])
    assert "Gemma 4 31B" in names and "Kimi Linear 48B-A3B Instruct" in names
    row = table.iloc[names.index("Gemma 4 31B")]
    assert row.iloc[3] == "128 ◇" and "window 1,024" in row.iloc[7]
    assert any(text.get("en", "models.wave.skipped").split("{")[0] in c.value for c in at.caption)
    checks = at.dataframe[1].value
    assert text.get("en", "models.check.none") in list(checks.iloc[:, 2])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_config_of_your_own_joins_the_comparison(lang, tmp_path, monkeypatch):
    """Issue 32: the engineer's paste on /models too. A pasted config joins the strips, wavelengths, decay and the
    live check beside one picked model; a broken one is refused in words and the picked models stay; a long one
    travels by id."""
    monkeypatch.setenv("POSVIZ_CACHE_DIR", str(tmp_path))
    at = open_page("models", lang, models_pick="llama2_7b", models_own="true")
    assert_clean(at)
    assert at.info[0].value == text.get(lang, "models.pick.fewer")
    qwen = gallery.config_json("qwen3_8b")
    at.text_area(key="models_paste").set_value(qwen).run()
    assert_clean(at)
    strip, wave, decay = figures(at)
    name = text.get(lang, "models.own.name")
    assert name in str(strip)                                          # its row in the layer strips
    assert any(name in tr["name"] for tr in wave["data"]) and any(name in tr["name"] for tr in decay["data"])
    checks = at.dataframe[1].value
    assert len(checks) == 2 and float(checks.iloc[1, 2]) <= 1e-6   # the pasted config against transformers
    at.text_area(key="models_paste").set_value('{"rope_theta": "x"').run()
    assert not at.exception and at.error[0].value == text.get(lang, "ui.invalid")
    assert at.info[-1].value == text.get(lang, "models.pick.fewer")  # one model left: nothing drawn in its place
    long = qwen[:-1] + " " * (3000 - len(qwen)) + "}"
    at.text_area(key="models_paste").set_value(long).run()
    assert_clean(at)
    assert "models_paste" not in at.query_params and len(at.query_params["models_paste_id"]) == 16
