"""app_pages/length.py: renders in both languages, the main plot comes from the shipped JSON, the phase-alias
finder overlays the RoPE map, and every number the narration quotes is the one the figures show."""
import re
import time

import pytest

from harness.apptest import assert_clean, figures, markdown_tables, open_page, title
from posviz import scenes
from posviz.figures import length as fl
from posviz.text import length as text
from posviz.tinylm import evaluate as lengtheval
from posviz.tinylm import model as tiny
from posviz.views import length as view

TITLES = {table[k] for table in (text.EN, text.ZH) for k in ("length.fig_acc", "length.fig_loss")}


def _main(at):
    return next(f for f in figures(at) if title(f) in TITLES)


def _fig(at, title_start):
    return next(f for f in figures(at) if title(f).startswith(title_start))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_renders(lang):
    at = open_page("length", lang)
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == 5                                    # main, short map, long map, aliases, entropy
    main = _main(at)
    shown = [v for v in view.SHOWN]
    lines = [tr["name"] for tr in main["data"] if tr.get("fill") != "toself"]
    bands = [tr for tr in main["data"] if tr.get("fill") == "toself"]
    assert len(lines) == 1 + len(shown) and len(bands) == len(shown)   # chance line + the mean of each, its band
    tables = text.EN if lang == "en" else text.ZH
    assert tables["w.len_model.alibi"] in lines
    md = " ".join(m.value for m in at.markdown)
    assert tables["length.findings"].format(n=5)[:40] in md
    clauses = {k: tables[key].format(**p) for k, (key, p) in view.literature().items()}
    assert tables["length.literature"].format(**view.t5_far(), **clauses) in md   # every number computed
    for fig in figs:
        assert len(str(fig)) < 600_000
    assert main["layout"]["legend"]["orientation"] == "h"   # phone: the legend never squeezes the plot


def test_main_plot_is_the_shipped_json_and_fast():
    t0 = time.perf_counter()
    res = lengtheval.load_results()
    series = {v: res["variants"][v]["acc"]["mean"] for v in lengtheval.VARIANTS}
    fig = fl.bucket_lines(res["buckets"], series, res["train_length"], y_range=[0, 1],
                          labels={"title": "t", "x": "x", "y": "y", "train": "train"})
    payload = fig.to_json()
    assert time.perf_counter() - t0 < 1.0
    assert len(payload) < 100_000
    assert res["length"] >= 8 * res["train_length"]
    rope = next(tr for tr in fig.data if tr.name == "rope")
    assert [round(float(v), 5) for v in rope.y] == [round(v, 5) for v in res["variants"]["rope"]["acc"]["mean"]]


def test_controls_change_figures():
    at = open_page("length", "en")
    before = figures(at)
    at.radio(key="len_metric").set_value("loss").run()
    assert_clean(at)
    after = figures(at)
    assert title(after[0]) == text.EN["length.fig_loss"]
    at.selectbox(key="len_model").set_value("alibi").run()
    assert_clean(at)
    assert figures(at)[1] != after[1]
    at.slider(key="len_head").set_value(2).run()
    at.select_slider(key="len_long").set_value(512).run()
    assert_clean(at)
    assert before[0] != after[0]


def test_attention_maps_are_two_figures_on_one_fixed_scale():
    at = open_page("length", "en", len_long="512")
    short = _fig(at, text.EN["length.map_short"].format(n=64))
    long = _fig(at, text.EN["length.map_long"].format(n=512))
    for f in (short, long):
        hm = f["data"][0]
        assert hm["type"] == "heatmap" and (hm["zmin"], hm["zmax"]) == (0.0, 1.0)


