r"""Rotary position embedding (RoPE), “Same words, different order…” §07-§09 and “Position encodings” "RoPE":
the library.

Each pair i of a head's d dimensions is rotated by the angle p * theta_i:

    theta_i = base^{-2i/d},  i = 0 .. d/2-1
    R_i(p) = [[cos p theta_i, -sin p theta_i],
              [sin p theta_i,  cos p theta_i]]
    (R(p) q)^T (R(s) k) = q^T R(p)^T R(s) k = q^T R(s - p) k   (only s - p survives)

Two pairings exist in real code:
    "interleaved": pairs (0,1), (2,3), ...           RoFormer, “Same words, different order…” §09
    "half":        pairs (i, i + d/2)                Hugging Face Llama `rotate_half`
They are the same rotation after the permutation P of `pairing_permutation`:
    interleaved(x) = P^{-1} half(P x),   and (P a).(P b) = a.b, so scores agree,
but a checkpoint trained with one pairing is NOT usable by code with the other unless its
Q/K projection rows are permuted (“Same words, different order…” §12 step 5).

Only Q and K are rotated, after the Q/K projection, in every layer and every head;
V is never rotated (“Same words, different order…” §07, “Position encodings”).

`apply_rope` is the transparent formula of “Same words, different order…” §09; where a faster computation gives the
very same bits (interleaved, contiguous float32/float64 of suitable shape) it hands the rotation
to the private `posviz.pe._rope_fast` (tests assert torch.equal). The lines of rope_inv_freq,
apply_rope and rotate_pairs that the RoPE page shows step by step end in a `(step: <name>)`
marker (posviz.views.rope reads them by it). The page's hand-made examples (one pair by hand,
clock hands, content vectors, the layout demo) are in `posviz.pe.rope_demos`.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from torch.nn import functional as F

from posviz.pe import _rope_fast
from posviz.validate import (
    MAX_DIM,
    MAX_LENGTH,
    MAX_POSITION,
    PosvizError,
    as_tensor,
    check_base,
    check_choice,
    check_even,
    check_float,
    check_int,
)

ROPE_LAYOUTS = ("interleaved", "half")

# A position argument: a number, a (nested) list of numbers or a tensor, checked by _as_positions.
Positions = float | Sequence[float] | Sequence[Sequence[float]] | torch.Tensor


# ---------------------------------------------------------------- frequencies and angles
def rope_inv_freq(head_dim: int, base: float = 10000.0) -> torch.Tensor:
    r"""The rotation speed of every pair, computed exactly as transformers does (float32 throughout).

    Formula:
        \theta_i = \frac{1}{\text{base}^{2i/d}}, \quad i = 0, \dots, d/2 - 1

    The expression is transformers' default RoPE init (LlamaRotaryEmbedding.
    compute_default_rope_parameters), evaluated in float32 as there, so that apply_rope equals
    Hugging Face's apply_rotary_pos_emb bit for bit at every position. -> Tensor[d/2] float32.
    """
    head_dim = check_even("head_dim", head_dim)
    base = check_base(base)
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))  # [d/2]  (step: theta)
    return inv_freq


def _resolve_inv_freq(head_dim, base, inv_freq):
    """inv_freq if given (checked against head_dim), else rope_inv_freq -> float32 [d/2].
    (Also the check of posviz.pe.rope_demos.)"""
    head_dim = check_even("head_dim", head_dim)
    if inv_freq is None:
        return rope_inv_freq(head_dim, base)                         # [d/2]
    inv_freq = as_tensor("inv_freq", inv_freq)                       # [d/2]
    if tuple(inv_freq.shape) != (head_dim // 2,) or inv_freq.is_complex() or inv_freq.dtype == torch.bool:
        raise PosvizError("rope_inv_freq_shape", half=head_dim // 2, shape=list(inv_freq.shape))
    inv_freq = inv_freq.to(torch.float32)                            # [d/2]
    if not torch.isfinite(inv_freq).all():
        raise PosvizError("finite", name="inv_freq", got="a non-finite entry")
    return inv_freq


def _as_positions(position_ids, name="position_ids"):
    """int / float / list / tensor of positions -> float32 tensor of the same shape, checked.
    (Also the check of posviz.pe.rope_demos.)"""
    position_ids = as_tensor(name, position_ids)                     # same shape
    if position_ids.is_complex() or position_ids.dtype == torch.bool:
        raise PosvizError("rope_real", name=name, dtype=str(position_ids.dtype))
    pos = position_ids.to(torch.float32)                             # same shape
    if pos.numel() and (not torch.isfinite(pos).all() or pos.abs().max() > MAX_POSITION):
        raise PosvizError("rope_positions", name=name, hi=MAX_POSITION)
    return pos


def rope_angles(position_ids: Positions, head_dim: int, *, base: float = 10000.0,
                inv_freq: torch.Tensor | None = None) -> torch.Tensor:
    r"""The angle of every pair at every position, in float32 as models compute it.

    Formula:
        \phi_{p,i} = p\,\theta_i

    position_ids: a number or a tensor [...] -> Tensor[..., d/2] float32.
    """
    inv_freq = _resolve_inv_freq(head_dim, base, inv_freq)          # [d/2]
    pos = _as_positions(position_ids)                                # [...]
    return pos[..., None] * inv_freq                                 # [..., d/2]


def wrap_angle(angle: float | torch.Tensor) -> torch.Tensor:
    r"""Angles wrapped to (-pi, pi] (same shape and dtype).

    Formula:
        w(a) = \pi - \big((\pi - a) \bmod 2\pi\big) \in (-\pi, \pi]
    """
    a = torch.as_tensor(angle)                                       # [...]
    if not a.is_floating_point():
        a = a.to(torch.float32)                                      # [...]
    w = math.pi - torch.remainder(math.pi - a.to(torch.float64), 2 * math.pi)  # [...] float64
    return w.to(a.dtype)                                             # [...]


# ---------------------------------------------------------------- pairings
def rope_pairs(head_dim: int, layout: str = "interleaved") -> torch.Tensor:
    """Which dimensions form pair i (rotated by theta_i) -> LongTensor[d/2, 2].

    interleaved: (2i, 2i+1);  half: (i, i + d/2).
    """
    head_dim = check_even("head_dim", head_dim)
    check_choice("layout", layout, ROPE_LAYOUTS)
    i = torch.arange(head_dim // 2)                                  # [d/2]
    if layout == "interleaved":
        return torch.stack((2 * i, 2 * i + 1), dim=-1)               # [d/2,2]
    return torch.stack((i, i + head_dim // 2), dim=-1)               # [d/2,2]


def pairing_permutation(head_dim: int, src: str = "interleaved", dst: str = "half") -> torch.Tensor:
    r"""Index P with x_dst = x_src[..., P]: the same pair i sits at rope_pairs(d, dst)[i].

    Formula:
        P = [0, 2, \dots, d-2,\ 1, 3, \dots, d-1] \quad (\text{interleaved} \to \text{half})
        \mathrm{interleaved}(x) = P^{-1}\,\mathrm{half}(P x), \qquad (P q)\cdot(P k) = q \cdot k

    half -> interleaved is its inverse. Then apply_rope(x, layout=src) == convert_layout(
    apply_rope(convert_layout(x, src, dst), layout=dst), dst, src) and every q.k score is unchanged.
    """
    head_dim = check_even("head_dim", head_dim)
    check_choice("src", src, ROPE_LAYOUTS)
    check_choice("dst", dst, ROPE_LAYOUTS)
    a, b = rope_pairs(head_dim, src), rope_pairs(head_dim, dst)      # [d/2,2] x2
    perm = torch.empty(head_dim, dtype=torch.long)                   # [d]
    perm[b.flatten()] = a.flatten()                                  # dst slot of pair i <- src slot
    return perm                                                      # [d]


def convert_layout(x: torch.Tensor, src: str = "interleaved", dst: str = "half") -> torch.Tensor:
    """Reorder the last dimension of x [..., d] from one pairing to the other (x[..., P])."""
    if not isinstance(x, torch.Tensor) or x.ndim < 1:
        raise PosvizError("tensor", name="x", got=type(x).__name__)
    perm = pairing_permutation(x.shape[-1], src, dst)                # [d]
    return x[..., perm]                                              # [..., d]


# ---------------------------------------------------------------- rotation matrices
def rotation_2x2(angle: float | torch.Tensor) -> torch.Tensor:
    r"""The 2x2 rotation of every angle of a tensor [...] -> [..., 2, 2].

    Formula:
        R(\phi) = \begin{bmatrix}\cos\phi & -\sin\phi\\ \sin\phi & \cos\phi\end{bmatrix}
    """
    a = torch.as_tensor(angle)                                       # [...]
    if not a.is_floating_point():
        a = a.to(torch.float32)                                      # [...]
    c, s = a.cos(), a.sin()                                          # [...] x2
    return torch.stack((torch.stack((c, -s), -1), torch.stack((s, c), -1)), -2)  # [...,2,2]


def rope_pair_rotations(position: float, head_dim: int, *, base: float = 10000.0,
                        inv_freq: torch.Tensor | None = None) -> torch.Tensor:
    r"""R_i(p) for every pair i: rotation_2x2(p * theta_i) -> Tensor[d/2, 2, 2] float32."""
    pos = check_float("position", position, -MAX_POSITION, MAX_POSITION)
    return rotation_2x2(rope_angles(pos, head_dim, base=base, inv_freq=inv_freq))  # [d/2,2,2]


def rope_rotation_matrix(position: float, head_dim: int, *, base: float = 10000.0,
                         inv_freq: torch.Tensor | None = None, layout: str = "interleaved") -> torch.Tensor:
    r"""The block-diagonal rotation R(p) [d, d] (float32) with R(p) x == apply_rope(x, [p]).

    Formula:
        R(p) = \mathrm{diag}\big(R(p\theta_0), \dots, R(p\theta_{d/2-1})\big), \qquad R(p)^\top R(s) = R(s-p)

    Block i sits on the rows/columns rope_pairs(d, layout)[i].
    """
    pos = check_float("position", position, -MAX_POSITION, MAX_POSITION)
    check_choice("layout", layout, ROPE_LAYOUTS)
    phi = rope_angles(pos, head_dim, base=base, inv_freq=inv_freq)   # [d/2]
    pairs = rope_pairs(head_dim, layout)                             # [d/2,2]
    a, b = pairs[:, 0], pairs[:, 1]                                  # [d/2] x2
    r = torch.zeros(head_dim, head_dim, dtype=torch.float32)         # [d,d]
    r[a, a] = phi.cos()
    r[a, b] = -phi.sin()
    r[b, a] = phi.sin()
    r[b, b] = phi.cos()
    return r                                                         # [d,d]


# ---------------------------------------------------------------- apply to [N,H,L,d]
def _position_ids(position_ids, n, length):
    """position_ids [L] or [N,L] (integer or float) -> float32 [1,L] or [N,L] (not expanded)."""
    position_ids = as_tensor("position_ids", position_ids)
    if position_ids.ndim == 1 and position_ids.shape[0] == length:
        position_ids = position_ids[None, :]                         # [1,L]
    elif position_ids.ndim != 2 or tuple(position_ids.shape) != (n, length):
        raise PosvizError("rope_position_shape", N=n, L=length, shape=list(position_ids.shape))
    return _as_positions(position_ids)                               # [1,L] or [N,L]


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    """Hugging Face's rotate_half: (x1, x2) -> (-x2, x1) for the two halves of the last dimension."""
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]  # [...,d/2] x2
    return torch.cat((-x2, x1), dim=-1)                              # [...,d]


