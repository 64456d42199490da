"""Scenes: Next walks a page's story, sets its widgets, and the URL reopens the same view."""
import pytest

from harness.apptest import open_page
from harness.text_checks import english_outside_code
from posviz import scenes, text


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
    """Next walks the scenes in order: right after each one the view is the scene (no scene leaves the view the
    moment it is applied, as a page that clamped a value would): the narration shows and the URL carries ?scene=N;
    its widgets hold the scene's values, and the URL reopens them."""
    items = scenes.SCENES[page]
    at = open_page(page, "en")
    assert_clean(at)
    for i, sc in enumerate(items):
        at.button(key=f"{page}_next").click().run()
        assert_clean(at)
        assert at.query_params.get("scene") == str(i + 1), (page, i + 1, dict(at.query_params))
        said = text.get("en", sc["say"]).split("{")[0][:40]           # a narration filled from numbers: its start
        head = f"{i + 1}/{len(items)} · {text.get('en', sc['title'])}"
        assert any(head in b.value and said in b.value for b in at.info), (page, i + 1)
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


def _all_values(at):
    """Every keyed widget of the page's main area and its value (lists for ranges and multiselects)."""
    out = {}
    for kind in WIDGETS:
        for w in getattr(at, kind, []):
            if w.key and not w.key.startswith(("ui_", "$$")):
                out[w.key] = list(w.value) if isinstance(w.value, tuple) else w.value
    return out


def _nudge(at, key):
    """Move the URL-bound widget `key` (a toggle, a single slider, a number box) to another value than it has
    and write it into at.query_params as the browser does (AppTest has no browser: Streamlit's frontend
    writes a bound widget's value into the URL, or removes it at its default). None if `key` is none of
    these; else the new value."""
    for kind in ("toggle", "slider", "number_input"):
        for w in getattr(at, kind, []):
            if w.key != key or isinstance(w.value, tuple):
                continue
            if kind == "toggle":
                new = not w.value
            elif kind == "slider":
                new = w.min if w.value != w.min else w.max
            else:
                new = (w.value or 0) + (w.step or 1)
            w.set_value(new)
            at.query_params[key] = str(new).lower() if isinstance(new, bool) else str(new)
            return new
    # choice widgets write the URL from the server (ui.widgets._choice_to_url): another value some scene uses
    others = [sc["values"][key] for items in scenes.SCENES.values() for sc in items if key in sc["values"]]
    for kind in ("selectbox", "radio", "select_slider", "multiselect"):
        for w in getattr(at, kind, []):
            if w.key != key:
                continue
            have = list(w.value) if isinstance(w.value, (list, tuple)) else w.value
            new = next((o for o in others if (list(o) if isinstance(o, tuple) else o) != have), None)
            if new is not None:
                w.set_value(new)
            return new
    return None


@pytest.mark.parametrize("page", sorted(scenes.SCENES))
def test_a_link_after_a_scene_and_a_later_widget_change_reopens_exactly_that_view(page):
    """Issue 26 item 17, on every page: a scene, then one of its widgets moved; the share link (the URL)
    reopens every widget as it is, and the narration is not shown for a view that is no longer the scene."""
    at = open_page(page, "en")
    at.button(key=f"{page}_next").click().run()
    sc = scenes.SCENES[page][0]
    moved = next((k for k in sc["values"] if _nudge(at, k) is not None), None)
    assert moved, f"{page}: no widget of scene 1 could be moved"
    at.run()
    assert_clean(at)
    assert "scene" not in at.query_params, (page, moved, dict(at.query_params))
    assert not any(text.get("en", sc["say"])[:40] in b.value for b in at.info), (page, moved)
    again = open_page(page, **dict(at.query_params))
    assert_clean(again)
    assert _all_values(again) == _all_values(at), (page, moved, dict(at.query_params))


def test_rope_scene_1_then_m_back_to_its_default_reopens_m_2_without_the_narration():
    """The issue's own steps: /rope, Next scene (m = 1), m back to 2 (its default). The URL used to drop
    rope_m and keep scene=1, so the link reopened m = 1, and the narration said "position 1" beside m = 2."""
    at = open_page("rope", "en")
    at.button(key="rope_next").click().run()
    assert at.slider(key="rope_m").value == 1 and at.query_params["scene"] == "1"
    at.slider(key="rope_m").set_value(2).run()
    at.query_params.pop("rope_m", None)       # the browser drops a bound widget at its default (AppTest has none)
    assert "scene" not in at.query_params
    say = text.get("en", "rope.scene.pair.say")
    assert not any(say[:40] in b.value for b in at.info)
    assert any("1/" in b.value and text.get("en", "w.rope_m") in b.value for b in at.info)   # what was changed
    again = open_page("rope", **dict(at.query_params))
    assert again.slider(key="rope_m").value == 2
    assert _all_values(again) == _all_values(at)
    at.slider(key="rope_m").set_value(1).run()                     # back at the scene's value: the scene again
    assert at.query_params["scene"] == "1" and any(say[:40] in b.value for b in at.info)
    at.button(key="rope_next").click().run()                      # and the story goes on from there
    assert at.query_params["scene"] == "2"


def _frame_target(at):
    """The scene target the page's frame script carries in this run (scenes.client_script), or None."""
    import re

    (script,) = [h.value for h in at.get("html") if "const [target, chosen]" in h.value]
    raw = re.search(r"const \[target, chosen\] = \[(.*?), [0-9.e+]+\];", script)[1]
    return None if raw == "null" else raw.strip('"')


@pytest.mark.parametrize("page, n", [("frontier", 6), ("rope", 3), ("length", 5)])
def test_a_scene_link_sends_its_figure_as_the_target_as_next_scene_does(page, n):
    """Issue 33 item 2: ?scene=N (and /remember's links, which are such links) showed the narration and left the
    page at the top: the frame script of the link's run carries the scene's figure, once, like Next scene's."""
    at = open_page(page, "zh", scene=str(n))
    assert _frame_target(at) == scenes.SCENES[page][n - 1]["show"]
    at.run()                                                            # nothing chosen since: no scroll
    assert _frame_target(at) is None
    at.button(key=f"{page}_next").click().run()
    assert _frame_target(at) == scenes.SCENES[page][n]["show"]
    assert _frame_target(open_page(page, "en")) is None
