"""posviz.pe.models: the published RoPE settings of real models, each with its source."""
import math

import pytest

from posviz import text
from posviz.pe import models as presets
from posviz.pe import scaling
from posviz.figures import extrapolation as fx

EXPECTED = {   # (head_dim, rope_parameters, L_train) as published in each config.json
    "llama2_7b": (128, {"rope_type": "default", "rope_theta": 10000.0}, 4096),
    "mistral_7b": (128, {"rope_type": "default", "rope_theta": 10000.0}, 32768),
    "llama31_8b": (128, {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
                         "original_max_position_embeddings": 8192, "low_freq_factor": 1.0,
                         "high_freq_factor": 4.0}, 8192),
    "qwen25_7b": (128, {"rope_type": "default", "rope_theta": 1000000.0}, 32768),
    "qwen25_7b_yarn": (128, {"rope_type": "yarn", "rope_theta": 1000000.0, "factor": 4.0,
                             "original_max_position_embeddings": 32768, "beta_fast": 32.0, "beta_slow": 1.0,
                             "truncate": True}, 32768),
    "deepseek_v3": (64, {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 40.0,
                         "original_max_position_embeddings": 4096, "beta_fast": 32.0, "beta_slow": 1.0,
                         "mscale": 1.0, "mscale_all_dim": 1.0, "truncate": True}, 4096),
}


def test_every_brief_model_is_there():
    assert set(EXPECTED) == set(presets.KEYS)


@pytest.mark.parametrize("key", presets.KEYS)
def test_preset_numbers_and_source(key):
    p = presets.preset(key)
    d, params, l_train = EXPECTED[key]
    assert (p["head_dim"], p["rope_parameters"], p["l_train"]) == (d, params, l_train)
    assert p["source"].startswith("https://huggingface.co/" + p["repo"])
    assert "config.json" in p["source"] or "model card" in p["source"]
    assert p["l_train"] in presets.LENGTHS and p["l_target"] in presets.LENGTHS
    assert p["l_target"] > p["l_train"]
    for lang in text.LANGS:                          # what was checked is stated in both languages
        assert text.get(lang, f"extrapolation.checked.{key}") != f"extrapolation.checked.{key}"
        assert text.get(lang, f"w.ext_preset.{key}") == p["name"]


@pytest.mark.parametrize("key", presets.KEYS)
def test_preset_loads_and_renders(key):
    p = presets.preset(key)
    inv, a = scaling.rope_frequencies(p["head_dim"], p["rope_parameters"])
    assert inv.shape == (p["head_dim"] // 2,) and a > 0
    for method in ("model",) + scaling.METHODS:
        v = scaling.extrapolation_view(p["head_dim"], p["rope_parameters"], p["l_train"], p["l_target"], method)
        fig = fx.ratio_figure(v["ratio"], v["bands"], v["factor"], t=lambda k, **f: k, name=p["name"])
        assert len(fig.to_json()) < 300_000


def test_published_attention_factors():
    """Qwen2.5 YaRN x4: 0.1 ln 4 + 1; DeepSeek-V3: mscale / mscale_all_dim = 1."""
    q = presets.preset("qwen25_7b_yarn")
    assert scaling.rope_frequencies(128, q["rope_parameters"])[1] == pytest.approx(0.1 * math.log(4) + 1)
    ds = presets.preset("deepseek_v3")
    assert scaling.rope_frequencies(64, ds["rope_parameters"])[1] == 1.0


def test_llama31_bands():
    """Llama 3.1 8B: 29 pairs kept (λ < 2048), 6 smoothed, 29 divided by 8 (λ > 8192)."""
    p = presets.preset("llama31_8b")
    bands = scaling.llama3_bands(128, p["rope_parameters"])
    assert [int((bands == b).sum()) for b in (0, 1, 2)] == [29, 6, 29]


def test_preset_returns_copies_and_validates():
    a = presets.preset("llama31_8b")
    a["rope_parameters"]["factor"] = 99
    a["config"]["rope_theta"] = 1
    assert presets.preset("llama31_8b")["rope_parameters"]["factor"] == 8.0
    assert presets.PRESETS["llama31_8b"]["config"]["rope_theta"] == 500000.0
    with pytest.raises(ValueError, match="preset"):
        presets.preset("gpt4")
    with pytest.raises(ValueError, match="preset"):
        presets.preset_json("gpt4")
