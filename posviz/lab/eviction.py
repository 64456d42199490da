r"""Keys evicted from the middle of a KV cache (H2O, Zhang et al. 2023, arXiv:2306.14048; SnapKV, Li et al.
2024, arXiv:2404.14469): what happens to the positions of the keys that stay.

A prompt of P tokens is prefilled (positions 0..P-1, nothing evicted yet); then a set E of prompt tokens is
dropped from the cache and tokens P, P+1, ... are decoded one at a time. Three position contracts:

    "keep"         every kept key keeps the position it was rotated by (caches store keys after RoPE), and
                   the new token t is at position t: the scores are the full forward's with E masked out
                   (SnapKV's code, kvpress's presses: their position counter keeps the original length)
    "renumber"     the kept keys are re-rotated to their new slots 0..C-1, and token t gets position t - |E|:
                   every key older than an evicted one moves closer to the query (StreamingLLM, H2O's
                   "positional rolling" in llama-recipes, kvpress's KeyRerotationPress)
    "cache_count"  the bug: the kept keys keep their positions, but the new token takes its position from
                   the cache's length, t - |E| (what a generate loop does that counts the cache to find the
                   next position): query and keys count differently

Even "keep" differs from the full forward (the evicted tokens' values are gone); it equals the full forward
with E masked, the best an eviction can do. The errors of the other two add what their positions cost.
"""
import torch

from posviz.lab.kv_cache import (
    _check_qkv,
    attend,
    full_causal_rope_attention,
    one_thread,
    per_position_error,
    random_qkv,
)
from posviz.pe.rope import apply_rope
from posviz.validate import PosvizError, check_choice, check_int

EVICT_MODES = ("keep", "renumber", "cache_count")
POLICIES = ("span", "h2o")
MAX_PROMPT = 128
MAX_DECODE = 64


def h2o_scores(q, k, prompt_length):
    r"""H2O's score of every prompt key: the attention it received during the prefill, summed over heads and
    queries (rotated q, k at positions 0..P-1, causal) -> Tensor[P].

    Formula:
        s_j = \sum_{h}\sum_{i \ge j} \operatorname{softmax}_j\Big(\frac{q_i^\top k_j}{\sqrt d}\Big)
    """
    q, k, _, _ = _check_qkv(q, k, k)
    p = check_int("prompt_length", prompt_length, 1, q.shape[-2])
    pos = torch.arange(p)                                                  # [P]
    qr = apply_rope(q[:, :, :p], pos)                                      # [N,H,P,d]
    kr = apply_rope(k[:, :, :p], pos)                                      # [N,H,P,d]
    eye = torch.eye(p)[None, None].expand(*qr.shape[:2], p, p)             # [N,H,P,P] probabilities as "values"
    probs = attend(qr, kr, eye.to(qr.dtype), causal=True)                  # [N,H,P,P] row i: softmax over keys
    return probs.float().sum(dim=(0, 1, 2))                                # [P]


def evicted_tokens(prompt_length, span, policy="span", *, scores=None, recent=None):
    r"""The prompt tokens a policy drops: "span" the tokens a..b-1 of span = (a, b); "h2o" as many tokens
    (b - a) with the lowest H2O score, never one of the `recent` last tokens (default P // 4) -> sorted list.

    Formula:
        E_{\text{span}} = \{a, \ldots, b-1\},\qquad
            E_{\text{H2O}} = \operatorname{argmin}_{|E| = b - a,\ E \subset [0,\,P - w)}\ \sum_{j \in E} s_j
    """
    p = check_int("prompt_length", prompt_length, 2, MAX_PROMPT)
    a = check_int("span start", span[0], 0, p - 1)
    b = check_int("span end", span[1], a, p - 1)
    check_choice("policy", policy, POLICIES)
    if policy == "span":
        return list(range(a, b))
    if scores is None:
        raise PosvizError("evict_scores")
    w = p // 4 if recent is None else check_int("recent", recent, 1, p)
    candidates = torch.as_tensor(scores, dtype=torch.float64)[: p - w]    # [P-w]
    n = min(b - a, candidates.numel())
    return sorted(torch.argsort(candidates, stable=True)[:n].tolist())


