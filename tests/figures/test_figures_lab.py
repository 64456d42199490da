import itertools
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from posviz.figures import lab as F
from posviz.figures import overview as O
from posviz.figures import style
from posviz.lab import toy_model as A
from posviz.views import lab as V

LABELS = {"title": "t", "x": "k", "y": "q", "colorbar": "c"}


def _lab(**kw):
    return V.experiment("I love ML", "do you love ML too", **kw)


def _attn_figs(res, row=0, head=0):
    r = res["rows"][row]
    return (F.attention_map(r["correct"][head], r["tokens"], zmax=r["top"][head], labels=LABELS),
            F.attention_map(r["chosen"][head], r["tokens"], zmax=r["top"][head], labels=LABELS),
            F.attention_difference(r["correct"][head], r["chosen"][head], r["tokens"], labels=LABELS))


def test_attention_panels_share_scales():
    correct, chosen, diff = _attn_figs(_lab(scheme="arange", method="sinusoidal"))
    assert [f.data[0].type for f in (correct, chosen, diff)] == ["heatmap"] * 3
    assert all(len(f.data) == 1 for f in (correct, chosen, diff))          # one panel per figure (phone-safe)
    assert (correct.data[0].zmin, correct.data[0].zmax) == (chosen.data[0].zmin, chosen.data[0].zmax)
    assert correct.data[0].zmin == 0
    d = diff.data[0]
    assert d.zmid == 0 and d.zmin == -d.zmax and d.zmax >= 1e-3
    assert np.asarray(correct.data[0].z).shape == (5, 5)
    assert all(len(f.to_json()) < 300_000 for f in (correct, chosen, diff))


def test_titles_wrap_and_sit_below_the_toolbar():
    long = "Per-token output error max |O_chosen − O_correct| (real tokens) of a very long sentence"
    fig = F.attention_map(np.zeros((3, 3)), ["a", "b", "c"], zmax=1, labels={**LABELS, "title": long})
    title = fig.layout.title
    assert "<br>" in title.text and (title.yref, title.yanchor) == ("container", "top")
    assert (1 - title.y) * fig.layout.height >= style.MODEBAR_PX - 1e-6                   # under the toolbar
    lines = title.text.count("<br>") + 1
    assert fig.layout.margin.t >= style.MODEBAR_PX + lines * style.LINE_PX          # room for every line
    assert max(len(line) for line in title.text.split("<br>")) <= style.PANEL_TITLE_WIDTH
    assert max(len(line) for line in style.wrap(long).split("<br>")) <= style.TITLE_WIDTH
    zh = style.wrap("每个真实 token 的输出误差 max |O_所选 − O_正确|，这是一段很长的中文标题")
    assert all(sum(2 if ord(c) > 0x2e80 else 1 for c in line) <= style.TITLE_WIDTH for line in zh.split("<br>"))
    assert style.wrap("<b>x</b>") == "&lt;b&gt;x&lt;/b&gt;"


def test_labels_are_escaped_and_unique():
    labels = style.token_labels(["<b>x</b>", "the", "the"])
    assert labels == ["0·&lt;b&gt;x&lt;/b&gt;", "1·the", "2·the"]


def test_error_bars_and_summary():
    res = _lab(bugs=("pads_unmasked",))
    fig = F.error_bars(res["errors"], [["a"] * 3, ["b"] * 5], harmless=A.HARMLESS, harmful=A.HARMFUL,
                       labels={"title": "t", "y": "y", "harmless": "h", "harmful": "H", "name.0": "A", "name.1": "B"})
    assert [t.type for t in fig.data] == ["bar", "bar"] and [t.name for t in fig.data] == ["A", "B"]
    assert fig.layout.yaxis.type == "log" and fig.layout.legend.orientation == "h"
    assert [s.y0 for s in fig.layout.shapes] == [A.HARMLESS, A.HARMFUL]
    np.testing.assert_allclose(fig.data[0].customdata, res["errors"][0])      # the CSV keeps the real errors
    s = V.summary("I love ML", "do you love ML too")
    for part, n in (("schemes", 5), ("bugs", 7)):
        fig = F.summary_heatmap(s[part]["err"], s[part]["status"], [str(r) for r in A.SUMMARY_ROWS],
                                [str(c) for c in s[part]["cols"]], labels={"title": "t", "na": "n/a", "oor": "oor"},
                                selected=(3, 0))
        assert fig.data[0].type == "heatmap" and not fig.data[0].showscale
        assert np.asarray(fig.data[0].z).shape == (7, n)
        cells = json.dumps(fig.to_plotly_json()["data"][0]["text"].tolist())
        assert ("n/a" in cells) == (part == "bugs") and "e-0" not in cells    # short labels: 2e-7, not 2e-07
        assert len(fig.layout.shapes) == 1
    assert F._cell_text(2.3e-7) == "2e-7" and F._cell_text(0.7234) == "0.72"


