r"""Attention sinks and a streaming KV cache (Xiao et al. 2023, *Efficient Streaming Language Models
with Attention Sinks*, arXiv:2309.17453), and gpt-oss's learned sink logits (OpenAI 2025, gpt-oss).

A streaming cache keeps the keys and values of the first S tokens (the attention sinks) and of the
last W tokens (a rolling window, the current token included) and evicts the rest. Decoding token t
(0-based) reads the C_t = min(t + 1, S + W) tokens

    kept(t) = {0, ..., S-1} ∪ {t-W+1, ..., t}          (every token 0..t while t < S + W)

Two position contracts for RoPE:

    "reassigned"  StreamingLLM: the key in cache slot j has position j, the query the last slot
                  C_t - 1, so every offset stays below S + W, inside what the model was trained on
    "global"      the original positions: query t, key s; the offset to a sink is t, which grows
                  without bound, past every distance the model saw in training

Incremental caches (the modes of `streaming_decode_trace`):

    "on_read"   StreamingLLM's code: keys cached un-rotated, each rotated by its slot on every read
    "shift"     transformers' former SinkCache: keys cached rotated by their slot; when the window
                slides, the kept window keys are rotated by R(-1) (R(a) R(b) = R(a + b)) to their new slot
    "global"    keys rotated once by their global position, the query by R(t)
    "stale"     the bug: keys cached rotated by the slot they were written to and never re-rotated,
                while the query takes the last slot: after the first eviction the window keys carry
                positions that are not their slots (every key written into the full cache carries S+W-1)

"on_read", "shift" and "stale" claim the reassigned contract, "global" the global one; each is
compared with the plain recomputation of its contract (`streaming_reference`).
"""
import math

import torch

from posviz.lab.kv_cache import (
    DTYPES,
    MAX_DECODE_LENGTH,
    _check_qkv,
    allowed_error,
    attend,
    one_thread,
    per_position_error,
    random_qkv,
)
from posviz.pe.rope import ROPE_LAYOUTS, apply_rope, rope_inv_freq, rotate_pairs
from posviz.validate import PosvizError, as_tensor, check_base, check_choice, check_float, check_int

CONTRACTS = ("reassigned", "global")
STREAM_MODES = ("on_read", "shift", "global", "stale")
MODE_CONTRACT = {"on_read": "reassigned", "shift": "reassigned", "global": "global", "stale": "reassigned"}
MAX_SINKS = 16
SINK_MODES = ("correct", "ignored", "scaled")
MAX_SINK_LOGIT = 50.0


def _check_cache(sinks, window):
    """(sinks, window): 0..MAX_SINKS sink tokens, a window of 1..MAX_DECODE_LENGTH recent tokens."""
    return (check_int("sinks", sinks, 0, MAX_SINKS), check_int("window", window, 1, MAX_DECODE_LENGTH))


def kept_tokens(t, sinks, window):
    r"""The tokens a streaming cache holds when token t is decoded (t itself included), in cache order.

    Formula:
        \mathrm{kept}(t)=\{0,\dots,S-1\}\cup\{t-W+1,\dots,t\}\quad(\text{all of }0..t\text{ while }t<S+W)
    """
    t = check_int("t", t, 0, MAX_DECODE_LENGTH)
    sinks, window = _check_cache(sinks, window)
    if t < sinks + window:
        return list(range(t + 1))
    return list(range(sinks)) + list(range(t - window + 1, t + 1))


def contract_positions(t, sinks, window, contract):
    r"""(query position, [key positions]) of step t under a position contract ("reassigned" or "global").

    Formula:
        \text{reassigned: } p_q=C_t-1,\ p_{k_j}=j \qquad \text{global: } p_q=t,\ p_{k_j}=\mathrm{kept}(t)_j
    """
    check_choice("contract", contract, CONTRACTS)
    kept = kept_tokens(t, sinks, window)
    if contract == "global":
        return float(t), [float(s) for s in kept]
    return float(len(kept) - 1), [float(j) for j in range(len(kept))]


