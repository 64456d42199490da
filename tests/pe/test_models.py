"""posviz.pe.models: the gallery of real models as data files, each with its source and release date;
the extrapolation page's presets are these same entries."""
import json
import math
import re

import pytest

from posviz import text
from posviz.pe import models as gallery
from posviz.pe import scaling

EXPECTED = {   # (rotary dims, main rope_parameters, L_train) as published in each config.json
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


def test_gallery_has_at_least_25_models_and_the_old_presets():
    assert len(gallery.KEYS) >= 25
    assert set(EXPECTED) <= set(gallery.KEYS)


@pytest.mark.parametrize("key", list(EXPECTED))
def test_old_presets_read_the_same(key):
    m = gallery.model(key)
    d, params, l_train = EXPECTED[key]
    main = m["rope"].rope["default"]
    assert (main.rotary_dim, main.rope_parameters, m["l_train"]) == (d, params, l_train)


@pytest.mark.parametrize("key", gallery.KEYS)
def test_entry_fields_source_and_date(key):
    e = gallery.GALLERY[key]
    assert re.fullmatch(r"[A-Za-z0-9-]+/[A-Za-z0-9._-]+", e["repo"])
    assert e["source"].startswith("https://huggingface.co/" + e["repo"])
    assert "config.json" in e["source"] or "model card" in e["source"]
    assert re.fullmatch(r"20[12]\d-\d\d-\d\d", e["released"])
    assert e["check"] in ("copy", "known") and "model_type" in e["config"]
    for lang in text.LANGS:                          # names and the check note in both languages
        assert text.get(lang, f"w.ext_preset.{key}") == e["name"] == text.get(lang, f"w.models_pick.{key}")
        assert text.get(lang, f"extrapolation.check.{e['check']}") != f"extrapolation.check.{e['check']}"


@pytest.mark.parametrize("key", gallery.KEYS)
def test_entry_reads_and_its_lengths_are_offered(key):
    m = gallery.model(key)
    r = m["rope"]
    assert m["l_train"] in gallery.LENGTHS and m["l_target"] in gallery.LENGTHS and m["l_target"] > m["l_train"]
    for lr in r.rope.values():
        inv, a = lr.frequencies()
        assert inv.shape == (lr.rotary_dim // 2,) and a > 0
    assert r.rotary_dim <= r.head_dim and r.trained_length <= r.max_length
    assert json.loads(gallery.config_json(key)) == gallery.GALLERY[key]["config"]


def test_published_attention_factors():
    """Qwen2.5 YaRN x4: 0.1 ln 4 + 1; DeepSeek-V3: mscale / mscale_all_dim = 1 (the temperature is in
    the softmax scale instead); Phi-3.5: sqrt(1 + ln 32 / ln 4096)."""
    q = gallery.model("qwen25_7b_yarn")["rope"].rope["default"]
    assert q.frequencies()[1] == pytest.approx(0.1 * math.log(4) + 1)
    ds = gallery.model("deepseek_v3")["rope"]
    assert ds.rope["default"].frequencies()[1] == 1.0
    assert ds.softmax_scale == pytest.approx((0.1 * math.log(40) + 1) ** 2)
    phi = gallery.model("phi35_mini")["rope"].rope["default"]
    assert phi.frequencies()[1] == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))


def test_llama31_bands():
    """Llama 3.1 8B: 29 pairs kept (λ < 2048), 6 smoothed, 29 divided by 8 (λ > 8192) -- the
    numbers the extrapolation page's ratio text states."""
    p = gallery.model("llama31_8b")["rope"].rope["default"].rope_parameters
    bands = scaling.llama3_bands(128, p)
    assert [int((bands == b).sum()) for b in (0, 1, 2)] == [29, 6, 29]


def test_model_returns_copies_and_validates():
    a = gallery.model("llama31_8b")
    a["config"]["rope_theta"] = 1
    assert gallery.GALLERY["llama31_8b"]["config"]["rope_theta"] == 500000.0
    with pytest.raises(ValueError, match="model"):
        gallery.model("gpt4")
    with pytest.raises(ValueError, match="model"):
        gallery.config_json("gpt4")


def test_gallery_has_at_least_48_models_with_todays():
    """Issue 23: Gemma 4 (31B, E2B), Gemma 3n, DeepSeek-V3.2 and V4, Qwen3.5, Qwen3-VL, SmolLM3, Kimi K2.5 and
    Kimi Linear, Command R7B, Llama 4 Maverick -- each with its source and release date, and a note saying where
    a value is a class default or recalled."""
    assert len(gallery.KEYS) >= 48
    today = ("gemma4_31b", "gemma4_e2b", "gemma3n_e4b", "deepseek_v32", "deepseek_v4_flash", "qwen35_397b",
             "qwen3_vl_8b", "smollm3_3b", "kimi_k25", "kimi_linear", "command_r7b", "llama4_maverick")
    assert set(today) <= set(gallery.KEYS)
    for key in today:
        assert gallery.GALLERY[key]["note"] and gallery.GALLERY[key]["released"] >= "2024-12-01"


def test_own_lengths_snap_to_the_offered_ones():
    m = gallery.model("qwen25_7b_yarn")["rope"]
    assert gallery.own_lengths(m) == (32768, 131072)
    odd = type(m)(model_type=None, head_dim=64, rotary_dim=64, trained_length=5000, layer_rope=[], rope={},
                  max_length=None)
    assert gallery.own_lengths(odd) == (4096, 16384)        # 5000 -> nearest offered 4096; 4 x 5000 -> 16384