def rotate_pairs(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, layout: str = "interleaved") -> torch.Tensor:
    r"""Rotate each pair of x [..., d] by given cos/sin [..., d/2] (broadcast) -> [..., d].

    Formula:
        \text{half: } x' = x \odot [\cos, \cos] + \mathrm{rotate\_half}(x) \odot [\sin, \sin],
            \quad \mathrm{rotate\_half}(x_1, x_2) = (-x_2, x_1)

    "interleaved" takes the even and odd slices (“Same words, different order…” §09), "half" is Hugging Face's
    rotate_half form; both compute x1 cos - x2 sin and x1 sin + x2 cos for each pair (x1, x2).
    """
    if layout == "interleaved":
        even, odd = x[..., 0::2], x[..., 1::2]                       # [...,d/2] x2  (step: even_odd)
        rotated_even = even * cos - odd * sin                        # [...,d/2]  (step: rotated_even)
        rotated_odd = even * sin + odd * cos                         # [...,d/2]  (step: rotated_odd)
        return torch.stack((rotated_even, rotated_odd), dim=-1).flatten(-2)  # [...,d]  (step: out)
    cos, sin = torch.cat((cos, cos), dim=-1), torch.cat((sin, sin), dim=-1)  # [...,d] x2
    return x * cos + rotate_half(x) * sin                            # [...,d]


