"""AppTest of app_pages/sinusoidal.py: both languages, controls change figures, the learned table's
boundary shows as a warning in the user's language (not as invalid input, not an exception), the
last scenes' numbers, URL values outside the widgets' ranges.

Scenes applying in order and hostile URLs are tested for every page in tests/app/test_scenes.py and
tests/app/test_fuzz_pages.py."""
import ast
import os

import pytest

from harness.apptest import ROOT, assert_clean, figures, markdown_tables, open_page
from posviz import scenes
from posviz import text as all_text
from posviz.text import sinusoidal as text
from posviz.views import sinusoidal as view

N_FIGURES = 11   # every panel its own figure (phone-safe): waves, fingerprint ×2, barcodes, similarity, dot, shift ×2,
#                  the linear layer's score map and lines (issue 33 items 13, 14), modulo
FIG = {name: i for i, name in enumerate(
    ("waves", "fingerprint", "column", "barcodes", "similarity", "dot", "shift", "vectors", "lin_map", "lin_lines",
     "modulo"))}
DEEP_DIVES = {"sin_by_hand": "true", "sin_column_order": "true"}   # the two lazy boxes, open: hand ×2, layouts ×2
FIG_OPEN = {name: i for i, name in enumerate(
    ("waves", "fingerprint", "column", "barcodes", "similarity", "dot", "shift", "vectors", "lin_map", "lin_lines",
     "circle", "dots", "interleaved", "concat", "modulo"))}


def _titles(figs):
    out = []
    for f in figs:
        t = f["layout"].get("title")
        out.append(t.get("text") if isinstance(t, dict) else t)
    return out


def _boundary(at):
    """The warnings that show the learned table's boundary."""
    return [w.value for w in at.warning if "max_length=" in w.value]


def _next(at, times):
    for _ in range(times):
        at.button(key="sinusoidal_next").click().run()
    return at


def _scene_index(title):
    return [s["title"] for s in scenes.SCENES["sinusoidal"]].index(title)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders_clean(lang):
    at = open_page("sinusoidal", lang)
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == N_FIGURES
    table = text.EN if lang == "en" else text.ZH
    assert table["sinusoidal.fig.waves.title"] in _titles(figs)
    md = " ".join(m.value for m in at.markdown)
    assert table["sinusoidal.hand.md"][:20] in md and table["sinusoidal.hand.facts"][:20] not in md   # box closed
    assert any(table["sinusoidal.sim.warn"][:20] in w.value for w in at.warning)
    assert len(at.success) == 1                                         # L = max_length by default: works
    assert not _boundary(at)
    assert [e.label for e in at.expander if e.label in (table["w.sin_by_hand"], table["w.sin_column_order"])] == [
        table["w.sin_by_hand"], table["w.sin_column_order"]]            # the two deep dives, closed
    (methods,) = at.table                                               # the reference table fits a phone
    first_column = list(view.markdown_table(table["sinusoidal.table.md"])["columns"].values())[0]
    assert methods.value.iloc[:, 0].tolist() == first_column and len(first_column) == 3
    (saved,) = markdown_tables(at)                                      # what each input module saves
    assert saved.shape == (len(view.saved(64, 16, 10000)["name"]), 5)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_deep_dives_open_from_the_url(lang):
    """?sin_by_hand=true&sin_column_order=true: the hand table (“Same words, different order…” §04) with its
    circle and dot products, and the interleaved and concat tables on one fixed scale."""
    at = open_page("sinusoidal", lang, **DEEP_DIVES)
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == len(FIG_OPEN)
    table = text.EN if lang == "en" else text.ZH
    assert table["sinusoidal.hand.facts"][:20] in " ".join(m.value for m in at.markdown)
    hand = markdown_tables(at)[0]
    assert hand.iloc[:, 1].tolist() == ["[0, 1]", "[1, 0]", "[0, -1]", "[-1, 0]"]
    a, b = (figs[FIG_OPEN[k]]["data"][0] for k in ("interleaved", "concat"))
    assert (a["zmin"], a["zmax"]) == (b["zmin"], b["zmax"]) == (-1, 1)
    assert a.get("showscale") is False and b["showscale"] is True      # one colour bar for the pair
    assert any("[0, 2, 4, …, 62, 1, 3, …, 63]" in c.value for c in at.caption)   # the permutation, D = 64


