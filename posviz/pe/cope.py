r"""Contextual position encoding, CoPE (Golovneva, Wang, Weston & Sukhbaatar 2024, *Contextual Position Encoding:
Learning to Count What's Important*, arXiv:2405.18719).

A position is not the number of tokens between query i and key j but the number of tokens that *count*,
and what counts is decided by the query: each key t gets a gate g_it = sigmoid(q_i . k_t) in (0, 1), and
the position of key j seen from query i is the sum of the gates from j to i:

    p_ij = sum_{t = j}^{i} g_it          (causal: keys after i are masked, their gates 0)

With every gate 1, p_ij = i - j + 1: plain relative positions. A head whose gate opens only on full stops
counts sentences; one whose gate opens only on a chosen word counts that word. The positions are
fractional, so CoPE interpolates between the embeddings of the integer positions floor(p) and ceil(p); the
logit added to the score is q_i . e[p_ij] (`cope_position_logits`).

posviz's gates here are set, not learned (`count_gate_logits`): a head that learned to count X has
q_i . k_t large and positive on X and large and negative elsewhere; `sharpness` is that margin.
"""
from __future__ import annotations

import torch

from posviz.validate import MAX_LENGTH, PosvizError, as_tensor, check_choice, check_float

COUNT = ("tokens", "sentences", "word")
SENTENCE_ENDS = (".", "!", "?", "。", "！", "？", "…")
TRAILING = "".join(SENTENCE_ENDS) + ",;:\"')，；：、”’）"   # stays on a word when a sentence is split at spaces
MAX_SHARPNESS = 30.0


def cope_positions(gate_logits: torch.Tensor, *, causal: bool = True) -> torch.Tensor:
    r"""CoPE's position of every key seen from every query: the sum of the gates from the key to the query
    -> Tensor[..., L, S] float32 (right-aligned queries; 0 for keys after the query).

    Formula:
        g_{it} = \sigma(q_i^\top k_t),\qquad p_{ij} = \sum_{t=j}^{i} g_{it}

    gate_logits [..., L, S] = q_i . k_t. A reversed cumulative sum: p_ij adds the gates of keys j..i.
    """
    z = as_tensor("gate_logits", gate_logits, ndim=(2, 3, 4)).float()  # [...,L,S]
    lq, s = z.shape[-2:]
    if lq > s or s > MAX_LENGTH:
        raise PosvizError("cope_shape", shape=list(z.shape))
    gates = torch.sigmoid(z)                                           # [...,L,S]
    if causal:
        i = torch.arange(s - lq, s)[:, None]                           # [L,1] query positions
        gates = gates * (torch.arange(s)[None, :] <= i)                # [...,L,S] future keys: gate 0
    return gates.flip(-1).cumsum(dim=-1).flip(-1)                      # [...,L,S]


def cope_position_logits(query: torch.Tensor, positions: torch.Tensor, pos_emb: torch.Tensor) -> torch.Tensor:
    r"""The logit CoPE adds to each score: q_i . e[p_ij], e[p] interpolated between the integer positions
    -> Tensor[..., L, S].

    Formula:
        q_i^\top e[p] = (p - \lfloor p\rfloor)\,q_i^\top e[\lceil p\rceil]
            + (1 - p + \lfloor p\rfloor)\,q_i^\top e[\lfloor p\rfloor]

    query [..., L, d]; positions [..., L, S] (clamped to the table); pos_emb [d, P]: the embedding of every
    integer position 0 .. P-1. q_i . e[n] is computed once per integer n and then interpolated.
    """
    q = as_tensor("query", query).float()                              # [...,L,d]
    e = as_tensor("pos_emb", pos_emb, ndim=2).float()                  # [d,P]
    p = as_tensor("positions", positions).float().clamp(0, e.shape[1] - 1)  # [...,L,S]
    at_int = q @ e                                                     # [...,L,P] q_i . e[n]
    lo, hi = p.floor(), p.ceil()                                       # [...,L,S] x2
    w = p - lo                                                         # [...,L,S]
    return at_int.gather(-1, hi.long()) * w + at_int.gather(-1, lo.long()) * (1 - w)  # [...,L,S]


def counted_tokens(tokens, count: str = "sentences", word: str = "") -> list[bool]:
    """Which tokens the head counts: every token, the ends of sentences (a token ending in . ! ? 。 ！ ？ …),
    or every occurrence of `word` (compared without case, with or without the punctuation a token carries at
    its end: "sat" counts "sat."). An empty word counts nothing."""
    check_choice("count", count, COUNT)
    if count == "tokens":
        return [True for _ in tokens]
    if count == "sentences":
        return [str(t).endswith(SENTENCE_ENDS) for t in tokens]
    w = str(word).strip().casefold()
    return [bool(w) and w in (str(t).casefold(), str(t).rstrip(TRAILING).casefold()) for t in tokens]


def count_gate_logits(counted, *, sharpness: float = 8.0) -> torch.Tensor:
    r"""The gate logits of a head that counts the marked tokens, the same for every query -> Tensor[L,L].

    Formula:
        q_i^\top k_t = \beta\,(2c_t - 1),\qquad c_t \in \{0, 1\}:\ \text{token } t \text{ counts}

    sharpness beta: the larger, the closer the gates sigmoid(±beta) come to 1 and 0.
    """
    c = as_tensor("counted", [bool(x) for x in counted], dtype=torch.float32, ndim=1)  # [L]
    beta = check_float("sharpness", sharpness, 0.0, MAX_SHARPNESS)
    return (beta * (2 * c - 1))[None, :].expand(c.numel(), -1).clone()  # [L,L]
