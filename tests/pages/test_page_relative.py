"""AppTest of app_pages/relative.py: both languages, controls change figures, one figure per panel, the
ALiBi numbers computed, scenes point at drawn figures. (Scene round trips and hostile URLs: tests/app.)"""
import ast
import json
import pathlib
import re

import pytest

from harness.apptest import assert_clean, charts, figures, open_page
from posviz import scenes, text
from posviz.pe import relative as rel
from posviz.text import relative as T
from posviz.ui.plotting import formulas
from posviz.views import relative as V

PAGE = pathlib.Path(__file__).resolve().parents[2] / "app_pages" / "relative.py"
# one figure per panel (phone: panels stack instead of squeezing side by side)
FAMILY = ("rel_fig_xl", "rel_fig_deb", "rel_fig_fire", "rel_fig_xpos", "rel_fig_cope")   # the family's deep dives
ORDER = ["distance", "shaw", "shaw_lost", "t5_matrix", "t5_step", "slopes", "bias", "mask", "weight",
         "side", "side_shaw", "side_t5", "side_alibi"]


def figs(at):
    f = figures(at)
    assert len(f) in (len(ORDER) - 4, len(ORDER))          # the side-by-side panels only when opened
    return dict(zip(ORDER, (json.dumps(x, sort_keys=True) for x in f)))


def test_side_by_side_panels_draw_only_when_opened():
    at = open_page("relative", "en")
    assert_clean(at)
    assert len(figures(at)) == len(ORDER) - 4
    assert text.get("en", "w.rel_side") in [e.label for e in at.expander]
    at = open_page("relative", "zh", rel_side="true")
    assert_clean(at)
    assert len(figures(at)) == len(ORDER)


def test_text_parity_and_scenes_valid():
    assert set(T.EN) == set(T.ZH)
    assert all(T.ZH[k].strip() for k in T.ZH)
    items = scenes.SCENES["relative"]
    assert 3 <= len(items) <= 11          # six, then one per deep dive of the family (issue 37)
    ranges = dict(rel_L=(1, 256), rel_past=(0, 256), rel_shift=(0, 100), rel_k=(0, 64), rel_t5_nb=(4, 128),
                  rel_t5_md=(2, 1024), rel_heads=(1, 128), rel_head=(1, 128), rel_fire_train=(16, 256),
                  rel_cope_sharp=(0, V.COPE_MAX_SHARPNESS))
    options = dict(rel_deb_k=V.DEBERTA_BUCKETS, rel_deb_max=V.DEBERTA_MAX_POSITIONS, rel_fire_mult=V.FIRE_MULTIPLES,
                   rel_xpos_base=V.XPOS_BASES, rel_xpos_range=V.XPOS_RANGES, rel_cope_count=V.COPE_COUNTS)
    for sc in items:
        assert text.has(sc["title"]) and text.has(sc["say"])
        for k, v in sc["values"].items():
            if k in ("rel_t5_bidir", "rel_xl", "rel_deberta", "rel_fire", "rel_xpos", "rel_cope"):
                assert isinstance(v, bool)
            elif k in options:
                assert v in options[k], (k, v)
            elif k == "rel_xl_terms":
                assert set(v) <= set(V.XL_TERMS)
            else:
                lo, hi = ranges[k]
                assert lo <= v <= hi, (k, v)
                if k == "rel_t5_nb":
                    assert v % 2 == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders(lang):
    at = open_page("relative", lang, rel_side="true")
    assert_clean(at)
    f = figs(at)
    assert at.title[0].value == text.get(lang, "relative.title")
    assert len(at.metric) == 6
    assert "heatmap" in f["distance"]
    md = " ".join(m.value for m in at.markdown)
    if lang == "zh":
        assert "因果掩码" in md and "相对" in md
    else:
        assert "causal mask" in md and "[N,H,L,S]" in md
    assert len(at.dataframe) == 1


def test_controls_change_figures():
    at = open_page("relative", "en", rel_side="true")
    base = figs(at)
    at.slider(key="rel_L").set_value(20).run()
    assert_clean(at)
    f = figs(at)
    assert f["distance"] != base["distance"] and f["mask"] != base["mask"] and f["side"] != base["side"]
    base = f
    at.slider(key="rel_k").set_value(1).run()
    f = figs(at)
    assert f["shaw"] != base["shaw"] and f["side_shaw"] != base["side_shaw"] and f["distance"] == base["distance"]
    assert f["side"] == base["side"]
    base = f
    at.toggle(key="rel_t5_bidir").set_value(False).run()
    f = figs(at)
    assert f["t5_matrix"] != base["t5_matrix"] and f["t5_step"] != base["t5_step"]
    base = f
    at.slider(key="rel_t5_nb").set_value(16).run()
    at.slider(key="rel_t5_md").set_value(40).run()
    f = figs(at)
    assert f["t5_step"] != base["t5_step"]
    base = f
    at.slider(key="rel_heads").set_value(12).run()
    at.slider(key="rel_head").set_value(10).run()
    assert_clean(at)
    f = figs(at)
    assert f["slopes"] != base["slopes"] and f["bias"] != base["bias"]
    base = f
    at.slider(key="rel_past").set_value(8).run()
    assert_clean(at)
    f = figs(at)
    assert f["distance"] != base["distance"]
    dist = figures(at)[0]["data"][0]
    # right-aligned: query rows 8..27 over keys 0..27
    assert at.caption and any("8…27" in c.value for c in at.caption)
    assert dist["type"] == "heatmap"


