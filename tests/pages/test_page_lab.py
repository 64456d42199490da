import pytest
from conftest import assert_clean, figures, open_page

from posviz import scenes, text


def _attn(at):
    return next(f for f in figures(at) if len(f["data"]) == 3 and f["data"][0]["type"] == "heatmap")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders_both_languages(lang):
    at = open_page("lab", lang)
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == 3                                   # attention, error bars, summary
    assert at.dataframe and len(at.dataframe) == 2          # the three tensors, correct and chosen
    title = at.title[0].value
    assert title == text.get(lang, "lab.title")
    assert len(at.metric) == 1


def test_default_is_correct_and_a_bug_shows():
    at = open_page("lab", "en")
    assert float(at.metric[0].value) < 1e-5
    before = _attn(at)
    at.toggle(key="lab_qonly").set_value(True).run()
    assert_clean(at)
    assert float(at.metric[0].value) > 1e-2
    assert _attn(at)["data"][1] != before["data"][1]
    at.selectbox(key="lab_scheme").set_value("arange").run()
    at.selectbox(key="lab_method").set_value("sinusoidal").run()
    assert_clean(at)
    assert float(at.metric[0].value) > 1e-2
    # RoPE-only switches are disabled and ignored for other methods
    assert at.toggle(key="lab_qonly").disabled


def test_controls_change_figures():
    at = open_page("lab", "zh")
    at.slider(key="lab_heads").set_value(4).run()
    at.radio(key="lab_head").set_value(3).run()
    assert_clean(at)
    at.radio(key="lab_side").set_value("right").run()
    at.selectbox(key="lab_scheme").set_value("zeros").run()
    assert_clean(at)
    assert float(at.metric[0].value) > 1e-2
    at.slider(key="lab_heads").set_value(1).run()          # the head selector shrinks with H
    assert_clean(at)


def test_scenes_apply():
    at = open_page("lab", "zh")
    n = len(scenes.SCENES["lab"])
    for i in range(n):
        at.button(key="lab_next").click().run()
        assert_clean(at)
        for k, v in scenes.SCENES["lab"][i]["values"].items():
            assert at.session_state[k] == v, (i, k)
    assert float(at.metric[0].value) > 1e-2                 # the last scene breaks RoPE


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("bad", ["", "   ", "<script>alert(1)</script>", "x" * 10_000])
@pytest.mark.parametrize("key", ["lab_a", "lab_b"])
def test_invalid_sentences_give_an_error_not_an_exception(lang, bad, key):
    at = open_page("lab", lang, **{key: bad})
    assert not at.exception
    if "<" in bad:
        assert not at.error                                 # markup is just a plain-text token
        assert any("<script>" in str(r) for r in at.dataframe[1].value.values.tolist())
        assert figures(at)
    else:
        # empty, blank, or 10,000 characters (the box keeps 500 of them: one 500-letter "word")
        assert at.error


def test_learned_boundary_is_an_error_message():
    # choice widgets carry their option code in the URL (posviz.ui._choice_from_url)
    at = open_page("lab", "en", lab_method="learned", lab_maxlen="3")
    assert at.selectbox(key="lab_method").value == "learned"
    assert not at.exception
    assert at.error and "max_length" in at.error[0].value
    assert figures(at)                                      # the summary matrix still draws


@pytest.mark.parametrize("params", [
    dict(lab_heads="-5"), dict(lab_heads="1e308"), dict(lab_heads="abc"), dict(lab_dim="7"),
    dict(lab_method="xpos"), dict(lab_scheme="<b>"), dict(lab_offset="99999999"), dict(lab_head="9"),
    dict(lab_maxlen="100000"), dict(lab_row="5"), dict(lab_qonly="maybe"),
])
def test_bad_query_params_do_not_raise(params):
    at = open_page("lab", "en", **params)
    assert not at.exception


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_packing_section(lang):
    """Seed 000 §11: packed segments under the three position-id contracts, off by default."""
    at = open_page("lab", lang)
    assert at.slider(key="lab_pack_off").disabled
    at.toggle(key="lab_pack").set_value(True).run()
    assert_clean(at)
    assert len(at.dataframe) == 3
    def rows(at):
        df = at.dataframe[2].value
        return {row[""]: [v for v in list(row)[1:] if v not in ("", None)] for _, row in df.iterrows()}
    cols = [text.get(lang, f"lab.pack.col.{c}") for c in ("global", "reset", "source")]
    g, r, s = ([int(v) for v in rows(at)[c]] for c in cols)
    assert g == list(range(len(g)))
    first_b = r.index(0, 1)                                 # where sentence B restarts
    assert s[first_b:] == [100 + x for x in r[first_b:]]
    assert s[:first_b] == r[:first_b] == g[:first_b]
    at.slider(key="lab_pack_off").set_value(7).run()
    assert int(rows(at)[cols[2]][first_b]) == 7


@pytest.mark.parametrize("params", [dict(lab_pack="true", lab_pack_off="-3"), dict(lab_pack="true", lab_pack_off="1e308"),
                                    dict(lab_pack="yes", lab_pack_off="abc")])
def test_packing_bad_params(params):
    at = open_page("lab", "en", **params)
    assert not at.exception