def apply_rope(x: torch.Tensor, position_ids: Positions, *, base: float = 10000.0,
               inv_freq: torch.Tensor | None = None, attention_factor: float = 1.0,
               layout: str = "interleaved") -> torch.Tensor:
    r"""Rotate x [N,H,L,d] by R(p) for the positions p in position_ids ([L] or [N,L]).

    Formula:
        \theta_i = \text{base}^{-2i/d}, \qquad \phi_{p,i} = p\,\theta_i \ \text{(float32)}
        x'_{2i} = x_{2i}\cos\phi_{p,i} - x_{2i+1}\sin\phi_{p,i}
        x'_{2i+1} = x_{2i}\sin\phi_{p,i} + x_{2i+1}\cos\phi_{p,i}

    The transparent formula of “Same words, different order…” §09: angles in float32, only cos/sin cast to x.dtype;
    "half" pairs x_i with x_{i+d/2} (rotate_half). cos and sin are multiplied by
    attention_factor, as Hugging Face does for YaRN. Where posviz.pe._rope_fast applies, the
    rotation is its one complex multiply, bit for bit the same numbers (tested).
    """
    if not isinstance(x, torch.Tensor) or x.ndim != 4 or not x.is_floating_point():
        raise PosvizError("rope_x", got=f"{type(x).__name__} {list(getattr(x, 'shape', []))} "
                                        f"{getattr(x, 'dtype', '')}".strip())
    n, h, length, d = x.shape
    check_even("head_dim (x.shape[-1])", d)
    check_choice("layout", layout, ROPE_LAYOUTS)
    attention_factor = check_float("attention_factor", attention_factor, 0.0, 100.0, lo_open=True)
    inv_freq = _resolve_inv_freq(d, base, inv_freq)                  # [d/2] float32
    pos = _position_ids(position_ids, n, length)                     # [B,L], B in {1, N}

    angles = pos[..., None] * inv_freq                               # [B,L,d/2] float32  (step: angles)
    cos = (angles.cos() * attention_factor).to(x.dtype)[:, None]     # [B,1,L,d/2]  (step: cos)
    sin = (angles.sin() * attention_factor).to(x.dtype)[:, None]     # [B,1,L,d/2]  (step: sin)
    if _rope_fast.applies(x, layout):
        return _rope_fast.rotate_interleaved(x, cos, sin)            # [N,H,L,d] same bits, one pass
    return rotate_pairs(x, cos, sin, layout)                         # [N,H,L,d]


