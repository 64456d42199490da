"""posviz.lab.streaming: StreamingLLM's sink + window cache under both position contracts, the stale-key
bug, and gpt-oss's learned sink logits against transformers' gpt_oss eager attention."""
import math
import types

import pytest
import torch
import transformers
from transformers.models.gpt_oss import modeling_gpt_oss

from posviz.lab import kv_cache as kc
from posviz.lab import streaming as st_
from posviz.pe.rope import apply_rope
from posviz.validate import PosvizError


def qkv(length=24, heads=2, d=16, seed=0, dtype="float32"):
    return kc.random_qkv(1, heads, length, d, seed=seed, dtype=dtype)


def test_kept_tokens_by_hand():
    assert [st_.kept_tokens(t, 2, 3) for t in range(5)] == [[0], [0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 3, 4]]
    assert st_.kept_tokens(5, 2, 3) == [0, 1, 3, 4, 5]
    assert st_.kept_tokens(9, 2, 3) == [0, 1, 7, 8, 9]
    assert st_.kept_tokens(9, 0, 3) == [7, 8, 9]                       # no sinks: a plain sliding window
    assert st_.contract_positions(9, 2, 3, "reassigned") == (4.0, [0.0, 1.0, 2.0, 3.0, 4.0])
    assert st_.contract_positions(9, 2, 3, "global") == (9.0, [0.0, 1.0, 7.0, 8.0, 9.0])


def _sdpa_reference(q, k, v, sinks, window, contract, layout="interleaved"):
    """Independent: per token, its kept keys through torch's SDPA in float64."""
    outs = []
    for t in range(q.shape[-2]):
        p_q, p_k = st_.contract_positions(t, sinks, window, contract)
        idx = st_.kept_tokens(t, sinks, window)
        qr = apply_rope(q[:, :, t:t + 1].double(), [p_q], layout=layout)
        kr = apply_rope(k[:, :, idx].double(), p_k, layout=layout)
        outs.append(torch.nn.functional.scaled_dot_product_attention(qr, kr, v[:, :, idx].double()))
    return torch.cat(outs, dim=-2)


