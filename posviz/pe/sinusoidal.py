"""Sinusoidal absolute positions (Vaswani et al. 2017 §3.5; “Same words, different order…” §03-§05,
“Position encodings”).

Each pair i of the table is a clock hand [sin(p w_i), cos(p w_i)] turning at its own frequency
(sinusoidal_frequencies, sinusoidal_positions). A shift by Delta is a fixed rotation of every pair,
independent of p (shift_rotation_2x2, “Same words, different order…” §03), so the dot product of two
positions depends only on their offset (similarity_matrix, dot_by_offset, “Same words, different order…”
§04). Each formula lives in the `Formula:` section of the function that implements it.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from torch import nn

from posviz.validate import (
    MAX_DIM,
    MAX_LENGTH,
    MAX_POSITION,
    PosvizError,
    check_base,
    check_choice,
    check_even,
    check_float,
    check_int,
)

SINUSOIDAL_LAYOUTS = ("interleaved", "concat")   # column orders of the table (RoPE's pairings are other ones)
MAX_SIMILARITY_LENGTH = 2048   # an [L,L] matrix: 2048^2 floats is already 16 MB in float32
MAX_ANCHORS = 16
MAX_INPUT_VOCAB = 100_000      # vocab_size cap of the input modules (SinusoidalInput, LearnedAbsolutePositions)


def sinusoidal_frequencies(dim: int, base: float = 10000.0) -> torch.Tensor:
    r"""Frequencies of the sinusoidal table (“Same words, different order…” §03) -> Tensor[D/2] float32
    (computed in float64).

    Formula:
        \omega_i = \text{base}^{-2i/D},\quad i = 0, 1, \ldots, D/2-1
    """
    dim = check_even("dim", dim)
    base = check_base(base)
    i2 = torch.arange(0, dim, 2, dtype=torch.float64)               # [D/2]
    return (base ** (-i2 / dim)).to(torch.float32)                  # [D/2]


def sinusoidal_positions(length: int, dim: int, *, base: float = 10000.0, layout: str = "interleaved",
                         offset: int = 0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    r"""PE for positions offset .. offset+length-1 -> Tensor[length, dim] (“Same words, different order…” §03, §05).

    Formula:
        PE_{p,2i} = \sin(p\,\omega_i),\qquad PE_{p,2i+1} = \cos(p\,\omega_i)
        PE(p) = [\sin(p\omega_0), \cos(p\omega_0), \ldots, \sin(p\omega_{D/2-1}), \cos(p\omega_{D/2-1})]
        X_p = E_{token(p)} + PE(p)

    "interleaved": [:, 0::2] = sin(p w), [:, 1::2] = cos(p w)     (“Same words, different order…” §05)
    "concat":      [:, :D/2] = sin(p w), [:, D/2:] = cos(p w)     (tensor2tensor)
    """
    length = check_int("length", length, 1, MAX_LENGTH)
    dim = check_even("dim", dim)
    offset = check_int("offset", offset, 0, MAX_POSITION)
    check_choice("layout", layout, SINUSOIDAL_LAYOUTS)
    w = sinusoidal_frequencies(dim, base).to(torch.float64)         # [D/2]
    p = torch.arange(offset, offset + length, dtype=torch.float64)  # [L]
    angles = p[:, None] * w[None, :]                                # [L,D/2]
    out = torch.empty(length, dim, dtype=torch.float64)             # [L,D]
    if layout == "interleaved":
        out[:, 0::2], out[:, 1::2] = angles.sin(), angles.cos()
    else:
        out[:, : dim // 2], out[:, dim // 2:] = angles.sin(), angles.cos()
    return out.to(dtype)                                            # [L,D]


def sinusoidal_wavelengths(dim: int, base: float = 10000.0) -> torch.Tensor:
    r"""How many positions one full turn of pair i takes -> Tensor[D/2] float64.

    Formula:
        \lambda_i = 2\pi / \omega_i = 2\pi \cdot \text{base}^{2i/D}
    """
    w = sinusoidal_frequencies(dim, base).to(torch.float64)         # [D/2]
    return 2 * math.pi / w                                          # [D/2]


def pair_columns(dim: int, layout: str = "interleaved") -> tuple[torch.Tensor, torch.Tensor]:
    r"""Columns holding sin and cos of pair i -> (sin_idx LongTensor[D/2], cos_idx LongTensor[D/2]).

    Formula:
        \text{interleaved}: [\sin\omega_0 p, \cos\omega_0 p, \sin\omega_1 p, \cos\omega_1 p, \ldots]
        \text{concat}: [\sin\omega_0 p, \ldots, \sin\omega_{D/2-1} p, \cos\omega_0 p, \ldots, \cos\omega_{D/2-1} p]

    interleaved: sin at 2i, cos at 2i+1;  concat: sin at i, cos at D/2 + i.
    """
    dim = check_even("dim", dim)
    check_choice("layout", layout, SINUSOIDAL_LAYOUTS)
    i = torch.arange(dim // 2)                                      # [D/2]
    if layout == "interleaved":
        return 2 * i, 2 * i + 1                                     # [D/2] x2
    return i, i + dim // 2                                          # [D/2] x2


def sinusoidal_layout_permutation(dim: int) -> torch.Tensor:
    r"""perm with concat = interleaved[:, perm] -> LongTensor[D].

    Formula:
        PE^{\text{concat}} = PE^{\text{interleaved}}[:, \pi],\quad \pi = [0, 2, \ldots, D-2, 1, 3, \ldots, D-1]

    The two layouts hold the same numbers in a different column order:
    concat column j < D/2 is interleaved column 2j (sin of pair j),
    concat column D/2 + j is interleaved column 2j + 1 (cos of pair j).
    """
    sin_idx, cos_idx = pair_columns(dim, "interleaved")             # [D/2] x2
    return torch.cat([sin_idx, cos_idx])                            # [D]


def shift_rotation_2x2(delta: float, omega: float) -> torch.Tensor:
    r"""The 2x2 matrix that moves one [sin, cos] pair by delta positions (“Same words, different order…” §03).

    Formula:
        \begin{bmatrix}\sin((p+\Delta)\omega)\\ \cos((p+\Delta)\omega)\end{bmatrix} =
            \begin{bmatrix}\cos(\Delta\omega) & \sin(\Delta\omega)\\
            -\sin(\Delta\omega) & \cos(\Delta\omega)\end{bmatrix}
            \begin{bmatrix}\sin(p\omega)\\ \cos(p\omega)\end{bmatrix}

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


