"""Figures of the extrapolation page: trace types, shapes, log axes, labels taken from the labels dict,
payload size; one panel each."""
import json

import plotly.graph_objects as go
import plotly.io as pio
import pytest

from posviz.figures import extrapolation as fx
from posviz.figures import style
from posviz.pe import models as gallery
from posviz.pe import scaling
from posviz.views import extrapolation as view
from posviz.views import models as mview


class Labels(dict):
    """Every label its own key, so a test can see which label went where."""

    def __missing__(self, key):
        return key

    def get(self, key, default=None):
        return self[key]


L = Labels()


def analysis(key="llama31_8b", method="model", l_train=None, l_target=None):
    e = mview.entry(key)
    d, params = view.spectrum_inputs(e)
    return e, view.analysis(d, params, l_train or e["l_train"], l_target or e["l_target"], method)


def test_ratio_figure_bands():
    _, v = analysis()
    fig = fx.ratio_figure(v["ratio"], v["bands"], v["factor"], labels=L)
    assert [tr.type for tr in fig.data] == ["bar"] * 3
    assert [len(tr.x) for tr in fig.data] == [29, 6, 29] == v["band_counts"]     # kept / smoothed / divided by 8
    assert fig.data[0].marker.color == fx.BAND_COLORS[0]
    assert max(fig.data[2].y) == pytest.approx(1 / 8, rel=1e-5)
    assert min(fig.data[0].y) == pytest.approx(1.0)
    assert fig.data[0].name == "band0" and fig.layout.title.text == "title"
    assert "one_over" in [a.text for a in fig.layout.annotations]


def test_wavelength_figure():
    _, v = analysis("llama2_7b", "linear", 4096, 16384)
    fig = fx.wavelength_figure(v["wavelengths"], 4096, 16384, labels=L, scaled=v["wavelengths_selected"])
    assert [tr.type for tr in fig.data] == ["scatter"] * 3
    assert len(fig.data[0].x) + len(fig.data[1].x) == 64 and len(fig.data[1].x) == 18
    assert fig.layout.yaxis.type == "log"
    assert len(fig.layout.shapes) == 2                            # L_train and L_target


def test_phase_figure_marks_never_seen():
    _, v = analysis("llama2_7b", "default", 4096, 16384)
    fig = fx.phase_figure(v["seen"], v["needed"], v["never_seen"], labels=L)
    assert [tr.type for tr in fig.data] == ["bar", "scatter", "scatter"]
    assert len(fig.data[0].x) == 64 and len(fig.data[2].x) == 18
    assert max(fig.data[0].y) <= 1.0


def test_frequencies_figure_all_methods_and_sections():
    _, v = analysis("qwen25_7b_yarn", "model")
    curves = [(m, m, v["curves"][m][0]) for m in list(scaling.SCALING_METHODS) + ["model"]]
    fig = fx.frequencies_figure(curves, labels=L, yarn_range=v["yarn_range"], llama3_edges=v["llama3_edges"])
    assert len(fig.data) == 7 and all(tr.type == "scatter" for tr in fig.data)
    assert all(len(tr.y) == 64 for tr in fig.data)
    assert fig.layout.yaxis.type == "log"
    assert len(fig.layout.shapes) == 1 + len(v["llama3_edges"])   # YaRN ramp band + Llama 3 edges
    sections = [(a, b, f"axis{i}") for a, b, i in view.mrope_sections([16, 24, 24])]
    fig = fx.frequencies_figure(curves[:1], labels=L, sections=sections)
    assert len(fig.layout.shapes) == 3 and sections[-1][:2] == (40, 64)


def test_decay_figure_log_x_decimated_and_switch():
    _, v = analysis("llama2_7b", "default", 256, 1048576)
    curves = [(m, m, v["scores"][m]) for m in v["scores"]]
    fig = fx.decay_figure(v["distances"], curves, 256, 1048576, labels=L, switch=4096)
    assert fig.layout.xaxis.type == "log"
    assert all(len(tr.x) <= 4000 and min(tr.x) >= 1 for tr in fig.data)
    assert len(fig.layout.shapes) == 3 and "switch" in [a.text for a in fig.layout.annotations]
    assert len(fig.to_json()) < 300_000


def test_temperature_figure():
    p, tau = view.query_curve("temperature", json.dumps({"floor_scale": 8192, "attn_scale": 0.1}), 1048576)
    fig = fx.temperature_figure(p, tau, labels=L)
    assert fig.layout.xaxis.type == "log" and len(fig.data) == 1
    assert min(fig.data[0].y) == pytest.approx(1.0)


ROPE_KEYS = [k for k in gallery.KEYS if mview.entry(k)["main"]]   # a model without RoPE has no spectrum