def test_alias_finder_overlays_the_rope_map_and_lists_the_aliases():
    at = open_page("length", "en", len_model="rope", len_long="512", len_alias_target="2", len_alias_tol="40")
    assert_clean(at)
    al = view.aliases(2, 40)
    long = _fig(at, text.EN["length.map_long"].format(n=512))
    marks = [tr for tr in long["data"] if tr["type"] == "scatter" and "name" in tr]
    assert {tr["name"] for tr in marks} == {text.EN["length.alias_lines"].format(t=2),
                                           text.EN["length.alias_target"].format(t=2)}
    drawn = next(tr for tr in marks if tr["name"] == text.EN["length.alias_lines"].format(t=2))
    assert drawn["y"] == [d for d in al["aliases"] if d != 2]            # one marker per alias on the map
    assert any(tr["type"] == "scatter" and tr.get("mode") == "lines" for tr in long["data"])   # the diagonals
    md = " ".join(m.value for m in at.markdown)
    assert ", ".join(map(str, al["aliases"])) in md
    table = markdown_tables(at)[-1]                                     # one markdown element (wraps on a phone)
    assert list(table.iloc[:, 0]) == [str(d) for d in al["aliases"]]
    alias_fig = _fig(at, text.EN["length.alias_fig"].format(t=2))
    assert len(alias_fig["data"]) == 2
    # another model: no overlay on its map, and a note why
    at = open_page("length", "en", len_model="alibi", len_long="512")
    assert_clean(at)
    long = _fig(at, text.EN["length.map_long"].format(n=512))
    assert all(tr["type"] == "heatmap" for tr in long["data"])
    assert any(text.EN["length.alias_rope_only"][:30] in c.value for c in at.caption)


def test_learned_model_explains_instead_of_failing():
    at = open_page("length", "en", len_model="learned")
    assert_clean(at)
    assert any(text.EN["length.learned_na"][:30] in i.value for i in at.info)


def test_live_recompute():
    at = open_page("length", "en", len_model="alibi", len_live="true")
    assert_clean(at)
    main = figures(at)[0]
    assert any(tr.get("name") == text.EN["length.live_trace"] for tr in main["data"])


def test_scenes_show_no_error_in_chinese():
    """tests/app/test_scenes.py walks the scenes in English; here: Chinese, and no st.error either."""
    at = open_page("length", "zh")
    for _ in scenes.SCENES["length"]:
        at.button(key="length_next").click().run()
        assert_clean(at)


def test_unknown_choices_in_the_url_fall_back_to_defaults():
    at = open_page("length", "en", len_model="abc", len_layer="99", len_show="nonsense", len_metric="x")
    assert_clean(at)
    assert at.selectbox(key="len_model").value == "rope"
    assert at.radio(key="len_metric").value == "acc"
    assert at.radio(key="len_layer").value == 2
    assert at.multiselect(key="len_show").value == list(view.SHOWN)


def test_scenes_use_known_variants_and_show_a_figure_of_the_page():
    # a chart, or what shows the numbers its narration quotes (issue 33 item 3): the table of the runs, the aliases
    keys = {"len_main", "len_maps", "len_maps_long", "len_alias", "len_entropy", "len_table", "len_alias_view"}
    for sc in scenes.SCENES["length"]:
        assert sc["show"] in keys
        v = sc["values"]
        assert v.get("len_model", "rope") in lengtheval.VARIANTS
        assert set(v.get("len_show", ())) <= set(lengtheval.VARIANTS)


def test_the_findings_and_the_table_are_the_views():
    """The findings under the main chart are finding_lines (generated from every run; their words are tested
    against the runs in tests/views/test_view_length.py), the table is seed_table: mean (lowest–highest run)."""
    at = open_page("length", "en")
    md = " ".join(m.value for m in at.markdown)
    names = {v: text.EN[f"w.len_model.{v}"] for v in lengtheval.VARIANTS}
    for v, parts in view.finding_lines(lengtheval.VARIANTS):
        assert f"**{names[v]}**: " + "; ".join(text.EN[k].format(**p) for k, p in parts) + "." in md
    table = next(tb for tb in markdown_tables(at) if text.EN["length.table_method"] in tb.columns)
    want = view.seed_table(view.SHOWN)
    assert list(table.columns[1:]) == want["buckets"]
    for i, v in enumerate(view.SHOWN):
        assert list(table.iloc[i, 1:]) == want["rows"][v]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_scene_narration_is_generated_from_the_runs(lang):
    """Next walks the scenes; each one's narration is its text filled with scene_say's fields (the clauses
    read off every run), so no number in it is typed by hand."""
    tables = text.EN if lang == "en" else text.ZH
    say = view.scene_say("length")
    at = open_page("length", lang)
    for sc in scenes.SCENES["length"]:
        at.button(key="length_next").click().run()
        assert_clean(at)
        fields = {k: tables[v[0]].format(**v[1]) if isinstance(v, tuple) else tables[v]
                  for k, v in say.get(sc["say"], {}).items()}
        want = tables[sc["say"]].format(**fields)
        assert any(want in i.value for i in at.info), sc["say"]


