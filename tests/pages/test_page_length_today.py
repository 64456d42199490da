"""app_pages/length_today.py ("Today's RoPE, trained"): renders in both languages from the shipped results, its
charts carry the mean of the runs with their band, the verdict table and the generated sentences are the views'
numbers, and the scenes walk without an error."""
import pytest

from harness.apptest import assert_clean, figures, markdown_tables, open_page
from posviz import scenes, text
from posviz.tinylm import recipes
from posviz.views import length as view

PAGE = "length_today"


def _fig(at, title):
    return next(f for f in figures(at) if f["layout"].get("title", {}).get("text", "").startswith(title))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_renders_every_section(lang):
    at = open_page(PAGE, lang)
    assert_clean(at)
    t = text.TABLES[lang]
    assert at.title[0].value == t["length_today.title"]
    figs = figures(at)
    assert len(figs) == 7            # variants, two share maps, ablation, scaling, learned table, shortcut
    for f in figs:
        assert len(str(f)) < 400_000
    main = _fig(at, t["lenf.fig_variants"])
    lines = [tr for tr in main["data"] if tr.get("mode") == "lines+markers"]
    bands = [tr for tr in main["data"] if tr.get("fill") == "toself"]
    assert len(lines) == len(bands) == len(view.FRONTIER)
    assert {tr["name"] for tr in lines} == {t[f"lenf.name.{v}"] for v in view.FRONTIER}
    md = " ".join(m.value for m in at.markdown)
    groups = view.verdict_groups(view.FRONTIER)
    want = t["lenf.variants_read"].format(**{w: ", ".join(t[f"lenf.name.{v}"] for v in vs) or "—"
                                            for w, vs in groups.items()})
    assert want in md
    assert t["lenf.freq_finding"].format(**view.frequency_words()) in md
    assert t["lenf.scale_read"].format(steps=recipes.FINE_TUNE["steps"], **view.scaling_words()) in md
    assert t["lenf.table_read"].format(**view.table_words()) in md
    assert t["lenf.short_read"].format(**view.shortcut_words()) in md


def test_the_verdict_table_is_the_views():
    at = open_page(PAGE, "en")
    table = next(tb for tb in markdown_tables(at) if text.EN["lenf.col.word"] in tb.columns)
    cols = view.verdict_table(view.FRONTIER)
    assert list(table[text.EN["lenf.col.next"]]) == cols["next"]
    assert list(table[text.EN["lenf.col.word"]]) == [text.EN[f"lenf.word.{w}"] for w in cols["word"]]


def test_the_run_selector_changes_the_share_maps():
    a = _fig(open_page(PAGE, "en", lenf_run="0"), text.EN["lenf.share_seen"])
    b = _fig(open_page(PAGE, "en", lenf_run="3"), text.EN["lenf.share_seen"])
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
