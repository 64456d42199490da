"""Every page opened with random and hostile query parameters: no exception, a usable page."""
import functools
import random
import zlib

import pytest

from harness.apptest import open_page
from harness.browser import page_paths

HOSTILE = ["-5", "NaN", "nan", "inf", "-inf", "1e308", "-1e308", "", " ", "0", "999999999999",
           "3.5", "☃✓中文", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "**bold** [x](javascript:1)",
           "' OR 1=1 --", "{\"a\": 1}", "\u202e\u0000", "true", "None"]
PAGES = [(p or "overview").replace("-", "_") for p in page_paths()]


def _widget_keys(at):
    keys = []
    for kind in ("slider", "select_slider", "selectbox", "radio", "multiselect", "toggle", "number_input",
                 "text_input", "text_area", "checkbox", "segmented_control", "pills"):
        for w in getattr(at, kind, []):
            if w.key and not w.key.startswith(("ui_", "$$")):
                keys.append(w.key)
    return keys


def _usable(at):
    assert not at.exception, [e.value for e in at.exception][:2]
    assert len(at.title) >= 1


@functools.cache
def _default_widget_keys(page):
    """_widget_keys of the page's default view (opened once per test process)."""
    return tuple(_widget_keys(open_page(page)))


@pytest.mark.parametrize("page", PAGES)
def test_hostile_query_params_never_raise(page):
    at = open_page(page)
    _usable(at)
    keys = _widget_keys(at)
    rng = random.Random(zlib.crc32(page.encode()))  # reproducible (hash() is salted)
    for _ in range(3):
        params = {k: rng.choice(HOSTILE) for k in keys}
        params["lang"] = rng.choice(["en", "zh", "xx", "<b>", ""])
        params["present"] = rng.choice(["1", "0", "yes", ""])
        at = open_page(page, **params)
        _usable(at)


@pytest.mark.parametrize("page", PAGES)
def test_every_widget_at_an_extreme_never_raises(page):
    """Each numeric widget at its URL-given minimum and maximum (what a crafted link can ask for)."""
    at = open_page(page)
    params = {}
    for s in list(at.slider) + list(at.number_input):
        if s.key and not s.key.startswith("ui_"):
            lo, hi = getattr(s, "min", None), getattr(s, "max", None)
            if lo is not None and hi is not None:
                params[s.key] = str(hi)
    if params:
        _usable(open_page(page, **params))


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("value", ["inf", "nan", "-1e308"])
def test_non_finite_numbers_in_every_widget(page, value):
    """The values that break Streamlit's own URL parsing (an integer number_input at inf); and a finite
    number far outside every widget's range."""
    keys = _default_widget_keys(page)
    _usable(open_page(page, **{k: value for k in keys}))


def test_repeated_keys_and_unknown_params():
    at = open_page("overview", lang=["en", "zh"], foo="<script>", present=["1", "1"])
    _usable(at)