def shift_rotation_matrix(delta: float, dim: int, *, base: float = 10000.0, layout: str = "interleaved",
                          dtype: torch.dtype = torch.float32) -> torch.Tensor:
    r"""Block-diagonal M(Delta) with PE(p + Delta) = M(Delta) PE(p) for every p -> Tensor[D,D].

    Formula:
        PE(p+\Delta) = M(\Delta)\,PE(p),\qquad M(\Delta) = \operatorname{blockdiag}_i M_i(\Delta)

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


def shift_check(position: int, delta: int, dim: int, *, base: float = 10000.0,
                layout: str = "interleaved") -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, float]:
    r"""Check PE(p + Delta) = M(Delta) PE(p) numerically, in float32 as a model would.

    Formula:
        \varepsilon = \max_j \big|\big(M(\Delta)\,PE(p)\big)_j - PE(p+\Delta)_j\big|

    -> (pe_p [D], rotated = M(Delta) PE(p) [D], pe_target = PE(p + Delta) [D], max_abs_error float)
    """
    position = check_int("position", position, 0, MAX_POSITION)
    delta = check_int("delta", delta, -position, MAX_POSITION - position)
    pe_p = sinusoidal_positions(1, dim, base=base, layout=layout, offset=position)[0]            # [D]
    target = sinusoidal_positions(1, dim, base=base, layout=layout, offset=position + delta)[0]  # [D]
    m = shift_rotation_matrix(delta, dim, base=base, layout=layout)                             # [D,D]
    rotated = m @ pe_p                                                                           # [D]
    return pe_p, rotated, target, float((rotated - target).abs().max())


def similarity_matrix(length: int, dim: int, *, base: float = 10000.0, offset: int = 0) -> torch.Tensor:
    r"""S = PE PE^T -> Tensor[L,L] float32, S_mn = sum_i cos((m - n) w_i) (computed in float64).

    Formula:
        S_{mn} = PE(m)^\top PE(n) = \sum_{i=0}^{D/2-1} \cos\big((m-n)\,\omega_i\big)

    Constant along every diagonal (m - n fixed): the dot product sees only the offset.
    S_mm = D/2 because sin^2 + cos^2 = 1 for every pair. The layout does not matter
    (a column permutation leaves dot products unchanged).
    """
    length = check_int("length", length, 1, MAX_SIMILARITY_LENGTH)
    pe = sinusoidal_positions(length, dim, base=base, offset=offset, dtype=torch.float64)  # [L,D]
    return (pe @ pe.T).to(torch.float32)                            # [L,L]


def dot_by_offset(max_offset: int, dim: int, *, base: float = 10000.0) -> torch.Tensor:
    r"""d(Delta) = PE(p)^T PE(p + Delta) = sum_i cos(Delta w_i), Delta = 0..max_offset -> Tensor[K+1] float32.

    Formula:
        d(\Delta) = PE(p)^\top PE(p+\Delta) = \sum_{i=0}^{D/2-1} \cos(\Delta\,\omega_i)

    The formula has no p in it: every position gives the same curve. It is even in Delta,
    starts at D/2, is not monotone and (for D = 2, or commensurate w_i) periodic: multi-scale
    phases, not a distance ruler (“Position encodings”).
    """
    max_offset = check_int("max_offset", max_offset, 0, MAX_LENGTH)
    w = sinusoidal_frequencies(dim, base).to(torch.float64)         # [D/2]
    delta = torch.arange(max_offset + 1, dtype=torch.float64)       # [K+1]
    return torch.cos(delta[:, None] * w[None, :]).sum(-1).to(torch.float32)  # [K+1]


def anchored_dot_by_offset(anchors: Sequence[int], max_offset: int, dim: int, *,
                           base: float = 10000.0) -> torch.Tensor:
    r"""PE(m)^T PE(m + Delta) from the actual vectors, for each anchor m -> Tensor[A, K+1] float32.

    Formula:
        d_m(\Delta) = PE(m)^\top PE(m+\Delta) = d(\Delta)\quad\text{for every } m

    Every row equals dot_by_offset(max_offset, dim): where you start does not matter.
    """
    anchors = [check_int("anchors", a, 0, MAX_POSITION - MAX_LENGTH) for a in anchors]
    if not 1 <= len(anchors) <= MAX_ANCHORS:
        raise PosvizError("range", name="len(anchors)", lo=1, hi=MAX_ANCHORS, got=len(anchors))
    max_offset = check_int("max_offset", max_offset, 0, MAX_LENGTH - 1)
    rows = []
    for m in anchors:
        pe = sinusoidal_positions(max_offset + 1, dim, base=base, offset=m, dtype=torch.float64)  # [K+1,D]
        rows.append(pe @ pe[0])                                     # [K+1]
    return torch.stack(rows).to(torch.float32)                      # [A,K+1]


def single_frequency_table(num_positions: int = 4,
                           omega: float = math.pi / 2) -> tuple[torch.Tensor, torch.Tensor]:
    r"""The hand table of “Same words, different order…” §04 for one frequency w (default pi/2).

    Formula:
        \omega = \pi/2,\qquad PE_\omega(p) = [\sin(p\omega), \cos(p\omega)]
        PE_\omega(m)^\top PE_\omega(n) = \cos\big((m-n)\,\omega\big)

    -> (pe Tensor[P,2], dots Tensor[P,P]), float64 rounded to 12 decimals so cos(pi/2)
    prints as 0 (w = pi/2: p = 0..3 -> [0,1], [1,0], [0,-1], [-1,0]).
    """
    num_positions = check_int("num_positions", num_positions, 1, 64)
    omega = check_float("omega", omega, -1e6, 1e6)
    p = torch.arange(num_positions, dtype=torch.float64)            # [P]
    pe = torch.stack([torch.sin(p * omega), torch.cos(p * omega)], dim=-1)  # [P,2]
    dots = pe @ pe.T                                                # [P,P]
    return torch.round(pe, decimals=12) + 0.0, torch.round(dots, decimals=12) + 0.0  # [P,2], [P,P]; +0.0: -0 -> 0


class SinusoidalInput(nn.Module):
    r"""token embedding + sinusoidal PE, with the table cached by register_buffer (“Same words, different order…” §05).

    Formula:
        X = E[\text{token\_ids}] + PE[0:L],\qquad \texttt{register\_buffer("position", PE, persistent=False)}

    The table is a buffer, not a parameter: no gradient, it moves with .to(device), and
    persistent=False keeps this rebuildable table out of state_dict(). Lengths beyond the
    cached rows are simply computed: the function has a value at every integer position.
    """

    def __init__(self, vocab_size: int, model_dim: int, *, cache_length: int = 512, base: float = 10000.0,
                 seed: int = 0) -> None:
        super().__init__()
        vocab_size = check_int("vocab_size", vocab_size, 1, MAX_INPUT_VOCAB)
        model_dim = check_even("model_dim", model_dim, 2, MAX_DIM)
        cache_length = check_int("cache_length", cache_length, 1, MAX_LENGTH)
        self.base = check_base(base)
        g = torch.Generator().manual_seed(check_int("seed", seed, 0, 2**31 - 1))
        self.token = nn.Embedding(vocab_size, model_dim,
                                  _weight=torch.randn(vocab_size, model_dim, generator=g))  # [V,D]
        self.register_buffer("position", sinusoidal_positions(cache_length, model_dim, base=self.base),  # [M,D]
                             persistent=False)

    def forward(self, token_ids: torch.Tensor) -> torch.Tensor:
        """token_ids [N,L] -> [N,L,D]."""
        check_token_ids(token_ids, self.token.num_embeddings)
        length = token_ids.shape[1]
        if length <= self.position.shape[0]:
            pe = self.position[:length]                             # [L,D]
        else:
            pe = sinusoidal_positions(length, self.position.shape[1], base=self.base)  # [L,D]
        return self.token(token_ids) + pe[None, :, :]               # [N,L,D]


def check_token_ids(token_ids: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """token_ids must be an integer tensor [N,L] with ids in [0, vocab_size - 1]: a PosvizError otherwise
    (shared by the input modules of posviz.pe.sinusoidal and posviz.pe.learned)."""
    if not isinstance(token_ids, torch.Tensor) or token_ids.ndim != 2 or token_ids.is_floating_point() \
            or token_ids.dtype == torch.bool or token_ids.is_complex():
        got = f"{str(token_ids.dtype).removeprefix('torch.')} {list(token_ids.shape)}" \
            if isinstance(token_ids, torch.Tensor) else type(token_ids).__name__
        raise PosvizError("token_ids_tensor", name="token_ids", got=got)
    if token_ids.numel() and (token_ids.min() < 0 or token_ids.max() >= vocab_size):
        bad = int(token_ids.min()) if token_ids.min() < 0 else int(token_ids.max())
        raise PosvizError("range", name="token_ids", lo=0, hi=vocab_size - 1, got=bad)
    return token_ids


def offset_curve_summary(max_offset: int, dim: int, *, base: float = 10000.0) -> dict[str, float | int | None]:
    """Numbers that show d(Delta) = sum_i cos(Delta w_i) is no distance ruler.

    -> dict(start = d(0) = D/2, first_rise = the first Delta where the curve rises again, d(Delta) >
    d(Delta-1) (None if it only falls within 0..max_offset), minimum and argmin over 0..max_offset).
    """
    d = dot_by_offset(max_offset, dim, base=base).to(torch.float64)  # [K+1]
    rises = torch.nonzero(d[1:] > d[:-1] + 1e-6).flatten()          # [R]
    return {"start": float(d[0]), "first_rise": int(rises[0]) + 1 if len(rises) else None,
            "minimum": float(d.min()), "argmin": int(d.argmin())}