def test_every_figure_is_one_panel():
    """Phone-safe: no figure holds side-by-side subplots (each panel is its own figure in st.columns)."""
    for fig in figures(open_page("sinusoidal", "en")):
        assert not any(k.startswith(("xaxis2", "yaxis2")) for k in fig["layout"]), _titles([fig])


def test_text_parity_and_scenes_valid():
    assert set(text.EN) == set(text.ZH)
    items = scenes.SCENES["sinusoidal"]
    assert 3 <= len(items) <= 6
    for sc in items:                                   # (tests/app/test_scenes.py checks `show` for every page)
        assert sc["title"] in text.EN and sc["say"] in text.EN
        assert all(k.startswith("sin_") for k in sc["values"])


def test_controls_change_figures():
    at = open_page("sinusoidal", "en")
    before = figures(at)
    at.slider(key="sin_D").set_value(16).run()
    assert_clean(at)
    after = figures(at)
    assert before[FIG["fingerprint"]]["data"][0]["z"] != after[FIG["fingerprint"]]["data"][0]["z"]
    at.slider(key="sin_delta").set_value(7).run()
    assert figures(at)[FIG["shift"]]["data"][0]["z"] != after[FIG["shift"]]["data"][0]["z"]   # M(Delta)
    assert_clean(at)


