import pytest

from harness.apptest import assert_clean, charts, figures, open_page
from posviz import scenes, text


def _titled(at, key, lang="en"):
    """The figure whose title is the text `key` (titles are wrapped with <br> on narrow screens)."""
    want = text.get(lang, key)
    return next(f for f in figures(at) if f["layout"]["title"]["text"].replace("<br>", " ") == want)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders_both_languages(lang):
    at = open_page("lab", lang)
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == 4          # correct, chosen, difference (one panel each), error bars
    assert all(len(f["data"]) == 1 for f in figs[:3]) and figs[3]["data"][0]["type"] == "bar"
    assert not at.dataframe                                 # the tensors, the pad labels: closed deep dives
    labels = {e.label for e in at.expander}
    assert {text.get(lang, "w.lab_tensors"), text.get(lang, "w.lab_matrix")} <= labels   # and the matrix
    title = at.title[0].value
    assert title == text.get(lang, "lab.title")
    assert len(at.metric) == 1


def test_default_is_correct_and_a_bug_shows():
    at = open_page("lab", "en")
    assert float(at.metric[0].value) < 1e-5
    before = _titled(at, "lab.fig.chosen")
    at.toggle(key="lab_qonly").set_value(True).run()
    assert_clean(at)
    assert float(at.metric[0].value) > 1e-2
    assert _titled(at, "lab.fig.chosen")["data"][0] != before["data"][0]
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


def test_last_scene_breaks_rope():
    at = open_page("lab", "zh")
    for _ in scenes.SCENES["lab"]:
        at.button(key="lab_next").click().run()
        assert_clean(at)
    assert float(at.metric[0].value) > 1e-2                 # the last scene (bfloat16 angles at 8192) breaks RoPE


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("offset, dtype, spacing, stored", [("8192", "bfloat16", "64", "8192 ×5"),
                                                            ("512", "bfloat16", "4", "512 ×3, 516 ×2")])
def test_low_precision_effect_states_the_spacing_of_the_chosen_offset(lang, offset, dtype, spacing, stored):
    at = open_page("lab", lang, lab_lowp="true", lab_offset=offset, lab_dtype=dtype)
    assert_clean(at)
    effect = next(m.value for m in at.markdown if dtype in m.value and "**" in m.value and offset in m.value)
    assert f"**{spacing}" in effect and stored in effect
    assert "4096" not in effect and "32" not in effect.replace("float32", "")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_three_tensors_open_from_a_link(lang):
    at = open_page("lab", lang, lab_tensors="true")
    assert_clean(at)
    assert len(at.dataframe) == 2                            # correct and chosen
    correct, chosen = (df.value for df in at.dataframe)
    names = (text.get(lang, "lab.name.a"), text.get(lang, "lab.name.b"))
    assert list(chosen.iloc[:, 0])[0].startswith(names[0]) and list(chosen.iloc[:, 0])[-1].startswith(names[1])
    assert len(chosen) == len(correct) == 8                  # two sentences x token, id, mask, position
    assert len(figures(at)) == 4


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("bad", ["", "   ", "<script>alert(1)</script>", "x" * 10_000])
@pytest.mark.parametrize("key", ["lab_a", "lab_b"])
def test_invalid_sentences_give_an_error_not_an_exception(lang, bad, key):
    at = open_page("lab", lang, lab_tensors="true", **{key: bad})
    assert not at.exception
    if "<" in bad:
        assert not at.error                                 # markup is just a plain-text token
        assert any("<script>" in str(r) for r in at.dataframe[1].value.values.tolist())
        assert figures(at)
    else:
        # empty, blank, or 10,000 characters (the box keeps 500 of them: one 500-letter "word")
        assert at.error
        assert text.get(lang, f"w.{key}") in at.error[0].value          # named as the page names the box