@pytest.mark.parametrize("key", ROPE_KEYS)
def test_payloads_small(key):
    e, v = analysis(key)
    curves = [(m, m, v["curves"][m][0]) for m in v["curves"]]
    figs = [fx.ratio_figure(v["ratio"], v["bands"], v["factor"], labels=L),
            fx.wavelength_figure(v["wavelengths"], e["l_train"], e["l_target"], labels=L),
            fx.phase_figure(v["seen"], v["needed"], v["never_seen"], labels=L),
            fx.frequencies_figure(curves, labels=L, yarn_range=v["yarn_range"], llama3_edges=v["llama3_edges"]),
            fx.decay_figure(v["distances"], [(m, m, s) for m, s in v["scores"].items()], e["l_train"],
                            e["l_target"], labels=L)]
    sizes = [len(f.to_json()) for f in figs]
    assert max(sizes) < 300_000, sizes


def test_largest_head_dim_payload():
    v = view.analysis(256, view.custom_params(1e7), 256, 1048576, "ntk")
    curves = [(m, m, v["curves"][m][0]) for m in v["curves"]]
    assert len(fx.frequencies_figure(curves, labels=L).to_json()) < 2_000_000
    assert len(fx.decay_figure(v["distances"], [(m, m, s) for m, s in v["scores"].items()], 256, 1048576,
                               labels=L).to_json()) < 2_000_000


def validated_equals_built(fig):
    """plotly's validation raises on a wrong property and expands what plotly.js does not know: the
    validated figure must be exactly the one built."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


def _page_figures(key, method, l_train=None, l_target=None, labels=L):
    """Every figure the page draws for a gallery model and a focus method (and the layer types')."""
    e, v = analysis(key, method, l_train, l_target)
    lt, lg = l_train or e["l_train"], l_target or e["l_target"]
    curves = [(m, m, v["curves"][m][0]) for m in v["curves"]]
    sections = [(a, b, f"axis{i}") for a, b, i in view.mrope_sections(e["mrope_section"])]
    yield fx.ratio_figure(v["ratio"], v["bands"], v["factor"], labels=labels)
    yield fx.wavelength_figure(v["wavelengths"], lt, lg, labels=labels,
                               scaled=None if method == "default" else v["wavelengths_selected"])
    yield fx.phase_figure(v["seen"], v["needed"], v["never_seen"], labels=labels)
    yield fx.frequencies_figure(curves, labels=labels, yarn_range=v["yarn_range"], llama3_edges=v["llama3_edges"],
                                sections=sections)
    yield fx.decay_figure(v["distances"], [(m, m, s) for m, s in v["scores"].items()], lt, lg, labels=labels,
                          shown=("default", method, "model"))
    lc = view.layer_curves(view.curve_inputs(e), lg)
    yield fx.frequencies_figure([(k, k, inv) for k, inv, _ in lc["curves"]], labels=labels)
    yield fx.decay_figure(lc["distances"], [(k, k, s) for k, _, s in lc["curves"]], lt, lg, labels=labels,
                          switch=lc["switch"])
    if e["query_scaling"]:
        p, tau = view.query_curve(e["query_scaling"]["kind"], e["query_scaling"]["params_json"], lg)
        yield fx.temperature_figure(p, tau, labels=labels)


# One gallery model of each kind the figures draw differently: plain, linear, llama3, YaRN (+ mscale),
# LongRoPE (a switch of factors), multimodal sections, layer types, attention temperature + NoPE layers;
# and today's: a window on every layer, proportional RoPE, main / compress kinds, interleaved M-RoPE with
# linear-attention layers, per-layer softmax scales.
@pytest.mark.parametrize("key", ["llama2_7b", "deepseek_coder_6_7b", "llama31_8b", "deepseek_v3", "gpt_oss_20b",
                                 "phi35_mini", "qwen2_vl_7b", "gemma3_27b", "llama4_scout", "mistral_7b",
                                 "gemma4_31b", "deepseek_v4_flash", "qwen35_397b", "gemma3n_e4b"])
def test_every_figure_is_valid_plotly(key):
    """The builders skip plotly's validation for speed: validate what they build here, every kind, and
    in lecture mode."""
    for method, lengths in (("model", (None, None)), ("linear", (4096, 16384)), ("default", (8192, 8192))):
        for fig in _page_figures(key, method, *lengths):
            assert validated_equals_built(fig), (key, method, fig.layout.title.text)
            go.Figure(style.presentation(fig).to_dict())


def test_figures_without_optional_labels_are_valid_plotly():
    """No title, no axis titles, no names for the YaRN ramp or the switch: still exactly valid."""
    bare = {k: k for k in ("turns", "never_turns", "scaled", "l_train", "l_target", "seen", "needed_ok",
                           "needed_new", "band0", "band1", "band2", "one_over")}
    for fig in _page_figures("phi35_mini", "yarn", 4096, 131072, labels=bare):
        assert validated_equals_built(fig)
    v = view.analysis(256, view.custom_params(1e7), 256, 1048576, "ntk")
    for fig in (fx.frequencies_figure([(m, m, v["curves"][m][0]) for m in v["curves"]], labels=L),
                fx.decay_figure(v["distances"], [(m, m, s) for m, s in v["scores"].items()], 256, 1048576, labels=L)):
        assert validated_equals_built(fig)
