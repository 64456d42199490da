r"""Sinusoidal absolute positions (Vaswani et al. 2017 §3.5; seed 000 §03-§05, seed 001).

    w_i = base^{-2i/D},  i = 0 .. D/2-1
    PE_i(p) = [sin(p w_i), cos(p w_i)]
    X_p = E_token(p) + PE(p)

A shift by Delta is a fixed rotation of every pair, independent of p (seed 000 §03):

    [sin((p+D)w)]   [ cos(Dw)  sin(Dw)] [sin(pw)]
    [cos((p+D)w)] = [-sin(Dw)  cos(Dw)] [cos(pw)]

and the dot product of two positions depends only on their offset (seed 000 §04):

    PE(m)^T PE(n) = sum_i cos((m - n) w_i)
"""
import math

import torch
from torch import nn

from posviz.validate import (MAX_DIM, MAX_LENGTH, MAX_POSITION, check_base, check_choice, check_even,
                                check_float, check_int)

LAYOUTS = ("interleaved", "concat")
MAX_SIMILARITY_LENGTH = 2048   # an [L,L] matrix: 2048^2 floats is already 16 MB in float32
MAX_ANCHORS = 16


def sinusoidal_frequencies(dim, base=10000.0):
    """w_i = base^{-2i/D} -> Tensor[D/2] float32 (computed in float64)."""
    dim = check_even("dim", dim)
    base = check_base(base)
    i2 = torch.arange(0, dim, 2, dtype=torch.float64)               # [D/2]
    return (base ** (-i2 / dim)).to(torch.float32)                  # [D/2]


