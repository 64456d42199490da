"""Figures drawn in one pass (style.one_pass and its table, posviz/figures/margins.json): the margins
plotly settles on are asked for up front, only ever raised, and every chart of the app has them."""
import copy
import json

import pytest

from harness.apptest import charts, open_page
from harness.browser import page_paths
from posviz.figures import style

SIDES = set("lrtb")


def test_one_pass_raises_margins_to_the_table_and_never_lowers_them(monkeypatch):
    monkeypatch.setitem(style.MARGINS, "k", {"normal": {"l": 90, "r": 20, "t": 76, "b": 58},
                                             "present": {"l": 120, "r": 30, "t": 90, "b": 80}})
    spec = {"data": [{"type": "heatmap"}], "layout": {"margin": {"l": 60, "r": 40, "t": 60, "b": 55}, "height": 400}}
    before = copy.deepcopy(spec)
    out = style.one_pass(spec, "k")
    assert out["layout"]["margin"] == {"l": 90, "r": 40, "t": 76, "b": 58}      # r: the figure's own 40 stays
    assert style.one_pass(spec, "k", projector=True)["layout"]["margin"] == {"l": 120, "r": 40, "t": 90, "b": 80}
    assert out["layout"]["height"] == 400 and out["data"] is spec["data"]
    assert spec == before                                   # the cached spec it came from is left as it was


def test_a_phone_asks_for_the_margins_fitted_on_a_phone(monkeypatch):
    monkeypatch.setitem(style.MARGINS, "k", {"normal": {"b": 60}, "present": {"b": 90}, "phone": {"b": 140}})
    spec = {"data": [], "layout": {"margin": {"b": 55}}}
    assert style.one_pass(spec, "k", phone=True)["layout"]["margin"] == {"b": 140}
    assert style.one_pass(spec, "k", projector=True, phone=True)["layout"]["margin"] == {"b": 90}   # lecture mode wins
    monkeypatch.setitem(style.MARGINS, "k", {"normal": {"b": 60}})
    assert style.one_pass(spec, "k", phone=True)["layout"]["margin"] == {"b": 60}    # no phone entry: the desktop's


def test_one_pass_leaves_unknown_charts_and_missing_sides_alone(monkeypatch):
    spec = {"data": [], "layout": {}}
    assert style.one_pass(spec, "no such chart") is spec
    assert style.one_pass(spec, None) is spec
    monkeypatch.setitem(style.MARGINS, "k", {"normal": {"t": 80}})
    assert style.one_pass(spec, "k")["layout"] == {"margin": {"t": 80}}
    assert style.one_pass(spec, "k", projector=True) is spec       # no lecture-mode entry


def test_the_table_is_well_formed():
    with open(style.MARGINS_FILE) as f:
        table = json.load(f)
    assert table == style.MARGINS and table
    for key, modes in table.items():
        assert set(modes) == {"normal", "present", "phone"}, key
        for mode, margin in modes.items():
            assert set(margin) == SIDES, (key, mode)
            assert all(isinstance(v, int) and 0 <= v <= 500 for v in margin.values()), (key, mode, margin)


@pytest.mark.parametrize("mode", ["normal", "present", "phone"])
@pytest.mark.parametrize("path", page_paths())
def test_every_chart_asks_for_its_margins_up_front(path, mode):
    """Each chart of each page's default view has an entry in the table, and the spec sent to the
    browser (a desktop's, in lecture mode, a phone's) carries at least its margins (a new chart: run
    benchmarks/margins.py --write)."""
    at = open_page((path or "overview").replace("-", "_"), "en", _state={"_phone": mode == "phone"},
                   present="1" if mode == "present" else "0")
    for key, chart in charts(at).items():
        assert key in style.MARGINS, f"chart {key!r} has no margins: run python -m benchmarks.margins --write"
        layout = chart["figure"]["layout"]
        own_top = (layout.get("meta") or {}).get("own_top")         # a builder that sizes its own top margin
        fit = {k: v for k, v in style.MARGINS[key][mode].items() if not (k == "t" and own_top)}
        assert all(layout["margin"][k] >= v for k, v in fit.items()), (key, layout["margin"])