def eviction_positions(t, prompt_length, evicted, mode):
    r"""Decoding token t after the eviction: the tokens the cache holds, the position each key is rotated by
    and the query's position -> (kept [C], key positions [C], query position).

    Formula:
        \text{keep: } p_q = t,\ p_{k_s} = s\qquad
            \text{renumber: } p_q = t - |E|,\ p_{k} = 0..C-1\qquad
            \text{cache\_count: } p_q = t - |E|,\ p_{k_s} = s\ (s < P),\ s - |E|\ (s \ge P)
    """
    check_choice("mode", mode, EVICT_MODES)
    gone = set(evicted)
    kept = [s for s in range(t + 1) if s >= prompt_length or s not in gone]
    n = len(gone)
    if mode == "keep":
        return kept, [float(s) for s in kept], float(t)
    if mode == "renumber":
        return kept, [float(j) for j in range(len(kept))], float(t - n)
    return kept, [float(s if s < prompt_length else s - n) for s in kept], float(t - n)


def evicted_decode(q, k, v, *, prompt_length, evicted, mode):
    r"""Prefill the prompt, evict, decode: each decode step's query against the kept keys, rotated by the
    mode's positions (recomputed from scratch each step: the contract itself) -> out [N,H,L,d].

    Formula:
        \mathrm{out}_t = \sum_{s \in \mathrm{kept}(t)} \operatorname{softmax}_s
            \Big(\frac{(R(p_q)\,q_t)^\top R(p_{k_s})\,k_s}{\sqrt d}\Big)\,v_s
    """
    q, k, v, (_, _, length, _) = _check_qkv(q, k, v)
    p = check_int("prompt_length", prompt_length, 1, length)
    pos = torch.arange(p)                                                  # [P]
    outs = [attend(apply_rope(q[:, :, :p], pos), apply_rope(k[:, :, :p], pos), v[:, :, :p], causal=True)]  # [N,H,P,d]
    for t in range(p, length):
        kept, p_k, p_q = eviction_positions(t, p, evicted, mode)
        idx = torch.tensor(kept)                                           # [C]
        q_t = apply_rope(q[:, :, t:t + 1], [p_q])                          # [N,H,1,d]
        keys = apply_rope(k[:, :, idx], p_k)                               # [N,H,C,d]
        outs.append(attend(q_t, keys, v[:, :, idx], causal=False))        # [N,H,1,d]
    return torch.cat(outs, dim=-2)                                         # [N,H,L,d]


def compare_eviction(prompt_length, decode_steps, span, *, policy="span", heads=2, head_dim=16, seed=0):
    r"""Every mode on one random q, k, v [1,H,P+T,d] (float32) against the full forward (no eviction) and
    against the full forward with the evicted keys masked (what eviction alone costs).

    Formula:
        \mathrm{err}_t = \max_{h,c}\big|\mathrm{out}^{\text{mode}}_t - \mathrm{full}_t\big|,\qquad
            \mathrm{pos}_t = \max_{h,c}\big|\mathrm{out}^{\text{mode}}_t - \mathrm{out}^{\text{keep}}_t\big|

    Plain data: positions [P+T], evicted, errors[mode] (vs the full forward), position_errors[mode] (vs
    "keep" = the masked full forward), max_error / max_position_error per mode (decoded positions), and
    last[mode] = (query position, key positions, kept tokens) of the last step.
    """
    p = check_int("prompt_length", prompt_length, 2, MAX_PROMPT)
    steps = check_int("decode_steps", decode_steps, 1, MAX_DECODE)
    with one_thread(), torch.inference_mode():
        q, k, v = random_qkv(1, heads, p + steps, head_dim, seed=seed)    # [1,H,P+T,d] x3
        scores = h2o_scores(q, k, p) if policy == "h2o" else None
        evicted = evicted_tokens(p, span, policy, scores=scores)
        full = full_causal_rope_attention(q, k, v)                         # [1,H,P+T,d]
        outs = {m: evicted_decode(q, k, v, prompt_length=p, evicted=evicted, mode=m) for m in EVICT_MODES}
        res = {"positions": list(range(p + steps)), "prompt_length": p, "evicted": evicted,
               "scores": None if scores is None else scores.tolist(), "errors": {}, "position_errors": {}, "last": {}}
        for m, out in outs.items():
            res["errors"][m] = per_position_error(out, full).tolist()
            res["position_errors"][m] = per_position_error(out, outs["keep"]).tolist()
            kept, p_k, p_q = eviction_positions(p + steps - 1, p, evicted, m)
            res["last"][m] = {"query": p_q, "keys": p_k, "kept": kept}
        res["max_error"] = {m: max(e[p:]) for m, e in res["errors"].items()}
        res["max_position_error"] = {m: max(e[p:]) for m, e in res["position_errors"].items()}
        return res
