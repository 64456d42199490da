"""AppTest of issue 37's deep dives: the rest of the relative family on /relative, evicted caches and draft trees on
/kv-cache, angles in low precision on /lab. Closed they run nothing; open they draw their figures in both
languages, state numbers computed by their views, move with their controls and refuse bad input in the user's
language. (Scenes: tests/app/test_scenes.py; numbers: tests/views/test_view_relative_family.py and
test_view_serving.py.)"""
import random

import pytest

from harness.apptest import assert_clean, charts, open_page
from posviz import text
from posviz.figures import style
from posviz.views import kv_cache as K
from posviz.views import lab as L
from posviz.views import relative as V

FAMILY = {"rel_xl": ["rel_fig_xl_score", "rel_fig_xl_raw", "rel_fig_xl_shifted"],
          "rel_deberta": ["rel_fig_deb_bucket", "rel_fig_deb_c2c", "rel_fig_deb_c2p", "rel_fig_deb_p2c"],
          "rel_fire": ["rel_fig_fire"], "rel_xpos": ["rel_fig_xpos"], "rel_cope": ["rel_fig_cope"]}
SERVING = {"kv_evict": ["kv_evict_errors", "kv_evict_positions"], "kv_tree": ["kv_tree_mask", "kv_tree_errors"]}


def _md(at):
    return " ".join(m.value for m in at.markdown)


def test_closed_deep_dives_draw_nothing_and_say_what_they_hold():
    at = open_page("relative", "en")
    assert not set(charts(at)) & set(sum(FAMILY.values(), []))
    assert {text.get("en", f"w.{k}") for k in FAMILY} <= {e.label for e in at.expander}
    at = open_page("kv_cache", "zh")
    assert not set(charts(at)) & set(sum(SERVING.values(), []))
    at = open_page("lab", "en")
    assert "lab_angles_fig" not in charts(at) and text.get("en", "w.lab_angles") in [e.label for e in at.expander]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_family_open(lang):
    at = open_page("relative", lang, **{k: "true" for k in FAMILY})
    assert_clean(at)
    assert not at.error
    keys = list(charts(at))
    assert all(k in keys for k in sum(FAMILY.values(), []))
    md = _md(at)
    xl = V.transformer_xl_view(12, 0, V.XL_TERMS)["said"]
    assert f"**{xl['gather_keys']}**" in md and f"**{xl['shift_keys']}**" in md
    db = V.deberta_view(12, 16, 64)["said"]
    assert f"**{db['used']}**" in md
    fr = V.fire_view(64, 4, 8, 1)["said"]
    assert fr["fire_far"] in md and fr["alibi_far"] in md
    assert str(V.xpos_view(512, 4096)["said"]["half"]) in md
    assert "**3**" in md                                                    # three sentence ends counted
    assert len(at.get("expander")) >= 5 + 6                               # the five deep dives, their formula boxes


def test_the_familys_controls_move_their_figures():
    at = open_page("relative", "en", **{k: "true" for k in FAMILY})
    before = charts(at)
    at.multiselect(key="rel_xl_terms").set_value(["gp"]).run()
    at.select_slider(key="rel_deb_k").set_value(4).run()
    at.slider(key="rel_fire_train").set_value(32).run()
    at.select_slider(key="rel_xpos_base").set_value(64).run()
    at.radio(key="rel_cope_count").set_value("word").run()
    assert_clean(at)
    after = charts(at)
    for key in ("rel_fig_xl_score", "rel_fig_deb_bucket", "rel_fig_fire", "rel_fig_xpos", "rel_fig_cope"):
        assert after[key]["figure"] != before[key]["figure"], key
    assert after["rel_fig_xl_raw"]["figure"] == before["rel_fig_xl_raw"]["figure"]   # the shift keeps every term


def test_cope_refuses_an_empty_sentence_in_chinese_and_the_page_goes_on():
    at = open_page("relative", "zh", rel_cope="true", rel_cope_text="   ")
    assert not at.exception
    assert at.error and text.get("zh", "w.rel_cope_text") in at.error[0].value and "sentence" not in at.error[0].value
    assert "rel_fig_distance" in charts(at)


