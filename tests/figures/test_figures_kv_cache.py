"""Figures of the RoPE + KV cache page."""
import itertools
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from posviz.figures import kv_cache as figs
from posviz.figures import style
from posviz.lab import kv_cache as kc
from posviz.views import kv_cache as V

LABELS = {f"mode.{m}": m for m in kc.MODES} | {"title": "t", "x": "x", "y": "y", "allowed": "tolerance",
                                               "precision": "dtype vs float32", "prefill": "prefill", "query": "q"}


def _error_fig(length, prefill, dtype="float32"):
    r = kc.compare_modes(length, prefill, heads=2, head_dim=16, dtype=dtype)
    return r, figs.error_figure(r["positions"], r["errors"], prefill_length=prefill, labels=LABELS,
                                allowed=r["allowed"], precision=r["precision"])


def test_error_figure_traces_and_log_axis():
    r, fig = _error_fig(8, 4)
    names = [t.name for t in fig.data]
    assert names[:4] == list(kc.MODES) and "tolerance" in names
    assert "dtype vs float32" not in names        # float32: the precision line is identically 0, not drawn
    assert fig.layout.yaxis.type == "log"
    assert all(t.type == "scatter" for t in fig.data)
    assert min(min(t.y) for t in fig.data) >= np.float32(figs.FLOOR)   # exact zeros lifted to the floor ...
    np.testing.assert_allclose(fig.data[0].customdata, r["errors"]["correct"], rtol=1e-6)   # ... the CSV keeps 0
    assert fig.data[0].customdata[0] == 0
    assert len(fig.to_json()) < 300_000


def test_titles_sit_below_the_toolbar_and_legends_below_the_plot():
    _, fig = _error_fig(8, 4)
    assert fig.layout.title.text == "t" and fig.layout.title.yanchor == "top" and fig.layout.title.y < 1
    # issue 33 item 5: the legend at the bottom of the figure, in rows of its own, clear of the x-axis title
    assert fig.layout.legend.orientation == "h" and fig.layout.legend.yref == "container"
    assert fig.layout.legend.y == 0 and fig.layout.legend.yanchor == "bottom"
    assert fig.layout.margin.b >= 70 + 26 * len([t for t in fig.data if t.showlegend is not False])



def test_a_phone_gets_a_shorter_plot_above_its_legend_rows():
    """Issue 33 item 5: on a phone (layout meta["phone"], applied by style.one_pass) the cache figures are a
    PHONE_HEIGHT px plot with 26 px per legend entry under it, so that a scene's narration, the plot and every legend
    row share an 844 px screen; the title stays MODEBAR_PX under the top at that height. A desktop and a projector
    keep their own heights."""
    r = kc.compare_modes(6, 4)
    last = {m: V.read_positions_at(r, m) for m in kc.MODES}
    positions = figs.positions_figure({m: last[m][0] for m in kc.MODES}, {m: last[m][1] for m in kc.MODES},
                                      labels=LABELS)
    for (_, fig), entries, key in ((_error_fig(8, 4), 5, "kv_errors"), ((None, positions), len(kc.MODES),
                                                                            "kv_positions")):
        phone = fig.layout.meta["phone"]
        assert phone["height"] == figs.PHONE_HEIGHT + 26 * entries < fig.layout.height
        assert phone["title"]["y"] * phone["height"] == pytest.approx(phone["height"] - style.MODEBAR_PX)
        spec = fig.to_plotly_json()
        shown = style.one_pass(spec, key, phone=True)["layout"]
        assert shown["height"] == phone["height"] and shown["title"]["y"] == phone["title"]["y"]
        assert shown["title"]["text"] == "t" and shown["margin"]["b"] >= 70 + 26 * entries   # the legend's rows
        assert style.one_pass(spec, key)["layout"]["height"] == fig.layout.height                # a desktop's own
        assert style.presentation(fig).layout.height == fig.layout.meta["lecture"]["height"]

def test_error_figure_low_precision_has_precision_line():
    _, fig = _error_fig(8, 2, "bfloat16")
    assert "dtype vs float32" in [t.name for t in fig.data]


def test_error_figure_payload_at_max():
    _, fig = _error_fig(96, 1)
    assert len(fig.to_json()) < 2_000_000


