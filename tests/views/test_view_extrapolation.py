"""posviz.views.extrapolation: plain outputs, the compared factor s vs the model's own factor, layer
curves, M-RoPE sections, Llama 4's query temperature."""
import json
import math

import numpy as np
import pytest
import torch

from posviz import text
from posviz.pe import models as gallery
from posviz.pe import scaling
from posviz.scenes.extrapolation import SCENES
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


def test_query_temperature_llama4_and_beta():
    p, tau = view.query_curve("temperature", json.dumps({"floor_scale": 8192, "attn_scale": 0.1}), 10 ** 6)
    assert tau[p < 8191].max() == 1.0
    i = np.searchsorted(p, 8191)
    assert tau[i] == pytest.approx(1 + 0.1 * math.log(2))
    p, tau = view.query_curve("beta", json.dumps({"llama_4_scaling_beta": 0.1,
                                                  "original_max_position_embeddings": 16384}), 10 ** 6)
    assert tau[p < 16384].max() == 1.0
    assert tau[np.searchsorted(p, 16384 * 3)] == pytest.approx(1 + 0.1 * math.log(4))


def test_type_rows_and_custom():
    rows = view.type_rows(mview.entry("gemma3_27b"))
    assert {r["type"]: r["theta"] for r in rows} == {"sliding_attention": "10000", "full_attention": "1e+06"}
    assert json.loads(view.custom_params(5e5)) == {"rope_type": "default", "rope_theta": 500000.0}


@pytest.mark.parametrize("key", ["llama31_8b", "qwen25_7b_yarn", "phi35_mini", "gptj_6b", "deepseek_v3", "gemma3_27b"])
def test_batched_decay_scores_equal_ones_score_bit_for_bit(key):
    """The view computes each shared cosine column once for all methods (the fast path); every curve
    must be exactly scaling.ones_score of its own spectrum (the function the page shows)."""
    e = mview.entry(key)
    d, params = view.spectrum_inputs(e)
    for l_train, l_target in ((e["l_train"], e["l_target"]), (4096, 16384), (256, 1048576)):
        sp = view.spectra(d, params, l_train, l_target)
        assert set(sp["scores"]) == set(sp["curves"])
        for m, (inv, a) in sp["curves"].items():
            ref = scaling.ones_score(torch.from_numpy(inv), torch.from_numpy(sp["distances"]), a).numpy()
            assert ref.dtype == sp["scores"][m].dtype and np.array_equal(ref, sp["scores"][m]), (key, m)
        v = view.analysis(d, params, l_train, l_target, "ntk")
        assert all(np.array_equal(v["scores"][m], sp["scores"][m]) for m in sp["scores"])   # the focus changes none


def test_has_layer_curves_is_more_than_one_curve():
    """The page computes layer_curves only where it draws them: exactly when there is more than one."""
    for key in gallery.KEYS:
        e = mview.entry(key)
        assert view.has_layer_curves(e) == (len(view.layer_curves(view.curve_inputs(e), 65536)["curves"]) > 1), key


# ---------------------------------------------------------------- windows, proportional layers, M-RoPE axes
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_window_scene_numbers(lang):
    """The window scene: gpt-oss-20b's local layers, read off window_phases and the model."""
    sc = next(x for x in SCENES["extrapolation"] if x["title"] == "extrapolation.scene.window")
    s = text.get(lang, sc["say"])
    e = mview.entry(sc["values"]["ext_preset"])
    (w,) = view.window_phases(view.window_inputs(e))
    assert (w["layers"], len(e["strip"]), w["window"], w["turn"], w["pairs"]) == (12, 24, 128, 9, 32)
    assert f"{w['slowest']:.1e}" == "6.1e-06" and "6.1·10⁻⁶" in s
    assert e["strip"].count("global") == 12 and e["types"]["default"]["params"]["factor"] == 32
    for n in ("12", "24", "128", "127", "9", "32", f"{sc['values']['ext_ltarget']:,}", "×32"):
        assert n in s


def test_window_phases_by_hand():
    """Mistral 7B v0.1: window 4,096 on every layer; pair i completes a turn iff 2π·10000^(2i/128) <= 4095."""
    (w,) = view.window_phases(view.window_inputs(mview.entry("mistral_7b")))
    lam = 2 * np.pi * 10000 ** (np.arange(64) * 2 / 128)
    assert (w["layers"], w["window"], w["turn"]) == (32, 4096, int((lam <= 4095).sum()))
    assert w["slowest"] == pytest.approx(4095 / lam[-1], rel=1e-6)
    assert view.window_phases(view.window_inputs(mview.entry("llama2_7b"))) == []
    assert [r["window"] for r in view.type_rows(mview.entry("gpt_oss_20b"))] == ["— / 128"]
    # DeepSeek-V4's compressed layers see older tokens through their compressed cache: not bounded by the window
    assert [x["type"] for x in view.window_phases(view.window_inputs(mview.entry("deepseek_v4_flash")))] == \
        ["sliding_attention"]


def test_proportional_layer_is_ordinary_rope_over_its_turning_pairs():
    e = mview.entry("gemma4_31b")
    d, params = view.spectrum_inputs(e, "full_attention")
    p = json.loads(params)
    assert d == 128 and p["rope_type"] == "default" and p["rope_theta"] == pytest.approx(1e6 ** 0.25)
    ours = scaling.rope_frequencies(d, p)[0].double()
    exact = torch.as_tensor(e["types"]["full_attention"]["inv_freq"][:64]).double()
    torch.testing.assert_close(ours, exact, rtol=2e-6, atol=0)          # the same 64 frequencies (float32 rounding)
    assert view.proportional_equivalent(e, "full_attention")[:2] == (64, 128)
    assert view.proportional_equivalent(e, "sliding_attention") is None


def test_mrope_axes_text():
    assert view.mrope_axis_pairs(mview.entry("qwen3_vl_8b")["mrope_axes"]) == [
        "0, 3, …, 60; 61–63", "1, 4, …, 58", "2, 5, …, 59"]
    assert view.mrope_axis_pairs(mview.entry("qwen2_vl_7b")["mrope_axes"]) == ["0–15", "16–39", "40–63"]
    assert view.mrope_sections([24, 20, 20], "interleaved") == []
    assert view.mrope_sections([16, 24, 24], "blocks") == [(0, 16, 0), (16, 40, 1), (40, 64, 2)]
    assert view.mrope_half_rows([(0, 2)] * 32 + [(1, 3)] * 32) == [("0–31", 0, 2), ("32–63", 1, 3)]