def streaming_reference(q, k, v, *, sinks, window, contract="reassigned", base=10000.0, layout="interleaved"):
    r"""The plain computation of a streaming cache: for every token t, its kept keys rotated from
    scratch by the contract's positions, one softmax -> out [N,H,L,d].

    Formula:
        \mathrm{out}_t=\sum_{j}\operatorname{softmax}_j\Big(\tfrac{(R(p_q)\,q_t)^\top R(p_{k_j})\,k_{s_j}}{\sqrt d}\Big)
            \,v_{s_j},\qquad s_j=\mathrm{kept}(t)_j

    Nothing is cached: each row rebuilds its key set, so it is the definition the caches are held to.
    """
    q, k, v, (_, _, length, _) = _check_qkv(q, k, v)
    check_base(base)
    check_choice("layout", layout, ROPE_LAYOUTS)
    sinks, window = _check_cache(sinks, window)
    outs = []
    for t in range(length):
        p_q, p_k = contract_positions(t, sinks, window, contract)
        idx = torch.tensor(kept_tokens(t, sinks, window))                   # [C]
        q_t = apply_rope(q[:, :, t:t + 1], [p_q], base=base, layout=layout)  # [N,H,1,d]
        keys = apply_rope(k[:, :, idx], p_k, base=base, layout=layout)       # [N,H,C,d]
        outs.append(attend(q_t, keys, v[:, :, idx], causal=False))          # [N,H,1,d]
    return torch.cat(outs, dim=-2)                                           # [N,H,L,d]


def streaming_decode_trace(q, k, v, *, sinks, window, mode="on_read", base=10000.0, layout="interleaved"):
    r"""Decode tokens 0..L-1 one at a time through a streaming cache of S sinks + a window of W.

    Formula:
        \text{on\_read: cache } k_s,\ \text{read } R(j)\,k_{s_j};\quad
            \text{shift: cache } R(j)\,k_s,\ \text{slide: } R(-1)R(j)=R(j-1)
        \text{stale: cache } R(j_{\text{written}})\,k_s\ \text{(never re-rotated)},\ \text{query } R(C_t-1)

    Returns (out [N,H,L,d], trace): per step {"token": t, "kept": [token of each slot],
    "read_positions": [position each key is rotated by when read], "query_position": p}. The
    positions are carried beside the cached keys through the same operations (rotations add), so
    the trace is read off the code path that produced `out`.
    """
    q, k, v, (_, _, length, d) = _check_qkv(q, k, v)
    check_base(base)
    check_choice("layout", layout, ROPE_LAYOUTS)
    check_choice("mode", mode, STREAM_MODES)
    sinks, window = _check_cache(sinks, window)
    size = sinks + window
    inv_freq = rope_inv_freq(d, base)                                        # [d/2] float32

    def rot(x, positions):                                                   # x [N,H,S,d]
        angles = torch.as_tensor(positions, dtype=torch.float32)[:, None] * inv_freq  # [S,d/2] float32
        return rotate_pairs(x, angles.cos().to(x.dtype), angles.sin().to(x.dtype), layout)  # [N,H,S,d]

    cache_k, cache_v = k[:, :, :0], v[:, :, :0]                             # [N,H,0,d] x2
    kept, carried = [], []                                                   # token and rotation of each slot
    outs, trace = [], []
    for t in range(length):
        if len(kept) == size:                                                # full: evict the oldest window token
            keep = [j for j in range(size) if j != sinks]                    # slots kept, in order
            cache_k, cache_v = cache_k[:, :, keep], cache_v[:, :, keep]      # [N,H,C-1,d] x2
            kept = [kept[j] for j in keep]
            carried = [carried[j] for j in keep]
            if mode == "shift" and window > 1:                               # the slid window keys: R(-1)
                slid = cache_k[:, :, sinks:]                                 # [N,H,W-1,d]
                cache_k = torch.cat([cache_k[:, :, :sinks], rot(slid, [-1.0] * slid.shape[-2])], dim=-2)  # [N,H,C-1,d]
                carried = carried[:sinks] + [p - 1.0 for p in carried[sinks:]]
        slot = len(kept)                                                     # where token t is written
        p_new = float(t) if mode == "global" else float(slot)
        k_t = k[:, :, t:t + 1]                                               # [N,H,1,d] un-rotated
        cache_k = torch.cat([cache_k, k_t if mode == "on_read" else rot(k_t, [p_new])], dim=-2)  # [N,H,C,d]
        cache_v = torch.cat([cache_v, v[:, :, t:t + 1]], dim=-2)             # [N,H,C,d]
        kept.append(t)
        carried.append(0.0 if mode == "on_read" else p_new)
        if mode == "on_read":
            read = [float(j) for j in range(len(kept))]
            keys = rot(cache_k, read)                                        # [N,H,C,d] each by its slot
        else:
            read, keys = list(carried), cache_k                              # [N,H,C,d]
        p_q = float(t) if mode == "global" else float(len(kept) - 1)
        q_t = rot(q[:, :, t:t + 1], [p_q])                                   # [N,H,1,d]
        outs.append(attend(q_t, keys, cache_v, causal=False))                # [N,H,1,d]
        trace.append({"token": t, "kept": list(kept), "read_positions": read, "query_position": p_q})
    return torch.cat(outs, dim=-2), trace                                    # [N,H,L,d]