# ---------------------------------------------------------------- attention (“Same words, different order…” §09)
def _qkv(q, k, v):
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not isinstance(t, torch.Tensor) or t.ndim != 4 or not t.is_floating_point():
            raise PosvizError("rope_qkv", name=name, shape=list(getattr(t, "shape", [])))
    n, h, _, d = q.shape
    if k.shape[:2] != (n, h) or k.shape[3] != d or v.shape[:3] != k.shape[:3]:
        raise PosvizError("rope_qkv", name="k, v", shape=[list(k.shape), list(v.shape)])
    return q.shape[2], k.shape[2]


def plain_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, is_causal: bool) -> torch.Tensor:
    r"""posviz's own scaled dot-product attention, written out: q [N,H,L,d], k, v [N,H,S,*].

    Formula:
        \mathrm{Attn}(Q, K, V) = \mathrm{softmax}\!\Big(\frac{QK^\top}{\sqrt{d}} + M\Big)\,V
        M_{ij} = 0 \ \text{if } j \le i + (S - L), \quad M_{ij} = -\infty \ \text{otherwise (causal mask)}

    -> Tensor[N,H,L,dv]. No position enters here: the mask only says which keys a query may see.
    """
    length, keys = _qkv(q, k, v)
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])        # [N,H,L,S]
    if is_causal:
        i = torch.arange(length)[:, None] + (keys - length)          # [L,1]
        j = torch.arange(keys)[None, :]                              # [1,S]
        scores = scores.masked_fill(j > i, float("-inf"))            # [N,H,L,S]
    return scores.softmax(dim=-1) @ v                                # [N,H,L,dv]