def test_max_payload():
    long_a = " ".join(f"w{i}" for i in range(64))
    res = V.experiment(long_a, "short one", num_heads=4, head_dim=64)
    for fig in _attn_figs(res, row=1, head=3):
        assert np.asarray(fig.data[0].z).shape == (64, 64)
        assert len(fig.to_json()) < 2_000_000


def test_heatmap_panel_shares_the_given_range():
    fig = F.attention_map(np.eye(3), ["a", "b", "c"], zmax=2, labels=LABELS)
    assert (fig.data[0].zmin, fig.data[0].zmax) == (0, 2) and fig.layout.yaxis.autorange == "reversed"


def test_overview_figures():
    """The overview's figures on the toy model's numbers (figures/overview.py belongs to the overview page;
    this test stays here until that page has a figure test of its own)."""
    r = A.equivariance("dog bites man", "man bites dog", method="rope")
    lab = {"title": "a", "x": "x", "y": "y", "value": "v"}
    figs = [O.equivariance_panel(z, r["tokens_b"], zrange=(-1, 1), labels=lab) for z in (r["out_b"], r["p_out_a"])]
    assert [f.data[0].type for f in figs] == ["heatmap"] * 2
    assert figs[0].data[0].zmin == figs[1].data[0].zmin == -1
    fig = O.equivariance_bars(A.equivariance_table("猫追狗", "狗追猫"), A.POSITION_METHODS,
                              labels={"title": "t", "y": "y", "nomask": "no", "causal": "causal"})
    assert len(fig.data) == 2
    dot = O.where_position_dot({k: f'lab "{k}"' for k in ("abs", "rope", "bias", "tok", "pe", "hidden", "qkv",
                                                          "softmax", "qk", "rot", "v", "scores", "bias_node")})
    assert dot.startswith("digraph") and '\\"abs\\"' in dot


