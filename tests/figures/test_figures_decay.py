"""posviz.figures.decay: trace types, normalisation, axes, labels and payload sizes."""
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from posviz.figures import decay as fd
from posviz.figures import style
from posviz.pe import decay
from posviz.views import decay as V

# trace names are templates the builder fills per curve; the test labels show which fields it filled
LABELS = {"title": "T", "x": "r", "y": "y", "bound": "bound|base={base}", "ones": "ones|base={base}",
          "alibi": "alibi|h={h},m={m}", "sin": "sin|base={base},dim={dim}", "band": "band|{base}",
          "band_hi": "hi|{base}", "mean": "mean|{base}", "expected": "expected|{base}", "example": "example|{base}",
          "pair": "pair|base={base},i={i},theta={theta}", "mark": "mark|base={base},r={r},v={v}"}


def _main(d=128, R=1024, bases=(10000, 500000), log=False, heads=(), sin=None):
    r = V.grid.uncached(R, log)
    series = [(b, V.main_curves.uncached(d, R, log, b)) for b in bases]
    alibi = V.alibi_lines.uncached(R, log, tuple(heads)) if heads else None
    sinus = (sin, V.SIN_BASE, V.sinusoidal_line.uncached(R, log, sin)) if sin else None
    return r, fd.curves_figure(r, series, alibi=alibi, sinusoidal=sinus, log_x=log, labels=LABELS)


def _random(d=128, R=1024, bases=(10000, 500000), log=False, n=64, rho=1.0):
    r = V.grid.uncached(R, log)
    rows = [(b, V.random_curves.uncached(d, R, log, b, n, rho, 0)) for b in bases]
    return r, fd.random_figure(r, rows, log_x=log, labels=LABELS)


def _pair(d=128, R=1024, bases=(10000, 500000), pair=16, log=False):
    r = V.grid.uncached(R, log)
    rows = [(b, V.pair_curve.uncached(d, R, log, b, pair)) for b in bases]
    return r, fd.pair_figure(r, rows, pair=pair, log_x=log, labels=LABELS)


def test_main_figure_normalises_to_one_at_zero():
    r, fig = _main(heads=(1, 8), sin=512)
    assert all(tr.type == "scatter" for tr in fig.data)
    assert len(fig.data) == 2 * 2 + 2 + 1
    bound, ones = fig.data[0], fig.data[1]
    assert bound.y[0] == pytest.approx(1.0) and ones.y[0] == pytest.approx(1.0)
    full = decay.roformer_decay_bound(128, 1024).numpy()[r] / 32.5
    np.testing.assert_allclose(bound.y, full, rtol=1e-6)
    alibi1, alibi8, sin = fig.data[4], fig.data[5], fig.data[6]
    np.testing.assert_allclose(alibi1.y, 1 - 0.5 * r, rtol=1e-6)           # 1 - m r, m = 1/2
    np.testing.assert_allclose(alibi8.y, 1 - r / 256, rtol=1e-6, atol=1e-6)
    assert alibi1.name == "alibi|h=1,m=0.5"
    assert sin.y[0] == pytest.approx(1.0) and sin.name == "sin|base=1e4,dim=512"
    assert tuple(fig.layout.yaxis.range) == fd.Y_RANGE
    assert fig.layout.xaxis.type == "linear"
    assert bound.name == "bound|base=1e4" and fig.layout.title.text == "T"


def test_sinusoidal_equals_ones_curve_when_widths_match():
    _, fig = _main(d=128, bases=(10000,), sin=128)
    np.testing.assert_allclose(fig.data[2].y, fig.data[1].y, atol=1e-6)


def test_show_ones_off_and_log_axis():
    r = V.grid.uncached(65536, True)
    fig = fd.curves_figure(r, [(10000, V.main_curves.uncached(64, 65536, True, 10000))], show_ones=False, log_x=True,
                           labels=LABELS)
    assert len(fig.data) == 1
    assert fig.layout.xaxis.type == "log"
    assert fig.layout.xaxis.range[1] == pytest.approx(np.log10(65536))
    leg, title = fig.layout.legend, fig.layout.title                        # phone: legend rows at the very bottom,
    assert leg.orientation == "h" and (leg.yref, leg.y, leg.yanchor) == ("container", 0, "bottom")
    # the title below plotly's toolbar (its top >= 30 px down), wrapped to fit a phone (issue 26 item 19)
    assert title.yref == "container" and title.yanchor == "top" and (1 - title.y) * fig.layout.height >= 30


