r"""RoPE with a KV cache: full causal forward vs prefill + step-by-step decode
(“Same words, different order…” §10 and the cache bugs of §13; Su et al. 2021, RoFormer).

In the full causal forward, token p's query and key are rotated by R(p):

    score(p, s) = (R(p) q_p)^T (R(s) k_s) / sqrt(d) = q_p^T R(s - p) k_s / sqrt(d),  s <= p

With a cache, the first `prefill_length` = P tokens run causally at positions 0..P-1; then
each new token t gets position_ids = [past_length] = [t], its query and key are rotated by
R(t), and the rotated key is appended to the cache. Decoding is equivalent to the full
forward only if every score still sees the offset s - p. The modes:

    "correct"         q_t <- R(t) q_t; cache holds R(s) k_s for every s (rotated once)
    "restart"         q_t <- R(0) q_t, k_t <- R(0) k_t              (“Same words, different order…” §10 wrong A)
                      the query sees offset s - 0 instead of s - t
    "rerotate"        at step t the cached keys are rotated again by R(t) and stored back:
                      key s then carries s + P + (P+1) + ... + t    (wrong B)
    "rotate_on_read"  the cache holds un-rotated k_s; on read all are rotated by R(t):
                      every offset becomes t - t = 0, positions of the past are erased (§13)

Every wrong mode changes the score of the first decoded token t = P with each past key
s < P (the offset it sees is s, s and 0 instead of s - P), so all three fail from the first
decoded position on; the prefill positions 0..P-1 are identical in every mode.
"""
import contextlib
import math

import torch

from posviz.pe.rope import ROPE_LAYOUTS, apply_rope, rope_inv_freq, rotate_pairs
from posviz.validate import MAX_DIM, MAX_HEADS, PosvizError, as_tensor, check_base, check_choice, check_even, check_int

