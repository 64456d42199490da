"""Issue 32's published configs outside the gallery, each read as its model's code does -- before, posviz read each
of them wrong where the model's code, not its rope dict, decides. The files (tests/pe/data/published_configs.json)
hold the fields that matter, as published (Falcon-H1's, Bamba's and Granite 4.0-H's Infinity included)."""
import json
import math
import pathlib

import pytest
import torch

from posviz.pe import model_probe
from posviz.pe.rope import mrope_axes
from posviz.pe.rope_config import read_model_rope
from posviz.pe.scaling import ntk_alpha_base, query_scale, rope_frequencies

CONFIGS = json.loads((pathlib.Path(__file__).parent / "data" / "published_configs.json").read_text(encoding="utf-8"))


def read(name):
    m = read_model_rope(json.dumps(CONFIGS[name]))   # as a user pastes it: text, Infinity and all
    assert m.verified, m.unverified
    return m


def test_hunyuan_alpha_is_a_fixed_ntk_base():
    """rope_scaling {"type": "dynamic", "alpha": 1000, "factor": 1}: transformers runs NTK-alpha, a fixed base
    1e4 · 1000^(128/126) ≈ 1.116e7; the slowest pair turns at 1.155e-7 per position (dynamic NTK: 1.155e-4)."""
    m = read("hunyuan_7b")
    lr = m.rope["default"]
    assert lr.rope_parameters["rope_type"] == "ntk_alpha" and lr.rope_parameters["alpha"] == 1000.0
    inv, a = lr.frequencies()
    assert ntk_alpha_base(1e4, 1000, 128) == pytest.approx(1.116e7, rel=1e-3)
    assert inv[-1].item() == pytest.approx(1.155e-7, rel=1e-3) and a == 1.0
    plain = rope_frequencies(128, {"rope_type": "dynamic", "rope_theta": 1e4, "factor": 1.0,
                                   "original_max_position_embeddings": 262144})[0]
    assert plain[-1].item() == pytest.approx(1.155e-4, rel=1e-3)            # what posviz drew before: 1000x off
    assert ("ntk_alpha", "1000") in m.notes and "alpha" not in m.ignored


def test_exaone4_global_layers_have_no_rope():
    """sliding_window 4096 with sliding_window_pattern 4: transformers rotates only the 48 sliding layers; the 16
    global layers (every fourth) attend without RoPE."""
    m = read("exaone4_32b")
    assert [i for i, r in enumerate(m.layer_rope) if r == "nope"] == list(range(3, 64, 4))
    assert {m.windows[i] for i in range(64) if i % 4 != 3} == {4096} and m.windows[3] is None
    assert ("nope", 16) in m.notes


def test_granite_4_h_has_no_rope_and_its_attention_multiplier():
    """position_embedding_type "nope" with a rope_theta still in the file: no layer rotates; its softmax scale is
    the attention_multiplier 0.125 (×0.125·√128 on 1/√128), read off the model, not a hand-kept list."""
    m = read("granite_4_h")
    assert m.rope == {} and m.no_rope == "linear"
    assert m.layer_attention == [False, False, False, True] * 2
    assert m.softmax_scale == pytest.approx(0.125 * math.sqrt(128), rel=1e-12)


def test_ernie45_vl_rows_alternate_h_w_then_t_with_interleaved_pairs():
    """mrope_section [22, 22, 20]: pairs 0-43 alternate height and width, 44-63 follow time; pairs (2i, 2i+1)."""
    m = read("ernie45_vl")
    assert (m.layout, m.mrope_scheme) == ("interleaved", "hw_t")
    assert m.mrope_axes[:4] == (1, 2, 1, 2) and set(m.mrope_axes[44:]) == {0}
    assert list(m.mrope_axes) == mrope_axes([22, 22, 20], "hw_t")[:, 0].tolist()


def test_glm41v_text_model_pairs_interleaved():
    """GLM-4.1V's text attention uses rotate_half_llm (x[..., 0::2] with x[..., 1::2]): interleaved, on the first 64
    of 128 dims, M-RoPE in blocks 8/12/12."""
    m = read("glm41v")
    assert (m.layout, m.placement, m.rotary_dim, m.head_dim) == ("interleaved", "leading", 64, 128)
    assert m.mrope_scheme == "blocks" and m.mrope_section == [8, 12, 12]


def test_ministral3_scales_its_queries_with_position():
    """llama_4_scaling_beta 0.1 with original_max_position_embeddings 16384: every layer's queries are multiplied by
    1 + 0.1·ln(1 + ⌊p / 16384⌋), measured on the model."""
    m = read("ministral3_8b")
    q = m.query_scaling
    assert q["kind"] == "beta" and q["layers"] == "all" and q["measured"]
    assert q["params"] == {"llama_4_scaling_beta": 0.1, "original_max_position_embeddings": 16384}
    assert query_scale([16383, 16384, 3 * 16384], "beta", q["params"]).tolist() == pytest.approx(
        [1.0, 1 + 0.1 * math.log(2), 1 + 0.1 * math.log(4)])


def test_qwen3_omni_theta_is_the_files_own():
    """The rope sits under thinker_config.text_config: the base 1e6 is the file's, not the class default; M-RoPE
    interleaved 24/20/20."""
    m = read("qwen3_omni")
    assert m.rope["default"].rope_parameters["rope_theta"] == 1e6
    assert not any(code == "theta_class_default" for code, _ in m.notes)
    assert m.mrope_scheme == "interleaved"


@pytest.mark.parametrize("name", ["falcon_h1", "bamba_9b", "granite_4_h"])
def test_infinity_in_a_field_posviz_does_not_read(name):
    """time_step_limit [0.0, Infinity] (their state-space layers'): the file is read, not refused."""
    assert "Infinity" in json.dumps(CONFIGS[name])
    read(name)


def test_bamba_rotates_half_of_its_three_attention_layers():
    m = read("bamba_9b")
    assert [i for i, a in enumerate(m.layer_attention) if a] == [9, 18, 27]
    assert [m.layer_rope[i] for i in (9, 18, 27)] == ["default"] * 3 and m.rotary_dim == 64


def test_hunyuan_ocr_xd_rope_pairs_follow_two_rows():
    """XD-RoPE (xdrope_section [16, 16, 16, 16]): the duplicated frequencies split in 32-dim blocks, block r on
    position row r, so pairs 0-31 turn their first half with row 0 and their second with row 2, pairs 32-63 rows
    1 and 3 -- read off the model's rotary module, and posviz's formula gives the same rows."""
    m = read("hunyuan_ocr")
    assert m.mrope_scheme == "halves" and m.mrope_section == [16, 16, 16, 16]
    assert m.mrope_rows[:32] == ((0, 2),) * 32 and m.mrope_rows[32:] == ((1, 3),) * 32
    assert m.rope["default"].rope_parameters["rope_type"] == "ntk_alpha"


def test_what_the_model_is_held_to_is_a_measurement():
    """The probe sees HunYuan's slowest pair turn at the NTK-alpha frequency (not the dynamic one)."""
    hf = model_probe.transformers_module()
    cfg = dict(CONFIGS["hunyuan_7b"])
    tc = hf.AutoConfig.for_model(cfg.pop("model_type"), **cfg)
    found = model_probe.probe_cached(tc)
    turn = found.layers[0].calls[0].query
    want = float(rope_frequencies(128, {"rope_type": "ntk_alpha", "rope_theta": 1e4, "alpha": 1000.0})[0][-1])
    assert turn.theta[-1] == pytest.approx(want, rel=1e-3)
    assert torch.isfinite(torch.tensor(turn.theta)).all()
