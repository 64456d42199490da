"""posviz.views.extrapolation: plain outputs, the compared factor s vs the model's own factor, layer
curves, M-RoPE sections, Llama 4's query temperature."""
import json
import math

import numpy as np
import pytest

from posviz.views import extrapolation as view
from posviz.views import models as mview


def test_analysis_is_plain_and_names_its_factors():
    e = mview.entry("llama31_8b")
    d, params = view.spectrum_inputs(e)
    v = view.analysis(d, params, 8192, 131072, "model")
    assert isinstance(v["ratio"], np.ndarray) and isinstance(v["curves"]["model"][0], np.ndarray)
    assert v["s"] == 16.0 and v["factor"] == 8.0          # s = L_target / L_train; factor = the model's own
    v = view.analysis(d, params, 8192, 131072, "linear")
    assert v["factor"] == v["s"] == 16.0
    assert v["band_counts"] == [0, 0, 64]


def test_layer_curves_gemma3_and_longrope_switch():
    g = mview.entry("gemma3_27b")
    lc = view.layer_curves(view.curve_inputs(g), 131072)
    assert [c[0] for c in lc["curves"]] == ["sliding_attention", "full_attention"] and lc["switch"] is None
    phi = mview.entry("phi35_mini")
    lc = view.layer_curves(view.curve_inputs(phi), 131072)
    assert [c[0] for c in lc["curves"]] == ["default:short", "default:long"] and lc["switch"] == 4096
    assert lc["curves"][0][2][0] == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)) ** 2)


def test_spectrum_inputs_drop_partial_and_mrope_keys():
    d, params = view.spectrum_inputs(mview.entry("gpt_neox_20b"))
    assert d == 24 and "partial_rotary_factor" not in json.loads(params)
    d, params = view.spectrum_inputs(mview.entry("qwen2_vl_7b"))
    assert "mrope_section" not in json.loads(params)
    assert view.mrope_sections([16, 24, 24]) == [(0, 16, 0), (16, 40, 1), (40, 64, 2)]


def test_query_temperature_llama4():
    p, tau = view.query_temperature(8192, 0.1, 10 ** 6)
    assert tau[p < 8191].max() == 1.0
    i = np.searchsorted(p, 8191)
    assert tau[i] == pytest.approx(1 + 0.1 * math.log(2))


def test_type_rows_and_custom():
    rows = view.type_rows(mview.entry("gemma3_27b"))
    assert {r["type"]: r["theta"] for r in rows} == {"sliding_attention": "10000", "full_attention": "1e+06"}
    assert json.loads(view.custom_params(5e5)) == {"rope_type": "default", "rope_theta": 500000.0}
