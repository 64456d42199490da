"""posviz.figures.overview: one panel per figure, the shared colour range, the log axis's floor, token
labels escaped, and every builder valid plotly (they skip plotly's validation)."""
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from posviz.figures import overview as F
from posviz.figures import style
from posviz.views import overview as V

PANEL = {"title": "Attn(PX)", "x": "dim", "y": "token", "value": "v"}
BARS = {"title": "t", "y": "y", "nomask": "no mask", "causal": "causal"}
SEAT = {"title": "t", "x": "p", "int": "p", "norm": "p/L", "train": "L_train", "emb": "entry"}
LONG_TITLE = "Attn(PX)：把句子 B 直接送进注意力层得到的输出 " * 2


def validated_equals_built(fig):
    """plotly's validation raises on a wrong property and expands what plotly.js does not know (a named
    colour scale such as "RdBu_r"): the validated figure must be exactly the one built."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


def every_builder(a, b, method, causal, length, title):
    r = V.equivariance.uncached(a, b, method=method, causal=causal)
    s = V.seat_numbers.uncached(length)
    methods = [f"m{i}" for i in range(len(V.POSITION_METHODS))]
    yield from (
        F.equivariance_panel(r["out_b"], r["tokens_b"], zrange=r["value_range"], labels=dict(PANEL, title=title)),
        F.equivariance_panel(r["diff"], r["tokens_b"], zrange=r["diff_range"], labels=PANEL),
        F.equivariance_bars(V.equivariance_table.uncached(a, b), methods, labels=dict(BARS, title=title)),
        F.seat_integer(s["p"], s["integer"], s["normalised"], s["train_length"], labels=dict(SEAT, title=title)),
        F.seat_sinusoids(s["p"], s["sinusoids"], s["omegas"], labels={"title": title, "x": "p"}))


@pytest.mark.parametrize("case", [("dog bites man", "man bites dog", "nope", False, 512),
                                  ("猫 追 狗", "狗 追 猫", "rope", True, 64),
                                  ("<b>x</b> y z", "z <b>x</b> y", "sinusoidal", False, 2048)])
@pytest.mark.parametrize("title", ["t", LONG_TITLE])
def test_every_figure_is_valid_plotly(case, title):
    """Validate what the builders build, every builder, in lecture mode too (style.presentation, as
    ui.plot applies it)."""
    for fig in every_builder(*case, title=title):
        assert validated_equals_built(fig), fig.layout.title.text
        style.presentation(fig)
        assert validated_equals_built(fig)


def test_panels_one_figure_each_on_the_given_range():
    r = V.equivariance.uncached("dog bites man", "man bites dog", method="rope")
    figs = [F.equivariance_panel(z, r["tokens_b"], zrange=r["value_range"], labels=PANEL)
            for z in (r["out_b"], r["p_out_a"])]
    for fig in figs:
        (hm,) = fig.data
        assert hm.type == "heatmap" and (hm.zmin, hm.zmax) == r["value_range"] and hm.zmid == 0
        assert hm.colorbar.orientation == "h"                      # under the panel: three panels side by side
        assert not any(k.startswith(("xaxis2", "yaxis2")) for k in fig.to_plotly_json()["layout"])
        assert fig.layout.yaxis.type == "category" and fig.layout.yaxis.autorange == "reversed"
    assert list(figs[0].data[0].y) == ["0·man", "1·bites", "2·dog"]


def test_token_labels_are_escaped():
    r = V.equivariance.uncached("<b>x</b> y", "y <b>x</b>")
    fig = F.equivariance_panel(r["out_b"], r["tokens_b"], zrange=r["value_range"], labels=PANEL)
    assert "&lt;b&gt;x&lt;/b&gt;" in " ".join(fig.data[0].y)


def test_bars_draw_an_exact_zero_at_the_floor_and_keep_it_in_the_hover():
    table = np.array([[0.0, 0.5], [1e-3, 1.0]])
    fig = F.equivariance_bars(table, ["a", "b"], labels=BARS)
    nomask, causal = fig.data
    assert float(nomask.y[0]) == pytest.approx(F.FLOOR) and float(nomask.customdata[0]) == 0.0
    assert fig.layout.yaxis.type == "log" and fig.layout.legend.orientation == "h"


def test_seat_figures():
    s = V.seat_numbers.uncached(512)
    fig = F.seat_integer(s["p"], s["integer"], s["normalised"], s["train_length"], labels=SEAT)
    assert [t.type for t in fig.data] == ["scatter"] * 2 and fig.layout.yaxis.type == "log"
    assert fig.layout.shapes[0].x0 == s["train_length"] and len(fig.layout.annotations) == 2
    fig = F.seat_sinusoids(s["p"], s["sinusoids"], s["omegas"], labels={"title": "t", "x": "p"})
    assert [t.name for t in fig.data] == ["sin(0.2·p)", "sin(0.05·p)", "sin(0.0125·p)"]
    assert tuple(fig.layout.yaxis.range) == (-1.15, 1.15)


def test_a_diverging_colour_bar_is_ticked_at_both_ends_and_zero():
    """Issue 26 item 16: plotly's own ticks for a range of ±0.96 were a lone "0"."""
    z = np.array([[-0.96, 0.5], [0.2, 0.96]], np.float32)
    bar = F.equivariance_panel(z, ["a", "b"], zrange=(-0.96, 0.96), labels=PANEL).data[0].colorbar
    assert list(bar.tickvals) == [-0.96, 0.0, 0.96] and list(bar.ticktext) == ["−0.96", "0", "0.96"]
    bar = F.equivariance_panel(np.abs(z), ["a", "b"], zrange=(0.0, 0.96), labels=PANEL).data[0].colorbar
    assert list(bar.tickvals) == [0.0, 0.96]
