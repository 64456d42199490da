r"""DeBERTa's disentangled attention (He et al. 2021, *DeBERTa: Decoding-enhanced BERT with Disentangled
Attention*, arXiv:2006.03654, §3.1; the log buckets of DeBERTa-v2/v3).

Every token carries two vectors, its content H_i and (per pair) the embedding P of the relative position
δ(i, j) of the two tokens, and the score adds three products of them:

    Ã_ij = Q^c_i . K^c_j  +  Q^c_i . K^r_{δ(i,j)}  +  K^c_j . Q^r_{δ(i,j)}      (scaled by 1/sqrt(3d))
           content->content  content->position        position->content

Q^c = H W_q, K^c = H W_k, and (DeBERTa-v3, share_att_key) K^r = P W_k, Q^r = P W_q with P the table of 2k
relative-position embeddings. δ is the bucket of i - j: exact while |i - j| <= k/2, logarithmic beyond,
capped at k (`deberta_log_bucket`). The transparent computation is `deberta_terms`; the tests hold it to
transformers' DebertaV2 DisentangledSelfAttention on random weights.
"""
from __future__ import annotations

import math

import torch

from posviz.validate import MAX_DIM, MAX_HEADS, MAX_LENGTH, PosvizError, as_tensor, check_int

TERMS = ("c2c", "c2p", "p2c")
MAX_BUCKETS = 512
MAX_POSITIONS = 8192