def test_learned_boundary_is_a_warning_not_an_error():
    # choice widgets carry their option code in the URL (posviz.ui._choice_from_url)
    at = open_page("lab", "zh", lab_method="learned", lab_maxlen="3")
    assert at.selectbox(key="lab_method").value == "learned"
    assert not at.exception and not at.error                # the boundary the article warns about, not bad input
    assert at.warning and "max_length=3" in at.warning[0].value
    at = open_page("lab", "zh", lab_method="learned", lab_maxlen="3", lab_matrix="true")
    assert not at.exception and not at.error
    assert {"lab_summary", "lab_summary_bugs"} <= set(charts(at))   # the summary matrix still draws


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_packing_section(lang):
    """Seed 000 §11: packed segments under the three position-id contracts, off by default."""
    at = open_page("lab", lang)
    assert at.slider(key="lab_pack_off").disabled
    at.toggle(key="lab_pack").set_value(True).run()
    assert_clean(at)
    assert len(at.dataframe) == 1                           # the packed rows (the three tensors are closed)
    def rows(at):
        df = at.dataframe[-1].value
        return {row[""]: [v for v in list(row)[1:] if v not in ("", None)] for _, row in df.iterrows()}
    cols = [text.get(lang, f"lab.pack.col.{c}") for c in ("global", "reset", "source")]
    g, r, s = ([int(v) for v in rows(at)[c]] for c in cols)
    assert g == list(range(len(g)))
    first_b = r.index(0, 1)                                 # where sentence B restarts
    assert s[first_b:] == [100 + x for x in r[first_b:]]
    assert s[:first_b] == r[:first_b] == g[:first_b]
    at.slider(key="lab_pack_off").set_value(7).run()
    assert int(rows(at)[cols[2]][first_b]) == 7


@pytest.mark.parametrize("params", [dict(lab_pack="true", lab_pack_off="-3"),
                                    dict(lab_pack="true", lab_pack_off="1e308"),
                                    dict(lab_pack="yes", lab_pack_off="abc")])
def test_packing_bad_params(params):
    at = open_page("lab", "en", **params)
    assert not at.exception


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_packed_row_runs_and_shows_ids_mask_and_ranks(lang):
    at = open_page("lab", lang)
    before = len(figures(at))
    at.toggle(key="lab_pack").set_value(True).run()
    assert_clean(at)
    assert len(figures(at)) == before + 4                   # correct, packed, difference, errors
    assert at.toggle(key="lab_pack_restart").disabled       # one rank: nothing to restart
    df = at.dataframe[-1].value
    fed = [v for v in list(df.iloc[-1])[1:] if v not in ("", None)]
    assert df.iloc[-1][""] == text.get(lang, "lab.pack.col.fed") and fed == ["0", "1", "2", "0", "1", "2", "3", "4"]
    assert float(at.metric[-1].value) < 1e-5                 # reset ids + block mask: each document as if alone
    at.radio(key="lab_pack_mask").set_value("causal").run()
    assert float(at.metric[-1].value) > 1e-2                 # the leak
    at.radio(key="lab_pack_mask").set_value("block").run()
    at.select_slider(key="lab_pack_ranks").set_value(2).run()
    at.toggle(key="lab_pack_restart").set_value(True).run()
    assert_clean(at)
    df = at.dataframe[-1].value
    assert df.iloc[-1][""] == text.get(lang, "lab.pack.col.rank")
    assert float(at.metric[-1].value) > 1e-2                 # a rank restarting at 0
    assert text.get(lang, "lab.pack.cp.restart", r=2) in [m.value for m in at.markdown]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_summary_matrix_is_a_deep_dive(lang):
    """Its 59 runs of the layer happen only when it is open; opened, the two heatmaps of every method, the cells
    of the current choice outlined; the scene that talks about it opens it."""
    closed = open_page("lab", lang)
    assert not {"lab_summary", "lab_summary_bugs"} & set(charts(closed))
    at = open_page("lab", lang, lab_matrix="true", lab_method="sinusoidal", lab_scheme="arange")
    assert_clean(at)
    assert len(figures(at)) == len(figures(closed)) + 2
    heat = charts(at)["lab_summary"]["figure"]["data"][0]
    assert heat["type"] == "heatmap" and len(heat["y"]) == 7 and len(heat["x"]) == 5
    assert text.get(lang, "lab.col.arange") in heat["x"] and text.get(lang, "lab.row.sinusoidal") in heat["y"]
    assert len(charts(at)["lab_summary_bugs"]["figure"]["data"][0]["x"]) == 7
    scene = next(s for s in scenes.SCENES["lab"] if s["show"] == "lab_summary")
    assert scene["values"]["lab_matrix"] is True


