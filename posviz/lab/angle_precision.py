r"""RoPE's angles m * theta_i in low precision (the low-precision bug of “Same words, different order…” §13,
measured along the whole context).

bfloat16 keeps 8 significant bits, float16 11: from m = 256 (bfloat16) or 2048 (float16) on, the position m
itself is rounded, and the product m * theta_i is rounded to a spacing that grows with it. For the fastest
pair (theta_0 = 1 rad per token) bfloat16 stores the angle 4000 to the nearest 16 rad: the phase is noise,
an error anywhere in (-pi, pi]. Three ways to compute the rotation, each against the exact angle (float64):

    "float32"       positions, theta and the product in float32, cos and sin in float32
    "cos_sin_lowp"  the angle in float32, then cos and sin stored in the low dtype (transformers'
                    LlamaRotaryEmbedding: `position_ids.float() * inv_freq.float()`, then `cos.to(x.dtype)`;
                    vLLM's cos_sin_cache: computed in float32, cast to the model's dtype): one rounding of cos
                    and sin, the same at every m (on top of float32's own rounding of the angle)
    "angle_lowp"    the bug: positions, theta and the product in the low dtype (an inv_freq buffer cast with
                    model.to(bfloat16), a model run under autocast without the float32 guard)
"""
import math

import torch

from posviz.pe.rope import rope_inv_freq
from posviz.validate import MAX_DIM, check_choice, check_even, check_int

ANGLE_MODES = ("float32", "cos_sin_lowp", "angle_lowp")
LOW_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16}
MAX_ANGLE_POSITION = 60000     # float16 reaches 65504


def rope_phase_error(max_position, head_dim, dtype="bfloat16", mode="angle_lowp", *, base=10000.0):
    r"""The phase error of every pair at every position 0..max_position: the angle the rotation actually
    applies minus the exact m * theta_i, wrapped to (-pi, pi] -> Tensor[M+1, d/2] float64.

    Formula:
        \varepsilon_{m,i} = \operatorname{wrap}\big(\operatorname{atan2}(\widehat{\sin}, \widehat{\cos})
            - m\,\theta_i\big)
        \text{angle\_lowp: } \widehat{\phi} = \mathrm{dt}\big(\mathrm{dt}(m)\cdot\mathrm{dt}(\theta_i)\big)

    theta_i as the model holds it (rope_inv_freq, float32); the exact angle m * theta_i in float64.
    """
    m_max = check_int("max_position", max_position, 1, MAX_ANGLE_POSITION)
    d = check_even("head_dim", head_dim, 2, MAX_DIM)
    check_choice("dtype", dtype, LOW_DTYPES)
    check_choice("mode", mode, ANGLE_MODES)
    dt = LOW_DTYPES[dtype]
    theta = rope_inv_freq(d, base)                                         # [d/2] float32
    m = torch.arange(m_max + 1)                                            # [M+1]
    exact = m.double()[:, None] * theta.double()[None, :]                  # [M+1,d/2]
    if mode == "angle_lowp":
        phi = (m.to(dt)[:, None] * theta.to(dt)[None, :]).double()          # [M+1,d/2] rounded three times
        cos, sin = phi.cos(), phi.sin()                                    # [M+1,d/2]
    else:
        phi = m.float()[:, None] * theta[None, :]                          # [M+1,d/2] float32
        cos, sin = phi.cos(), phi.sin()                                    # [M+1,d/2] float32
        if mode == "cos_sin_lowp":
            cos, sin = cos.to(dt), sin.to(dt)                              # [M+1,d/2] stored in the low dtype
    applied = torch.atan2(sin.double(), cos.double())                     # [M+1,d/2]
    return torch.remainder(applied - exact + math.pi, 2 * math.pi) - math.pi  # [M+1,d/2]


def phase_error_envelope(error, bins=400):
    r"""The largest |phase error| over pairs, then over each block of positions (a line a screen can draw
    without losing a peak) -> (first position of each block [B], max |error| [B]).

    Formula:
        e_b = \max_{m \in \text{block } b}\ \max_i |\varepsilon_{m,i}|
    """
    per_position = error.abs().amax(dim=1)                                 # [M+1]
    bins = check_int("bins", bins, 1, 100_000)
    size = max(1, math.ceil(per_position.numel() / bins))
    pad = (-per_position.numel()) % size
    blocks = torch.cat([per_position, per_position.new_zeros(pad)]).reshape(-1, size)  # [B,size]
    return torch.arange(0, per_position.numel(), size), blocks.amax(dim=1)  # [B], [B]


def first_position_above(error, threshold):
    """The first position whose largest |phase error| over pairs exceeds `threshold` (None if none does)."""
    above = (error.abs().amax(dim=1) > threshold).nonzero().flatten()      # [k]
    return int(above[0]) if above.numel() else None