def sink_score_curve(q_content, k_sink, length, sinks, window, *, base=10000.0, layout="interleaved"):
    r"""The score of the first sink token against one fixed query content, at every decode step t,
    under both contracts -> {"reassigned": [L], "global": [L]} (only the positions change).

    Formula:
        s(t)=\frac{q^\top R(p_k-p_q)\,k_0}{\sqrt d},\qquad
            p_q-p_k=\begin{cases}C_t-1 & \text{reassigned}\\ t & \text{global}\end{cases}

    q_content, k_sink: [d] (un-rotated). RoPE scores depend on the offset alone, so the curve is
    what a sink's logit does as the stream grows: constant once the cache is full (reassigned), or
    wandering through offsets never trained on (global).
    """
    q_content = as_tensor("q_content", q_content, ndim=1).float()            # [d]
    k_sink = as_tensor("k_sink", k_sink, ndim=1).float()                     # [d]
    length = check_int("length", length, 1, MAX_DECODE_LENGTH)
    sinks, window = _check_cache(sinks, window)
    d = q_content.shape[0]
    out = {}
    for contract in CONTRACTS:
        offsets = [contract_positions(t, sinks, window, contract)[0] for t in range(length)]  # p_q - p_k0 (p_k0 = 0)
        qr = apply_rope(q_content.expand(1, 1, length, d), offsets, base=base, layout=layout)  # [1,1,L,d]
        out[contract] = ((qr[0, 0] @ k_sink) / math.sqrt(d)).tolist()       # [L]
    return out


def compare_streaming(length, sinks, window, *, heads=2, head_dim=16, dtype="float32", base=10000.0,
                      layout="interleaved", seed=0, modes=STREAM_MODES):
    r"""Every streaming mode on one random q, k, v [1,H,L,d] against the plain computation of its contract.

    Formula:
        \mathrm{err}_t=\max_{h,c}\big|\mathrm{stream}_t-\mathrm{reference}_t\big|
            \;\le\;\mathrm{atol}+\mathrm{rtol}\cdot\max|\mathrm{reference}_t|

    Plain data out: errors[mode] per position, allowed (torch.testing defaults of the dtype, per
    position, against the reassigned reference), passed / first_fail per mode, first_evict (the
    first step that evicts: S + W, or None), last (query position, key positions, kept tokens of
    the last step per mode), offsets (largest offset the last query sees, per contract) and the
    sink score curves (None without sinks).
    """
    length = check_int("length", length, 1, MAX_DECODE_LENGTH)
    sinks, window = _check_cache(sinks, window)
    check_choice("dtype", dtype, DTYPES)
    for m in modes:
        check_choice("mode", m, STREAM_MODES)
    with one_thread(), torch.inference_mode():
        return _compare_streaming(length, sinks, window, heads, head_dim, dtype, base, layout, seed, modes)


