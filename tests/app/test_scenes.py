"""Scenes: Next walks a page's story, sets its widgets, and the URL reopens the same view."""
import pytest

from conftest import open_page
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
