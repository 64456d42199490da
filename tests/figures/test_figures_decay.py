"""posviz.figures.decay: trace types, normalisation, axes and payload sizes."""
import numpy as np
import pytest

from posviz.pe import decay
from posviz.figures import decay as fd
from posviz.text.decay import BASES


def t(key, **fmt):
    return key + ("|" + ",".join(f"{k}={v}" for k, v in sorted(fmt.items())) if fmt else "")


def _main(d=128, R=1024, bases=(10000, 500000), log=False, heads=(), sin=None, points=1025):
    r = decay.distance_grid(R, points=points, log=log)
    series = [(b, decay.roformer_decay_bound_at(d, r, base=b).numpy(), decay.ones_score_curve(d, r, base=b).numpy())
              for b in bases]
    slopes = decay.alibi_slopes(8).tolist()
    alibi = [(h, slopes[h - 1], p) for h, p in zip(heads, decay.alibi_penalty(r, heads).numpy())] if heads else None
    sinus = (sin, 10000, decay.sinusoidal_dot(sin, r).numpy()) if sin else None
    return r.numpy(), fd.decay_figure(r.numpy(), d, series, alibi=alibi, sinusoidal=sinus, log_x=log, t=t)


def _random(d=128, R=1024, bases=(10000, 500000), log=False, n=64, rho=1.0, points=1025):
    r = decay.distance_grid(R, points=points, log=log)
    rows = []
    for b in bases:
        band = decay.random_score_band(d, r, base=b, n_samples=n, correlation=rho)
        exp = decay.random_score_expectation(d, r, base=b, correlation=rho)
        rows.append((b, band.mean.numpy(), band.std.numpy(), band.example.numpy(), exp.numpy()))
    return r.numpy(), fd.random_figure(r.numpy(), rows, correlation=rho, log_x=log, t=t)


def _pair(d=128, R=1024, bases=(10000, 500000), pair=16, log=False, points=1025):
    r = decay.distance_grid(R, points=points, log=log)
    rows = [(b, float(decay.rope_inv_freq(d, b)[pair]), decay.pair_oscillation(d, r, pair, base=b).numpy())
            for b in bases]
    return r.numpy(), fd.pair_figure(r.numpy(), rows, pair=pair, log_x=log, t=t)


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
    assert sin.y[0] == pytest.approx(1.0)
    assert tuple(fig.layout.yaxis.range) == fd.Y_RANGE
    assert fig.layout.xaxis.type == "linear"
    assert "base=1e4" in bound.name and "decay.fig.bound" in bound.name


def test_sinusoidal_equals_ones_curve_when_widths_match():
    _, fig = _main(d=128, bases=(10000,), sin=128)
    np.testing.assert_allclose(fig.data[2].y, fig.data[1].y, atol=1e-6)


def test_show_ones_off_and_log_axis():
    r = decay.distance_grid(65536, points=1025, log=True)
    series = [(10000, decay.roformer_decay_bound_at(64, r).numpy(), decay.ones_score_curve(64, r).numpy())]
    fig = fd.decay_figure(r.numpy(), 64, series, show_ones=False, log_x=True, t=t)
    assert len(fig.data) == 1
    assert fig.layout.xaxis.type == "log"
    assert fig.layout.xaxis.range[1] == pytest.approx(np.log10(65536))


def test_random_figure_band_and_traces():
    r, fig = _random(rho=0.0)
    assert len(fig.data) == 2 * 5                       # band hi, band lo (fill), mean, expected, example
    hi, lo, mean = fig.data[0], fig.data[1], fig.data[2]
    assert lo.fill == "tonexty" and hi.showlegend is False
    assert np.all(np.asarray(hi.y) >= np.asarray(lo.y))
    assert np.abs(np.asarray(fig.data[3].y)).max() == 0.0   # expectation 0 for independent content
    assert "decay.fig.random.title|rho=0" == fig.layout.title.text


def test_random_figure_without_example():
    r = decay.distance_grid(100)
    band = decay.random_score_band(16, r, n_samples=4)
    fig = fd.random_figure(r.numpy(), [(100, band.mean, band.std, band.example, None)], correlation=1.0,
                           show_example=False, t=t)
    assert len(fig.data) == 3
    assert fig.data[2].mode == "lines+markers"           # 101 integer distances: markers shown


def test_pair_figure_marks_seed_example():
    r, fig = _pair(d=2, R=16, bases=(10000,), pair=0)
    line, mark = fig.data
    np.testing.assert_allclose(line.y, np.cos(np.arange(17)), atol=1e-6)
    assert list(mark.x) == [3] and mark.y[0] == pytest.approx(np.cos(3.0), abs=1e-6)
    assert "v=-0.9900" in mark.name


def test_pair_figure_without_r3():
    _, fig = _pair(R=131072, bases=(10000,), points=50)  # linear grid of 50 does not hit r = 3
    assert len(fig.data) == 1


def test_payload_default_and_max():
    _, f1 = _main()
    _, f2 = _random()
    _, f3 = _pair()
    for f in (f1, f2, f3):
        assert len(f.to_json()) < 300_000
    for log in (False, True):
        _, g1 = _main(d=512, R=decay.MAX_DISTANCE, bases=BASES, heads=tuple(range(1, 9)), sin=1024, log=log)
        _, g2 = _random(d=512, R=decay.MAX_DISTANCE, bases=BASES, n=16, log=log)
        _, g3 = _pair(d=512, R=decay.MAX_DISTANCE, bases=BASES, pair=255, log=log)
        for g in (g1, g2, g3):
            assert len(g.to_json()) < 2_000_000
            assert all(len(tr.x) <= 1025 for tr in g.data)