def _compare_streaming(length, sinks, window, heads, head_dim, dtype, base, layout, seed, modes):
    q, k, v = random_qkv(1, heads, length, head_dim, seed=seed, dtype=dtype)  # [1,H,L,d] x3
    refs = {c: streaming_reference(q, k, v, sinks=sinks, window=window, contract=c, base=base, layout=layout)
            for c in CONTRACTS}                                               # [1,H,L,d] each
    allowed = {c: allowed_error(r, dtype) for c, r in refs.items()}           # [L] each
    first_evict = sinks + window if length > sinks + window else None
    out = {"positions": list(range(length)), "sinks": sinks, "window": window, "dtype": dtype,
           "first_evict": first_evict, "allowed": allowed["reassigned"].tolist(),
           "errors": {}, "passed": {}, "first_fail": {}, "last": {}}
    for m in modes:
        c = MODE_CONTRACT[m]
        dec, tr = streaming_decode_trace(q, k, v, sinks=sinks, window=window, mode=m, base=base, layout=layout)
        err = per_position_error(dec, refs[c])                                # [L]
        bad = (err > allowed[c]).nonzero().flatten().tolist()
        out["errors"][m] = err.tolist()
        out["passed"][m] = not bad
        out["first_fail"][m] = bad[0] if bad else None
        out["last"][m] = {"query": tr[-1]["query_position"], "keys": tr[-1]["read_positions"], "kept": tr[-1]["kept"]}
    out["max_error"] = {m: max(out["errors"][m]) for m in modes}
    out["offsets"] = {c: contract_positions(length - 1, sinks, window, c)[0] for c in CONTRACTS}
    out["scores"] = None if sinks == 0 else sink_score_curve(q[0, 0, -1].float(), k[0, 0, 0].float(), length,
                                                              sinks, window, base=base, layout=layout)
    return out


# ---------------------------------------------------------------- gpt-oss: learned sink logits
def sink_attention(q, k, v, sinks, *, mode="correct", causal=True):
    r"""Attention with one learned sink logit per head (gpt-oss): an extra column in the softmax
    denominator that has no value, so a row may give part of its attention to nothing.

    Formula:
        p_{ij}=\frac{e^{s_{ij}}}{e^{\sigma_h}+\sum_{j'}e^{s_{ij'}}},\qquad s_{ij}=\frac{q_i^\top k_j}{\sqrt d},\qquad
            \mathrm{out}_i=\sum_j p_{ij}v_j,\qquad \text{sink}_i=1-\sum_j p_{ij}

    q, k, v [N,H,L,d] (already rotated), sinks [H]. mode "correct" is the formula; "ignored" drops the
    sink (a plain softmax: an attention kernel without sink support); "scaled" divides the sink by
    sqrt(d) together with the scores (the sink is a logit, not a dot product). The softmax runs in
    float32 after subtracting each row's largest logit, as transformers' gpt_oss eager attention does.
    Returns (out [N,H,L,d], probs [N,H,L,S], sink [N,H,L] = the mass that goes nowhere).
    """
    check_choice("mode", mode, SINK_MODES)
    q, k, v, (_, h, length, d) = _check_qkv(q, k, v)
    sinks = as_tensor("sinks", sinks, ndim=1).float()                          # [H]
    if sinks.shape[0] != h:
        raise PosvizError("kv.sinks_per_head", heads=h, got=sinks.shape[0])
    for s in sinks.tolist():
        check_float("sinks", s, -MAX_SINK_LOGIT, MAX_SINK_LOGIT)
    scores = ((q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(d))).float()       # [N,H,L,S]
    if causal:
        i = torch.arange(length)[:, None]                                       # [L,1]
        j = torch.arange(k.shape[-2])[None, :]                                  # [1,S]
        scores = scores.masked_fill(j > i, float("-inf"))                       # [N,H,L,S]
    if mode == "ignored":
        probs = scores.softmax(dim=-1)                                          # [N,H,L,S]
        sink = torch.zeros(probs.shape[:-1])                                    # [N,H,L]
    else:
        sigma = sinks / math.sqrt(d) if mode == "scaled" else sinks             # [H]
        column = sigma[None, :, None, None].expand(*scores.shape[:-1], 1)       # [N,H,L,1]
        logits = torch.cat([scores, column], dim=-1)                            # [N,H,L,S+1]
        logits = logits - logits.amax(dim=-1, keepdim=True)                     # [N,H,L,S+1]
        full = logits.softmax(dim=-1)                                           # [N,H,L,S+1]
        probs, sink = full[..., :-1], full[..., -1]                             # [N,H,L,S], [N,H,L]
    out = probs.to(v.dtype) @ v                                                 # [N,H,L,d]
    return out, probs, sink


