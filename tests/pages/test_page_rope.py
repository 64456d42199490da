"""AppTest of pages/rope.py: both languages, controls change figures, scenes, bad query params."""
import pytest
from conftest import assert_clean, figures, open_page

from posviz import scenes, text


def _metric_values(at):
    return [m.value for m in at.metric]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders(lang):
    at = open_page("rope", lang)
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == 5
    anim = [f for f in figs if f.get("frames")]
    assert len(anim) == 1 and len(anim[0]["frames"]) == 48
    assert anim[0]["layout"]["updatemenus"][0]["buttons"][0]["method"] == "animate"
    # the shift test: score before and after the common shift are equal, moving the key differs
    vals = _metric_values(at)
    assert vals[0] == vals[1] and vals[2] != vals[0]
    # the two layouts give identical scores; mixing them does not
    assert vals[3] == vals[4] and vals[5] != vals[3]
    title = at.title[0].value
    assert title == text.get(lang, "rope.title")
    # hand example table of the seeds
    df = at.dataframe[0].value
    assert len(df) == 6


def test_controls_change_figures():
    at = open_page("rope", "en")
    before = figures(at)
    at.slider(key="rope_m").set_value(5).run()
    assert_clean(at)
    after = figures(at)
    assert before[0]["data"] != after[0]["data"]
    assert after[0]["layout"]["annotations"][0]["text"].endswith("0°")   # (n-m)θ0 = 0 when m = n = 5
    vals = _metric_values(at)
    assert vals[0] == vals[1]
    at.select_slider(key="rope_dim").set_value(64).run()
    assert_clean(at)
    at.toggle(key="rope_only_q").set_value(True).run()
    assert_clean(at)
    vals = _metric_values(at)
    assert vals[0] != vals[1]                                         # only Q rotated: the shift test fails
    at.radio(key="rope_anim").set_value("key").run()
    assert_clean(at)
    at.selectbox(key="rope_example").set_value("s17_c").run()
    assert_clean(at)
    hand = figures(at)[3]
    assert "-3.7679" in hand["layout"]["title"]["text"]


def test_scenes_apply():
    at = open_page("rope", "zh")
    n = len(scenes.SCENES["rope"])
    for i in range(n):
        at.button(key="rope_next").click().run()
        assert_clean(at)
        sc = scenes.SCENES["rope"][i]
        for key, value in sc["values"].items():
            assert at.session_state[key] == value, (i, key)
    assert at.slider(key="rope_m").value == scenes.SCENES["rope"][-1]["values"]["rope_m"]
    at.button(key="rope_prev").click().run()
    assert_clean(at)


@pytest.mark.parametrize("params", [
    dict(rope_m="-5"), dict(rope_n="1e308"), dict(rope_shift="abc"), dict(rope_dim="7"),
    dict(rope_dim="abc"), dict(rope_base="1"), dict(rope_base="-3"), dict(rope_content="<b>x</b>"),
    dict(rope_example="nope"), dict(rope_anim="x"), dict(rope_only_q="maybe"),
])
def test_bad_query_params_do_not_raise(params):
    at = open_page("rope", "en", **params)
    assert not at.exception, [e.value for e in at.exception]
    assert len(figures(at)) == 5


def test_max_settings():
    at = open_page("rope", "en", rope_m="128", rope_n="0", rope_shift="-64", rope_dim="256",
                   rope_base="1000000", rope_content="random", rope_anim="key")
    assert_clean(at)
    figs = figures(at)
    import json
    assert max(len(json.dumps(f)) for f in figs) < 300_000
