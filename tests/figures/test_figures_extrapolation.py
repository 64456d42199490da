"""Figures of the extrapolation page: trace types, shapes, log axes, payload size."""
import json

import pytest

from posviz.pe import models as presets
from posviz.pe import scaling
from posviz.figures import extrapolation as fx


def t(key, **fmt):
    return key + (json.dumps(fmt, sort_keys=True) if fmt else "")


def view(key="llama31_8b", method="model", l_train=None, l_target=None):
    p = presets.preset(key)
    return p, scaling.extrapolation_view(p["head_dim"], p["rope_parameters"], l_train or p["l_train"],
                                         l_target or p["l_target"], method)


def test_ratio_figure_bands():
    p, v = view()
    fig = fx.ratio_figure(v["ratio"], v["bands"], v["factor"], t=t, name=p["name"])
    assert [tr.type for tr in fig.data] == ["bar"] * 3
    assert [len(tr.x) for tr in fig.data] == [29, 6, 29]          # kept / smoothed / divided by 8
    assert fig.data[0].marker.color == fx.BAND_COLORS[0]
    assert max(fig.data[2].y) == pytest.approx(1 / 8, rel=1e-5)
    assert min(fig.data[0].y) == pytest.approx(1.0)
    assert "band0" in fig.data[0].name and "29" in fig.data[0].name


def test_wavelength_figure():
    _, v = view("llama2_7b", "linear", 4096, 16384)
    fig = fx.wavelength_figure(v["wavelengths"], 4096, 16384, t=t, scaled=v["wavelengths_selected"],
                               scaled_name="PI")
    assert [tr.type for tr in fig.data] == ["scatter"] * 3
    assert len(fig.data[0].x) + len(fig.data[1].x) == 64 and len(fig.data[1].x) == 18
    assert fig.layout.yaxis.type == "log"
    assert len(fig.layout.shapes) == 2                            # L_train and L_target


def test_phase_figure_marks_never_seen():
    _, v = view("llama2_7b", "default", 4096, 16384)
    fig = fx.phase_figure(v["seen"], v["needed"], v["never_seen"], t=t)
    assert [tr.type for tr in fig.data] == ["bar", "scatter", "scatter"]
    assert len(fig.data[0].x) == 64 and len(fig.data[2].x) == 18
    assert '"n": 18' in fig.layout.title.text
    assert max(fig.data[0].y) <= 1.0


def test_frequencies_figure_all_methods():
    _, v = view("qwen25_7b_yarn", "model")
    curves = [(m, m, v["curves"][m][0]) for m in list(scaling.METHODS) + ["model"]]
    fig = fx.frequencies_figure(curves, t=t, yarn_range=v["yarn_range"], llama3_edges=v["llama3_edges"])
    assert len(fig.data) == 7 and all(tr.type == "scatter" for tr in fig.data)
    assert all(len(tr.y) == 64 for tr in fig.data)
    assert fig.layout.yaxis.type == "log"
    assert len(fig.layout.shapes) == 1 + len(v["llama3_edges"])   # YaRN ramp band + Llama 3 edges


def test_decay_figure_log_x_and_decimated():
    _, v = view("llama2_7b", "default", 256, 1048576)
    curves = [(m, m, v["scores"][m]) for m in v["scores"]]
    fig = fx.decay_figure(v["distances"], curves, 256, 1048576, t=t)
    assert fig.layout.xaxis.type == "log"
    assert all(len(tr.x) <= 4000 and min(tr.x) >= 1 for tr in fig.data)
    assert len(fig.to_json()) < 300_000


@pytest.mark.parametrize("key", presets.KEYS)
def test_payloads_small(key):
    p, v = view(key)
    curves = [(m, m, v["curves"][m][0]) for m in v["curves"]]
    figs = [fx.ratio_figure(v["ratio"], v["bands"], v["factor"], t=t),
            fx.wavelength_figure(v["wavelengths"], p["l_train"], p["l_target"], t=t),
            fx.phase_figure(v["seen"], v["needed"], v["never_seen"], t=t),
            fx.frequencies_figure(curves, t=t, yarn_range=v["yarn_range"], llama3_edges=v["llama3_edges"]),
            fx.decay_figure(v["distances"], [(m, m, s) for m, s in v["scores"].items()], p["l_train"],
                            p["l_target"], t=t)]
    sizes = [len(f.to_json()) for f in figs]
    assert max(sizes) < 300_000, sizes


def test_largest_head_dim_payload():
    v = scaling.extrapolation_view(256, {"rope_type": "default", "rope_theta": 1e7}, 256, 1048576, "ntk")
    curves = [(m, m, v["curves"][m][0]) for m in v["curves"]]
    assert len(fx.frequencies_figure(curves, t=t).to_json()) < 2_000_000
    assert len(fx.decay_figure(v["distances"], [(m, m, s) for m, s in v["scores"].items()], 256, 1048576,
                               t=t).to_json()) < 2_000_000
