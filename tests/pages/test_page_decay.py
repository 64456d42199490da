"""AppTest of app_pages/decay.py: both languages, controls change figures, what scenes draw, bad URLs.
(Scene values and URL round trips: tests/app/test_scenes.py; hostile URLs: tests/app/test_fuzz_pages.py.)"""
import math
import pathlib
import re

import pytest

from harness.apptest import assert_clean, figures, open_page
from posviz.pe import decay
from posviz.scenes.decay import SCENES
from posviz.text.decay import EN, ZH
from posviz.ui.plotting import formulas
from posviz.views import decay as view
from posviz.views.decay import ALIBI_HEADS, BASES, R_OPTIONS, SIN_DIMS

PAGE = pathlib.Path(__file__).resolve().parents[2] / "app_pages" / "decay.py"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders_in_both_languages(lang):
    at = open_page("decay", lang)
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == 3
    table = EN if lang == "en" else ZH
    assert at.title[0].value == table["decay.title"]
    assert any(table["decay.note"] == w.value for w in at.warning)      # the article's note, prominent
    assert table["decay.fig.main.title"].format(d=128, b0=32.5) == figs[0]["layout"]["title"]["text"].replace(
        "<br>", " ")             # issue 33 item 3: the bound at r = 0, 32.5, in the title
    texts = " ".join(m.value for m in [*at.markdown, *at.caption, *at.subheader, *at.warning])
    shown = set(re.findall(r"(?<![\w.])(?:decay|w)\.[a-z_]+(?:\.[a-z_0-9]+)*", texts))
    assert not (shown & (set(EN) | {"decay.title", "decay.intro"})), shown   # no raw text keys shown
    assert len(figs[0]["data"]) == 4                                     # 2 bases x (bound, q=k=1)


def test_controls_change_figures():
    at = open_page("decay", "en")
    before = figures(at)
    at.slider(key="decay_d").set_value(64).run()
    assert_clean(at)
    after = figures(at)
    assert after[0]["layout"]["title"] != before[0]["layout"]["title"]
    assert after[0]["data"][0]["y"] != before[0]["data"][0]["y"]

    at.multiselect(key="decay_bases").set_value([100, 10000, 1000000]).run()
    assert_clean(at)
    assert len(figures(at)[0]["data"]) == 6

    at.select_slider(key="decay_R").set_value(65536).run()
    at.toggle(key="decay_logx").set_value(True).run()
    assert_clean(at)
    figs = figures(at)
    assert all(f["layout"]["xaxis"]["type"] == "log" for f in figs)
    assert any("65537" in c.value for c in at.caption)                   # sampled-distances caption

    at.multiselect(key="decay_alibi").set_value([1, 8]).run()
    at.toggle(key="decay_sin").set_value(True).run()
    assert_clean(at)
    assert len(figures(at)[0]["data"]) == 6 + 2 + 1

    rand0 = figures(at)[1]
    at.slider(key="decay_rho").set_value(0.0).run()
    assert_clean(at)
    assert figures(at)[1]["data"][2]["y"] != rand0["data"][2]["y"]
    at.number_input(key="decay_seed").set_value(5).run()
    at.slider(key="decay_n").set_value(16).run()
    at.toggle(key="decay_example").set_value(False).run()
    assert_clean(at)
    assert len(figures(at)[1]["data"]) == 3 * 4

    pair0 = figures(at)[2]
    at.slider(key="decay_pair").set_value(5).run()
    assert_clean(at)
    assert figures(at)[2]["data"][0]["y"] != pair0["data"][0]["y"]


def test_pair_slider_clamped_when_head_dim_shrinks():
    at = open_page("decay", "en")
    at.slider(key="decay_pair").set_value(60).run()
    at.slider(key="decay_d").set_value(16).run()
    assert_clean(at)
    assert at.slider(key="decay_pair").value == 7


