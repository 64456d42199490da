"""Lecture mode renders every page, with projector-sized figure fonts."""
import pytest

from harness.apptest import assert_clean, figures, open_page
from harness.browser import page_paths
from posviz.figures import style


@pytest.mark.parametrize("path", page_paths())
def test_present_mode_renders_every_page(path):
    at = open_page((path or "overview").replace("-", "_"), "zh", present="1")
    assert_clean(at)
    figs = figures(at)
    for f in figs:
        assert f["layout"]["font"]["size"] >= style.PRESENT_FONT