def rope_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, query_positions: Positions,
                   key_positions: Positions, *, is_causal: bool, base: float = 10000.0,
                   layout: str = "interleaved") -> torch.Tensor:
    r"""The rope_attention of “Same words, different order…” §09: rotate Q and K, then PyTorch's fused attention.

    Formula:
        \mathrm{SDPA}\big(R(p)\,q,\ R(s)\,k,\ v\big), \qquad \text{SDPA}(Q, K, V) = \mathrm{Attn}(Q, K, V)

    q [N,H,L,d], k [N,H,S,d], v [N,H,S,dv]; F.scaled_dot_product_attention adds no position: the
    rotation before it is the only place where positions enter. is_causal needs L == S (SDPA's
    mask is aligned top-left). -> Tensor[N,H,L,dv].
    """
    length, keys = _qkv(q, k, v)
    if is_causal and length != keys:
        raise PosvizError("rope_causal_lengths", L=length, S=keys)
    q = apply_rope(q, query_positions, base=base, layout=layout)     # [N,H,L,d]
    k = apply_rope(k, key_positions, base=base, layout=layout)       # [N,H,S,d]
    return F.scaled_dot_product_attention(q, k, v, is_causal=bool(is_causal), dropout_p=0.0)  # [N,H,L,dv]


# ---------------------------------------------------------------- M-RoPE: which axis each pair follows
MROPE_AXES = ("temporal", "height", "width")


