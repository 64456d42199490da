"""Scenes: Next walks a page's story, sets its widgets, and the URL reopens the same view."""
import pytest

from harness.apptest import open_page
from harness.text_checks import english_outside_code
from posviz import scenes


def assert_clean(at):
    """No exception. (An st.error is allowed: some scenes show a refusal on purpose, e.g. L = max_length + 1.)"""
    assert not at.exception, [e.value for e in at.exception]


WIDGETS = ("slider", "select_slider", "selectbox", "radio", "multiselect", "toggle", "number_input", "text_input")


def _values(at, keys):
    out = {}
    for kind in WIDGETS:
        for w in getattr(at, kind, []):
            if w.key in keys:
                out[w.key] = w.value
    return out


@pytest.mark.parametrize("page", sorted(scenes.SCENES))
def test_scenes_apply_in_order_and_round_trip_through_the_url(page):
    items = scenes.SCENES[page]
    at = open_page(page, "en")
    assert_clean(at)
    for i, sc in enumerate(items):
        at.button(key=f"{page}_next").click().run()
        assert_clean(at)
        keys = set(sc["values"])
        got = _values(at, keys)
        assert got, f"{page} scene {i + 1} sets no widget that is on the page"
        for k, v in sc["values"].items():
            if k not in got:  # a widget the scene's own settings hide (e.g. a 0..0 range)
                continue
            want = list(v) if isinstance(v, tuple) else v
            have = list(got[k]) if isinstance(got.get(k), tuple) else got.get(k)
            assert have == want, f"{page} scene {i + 1}: {k} = {have!r}, scene says {want!r}"
        # the URL carries the scene: reopening it shows the same values
        params = {k: v for k, v in at.query_params.items()}
        again = open_page(page, **params)
        assert_clean(again)
        assert _values(again, keys) == got, f"{page} scene {i + 1} did not round-trip through {params}"
    assert at.button(key=f"{page}_next").disabled
    at.button(key=f"{page}_prev").click().run()
    assert_clean(at)


@pytest.mark.parametrize("page", sorted(scenes.SCENES))
def test_every_scene_names_the_figure_it_shows(page):
    """`show` is the key of a ui.plot figure or widget on the page: the frame scrolls there."""
    import pathlib
    import re

    src = (pathlib.Path(__file__).resolve().parents[2] / "app_pages" / f"{page}.py").read_text(encoding="utf-8")
    keys = (set(re.findall(r"""key\s*=\s*f?["']([A-Za-z0-9_{}]+)["']""", src))
            | set(re.findall(r"""ui\.\w+\(\s*["']([a-z][a-z0-9_]*)["']""", src)))
    prefixes = {k.split("{")[0] for k in keys if "{" in k}
    for i, sc in enumerate(scenes.SCENES[page]):
        show = sc.get("show")
        assert show, f"{page} scene {i + 1} has no 'show'"
        assert show in keys or any(show.startswith(p) for p in prefixes if p), \
            f"{page} scene {i + 1}: no key {show!r} on the page"


def test_a_link_with_scene_n_opens_that_scene_and_its_own_values_win():
    items = scenes.SCENES["rope"]
    n = len(items)
    at = open_page("rope", "zh", scene="3")
    assert_clean(at)
    assert f"3/{n}" in at.info[0].value
    got = _values(at, set(items[2]["values"]))
    assert all(got[k] == (list(v) if isinstance(v, tuple) else v) for k, v in items[2]["values"].items() if k in got)
    at = open_page("rope", "en", scene="3", rope_base="100")   # the sender moved the base after the scene
    assert at.select_slider(key="rope_base").value == 100
    assert f"3/{n}" in at.info[0].value
    at.button(key="rope_next").click().run()                    # and the scenes go on from there
    assert f"4/{n}" in at.info[0].value and at.query_params["scene"] == "4"
    for bad in ("0", "99", "x", "-1"):
        at = open_page("rope", "en", scene=bad)
        assert_clean(at)
        assert not any(i.value.startswith("**Scene ") for i in at.info), bad


@pytest.mark.parametrize("page", sorted(scenes.SCENES))
def test_chinese_alerts_of_every_scene_have_no_english_sentence(page):
    """Walk the page's scenes in Chinese: no error, warning or info box holds an English sentence
    (issue 14: the learned table at 513 used to say 「输入无效： sequence length L=513 exceeds ...」)."""
    at = open_page(page, "zh")
    for i in range(len(scenes.SCENES[page]) + 1):
        boxes = [e.value for kind in ("error", "warning", "info", "success") for e in getattr(at, kind)]
        bad = [b[:120] for b in boxes if english_outside_code(b)]
        assert not bad, f"{page} scene {i}: {bad}"
        if i < len(scenes.SCENES[page]):
            at.button(key=f"{page}_next").click().run()
