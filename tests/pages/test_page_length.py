"""pages/length.py: renders in both languages, the main plot comes from the shipped JSON."""
import time

import pytest
from conftest import assert_clean, figures, open_page

from posviz.tinylm import evaluate as lengtheval
from posviz.figures import length as fl
from posviz import scenes
from posviz.text import length as text


def _main(at):
    return next(f for f in figures(at) if f["layout"]["title"]["text"] in (text.EN["length.fig_acc"], text.ZH["length.fig_acc"],
                                                                            text.EN["length.fig_loss"], text.ZH["length.fig_loss"]))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_renders(lang):
    at = open_page("length", lang)
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == 3
    main = _main(at)
    names = [tr["name"] for tr in main["data"]]
    assert len(names) == 1 + len(lengtheval.VARIANTS)        # chance line + every variant
    tables = text.EN if lang == "en" else text.ZH
    assert tables["w.len_model.alibi"] in names
    md = " ".join(m.value for m in at.markdown)
    assert tables["length.findings"][:40] in md
    for fig in figs:
        assert len(str(fig)) < 600_000


def test_main_plot_is_the_shipped_json_and_fast():
    t0 = time.perf_counter()
    res = lengtheval.load_results()
    series = {v: res["variants"][v]["acc"] for v in lengtheval.VARIANTS}
    fig = fl.bucket_lines(res["buckets"], series, {}, res["train_length"], title="t", x_title="x", y_title="y",
                          train_label="train", y_range=[0, 1])
    payload = fig.to_json()
    assert time.perf_counter() - t0 < 1.0
    assert len(payload) < 100_000
    assert res["length"] >= 8 * res["train_length"]
    rope = next(tr for tr in fig.data if tr.name == "rope")
    assert [round(float(v), 5) for v in rope.y] == [round(v, 5) for v in res["variants"]["rope"]["acc"]]


def test_controls_change_figures():
    at = open_page("length", "en")
    before = figures(at)
    at.radio(key="len_metric").set_value("loss").run()
    assert_clean(at)
    after = figures(at)
    assert after[0]["layout"]["title"]["text"] == text.EN["length.fig_loss"]
    at.selectbox(key="len_model").set_value("alibi").run()
    assert_clean(at)
    assert figures(at)[1] != after[1]
    at.slider(key="len_head").set_value(2).run()
    at.select_slider(key="len_long").set_value(512).run()
    assert_clean(at)
    assert before[0] != after[0]


def test_learned_model_explains_instead_of_failing():
    at = open_page("length", "en", len_model="learned")
    assert_clean(at)
    assert any(text.EN["length.learned_na"][:30] in i.value for i in at.info)


def test_live_recompute():
    at = open_page("length", "en", len_model="alibi", len_live="true")
    assert_clean(at)
    main = figures(at)[0]
    assert any(tr["name"] == text.EN["length.live_trace"] for tr in main["data"])


def test_scenes_apply():
    at = open_page("length", "zh")
    for i in range(len(scenes.SCENES["length"])):
        at.button(key="length_next").click().run()
        assert_clean(at)
        for k, v in scenes.SCENES["length"][i]["values"].items():
            assert at.session_state[k] == v


@pytest.mark.parametrize("params", [dict(len_head="-5"), dict(len_long="1e308"), dict(len_model="abc"),
                                    dict(len_layer="99"), dict(len_show="nonsense"), dict(len_metric="x")])
def test_bad_query_params(params):
    at = open_page("length", "en", **params)
    assert not at.exception


def test_text_parity_and_scenes_valid():
    assert set(text.EN) == set(text.ZH)
    for sc in scenes.SCENES["length"]:
        assert sc["title"] in text.EN and sc["say"] in text.EN
        for k, v in sc["values"].items():
            if k in ("len_model",):
                assert v in lengtheval.VARIANTS
            if k == "len_show":
                assert set(v) <= set(lengtheval.VARIANTS)


def test_quoted_numbers_match_the_shipped_results():
    """The percentages quoted in length.findings and the scenes are those of results.json."""
    r = {v: [None if a is None else round(100 * a) for a in d["acc"]] for v, d in lengtheval.load_results()["variants"].items()}
    assert r["sinusoidal"][0] == 100 and r["sinusoidal"][1] == 6
    assert r["learned"][1:] == [None] * 7 and r["learned_clamp"][1] == 3
    assert r["rope"][:3] == [100, 96, 40] and r["rope"][-1] == 5
    assert r["rope_pi"][0] == 4
    assert min(r["rope_ntk"][:5]) >= 94 and r["rope_ntk"][-1] == 15
    assert r["rope_yarn"][0] == 95 and r["rope_yarn"][-1] == 90
    assert r["alibi"][:4] == [100, 99, 98, 97] and r["alibi"][-1] == 97
    assert r["t5"][:2] == [100, 58] and r["t5"][-1] == 8
    assert r["nope"][:2] == [99, 56] and r["nope"][-1] == 5
    for en, zh in ((text.EN, "en"), (text.ZH, "zh")):
        assert "58%" in en["length.findings"] and "90%" in en["length.findings"], zh
