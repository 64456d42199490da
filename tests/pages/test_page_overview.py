"""AppTest of app_pages/overview.py (the default page): equivariance live in both languages, position or
the causal mask break it, bad sentences show an error and the rest of the page works.

Scenes applying in order and hostile URLs are tested for every page in tests/app/test_scenes.py and
tests/app/test_fuzz_pages.py."""
import pytest

from harness.apptest import assert_clean, figures, open_page
from posviz import text

FIG = {"b": 0, "pa": 1, "diff": 2, "bars": 3, "seat": 4, "seat_sin": 5, "int_map": 6, "int_lines": 7}


def _metric(at):
    return float(at.metric[0].value)


@pytest.mark.parametrize("lang, a, b", [("en", "dog bites man", "man bites dog"), ("zh", "猫追狗", "狗追猫")])
def test_default_page_both_languages(lang, a, b):
    at = open_page("overview", lang)
    assert_clean(at)
    assert at.title[0].value == text.get(lang, "overview.title")
    assert at.text_input(key="ov_a").value == a and at.text_input(key="ov_b").value == b
    assert _metric(at) < 1e-5                                # NoPE, no mask: equivariant
    assert at.success
    assert len(figures(at)) == len(FIG)
    assert len(at.get("graphviz_chart")) == 3                 # issue 26 item 15: one readable diagram per method
    assert len(at.get("page_link")) >= 6
    (methods,) = at.table                                    # the seven-method table, as st.table (fits a phone)
    assert len(methods.value) == 7 and "Sinusoidal APE" in methods.value.iloc[:, 0].tolist()
    assert any("Attn}(PX)=P" in f.value for f in at.latex)  # the formula, read from the view's docstring


def test_every_figure_is_one_panel():
    """Phone-safe: the three equivariance panels and the two seat panels are separate figures."""
    for fig in figures(open_page("overview", "en")):
        assert not any(k.startswith(("xaxis2", "yaxis2")) for k in fig["layout"])


def test_compared_panels_share_one_colour_range():
    figs = figures(open_page("overview", "en", ov_method="rope"))
    b, pa, diff = (figs[FIG[k]]["data"][0] for k in ("b", "pa", "diff"))
    assert (b["zmin"], b["zmax"]) == (pa["zmin"], pa["zmax"]) and b["zmin"] == -b["zmax"]
    assert diff["zmin"] == -diff["zmax"] and diff["zmid"] == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_position_or_mask_breaks_equivariance(lang):
    at = open_page("overview", lang)
    before = figures(at)[FIG["diff"]]
    at.selectbox(key="ov_method").set_value("rope").run()
    assert_clean(at)
    assert _metric(at) > 1e-2 and at.warning
    assert figures(at)[FIG["diff"]]["data"][0] != before["data"][0]
    at.selectbox(key="ov_method").set_value("nope").run()
    at.toggle(key="ov_causal").set_value(True).run()
    assert _metric(at) > 1e-2                                # the causal mask leaks position


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_causal_footnote_counts_i_plus_1(lang):
    """Token i averages over i + 1 tokens (the relative page's 1/(i+1)), computed for sentence B."""
    at = open_page("overview", lang, ov_a="a b c d", ov_b="d c b a")
    assert_clean(at)
    note = text.get(lang, "overview.causal", n=4, last=3, weights="1, 0.5, 0.333, 0.25")
    assert any(m.value == note for m in at.markdown)


def test_seat_slider_changes_the_figure():
    at = open_page("overview", "en")
    before = figures(at)[FIG["seat"]]
    at.slider(key="ov_len").set_value(2048).run()
    assert_clean(at)
    assert figures(at)[FIG["seat"]] != before


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("bad", ["", "   ", "<script>alert(1)</script>", "x" * 10_000, "dog bites cat"])
@pytest.mark.parametrize("key", ["ov_a", "ov_b"])
def test_invalid_sentences(lang, bad, key):
    at = open_page("overview", lang, **{key: bad})
    assert not at.exception
    assert at.error                                          # not a permutation / empty / too long
    assert len(figures(at)) == 4            # the two seat-number figures and the bare integer's two still draw


def test_markup_is_plain_text():
    at = open_page("overview", "en", ov_a="<b>x</b> y", ov_b="y <b>x</b>")
    assert_clean(at)
    fig = figures(at)[FIG["b"]]
    assert "&lt;b&gt;x&lt;/b&gt;" in str(fig["data"][0]["y"])


@pytest.mark.parametrize("params", [dict(ov_method="<b>"), dict(ov_causal="2")])
def test_url_values_the_fuzz_test_does_not_try(params):
    at = open_page("overview", "en", **params)
    assert not at.exception


def test_links_to_every_page():
    at = open_page("overview", "en")
    assert len(at.get("page_link")) == 9


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_debugging_step_1_note(lang):
    """“Same words, different order…” §12 step 1 (no-position control) is named where it is run: NoPE without a mask."""
    at = open_page("overview", lang)
    assert any(c.value == text.get(lang, "overview.step1") for c in at.caption)
    at.toggle(key="ov_causal").set_value(True).run()
    assert not any(c.value == text.get(lang, "overview.step1") for c in at.caption)


def test_articles_cited_by_title_and_chinese_wording():
    """Issue 14: no “seed 000” / 种子文章 in user text; 因果掩码, never 因果 mask or a bare mask in Chinese."""
    import re

    from posviz.text import overview

    for lang, table in (("en", overview.EN), ("zh", overview.ZH)):
        for key, s in table.items():
            assert not re.search(r"\bseed\s*0\d\d|种子文章|seed article", s, re.I), key
            if lang == "zh":
                assert not re.search(r"因果 ?mask|causal mask|\bmask\b", s), key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_alibi_without_a_mask_is_not_called_a_bag_of_words(lang):
    """Issue 33 item 12: overview scene 5 (ALiBi, no mask, the reversed sentence)."""
    at = open_page("overview", lang)
    for _ in range(5):
        at.button(key="overview_next").click().run()
    boxes = [b.value for kind in ("success", "info", "warning") for b in getattr(at, kind)]
    bag = text.get(lang, "overview.verdict.equal", n=3)
    assert not any(bag[:12] in b for b in boxes)
    assert any(text.get(lang, "overview.verdict.this", d="x", order="y")[:10] in b for b in boxes)
    at = open_page("overview", lang)                                       # NoPE without a mask: the bag
    assert any(b.value == bag for b in at.success)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bare_integer_position_gives_the_layer_m_times_n(lang):
    """Issue 33 item 15: the score of positions m and n grows with m·n: along Δ = 0 it goes from 1 to 1 + 47²."""
    from harness.apptest import charts

    at = open_page("overview", lang)
    assert {"ov_int_map", "ov_int_lines"} <= set(charts(at))
    want = text.get(lang, "overview.int.result", first="1", last=f"{1 + 47 ** 2:.3g}", m=47, r="0.94")
    assert any(m.value == want for m in at.markdown)
