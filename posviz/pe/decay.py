r"""Long-term decay of RoPE (RoFormer, Su et al. 2021 §3.4.3; “Position encodings” "RoPE", third point).

Write a head's d dimensions as d/2 complex numbers (pairs (2i, 2i+1), interleaved).
A query at position m and a key at position n = m - r (r tokens earlier) score

    s(r) = (R(m theta) q) . (R(n theta) k) = q^T R(-r theta) k
         = sum_i [ a_i cos(r theta_i) + b_i sin(r theta_i) ],
    a_i = q_{2i} k_{2i} + q_{2i+1} k_{2i+1},   b_i = q_{2i} k_{2i+1} - q_{2i+1} k_{2i},
    theta_i = base^{-2i/d}.

RoFormer bounds the position-dependent part with Abel summation:

    |s(r)| <= (max_i |h_{i+1} - h_i|) * sum_{j=1}^{d/2} |S_j|,   S_j = sum_{k=0}^{j-1} e^{i r theta_k}

and plots the "relative upper bound" (1/(d/2)) sum_j |S_j|, which shrinks (with ripples) as
r grows. It is a bound on a worst case, not a promise about any given q, k: a single pair
scores cos(r theta_i) and oscillates forever, and content (a_i, b_i) dominates
(“Position encodings”: "long-term decay is an inductive bias, not a guarantee").

Conventions of this module
- distances r >= 0: the key sits r tokens before the query (r = query - key position, as
  posviz.pe.relative.relative_distance). Every curve is symmetric or statistically symmetric in r.
- `distances` is either an int R (meaning r = 0..R) or a 1-D integer tensor of distances
  (a decimated grid from `distance_grid`, so figures at R = 131072 stay cheap).
- theta comes from posviz.pe.rope.rope_inv_freq (float32, as models store inv_freq);
  every product and sum after that is float64. Outputs are float64.
- Formulas live in the `Formula:` section of the function that implements them; bad input raises
  posviz.validate.PosvizError.
- Normalisation for shared axes (posviz.views.decay): RoPE curves are divided by their value at r = 0
  (bound / (d/4 + 1/2); q=k=1 score / d; random scores / (|q| |k|)); the sinusoidal dot
  product by D/2; ALiBi's bias -m r is added to a content score of 1 (see `normalised_alibi`).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import torch

from posviz.pe.relative import alibi_slopes
from posviz.pe.rope import rope_inv_freq
from posviz.pe.sinusoidal import sinusoidal_frequencies
from posviz.validate import MAX_DIM, PosvizError, as_tensor, check_even, check_float, check_int

MAX_DISTANCE = 131072     # 2^17 = 128K tokens (Llama 3.1 / Qwen2.5 long context)
MAX_SAMPLES = 1024        # random q/k pairs averaged
MAX_ALIBI_HEADS = 64
_CHUNK = 1 << 20          # elements per [P, d/2] block: bounded memory at any R

# distances: an int R (meaning 0..R) or a 1-D integer sequence / tensor of them (checked by _distances)
Distances = int | Sequence[int] | torch.Tensor


# ---------------------------------------------------------------- helpers
def _distances(distances):
    """int R -> arange(R+1); a 1-D integer tensor/sequence -> int64 tensor, checked."""
    if isinstance(distances, torch.Tensor) and distances.ndim == 0:
        distances = distances.item()
    if not (isinstance(distances, (list, tuple, torch.Tensor)) or getattr(distances, "ndim", 0) >= 1):
        r_max = check_int("max_distance", distances, 0, MAX_DISTANCE)
        return torch.arange(r_max + 1, dtype=torch.int64)                # [R+1]
    r = as_tensor("distances", distances)                                # [P]
    if r.ndim != 1 or r.numel() == 0 or r.dtype.is_floating_point or r.dtype.is_complex or r.dtype == torch.bool:
        raise PosvizError("decay_distances", got=f"{r.dtype} {list(r.shape)}")
    if r.numel() > MAX_DISTANCE + 1 or int(r.min()) < 0 or int(r.max()) > MAX_DISTANCE:
        raise PosvizError("decay_distances_range", n=MAX_DISTANCE + 1, hi=MAX_DISTANCE,
                          got=f"{r.numel()} values in [{int(r.min())}, {int(r.max())}]")
    return r.to(torch.int64)                                             # [P]


def _theta(head_dim, base):
    """theta_i = base^{-2i/d} from posviz.pe.rope (float32 like models), as float64 -> [d/2]."""
    return rope_inv_freq(head_dim, base).to(torch.float64)              # [d/2]


def _blocks(r, width):
    """Split distances r [P] into blocks of rows so that rows * width <= _CHUNK."""
    rows = max(1, _CHUNK // max(1, width))
    return torch.split(r, rows)


def distance_grid(max_distance: int, *, points: int = 2001, log: bool = False) -> torch.Tensor:
    """The distances a figure shows -> LongTensor[P], P <= points, always holds 0 and R.

    Every r in 0..R when R + 1 <= points; else `points` evenly spaced integers (log=False)
    or 0 plus integers evenly spaced in log r between 1 and R (log=True, for a log x-axis).
    """
    r_max = check_int("max_distance", max_distance, 0, MAX_DISTANCE)
    points = check_int("points", points, 2, MAX_DISTANCE + 1)
    if r_max + 1 <= points:
        return torch.arange(r_max + 1, dtype=torch.int64)                # [R+1]
    if log:
        g = torch.logspace(0, math.log10(r_max), points - 1, dtype=torch.float64)  # [points-1]
        g = torch.cat([torch.zeros(1, dtype=torch.float64), g])         # [points]
    else:
        g = torch.linspace(0, r_max, points, dtype=torch.float64)       # [points]
    return torch.unique(g.round().to(torch.int64))                      # [P] sorted


# ---------------------------------------------------------------- RoFormer bound
def roformer_decay_bound_at(head_dim: int, distances: Distances, *, base: float = 10000.0) -> torch.Tensor:
    r"""RoFormer's relative upper bound at the given distances -> Tensor[P] float64.

    Formula:
        |s(r)| \le \max_i |h_{i+1}-h_i| \sum_{j=1}^{d/2} |S_j(r)|,\quad
            S_j(r) = \sum_{k=0}^{j-1} e^{\,i r\theta_k},\quad \theta_k = \mathrm{base}^{-2k/d}
        B(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}|S_j(r)|,\qquad B(0) = \frac{d}{4}+\frac12

    B(0) = d/4 + 1/2 (|S_j| = j), e.g. 32.5 for d = 128.
    """
    head_dim = check_even("head_dim", head_dim, 2, MAX_DIM)
    theta = _theta(head_dim, base)                                       # [d/2]
    r = _distances(distances)                                            # [P]
    out = []
    for rb in _blocks(r, theta.numel()):
        ang = rb.to(torch.float64)[:, None] * theta[None, :]             # [p,d/2]
        s_re = torch.cumsum(torch.cos(ang), dim=1)                       # [p,d/2] Re S_j
        s_im = torch.cumsum(torch.sin(ang), dim=1)                       # [p,d/2] Im S_j
        out.append(torch.hypot(s_re, s_im).mean(dim=1))                  # [p]
    return torch.cat(out)                                                # [P]


def roformer_decay_bound(head_dim: int, max_distance: int, *, base: float = 10000.0) -> torch.Tensor:
    r"""(1/(d/2)) \sum_{j=1}^{d/2} |S_j|,  S_j = \sum_{k<j} e^{i r \theta_k},  r = 0..max_distance
    -> Tensor[max_distance+1] float64 (RoFormer §3.4.3, Figure 2)."""
    max_distance = check_int("max_distance", max_distance, 0, MAX_DISTANCE)
    return roformer_decay_bound_at(head_dim, max_distance, base=base)   # [R+1]


# ---------------------------------------------------------------- scores vs distance
def rope_score_curve(q: torch.Tensor, k: torch.Tensor, distances: Distances, *, base: float = 10000.0) -> torch.Tensor:
    r"""RoPE score of content q, k (interleaved pairs) with the key r tokens before the query.

    Formula:
        s(r) = (R_{m}q)^{\top}(R_{m-r}k) = \sum_{i=0}^{d/2-1} a_i\cos(r\theta_i) + b_i\sin(r\theta_i),
            \quad \theta_i = \mathrm{base}^{-2i/d}
        a_i = q_{2i}k_{2i} + q_{2i+1}k_{2i+1},\quad b_i = q_{2i}k_{2i+1} - q_{2i+1}k_{2i}

    q, k: [..., d] (same shape) -> Tensor[..., P] float64. Equals
    apply_rope(q, [m]) . apply_rope(k, [m - r]) for every m (only r survives).
    """
    q, k = as_tensor("q", q), as_tensor("k", k)                          # [...,d] x2
    if q.shape != k.shape or q.ndim < 1:
        raise PosvizError("decay_qk_shape", q=list(q.shape), k=list(k.shape))
    head_dim = check_even("head_dim (q.shape[-1])", q.shape[-1], 2, MAX_DIM)
    theta = _theta(head_dim, base)                                       # [d/2]
    r = _distances(distances)                                            # [P]
    q, k = q.to(torch.float64), k.to(torch.float64)                      # [...,d] x2
    if not (torch.isfinite(q).all() and torch.isfinite(k).all()):
        raise PosvizError("finite", name="q and k", got="a non-finite entry")
    return torch.cat(list(_score_blocks(q, k, theta, r)), dim=-1)        # [...,P]


def _score_blocks(q, k, theta, r):
    """s(r) of rope_score_curve, one block of distances at a time -> yields [..., p]."""
    a = q[..., 0::2] * k[..., 0::2] + q[..., 1::2] * k[..., 1::2]        # [...,d/2]
    b = q[..., 0::2] * k[..., 1::2] - q[..., 1::2] * k[..., 0::2]        # [...,d/2]
    rows = a.numel() // a.shape[-1]
    for rb in _blocks(r, max(theta.numel(), rows)):
        ang = rb.to(torch.float64)[:, None] * theta[None, :]             # [p,d/2]
        yield a @ torch.cos(ang).T + b @ torch.sin(ang).T                # [...,p]


def ones_score_curve(head_dim: int, distances: Distances, *, base: float = 10000.0) -> torch.Tensor:
    r"""Score of q = k = (1, ..., 1): a_i = 2, b_i = 0, so s(r) = sum_i 2 cos(r theta_i)
    -> Tensor[P] float64; s(0) = d. (Divided by d: the mean of cos(r theta_i).)

    Formula:
        q=k=(1,\dots,1):\quad s(r) = \sum_{i} 2\cos(r\theta_i),\quad s(0) = d
    """
    head_dim = check_even("head_dim", head_dim, 2, MAX_DIM)
    ones = torch.ones(head_dim, dtype=torch.float64)                     # [d]
    return rope_score_curve(ones, ones, distances, base=base)            # [P]


def pair_oscillation(head_dim: int, distances: Distances, pair: int, *, base: float = 10000.0) -> torch.Tensor:
    r"""One frequency pair with q = k = (1, 0) in pair i: s(r) = cos(r theta_i) -> Tensor[P] float64.

    Formula:
        q=k=(1,0)\ \text{in pair } i:\quad s(r) = \cos(r\,\theta_i);\qquad d=2,\ m=2,\ n=5:\ s = \cos 3\theta

    The example of “Position encodings”: d = 2, q = k = (1, 0), m = 2, n = 5 scores cos(3 theta) -- it
    oscillates with distance and never decays.
    """
    head_dim = check_even("head_dim", head_dim, 2, MAX_DIM)
    pair = check_int("pair", pair, 0, head_dim // 2 - 1)
    theta = _theta(head_dim, base)[pair]                                 # []
    r = _distances(distances)                                            # [P]
    return torch.cos(r.to(torch.float64) * theta)                        # [P]


class ScoreBand(NamedTuple):
    """Normalised RoPE scores of random q, k pairs: mean, std over the pairs, and pair 0."""
    mean: torch.Tensor      # [P]
    std: torch.Tensor       # [P]
    example: torch.Tensor   # [P]


def random_score_band(head_dim: int, distances: Distances, *, base: float = 10000.0, n_samples: int = 64,
                      correlation: float = 1.0, seed: int = 0) -> ScoreBand:
    r"""Random content: q ~ N(0, I_d), k = rho q + sqrt(1 - rho^2) z, z ~ N(0, I_d) (seeded).

    Formula:
        q\sim\mathcal N(0,I_d),\ k = \rho\,q + \sqrt{1-\rho^2}\,z,\quad
            c(r) = \frac{s(r)}{|q|\,|k|}\in[-1,1]
        \rho=1:\ \mathbb E[c(r)] = \frac{1}{d/2}\sum_i \cos(r\theta_i),\qquad \rho=0:\ \mathbb E[c(r)] = 0

    Each pair's score is normalised by |q||k| (rotations keep norms, so it lies in [-1, 1]):
        c(r) = s(r) / (|q| |k|)
    rho = 1 (same content, q = k):  E[c(r)] = mean_i cos(r theta_i), the q=k=1 curve / d.
    rho = 0 (independent content):  E[c(r)] = 0 at every r; only the spread remains.
    Returns ScoreBand(mean, std (population), example = the first pair), each Tensor[P] float64.
    """
    head_dim = check_even("head_dim", head_dim, 2, MAX_DIM)
    n_samples = check_int("n_samples", n_samples, 1, MAX_SAMPLES)
    rho = check_float("correlation", correlation, -1.0, 1.0)
    seed = check_int("seed", seed, 0, 2**31 - 1)
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(n_samples, head_dim, dtype=torch.float64, generator=g)   # [n,d]
    z = torch.randn(n_samples, head_dim, dtype=torch.float64, generator=g)   # [n,d]
    k = rho * q + math.sqrt(max(0.0, 1.0 - rho * rho)) * z                   # [n,d]
    norm = q.norm(dim=-1) * k.norm(dim=-1)                                   # [n]
    theta = _theta(head_dim, base)                                           # [d/2]
    r = _distances(distances)                                                # [P]
    mean, std, example = [], [], []
    for s in _score_blocks(q, k, theta, r):                                  # [n,p] blocks
        c = s / norm[:, None]                                                # [n,p] in [-1,1]
        mean.append(c.mean(dim=0))                                           # [p]
        std.append(c.std(dim=0, correction=0))                               # [p]
        example.append(c[0])                                                 # [p]
    return ScoreBand(torch.cat(mean), torch.cat(std), torch.cat(example))    # [P] x3


def random_score_expectation(head_dim: int, distances: Distances, *, base: float = 10000.0,
                             correlation: float = 1.0) -> torch.Tensor:
    r"""rho * mean_i cos(r theta_i) = rho * (q=k=1 score)/d -> Tensor[P] float64.

    The expectation of random_score_band's mean: exact for rho = 1 (q = k, every pair's share
    |q_i|^2/|q|^2 averages 2/d) and rho = 0 (0 by the symmetry z -> -z); for 0 < rho < 1 the
    factor is E[cos(q, k)], which is close to rho for large d.
    """
    head_dim = check_even("head_dim", head_dim, 2, MAX_DIM)
    rho = check_float("correlation", correlation, -1.0, 1.0)
    return rho * ones_score_curve(head_dim, distances, base=base) / head_dim   # [P]


# ---------------------------------------------------------------- other schemes, same axes
def alibi_penalty(distances: Distances, heads: Iterable[int], *, num_heads: int = 8) -> torch.Tensor:
    r"""ALiBi's bias for the chosen heads (1-based h, slopes of posviz.pe.relative.alibi_slopes):
    b_h(r) = -m_h r -> Tensor[len(heads), P] float64 (a straight line per head).

    Formula:
        \mathrm{ALiBi}:\ b_h(r) = -m_h\, r,\quad m_h = 2^{-8h/H}

    With num_heads = 8: m_h = 2^{-h}, h = 1..8 (Press et al. 2022).
    """
    num_heads = check_int("num_heads", num_heads, 1, MAX_ALIBI_HEADS)
    heads = list(heads)
    if not heads:
        raise PosvizError("decay_heads", num_heads=num_heads)
    idx = [check_int("heads", h, 1, num_heads) - 1 for h in heads]
    slopes = alibi_slopes(num_heads).to(torch.float64)[idx]              # [h]
    r = _distances(distances).to(torch.float64)                          # [P]
    return 0.0 - slopes[:, None] * r[None, :]                            # [h,P]


def sinusoidal_dot(dim: int, distances: Distances, *, base: float = 10000.0) -> torch.Tensor:
    r"""Dot product of two sinusoidal position vectors r apart -> Tensor[P] float64; D/2 at r = 0;
    independent of p (“Same words, different order…” §05).

    Formula:
        PE(p)\cdot PE(p+r) = \sum_{i=0}^{D/2-1}\sin(p\omega_i)\sin((p+r)\omega_i) + \cos(p\omega_i)\cos((p+r)\omega_i)
            = \sum_{i=0}^{D/2-1}\cos(r\,\omega_i),\quad \omega_i = \mathrm{base}^{-2i/D}
    """
    dim = check_even("dim", dim, 2, MAX_DIM)
    w = sinusoidal_frequencies(dim, base).to(torch.float64)              # [D/2]
    r = _distances(distances)                                            # [P]
    out = []
    for rb in _blocks(r, w.numel()):
        out.append(torch.cos(rb.to(torch.float64)[:, None] * w[None, :]).sum(dim=1))  # [p]
    return torch.cat(out)                                                # [P]


def normalised_alibi(penalty: torch.Tensor) -> torch.Tensor:
    r"""Put ALiBi on the normalised axis: 1 + b_h(r) = 1 - m_h r.

    The other curves are scores divided by their value at r = 0 (a content score of 1 at
    distance 0). ALiBi leaves the content score alone and adds -m_h r to the logit, so a
    query/key pair whose content scores 1 gets 1 - m_h r: a straight line, decaying by
    construction for every pair -- a guarantee, unlike RoPE's tendency.
    """
    return 1.0 + as_tensor("penalty", penalty, dtype=torch.float64)      # [h,P]


def decay_summary(head_dim: int, max_distance: int, *, base: float = 10000.0) -> dict[str, float | int | None]:
    """Numbers for the table under the figure: bound at 0 and at R, the slowest pair, and
    where the q = k = 1 score first turns negative.

    bound0 = d/4 + 1/2; boundR = B(R); ratio = B(R)/B(0);
    wavelength_max = 2 pi / theta_{d/2-1} (tokens for the slowest pair to turn once);
    first_negative = the smallest r in 0..R with sum_i 2 cos(r theta_i) < 0, or None.
    """
    max_distance = check_int("max_distance", max_distance, 0, MAX_DISTANCE)
    ends = torch.tensor([0, max_distance], dtype=torch.int64)            # [2]
    b = roformer_decay_bound_at(head_dim, ends, base=base)               # [2]
    theta = _theta(head_dim, base)                                       # [d/2]
    first_negative = None
    for rb in _blocks(torch.arange(max_distance + 1), theta.numel()):   # stop at the first r < 0
        s = torch.cos(rb.to(torch.float64)[:, None] * theta[None, :]).sum(dim=1)  # [p] = ones/2
        neg = torch.nonzero(s < 0)                                       # [k,1]
        if neg.numel():
            first_negative = int(rb[neg[0, 0]])
            break
    return {"bound0": float(b[0]), "boundR": float(b[1]), "ratio": float(b[1] / b[0]),
            "wavelength_max": float(2 * math.pi / theta[-1]), "first_negative": first_negative}
