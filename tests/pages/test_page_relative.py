"""AppTest of pages/relative.py: both languages, controls change figures, scenes apply,
bad query params never raise."""
import json

import pytest
from conftest import assert_clean, figures, open_page

from posviz import scenes, text


ORDER = ["distance", "shaw", "t5_matrix", "t5_step", "slopes", "bias", "mask", "side"]


def figs(at):
    f = figures(at)
    assert len(f) == len(ORDER)
    return dict(zip(ORDER, (json.dumps(x, sort_keys=True) for x in f)))


def test_text_parity_and_scenes_valid():
    from posviz.text import relative as T

    assert set(T.EN) == set(T.ZH)
    assert all(T.ZH[k].strip() for k in T.ZH)
    scenes = __import__("posviz.scenes", fromlist=["SCENES"]).SCENES["relative"]
    assert 3 <= len(scenes) <= 6
    ranges = dict(rel_L=(1, 256), rel_past=(0, 256), rel_shift=(0, 100), rel_k=(0, 64), rel_t5_nb=(4, 128),
                  rel_t5_md=(2, 1024), rel_heads=(1, 128), rel_head=(1, 128))
    for sc in scenes:
        assert sc["title"] in T.EN and sc["say"] in T.EN
        for k, v in sc["values"].items():
            if k == "rel_t5_bidir":
                assert isinstance(v, bool)
            else:
                lo, hi = ranges[k]
                assert lo <= v <= hi, (k, v)
                if k == "rel_t5_nb":
                    assert v % 2 == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders(lang):
    at = open_page("relative", lang)
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
    at = open_page("relative", "en")
    base = figs(at)
    at.slider(key="rel_L").set_value(20).run()
    assert_clean(at)
    f = figs(at)
    assert f["distance"] != base["distance"] and f["mask"] != base["mask"] and f["side"] != base["side"]
    base = f
    at.slider(key="rel_k").set_value(1).run()
    f = figs(at)
    assert f["shaw"] != base["shaw"] and f["side"] != base["side"] and f["distance"] == base["distance"]
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


def test_scenes_apply():
    at = open_page("relative", "en")
    items = scenes.SCENES["relative"]
    for n, sc in enumerate(items):
        at.button(key="relative_next").click().run()
        assert_clean(at)
        for k, v in sc["values"].items():
            w = at.toggle(key=k) if k == "rel_t5_bidir" else at.slider(key=k)
            assert w.value == v, (n, k, w.value, v)
    assert len(figures(at)) == len(ORDER)


@pytest.mark.parametrize("params", [
    dict(rel_L="-5", rel_past="abc", rel_k="1e308"),
    dict(rel_L="1e308", rel_heads="0", rel_t5_nb="3", rel_t5_md="-1"),
    dict(rel_t5_bidir="maybe", rel_head="abc", rel_t5_nb="33", rel_shift="-1", rel_past="2.5"),
    dict(rel_L="256", rel_past="256", rel_k="64", rel_heads="128", rel_head="128", rel_t5_nb="128",
         rel_t5_md="1024", rel_shift="100"),
])
def test_bad_or_extreme_query_params_do_not_raise(params):
    at = open_page("relative", "en", **params)
    assert not at.exception, [e.value for e in at.exception]
    assert figures(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_seed_001_relative_claims_shown(lang):
    """Seed 001: 'cat sat' shifted by ten words (12th, 13th) and the price of relative biases."""
    at = open_page("relative", lang)
    assert not at.exception
    shown = " ".join(m.value for m in at.markdown)
    assert "12" in text.get(lang, "relative.intro") and "[L,S,d]" in text.get(lang, "relative.tables.md")
    assert text.get(lang, "relative.tables.md") in shown
