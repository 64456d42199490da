"""Every language-model type of transformers 5.24, read by posviz and held to the model with real random weights.

The fixture (tests/pe/data/model_types.json.gz, written by `python -m harness.hf_configs --write`) holds one small
config per model type with position settings drawn away from the class defaults: the RoPE base, a scaling type
its code accepts, the partial factor, the window, the layer pattern, the length; and beside each, its reference:
what the same model does with real random weights, every block running (posviz.pe.model_probe, weights="random"),
and the inverse frequencies its text rotary modules hold. posviz's reading (its formulas, held at read time to the
model built with stand-in weights, run here) is compared layer by layer with the reference: which layers have
attention and which rotate, the frequencies (against the rotary modules' own buffers to 1e-6, and against the
measured angles), the pairing, the multimodal rows, the softmax scale, the query scaling.
"""
import copy
import math

import numpy as np
import pytest
import torch

from harness import hf_configs
from posviz.pe import _probe_fit, model_probe
from posviz.pe.rope import mrope_axes
from posviz.pe.rope_config import read_model_rope
from posviz.pe.scaling import query_scale

FIXTURE = hf_configs.read()
CONFIGS = FIXTURE["configs"]
# The types whose code posviz does not follow: what the reader says of them (the codes of ModelRope.unverified, shown
# in words on the page) and why. Each is drawn as unverified, never as plain RoPE.
UNSEEN = ({"attention_unseen"}, "its attention computes q·k in its own code (no attention function transformers "
                                  "dispatches), or its layers are not where the probe finds a model's layers: neither "
                                  "posviz nor the reference sees which layers rotate")
UNFOLLOWED = {
    **{t: UNSEEN for t in ("big_bird", "bigbird_pegasus", "bloom", "cpmant", "gpt_neox_japanese", "megatron-bert",
                           "mvp", "openai-gpt", "rembert", "roformer", "trocr", "xglm", "xlm", "xlnet")},
    "ctrl": ({"unknown_layers"}, "sinusoidal positions added inside its own attention block: q and k move, not by a "
                                 "rotation"),
    "recurrent_gemma": ({"unknown_layers"}, "its attention layers' q and k move, not by a rotation posviz fits"),
    "granite_swa": ({"unknown_layers"}, "LongRoPE with a base per layer (layer_rope_theta): the model's slowest pair "
                                        "turns about twice as fast as posviz's formula"),
    "granitemoe_swa": ({"unknown_layers"}, "as granite_swa"),
    "mistral_large4_text": ({"query_scaling"}, "a query scaling on the indexed layers posviz does not reproduce"),
    "qwen2_vl_text": ({"mrope_rows"}, "dynamic NTK beside M-RoPE sections: the measured position rows are empty"),
}


def pairing(pairs):
    """("half" | "interleaved", first dim) of measured pairs, else None."""
    gaps = {j - i for i, j in pairs}
    if len(gaps) != 1:
        return None
    return ("interleaved" if gaps == {1} else "half"), pairs[0][0]


def test_the_fixture_covers_every_language_model_type():
    assert FIXTURE["transformers"] == model_probe.transformers_module().__version__
    assert set(CONFIGS) | set(FIXTURE["left_out"]) == set(hf_configs.model_types())
    assert len(CONFIGS) >= 175, len(CONFIGS)
    rotating = [t for t, d in CONFIGS.items() if d.get("rope_parameters")]
    drawn = [t for t in rotating if any(isinstance(rp, dict) and rp.get("rope_type", "default") != "default"
                                        for rp in hf_configs._rope_dicts(CONFIGS[t]))]
    assert len(drawn) >= len(rotating) // 3          # scaling types drawn, not only the defaults


@pytest.mark.parametrize("model_type", sorted(CONFIGS))
def test_reading_equals_the_model_with_real_weights(model_type):
    """A reading posviz calls verified equals the reference layer by layer; one it cannot follow says so in words
    (unverified), only for the types listed in UNFOLLOWED, and then draws no layer the reference does not rotate
    as RoPE."""
    d = copy.deepcopy(CONFIGS[model_type])
    m = read_model_rope(d)
    ref = model_probe.from_dict(FIXTURE["reference"][model_type]["probe"])
    assert not ref.error, ref.error
    if not m.verified:
        assert model_type in UNFOLLOWED, m.unverified
        assert {code for code, _ in m.unverified} <= UNFOLLOWED[model_type][0], m.unverified
        for i, lp in enumerate(ref.layers[:len(m.layer_rope)]):
            if m.layer_rope[i] in m.rope and m.layer_rope[i] != "unknown":
                assert lp.attention and lp.calls[0].query.rotates, i
        return
    assert model_type not in UNFOLLOWED, "followed now: drop it from UNFOLLOWED"
    buffers = [np.array(b) for b in FIXTURE["reference"][model_type]["inv_freq"].values()]
    for key, lr in m.rope.items():                     # posviz's frequencies are a rotary module's, to 1e-6
        ours = np.sort(lr.frequencies()[0].double().numpy())
        assert not buffers or any(b.shape == ours.shape and np.allclose(b, ours, rtol=1e-6, atol=0)
                                  for b in buffers), key   # GPT-J computes its sinusoids inline: no buffer
    for i, lp in enumerate(ref.layers[:len(m.layer_rope)]):
        check_layer(m, i, lp, ref)


