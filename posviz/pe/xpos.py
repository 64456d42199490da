r"""xPos (Sun et al. 2023, *A Length-Extrapolatable Transformer*, ACL 2023, arXiv:2212.10554, §3.2): RoPE whose
every pair is also scaled, the query by zeta_i^{n/B} and the key by zeta_i^{-m/B}, so that a pair's
contribution to the score is multiplied by zeta_i^{(n-m)/B}: an explicit exponential decay with the
distance, fastest for the fast pairs (small i), on top of RoPE's oscillation.

    zeta_i = (2i/d + gamma) / (1 + gamma),   i = 0 .. d/2-1,   gamma = 0.4,   B = scale_base (512)

Only n - m survives in the score (zeta^{n/B} zeta^{-m/B} = zeta^{(n-m)/B}): xPos stays relative. The paper's
code centres the positions around 0 before scaling (to keep zeta^{±n/B} within float range), which changes
no score. The pairing here is RoFormer's interleaved one, as in the paper's code.
"""
from __future__ import annotations

import torch

from posviz.pe.decay import rope_score_curve
from posviz.pe.rope import apply_rope
from posviz.validate import MAX_DIM, as_tensor, check_even, check_float

GAMMA = 0.4
SCALE_BASE = 512.0


def xpos_zeta(head_dim: int, gamma: float = GAMMA) -> torch.Tensor:
    r"""The per-pair decay base of xPos -> Tensor[d/2] float64, rising from gamma/(1+gamma) to just under 1.

    Formula:
        \zeta_i = \frac{2i/d + \gamma}{1 + \gamma},\qquad i = 0, \ldots, d/2 - 1
    """
    d = check_even("head_dim", head_dim, 2, MAX_DIM)
    gamma = check_float("gamma", gamma, 0.0, 100.0, lo_open=True)
    i = torch.arange(d // 2, dtype=torch.float64)                     # [d/2]
    return (2 * i / d + gamma) / (1 + gamma)                           # [d/2]


def apply_xpos(x: torch.Tensor, positions, *, key: bool = False, scale_base: float = SCALE_BASE,
               gamma: float = GAMMA, base: float = 10000.0) -> torch.Tensor:
    r"""Rotate x like RoPE and scale pair i by zeta_i^{p/B} (a query) or zeta_i^{-p/B} (a key) -> Tensor[..., L, d].

    Formula:
        \tilde q_n = \zeta^{\,n/B} \odot R(n)\,q_n,\qquad \tilde k_m = \zeta^{-m/B} \odot R(m)\,k_m
        \tilde q_n^\top \tilde k_m = \sum_i \zeta_i^{(n-m)/B}\,\big[R(n)q_n\big]_i^\top\big[R(m)k_m\big]_i

    x [..., L, d] (float64 keeps zeta^{±p/B} exact at large p); positions [L].
    """
    x = as_tensor("x", x)                                              # [...,L,d]
    scale_base = check_float("scale_base", scale_base, 1.0, 1e9)
    pos = as_tensor("positions", positions, ndim=1).to(torch.float64)  # [L]
    zeta = xpos_zeta(x.shape[-1], gamma)                               # [d/2]
    sign = -1.0 if key else 1.0
    scale = zeta[None, :] ** (sign * pos[:, None] / scale_base)        # [L,d/2]
    rotated = apply_rope(x, pos, base=base, layout="interleaved")      # [...,L,d]
    return rotated * scale.repeat_interleave(2, dim=-1).to(rotated.dtype)  # [...,L,d] pairs (2i, 2i+1)


def xpos_ones_curve(head_dim: int, distances, *, scale_base: float = SCALE_BASE, gamma: float = GAMMA,
                    base: float = 10000.0) -> dict[str, torch.Tensor]:
    r"""The score of q = k = (1, ..., 1) with the key r tokens back, divided by d, for plain RoPE and for xPos,
    and xPos's envelope (its score with the rotation left out) -> {"rope", "xpos", "envelope": Tensor[P] float64}.

    Formula:
        s_{\mathrm{RoPE}}(r) = \frac{2}{d}\sum_i \cos(r\theta_i),\qquad
            s_{\mathrm{xPos}}(r) = \frac{2}{d}\sum_i \zeta_i^{\,r/B}\cos(r\theta_i),\qquad
            e(r) = \frac{2}{d}\sum_i \zeta_i^{\,r/B}
    """
    d = check_even("head_dim", head_dim, 2, MAX_DIM)
    scale_base = check_float("scale_base", scale_base, 1.0, 1e9)
    r = as_tensor("distances", distances, ndim=1).long()              # [P] whole distances
    zeta = xpos_zeta(d, gamma)                                         # [d/2]
    decay = zeta[:, None] ** (r[None, :].double() / scale_base)        # [d/2,P]
    pair = torch.eye(d // 2, dtype=torch.float64).repeat_interleave(2, dim=1)  # [d/2,d] q = k = ones in pair i only
    per_pair = rope_score_curve(pair, pair, r, base=base)              # [d/2,P] 2 cos(r theta_i)
    return {"rope": per_pair.sum(dim=0) / d, "xpos": (decay * per_pair).sum(dim=0) / d,  # [P] x2
            "envelope": 2 * decay.sum(dim=0) / d}                      # [P]