def compare_sinks(length, sink_logit, *, heads=2, head_dim=16, dtype="float32", base=10000.0,
                  layout="interleaved", seed=0):
    r"""gpt-oss sink attention on one random q, k, v [1,H,L,d] (RoPE at positions 0..L-1), every head's
    sink set to `sink_logit`: the mass each query gives to nothing, and the error of each wrong mode.

    Formula:
        \text{sink}_{h,i}=\frac{e^{\sigma}}{e^{\sigma}+\sum_{j\le i}e^{s_{h,ij}}},\qquad
            \mathrm{err}_i=\max_{h,c}\big|\mathrm{out}^{\text{mode}}_{i}-\mathrm{out}^{\text{correct}}_{i}\big|

    Plain data: positions, sink[h] per position, errors[mode] per position, allowed, max_error,
    first_fail per mode.
    """
    length = check_int("length", length, 1, MAX_DECODE_LENGTH)
    sink_logit = check_float("sink_logit", sink_logit, -MAX_SINK_LOGIT, MAX_SINK_LOGIT)
    check_choice("dtype", dtype, DTYPES)
    with one_thread(), torch.inference_mode():
        q, k, v = random_qkv(1, heads, length, head_dim, seed=seed, dtype=dtype)  # [1,H,L,d] x3
        pos = torch.arange(length)                                                # [L]
        qr = apply_rope(q, pos, base=base, layout=layout)                         # [1,H,L,d]
        kr = apply_rope(k, pos, base=base, layout=layout)                         # [1,H,L,d]
        sinks = torch.full((heads,), sink_logit)                                  # [H]
        outs = {m: sink_attention(qr, kr, v, sinks, mode=m) for m in SINK_MODES}
        ref = outs["correct"][0]                                                  # [1,H,L,d]
        allowed = allowed_error(ref, dtype)                                       # [L]
        res = {"positions": list(range(length)), "sink_logit": sink_logit, "dtype": dtype,
               "sink": outs["correct"][2][0].tolist(), "allowed": allowed.tolist(), "errors": {}, "first_fail": {}}
        for m in SINK_MODES[1:]:
            err = per_position_error(outs[m][0], ref)                             # [L]
            bad = (err > allowed).nonzero().flatten().tolist()
            res["errors"][m] = err.tolist()
            res["first_fail"][m] = bad[0] if bad else None
        res["max_error"] = {m: max(e) for m, e in res["errors"].items()}
        return res
