r"""Learned functions of the distance as an attention bias: FIRE (Li et al. 2024, *Functional Interpolation
for Relative Positions Improves Long Context Transformers*, ICLR 2024, arXiv:2310.04418) and KERPLE (Chi et
al. 2022, *KERPLE: Kernelized Relative Positional Embedding for Length Extrapolation*, arXiv:2205.09921),
set against ALiBi and T5 on the same axes (posviz.pe.relative has those two).

Each adds b(i, j) to the score of query i and key j <= i (causal):

    ALiBi        b = -m (i - j)                         fixed slope per head
    T5           b = t[bucket(j - i)]                   a learned scalar per bucket; the far ones share one
    KERPLE-log   b = -r1 log(1 + r2 (i - j))            two learned numbers r1, r2 > 0 per head
    FIRE         b = f( psi(i - j) / psi(max(L, i)) )   f a small MLP, psi(x) = log(c x + 1)

FIRE's input is the distance *normalised by the query's position*: it stays in [0, 1] at any length, so a
query far beyond the training length asks f only what it was trained on, and the bias of a fixed distance
shrinks as i grows (a progressive interpolation). L is a learned threshold: queries before L divide by
psi(L), so near the start the bias is a function of the distance alone.

These toys have no trained weights: `fit_to_bias` fits each scheme's learnable numbers (T5's table, KERPLE's
r1 and r2, FIRE's output layer) by least squares to one target row at the training length; the figure then
shows what each does beyond it.
"""
from __future__ import annotations

import torch

from posviz.pe.relative import t5_relative_position_bucket
from posviz.validate import MAX_LENGTH, PosvizError, as_tensor, check_float, check_int

FIRE_HIDDEN = 32
KERPLE_R2_GRID = torch.logspace(-4, 2, 241, dtype=torch.float64)   # [241] r2 tried by the KERPLE fit
T5_BUCKETS, T5_MAX_DISTANCE = 32, 128          # T5's decoder (causal) settings


def fire_psi(x: torch.Tensor, c: float = 1.0) -> torch.Tensor:
    r"""FIRE's log transform of a distance -> Tensor like x (float64).

    Formula:
        \psi(x) = \log(c\,x + 1)
    """
    c = check_float("c", c, 0.0, 1e6, lo_open=True)
    return torch.log(c * as_tensor("x", x).double() + 1.0)            # [...]


def fire_inputs(query_pos: torch.Tensor, key_pos: torch.Tensor, *, c: float = 1.0,
                threshold: float = 64.0) -> torch.Tensor:
    r"""FIRE's normalised distance of every query/key pair -> Tensor[L,S] float64 in [0, 1] (0 where j > i).

    Formula:
        x_{ij} = \frac{\psi(i - j)}{\psi(\max(L_{\mathrm{thr}},\ i))},\qquad j \le i
    """
    i = as_tensor("query_pos", query_pos, ndim=1).double()            # [L]
    j = as_tensor("key_pos", key_pos, ndim=1).double()                # [S]
    threshold = check_float("threshold", threshold, 1.0, 1e7)
    dist = (i[:, None] - j[None, :]).clamp_min(0)                     # [L,S] future -> 0
    norm = fire_psi(torch.clamp(i, min=threshold), c)                 # [L]
    return fire_psi(dist, c) / norm[:, None]                          # [L,S]


def fire_mlp(x: torch.Tensor, weights: dict) -> torch.Tensor:
    r"""FIRE's f: one hidden ReLU layer of K units -> Tensor like x (float64).

    Formula:
        f(x) = \sum_{k=1}^{K} a_k\,\mathrm{ReLU}(w_k x + b_k) + a_0

    weights {"w" [K], "b" [K], "a" [K], "a0" []}.
    """
    x = as_tensor("x", x).double()                                    # [...]
    w, b, a = (as_tensor(n, weights[n]).double() for n in ("w", "b", "a"))   # [K] x3
    hidden = torch.relu(x[..., None] * w + b)                         # [...,K]
    return hidden @ a + float(weights["a0"])                          # [...]


def kerple_log(distance: torch.Tensor, r1: float, r2: float) -> torch.Tensor:
    r"""KERPLE's logarithmic variant -> Tensor like distance (float64).

    Formula:
        b_{ij} = -r_1 \log\big(1 + r_2\,|i - j|\big),\qquad r_1, r_2 > 0
    """
    d = as_tensor("distance", distance).double().abs()               # [...]
    return -check_float("r1", r1, 0.0) * torch.log1p(check_float("r2", r2, 0.0, lo_open=True) * d)  # [...]


def kerple_power(distance: torch.Tensor, r1: float, r2: float) -> torch.Tensor:
    r"""KERPLE's power variant -> Tensor like distance (float64); r2 = 1 is ALiBi with slope r1.

    Formula:
        b_{ij} = -r_1\,|i - j|^{r_2},\qquad r_1 > 0,\ 0 < r_2 \le 2
    """
    d = as_tensor("distance", distance).double().abs()               # [...]
    return -check_float("r1", r1, 0.0) * d ** check_float("r2", r2, 0.0, 2.0, lo_open=True)  # [...]