def test_learned_boundary_is_a_warning_not_an_error_or_exception():
    at = open_page("sinusoidal", "en", sin_M="16", sin_learned_L="16")
    assert_clean(at)
    at.slider(key="sin_learned_L").set_value(17).run()
    assert_clean(at)                                                    # no st.error: it is not bad input
    msgs = _boundary(at)
    assert len(msgs) == 1 and "max_length=16" in msgs[0] and "L=17" in msgs[0]
    assert "hard boundary" in msgs[0]
    assert any(text.EN["sinusoidal.learned.err_why"].format(M=16) == m.value for m in at.markdown)
    assert len(figures(at)) == N_FIGURES                                # the page keeps working
    assert any("17" in w.value and "max_length" not in w.value for w in at.warning)   # the modulo panel counts
    assert len(markdown_tables(at)) >= 2                                # aliases, state_dict


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_boundary_in_the_users_language(lang):
    at = open_page("sinusoidal", lang, sin_M="8", sin_learned_L="9")
    assert_clean(at)
    msgs = _boundary(at)
    assert len(msgs) == 1 and "max_length=8" in msgs[0]
    assert msgs[0] == all_text.get(lang, "err.learned_boundary", L=9, M=8, last=7)
    assert all_text.get(lang, "ui.invalid") not in " ".join(w.value for w in at.warning)
    if lang == "zh":
        assert "硬边界" in msgs[0] and "This is" not in msgs[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_edge_scene_is_the_512_row_table_and_says_boundary(lang):
    """“Position encodings”: 512 trained rows, the 513th token has nothing to look up."""
    at = _next(open_page("sinusoidal", lang), _scene_index("sinusoidal.scene.edge") + 1)
    assert_clean(at)
    assert at.slider(key="sin_M").value == 512 and at.slider(key="sin_learned_L").value == 513
    msgs = _boundary(at)
    assert len(msgs) == 1 and "max_length=512" in msgs[0] and "L=513" in msgs[0]
    assert msgs[0] == all_text.get(lang, "err.learned_boundary", L=513, M=512, last=511)


def test_last_scene_refuses_and_counts_the_aliases():
    """Modulo scene (L = 30 > M = 8): the module still refuses (the boundary) while the modulo panel
    shows the 22 positions the wrap-around would alias."""
    at = _next(open_page("sinusoidal", "zh"), len(scenes.SCENES["sinusoidal"]))
    assert_clean(at)
    assert len(_boundary(at)) == 1
    assert any("22" in w.value for w in at.warning)


@pytest.mark.parametrize("params", [{"sin_D": "7"}, {"sin_base": "1"}, {"sin_L": "100000000"}, {"sin_pos": "-1"},
                                    {"sin_M": "0"}, {"sin_learned_L": "999999"}, {"sin_dims": "abc"}])
def test_url_values_outside_the_widgets_ranges(params):
    """Values the shared fuzz test does not try (an odd D, base 1, just-too-large lengths)."""
    at = open_page("sinusoidal", "en", **params)
    assert not at.exception, [e.value for e in at.exception]


def test_page_is_thin():
    """House rule: pages import neither torch nor numpy (math lives in posviz)."""
    tree = ast.parse(open(os.path.join(ROOT, "app_pages", "sinusoidal.py"), encoding="utf-8").read())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add((node.module or "").split(".")[0])
    assert not names & {"torch", "numpy", "math"}, names


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_article_checks_visible(lang):
    """“Same words, different order…” §05 (PE(0) = [0, 1, 0, 1, ...]), §14 (positional shortcuts), and
    “Position encodings” (512 rows, 513th token)."""
    at = open_page("sinusoidal", lang)
    assert_clean(at)
    assert any("[0, 1, 0, 1, 0, 1, 0, 1, …]" in c.value for c in at.caption)
    table = text.EN if lang == "en" else text.ZH
    assert any(table["sinusoidal.shortcut"] == i.value for i in at.info)
    assert "513" in table["sinusoidal.learned.md"]


def test_learned_shape_uses_the_article_batch():
    """“Same words, different order…” §06: ids [3, 20] through a 64-wide table give [3, 20, 64]."""
    at = open_page("sinusoidal", "en", sin_D="64", sin_M="512", sin_learned_L="20")
    assert_clean(at)
    assert any("[3, 20, 64]" in s.value for s in at.success)


def test_shift_blocks_are_live_latex():
    """The 2x2 blocks under the shift figure are the current M_0(Δ), M_{D/2-1}(Δ) (built by the figures module)."""
    at = open_page("sinusoidal", "en", sin_D="16", sin_delta="3")
    assert_clean(at)
    formulas = [el.value for el in at.latex]
    assert any("M_{0}(\\Delta) = " in f and "M_{7}(\\Delta) = " in f for f in formulas)


def test_articles_cited_by_title_and_chinese_wording():
    """Issue 14: no “seed 000” / 种子文章 in user text; 因果掩码, never 因果 mask or causal mask in Chinese."""
    import re

    for lang, table in (("en", text.EN), ("zh", text.ZH)):
        for key, s in table.items():
            assert not re.search(r"\bseed\s*0\d\d|种子文章|seed article", s, re.I), key
            if lang == "zh":
                assert not re.search(r"因果 ?mask|causal mask|对半", s), key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_linear_layer_can_read_the_offset_rope_forces_it(lang):
    """Issue 33 item 14: score(m, n) through random W_Q, W_K, sinusoidal against RoPE, the verdict from r."""
    from harness.apptest import charts

    for method, weights, word in (("sinusoidal", "random", "absolute"), ("sinusoidal", "identity", "relative"),
                                  ("rope", "random", "relative")):
        at = open_page("sinusoidal", lang, sin_lin_method=method, sin_lin_weights=weights)
        assert_clean(at)
        assert {"sin_lin_map", "sin_lin_lines"} <= set(charts(at))
        start = all_text.get(lang, f"sinusoidal.lin.{method}.{word}", r="X").split("X")[1][:12]
        assert any(start in m.value for m in at.markdown), (method, weights)