def test_cope_says_when_the_word_is_not_in_the_sentence():
    """Chinese is one character a token: a two-character word is no token, and the page says so."""
    at = open_page("relative", "zh", rel_cope="true", rel_cope_count="word", rel_cope_word="然后")
    assert_clean(at)
    cp = V.cope_view(text.get("zh", "relative.cope.default"), "word", "然后", 8.0)
    assert cp["say"] == "relative.cope.no_word" and text.get("zh", "relative.cope.no_word", **cp["said"]) in _md(at)
    at.text_input(key="rel_cope_word").set_value("猫").run()
    assert_clean(at)
    assert text.get("zh", "relative.cope.no_word")[:8] not in _md(at) and "**2**" in _md(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_serving_open(lang):
    at = open_page("kv_cache", lang, kv_evict="true", kv_tree="true")
    assert_clean(at)
    keys = list(charts(at))
    assert all(k in keys for k in sum(SERVING.values(), []))
    md = _md(at)
    ev = K.evicted(24, 8, 6, "span")["said"]
    assert f"{ev['q_moved']}" in md and f"{ev['cache']}" in md
    tr = K.tree(6, "2x2", "correct")["said"]
    assert f"**{tr['wrong_ids']}**" in md
    assert text.get(lang, "kv_cache.evict.stacks")[:30] in md and text.get(lang, "kv_cache.tree.stacks")[:30] in md


def test_serving_controls():
    at = open_page("kv_cache", "en", kv_evict="true", kv_tree="true")
    before = charts(at)
    at.radio(key="kv_ev_policy").set_value("h2o").run()
    at.selectbox(key="kv_tree_shape").set_value("3x2").run()
    at.radio(key="kv_tree_setup").set_value("causal").run()
    assert_clean(at)
    after = charts(at)
    for key in ("kv_evict_errors", "kv_tree_mask", "kv_tree_errors"):
        assert after[key]["figure"] != before[key]["figure"], key
    assert "H2O" in _md(at)
    at.slider(key="kv_ev_count").set_value(0).run()          # nothing evicted: the page says so
    assert_clean(at)
    assert text.get("en", "kv_cache.evict.said.none")[:20] in _md(at)
    at = open_page("kv_cache", "en", kv_evict="true", kv_ev_P="4", kv_ev_start="94", kv_ev_count="95")
    assert_clean(at)                                          # a span past the prompt is clamped inside it


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_angles(lang):
    at = open_page("lab", lang, lab_angles="true", lab_dtype="float16", lab_offset="32768", lab_dim="64")
    assert_clean(at)
    assert "lab_angles_fig" in charts(at)
    an = L.angles("float16", 64, 32768)
    assert an["case"] == "noise" and f"**{an['said']['first']}**" in _md(at)
    assert text.get(lang, "lab.angles.stacks")[:30] in _md(at)


OPEN = {"relative": {k: "true" for k in FAMILY}, "kv_cache": {k: "true" for k in SERVING},
        "lab": {"lab_angles": "true"}}
HOSTILE = ["-5", "NaN", "inf", "1e308", "", " ", "999999999999", "3.5", "☃✓中文", "<script>alert(1)</script>",
           "**bold** [x](javascript:1)", "\u202e\u0000", "true", "None"]


@pytest.mark.parametrize("page", sorted(OPEN))
def test_hostile_links_to_the_open_deep_dives_never_raise(page):
    """tests/app/test_fuzz_pages.py fuzzes the widgets of the default view; these are drawn only open."""
    at = open_page(page, **OPEN[page])
    keys = [w.key for kind in ("slider", "select_slider", "selectbox", "radio", "multiselect", "text_input")
            for w in getattr(at, kind) if w.key and w.key.startswith(("rel_xl", "rel_deb", "rel_fire", "rel_xpos",
                                                                          "rel_cope", "kv_ev", "kv_tree"))]
    assert len(keys) == {"relative": 11, "kv_cache": 7, "lab": 0}[page]
    rng = random.Random(37)
    for _ in range(3):
        at = open_page(page, **OPEN[page], **{k: rng.choice(HOSTILE) for k in keys})
        assert not at.exception, [e.value for e in at.exception][:2]
    extremes = {}
    for s in at.slider:
        if s.key in keys:
            extremes[s.key] = str(s.max)
    longest = {"rel_L": "256", "rel_past": "256"} if page == "relative" else {}
    at = open_page(page, **OPEN[page], **extremes, **longest)
    assert not at.exception, [e.value for e in at.exception][:2]


@pytest.mark.parametrize("page", sorted(OPEN))
def test_the_deep_dives_charts_ask_for_their_margins(page):
    """Drawn only open, where the default-view margins test does not look (benchmarks/margins.py measures these
    views too: python -m benchmarks.margins --write)."""
    keys = list(charts(open_page(page, **OPEN[page])))
    assert all(k in style.MARGINS for k in keys), [k for k in keys if k not in style.MARGINS]
