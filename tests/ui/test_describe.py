"""A chart's text alternative (posviz.ui.describe, issue 35): each clause of each sentence from the numbers, in
English and Chinese, and every chart of every page carries one in the page's language."""
import plotly.graph_objects as go
import pytest

from harness.apptest import charts, open_page
from harness.browser import page_paths
from posviz.figures import export
from posviz.ui import describe


def _line(y, x=None, name="score"):
    x = list(range(len(y))) if x is None else x
    return go.Figure(go.Scatter(x=x, y=y, name=name), layout={"xaxis": {"title": {"text": "distance"}},
                                                             "yaxis": {"title": {"text": "s"}}})


def test_a_falling_line_in_words():
    (s,) = describe.describe(_line([1.0, 0.4, 0.21, 0.3], x=[0, 128, 512, 1024]), "en")["sentences"]
    assert s == ("score: s falls from 1 at distance = 0 to 0.3 at distance = 1024; lowest 0.21 at distance = 512, "
                 "highest 1 at distance = 0 (4 points).")
    (s,) = describe.describe(_line([1.0, 0.4, 0.21, 0.3], x=[0, 128, 512, 1024]), "zh")["sentences"]
    assert s == ("score：s从 distance = 0 处的 1 降到 distance = 1024 处的 0.3；最低 0.21（distance = 512），"
                 "最高 1（distance = 0），共 4 个点。")


@pytest.mark.parametrize("y, en, zh", [
    ([0.5, 2.0, 1.5], "s rises from 0.5 at distance = 0 to 1.5 at distance = 2; lowest 0.5 at distance = 0, "
                      "highest 2 at distance = 1 (3 points).", "s从 distance = 0 处的 0.5 升到"),
    ([1.0, -1.0, 1.0], "s is 1 at distance = 0 and again at distance = 2; lowest -1 at distance = 1, "
                       "highest 1 at distance = 0 (3 points).", "到 distance = 2 处又是 1"),
    ([0.25, 0.25, 0.25], "s stays at 0.25 from distance = 0 to distance = 2 (3 points).", "一直是 0.25，共 3 个点"),
    ([7.0], "s is 7 at distance = 0.", "s在 distance = 0 处为 7。"),
])
def test_each_shape_of_a_line_has_its_clause(y, en, zh):
    assert describe.describe(_line(y, name=""), "en")["sentences"] == [en]         # no name: no "name: "
    assert zh in describe.describe(_line(y, name=""), "zh")["sentences"][0]


def test_a_heatmap_in_words_names_its_size_and_its_extreme_cells():
    fig = go.Figure(go.Heatmap(z=[[0.1, 0.9], [-0.5, 0.2], [0.0, 0.0]], x=["k0", "k1"], y=["q0", "q1", "q2"],
                               colorbar={"title": {"text": "weight"}}),
                    layout={"xaxis": {"title": {"text": "key"}}, "yaxis": {"title": {"text": "query"}}})
    (s,) = describe.describe(fig, "en")["sentences"]
    assert s == ("weight over 3 × 2 cells (query by key): lowest -0.5 at key = k0, query = q1; "
                 "highest 0.9 at key = k1, query = q0.")                 # named as its colour bar: named once
    (s,) = describe.describe(fig, "zh")["sentences"]
    assert s == ("weight共 3 × 2 格（query × key）：最低 -0.5（key = k0，query = q1），"
                 "最高 0.9（key = k1，query = q0）。")


def test_the_text_on_a_chart_more_series_and_a_bare_diagram():
    fig = go.Figure([go.Scatter(x=[0, 1], y=[i, i + 1], name=f"s{i}") for i in range(describe.MAX_SENTENCES + 2)],
                    layout={"annotations": [{"text": "L_train = 4,096"}]})
    out = describe.describe(fig, "en")["sentences"]
    assert len(out) == describe.MAX_SENTENCES + 2
    assert out[-2:] == ["2 more series: their numbers are in the CSV.", "Written on the chart: L_train = 4,096."]
    zh = describe.describe(fig, "zh")["sentences"]
    assert zh[-2:] == ["另有 2 条系列：数值见 CSV。", "图中写着：L_train = 4,096。"]
    face = go.Figure(go.Scatter(x=[0, 1], y=[0, 1], showlegend=False, hoverinfo="skip"))
    assert describe.describe(face, "zh")["sentences"] == ["这张图没有自己的数值：它是一张示意图。"]


def test_a_small_figure_has_its_numbers_as_a_table_with_named_columns():
    fig = go.Figure(go.Bar(x=["h0", "h1"], y=[0.5, 0.25], name="slope"), layout={"yaxis": {"title": {"text": "m"}}})
    alt = describe.describe(fig, "zh")
    assert alt["head"] == ["系列", "x", "m"] and alt["rows"] == [["slope", "h0", "0.5"], ["slope", "h1", "0.25"]]
    assert describe.describe(_line(list(range(export.SMALL + 1))), "en")["rows"] is None


@pytest.mark.parametrize("v, text", [(3, "3"), (3.0, "3"), (0.2104, "0.21"), (-0.5, "-0.5"), (1024.0, "1024"),
                                     (131072.0, "131072"), (12345.678, "12300"), (2.98e-08, "2.98e-08"),
                                     (0.0042, "0.0042"), (1.5e7, "15000000"), (float("nan"), "nan"), ("3·猫", "3·猫")])
def test_numbers_read_as_a_person_writes_them(v, text):
    assert describe.number(v) == text


@pytest.mark.parametrize("path", page_paths())
def test_every_chart_carries_its_text_alternative_in_the_pages_language(path):
    """In Chinese: the disclosure's label and every sentence Chinese, each made from the chart's own numbers
    (describe of the figure sent)."""
    at = open_page((path or "overview").replace("-", "_"), lang="zh")
    for key, chart in charts(at).items():
        alt = chart["alt"]
        assert alt["sentences"] and chart["labels"]["alt"] == "图的文字说明"
        assert alt == describe.describe(chart["figure"], "zh"), key
        for s in alt["sentences"]:
            assert any("\u4e00" <= ch <= "\u9fff" for ch in s), f"{key}: {s}"
