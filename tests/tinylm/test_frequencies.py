"""posviz.tinylm.frequencies and evaluate.rotation_ablation: which RoPE pairs carry a trained head's score."""
import math

import pytest
import torch

from posviz.pe.rope import apply_rope, rope_inv_freq
from posviz.tinylm import evaluate as le
from posviz.tinylm import frequencies as fq
from posviz.tinylm.model import TinyConfig, TinyLM


def small(seed=0, **kw):
    torch.manual_seed(seed)
    return TinyLM(TinyConfig(method="rope", d_model=16, n_heads=2, max_length=16, **kw)).eval()


def test_pair_contributions_add_up_to_the_score_and_are_cosines():
    torch.manual_seed(0)
    q, k = torch.randn(1, 2, 6, 8), torch.randn(1, 2, 6, 8)
    pos = torch.arange(6)
    qr, kr = apply_rope(q, pos), apply_rope(k, pos)
    c = fq.pair_contributions(qr, kr)                                             # [1,2,6,6,4]
    assert torch.allclose(c.sum(-1), qr @ kr.transpose(-1, -2), atol=1e-5)
    # c_i(m, n) = |q_i||k_i| cos((m - n) theta_i + phi_i): by hand for one pair
    th = rope_inv_freq(8)
    m, n, i = 4, 1, 1
    qa, ka = q[0, 0, m, 2 * i:2 * i + 2], k[0, 0, n, 2 * i:2 * i + 2]
    phi = math.atan2(qa[1], qa[0]) - math.atan2(ka[1], ka[0])
    want = float(qa.norm() * ka.norm()) * math.cos((m - n) * float(th[i]) + phi)
    assert float(c[0, 0, m, n, i]) == pytest.approx(want, abs=1e-5)


def test_region_masks_are_causal_offset_ranges():
    r = fq.region_masks(5, ((0, 2), (2, 5)))
    assert r[0].sum() == 5 + 4 and r[1].sum() == 3 + 2 + 1
    assert not (r[0] & r[1]).any() and not r.any(0).triu(1).any()


def test_pair_shares_are_shares():
    s = fq.pair_shares(small(), length=32, regions=((0, 16), (16, 32)), num_sequences=2)
    assert s.shape == (2, 2, 2, 4) and torch.allclose(s.sum(-1), torch.ones(2, 2, 2, dtype=torch.float64))
    assert (s >= 0).all()


def test_head_diagonals_of_uniform_attention():
    """q = k = 0 in layer 0: uniform causal attention, whose strongest diagonal is offset 0 (every query
    gives 1/(i+1) to itself), with the mean of 1/(i+1) there."""
    m = small()
    with torch.no_grad():
        m.blocks[0].attn.qkv.weight.zero_()
        m.blocks[0].attn.qkv.bias.zero_()
    off, w = fq.head_diagonals(m, length=16, num_sequences=2)
    assert off.shape == w.shape == (2, 2)
    assert float(w[0, 0]) == pytest.approx(float(torch.tensor([1 / (i + 1) for i in range(16)]).mean()), rel=1e-5)
    assert int(off[0, 0]) == 0           # uniform attention: offset 0 has every query's 1/(i+1)


def test_rotation_ablation_removes_one_pair_at_a_time():
    m = small()
    r = le.rotation_ablation(m, length=32, bucket_size=16, num_sequences=2)
    assert len(r["removed"]) == 4 and len(r["base"]) == 2 and m.rope_override is None
    inv, _ = m._rope()
    m.rope_override = (torch.cat([inv[:3], torch.zeros(1)]), 1.0)
    x, y = le.make_batch(2, 32, vocab_size=32, offset=2, seed=fq.EVAL_SEED + 2000)
    with torch.no_grad():
        acc = le.bucket_accuracy(m(x).argmax(-1), y, 16)[0].tolist()
    m.rope_override = None
    assert r["removed"][3] == acc
