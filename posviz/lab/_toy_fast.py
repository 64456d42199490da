"""Private fast path of posviz.lab.toy_model.summary_matrix: `forward`'s output for many setups of one batch.

`memo_forward` runs the steps of `toy_model.forward` (posviz.lab.toy_layer) in the same order on
the same tensors, but keeps every intermediate under a key naming exactly what it depends on (the
position ids where they enter, the layout, the low-precision rounding, ...): `memo` for ONE model
and ONE (token_ids, attention_mask), `common` for what does not depend on the model (RoPE's cos /
sin, the key masks, ALiBi's bias). Setups that share a tensor compute it once. RoPE in float32 is
rotate_pairs with the cos / sin apply_rope computes (its fast path gives the same bits). Nothing
outlives one summary_matrix call (posviz caches only in posviz.views). tests/lab/test_toy_fast.py
asserts torch.equal with forward over the toy model's options (methods, layouts, bugs, padding
sides, position-id schemes, causal, low-precision dtypes and offsets); benchmarks measure the gain
on /lab's summary matrix.
"""
import functools

import torch

from posviz.lab import toy_layer as layer
from posviz.pe.rope import rope_inv_freq, rotate_pairs


def stage(memo, key, make):
    """memo[key], made by make() the first time."""
    if key not in memo:
        memo[key] = make()
    return memo[key]


def rope_cos_sin(pos, d):
    """cos and sin of the angles p theta_i exactly as apply_rope computes them (float32, factor 1)
    -> [N,1,L,d/2] x2, for rotate_pairs (which apply_rope's fast path equals bit for bit)."""
    angles = pos.to(torch.float32)[..., None] * rope_inv_freq(d)         # [N,L,d/2]
    return angles.cos()[:, None], angles.sin()[:, None]                   # [N,1,L,d/2] x2


def memo_forward(model, token_ids, attention_mask, pos, *, causal, bugs, lowp_dtype, lowp_offset, memo, common):
    """`toy_model.forward(...).output` [N,L,D] on checked inputs (pos: LongTensor [N,L], bugs a tuple),
    every intermediate kept in `memo` / `common` (see the module docstring)."""
    method = "nope" if "no_position" in bugs else model.method
    pk = (tuple(pos.shape), pos.numpy().tobytes())                       # the position ids as a key
    x, x_key = _hidden(model, token_ids, pos, pk, method, bugs, memo)
    (q, k, v), (q_key, k_key, v_key) = _rotated_qkv(model, x, x_key, pos, pk, method, bugs, lowp_dtype, lowp_offset,
                                                    memo, common)
    scores = stage(memo, ("scores", q_key, k_key), lambda: layer.scaled_scores(q, k))  # [N,H,L,S]
    b_key = None
    if method in ("alibi", "t5"):   # ALiBi's bias depends on the heads and positions only, T5's on the model
        store, b_key = (common, ("alibi", model.num_heads, pk)) if method == "alibi" else (memo, ("t5", causal, pk))
        scores = scores + stage(store, b_key, lambda: layer.position_bias(model, pos, method, causal))  # [N,H,L,S]
    unmasked = "pads_unmasked" in bugs
    allowed = stage(common, ("allowed", unmasked, causal), lambda: layer.key_mask(attention_mask, unmasked, causal))
    return stage(memo, ("out", q_key, k_key, v_key, b_key, unmasked, causal),
                 lambda: layer.attend(scores, allowed, v, model.dim)[1])        # [N,L,D]


def _hidden(model, token_ids, pos, pk, method, bugs, memo):
    """X (token embeddings, plus absolute positions, rotated once under "rope_on_hidden") and its key."""
    x_key = ("x", method, pk) if method in ("sinusoidal", "learned") else ("x",)   # else the token embeddings
    x = stage(memo, x_key, lambda: layer.embed_inputs(model, token_ids, pos, method))  # [N,L,D]
    if method == "rope" and "rope_on_hidden" in bugs:
        layout = layer.rope_layout(model, bugs)
        x_key = x_key + ("hidden", layout, pk)
        x = stage(memo, x_key, lambda: layer.rotate_hidden(x, pos, layout))     # [N,L,D] rotated once
    return x, x_key


def _rotated_qkv(model, x, x_key, pos, pk, method, bugs, lowp_dtype, lowp_offset, memo, common):
    """Q, K, V projected from X and rotated as `bugs` say -> ((q, k, v) [N,H,L,d] x3, their keys)."""
    q, k, v = stage(memo, ("qkv",) + x_key, lambda: layer.project(model, x))    # [N,H,L,d] x3
    q_key = k_key = v_key = x_key
    if method != "rope" or "rope_on_hidden" in bugs:
        return (q, k, v), (q_key, k_key, v_key)
    layout = layer.rope_layout(model, bugs)
    if "low_precision" in bugs:
        rot = functools.partial(layer.rotate_lowp, position_ids=pos, offset=lowp_offset,
                                dtype=layer.LOWP_DTYPES[lowp_dtype], layout=layout)
        r_key = ("lowp", lowp_dtype, lowp_offset, layout, pk)
    else:
        d = model.head_dim
        cos, sin = stage(common, ("cos_sin", d, pk), lambda: rope_cos_sin(pos, d))  # [N,1,L,d/2] x2
        rot = functools.partial(rotate_pairs, cos=cos, sin=sin, layout=layout)
        r_key = ("rope", layout, pk)
    q = stage(memo, ("q",) + q_key + r_key, functools.partial(rot, q))   # [N,H,L,d]
    q_key = q_key + r_key
    if "rotate_q_only" not in bugs:
        k = stage(memo, ("k",) + k_key + r_key, functools.partial(rot, k))  # [N,H,L,d]
        k_key = k_key + r_key
    if "rotate_v" in bugs:
        v = stage(memo, ("v",) + v_key + r_key, functools.partial(rot, v))  # [N,H,L,d]
        v_key = v_key + r_key
    return (q, k, v), (q_key, k_key, v_key)
