r"""Transformer-XL's relative attention (Dai et al. 2019, *Transformer-XL: Attentive Language Models Beyond a
Fixed-Length Context*, arXiv:1901.02860, §3.3), the scheme XLNet (Yang et al. 2019) kept.

A segment of L new tokens attends to S = M + L keys: a memory of the M previous tokens and itself. The
query at row r sits at position i = M + r, the key at column j at position j (right-aligned, as everywhere
in posviz.pe.relative). The score splits into four terms; the absolute position of neither token enters,
only the sinusoidal encoding R_{i-j} of their distance:

    A_ij = (a) q_i . k_j                content-content   q_i = W_q E_i,  k_j = W_{k,E} E_j
         + (b) q_i . W_{k,R} R_{i-j}    content-position
         + (c) u . k_j                  a global content bias (the same u for every query)
         + (d) v . W_{k,R} R_{i-j}      a global position bias (the same v for every query)

XLNet's code (transformers' XLNetRelativeAttention.rel_attn_core) computes (a)+(c) as (q + u) . k and
(b)+(d) as (q + v) . W_{k,R} R, with u = r_w_bias and v = r_r_bias; the tests hold these functions to it.

Computing (b) pair by pair gathers an [L,S,d] tensor of position keys. The *relative shift* instead projects
each distance once (an [S,d] table), multiplies all queries by all distances and slides row r left by
L - 1 - r places with a pad-and-reshape: `rel_shift`. Its price is the upper triangle, which holds the
pad and numbers of the next row: only a causal mask makes the trick exact (`rel_shift_costs`).
"""
from __future__ import annotations

import torch

from posviz.validate import MAX_DIM, MAX_HEADS, PosvizError, as_tensor, check_even, check_int

TERMS = ("cc", "cp", "gc", "gp")        # (a) content-content, (b) content-position, (c) u . k, (d) v . W R
MAX_SEGMENT = 256
MAX_MEMORY = 256
MAX_XL_DIM = 256


def _lengths(segment_length, memory_length):
    """(L, M, S = M + L) checked."""
    lq = check_int("segment_length", segment_length, 1, MAX_SEGMENT)
    m = check_int("memory_length", memory_length, 0, MAX_MEMORY)
    return lq, m, lq + m


def xl_distances(segment_length: int, memory_length: int = 0) -> torch.Tensor:
    r"""The distance i - j of every query (row r, position i = M + r) to every key j -> LongTensor[L,S].

    Formula:
        D_{rj} = (M + r) - j,\qquad r = 0..L-1,\ j = 0..M+L-1
    """
    lq, m, s = _lengths(segment_length, memory_length)
    i = torch.arange(m, m + lq)                                      # [L] query positions
    j = torch.arange(s)                                              # [S] key positions
    return i[:, None] - j[None, :]                                   # [L,S]


def xl_relative_encoding(distances: torch.Tensor, model_dim: int) -> torch.Tensor:
    r"""The sinusoid R_d of each distance d, sines then cosines (Transformer-XL's and XLNet's
    positional_embedding) -> Tensor[..., D] float32.

    Formula:
        R_d = [\sin(d\,\omega_0),\ldots,\sin(d\,\omega_{D/2-1}),\ \cos(d\,\omega_0),\ldots,\cos(d\,\omega_{D/2-1})],
            \quad \omega_k = 10000^{-2k/D}
    """
    model_dim = check_even("model_dim", model_dim, 2, MAX_DIM)
    d = as_tensor("distances", distances).to(torch.float32)           # [...]
    inv_freq = 1.0 / torch.pow(10000.0, torch.arange(0, model_dim, 2).float() / model_dim)  # [D/2]
    angles = d[..., None] * inv_freq                                  # [...,D/2]
    return torch.cat([angles.sin(), angles.cos()], dim=-1)            # [...,D]


def _weights(h, w_q, w_ke, w_kr, u, v):
    """Shapes: h [S,D]; w_q, w_ke, w_kr [D,H,d]; u, v [H,d]."""
    h = as_tensor("h", h, ndim=2).float()                             # [S,D]
    w_q, w_ke, w_kr = (as_tensor(n, w, ndim=3).float() for n, w in (("w_q", w_q), ("w_ke", w_ke), ("w_kr", w_kr)))
    u, v = as_tensor("u", u, ndim=2).float(), as_tensor("v", v, ndim=2).float()  # [H,d] x2
    want = (h.shape[1], u.shape[0], u.shape[1])
    if any(tuple(w.shape) != want for w in (w_q, w_ke, w_kr)) or v.shape != u.shape:
        raise PosvizError("xl_shapes", h=list(h.shape), w=[list(w.shape) for w in (w_q, w_ke, w_kr)],
                          u=list(u.shape), v=list(v.shape))
    check_int("heads", want[1], 1, MAX_HEADS)
    return h, w_q, w_ke, w_kr, u, v