def test_positions_figure():
    r = kc.compare_modes(6, 4)
    last = {m: V.read_positions_at(r, m) for m in kc.MODES}
    fig = figs.positions_figure({m: last[m][0] for m in kc.MODES}, {m: last[m][1] for m in kc.MODES},
                                labels=LABELS)
    assert len(fig.data) == 8                      # one line + one query level per mode
    assert list(fig.data[0].y) == [0, 1, 2, 3, 4, 5]
    assert list(fig.data[2].y) == [0, 1, 2, 3, 0, 0]           # restart
    assert len(fig.to_json()) < 300_000


def validated_equals_built(fig):
    """The builders skip plotly's validation (tests/figures/test_figures_relative.py): validating what
    they build must raise nothing and change nothing."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


def test_every_figure_is_valid_plotly_and_works_in_lecture_mode():
    """Both builders with every option: all, one or no modes, with and without the tolerance and precision
    lines, titles of 0-3 lines, nothing decoded (P = L), the longest decode."""
    n = 0
    for (length, prefill, dtype), title in itertools.product(
            [(6, 4, "float32"), (8, 1, "bfloat16"), (96, 16, "float16"), (5, 5, "float32")],
            ["", "t", "每个真实 token 的输出误差 max |O_所选 − O_正确|，这是一段很长的中文标题"]):
        d = V.decoding(length, prefill, dtype=dtype)
        lab = {**LABELS, "title": title}
        for modes in (kc.MODES, ("correct",), ()):
            built = [figs.error_figure(d["positions"], {m: d["errors"][m] for m in modes}, prefill_length=prefill,
                                       labels=lab, allowed=d["allowed"], precision=d["precision"]),
                     figs.error_figure(d["positions"], {m: d["errors"][m] for m in modes}, prefill_length=prefill,
                                       labels={})]
            if d["last"] is not None:
                built += [figs.positions_figure({m: d["last"][m][0] for m in modes},
                                                {m: d["last"][m][1] for m in modes}, labels=lab),
                          figs.positions_figure({m: d["last"][m][0] for m in modes},
                                                {m: d["last"][m][1] for m in modes}, labels={}, height=300)]
            for fig in built:
                assert validated_equals_built(fig)
                lecture = style.presentation(fig)
                assert validated_equals_built(lecture) and lecture.layout.font.size == style.PRESENT_FONT
                n += 1
    assert n > 50


def test_streaming_and_sink_figures():
    """The streaming cache's error and positions figures, the sink score curve and gpt-oss's sink mass:
    valid plotly, with and without their options, in lecture mode too."""
    r = V.stream(40, 4, 8)
    labels = {f"mode.{m}": m for m in V.STREAM_MODES} | {"title": "t", "x": "x", "y": "y", "evict": "slides",
                                                         "contract.reassigned": "re", "contract.global": "gl",
                                                         "head": "head {h}", "query": "q"}
    score = figs.sink_score_figure(r["scores"], first_evict=r["first_evict"], labels=labels)
    assert [t.name for t in score.data] == ["re", "gl"] and score.layout.shapes[0].x0 == 12
    assert score.layout.annotations[0].text == "slides"
    positions = figs.positions_figure({m: r["last"][m]["query"] for m in V.STREAM_MODES},
                                      {m: r["last"][m]["keys"] for m in V.STREAM_MODES}, labels=labels)
    assert list(positions.data[6].y) == [0, 1, 2, 3] + [11] * 8                 # stale: every window key at slot 11
    errors = figs.error_figure(r["positions"], r["errors"], prefill_length=12, allowed=r["allowed"], labels=labels)
    s = V.sinks(8, 1.0)
    mass = figs.sink_mass_figure(s["positions"], s["sink"], labels=labels)
    assert [t.name for t in mass.data] == ["head 0", "head 1"] and mass.layout.yaxis.range[0] == 0
    no_shade = figs.error_figure(s["positions"], s["errors"], prefill_length=None, allowed=s["allowed"], labels={})
    assert not no_shade.layout.shapes and not no_shade.layout.annotations
    for fig in (score, positions, errors, mass, no_shade,
                figs.sink_score_figure(r["scores"], first_evict=None, labels={}),
                figs.sink_mass_figure(s["positions"], s["sink"], labels={}, height=300)):
        assert validated_equals_built(fig)
        lecture = style.presentation(fig)
        assert validated_equals_built(lecture) and lecture.layout.font.size == style.PRESENT_FONT
        assert len(fig.to_json()) < 300_000