def validated_equals_built(fig):
    """The builders skip plotly's validation (tests/figures/test_figures_relative.py): validating what
    they build must raise nothing and change nothing (a named colour scale would be expanded)."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


TITLES = ("", "Correct", "Per-token output error max |O_chosen − O_correct| (real tokens) of a very long title",
          "每个真实 token 的输出误差 max |O_所选 − O_正确|，这是一段很长的中文标题")


def _every_figure():
    """Every builder of posviz.figures.lab with its options: titles of 0-3 lines, NaN pad rows, empty
    labels, outlined cells or none, out-of-range and n/a cells, a 64-token row."""
    long_a = " ".join(f"w{i}" for i in range(64))
    for (a, b), (method, scheme, bugs) in itertools.product(
            [("I love ML", "do you love ML too"), ("<b>x</b> a a", "我 爱 机器 学习 吗"), (long_a, "short one")],
            [("rope", "mask", ()), ("sinusoidal", "arange", ()), ("alibi", "zeros", ("pads_unmasked",))]):
        res = V.experiment(a, b, method=method, scheme=scheme, bugs=bugs, max_length=64)
        for r, title in zip(res["rows"], TITLES[1:]):
            lab = {**LABELS, "title": title}
            yield F.attention_map(r["correct"][0], r["tokens"], zmax=r["top"][0], labels=lab)
            yield F.attention_map(r["chosen"][1], r["tokens"], zmax=0.0, labels={"title": title}, height=300)
            yield F.attention_difference(r["correct"][1], r["chosen"][1], r["tokens"], labels=lab)
        for title in TITLES[:2]:
            yield F.error_bars(res["errors"], res["real_tokens"], harmless=A.HARMLESS, harmful=A.HARMFUL,
                               labels={"title": title, "y": "y", "harmless": "h", "harmful": "H", "name.0": "<A>"})
        yield F.error_bars(res["errors"], res["real_tokens"], harmless=A.HARMLESS, harmful=A.HARMFUL, labels={})
    for ml, part, title, selected in itertools.product((3, 16), ("schemes", "bugs"), TITLES, (None, (3, 0))):
        s = V.summary("I love ML", "do you love ML too", max_length=ml)
        yield F.summary_heatmap(s[part]["err"], s[part]["status"], [f"<{r}>" for r in A.SUMMARY_ROWS],
                                [str(c) for c in s[part]["cols"]], labels={"title": title, "na": "n/a", "oor": "-"},
                                selected=selected)
    yield F.attention_difference(np.full((3, 3), np.nan), np.full((3, 3), np.nan), ["a", "b", "c"], labels={})


def test_every_figure_is_valid_plotly_and_works_in_lecture_mode():
    n = 0
    for fig in _every_figure():
        assert validated_equals_built(fig), fig.layout.title
        lecture = style.presentation(fig)                                  # lecture mode on the built figure
        assert validated_equals_built(lecture)
        assert lecture.layout.font.size == style.PRESENT_FONT
        n += 1
    assert n > 100


def test_colour_scales_are_spelled_out():
    """plotly.js knows neither "RdBu_r" nor "Cividis" by name: the built figures carry the stops."""
    res = _lab()
    r = res["rows"][0]
    for fig in (F.attention_map(r["correct"][0], r["tokens"], zmax=1, labels=LABELS),
                F.attention_difference(r["correct"][0], r["chosen"][0], r["tokens"], labels=LABELS)):
        assert isinstance(fig.to_dict()["data"][0]["colorscale"], list)
    assert fig.to_dict()["data"][0]["colorscale"][0] == [0.0, "rgb(5,48,97)"]      # RdBu reversed: blue < 0


def test_the_difference_panel_labels_its_colour_bar_short():
    """Issue 26 item 16: plotly's own colour bar labels (−0.0005 …) widened the difference panel's bar and crowded
    the keys' labels under the narrower map in lecture mode; three short labels at −max, 0, max."""
    correct = np.zeros((3, 3), dtype=np.float32)
    chosen = correct + np.array([[0.0, 0.3125, -0.25]] * 3, dtype=np.float32)
    bar = F.attention_difference(correct, chosen, ["a", "b", "c"], labels={}).data[0].colorbar
    assert list(bar.tickvals) == [-0.3125, 0.0, 0.3125] and list(bar.ticktext) == ["−0.31", "0", "0.31"]
    noise = correct + np.float32(1e-5)                                          # float noise: under the floor
    tiny = F.attention_difference(correct, noise, ["a", "b", "c"], labels={}).data[0].colorbar
    assert list(tiny.ticktext) == ["−0.001", "0", "0.001"]                   # the floor: float noise stays white
    assert max(len(F.short_number(v)) for v in (-0.0123456, 0.987654, -1.0, 5e-4)) <= 6
    # lecture mode: beside the two maps (whose query labels name its rows) it gives its width to the keys' labels
    fig = F.attention_difference(correct, chosen, ["a", "b", "c"], labels={"y": "Query"}, height=400)
    style.presentation(fig)
    assert fig.layout.yaxis.showticklabels is False and not fig.layout.yaxis.title.text
    assert fig.layout.height == 480 and fig.layout.xaxis.tickangle == -45
    assert F.attention_map(correct, ["a", "b", "c"], zmax=1, labels={}).layout.meta is None  # the maps keep theirs


def test_lecture_mode_sizes_every_heatmap_cell_number_for_a_projector():
    """Issue 33 item 4: the summary's cell values were 10 px in lecture mode (plotly fits a cell's text to it)."""
    s = V.summary("I love ML", "do you love ML too")
    for part in ("schemes", "bugs"):
        fig = F.summary_heatmap(s[part]["err"], s[part]["status"], [str(r) for r in A.SUMMARY_ROWS],
                                [str(c) for c in s[part]["cols"]], labels={"na": "—", "oor": "oor", "title": "t"})
        cells = [tr for tr in style.presentation(go.Figure(fig)).data if tr.type == "heatmap" and tr.texttemplate]
        assert cells and all(tr.textfont.size >= style.PRESENT_MIN for tr in cells)