def _buckets(bucket_size, max_position):
    k = check_int("position_buckets", bucket_size, 4, MAX_BUCKETS)
    if k % 2:
        raise PosvizError("even", name="position_buckets", got=k)
    mp = check_int("max_relative_positions", max_position, k // 2 + 2, MAX_POSITIONS)
    return k, mp


def deberta_log_bucket(relative_pos: torch.Tensor, *, bucket_size: int = 256, max_position: int = 512) -> torch.Tensor:
    r"""DeBERTa-v2's bucket of a relative position δ = i - j (elementwise, LongTensor in and out; equal to
    transformers' make_log_bucket_position).

    Formula:
        \mathrm{bucket}(\delta) = \begin{cases} \delta & |\delta| \le m \\
            \mathrm{sign}(\delta)\Big(m + \Big\lceil \frac{\ln(|\delta|/m)}{\ln((P-1)/m)}\,(m-1)\Big\rceil\Big)
            & |\delta| > m \end{cases},\qquad m = k/2

    k = bucket_size (position_buckets), P = max_position (max_relative_positions). Distances up to k/2
    keep a bucket each; farther ones share logarithmically wider buckets; |bucket| reaches k - 1 near
    |δ| = P and grows slowly past it (the index into P is clamped later).
    """
    k, mp = _buckets(bucket_size, max_position)
    rel = as_tensor("relative_pos", relative_pos).long()               # [...]
    mid = k // 2
    n = rel.abs()                                                      # [...]
    far = n.clamp_min(mid)                                             # [...] (|δ| <= m: unused)
    ratio = torch.log(far / mid) / torch.log(torch.tensor((mp - 1) / mid))  # [...] float32, as transformers
    log_pos = torch.ceil(ratio * (mid - 1)) + mid                      # [...]
    return torch.where(n <= mid, rel, torch.sign(rel) * log_pos.long())  # [...]


def deberta_relative_index(length: int, *, bucket_size: int = 256, max_position: int = 512) -> dict:
    r"""The bucket δ(i, j) of every pair of one sequence and the row of P it reads -> {"bucket": LongTensor[L,L],
    "index": LongTensor[L,L] in [0, 2k)}.

    Formula:
        \delta(i,j) = \mathrm{bucket}(i - j),\qquad \mathrm{row}(i,j) = \mathrm{clip}(\delta(i,j) + k,\ 0,\ 2k-1)
    """
    length = check_int("length", length, 1, MAX_LENGTH)
    k, mp = _buckets(bucket_size, max_position)
    pos = torch.arange(length)                                         # [L]
    bucket = deberta_log_bucket(pos[:, None] - pos[None, :], bucket_size=k, max_position=mp)  # [L,L]
    return {"bucket": bucket, "index": (bucket + k).clamp(0, 2 * k - 1)}  # [L,L] x2


def _heads(x, heads):
    """[L, H*d] -> [H, L, d]."""
    return x.reshape(x.shape[0], heads, -1).transpose(0, 1)          # [H,L,d]


def deberta_terms(h: torch.Tensor, rel_embeddings: torch.Tensor, weights: dict, *, heads: int,
                  bucket_size: int = 256, max_position: int = 512) -> dict[str, torch.Tensor]:
    r"""The three terms of DeBERTa-v3's score, each already divided by sqrt(3d) -> {"c2c", "c2p", "p2c":
    Tensor[H,L,L]}; their sum is the score before the mask and the softmax.

    Formula:
        \tilde A_{ij} = \frac{Q^c_i K^{c\top}_j + Q^c_i K^{r\top}_{\delta(i,j)}
            + K^c_j Q^{r\top}_{\delta(i,j)}}{\sqrt{3d}}
        Q^c = HW_q + b_q,\quad K^c = HW_k + b_k,\quad Q^r = PW_q + b_q,\quad K^r = PW_k + b_k

    h [L,D]; rel_embeddings P [2k, D] (row δ + k: relative position δ); weights {"w_q" [D,H*d], "b_q" [H*d],
    "w_k", "b_k"}: one projection per side, shared by contents and positions (share_att_key, as in DeBERTa-v3).
    Each query (key) is scored against all 2k rows of P once, then every pair picks the row of its bucket.
    transformers indexes the position->content term by δ(i, j) as the content->position one.
    """
    h = as_tensor("h", h, ndim=2).float()                              # [L,D]
    p = as_tensor("rel_embeddings", rel_embeddings, ndim=2).float()    # [2k,D]
    heads = check_int("heads", heads, 1, MAX_HEADS)
    k, mp = _buckets(bucket_size, max_position)
    if p.shape[0] < 2 * k or p.shape[1] != h.shape[1] or h.shape[1] % heads:
        raise PosvizError("deberta_shapes", h=list(h.shape), p=list(p.shape), k=k, heads=heads)
    wq, bq, wk, bk = (as_tensor(n, weights[n]).float() for n in ("w_q", "b_q", "w_k", "b_k"))  # [D,H*d], [H*d]
    d = wq.shape[1] // heads
    scale = math.sqrt(d * 3)
    q_c, k_c = _heads(h @ wq + bq, heads), _heads(h @ wk + bk, heads)  # [H,L,d] x2
    q_r, k_r = _heads(p[:2 * k] @ wq + bq, heads), _heads(p[:2 * k] @ wk + bk, heads)  # [H,2k,d] x2
    row = deberta_relative_index(h.shape[0], bucket_size=k, max_position=mp)["index"]  # [L,L]
    rows = row.expand(q_c.shape[0], -1, -1)                            # [H,L,L]
    c2p = (q_c @ k_r.transpose(-1, -2)).gather(-1, rows)               # [H,L,L] query i against row δ(i,j)+k of K^r
    p2c = (k_c @ q_r.transpose(-1, -2)).gather(-1, rows.transpose(-1, -2)).transpose(-1, -2)  # [H,L,L] key j, Q^r
    return {"c2c": q_c @ k_c.transpose(-1, -2) / scale, "c2p": c2p / scale, "p2c": p2c / scale}  # [H,L,L] x3


def deberta_random_weights(model_dim: int, heads: int, length: int, *, bucket_size: int, seed: int = 0) -> dict:
    """Toy weights and contents: h [L,D], P [2k,D] ~ N(0,1); w_q, w_k [D,D] ~ N(0,1/D); b_q, b_k [D] ~ N(0, 0.01)."""
    model_dim = check_int("model_dim", model_dim, 2, MAX_DIM)
    heads = check_int("heads", heads, 1, MAX_HEADS)
    length = check_int("length", length, 1, MAX_LENGTH)
    k = check_int("position_buckets", bucket_size, 4, MAX_BUCKETS)
    g = torch.Generator().manual_seed(check_int("seed", seed, 0, 2**31 - 1))
    w = torch.randn(2, model_dim, model_dim, generator=g) / model_dim ** 0.5   # [2,D,D]
    b = torch.randn(2, model_dim, generator=g) * 0.1                          # [2,D]
    return {"h": torch.randn(length, model_dim, generator=g),                 # [L,D]
            "rel_embeddings": torch.randn(2 * k, model_dim, generator=g),     # [2k,D]
            "weights": {"w_q": w[0], "b_q": b[0], "w_k": w[1], "b_k": b[1]}}