def test_long_titles_wrap_under_the_toolbar_and_the_dotted_key_is_one_legend_entry():
    """Issue 26 items 13 and 19: the zh pair title ran off a phone in one line; the main chart's legend (a line per
    base and a dotted line per base) ran below a 1280x720 projector: the legend's title says once what a dotted
    line is."""
    r = V.grid.uncached(1024, False)
    long = "第 i = 16 对，q = k = (1, 0)：cos(r · θ_i)，底数 1e4 与 5e5，r 从 0 到 1024"
    fig = fd.pair_figure(r, [(10000, {"theta": 0.1, "cos": np.cos(0.1 * r)})], pair=16,
                         labels={**LABELS, "title": long})
    lines = fig.layout.title.text.split("<br>")
    assert len(lines) >= 2 and all(sum(2 if ord(c) > 0x2E80 else 1 for c in ln) <= 40 for ln in lines)
    assert (1 - fig.layout.title.y) * fig.layout.height >= 30
    curves = [(b, V.main_curves.uncached(128, 1024, False, b)) for b in (10000, 500000)]
    keyed = fd.curves_figure(r, curves, labels={**LABELS, "ones_key": "dotted: q = k = 1"})
    shown = [tr.name for tr in keyed.data if tr.showlegend is not False]
    assert shown == ["bound|base=1e4", "bound|base=5e5"] and len(keyed.data) == 4
    # the key is the legend's title, above the items at their left edge (plotly's "top left" indents the items)
    assert keyed.layout.legend.title.text == "dotted: q = k = 1" and keyed.layout.legend.title.side == "top"
    plain = fd.curves_figure(r, curves, labels=LABELS)
    assert sum(tr.showlegend is not False for tr in plain.data) == 4     # without a key: every line its own entry
    assert keyed.layout.meta["lecture_height"] < 1.2 * plain.layout.height


def test_random_figure_band_and_traces():
    r, fig = _random(rho=0.0)
    assert len(fig.data) == 2 * 5                       # band hi, band lo (fill), mean, expected, example
    hi, lo, mean = fig.data[0], fig.data[1], fig.data[2]
    assert lo.fill == "tonexty" and hi.showlegend is False
    assert np.all(np.asarray(hi.y) >= np.asarray(mean.y)) and np.all(np.asarray(mean.y) >= np.asarray(lo.y))
    assert np.abs(np.asarray(fig.data[3].y)).max() == 0.0   # expectation 0 for independent content
    assert fig.layout.title.text == "T"


def test_random_figure_without_example_or_expectation():
    r = decay.distance_grid(100)
    band = decay.random_score_band(16, r, n_samples=4)
    curves = {"mean": band.mean.numpy(), "std": band.std.numpy(), "example": band.example.numpy(), "expected": None}
    fig = fd.random_figure(r.numpy(), [(100, curves)], show_example=False, labels=LABELS)
    assert len(fig.data) == 3
    assert fig.data[2].mode == "lines+markers"           # 101 integer distances: markers shown


def test_pair_figure_marks_the_article_example():
    r, fig = _pair(d=2, R=16, bases=(10000,), pair=0)
    line, mark = fig.data
    np.testing.assert_allclose(line.y, np.cos(np.arange(17)), atol=1e-6)
    assert list(mark.x) == [3] and mark.y[0] == pytest.approx(np.cos(3.0), abs=1e-6)
    assert "v=−0.9900" in mark.name and "r=3" in mark.name


def test_pair_figure_without_r3():
    r = decay.distance_grid(131072, points=50)           # a linear grid of 50 does not hit r = 3
    curve = {"theta": 0.1, "cos": decay.pair_oscillation(128, r, 16).numpy()}
    fig = fd.pair_figure(r.numpy(), [(10000, curve)], pair=16, labels=LABELS)
    assert len(fig.data) == 1


def test_payload_default_and_max():
    _, f1 = _main()
    _, f2 = _random()
    _, f3 = _pair()
    for f in (f1, f2, f3):
        assert len(f.to_json()) < 300_000
    for log in (False, True):
        _, g1 = _main(d=512, R=decay.MAX_DISTANCE, bases=V.BASES, heads=tuple(range(1, 9)), sin=1024, log=log)
        _, g2 = _random(d=512, R=decay.MAX_DISTANCE, bases=V.BASES, n=16, log=log)
        _, g3 = _pair(d=512, R=decay.MAX_DISTANCE, bases=V.BASES, pair=255, log=log)
        for g in (g1, g2, g3):
            assert len(g.to_json()) < 2_000_000
            assert all(len(tr.x) <= V.POINTS for tr in g.data)


def validated_equals_built(fig):
    """plotly's validation raises on a wrong property and expands what plotly.js does not know (a named
    colour scale such as "RdBu_r"): the validated figure must be exactly the one built."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


def test_every_figure_is_valid_plotly():
    """The builders skip plotly's validation for speed: validate what they build here, every kind."""
    for log in (False, True):
        for fig in (_main(heads=(1, 8), sin=512, log=log)[1], _random(log=log)[1],
                    _pair(d=2, R=16, pair=0, log=log)[1]):
            assert validated_equals_built(fig)
            go.Figure(style.presentation(fig).to_dict())                       # and in lecture mode


def test_a_log_axis_labels_powers_of_ten_only():
    """Issue 26 item 16: plotly's "2" and "5" labels between the powers of ten are 3/4 of the tick font (16.5 px
    in lecture mode); the minor ticks stay, unlabelled."""
    r, fig = _main(R=65536, log=True)
    assert fig.layout.xaxis.dtick == 1 and fig.layout.xaxis.minor.ticks == "outside"
    lecture = style.presentation(go.Figure(fig))
    assert lecture.layout.xaxis.dtick == 1
