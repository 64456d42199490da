"""app_pages/length_today.py ("Today's RoPE, trained"): renders in both languages from the shipped results, its
charts carry the mean of the runs with their band, the verdict table and the generated sentences are the views'
numbers, and the scenes walk without an error."""
import pytest

from harness.apptest import assert_clean, figures, markdown_tables, open_page, title
from posviz import scenes, text
from posviz.tinylm import recipes
from posviz.views import length as view

PAGE = "length_today"


def _fig(at, start):
    return next(f for f in figures(at) if title(f).startswith(start))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_renders_every_section(lang):
    at = open_page(PAGE, lang)
    assert_clean(at)
    t = text.TABLES[lang]
    assert at.title[0].value == t["length_today.title"]
    figs = figures(at)
    sections = {view.FRONTIER: 1, ("rope",): 3, view.SCALING: 1, view.TABLE: 1, view.SHORTCUT: 1}
    # variants, two share maps and the ablation, scaling, learned table, shortcut; a section whose runs are not
    # trained yet shows a note instead (the training command may still be running)
    ready = {needs: not view.pending(needs) for needs in sections}
    assert len(figs) == sum(n for needs, n in sections.items() if ready[needs])
    for f in figs:
        assert len(str(f)) < 400_000
    md = " ".join(m.value for m in at.markdown)
    note = t["lenf.pending_runs"].split("{")[0]
    assert (note in " ".join(i.value for i in at.info)) == (not all(ready.values()))
    if ready[view.FRONTIER]:
        main = _fig(at, t["lenf.fig_variants"])
        lines = [tr for tr in main["data"] if tr.get("mode") == "lines+markers"]
        bands = [tr for tr in main["data"] if tr.get("fill") == "toself"]
        assert len(lines) == len(bands) == len(view.FRONTIER)
        assert {tr["name"] for tr in lines} == {t[f"lenf.name.{v}"] for v in view.FRONTIER}
        groups = view.verdict_groups(view.FRONTIER)
        # names joined by "; " ("；"): a name may hold a comma, "RoPE，4 层" (issue 33 item 7)
        want = t["lenf.variants_read"].format(**{w: t["lenf.list_sep"].join(t[f"lenf.name.{v}"] for v in vs) or "—"
                                                for w, vs in groups.items()})
        assert want in md
    assert t["lenf.freq_finding"].format(**view.frequency_words()) in md
    if ready[view.SCALING]:
        assert t["lenf.scale_read"].format(steps=recipes.FINE_TUNE["steps"], **view.scaling_words()) in md
    if ready[view.TABLE]:
        assert t["lenf.table_read"].format(**view.table_words()) in md
    if ready[view.SHORTCUT]:
        assert t["lenf.short_read"].format(**view.shortcut_words()) in md


def test_the_verdict_table_is_the_views():
    assert not view.pending(view.FRONTIER), "the shipped results.json lacks today's variants"
    at = open_page(PAGE, "en")
    table = next(tb for tb in markdown_tables(at) if text.TABLES["en"]["lenf.col.word"] in tb.columns)
    cols = view.verdict_table(view.FRONTIER)
    en = text.TABLES["en"]
    assert list(table[en["lenf.col.next"]]) == cols["next"]
    assert list(table[en["lenf.col.word"]]) == [en[f"lenf.word.{w}"] for w in cols["word"]]


def test_the_run_selector_changes_the_share_maps():
    a = _fig(open_page(PAGE, "en", lenf_run="0"), text.TABLES["en"]["lenf.share_seen"])
    b = _fig(open_page(PAGE, "en", lenf_run="3"), text.TABLES["en"]["lenf.share_seen"])
    assert a["data"][0]["text"] != b["data"][0]["text"]


def test_scenes_walk_in_chinese_and_pin_short_legends():
    at = open_page(PAGE, "zh")
    for sc in scenes.SCENES[PAGE]:
        at.button(key=f"{PAGE}_next").click().run()
        assert_clean(at)
        assert len(sc["values"].get("lenf_show", ())) <= 4 and len(sc["values"].get("lenf_scale", ())) <= 4


def test_lecture_mode_and_unknown_choices():
    assert_clean(open_page(PAGE, "zh", present="1"))
    at = open_page(PAGE, "en", lenf_run="9", lenf_show="nonsense")
    assert_clean(at)
    assert at.selectbox(key="lenf_run").value == 0