def _fit_fire(x, y, hidden):
    """FIRE's output layer by least squares, the hidden layer fixed: w_k = 1, b_k = -t_k with the knots t_k at K of
    the training inputs (all of them when there are few): f is then linear between training inputs, with no wiggle
    where a longer query's inputs fall between them."""
    pick = torch.linspace(0, len(x) - 2, min(hidden, len(x) - 1)).round().long().unique()   # [K]
    knots = x[pick]                                                   # [K]
    w, b = torch.ones(len(knots), dtype=torch.float64), -knots        # [K] x2
    design = torch.cat([torch.relu(x[:, None] - knots), torch.ones(len(x), 1, dtype=torch.float64)], dim=1)  # [N,K+1]
    coef = torch.linalg.lstsq(design, y[:, None], driver="gelsd").solution[:, 0]   # [K+1]
    return {"w": w, "b": b, "a": coef[:-1], "a0": float(coef[-1])}


def _fit_kerple(d, y):
    """KERPLE-log's (r1, r2): for each r2 of the grid the best r1 >= 0 in closed form, the r2 with the least error."""
    g = torch.log1p(KERPLE_R2_GRID[:, None] * d[None, :])            # [G,N]
    r1 = (-(g @ y) / (g * g).sum(dim=1).clamp_min(1e-300)).clamp_min(0)  # [G]
    err = ((-r1[:, None] * g - y[None, :]) ** 2).sum(dim=1)          # [G]
    best = int(torch.argmin(err))
    return float(r1[best]), float(KERPLE_R2_GRID[best])


def _fit_t5(d, y):
    """T5's table: each bucket the mean target of the training distances in it; a bucket no training distance
    falls in keeps its initial 0 (it was never trained)."""
    bucket = t5_relative_position_bucket(-d.long(), bidirectional=False, num_buckets=T5_BUCKETS,
                                         max_distance=T5_MAX_DISTANCE)  # [N]
    total = torch.zeros(T5_BUCKETS, dtype=torch.float64).index_add_(0, bucket, y)  # [nb]
    count = torch.bincount(bucket, minlength=T5_BUCKETS).double()     # [nb]
    return torch.where(count > 0, total / count.clamp_min(1), torch.zeros_like(total))  # [nb]


def fit_to_bias(target: torch.Tensor, *, c: float = 1.0, hidden: int = FIRE_HIDDEN) -> dict:
    r"""Fit T5's table, KERPLE-log's (r1, r2) and FIRE's output layer to one target row: the bias b(d) the
    last training query (i = N - 1, N = len(target)) gives a key d tokens back. FIRE's threshold is N.

    Formula:
        \min_\theta \sum_{d=0}^{N-1}\big(b_\theta(d) - b^\ast(d)\big)^2

    -> {"t5": table [32], "kerple": (r1, r2), "fire": weights of fire_mlp, "threshold": N, "c": c}.
    """
    y = as_tensor("target", target, ndim=1).double()                  # [N]
    n = check_int("len(target)", y.numel(), 2, MAX_LENGTH)
    if not torch.isfinite(y).all():
        raise PosvizError("finite", name="target", got="a non-finite entry")
    d = torch.arange(n, dtype=torch.float64)                          # [N]
    x = fire_inputs(torch.tensor([n - 1]), n - 1 - d, c=c, threshold=n)[0]   # [N] FIRE's inputs at i = N-1
    hidden = check_int("hidden", hidden, 1, 256)
    return {"t5": _fit_t5(d, y), "kerple": _fit_kerple(d, y), "fire": _fit_fire(x, y, hidden),
            "threshold": float(n), "c": float(c)}


def biases_at(query_position: int, fit: dict, *, alibi_slope: float) -> dict[str, torch.Tensor]:
    r"""The bias each scheme gives query i against the keys i, i-1, ..., 0 (distance d = 0..i) -> {"distance":
    [i+1], "alibi", "t5", "kerple", "fire": Tensor[i+1] float64, "fire_x": FIRE's inputs [i+1]}.

    Formula:
        b_{\mathrm{ALiBi}} = -m\,d,\quad b_{\mathrm{T5}} = t[\mathrm{bucket}(-d)],\quad
            b_{\mathrm{KERPLE}} = -r_1\log(1 + r_2 d),\quad b_{\mathrm{FIRE}} = f\big(\psi(d)/\psi(\max(L, i))\big)
    """
    i = check_int("query_position", query_position, 0, MAX_LENGTH)
    slope = check_float("alibi_slope", alibi_slope, 0.0)
    d = torch.arange(i + 1, dtype=torch.float64)                      # [i+1]
    bucket = t5_relative_position_bucket(-d.long(), bidirectional=False, num_buckets=T5_BUCKETS,
                                         max_distance=T5_MAX_DISTANCE)  # [i+1]
    x = fire_inputs(torch.tensor([i]), i - d, c=fit["c"], threshold=fit["threshold"])[0]  # [i+1]
    return {"distance": d, "alibi": -slope * d, "t5": fit["t5"][bucket], "kerple": kerple_log(d, *fit["kerple"]),
            "fire": fire_mlp(x, fit["fire"]), "fire_x": x}
