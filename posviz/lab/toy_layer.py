"""The steps of the toy model's attention layer: embed, project, rotate, bias, mask, attend.

posviz.lab.toy_model.forward composes them in the open, one call per step; posviz.lab._toy_fast
composes the very same steps for many setups of one batch, keeping what the setups share. Each
step is written once, here, so the two cannot drift apart (tests/lab/test_toy_fast.py compares them
bit for bit). `model` is a posviz.lab.toy_model.ToyModel.
"""
import math

import torch

from posviz.pe.learned import PositionOutOfRangeError
from posviz.pe.relative import alibi_slopes, t5_relative_position_bucket
from posviz.pe.rope import apply_rope, rope_inv_freq, rotate_pairs
from posviz.pe.sinusoidal import sinusoidal_positions

LOWP_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16}
T5_BUCKETS, T5_MAX_DISTANCE = 32, 128
NEG = -1e9                             # masked logit (finite: a fully masked pad row stays finite)


def embed_inputs(model, token_ids, pos, method):
    """X = E[token_ids] (+ PE[p] for "sinusoidal", + P[p] for "learned") -> [N,L,D].

    A learned table too short for the positions raises PositionOutOfRangeError (never wraps)."""
    x = model.embed[token_ids]                                            # [N,L,D]
    if method == "sinusoidal":
        lo = int(pos.min())
        table = sinusoidal_positions(int(pos.max()) - lo + 1, model.dim, offset=lo)  # [P,D] rows lo..max
        x = x + table[pos - lo]                                           # [N,L,D]
    elif method == "learned":
        if int(pos.max()) >= model.max_length:   # the hard boundary: never wrapped
            raise PositionOutOfRangeError(int(pos.max()) + 1, model.max_length)
        x = x + model.pos_table[pos]                                      # [N,L,D]
    return x


def rope_layout(model, bugs):
    """The pairing RoPE uses: the model's, or the other one under the "layout_mismatch" bug."""
    if "layout_mismatch" in bugs:
        return "half" if model.rope_layout == "interleaved" else "interleaved"
    return model.rope_layout


def rotate_hidden(x, pos, layout):
    """The "rope_on_hidden" bug: RoPE applied once to the hidden states X [N,L,D] (all D dims)."""
    return apply_rope(x[:, None], pos, layout=layout)[:, 0]               # [N,L,D] rotated once, D-dim


def project(model, x):
    """Q_h = X W_Q^h + b_Q^h, K_h = X W_K^h + b_K^h, V_h = X W_V^h -> [N,H,L,d] x3."""
    q = torch.einsum("nld,hde->nhle", x, model.wq) + model.bq[None, :, None]  # [N,H,L,d]
    k = torch.einsum("nld,hde->nhle", x, model.wk) + model.bk[None, :, None]  # [N,H,L,d]
    v = torch.einsum("nld,hde->nhle", x, model.wv)                            # [N,H,L,d]
    return q, k, v


def round_positions(position_ids, offset, dtype):
    """p + offset as `dtype` stores it (the first rounding of the low-precision bug)."""
    return (position_ids.to(torch.float32) + offset).to(dtype)            # [...] rounded to dtype


def rotate_lowp(x, position_ids, offset, dtype, layout):
    """RoPE with angles (p + offset) * theta computed in a low-precision dtype (the bug).

    angle = dt(dt(p + offset) * dt(theta)): the positions are rounded first (`lowp_positions`),
    then the product; the fastest pair (theta_0 = 1) turns a position spacing of 64 into 64 rad.
    """
    d = x.shape[-1]
    theta = rope_inv_freq(d).to(dtype)                                    # [d/2] low precision
    pos = round_positions(position_ids, offset, dtype)                    # [N,L] rounded
    ang = (pos[..., None] * theta).to(torch.float32)                      # [N,L,d/2]
    cos, sin = ang.cos()[:, None], ang.sin()[:, None]                     # [N,1,L,d/2]
    return rotate_pairs(x, cos, sin, layout)                              # [N,H,L,d]


def position_bias(model, pos, method, causal):
    """B_h added to the scores [N,H,L,S]: ALiBi's -m_h |p_i - p_j|, T5's b_h[bucket(p_j - p_i)];
    None for the other methods."""
    if method == "alibi":
        dist = (pos[:, :, None] - pos[:, None, :]).abs().float()          # [N,L,S] |p_i - p_j|
        return -(alibi_slopes(model.num_heads)[None, :, None, None] * dist[:, None])  # [N,H,L,S]
    if method == "t5":
        rel = pos[:, None, :] - pos[:, :, None]                           # [N,L,S] p_j - p_i
        bucket = t5_relative_position_bucket(rel, bidirectional=not causal, num_buckets=T5_BUCKETS,
                                             max_distance=T5_MAX_DISTANCE)  # [N,L,S]
        return model.t5_table[:, bucket].permute(1, 0, 2, 3)              # [N,H,L,S]
    return None


def key_mask(attention_mask, unmasked, causal):
    """Which keys each query may see -> bool [N,L,S]: the real tokens (every token when `unmasked`,
    the "pads_unmasked" bug), and only the earlier ones when `causal`."""
    n, length = attention_mask.shape
    allowed = torch.ones(n, length, length, dtype=torch.bool)            # [N,L,S]
    if not unmasked:
        allowed = allowed & attention_mask.bool()[:, None, :]             # [N,L,S] keys must be real
    if causal:
        allowed = allowed & torch.ones(length, length, dtype=torch.bool).tril()[None]  # [N,L,S]
    return allowed


def attend(scores, allowed, v, dim):
    """A_h = softmax(S_h + mask), O = concat_h(A_h V_h) -> (weights [N,H,L,S], output [N,L,D])."""
    n, _, length, _ = scores.shape
    weights = scores.masked_fill(~allowed[:, None], NEG).softmax(dim=-1)  # [N,H,L,S]
    return weights, (weights @ v).transpose(1, 2).reshape(n, length, dim)  # [N,H,L,S] [N,L,D]


def scaled_scores(q, k):
    """S_h = Q_h K_h^T / sqrt(d) -> [N,H,L,S]."""
    return q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])               # [N,H,L,S]