def test_no_bases_shows_a_hint():
    at = open_page("decay", "zh")
    at.multiselect(key="decay_bases").set_value([]).run()
    assert_clean(at)
    assert not figures(at)
    assert at.info[0].value == ZH["decay.no_bases"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_scene_draws_its_figures_and_the_last_ones_their_curves(lang):
    at = open_page("decay", lang)
    scenes = SCENES["decay"]
    assert 3 <= len(scenes) <= 6
    keys = set(re.findall(r'key="(decay_[a-z_]+)"', PAGE.read_text(encoding="utf-8")))
    for sc in scenes:
        assert sc["show"] in keys, sc["show"]                            # a figure the page draws
        at.button(key="decay_next").click().run()
        assert_clean(at)
        assert len(figures(at)) == 3
    # the last scene: ALiBi heads 1, 4, 8 and the sinusoidal curve on the main figure
    assert len(figures(at)[0]["data"]) == 2 + 3 + 1
    at.button(key="decay_prev").click().run()                          # back to the pair scene
    assert_clean(at)
    pair = figures(at)[2]
    mark = pair["data"][1]
    assert mark["x"] == [3] and mark["y"][0] == pytest.approx(math.cos(3.0), abs=1e-6)


def test_scene_values_are_valid_widget_values():
    allowed = {"decay_bases": lambda v: v and set(v) <= set(BASES),
               "decay_alibi": lambda v: set(v) <= set(ALIBI_HEADS),
               "decay_R": lambda v: v in R_OPTIONS, "decay_sin_dim": lambda v: v in SIN_DIMS,
               "decay_d": lambda v: 2 <= v <= 512 and v % 2 == 0, "decay_rho": lambda v: 0 <= v <= 1,
               "decay_n": lambda v: 1 <= v <= 256, "decay_pair": lambda v: v >= 0,
               "decay_seed": lambda v: 0 <= v <= 9999,
               "decay_logx": lambda v: isinstance(v, bool), "decay_ones": lambda v: isinstance(v, bool),
               "decay_sin": lambda v: isinstance(v, bool), "decay_example": lambda v: isinstance(v, bool)}
    for sc in SCENES["decay"]:
        assert sc["title"] in EN and sc["say"] in EN and sc["title"] in ZH and sc["say"] in ZH
        for k, v in sc["values"].items():
            assert allowed[k](v), (sc["title"], k, v)
        d = sc["values"].get("decay_d", 128)
        assert sc["values"].get("decay_pair", 0) <= max(0, d // 2 - 1)


@pytest.mark.parametrize("params", [
    {"decay_d": "-5"}, {"decay_d": "1e308"}, {"decay_d": "abc"},
    {"decay_R": "7"}, {"decay_R": "99999999"}, {"decay_bases": "abc"}, {"decay_bases": "-1"},
    {"decay_rho": "5"}, {"decay_rho": "nan"}, {"decay_pair": "999"}, {"decay_seed": "-3"},
    {"decay_n": "0"}, {"decay_alibi": "77"}, {"decay_sin_dim": "3"}, {"decay_logx": "maybe"},
])
def test_bad_query_params_are_ignored_without_an_error_box(params):
    """(No exception: tests/app/test_fuzz_pages.py.) Each bad value is ignored: no error box, 3 figures."""
    at = open_page("decay", "en", **params)
    assert_clean(at)
    assert len(figures(at)) == 3


def test_odd_head_dim_from_url_is_an_error_box_not_a_traceback():
    at = open_page("decay", "en", decay_d="3")        # sliders do not enforce the step on URL values
    assert not at.exception
    assert any("head_dim" in e.value for e in at.error)


def test_formula_boxes_read_the_docstrings_and_text_holds_no_latex():
    for fn in (view.main_curves, decay.roformer_decay_bound_at, decay.rope_score_curve, decay.ones_score_curve,
               view.alibi_lines, view.sinusoidal_line, decay.sinusoidal_dot, decay.random_score_band,
               decay.pair_oscillation, decay.alibi_penalty):
        assert formulas(fn), fn.__name__
    for table in (EN, ZH):
        assert not [k for k, v in table.items() if "$" in v or "\\" in v]
    assert "TEX" not in PAGE.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_seed_in_user_text(lang):
    """The articles are cited by title; the only seed left is the random one."""
    table = EN if lang == "en" else ZH
    for key, value in table.items():
        if key != "w.decay_seed":
            assert not re.search(r"\bseed \d|Seed \d|种子文章", value), key
    assert "《位置编码》" in ZH["decay.sources"] and "“Position encodings”" in EN["decay.sources"]