def test_packing_summary_is_a_deep_dive():
    closed = open_page("lab", "en", lab_pack="true")
    opened = open_page("lab", "en", lab_pack="true", lab_pack_all="true")
    assert_clean(opened)
    assert len(figures(opened)) == len(figures(closed)) + 1
    heat = charts(opened)["lab_pack_summary"]["figure"]
    assert heat["data"][0]["type"] == "heatmap" and len(heat["data"][0]["x"]) == 7
    assert text.get("en", "lab.pack.setup.5") in heat["data"][0]["x"]


def test_packed_learned_beyond_its_table_is_a_warning():
    at = open_page("lab", "en", lab_pack="true", lab_method="learned", lab_pack_ids="source", lab_pack_all="true")
    assert not at.exception and not at.error
    assert at.warning and "(104)" in at.warning[-1].value and "M = 16" in at.warning[-1].value
    status = charts(at)["lab_pack_summary"]["figure"]["data"][0]["text"]   # still drawn, "no row" marked
    assert any(text.get("en", "lab.summary.oor") in row for row in status)


@pytest.mark.parametrize("params", [dict(lab_pack="true", lab_pack_ranks="9", lab_pack_ids="zeros"),
                                    dict(lab_pack="true", lab_pack_mask="none", lab_pack_restart="maybe"),
                                    dict(lab_pack="true", lab_pack_ranks="4", lab_pack_restart="true", lab_a="a",
                                         lab_b="b")])
def test_packing_controls_survive_bad_urls(params):
    at = open_page("lab", "en", **params)
    assert not at.exception


def test_packing_charts_ask_for_their_margins():
    from posviz.figures import style

    at = open_page("lab", "en", lab_pack="true", lab_pack_all="true")
    keys = list(charts(at))
    assert {"lab_pack_attn", "lab_pack_attn_chosen", "lab_pack_diff", "lab_pack_err", "lab_pack_summary"} <= set(keys)
    assert all(k in style.MARGINS for k in keys), [k for k in keys if k not in style.MARGINS]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pad_label_toggle_moves_the_loss_only_when_pads_are_scored(lang):
    """Issue 33 item 17: ignore_index on: the loss with 4 pads is the loss with none; off: it moves."""
    from posviz.views import lab as view

    side = text.get(lang, "lab.loss.side.left")
    curve = view.pad_loss(text.get(lang, "lab.default_a"), padding_side="left", name=text.get(lang, "w.lab_a"))
    closed = open_page("lab", lang)    # a deep dive: closed, nothing of it runs
    assert "lab_loss" not in charts(closed) and text.get(lang, "w.lab_pads") in [e.label for e in closed.expander]
    at = open_page("lab", lang, lab_pads="true")
    assert "lab_loss" in charts(at)
    flat = text.get(lang, "lab.loss.ignored.flat", k=4, now=f"{curve['ignored'][4]:.4f}",
                    base=f"{curve['ignored'][0]:.4f}", side=side)
    assert curve["ignored"][4] == curve["ignored"][0] and any(m.value == flat for m in at.markdown)
    at = open_page("lab", lang, lab_pads="true", lab_ignore="false")
    k = curve["kept"]
    moves = text.get(lang, "lab.loss.kept.moves", k=4, now=f"{k[4]:.4f}", base=f"{k[0]:.4f}", lo=f"{min(k):.4f}",
                     hi=f"{max(k):.4f}", side=side)
    assert k[4] != k[0] and any(m.value == moves for m in at.markdown)
