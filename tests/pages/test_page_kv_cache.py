"""AppTest of the RoPE + KV cache page."""
import pytest

from harness.apptest import assert_clean, charts, figures, open_page
from posviz import text


def _tables(at):
    """The markdown tables on the page as lists of rows (header first), cells as text."""
    out = []
    for m in at.markdown:
        lines = m.value.splitlines()
        if len(lines) > 2 and lines[0].startswith("| ") and lines[1].startswith("|---"):
            out.append([[c.strip() for c in line.strip().strip("|").split(" | ")] for line in [lines[0]] + lines[2:]])
    return out


def _titles(at):
    return [(f["layout"].get("title") or {}).get("text", "").replace("<br>", " ") for f in figures(at)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders(lang):
    at = open_page("kv_cache", lang)
    assert_clean(at)
    assert text.get(lang, "kv_cache.fig.error.title") in _titles(at)
    assert len(figures(at)) == 3                       # errors, positions, argmax against error (issue 33 item 16)
    summary, cache, diagram = _tables(at)              # summary + cache table + the §10 picture, markdown tables
    assert not at.dataframe and not at.table
    verdicts = [row[1] for row in summary[1:]]
    assert summary[0][1] == text.get(lang, "kv_cache.summary.verdict")
    assert verdicts[0] == text.get(lang, "kv_cache.pass")
    assert verdicts[1:] == [text.get(lang, "kv_cache.fail")] * 3
    assert [row[2] for row in summary[2:]] == ["4", "4", "4"]   # all wrong modes fail at the first decoded position
    assert cache[0][:3] == ["t", "q", "k0"] and cache[1][:3] == ["4", "4", "0\u00a0·\u00a00.00"]   # one line a cell


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
    assert len(figures(at)) == 2                       # nothing decoded: no positions figure (+ the argmax one)
    at = open_page("kv_cache", "zh", kv_L="4", kv_prefill="9")
    assert not at.exception
    assert at.error and "prefill_length" in at.error[0].value and "必须" in at.error[0].value


def test_lecture_mode_draws_tables_the_projector_can_enlarge():
    at = open_page("kv_cache", "en", present="1")
    assert_clean(at)
    assert len(_tables(at)) == 3 and not at.dataframe          # markdown text, which the projector CSS enlarges


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_cache_diagram_is_a_table_that_wraps(lang):
    """The decoding diagram is a markdown table (issue 33 item 5: as monospace text it was cut at 390 px without a
    sign that it scrolls), not an st.code block (no syntax highlighter to load)."""
    at = open_page("kv_cache", lang)
    assert_clean(at)
    assert text.get(lang, "kv_cache.diagram") in [m.value for m in at.markdown]
    assert text.get(lang, "kv_cache.diagram").startswith("| ") and not at.code


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_float32_tolerance_sentence_states_the_views_number(lang):
    """Issue 26: in float32 the page read "the full forward in float32 differs from the float32 one by up to
    0.0e+00". Now the float32 sentence says there is no grey line and gives the correct decode's distance."""
    from posviz.views import kv_cache as view

    at = open_page("kv_cache", lang)
    assert_clean(at)
    res = view.decoding.uncached(6, 4)
    said = [m.value for m in at.markdown if "rtol" in m.value]
    assert len(said) == 1 and "0.0e+00" not in said[0]
    assert f"**{res['max_decoded']['correct']:.1e}**" in said[0]
    assert not [c.value for c in at.caption if "0.0e+00" in c.value]
    at.radio(key="kv_dtype").set_value("bfloat16").run()                       # low precision: the grey line
    said = [m.value for m in at.markdown if "rtol" in m.value]
    assert f"{view.decoding.uncached(6, 4, dtype='bfloat16')['max_precision']:.1e}" in said[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_streaming_section_opens_and_states_its_numbers(lang):
    from posviz.views import kv_cache as view

    at = open_page("kv_cache", lang, kv_stream="true")
    assert_clean(at)
    assert len(figures(at)) == 6                                                # + errors, positions, scores
    stream = _tables(at)[3]
    assert [row[1] for row in stream[1:]] == [text.get(lang, "kv_cache.pass")] * 3 + [text.get(lang, "kv_cache.fail")]
    res = view.stream.uncached(48, 4, 8)
    said = text.get(lang, "kv_cache.stream.offsets", t=47, c=12, re=res["max_offset"]["reassigned"],
                    gl=res["max_offset"]["global"])
    assert said in [m.value for m in at.markdown] and "**11**" in said and "**47**" in said
    at.slider(key="kv_stream_sinks").set_value(0).run()
    assert_clean(at)
    assert text.get(lang, "kv_cache.stream.no_sinks") in [i.value for i in at.info]
    at.slider(key="kv_stream_L").set_value(8).run()                             # 8 = S + W: nothing evicted
    assert_clean(at)
    assert text.get(lang, "kv_cache.stream.no_evict", c=8) in [i.value for i in at.info]


def test_sinks_section_opens():
    at = open_page("kv_cache", "en", kv_sinks="true", kv_L="16")
    assert_clean(at)
    assert len(figures(at)) == 5                                                # + sink mass, wrong kernels' errors
    heads = [t["name"] for t in figures(at)[3]["data"]]
    assert heads == [text.get("en", "kv_cache.fig.sink.head", h=h) for h in range(2)]
    at.slider(key="kv_sink").set_value(-4.0).run()
    assert_clean(at)


@pytest.mark.parametrize("params", [dict(kv_stream="true", kv_stream_L="1e308", kv_stream_window="-3"),
                                    dict(kv_sinks="true", kv_sink="abc"), dict(kv_stream="yes", kv_stream_sinks="99")])
def test_new_sections_survive_bad_urls(params):
    at = open_page("kv_cache", "en", **params)
    assert not at.exception


def test_deep_dive_charts_ask_for_their_margins():
    """The streaming and sink charts are drawn only with their deep dives open, where the default-view margins
    test does not look: each has its entry (python -m benchmarks.margins --write measures these views too)."""
    from posviz.figures import style

    at = open_page("kv_cache", "en", kv_stream="true", kv_sinks="true")
    keys = list(charts(at))
    new = {"kv_stream_errors", "kv_stream_positions", "kv_stream_scores", "kv_sink_mass", "kv_sink_errors"}
    assert new <= set(keys)
    assert all(k in style.MARGINS for k in keys), [k for k in keys if k not in style.MARGINS]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_argmax_section_counts_agreeing_steps_per_mode(lang):
    """Issue 33 item 16: one line per cache mode, its agreeing steps and its largest error, read off the view."""
    from posviz.lab import kv_cache

    at = open_page("kv_cache", lang)
    assert "kv_argmax" in charts(at)
    r = kv_cache.argmax_check(24, 8)
    lines = [m.value for m in at.markdown if m.value.startswith("- **")]
    for mode in kv_cache.MODES:
        want = text.get(lang, "kv_cache.argmax.line", mode=text.get(lang, f"w.kv_modes.{mode}"), k=r["agreed"][mode],
                        n=16, err=f"{r['max_error'][mode]:.2g}")
        assert any(want in block for block in lines), want