def test_head_beyond_heads_is_clamped():
    at = open_page("relative", "zh", rel_heads="4", rel_head="9")
    assert_clean(at)
    assert any("第 4 个头" in c.value for c in at.caption)


def test_invalid_t5_combination_shows_error_and_page_goes_on():
    at = open_page("relative", "en", rel_t5_nb="128", rel_t5_md="10")
    assert not at.exception
    assert len(at.error) == 1 and "max_distance" in at.error[0].value
    assert len(figures(at)) >= 5                                      # the other sections still draw


def test_every_scene_draws_every_figure_and_shows_a_drawn_one():
    """(Values and URL round trips: tests/app/test_scenes.py.) Each scene draws all figures without an
    error box, and its `show` key is the key of a figure the page draws."""
    keys = set(re.findall(r'key="(rel_fig_[a-z0-9_]+)"', PAGE.read_text(encoding="utf-8")))
    keys |= {n.value for n in ast.walk(ast.parse(PAGE.read_text(encoding="utf-8")))
             if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.startswith("rel_fig_")}
    at = open_page("relative", "en")
    for sc in scenes.SCENES["relative"]:
        assert sc["show"] in keys, sc["show"]
        at.button(key="relative_next").click().run()
        assert_clean(at)
        base = [k for k in charts(at) if not k.startswith(FAMILY)]
        assert len(base) == len(ORDER) - 4                 # the side-by-side deep dive stays closed


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_alibi_scene_numbers_are_computed_next_to_its_figure(lang):
    """Scene 5 (12 heads): the note under the slope chart names the steepest head from alibi_slopes."""
    at = open_page("relative", lang)
    for _ in range(5):
        at.button(key="relative_next").click().run()
    assert at.slider(key="rel_heads").value == 12
    note = " ".join(i.value for i in at.info)
    if lang == "en":
        assert "steepest head is 9 (m = 0.707)" in note and "head 8 (m = 0.00391)" in note
        assert "Head 12, whose bias is drawn, has m = 0.0884; 6 of the 12 heads are steeper" in note
    else:
        assert "最陡的是第 9 个头（m = 0.707）" in note and "12 个头中有 6 个比它陡" in note
    slopes = figures(at)[ORDER.index("slopes")]
    assert len(slopes["data"]) == 2                                     # 8 geometric heads + 4 interleaved ones


def test_power_of_two_heads_say_the_order_holds():
    at = open_page("relative", "en", rel_heads="8", rel_head="3")
    note = " ".join(i.value for i in at.info)
    assert "fall with the head index: head 1 is the steepest (m = 0.5), head 8 the flattest (m = 0.00391)" in note
    assert "Head 3, whose bias is drawn, has m = 0.125; 2 of the 8 heads are steeper" in note


@pytest.mark.parametrize("params", [
    dict(rel_L="-5", rel_past="abc", rel_k="1e308"),
    dict(rel_L="1e308", rel_heads="0", rel_t5_nb="3", rel_t5_md="-1"),
    dict(rel_t5_bidir="maybe", rel_head="abc", rel_t5_nb="33", rel_shift="-1", rel_past="2.5"),
    dict(rel_L="256", rel_past="256", rel_k="64", rel_heads="128", rel_head="128", rel_t5_nb="128",
         rel_t5_md="1024", rel_shift="100"),
])
def test_bad_or_extreme_query_params_still_draw_figures(params):
    """(No exception: tests/app/test_fuzz_pages.py.) The page still draws its figures."""
    at = open_page("relative", "en", **params)
    assert not at.exception, [e.value for e in at.exception]
    assert figures(at)


def test_formula_boxes_read_the_docstrings_and_the_page_holds_no_latex():
    src = PAGE.read_text(encoding="utf-8")
    assert "\\" not in src and "$" not in src
    for fn in (rel.relative_distance, rel.distance_from_positions, rel.shaw_relative_index, rel.shaw_lost_distance,
               rel.t5_relative_position_bucket, rel.alibi_slopes, rel.alibi_head_bias, rel.causal_mask,
               rel.nope_uniform_attention, rel.shaw_clipped_distance, rel.t5_representative_distance):
        assert formulas(fn), fn.__name__


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_position_encodings_article_relative_claims_shown(lang):
    """《位置编码》: 'cat sat' shifted by ten words (12th, 13th) and the price of relative biases."""
    at = open_page("relative", lang)
    assert not at.exception
    shown = " ".join(m.value for m in at.markdown)
    assert "12" in text.get(lang, "relative.intro") and "[L,S,d]" in text.get(lang, "relative.tables.md")
    assert text.get(lang, "relative.tables.md") in shown


def test_no_seed_in_user_text_and_chinese_wording():
    for table in (T.EN, T.ZH):
        assert not [k for k, v in table.items() if re.search(r"\bseed \d|Seed \d|种子文章", v)]
    assert not [k for k, v in T.ZH.items() if "因果 mask" in v or "对半" in v]