def xl_terms(h: torch.Tensor, *, memory_length: int, w_q: torch.Tensor, w_ke: torch.Tensor, w_kr: torch.Tensor,
             u: torch.Tensor, v: torch.Tensor) -> dict[str, torch.Tensor]:
    r"""The four terms of Transformer-XL's score for every head, query and key, pair by pair (the
    transparent version: each pair's R_{i-j} is gathered) -> {term: Tensor[H,L,S]}, unscaled.

    Formula:
        A^{\mathrm{rel}}_{ij} = \underbrace{E_i^\top W_q^\top W_{k,E} E_j}_{(a)}
            + \underbrace{E_i^\top W_q^\top W_{k,R} R_{i-j}}_{(b)}
            + \underbrace{u^\top W_{k,E} E_j}_{(c)} + \underbrace{v^\top W_{k,R} R_{i-j}}_{(d)}

    h [S,D] holds the memory's M rows, then the segment's L rows (the queries); w_q, w_ke, w_kr [D,H,d];
    u, v [H,d]. The attention score is the sum of the terms kept, times 1/sqrt(d).
    """
    h, w_q, w_ke, w_kr, u, v = _weights(h, w_q, w_ke, w_kr, u, v)
    m = check_int("memory_length", memory_length, 0, h.shape[0] - 1)
    dist = xl_distances(h.shape[0] - m, m)                              # [L,S]
    r = xl_relative_encoding(dist, h.shape[1])                          # [L,S,D] R_{i-j} of every pair
    q = torch.einsum("lD,Dhd->hld", h[m:], w_q)                         # [H,L,d]
    k = torch.einsum("sD,Dhd->hsd", h, w_ke)                            # [H,S,d]
    k_r = torch.einsum("lsD,Dhd->hlsd", r, w_kr)                        # [H,L,S,d] the gathered position keys
    return {"cc": torch.einsum("hld,hsd->hls", q, k),                   # [H,L,S] (a)
            "cp": torch.einsum("hld,hlsd->hls", q, k_r),                # [H,L,S] (b)
            "gc": torch.einsum("hd,hsd->hs", u, k)[:, None, :].expand(-1, q.shape[1], -1),  # [H,L,S] (c)
            "gp": torch.einsum("hd,hlsd->hls", v, k_r)}                 # [H,L,S] (d)


def xl_score(terms: dict[str, torch.Tensor], keep=TERMS, *, head_dim: int, causal: bool = True) -> torch.Tensor:
    r"""The score with only the terms in `keep`, scaled, the future masked (causal) -> Tensor[H,L,S].

    Formula:
        \mathrm{score}_{ij} = \frac{1}{\sqrt d}\sum_{t\,\in\,\text{keep}} A^{(t)}_{ij},
            \qquad -\infty \text{ where } j > i \ (\text{causal})
    """
    for t in keep:
        if t not in TERMS:
            raise PosvizError("choice", name="term", choices=", ".join(TERMS), got=repr(t))
    head_dim = check_int("head_dim", head_dim, 1, MAX_DIM)
    first = terms[TERMS[0]]                                             # [H,L,S]
    total = torch.zeros_like(first)                                     # [H,L,S]
    for t in keep:
        total = total + terms[t]                                        # [H,L,S]
    total = total / head_dim ** 0.5                                     # [H,L,S]
    if causal:
        lq, s = first.shape[-2:]
        future = xl_distances(lq, s - lq) < 0                           # [L,S]
        total = total.masked_fill(future, float("-inf"))                # [H,L,S]
    return total


def rel_shift(x: torch.Tensor) -> torch.Tensor:
    r"""Transformer-XL's relative shift: x[..., r, c] scores query r against distance S - 1 - c; the result
    scores it against key j. Pad one zero column, read the [L, S+1] block as [S+1, L], drop its first row,
    read it back as [L, S] -> Tensor[..., L, S].

    Formula:
        \mathrm{out}_{rj} = x_{r,\ j + L - 1 - r}\quad (j \le M + r),\qquad
            \text{else the pad } (j = M+r+1) \text{ or numbers of row } r+1

    Exact where the key is at or before the query; the upper triangle holds the pad and the next row's
    numbers, which a causal mask hides. No gather and no [L,S,d] tensor: one copy of L (S + 1) numbers.
    """
    x = as_tensor("x", x)                                               # [...,L,S]
    if x.dim() < 2 or x.shape[-1] < x.shape[-2]:
        raise PosvizError("xl_shift_shape", shape=list(x.shape))
    lq, s = x.shape[-2:]
    pad = x.new_zeros(*x.shape[:-1], 1)                                 # [...,L,1]
    padded = torch.cat([pad, x], dim=-1)                                # [...,L,S+1]
    padded = padded.reshape(*x.shape[:-2], s + 1, lq)                   # [...,S+1,L] the same numbers, re-read
    return padded[..., 1:, :].reshape(*x.shape[:-2], lq, s)             # [...,L,S]