def _mrope_sections(sections, pairs=None, rows=(3,)):
    """Non-negative ints (three, or as many as `rows` allows) adding up to the number of pairs (default: their
    sum) -> (list[int], pairs)."""
    if isinstance(sections, (str, bytes)) or not hasattr(sections, "__len__") or len(sections) not in rows:
        raise PosvizError("mrope_sections", n=pairs or "d/2", got=repr(sections)[:80])
    try:
        out = [check_int("mrope_section", s, 0, MAX_DIM // 2) for s in sections]
    except PosvizError:
        raise PosvizError("mrope_sections", n=pairs or "d/2", got=repr(list(sections))[:80]) from None
    pairs = sum(out) if pairs is None else pairs
    if sum(out) != pairs or not 1 <= pairs <= MAX_DIM // 2:
        raise PosvizError("mrope_sections", n=pairs, got=repr(out))
    return out, pairs


MROPE_SCHEMES = ("blocks", "interleaved", "hw_t", "halves")


def mrope_axes(sections: Sequence[int], scheme: str = "blocks", *, pairs: int | None = None) -> torch.Tensor:
    r"""The position row each frequency pair turns by, for each of its two dims -> LongTensor[d/2, 2].

    Formula:
        \text{blocks: } a_i = 0\ (i < s_0),\ 1\ (s_0 \le i < s_0 + s_1),\ 2\ (\text{else})
        \text{interleaved: } a_i = 1\ (i \bmod 3 = 1,\ i < 3 s_1),\ 2\ (i \bmod 3 = 2,\ i < 3 s_2),\ 0\ (\text{else})
        \text{hw\_t: } a_i = 1\ (i < s_0 + s_1,\ i\ \text{even}),\ 2\ (i < s_0 + s_1,\ i\ \text{odd}),\ 0\ (\text{else})
        \text{halves: } a(m) = r \iff 2\textstyle\sum_{q<r} s_q \le m < 2\sum_{q\le r} s_q,\quad
            (a_i, a_i') = \big(a(i),\ a(i + d/2)\big)

    The first three give both dims of a pair the same row (a true rotation): consecutive blocks (Qwen2-VL,
    Qwen2.5-VL), interleaved t, h, w, t, h, w, ... (Qwen3-VL, Qwen3.5), and ERNIE 4.5 VL's h / w alternating over
    its first s_0 + s_1 pairs with t on the last s_2. Rows 0, 1, 2 are the position ids of time, height, width.
    "halves" (HunYuan's XD-RoPE) splits the duplicated frequencies [θ, θ] of the d dims into consecutive blocks of
    2 s_r dims, block r taking row r: the two halves of pair (i, i + d/2) can follow different rows, so for an
    image token the pair is not rotated but sheared. Its rows are whatever the model's position rows are (any
    number, at least two).
    """
    scheme = check_choice("scheme", scheme, MROPE_SCHEMES)
    s, pairs = _mrope_sections(sections, pairs, rows=range(2, 9) if scheme == "halves" else (3,))
    i = torch.arange(pairs)                                          # [d/2]
    if scheme == "halves":
        row = torch.repeat_interleave(torch.arange(len(s)), 2 * torch.tensor(s))   # [d] row of each dim
        return torch.stack([row[:pairs], row[pairs:]], dim=1)        # [d/2, 2]
    if scheme == "blocks":
        axis = torch.repeat_interleave(torch.arange(3), torch.tensor(s))   # [d/2]
    elif scheme == "interleaved":
        axis = torch.zeros(pairs, dtype=torch.long)                  # [d/2]
        axis[(i % 3 == 1) & (i < 3 * s[1])] = 1
        axis[(i % 3 == 2) & (i < 3 * s[2])] = 2
    else:
        hw = i < s[0] + s[1]                                         # [d/2]
        axis = torch.where(hw, 1 + i % 2, torch.zeros_like(i))       # [d/2]
    return torch.stack([axis, axis], dim=1)                          # [d/2, 2]


def mrope_pair_axes(sections: Sequence[int], *, interleaved: bool = False, pairs: int | None = None) -> torch.Tensor:
    """The axis (0 temporal, 1 height, 2 width) whose position id rotates each frequency pair -> LongTensor[d/2]:
    mrope_axes of the blocks (Qwen2-VL, Qwen2.5-VL) or interleaved (Qwen3-VL, Qwen3.5) scheme, whose two dims of a
    pair share a row."""
    return mrope_axes(sections, "interleaved" if interleaved else "blocks", pairs=pairs)[:, 0]   # [d/2]


def mrope_angles(position_ids: torch.Tensor, inv_freq: torch.Tensor, sections: Sequence[int], *,
                 interleaved: bool = False) -> torch.Tensor:
    r"""Each pair's angle at each token under M-RoPE: pair i turns by the position id of its axis a_i
    (mrope_pair_axes) -> Tensor[L, d/2] float32.

    Formula:
        \phi_{j,i} = p^{(a_i)}_j\,\theta_i, \qquad p^{(0)}, p^{(1)}, p^{(2)} = \text{temporal, height, width ids}

    position_ids [3, L] (temporal, height, width; mrope_position_ids); inv_freq [d/2]; float32 as
    transformers computes it (its rotary embedding's recomposition picks the same entries).
    """
    inv_freq = as_tensor("inv_freq", inv_freq, ndim=1)               # [d/2]
    if inv_freq.is_complex() or inv_freq.dtype == torch.bool or not inv_freq.numel():
        raise PosvizError("tensor", name="inv_freq", got=str(inv_freq.dtype))
    inv_freq = inv_freq.to(torch.float32)                            # [d/2]
    if not torch.isfinite(inv_freq).all():
        raise PosvizError("finite", name="inv_freq", got="a non-finite entry")
    pos = _as_positions(as_tensor("position_ids", position_ids, ndim=2))   # [3,L] float32
    if pos.shape[0] != 3 or pos.shape[1] > MAX_LENGTH:
        raise PosvizError("mrope_position_shape", hi=MAX_LENGTH, shape=list(pos.shape))
    axis = mrope_pair_axes(sections, interleaved=interleaved, pairs=inv_freq.shape[0])   # [d/2]
    freqs = pos[..., None] * inv_freq                                # [3,L,d/2]
    index = axis[None, None, :].expand(1, pos.shape[1], -1)          # [1,L,d/2]
    return freqs.gather(0, index)[0]                                 # [L,d/2]