def check_layer(m, i, lp, ref):
    assert m.layer_attention[i] == lp.attention, i
    if not lp.attention:
        return
    call = lp.calls[0]
    q = call.query
    if q.problem and ref.input_turns:   # positions added to the input: q moves because the layer's input does
        assert m.layer_rope[i] == "nope" and m.no_rope == "absolute", i
        return
    assert not q.problem, (i, q.problem)
    if not q.rotates:
        assert m.layer_rope[i] == "nope", i
        check_gains(m, i, q)
        return
    lr = m.rope[m.layer_rope[i]]
    measured = pairing(q.weight_pairs or q.pairs)
    assert measured is not None and measured[0] == m.layout, (i, q.pairs[:4])
    start = measured[1]
    index = [i_ - start for i_, _ in (q.weight_pairs or q.pairs)] if measured[0] == "half" else \
        [(i_ - start) // 2 for i_, _ in (q.weight_pairs or q.pairs)]
    inv = lr.frequencies()[0].double().numpy()[index]                              # [k]
    sign = -1.0 if ("reversed", "") in m.notes else 1.0     # a model that turns every pair by −θ (said in words)
    theta = sign * np.asarray(q.theta)
    p_max = max(ref.positions)
    assert np.all(np.abs(theta - inv) <= 1e-4 * inv + 1e-3 / p_max), i
    if call.scaling is not None:
        assert call.scaling == pytest.approx(lr.softmax_scale / math.sqrt(lr.attn_dim), rel=1e-9), i
    if q.axes:
        rows = mrope_axes(m.mrope_section, m.mrope_scheme, pairs=len(q.axes)).tolist()
        assert all(got in (want, -1) for pr, pw in zip(q.axes, rows) for got, want in zip(pr, pw)), i
    check_gains(m, i, q)


def scaled_layers(m):
    """The layers posviz's query scaling applies to ("all" attention layers, the "nope" ones, or ranges "0–3, 7")."""
    where = m.query_scaling["layers"]
    if where == "all":
        return {i for i, a in enumerate(m.layer_attention) if a}
    if where == "nope":
        return {i for i, (a, r) in enumerate(zip(m.layer_attention, m.layer_rope)) if a and r == "nope"}
    out = set()
    for part in where.split(", "):
        lo, _, hi = part.partition("–")
        out |= set(range(int(lo), int(hi or lo) + 1))
    return out


def check_gains(m, i, q):
    """The query's gain per position is posviz's query scaling where it applies, 1 elsewhere."""
    gains = [*q.gain, *q.gain_long]
    if m.query_scaling and m.query_scaling.get("measured") and i in scaled_layers(m):
        p = np.array([x for x, _ in gains], dtype=np.float64)
        kind, params = m.query_scaling["kind"], m.query_scaling["params"]
        want = query_scale(p, kind, params) / query_scale([0], kind, params)   # measured against position 0
        assert np.allclose([g for _, g in gains], want, rtol=1e-4), i
    elif not m.query_scaling or i not in scaled_layers(m):
        assert all(abs(g - 1) < 1e-4 for _, g in gains), i


def test_left_out_types_say_why():
    """The types the fixture holds no small config of: transformers cannot build their language model from text
    alone (encoder-decoders, audio-conditioned decoders) or at all from its class defaults."""
    for t, why in FIXTURE["left_out"].items():
        assert why and isinstance(why, str), t


def test_probe_measures_a_known_rotation():
    """The fits on a rotation of known pairs and angles (interleaved, base 500, rotary 8 of 12 dims trailing)."""
    torch.manual_seed(0)
    x = torch.randn(3, 4, 1, 12).double()                                              # [N,H,1,d] samples
    pos = [0, 0, 1, 2, 8, 64, 300]
    theta = 500.0 ** (-torch.arange(0, 8, 2).double() / 8)                             # [4]
    ang = torch.tensor(pos).double()[:, None] * theta                                  # [L,4]
    y = x.expand(-1, -1, len(pos), -1).clone()                                         # [N,H,L,d]
    for k in range(4):
        a, b = 4 + 2 * k, 5 + 2 * k
        c, s = torch.cos(ang[:, k]), torch.sin(ang[:, k])                              # [L]
        y[..., a] = x[..., a] * c - x[..., b] * s
        y[..., b] = x[..., b] * c + x[..., a] * s
    turn = _probe_fit.turn_of({"b": y.float(), "c": y.float()}, {"b": pos, "c": pos}, _probe_fit.PairingCache())
    assert turn.pairs == ((4, 5), (6, 7), (8, 9), (10, 11))
    assert np.allclose(turn.theta, theta.numpy(), rtol=1e-5)
    assert all(abs(g - 1) < 1e-6 for _, g in turn.gain)


@pytest.mark.parametrize("model_type", [t for t in ("llama", "deepseek_v3", "qwen2_vl_text", "gemma3_text")
                                        if t in CONFIGS])
def test_the_stored_reference_is_what_transformers_does_now(model_type):
    """The reference was measured when the fixture was written; a few types are measured again here."""
    d = CONFIGS[model_type]
    assert hf_configs.reference(d) == FIXTURE["reference"][model_type]
