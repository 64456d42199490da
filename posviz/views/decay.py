r"""Views of the long-term decay page: plain arguments in, numpy arrays / numbers / dicts out (cached).

Every curve is sampled on `grid(R, log)` (at most POINTS distances) and put on one normalised axis
(each curve divided by its value at r = 0), so RoPE, ALiBi and the sinusoidal dot product share it.
"""
import torch

from posviz.pe import decay
from posviz.pe.relative import alibi_slopes
from posviz.pe.rope import rope_inv_freq
from posviz.views import cached

POINTS = 1025                      # distances drawn per curve (a decimated grid beyond)
BASES = (100, 1000, 10000, 100000, 500000, 1000000, 10000000)
ALIBI_HEADS = (1, 2, 3, 4, 5, 6, 7, 8)
ALIBI_NUM_HEADS = 8
R_OPTIONS = (16, 64, 256, 1024, 4096, 16384, 65536, 131072)   # 131072 = posviz.pe.decay.MAX_DISTANCE
SIN_DIMS = (64, 128, 256, 512, 1024)
SIN_BASE = 10000
EXAMPLE_R = 3                      # "Position encodings": q = k = (1, 0), m = 2, n = 5 scores cos 3θ


def _r(max_distance, log):
    return decay.distance_grid(max_distance, points=POINTS, log=log)         # [P]


@cached
def grid(max_distance, log):
    """The distances every curve of the page is drawn at -> int64 [P]."""
    return _r(max_distance, log).numpy()


def _normalised(head_dim, r, base):
    """RoFormer bound and q = k = 1 score at distances r, each divided by its value at r = 0."""
    bound = decay.roformer_decay_bound_at(head_dim, r, base=base) / (head_dim / 4 + 0.5)   # [P]
    ones = decay.ones_score_curve(head_dim, r, base=base) / head_dim                       # [P]
    return bound.numpy(), ones.numpy()


@cached
def main_curves(head_dim, max_distance, log, base):
    r"""RoFormer's bound and the q = k = 1 score on the shared axis: each divided by its value at r = 0.

    Formula:
        \hat B(r) = \frac{B(r)}{B(0)} = \frac{B(r)}{d/4 + 1/2},\qquad \hat s(r) = \frac{s(r)}{s(0)} = \frac{s(r)}{d}

    Returns {"bound" [P], "ones" [P]} float64 on grid(max_distance, log).
    """
    bound, ones = _normalised(head_dim, _r(max_distance, log), float(base))
    return {"bound": bound, "ones": ones}


@cached
def values_at(head_dim, base, distances):
    """The curves of main_curves at the given distances (a tuple of ints) -> {"bound": [...], "ones": [...]}:
    the numbers the narration reads off the plotted curves."""
    r = torch.tensor(distances, dtype=torch.int64)                         # [P]
    bound, ones = _normalised(head_dim, r, float(base))
    return {"bound": bound.tolist(), "ones": ones.tolist()}


@cached
def summary(head_dim, max_distance, base):
    """The raw numbers of the table under the main figure (posviz.pe.decay.decay_summary)."""
    return decay.decay_summary(head_dim, max_distance, base=float(base))


@cached
def alibi_lines(max_distance, log, heads):
    r"""ALiBi on the shared axis: a content score of 1 plus the bias -m_h r of each chosen head (of 8).

    Formula:
        1 + b_h(r) = 1 - m_h\, r

    Returns [(head, slope, line [P])].
    """
    r = _r(max_distance, log)                                                 # [P]
    slopes = alibi_slopes(ALIBI_NUM_HEADS).tolist()
    pen = decay.normalised_alibi(decay.alibi_penalty(r, heads, num_heads=ALIBI_NUM_HEADS)).numpy()  # [h,P]
    return [(int(h), slopes[h - 1], line) for h, line in zip(heads, pen)]


@cached
def sinusoidal_line(max_distance, log, dim):
    r"""The sinusoidal dot product on the shared axis (width D, base 10 000), divided by its value D/2 at r = 0.

    Formula:
        \frac{PE(p)\cdot PE(p+r)}{D/2} = \frac{1}{D/2}\sum_{i=0}^{D/2-1}\cos(r\,\omega_i)
    """
    return (decay.sinusoidal_dot(dim, _r(max_distance, log), base=SIN_BASE) / (dim / 2)).numpy()


@cached
def random_curves(head_dim, max_distance, log, base, n_samples, correlation, seed):
    """Random q, k: mean, std and one pair of the normalised score, and its expectation -> dict of [P],
    plus the numbers the narration quotes: the largest |mean - expectation|, the mean std, the largest
    |one pair - expectation|, and the std at r = 1 and r = 1000 (None where r is not on the grid)."""
    r = _r(max_distance, log)                                                 # [P]
    kw = dict(base=float(base), correlation=correlation)
    band = decay.random_score_band(head_dim, r, n_samples=n_samples, seed=seed, **kw)
    expected = decay.random_score_expectation(head_dim, r, **kw)             # [P]
    at = {int(x): i for i, x in enumerate(r.tolist())}
    std = band.std.numpy()
    return {"mean": band.mean.numpy(), "std": std, "example": band.example.numpy(), "expected": expected.numpy(),
            "mean_gap": float((band.mean - expected).abs().max()), "std_mean": float(band.std[1:].mean()) if len(r) > 1
            else 0.0, "example_gap": float((band.example - expected).abs().max()),
            "mean_max": float(band.mean.abs().max()),
            "std_at": {d: float(std[at[d]]) if d in at else None for d in (1, 1000)}}


def last_pair(head_dim):
    """The last frequency pair of a head, d/2 - 1 (the pair slider runs over 0 .. d/2 - 1)."""
    return max(0, int(head_dim) // 2 - 1)


@cached
def pair_curve(head_dim, max_distance, log, base, pair):
    """One pair's score cos(r θ_i) with q = k = (1, 0) in that pair, its θ_i and its value at r = 3
    (the article's cos 3θ) -> {"theta", "cos" [P], "at3"}."""
    cos = decay.pair_oscillation(head_dim, _r(max_distance, log), pair, base=float(base)).numpy()   # [P]
    return {"theta": float(rope_inv_freq(head_dim, float(base))[pair]), "cos": cos,
            "at3": float(decay.pair_oscillation(head_dim, [EXAMPLE_R], pair, base=float(base))[0])}