def sinusoidal_positions(length, dim, *, base=10000.0, layout="interleaved", offset=0,
                         dtype=torch.float32):
    """PE for positions offset .. offset+length-1 -> Tensor[length, dim].

    "interleaved": [:, 0::2] = sin(p w), [:, 1::2] = cos(p w)     (seed 000 §05)
    "concat":      [:, :D/2] = sin(p w), [:, D/2:] = cos(p w)     (tensor2tensor)
    """
    length = check_int("length", length, 1, MAX_LENGTH)
    dim = check_even("dim", dim)
    offset = check_int("offset", offset, 0, MAX_POSITION)
    check_choice("layout", layout, LAYOUTS)
    w = sinusoidal_frequencies(dim, base).to(torch.float64)         # [D/2]
    p = torch.arange(offset, offset + length, dtype=torch.float64)  # [L]
    angles = p[:, None] * w[None, :]                                # [L,D/2]
    out = torch.empty(length, dim, dtype=torch.float64)             # [L,D]
    if layout == "interleaved":
        out[:, 0::2], out[:, 1::2] = angles.sin(), angles.cos()
    else:
        out[:, : dim // 2], out[:, dim // 2:] = angles.sin(), angles.cos()
    return out.to(dtype)                                            # [L,D]


def wavelengths(dim, base=10000.0):
    """lambda_i = 2 pi / w_i: how many positions one full turn of pair i takes -> Tensor[D/2] float64."""
    w = sinusoidal_frequencies(dim, base).to(torch.float64)         # [D/2]
    return 2 * math.pi / w                                          # [D/2]


def pair_columns(dim, layout="interleaved"):
    """Columns holding sin and cos of pair i -> (sin_idx LongTensor[D/2], cos_idx LongTensor[D/2]).

    interleaved: sin at 2i, cos at 2i+1;  concat: sin at i, cos at D/2 + i.
    """
    dim = check_even("dim", dim)
    check_choice("layout", layout, LAYOUTS)
    i = torch.arange(dim // 2)                                      # [D/2]
    if layout == "interleaved":
        return 2 * i, 2 * i + 1                                     # [D/2] x2
    return i, i + dim // 2                                          # [D/2] x2


def layout_permutation(dim):
    """perm with concat = interleaved[:, perm] -> LongTensor[D].

    The two layouts hold the same numbers in a different column order:
    concat column j < D/2 is interleaved column 2j (sin of pair j),
    concat column D/2 + j is interleaved column 2j + 1 (cos of pair j).
    """
    sin_idx, cos_idx = pair_columns(dim, "interleaved")             # [D/2] x2
    return torch.cat([sin_idx, cos_idx])                            # [D]


def shift_rotation_2x2(delta, omega):
    r"""The 2x2 matrix that moves one [sin, cos] pair by delta positions (seed 000 §03).

        M(Delta) = [[ cos(Delta w), sin(Delta w)],
                    [-sin(Delta w), cos(Delta w)]]
        [sin((p+Delta)w), cos((p+Delta)w)]^T = M(Delta) [sin(pw), cos(pw)]^T

    Note the matrix does not contain p: the same M(Delta) works for every position.
    -> Tensor[2,2] float64.
    """
    delta = check_float("delta", delta, -MAX_POSITION, MAX_POSITION)
    omega = check_float("omega", omega, -1e6, 1e6)
    a = torch.tensor(delta * omega, dtype=torch.float64)            # []
    c, s = a.cos(), a.sin()                                         # [] x2
    return torch.stack([torch.stack([c, s]), torch.stack([-s, c])])  # [2,2]


def shift_rotation_matrix(delta, dim, *, base=10000.0, layout="interleaved", dtype=torch.float32):
    r"""Block-diagonal M(Delta) with PE(p + Delta) = M(Delta) PE(p) for every p -> Tensor[D,D].

    One 2x2 block M_i(Delta) (see shift_rotation_2x2) per frequency w_i, placed on the
    columns (sin_i, cos_i) of the layout; for "interleaved" the blocks sit on the diagonal.
    Computed in float64, returned as `dtype`.
    """
    delta = check_float("delta", delta, -MAX_POSITION, MAX_POSITION)
    w = sinusoidal_frequencies(dim, base).to(torch.float64)         # [D/2]
    sin_idx, cos_idx = pair_columns(dim, layout)                    # [D/2] x2
    a = delta * w                                                   # [D/2]
    m = torch.zeros(dim, dim, dtype=torch.float64)                  # [D,D]
    m[sin_idx, sin_idx] = a.cos()
    m[sin_idx, cos_idx] = a.sin()
    m[cos_idx, sin_idx] = -a.sin()
    m[cos_idx, cos_idx] = a.cos()
    return m.to(dtype)                                              # [D,D]


def shift_check(position, delta, dim, *, base=10000.0, layout="interleaved"):
    """Check PE(p + Delta) = M(Delta) PE(p) numerically, in float32 as a model would.

    -> (pe_p [D], rotated = M(Delta) PE(p) [D], pe_target = PE(p + Delta) [D], max_abs_error float)
    """
    position = check_int("position", position, 0, MAX_POSITION)
    delta = check_int("delta", delta, -position, MAX_POSITION - position)
    pe_p = sinusoidal_positions(1, dim, base=base, layout=layout, offset=position)[0]            # [D]
    target = sinusoidal_positions(1, dim, base=base, layout=layout, offset=position + delta)[0]  # [D]
    m = shift_rotation_matrix(delta, dim, base=base, layout=layout)                             # [D,D]
    rotated = m @ pe_p                                                                           # [D]
    return pe_p, rotated, target, float((rotated - target).abs().max())


def similarity_matrix(length, dim, *, base=10000.0, offset=0):
    """S = PE PE^T -> Tensor[L,L] float32, S_mn = sum_i cos((m - n) w_i) (computed in float64).

    Constant along every diagonal (m - n fixed): the dot product sees only the offset.
    S_mm = D/2 because sin^2 + cos^2 = 1 for every pair. The layout does not matter
    (a column permutation leaves dot products unchanged).
    """
    length = check_int("length", length, 1, MAX_SIMILARITY_LENGTH)
    pe = sinusoidal_positions(length, dim, base=base, offset=offset, dtype=torch.float64)  # [L,D]
    return (pe @ pe.T).to(torch.float32)                            # [L,L]


def dot_by_offset(max_offset, dim, *, base=10000.0):
    r"""d(Delta) = PE(p)^T PE(p + Delta) = sum_i cos(Delta w_i), Delta = 0..max_offset -> Tensor[K+1] float32.

    The formula has no p in it: every position gives the same curve. It is even in Delta,
    starts at D/2, is not monotone and (for D = 2, or commensurate w_i) periodic: multi-scale
    phases, not a distance ruler (seed 001).
    """
    max_offset = check_int("max_offset", max_offset, 0, MAX_LENGTH)
    w = sinusoidal_frequencies(dim, base).to(torch.float64)         # [D/2]
    delta = torch.arange(max_offset + 1, dtype=torch.float64)       # [K+1]
    return torch.cos(delta[:, None] * w[None, :]).sum(-1).to(torch.float32)  # [K+1]


def anchored_dot_by_offset(anchors, max_offset, dim, *, base=10000.0):
    """PE(m)^T PE(m + Delta) from the actual vectors, for each anchor m -> Tensor[A, K+1] float32.

    Every row equals dot_by_offset(max_offset, dim): where you start does not matter.
    """
    anchors = [check_int("anchors", a, 0, MAX_POSITION - MAX_LENGTH) for a in anchors]
    if not 1 <= len(anchors) <= MAX_ANCHORS:
        raise ValueError(f"anchors must hold 1..{MAX_ANCHORS} positions, got {len(anchors)}")
    max_offset = check_int("max_offset", max_offset, 0, MAX_LENGTH - 1)
    rows = []
    for m in anchors:
        pe = sinusoidal_positions(max_offset + 1, dim, base=base, offset=m, dtype=torch.float64)  # [K+1,D]
        rows.append(pe @ pe[0])                                     # [K+1]
    return torch.stack(rows).to(torch.float32)                      # [A,K+1]


def single_frequency_table(num_positions=4, omega=math.pi / 2):
    r"""The hand table of seed 000 §04 for one frequency w (default pi/2).

        PE_w(p) = [sin(p w), cos(p w)],   PE_w(m)^T PE_w(n) = cos((m - n) w)

    -> (pe Tensor[P,2], dots Tensor[P,P]), float64 rounded to 12 decimals so cos(pi/2)
    prints as 0 (w = pi/2: p = 0..3 -> [0,1], [1,0], [0,-1], [-1,0]).
    """
    num_positions = check_int("num_positions", num_positions, 1, 64)
    omega = check_float("omega", omega, -1e6, 1e6)
    p = torch.arange(num_positions, dtype=torch.float64)            # [P]
    pe = torch.stack([torch.sin(p * omega), torch.cos(p * omega)], dim=-1)  # [P,2]
    dots = pe @ pe.T                                                # [P,P]
    return torch.round(pe, decimals=12) + 0.0, torch.round(dots, decimals=12) + 0.0  # +0.0 turns -0 into 0


class SinusoidalInput(nn.Module):
    """token embedding + sinusoidal PE, with the table cached by register_buffer (seed 000 §05).

    The table is a buffer, not a parameter: no gradient, it moves with .to(device), and
    persistent=False keeps this rebuildable table out of state_dict(). Lengths beyond the
    cached rows are simply computed: the function has a value at every integer position.
    """

    def __init__(self, vocab_size, model_dim, *, cache_length=512, base=10000.0, seed=0):
        super().__init__()
        vocab_size = check_int("vocab_size", vocab_size, 1, 100_000)
        model_dim = check_even("model_dim", model_dim, 2, MAX_DIM)
        cache_length = check_int("cache_length", cache_length, 1, MAX_LENGTH)
        self.base = check_base(base)
        g = torch.Generator().manual_seed(check_int("seed", seed, 0, 2**31 - 1))
        self.token = nn.Embedding(vocab_size, model_dim,
                                  _weight=torch.randn(vocab_size, model_dim, generator=g))  # [V,D]
        self.register_buffer("position", sinusoidal_positions(cache_length, model_dim, base=self.base),
                             persistent=False)                      # [M,D]

    def forward(self, token_ids):
        """token_ids [N,L] -> [N,L,D]."""
        if not isinstance(token_ids, torch.Tensor) or token_ids.ndim != 2:
            raise ValueError(f"token_ids must be an integer tensor [N,L], got shape {getattr(token_ids, 'shape', None)}")
        length = token_ids.shape[1]
        if length <= self.position.shape[0]:
            pe = self.position[:length]                             # [L,D]
        else:
            pe = sinusoidal_positions(length, self.position.shape[1], base=self.base)  # [L,D]
        return self.token(token_ids) + pe[None, :, :]               # [N,L,D]


def offset_curve_summary(max_offset, dim, *, base=10000.0):
    """Numbers that show d(Delta) = sum_i cos(Delta w_i) is no distance ruler.

    -> dict(start = d(0) = D/2, first_rise = the first Delta where d(Delta+1) > d(Delta)
    (None if the curve only falls within 0..max_offset), minimum and argmin over 0..max_offset).
    """
    d = dot_by_offset(max_offset, dim, base=base).to(torch.float64)  # [K+1]
    rises = torch.nonzero(d[1:] > d[:-1] + 1e-6).flatten()          # [R]
    return {"start": float(d[0]), "first_rise": int(rises[0]) if len(rises) else None,
            "minimum": float(d.min()), "argmin": int(d.argmin())}
