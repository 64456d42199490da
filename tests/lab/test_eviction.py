"""posviz.lab.eviction: "keep" is the full forward with the evicted keys masked, "renumber" the full forward of the
shorter sequence, the cache-count bug neither; H2O's choice by hand."""
import pytest
import torch

from posviz.lab import eviction as E
from posviz.lab.kv_cache import attend, full_causal_rope_attention, random_qkv
from posviz.pe.rope import apply_rope
from posviz.validate import PosvizError


def _masked_full(q, k, v, prompt, evicted):
    """The full forward, the decode rows unable to read the evicted keys (an independent mask, no cache)."""
    n = q.shape[-2]
    pos = torch.arange(n)
    scores = apply_rope(q, pos) @ apply_rope(k, pos).transpose(-1, -2) / q.shape[-1] ** 0.5
    allowed = torch.arange(n)[None, :] <= torch.arange(n)[:, None]
    for t in range(prompt, n):
        allowed[t, evicted] = False
    return scores.masked_fill(~allowed, float("-inf")).softmax(-1) @ v


@pytest.mark.parametrize("evicted", [[3, 4, 5], [1, 6, 7, 10], []])
def test_keep_is_the_full_forward_with_the_evicted_keys_masked(evicted):
    q, k, v = random_qkv(1, 2, 18, 8, seed=4)
    out = E.evicted_decode(q, k, v, prompt_length=12, evicted=evicted, mode="keep")
    torch.testing.assert_close(out, _masked_full(q, k, v, 12, evicted), rtol=1e-5, atol=1e-6)
    if not evicted:      # nothing evicted: every contract is the full forward
        for mode in E.EVICT_MODES:
            torch.testing.assert_close(E.evicted_decode(q, k, v, prompt_length=12, evicted=[], mode=mode),
                                       full_causal_rope_attention(q, k, v), rtol=1e-5, atol=1e-6)


def test_renumber_is_the_full_forward_of_the_sequence_without_the_evicted_tokens():
    q, k, v = random_qkv(1, 2, 20, 8, seed=1)
    evicted = [4, 5, 6, 7]
    kept = [s for s in range(20) if s not in evicted]
    short = full_causal_rope_attention(q[:, :, kept], k[:, :, kept], v[:, :, kept])   # positions 0..15
    out = E.evicted_decode(q, k, v, prompt_length=12, evicted=evicted, mode="renumber")
    torch.testing.assert_close(out[:, :, 12:], short[:, :, 8:], rtol=1e-5, atol=1e-6)


def test_the_contracts_positions_by_hand():
    """P = 6, E = {2, 3}, decoding token 7 (kept: 0 1 4 5 6 7)."""
    assert E.eviction_positions(7, 6, [2, 3], "keep") == ([0, 1, 4, 5, 6, 7], [0.0, 1.0, 4.0, 5.0, 6.0, 7.0], 7.0)
    assert E.eviction_positions(7, 6, [2, 3], "renumber")[1:] == ([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 5.0)
    assert E.eviction_positions(7, 6, [2, 3], "cache_count")[1:] == ([0.0, 1.0, 4.0, 5.0, 4.0, 5.0], 5.0)


def test_the_cache_count_bug_differs_and_renumbering_is_not_free():
    r = E.compare_eviction(24, 8, (8, 14))
    assert r["evicted"] == list(range(8, 14))
    assert r["max_position_error"]["keep"] == 0.0
    assert r["max_position_error"]["renumber"] > 1e-3 and r["max_position_error"]["cache_count"] > 1e-3
    assert all(e == 0 for e in r["errors"]["keep"][:24])                     # the prompt is not touched
    assert r["last"]["keep"]["query"] == 31.0 and r["last"]["renumber"]["query"] == 25.0


def test_h2o_evicts_the_least_attended_keys_outside_the_recent_window():
    q, k, _ = random_qkv(1, 2, 16, 8, seed=2)
    s = E.h2o_scores(q, k, 16)
    assert float(s.sum()) == pytest.approx(2 * 16, rel=1e-5)                 # every row of every head sums to 1
    chosen = E.evicted_tokens(16, (3, 8), "h2o", scores=s)                   # 5 tokens, the last 4 protected
    order = torch.argsort(s[:12], stable=True)[:5]
    assert chosen == sorted(order.tolist()) and max(chosen) < 12
    with pytest.raises(PosvizError) as e:
        E.evicted_tokens(16, (3, 8), "h2o")
    assert e.value.code == "evict_scores"


def test_attend_gives_probabilities_as_values():
    """h2o_scores reads each query's softmax row by attending over identity values."""
    q, k, _ = random_qkv(1, 1, 5, 4, seed=0)
    pos = torch.arange(5)
    probs = attend(apply_rope(q, pos), apply_rope(k, pos), torch.eye(5)[None, None], causal=True)
    assert torch.allclose(probs.sum(-1), torch.ones(1, 1, 5)) and float(probs[0, 0, 0, 1:].abs().max()) == 0.0