MODES = ("correct", "restart", "rerotate", "rotate_on_read")
DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
# torch.testing.assert_close defaults (rtol, atol) for each dtype.
TOLERANCES = {"float32": (1.3e-6, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float16": (1e-3, 1e-5)}
MAX_DECODE_LENGTH = 1024      # one Python step per decoded token
MAX_BATCH = 16
MAX_ELEMENTS = 1 << 21        # N*H*L*d of q (and of k, v)


@contextlib.contextmanager
def one_thread():
    """Tiny tensors run faster on one intra-op thread: on a loaded 2-core host torch's thread
    pool turns a 0.2 s decode sweep into seconds."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _check_qkv(q, k, v):
    """q, k, v: tensors [N,H,L,d] of one shape and one float dtype (of DTYPES) -> (q, k, v, (N, H, L, d))."""
    q, k, v = (as_tensor(name, x, ndim=4) for name, x in (("q", q), ("k", k), ("v", v)))  # [N,H,L,d] x3
    if not (q.shape == k.shape == v.shape):
        raise PosvizError("kv.same_shape", shapes=f"{list(q.shape)}, {list(k.shape)}, {list(v.shape)}")
    if not (q.dtype == k.dtype == v.dtype) or q.dtype not in DTYPES.values():
        raise PosvizError("kv.dtype", choices=", ".join(DTYPES), got=f"{q.dtype}, {k.dtype}, {v.dtype}")
    n, h, length, d = q.shape
    check_int("batch size (q.shape[0])", n, 1, MAX_BATCH)
    check_int("heads (q.shape[1])", h, 1, MAX_HEADS)
    check_int("length (q.shape[2])", length, 1, MAX_DECODE_LENGTH)
    check_even("head_dim (q.shape[3])", d, 2, MAX_DIM)
    if q.numel() > MAX_ELEMENTS:
        raise PosvizError("at_most", name="N*H*L*d of q", hi=MAX_ELEMENTS, got=q.numel())
    return q, k, v, (n, h, length, d)


def attend(q, k, v, *, causal):
    r"""softmax(q k^T / sqrt(d) + mask) v with right-aligned causal queries.

    Formula:
        \mathrm{out}_i=\sum_{j}\operatorname{softmax}_j\Big(\frac{q_i^\top k_j}{\sqrt d}+M_{ij}\Big)v_j,\qquad
            M_{ij}=-\infty\ \text{if } j>S-L_q+i

    q [N,H,Lq,d], k/v [N,H,S,d] (already rotated). The product runs in the input dtype; the
    softmax runs in float32 and is cast back, as Hugging Face's eager attention does.
    Query i (global position S - Lq + i) may read keys j <= S - Lq + i when causal.
    """
    lq, s, d = q.shape[-2], k.shape[-2], q.shape[-1]
    scores = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(d))          # [N,H,Lq,S]
    if causal:
        i = torch.arange(lq)[:, None] + (s - lq)                       # [Lq,1]
        j = torch.arange(s)[None, :]                                   # [1,S]
        scores = scores.masked_fill(j > i, float("-inf"))              # [N,H,Lq,S]
    probs = scores.float().softmax(dim=-1).to(v.dtype)                 # [N,H,Lq,S]
    return probs @ v                                                   # [N,H,Lq,d]


def full_causal_rope_attention(q, k, v, *, base=10000.0, layout="interleaved"):
    r"""The reference: rotate every q_p, k_p by R(p), p = 0..L-1, one causal attention -> [N,H,L,d].

    Formula:
        \mathrm{out}_p=\sum_{s\le p}\operatorname{softmax}_s\!\Big(\tfrac{(R(p)q_p)^\top R(s)k_s}{\sqrt d}\Big)v_s
        (R(p)q)^\top R(s)k=q^\top R(s-p)\,k
    """
    q, k, v, (_, _, length, _) = _check_qkv(q, k, v)
    check_base(base)
    check_choice("layout", layout, ROPE_LAYOUTS)
    pos = torch.arange(length)                                         # [L]
    q_rot = apply_rope(q, pos, base=base, layout=layout)               # [N,H,L,d]
    k_rot = apply_rope(k, pos, base=base, layout=layout)               # [N,H,L,d]
    return attend(q_rot, k_rot, v, causal=True)                        # [N,H,L,d]


def decode_with_cache_trace(q, k, v, *, prefill_length, mode="correct", base=10000.0,
                            layout="interleaved"):
    r"""Prefill tokens 0..P-1 causally, then decode tokens P..L-1 one at a time with a cache.

    Formula:
        \text{correct: } q_t\leftarrow R(t)q_t,\quad \text{cache}=[R(0)k_0,\dots,R(t)k_t]
        R(a)\,R(b)=R(a+b)\;\Rightarrow\;\text{a key rotated twice carries } a+b

    Returns (out [N,H,L,d], trace). Beside every cached key the cache keeps the total
    position its stored vector is rotated by (rotations add: R(a) R(b) = R(a+b)), so the
    trace is read off the very code path that produced `out`. trace has one entry per
    decode step: {"token": t, "query_position": p used for q_t, "stored_positions": [..]
    (what the cache holds after the step), "read_positions": [..] (what the step's scores
    used)}.
    """
    q, k, v, (n, h, length, d) = _check_qkv(q, k, v)
    check_base(base)
    check_choice("layout", layout, ROPE_LAYOUTS)
    check_choice("mode", mode, MODES)
    p0 = check_int("prefill_length", prefill_length, 1, length)

    inv_freq = rope_inv_freq(d, base)                                  # [d/2] float32, as apply_rope's
    turns = {}                                                         # (position, S, dtype) -> (cos, sin)

    def rot(x, position):                                              # x [N,H,S,d]
        """apply_rope(x, p) for a tensor of positions; for one position p of all S rows, the same
        numbers with cos and sin made once per (p, S) (a decode step rotates its query and key
        by the same R(p)) and apply_rope's checks left out (they hold here)."""
        if torch.is_tensor(position):
            return apply_rope(x, position, base=base, layout=layout)   # [N,H,S,d]
        key = (float(position), x.shape[-2], x.dtype)
        if key not in turns:
            angles = torch.full((1, x.shape[-2]), float(position))[..., None] * inv_freq  # [1,S,d/2] float32
            turns[key] = (angles.cos().to(x.dtype)[:, None], angles.sin().to(x.dtype)[:, None])  # [1,1,S,d/2] x2
        return rotate_pairs(x, *turns[key], layout)                    # [N,H,S,d] (= apply_rope's fast path)

    # prefill: past_length = 0, position_ids = arange(0, P) in every mode
    pos = torch.arange(p0, dtype=torch.float32)                        # [P]
    q_rot = rot(q[:, :, :p0], pos)                                     # [N,H,P,d]
    k_rot = rot(k[:, :, :p0], pos)                                     # [N,H,P,d]
    outs = [attend(q_rot, k_rot, v[:, :, :p0], causal=True)]           # [N,H,P,d]
    if mode == "rotate_on_read":
        cache_k, cache_pos = k[:, :, :p0], torch.zeros(p0)             # [N,H,P,d], [P] un-rotated
    else:
        cache_k, cache_pos = k_rot, pos.clone()                        # [N,H,P,d], [P]
    cache_v = v[:, :, :p0]                                             # [N,H,P,d]

    trace = []
    for t in range(p0, length):
        past_length = cache_k.shape[-2]
        new_p = 0.0 if mode == "restart" else float(past_length)       # position id of token t
        q_t = rot(q[:, :, t:t + 1], new_p)                             # [N,H,1,d]
        k_t = k[:, :, t:t + 1]                                         # [N,H,1,d] un-rotated
        if mode == "rotate_on_read":
            cache_k = torch.cat([cache_k, k_t], dim=-2)                # [N,H,S,d] un-rotated
            cache_pos = torch.cat([cache_pos, torch.zeros(1)])         # [S]
            keys = rot(cache_k, new_p)                                 # [N,H,S,d] all by R(t)
            read_pos = cache_pos + new_p                               # [S]
        else:
            if mode == "rerotate":                                     # the bug: history again by R(t)
                cache_k = rot(cache_k, new_p)                          # [N,H,S-1,d]
                cache_pos = cache_pos + new_p                          # [S-1]
            cache_k = torch.cat([cache_k, rot(k_t, new_p)], dim=-2)    # [N,H,S,d]
            cache_pos = torch.cat([cache_pos, torch.tensor([new_p])])  # [S]
            keys, read_pos = cache_k, cache_pos                        # [N,H,S,d], [S]
        cache_v = torch.cat([cache_v, v[:, :, t:t + 1]], dim=-2)       # [N,H,S,d]
        outs.append(attend(q_t, keys, cache_v, causal=False))          # [N,H,1,d]
        trace.append({"token": t, "query_position": new_p,
                      "stored_positions": cache_pos.tolist(), "read_positions": read_pos.tolist()})
    return torch.cat(outs, dim=-2), trace                              # [N,H,L,d]


def decode_with_cache(q, k, v, *, prefill_length, mode="correct", base=10000.0,
                      layout="interleaved"):
    r"""Prefill + one-token-at-a-time decode with a KV cache -> out [N,H,L,d] (see module doc)."""
    out, _ = decode_with_cache_trace(q, k, v, prefill_length=prefill_length, mode=mode,
                                     base=base, layout=layout)
    return out                                                         # [N,H,L,d]


def per_position_error(a, b):
    """max over N, H, d of |a - b| for each position -> Tensor[L] float32."""
    return (a.float() - b.float()).abs().amax(dim=(0, 1, 3))           # [L]


def random_qkv(n, heads, length, head_dim, *, seed=0, dtype="float32"):
    """Standard-normal content vectors q, k, v [N,H,L,d] (drawn in float32, then cast)."""
    check_choice("dtype", dtype, DTYPES)
    g = torch.Generator().manual_seed(check_int("seed", seed, 0, 2**31 - 1))
    shape = (check_int("n", n, 1, MAX_BATCH), check_int("heads", heads, 1, MAX_HEADS),
             check_int("length", length, 1, MAX_DECODE_LENGTH), check_even("head_dim", head_dim, 2, MAX_DIM))
    if math.prod(shape) > MAX_ELEMENTS:
        raise PosvizError("at_most", name="n*heads*length*head_dim", hi=MAX_ELEMENTS, got=math.prod(shape))
    qkv = torch.randn((3, *shape), generator=g)                        # [3,N,H,L,d]
    return tuple(x.to(DTYPES[dtype]) for x in qkv)                     # 3 x [N,H,L,d]


def allowed_error(reference, dtype):
    """Per-position tolerance atol + rtol * max|reference| (assert_close defaults) -> Tensor[L]."""
    rtol, atol = TOLERANCES[dtype]
    return atol + rtol * reference.float().abs().amax(dim=(0, 1, 3))  # [L]


def compare_modes(length, prefill_length, *, heads=2, head_dim=16, dtype="float32", base=10000.0,
                  layout="interleaved", seed=0, modes=MODES):
    r"""Run the full forward and every decode mode on one random q, k, v [1,H,L,d] in `dtype`.

    Formula:
        \mathrm{err}_p=\max_{h,c}\,\big|\mathrm{decode}_{p}-\mathrm{full}_{p}\big|
            \;\le\;\mathrm{atol}+\mathrm{rtol}\cdot\max|\mathrm{full}_p|

    "Equal" means assert_close: per position, max |decode - full| <= atol + rtol * max|full|
    with torch.testing's default (rtol, atol) for the dtype. Returns plain Python data (for the
    page and its cache), one value per position: errors[mode] = max |decode - full| (both in
    `dtype`); vs_float32[mode] = max |decode(dtype) - full(float32)|; precision = max
    |full(dtype) - full(float32)| (what the dtype alone costs); allowed; passed[mode];
    first_fail[mode] (first position over `allowed`, or None); traces[mode].
    """
    length = check_int("length", length, 1, MAX_DECODE_LENGTH)
    prefill_length = check_int("prefill_length", prefill_length, 1, length)
    check_choice("dtype", dtype, DTYPES)
    for m in modes:
        check_choice("mode", m, MODES)
    with one_thread(), torch.inference_mode():   # plain data out: no autograd bookkeeping (same numbers)
        return _compare_modes(length, prefill_length, heads, head_dim, dtype, base, layout, seed, modes)


def _compare_modes(length, prefill_length, heads, head_dim, dtype, base, layout, seed, modes):
    q, k, v = random_qkv(1, heads, length, head_dim, seed=seed, dtype="float32")  # [1,H,L,d] x3
    ref = full_causal_rope_attention(q, k, v, base=base, layout=layout)           # [1,H,L,d] float32
    qd, kd, vd = (x.to(DTYPES[dtype]) for x in (q, k, v))                           # [1,H,L,d] x3 (float32: q, k, v)
    full = ref if dtype == "float32" else full_causal_rope_attention(qd, kd, vd, base=base, layout=layout)  # [1,H,L,d]
    allowed = allowed_error(full, dtype)                                           # [L]
    out = {"positions": list(range(length)), "prefill_length": prefill_length, "dtype": dtype,
           "rtol": TOLERANCES[dtype][0], "atol": TOLERANCES[dtype][1],
           "allowed": allowed.tolist(), "precision": per_position_error(full, ref).tolist(),
           "errors": {}, "vs_float32": {}, "passed": {}, "first_fail": {}, "traces": {}}
    for m in modes:
        dec, tr = decode_with_cache_trace(qd, kd, vd, prefill_length=prefill_length, mode=m,
                                          base=base, layout=layout)                 # [1,H,L,d]
        err = per_position_error(dec, full)                                         # [L]
        bad = (err > allowed).nonzero().flatten().tolist()
        out["errors"][m] = err.tolist()
        out["vs_float32"][m] = per_position_error(dec, ref).tolist()
        out["passed"][m] = not bad
        out["first_fail"][m] = bad[0] if bad else None
        out["traces"][m] = tr
    decoded = slice(prefill_length, length)
    out["max_decoded"] = {m: max(out["errors"][m][decoded], default=0.0) for m in modes}
    out["max_decoded_f32"] = {m: max(out["vs_float32"][m][decoded], default=0.0) for m in modes}
    out["max_precision"] = max(out["precision"])
    return out


ARGMAX_VOCAB = 32            # the toy next-token head's vocabulary


def argmax_check(length, prefill_length, *, heads=2, head_dim=16, vocab=ARGMAX_VOCAB, seed=0, base=10000.0,
                 layout="interleaved", modes=MODES):
    r"""Comparing only the argmax hides cache bugs (“Same words, different order…” §10: compare every position's
    output, not only the final argmax): per decode step and mode, whether the next token a fixed random head picks
    from the cached decode equals the full forward's pick, beside the step's largest output error.

    Formula:
        z_t = W_o^\top \operatorname{vec}(O_t),\qquad W_o \in \mathbb{R}^{Hd \times V}\ \text{(random, fixed)}
        \text{agree}_t = \big[\arg\max z^{\text{decode}}_t = \arg\max z^{\text{full}}_t\big],\qquad
            \text{err}_t = \max_{h,c} \big|O^{\text{decode}}_{t} - O^{\text{full}}_{t}\big|

    q, k, v from random_qkv(1, heads, length, head_dim, seed) in float32 -> dict(steps: the decoded positions,
    agree {mode: [bool]}, errors {mode: [float]}, agreed {mode: how many steps agree}, max_error {mode: float}).
    """
    length = check_int("length", length, 2, MAX_DECODE_LENGTH)
    prefill_length = check_int("prefill_length", prefill_length, 1, length - 1)
    vocab = check_int("vocab", vocab, 2, 4096)
    for m in modes:
        check_choice("mode", m, MODES)
    with one_thread(), torch.inference_mode():
        q, k, v = random_qkv(1, heads, length, head_dim, seed=seed)                 # [1,H,L,d] x3
        g = torch.Generator().manual_seed(check_int("seed", seed, 0, 2**31 - 1) + 7)
        w_o = torch.randn(heads * head_dim, vocab, generator=g)                     # [H*d,V]
        full = full_causal_rope_attention(q, k, v, base=base, layout=layout)        # [1,H,L,d]
        z_full = full[0].transpose(0, 1).reshape(length, -1) @ w_o                  # [L,V]
        steps = list(range(prefill_length, length))
        out = {"steps": steps, "agree": {}, "errors": {}, "agreed": {}, "max_error": {}}
        for m in modes:
            dec = decode_with_cache(q, k, v, prefill_length=prefill_length, mode=m, base=base, layout=layout)
            z_dec = dec[0].transpose(0, 1).reshape(length, -1) @ w_o                # [L,V]
            agree = (z_dec.argmax(-1) == z_full.argmax(-1))[prefill_length:]        # [L-P]
            err = per_position_error(dec, full)[prefill_length:]                    # [L-P]
            out["agree"][m] = agree.tolist()
            out["errors"][m] = err.tolist()
            out["agreed"][m] = int(agree.sum())
            out["max_error"][m] = float(err.max())
        return out
