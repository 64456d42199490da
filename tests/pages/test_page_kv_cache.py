"""AppTest of the RoPE + KV cache page."""
import pytest

from conftest import assert_clean, figures, open_page
from posviz import text


def _titles(at):
    return [(f["layout"].get("title") or {}).get("text", "").replace("<br>", " ") for f in figures(at)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders(lang):
    at = open_page("kv_cache", lang)
    assert_clean(at)
    assert text.get(lang, "kv_cache.fig.error.title") in _titles(at)
    assert len(figures(at)) == 2
    assert len(at.dataframe) == 2                      # summary + cache table
    summary = at.dataframe[0].value
    verdicts = list(summary.iloc[:, 1])
    assert verdicts[0] == text.get(lang, "kv_cache.pass")
    assert verdicts[1:] == [text.get(lang, "kv_cache.fail")] * 3
    assert list(summary.iloc[1:, 2]) == ["4", "4", "4"]   # all wrong modes fail at the first decoded position


def test_controls_change_the_figure():
    at = open_page("kv_cache", "en")
    before = figures(at)[0]["data"][0]["x"]
    at.slider(key="kv_L").set_value(12).run()
    assert_clean(at)
    assert figures(at)[0]["data"][0]["x"] != before
    at.radio(key="kv_dtype").set_value("bfloat16").run()
    assert_clean(at)
    assert any("bfloat16" in (t.get("name") or "") for t in figures(at)[0]["data"])
    at.radio(key="kv_trace_mode").set_value("rerotate").run()
    assert_clean(at)
    at.multiselect(key="kv_modes").set_value(["correct"]).run()
    assert_clean(at)
    names = [t.get("name") for t in figures(at)[0]["data"]]
    assert text.get("en", "w.kv_modes.restart") not in names


def test_prefill_equal_to_length_and_too_long():
    at = open_page("kv_cache", "en", kv_L="4", kv_prefill="4")
    assert_clean(at)
    assert len(figures(at)) == 1                       # nothing decoded: no positions figure
    at = open_page("kv_cache", "zh", kv_L="4", kv_prefill="9")
    assert not at.exception
    assert at.error and "prefill_length" in at.error[0].value and "必须" in at.error[0].value


def test_lecture_mode_draws_tables_the_projector_can_enlarge():
    at = open_page("kv_cache", "en", present="1")
    assert_clean(at)
    assert len(at.table) == 2 and not at.dataframe
