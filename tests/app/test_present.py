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


def _chart_parents(at, prefix):
    """{chart key: the block types above it} for the charts whose key starts with `prefix`."""
    out = {}

    def walk(node, path):
        for child in getattr(node, "children", {}).values():
            proto = getattr(child, "proto", None)
            key = getattr(proto, "id", "").split("-", 2)[-1]
            if getattr(proto, "component_name", "") == "posviz.chart" and key.startswith(prefix):
                out[key] = path
            walk(child, path + [type(child).__name__])
    walk(at._tree, [])
    return out


@pytest.mark.parametrize("page, prefix, opened", [("length_today", "lenf_shares", {}),
                                                  ("lab", "lab_summary", {"lab_matrix": "true"}),
                                                  ("sinusoidal", "sin_lin_", {})])
def test_lecture_mode_stacks_side_by_side_charts(page, prefix, opened):
    """Issue 33 item 4: beside a scene's narration panel two charts side by side got a third of the projector each
    (titles cut, 10-12 px cell values): ui.panels stacks them in lecture mode, columns elsewhere."""
    normal = _chart_parents(open_page(page, "zh", **opened), prefix)
    lecture = _chart_parents(open_page(page, "zh", present="1", **opened), prefix)
    assert len(normal) == len(lecture) == 2
    assert all("Column" in p for p in normal.values()) and not any("Column" in p for p in lecture.values())