def test_quoted_settings_match_the_manifest_and_the_views():
    """Every other number of the narration: the training and evaluation settings, the chance level,
    the T5 last bucket (scene 2), the long map's pooling, the live run."""
    man = tiny.load_manifest()
    info, res = view.shipped(), lengtheval.load_results()
    train, length, k = info["train_length"], res["length"], info["offset"]
    assert (train, length, k, res["bucket_size"]) == (64, 512, 2, 64)
    assert res["num_sequences"] == 64 and info["config"]["vocab_size"] - 1 == 31
    assert round(100 * view.chance_level(info["config"]["vocab_size"])) == 3
    cfg = info["config"]
    assert (cfg["n_layers"], cfg["d_model"], man["models"]["rope"]["steps"]) == (2, 64, 800)
    assert k / (length / train) == 0.25                      # PI: an offset of 2 becomes 0.25 positions
    assert view.t5_last_bucket() == 59
    assert view.t5_far()["query"] == 500
    for tables in (text.EN, text.ZH):
        assert "**64**" in tables["length.intro"] and "**512**" in tables["length.intro"]
        assert "59" in tables["length.s2.say"] and "61" not in tables["length.s2.say"]
        assert "1/31" in tables["length.chance"]
        assert "64" in tables["length.fig_sub"] and "512" in tables["length.fig_sub"]
        assert "s = 512/64 = 8" in tables["length.explain_main"]
        assert "{scaled}" in tables["length.literature"] and "800" in tables["length.literature"]
    assert view.pair_scales()["pi_offset"] == 0.25                 # generated now (issue 33 item 8)
    sig = lengtheval.live_evaluate.__kwdefaults__
    assert sig["num_sequences"] == 8 and sig["length"] == 512
    for tables in (text.EN, text.ZH):
        for key in ("length.live_running", "w.len_live.help"):
            assert "8" in tables[key] and "512" in tables[key], key
        assert "8" in tables["length.live_note"]
        assert "64" in tables["w.len_long.help"] and "2" in tables["w.len_metric.help"]
        assert "2" in tables["w.len_alias_target.help"] and "k = 2" in tables["length.explain_main"]
        assert "{side}" in tables["length.explain_maps"] and "{n}" in tables["length.explain_maps"]
    assert fl.MAX_SIDE == 192


def test_rope_stripe_narration_matches_the_map_and_the_finder():
    """Scene 4 and the alias scene: the finder's aliases of offset 2 at 40 degrees (from the frequencies alone),
    379 within 10 degrees, and the aliases past 63 with the most attention on run 0's map (layer 2, head 1)."""
    al = view.aliases(2, 40)
    assert al["aliases"] == [2, 121, 122, 259, 260, 322, 379, 498, 499]
    assert al["error"][379] < 10
    fields = view.scene_say("length")["length.s_alias.say"]
    assert fields["offsets"][1]["x"] == "121–122, 259–260, 322, 379, 498–499"
    assert fields["tight"][1]["x"] == "379"
    for tables in (text.EN, text.ZH):
        assert "10°" in tables["length.s_alias.say"] and "40°" in tables["length.s_alias.say"]
    w = lengtheval.offset_weights(view.attention("rope", 512, 1, 0), first_query=64)
    top = sorted(((float(w[d]), d) for d in al["aliases"] if d >= 64), reverse=True)[:2]
    assert fields["strong"][1]["x"] == ", ".join(str(d) for _, d in top)
    assert max(float(w[d]) for d in al["aliases"] if d >= 64) > 0.2     # "extra stripes" (scene 4): on aliases


def test_no_seed_in_the_page_text():
    for tables in (text.EN, text.ZH):
        for key, s in tables.items():
            assert not re.search(r"seed|种子", s, re.I), key