@pytest.mark.parametrize("contract", st_.CONTRACTS)
@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_reference_equals_sdpa(contract, layout):
    q, k, v = qkv()
    ref = st_.streaming_reference(q, k, v, sinks=3, window=5, contract=contract, layout=layout)
    torch.testing.assert_close(ref.double(), _sdpa_reference(q, k, v, 3, 5, contract, layout), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("contract", st_.CONTRACTS)
def test_without_eviction_both_contracts_are_the_full_forward(contract):
    q, k, v = qkv(12)
    ref = st_.streaming_reference(q, k, v, sinks=4, window=8, contract=contract)     # 4 + 8 = 12: nothing evicted
    torch.testing.assert_close(ref, kc.full_causal_rope_attention(q, k, v), rtol=1e-5, atol=1e-5)


def test_global_contract_is_the_full_forward_with_evicted_keys_masked():
    q, k, v = qkv(20)
    pos = torch.arange(20)
    qr, kr = apply_rope(q.double(), pos), apply_rope(k.double(), pos)
    keep = torch.zeros(20, 20, dtype=torch.bool)
    for t in range(20):
        keep[t, st_.kept_tokens(t, 2, 4)] = True
    ref = torch.nn.functional.scaled_dot_product_attention(qr, kr, v.double(), attn_mask=keep)
    got = st_.streaming_reference(q, k, v, sinks=2, window=4, contract="global")
    torch.testing.assert_close(got.double(), ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("sinks, window", [(4, 8), (0, 5), (1, 1), (3, 30), (16, 2)])
@pytest.mark.parametrize("mode", ["on_read", "shift", "global"])
def test_correct_caches_equal_their_contract(sinks, window, mode):
    q, k, v = qkv(28)
    ref = st_.streaming_reference(q, k, v, sinks=sinks, window=window, contract=st_.MODE_CONTRACT[mode])
    out, trace = st_.streaming_decode_trace(q, k, v, sinks=sinks, window=window, mode=mode)
    assert float(kc.per_position_error(out, ref).max()) < 2e-6
    for step in trace:
        p_q, p_k = st_.contract_positions(step["token"], sinks, window, st_.MODE_CONTRACT[mode])
        assert step["kept"] == st_.kept_tokens(step["token"], sinks, window)
        assert (step["query_position"], step["read_positions"]) == (p_q, p_k)


@pytest.mark.parametrize("sinks, window, seed", [(4, 8, 0), (1, 3, 1), (0, 6, 2), (2, 1, 3)])
def test_stale_keys_fail_from_the_first_eviction(sinks, window, seed):
    """Keys rotated by the slot they were written to, never re-rotated: equal until the window first
    slides, wrong from then on (every key written into the full cache carries the last slot)."""
    q, k, v = qkv(24, seed=seed)
    ref = st_.streaming_reference(q, k, v, sinks=sinks, window=window)
    out, trace = st_.streaming_decode_trace(q, k, v, sinks=sinks, window=window, mode="stale")
    err = kc.per_position_error(out, ref)
    first = sinks + window
    assert float(err[:first].max()) < 1e-6
    if window > 1:
        assert float(err[first]) > 1e-3
        assert trace[-1]["read_positions"][sinks:] == [float(first - 1)] * window
    else:   # a window of one holds only the current token, written at the last slot: nothing is stale
        assert float(err.max()) < 1e-6


def test_rerotation_drifts_in_low_precision():
    """SinkCache's R(-1) per slide rounds the stored key each time: fine in float32, drifting in float16
    (rotating on read, as StreamingLLM does, rounds once)."""
    f32 = st_.compare_streaming(40, 4, 8, dtype="float32")
    assert f32["passed"]["shift"] and f32["passed"]["on_read"]
    f16 = st_.compare_streaming(40, 4, 8, dtype="float16")
    assert f16["max_error"]["on_read"] == 0.0 < f16["max_error"]["shift"]
    late, early = f16["errors"]["shift"][-8:], f16["errors"]["shift"][12:16]
    assert max(late) > max(early)


def test_compare_streaming_reports_what_the_page_draws():
    r = st_.compare_streaming(40, 4, 8)
    assert r["first_evict"] == 12 and r["first_fail"]["stale"] == 12
    assert all(r["passed"][m] for m in ("on_read", "shift", "global")) and not r["passed"]["stale"]
    assert r["offsets"] == {"reassigned": 11.0, "global": 39.0}
    assert r["last"]["global"]["keys"] == [0, 1, 2, 3] + list(range(32, 40))
    assert r["last"]["stale"]["keys"] == [0, 1, 2, 3] + [11.0] * 8
    assert st_.compare_streaming(12, 4, 8)["first_evict"] is None                # nothing evicted
    assert st_.compare_streaming(12, 0, 8)["scores"] is None                     # no sink to score


def test_sink_score_curve_is_constant_once_the_cache_is_full():
    q, k, _ = qkv(1, d=16)
    curve = st_.sink_score_curve(q[0, 0, 0], k[0, 0, 0], 30, 2, 4)
    re, gl = curve["reassigned"], curve["global"]
    assert re[:6] == gl[:6]                                                     # t < S + W: the same positions
    assert max(re[5:]) - min(re[5:]) < 1e-6                                     # a fixed offset C - 1 ...
    assert len({round(x, 4) for x in gl[5:]}) > 20                              # ... vs the offset t
    expect = float(q[0, 0, 0] @ apply_rope(k[:, :, :1], [-7.0])[0, 0, 0]) / 4   # q^T R(-7) k: offset 7, d = 16
    assert gl[7] == pytest.approx(expect, abs=1e-5)


@pytest.mark.parametrize("bad, code", [(dict(sinks=17, window=4), "range"), (dict(sinks=2, window=0), "range"),
                                       (dict(sinks=2, window=4, mode="evict"), "choice")])
def test_streaming_refuses_bad_input(bad, code):
    q, k, v = qkv(6)
    with pytest.raises(PosvizError) as e:
        st_.streaming_decode_trace(q, k, v, **bad)
    assert e.value.code == code


# ---------------------------------------------------------------- gpt-oss sinks
def _hf_sink_attention(q, k, v, sinks):
    """transformers 5.24's gpt_oss eager attention on the same rotated q, k, v (a causal additive mask)."""
    module = types.SimpleNamespace(sinks=sinks, num_key_value_groups=1, training=False)
    length = q.shape[-2]
    mask = torch.full((length, length), float("-inf")).triu(1)[None, None]
    out, weights = modeling_gpt_oss.eager_attention_forward(module, q, k, v, mask, scaling=q.shape[-1] ** -0.5)
    return out.transpose(1, 2), weights


@pytest.mark.parametrize("heads, length, d, seed", [(2, 7, 16, 0), (4, 12, 64, 1), (1, 1, 8, 2), (3, 30, 32, 3)])
def test_sink_attention_equals_transformers_gpt_oss(heads, length, d, seed):
    q, k, v = kc.random_qkv(2, heads, length, d, seed=seed)
    sinks = torch.linspace(-3.0, 6.0, heads)
    pos = torch.arange(length)
    qr, kr = apply_rope(q, pos, layout="half"), apply_rope(k, pos, layout="half")
    out, probs, sink = st_.sink_attention(qr, kr, v, sinks)
    ref_out, ref_w = _hf_sink_attention(qr, kr, v, sinks)
    torch.testing.assert_close(out, ref_out, rtol=1e-6, atol=1e-6)
    torch.testing.assert_close(probs, ref_w, rtol=1e-6, atol=1e-7)
    torch.testing.assert_close(sink, 1 - ref_w.sum(-1), rtol=1e-5, atol=1e-6)   # what goes nowhere


def test_sink_mass_by_hand_and_the_wrong_modes():
    q, k, v = kc.random_qkv(1, 1, 1, 4, seed=5)
    s00 = float(q[0, 0, 0] @ k[0, 0, 0]) / 2
    _, _, sink = st_.sink_attention(q, k, v, torch.tensor([1.5]))
    assert float(sink) == pytest.approx(math.exp(1.5) / (math.exp(1.5) + math.exp(s00)), rel=1e-6)
    q, k, v = kc.random_qkv(1, 2, 6, 16, seed=0)
    plain = kc.attend(q, k, v, causal=True)
    ignored, _, none = st_.sink_attention(q, k, v, torch.tensor([2.0, 4.0]), mode="ignored")
    torch.testing.assert_close(ignored, plain, rtol=1e-6, atol=1e-6)             # an ordinary softmax
    assert float(none.abs().max()) == 0.0
    gone, _, _ = st_.sink_attention(q, k, v, torch.tensor([-50.0, -50.0]))
    torch.testing.assert_close(gone, plain, rtol=1e-6, atol=1e-6)                # a sink at -50 takes nothing
    _, _, s_scaled = st_.sink_attention(q, k, v, torch.tensor([2.0, 2.0]), mode="scaled")
    _, _, s_right = st_.sink_attention(q, k, v, torch.tensor([0.5, 0.5]))         # 2 / sqrt(16)
    torch.testing.assert_close(s_scaled, s_right)


def test_compare_sinks_numbers():
    r = st_.compare_sinks(8, 1.0)
    assert len(r["sink"]) == 2 and len(r["sink"][0]) == 8
    assert all(0 < s < 1 for h in r["sink"] for s in h)
    assert r["first_fail"] == {"ignored": 0, "scaled": 0}
    low = st_.compare_sinks(8, -20.0)                                           # a sink that takes nothing
    assert low["max_error"]["ignored"] < 1e-6 and max(max(h) for h in low["sink"]) < 1e-6
    with pytest.raises(PosvizError) as e:
        st_.sink_attention(*kc.random_qkv(1, 2, 3, 4), torch.zeros(3))
    assert e.value.code == "kv.sinks_per_head"


def test_transformers_ships_no_sink_cache():
    """transformers 5.24 has no SinkCache any more (it was removed from the library): the streaming cache
    is held to its own plain recomputation, and "shift" follows SinkCache's algorithm (slide = R(-1))."""
    assert transformers.__version__.startswith("5.24")
    assert not hasattr(transformers, "SinkCache")
    assert not hasattr(transformers.cache_utils, "SinkCache")
