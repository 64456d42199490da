"""AppTest of pages/sinusoidal.py: both languages, controls change figures, scenes apply,
the learned table's boundary shows as st.error (not an exception), bad URLs don't raise."""
import os

import pytest
from conftest import ROOT, assert_clean, figures, open_page

from posviz import scenes
from posviz.text import sinusoidal as text

N_FIGURES = 8


def _titles(figs):
    out = []
    for f in figs:
        t = f["layout"].get("title")
        out.append(t.get("text") if isinstance(t, dict) else t)
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders_clean(lang):
    at = open_page("sinusoidal", lang)
    assert_clean(at)
    figs = figures(at)
    assert len(figs) == N_FIGURES
    table = text.EN if lang == "en" else text.ZH
    assert table["sinusoidal.fig.waves.title"] in _titles(figs)
    md = " ".join(m.value for m in at.markdown)
    assert table["sinusoidal.hand.facts"][:20] in md
    assert any(table["sinusoidal.sim.warn"][:20] in w.value for w in at.warning)
    assert len(at.success) == 1                                         # L = max_length by default: works


def test_text_parity_and_scenes_valid():
    assert set(text.EN) == set(text.ZH)
    items = scenes.SCENES["sinusoidal"]
    assert 3 <= len(items) <= 6
    for sc in items:
        assert sc["title"] in text.EN and sc["say"] in text.EN
        assert all(k.startswith("sin_") for k in sc["values"])


def test_controls_change_figures():
    at = open_page("sinusoidal", "en")
    before = figures(at)
    at.slider(key="sin_D").set_value(16).run()
    assert_clean(at)
    after = figures(at)
    assert before[1]["data"][0]["z"] != after[1]["data"][0]["z"]          # fingerprint heatmap
    at.slider(key="sin_delta").set_value(7).run()
    assert figures(at)[4]["data"][0]["z"] != after[4]["data"][0]["z"]     # M(Delta)
    assert_clean(at)


def test_learned_boundary_is_an_error_box_not_an_exception():
    at = open_page("sinusoidal", "en", sin_M="16", sin_learned_L="16")
    assert_clean(at)
    at.slider(key="sin_learned_L").set_value(17).run()
    assert not at.exception
    assert len(at.error) == 1
    msg = at.error[0].value
    assert "max_length=16" in msg and "L=17" in msg
    assert len(figures(at)) == N_FIGURES                                # the page keeps working
    assert any("17" in w.value for w in at.warning)                     # the modulo panel counts aliases
    assert len(at.dataframe) >= 3                                       # hand table, aliases, state_dict


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_boundary_error_both_languages(lang):
    at = open_page("sinusoidal", lang, sin_M="8", sin_learned_L="9")
    assert not at.exception
    assert len(at.error) == 1 and "max_length=8" in at.error[0].value


def test_scenes_apply():
    at = open_page("sinusoidal", "zh")
    n = len(scenes.SCENES["sinusoidal"])
    for k in range(n):
        at.button(key="sinusoidal_next").click().run()
        assert not at.exception
        values = scenes.SCENES["sinusoidal"][k]["values"]
        for key, v in values.items():
            if key == "sin_dims":
                assert list(at.multiselect(key=key).value) == v
            elif key == "sin_base":
                assert at.select_slider(key=key).value == v
            else:
                assert at.slider(key=key).value == v
    # the last scene (modulo bug, L = 30 > M = 8): the module still refuses (one error box)
    # while the modulo panel shows which positions the wrap-around would alias
    assert len(at.error) == 1
    assert any("22" in w.value for w in at.warning)


def test_edge_scene_shows_error():
    at = open_page("sinusoidal", "en")
    idx = [s["title"] for s in scenes.SCENES["sinusoidal"]].index("sinusoidal.scene.edge")
    for _ in range(idx + 1):
        at.button(key="sinusoidal_next").click().run()
    assert not at.exception and len(at.error) == 1


@pytest.mark.parametrize("params", [
    {"sin_D": "-5"}, {"sin_D": "1e308"}, {"sin_D": "abc"}, {"sin_D": "7"},
    {"sin_L": "100000000"}, {"sin_base": "1"}, {"sin_base": "nan"}, {"sin_pos": "-1"},
    {"sin_dims": "abc"}, {"sin_M": "0"}, {"sin_learned_L": "999999"}, {"sin_delta": "1e308"},
])
def test_bad_query_params_do_not_raise(params):
    at = open_page("sinusoidal", "en", **params)
    assert not at.exception, [e.value for e in at.exception]


def test_page_is_thin():
    """House rule: pages import neither torch nor numpy (math lives in posviz)."""
    import ast

    tree = ast.parse(open(os.path.join(ROOT, "pages", "sinusoidal.py"), encoding="utf-8").read())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add((node.module or "").split(".")[0])
    assert not names & {"torch", "numpy"}, names


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_seed_checks_visible(lang):
    """Seed 000 §05 (PE(0) = [0, 1, 0, 1, ...]), §14 (positional shortcuts), seed 001 (512 rows, 513th token)."""
    at = open_page("sinusoidal", lang)
    assert_clean(at)
    assert any("[0, 1, 0, 1, 0, 1, 0, 1, …]" in c.value for c in at.caption)
    table = text.EN if lang == "en" else text.ZH
    assert any(table["sinusoidal.shortcut"] == i.value for i in at.info)
    assert "513" in table["sinusoidal.learned.md"]


def test_edge_scene_is_seed_001_512_rows():
    at = open_page("sinusoidal", "en")
    idx = [s["title"] for s in scenes.SCENES["sinusoidal"]].index("sinusoidal.scene.edge")
    for _ in range(idx + 1):
        at.button(key="sinusoidal_next").click().run()
    assert at.slider(key="sin_M").value == 512 and at.slider(key="sin_learned_L").value == 513
    assert "max_length=512" in at.error[0].value and "L=513" in at.error[0].value


def test_learned_shape_uses_seed_batch():
    """Seed 000 §06: ids [3, 20] through a 64-wide table give [3, 20, 64]."""
    at = open_page("sinusoidal", "en", sin_D="64", sin_M="512", sin_learned_L="20")
    assert_clean(at)
    assert any("[3, 20, 64]" in s.value for s in at.success)