def xl_position_scores(h: torch.Tensor, *, memory_length: int, w_q: torch.Tensor, w_kr: torch.Tensor,
                       v: torch.Tensor) -> dict[str, torch.Tensor]:
    r"""Terms (b) + (d) the fast way: project the S distances S-1 .. 0 once, one matmul, `rel_shift`
    -> {"raw": Tensor[H,L,S] (column c: distance S-1-c), "shifted": Tensor[H,L,S] (column j: key j)}.

    Formula:
        B_{rc} = (q_r + v)^\top W_{k,R} R_{S-1-c},\qquad (b)+(d) = \mathrm{rel\_shift}(B)
    """
    h = as_tensor("h", h, ndim=2).float()                               # [S,D]
    m = check_int("memory_length", memory_length, 0, h.shape[0] - 1)
    s = h.shape[0]
    r = xl_relative_encoding(torch.arange(s - 1, -1, -1), h.shape[1])  # [S,D] distances S-1 .. 0
    k_r = torch.einsum("sD,Dhd->hsd", r, as_tensor("w_kr", w_kr).float())  # [H,S,d] one row per distance
    q = torch.einsum("lD,Dhd->hld", h[m:], as_tensor("w_q", w_q).float())  # [H,L,d]
    raw = torch.einsum("hld,hsd->hls", q + as_tensor("v", v).float()[:, None, :], k_r)  # [H,L,S]
    return {"raw": raw, "shifted": rel_shift(raw)}                      # [H,L,S] x2


def rel_shift_costs(segment_length: int, memory_length: int, head_dim: int) -> dict[str, int]:
    r"""What term (b) costs one head, pair by pair against the relative shift (numbers of floats).

    Formula:
        \text{gathered keys: } L\,S\,d \;\to\; S\,d,\qquad \text{multiply-adds: } L\,S\,d \text{ both},
            \qquad \text{garbage cells: } L(L-1)/2

    Returns {"gather_keys": L*S*d, "shift_keys": S*d, "madds": L*S*d, "shift_copy": L*(S+1),
    "junk": L(L-1)/2 cells above the diagonal (a pad or the next row's numbers), "bidir_keys": (S+L)*d
    (XLNet's bidirectional variant projects L more distances and has no junk)}.
    """
    lq, _, s = _lengths(segment_length, memory_length)
    d = check_even("head_dim", head_dim, 2, MAX_DIM)
    return {"gather_keys": lq * s * d, "shift_keys": s * d, "madds": lq * s * d, "shift_copy": lq * (s + 1),
            "junk": lq * (lq - 1) // 2, "bidir_keys": (s + lq) * d}


def xl_random_weights(model_dim: int, heads: int, head_dim: int, length: int, *, seed: int = 0) -> dict:
    """Toy weights and contents for one layer: h [S,D] ~ N(0,1); w_q, w_ke, w_kr [D,H,d] ~ N(0, 1/D);
    u, v [H,d] ~ N(0,1) -> dict of tensors (float32)."""
    model_dim = check_even("model_dim", model_dim, 2, MAX_XL_DIM)
    heads = check_int("heads", heads, 1, 8)
    head_dim = check_even("head_dim", head_dim, 2, MAX_XL_DIM)
    length = check_int("length", length, 1, MAX_SEGMENT + MAX_MEMORY)
    g = torch.Generator().manual_seed(check_int("seed", seed, 0, 2**31 - 1))
    w = torch.randn(3, model_dim, heads, head_dim, generator=g) / model_dim ** 0.5  # [3,D,H,d]
    return {"h": torch.randn(length, model_dim, generator=g),                      # [S,D]
            "w_q": w[0], "w_ke": w[1], "w_kr": w[2],                               # [D,H,d] x3
            "u": torch.randn(heads, head_dim, generator=g),                        # [H,d]
            "v": torch.randn(heads, head_dim, generator=g)}                        # [H,d]
