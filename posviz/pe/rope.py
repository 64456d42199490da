r"""Rotary position embedding (RoPE), seed 000 §07-§09 and seed 001 "RoPE".

Each pair i of a head's d dimensions is rotated by the angle p * theta_i:

    theta_i = base^{-2i/d},  i = 0 .. d/2-1
    R_i(p) = [[cos p theta_i, -sin p theta_i],
              [sin p theta_i,  cos p theta_i]]
    (R(p) q)^T (R(s) k) = q^T R(p)^T R(s) k = q^T R(s - p) k   (only s - p survives)

Two pairings exist in real code:
    "interleaved": pairs (0,1), (2,3), ...           RoFormer, seed 000 §09
    "half":        pairs (i, i + d/2)                Hugging Face Llama `rotate_half`
They are the same rotation after the permutation P of `pairing_permutation`:
    interleaved(x) = P^{-1} half(P x),   and (P a).(P b) = a.b, so scores agree,
but a checkpoint trained with one pairing is NOT usable by code with the other unless its
Q/K projection rows are permuted (seed 000 §12 step 5).

Only Q and K are rotated, after the Q/K projection, in every layer and every head;
V is never rotated (seed 000 §07, seed 001).

`apply_rope` is the transparent formula of seed 000 §09; where a faster computation gives the
very same bits (interleaved, contiguous float32/float64 of suitable shape) it hands the rotation
to the private `posviz.pe._rope_fast` (tests assert torch.equal).
"""
import math

import torch
from torch.nn import functional as F

from posviz.pe import _rope_fast
from posviz.validate import (
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
ROTATE = ("both", "q")          # "q": the bug of seed 000 §13 / §17 ex. 2 (only Q rotated)
CONTENTS = ("unit", "random")
MAX_THETA = 1e3                 # |theta| of a hand-made pair (rad per token)


# ---------------------------------------------------------------- frequencies and angles
def rope_inv_freq(head_dim, base=10000.0):
    r"""The rotation speed of every pair, computed exactly as transformers does (float32 throughout).

    Formula:
        \theta_i = \frac{1}{\text{base}^{2i/d}}, \quad i = 0, \dots, d/2 - 1

    The expression is transformers' default RoPE init (LlamaRotaryEmbedding.
    compute_default_rope_parameters), evaluated in float32 as there, so that apply_rope equals
    Hugging Face's apply_rotary_pos_emb bit for bit at every position. -> Tensor[d/2] float32.
    """
    head_dim = check_even("head_dim", head_dim)
    base = check_base(base)
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))  # [d/2]
    return inv_freq


def _resolve_inv_freq(head_dim, base, inv_freq):
    """inv_freq if given (checked against head_dim), else rope_inv_freq -> float32 [d/2]."""
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
    """int / float / list / tensor of positions -> float32 tensor of the same shape, checked."""
    position_ids = as_tensor(name, position_ids)                     # same shape
    if position_ids.is_complex() or position_ids.dtype == torch.bool:
        raise PosvizError("rope_real", name=name, dtype=str(position_ids.dtype))
    pos = position_ids.to(torch.float32)                             # same shape
    if pos.numel() and (not torch.isfinite(pos).all() or pos.abs().max() > MAX_POSITION):
        raise PosvizError("rope_positions", name=name, hi=MAX_POSITION)
    return pos


def _scalar_or_1d(name, t):
    if t.ndim > 1:
        raise PosvizError("rope_scalar_or_1d", name=name, shape=list(t.shape))
    return t


def rope_angles(position_ids, head_dim, *, base=10000.0, inv_freq=None):
    r"""The angle of every pair at every position, in float32 as models compute it.

    Formula:
        \phi_{p,i} = p\,\theta_i

    position_ids: a number or a tensor [...] -> Tensor[..., d/2] float32.
    """
    inv_freq = _resolve_inv_freq(head_dim, base, inv_freq)          # [d/2]
    pos = _as_positions(position_ids)                                # [...]
    return pos[..., None] * inv_freq                                 # [..., d/2]


def wrap_angle(angle):
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
def rope_pairs(head_dim, layout="interleaved"):
    """Which dimensions form pair i (rotated by theta_i) -> LongTensor[d/2, 2].

    interleaved: (2i, 2i+1);  half: (i, i + d/2).
    """
    head_dim = check_even("head_dim", head_dim)
    check_choice("layout", layout, ROPE_LAYOUTS)
    i = torch.arange(head_dim // 2)                                  # [d/2]
    if layout == "interleaved":
        return torch.stack((2 * i, 2 * i + 1), dim=-1)               # [d/2,2]
    return torch.stack((i, i + head_dim // 2), dim=-1)               # [d/2,2]


def pairing_permutation(head_dim, src="interleaved", dst="half"):
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


def convert_layout(x, src="interleaved", dst="half"):
    """Reorder the last dimension of x [..., d] from one pairing to the other (x[..., P])."""
    if not isinstance(x, torch.Tensor) or x.ndim < 1:
        raise PosvizError("tensor", name="x", got=type(x).__name__)
    perm = pairing_permutation(x.shape[-1], src, dst)                # [d]
    return x[..., perm]                                              # [..., d]


# ---------------------------------------------------------------- rotation matrices
def rotation_2x2(angle):
    r"""The 2x2 rotation of every angle of a tensor [...] -> [..., 2, 2].

    Formula:
        R(\phi) = \begin{bmatrix}\cos\phi & -\sin\phi\\ \sin\phi & \cos\phi\end{bmatrix}
    """
    a = torch.as_tensor(angle)                                       # [...]
    if not a.is_floating_point():
        a = a.to(torch.float32)                                      # [...]
    c, s = a.cos(), a.sin()                                          # [...] x2
    return torch.stack((torch.stack((c, -s), -1), torch.stack((s, c), -1)), -2)  # [...,2,2]


def rope_pair_rotations(position, head_dim, *, base=10000.0, inv_freq=None):
    r"""R_i(p) for every pair i: rotation_2x2(p * theta_i) -> Tensor[d/2, 2, 2] float32."""
    pos = check_float("position", position, -MAX_POSITION, MAX_POSITION)
    return rotation_2x2(rope_angles(pos, head_dim, base=base, inv_freq=inv_freq))  # [d/2,2,2]


def rope_rotation_matrix(position, head_dim, *, base=10000.0, inv_freq=None, layout="interleaved"):
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


# ---------------------------------------------------------------- one pair, by hand (float64)
def _pair(name, v):
    try:
        t = torch.as_tensor(v, dtype=torch.float64)                  # [2]
    except (TypeError, ValueError, RuntimeError):
        raise PosvizError("rope_pair", name=name, got=repr(v)) from None
    if tuple(t.shape) != (2,) or not torch.isfinite(t).all():
        raise PosvizError("rope_pair", name=name, got=repr(v))
    return t


def pair_rotate(v, position, theta):
    r"""One pair v [2] turned by p * theta (float64, for hand checks) -> Tensor[2].

    Formula:
        R(p\theta)\,v = \big(v_1\cos p\theta - v_2\sin p\theta,\ v_1\sin p\theta + v_2\cos p\theta\big)
    """
    v = _pair("v", v)
    p = check_float("position", position, -MAX_POSITION, MAX_POSITION)
    theta = check_float("theta", theta, -MAX_THETA, MAX_THETA)
    return rotation_2x2(torch.tensor(p * theta, dtype=torch.float64)) @ v  # [2]


def pair_score(q, k, p, s, theta, rotate="both"):
    r"""The score of one pair after rotation (float64) -> 0-d Tensor.

    Formula:
        (R(p\theta)q)^\top (R(s\theta)k) = q^\top R\big((s-p)\theta\big)\,k

    rotate="q" rotates only the query (the bug of seed 000 §17 ex. 2): (R(p theta) q)^T k.
    """
    q, k = _pair("q", q), _pair("k", k)                              # [2] x2
    check_choice("rotate", rotate, ROTATE)
    rk = pair_rotate(k, s, theta) if rotate == "both" else k         # [2]
    return pair_rotate(q, p, theta) @ rk                             # []


def pair_score_relative(q, k, p, s, theta):
    r"""q^T R((s - p) theta) k for one pair (float64) -> 0-d Tensor: only s - p enters."""
    q, k = _pair("q", q), _pair("k", k)
    p = check_float("p", p, -MAX_POSITION, MAX_POSITION)
    s = check_float("s", s, -MAX_POSITION, MAX_POSITION)
    theta = check_float("theta", theta, -MAX_THETA, MAX_THETA)
    return q @ rotation_2x2(torch.tensor((s - p) * theta, dtype=torch.float64)) @ k  # []


def pair_score_closed_form(q, k, phi):
    r"""The score of one pair written with cos and sin of the relative angle (float64) -> 0-d Tensor.

    Formula:
        q^\top R(\phi)\,k = \cos\phi\,(q_1k_1 + q_2k_2) + \sin\phi\,(q_2k_1 - q_1k_2)
        \phi = (s-p)\,\theta \ \text{(both rotated)}, \qquad \phi = -p\,\theta \ \text{(only } q \text{ rotated)}
    """
    q, k = _pair("q", q), _pair("k", k)                              # [2] x2
    phi = check_float("phi", phi, -MAX_POSITION * MAX_THETA, MAX_POSITION * MAX_THETA)
    dot, cross = q @ k, q[1] * k[0] - q[0] * k[1]                    # [] x2
    return math.cos(phi) * dot + math.sin(phi) * cross               # []


def hand_examples():
    """The worked examples of the seeds, recomputed -> list of dicts (python numbers).

    seed 000 §08: q=k=[1,0], theta=pi/2, (p,s)=(1,3) and (5,7): score -1 both times.
    seed 001:     q=k=(1,0), m=2, n=5: cos(3 theta), shown for theta=1 (base^0, pair 0).
    seed 000 §17 ex. 1: q=[1,2], k=[3,4], theta=pi/3: (1,2) and (5,6) equal, (5,7) differs.
    """
    cases = [
        ("s08", (1.0, 0.0), (1.0, 0.0), math.pi / 2, "π/2", 1, 3),
        ("s08_shift", (1.0, 0.0), (1.0, 0.0), math.pi / 2, "π/2", 5, 7),
        ("s001", (1.0, 0.0), (1.0, 0.0), 1.0, "1", 2, 5),
        ("s17_a", (1.0, 2.0), (3.0, 4.0), math.pi / 3, "π/3", 1, 2),
        ("s17_b", (1.0, 2.0), (3.0, 4.0), math.pi / 3, "π/3", 5, 6),
        ("s17_c", (1.0, 2.0), (3.0, 4.0), math.pi / 3, "π/3", 5, 7),
    ]
    rows = []
    for key, q, k, theta, theta_txt, p, s in cases:
        rq, rk = pair_rotate(q, p, theta), pair_rotate(k, s, theta)  # [2] x2
        rows.append(dict(
            example=key, q=list(q), k=list(k), theta=theta, theta_text=theta_txt, p=p, s=s,
            rq=[round(float(v), 4) + 0.0 for v in rq], rk=[round(float(v), 4) + 0.0 for v in rk],
            score=float(rq @ rk), relative=float(pair_score_relative(q, k, p, s, theta)),
        ))
    return rows


# ---------------------------------------------------------------- apply to [N,H,L,d]
def _position_ids(position_ids, n, length):
    """position_ids [L] or [N,L] (integer or float) -> float32 [1,L] or [N,L] (not expanded)."""
    position_ids = as_tensor("position_ids", position_ids)
    if position_ids.ndim == 1 and position_ids.shape[0] == length:
        position_ids = position_ids[None, :]                         # [1,L]
    elif position_ids.ndim != 2 or tuple(position_ids.shape) != (n, length):
        raise PosvizError("rope_position_shape", N=n, L=length, shape=list(position_ids.shape))
    return _as_positions(position_ids)                               # [1,L] or [N,L]


def rotate_half(x):
    """Hugging Face's rotate_half: (x1, x2) -> (-x2, x1) for the two halves of the last dimension."""
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]  # [...,d/2] x2
    return torch.cat((-x2, x1), dim=-1)                              # [...,d]


def rotate_pairs(x, cos, sin, layout="interleaved"):
    r"""Rotate each pair of x [..., d] by given cos/sin [..., d/2] (broadcast) -> [..., d].

    Formula:
        \text{half: } x' = x \odot [\cos, \cos] + \mathrm{rotate\_half}(x) \odot [\sin, \sin], \quad \mathrm{rotate\_half}(x_1, x_2) = (-x_2, x_1)

    "interleaved" takes the even and odd slices (seed 000 §09), "half" is Hugging Face's
    rotate_half form; both compute x1 cos - x2 sin and x1 sin + x2 cos for each pair (x1, x2).
    """
    if layout == "interleaved":
        even, odd = x[..., 0::2], x[..., 1::2]                       # [...,d/2] x2
        rotated_even = even * cos - odd * sin                        # [...,d/2]
        rotated_odd = even * sin + odd * cos                         # [...,d/2]
        return torch.stack((rotated_even, rotated_odd), dim=-1).flatten(-2)  # [...,d]
    cos, sin = torch.cat((cos, cos), dim=-1), torch.cat((sin, sin), dim=-1)  # [...,d] x2
    return x * cos + rotate_half(x) * sin                            # [...,d]


def apply_rope(x, position_ids, *, base=10000.0, inv_freq=None, attention_factor=1.0,
               layout="interleaved"):
    r"""Rotate x [N,H,L,d] by R(p) for the positions p in position_ids ([L] or [N,L]).

    Formula:
        \theta_i = \text{base}^{-2i/d}, \qquad \phi_{p,i} = p\,\theta_i \ \text{(float32)}
        x'_{2i} = x_{2i}\cos\phi_{p,i} - x_{2i+1}\sin\phi_{p,i}
        x'_{2i+1} = x_{2i}\sin\phi_{p,i} + x_{2i+1}\cos\phi_{p,i}

    The transparent formula of seed 000 §09: angles in float32, only cos/sin cast to x.dtype;
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

    angles = pos[..., None] * inv_freq                               # [B,L,d/2] float32
    cos = (angles.cos() * attention_factor).to(x.dtype)[:, None]     # [B,1,L,d/2]
    sin = (angles.sin() * attention_factor).to(x.dtype)[:, None]     # [B,1,L,d/2]
    if _rope_fast.applies(x, layout):
        return _rope_fast.rotate_interleaved(x, cos, sin)            # [N,H,L,d] same bits, one pass
    return rotate_pairs(x, cos, sin, layout)                         # [N,H,L,d]


def apply_rope_steps(x, position_ids, *, base=10000.0):
    r"""Every intermediate of apply_rope (interleaved) for one head, in the order of its listing.

    Formula:
        \text{even} = x_{0::2}, \quad \text{odd} = x_{1::2}
        \text{out} = \mathrm{stack}(\text{even}\cos - \text{odd}\sin,\ \text{even}\sin + \text{odd}\cos).\mathrm{flatten}

    x [L,d] (one head's vectors), position_ids [L] -> dict of Tensors: inv_freq [d/2],
    angles [L,d/2] float32, cos and sin [L,d/2] (x.dtype), even, odd, rotated_even, rotated_odd
    [L,d/2] and out [L,d]; out == apply_rope(x[None, None], position_ids)[0, 0] (tested).
    """
    if not isinstance(x, torch.Tensor) or x.ndim != 2 or not x.is_floating_point():
        raise PosvizError("rope_x", got=f"{type(x).__name__} {list(getattr(x, 'shape', []))}")
    length, d = x.shape
    inv_freq = rope_inv_freq(d, base)                                # [d/2]
    pos = _position_ids(position_ids, 1, length)[0]                  # [L]
    angles = pos[..., None] * inv_freq                               # [L,d/2] float32
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)    # [L,d/2] x2
    even, odd = x[..., 0::2], x[..., 1::2]                           # [L,d/2] x2
    rotated_even = even * cos - odd * sin                            # [L,d/2]
    rotated_odd = even * sin + odd * cos                             # [L,d/2]
    out = torch.stack((rotated_even, rotated_odd), dim=-1).flatten(-2)  # [L,d]
    return dict(inv_freq=inv_freq, angles=angles, cos=cos, sin=sin, even=even, odd=odd,
                rotated_even=rotated_even, rotated_odd=rotated_odd, out=out)


# ---------------------------------------------------------------- attention (seed 000 §09)
def _qkv(q, k, v):
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not isinstance(t, torch.Tensor) or t.ndim != 4 or not t.is_floating_point():
            raise PosvizError("rope_qkv", name=name, shape=list(getattr(t, "shape", [])))
    n, h, _, d = q.shape
    if k.shape[:2] != (n, h) or k.shape[3] != d or v.shape[:3] != k.shape[:3]:
        raise PosvizError("rope_qkv", name="k, v", shape=[list(k.shape), list(v.shape)])
    return q.shape[2], k.shape[2]


def plain_attention(q, k, v, *, is_causal):
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


def rope_attention(q, k, v, query_positions, key_positions, *, is_causal, base=10000.0,
                   layout="interleaved"):
    r"""seed 000 §09's rope_attention: rotate Q and K, then PyTorch's fused attention.

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


# ---------------------------------------------------------------- scores of q, k vectors
def _vector(name, v, head_dim=None):
    t = as_tensor(name, v, dtype=torch.float32)                      # [d]
    if t.ndim != 1 or (head_dim is not None and t.shape[0] != head_dim):
        raise PosvizError("rope_vector", name=name, want=head_dim if head_dim is not None else "d",
                          shape=list(t.shape))
    check_even(f"{name} length (head_dim)", t.shape[0])
    return t


def rotated_score(q, k, p, s, *, base=10000.0, inv_freq=None, attention_factor=1.0,
                  layout="interleaved", rotate="both"):
    r"""The score of content vectors q, k [d] after rotation through apply_rope, float32.

    Formula:
        (R(p)\,q)^\top (R(s)\,k) = q^\top R(p)^\top R(s)\,k = q^\top R(s-p)\,k

    p, s: positions, numbers or 1-D tensors [T] (broadcast) -> Tensor[] or [T]. rotate="q" rotates
    only the query (a bug: the score then depends on p itself, not only on s - p).
    """
    q = _vector("q", q)
    k = _vector("k", k, q.shape[0])
    check_choice("rotate", rotate, ROTATE)
    pp = _scalar_or_1d("p", _as_positions(p, "p"))                   # [] or [T]
    ss = _scalar_or_1d("s", _as_positions(s, "s"))                   # [] or [T]
    scalar = pp.ndim == 0 and ss.ndim == 0
    pp, ss = torch.broadcast_tensors(pp.reshape(-1), ss.reshape(-1))  # [T] x2
    t, d = pp.shape[0], q.shape[0]
    kw = dict(base=base, inv_freq=inv_freq, attention_factor=attention_factor, layout=layout)
    rq = apply_rope(q.expand(1, 1, t, d).contiguous(), pp, **kw)     # [1,1,T,d]
    rk = apply_rope(k.expand(1, 1, t, d).contiguous(), ss, **kw) if rotate == "both" \
        else k.expand(1, 1, t, d)                                    # [1,1,T,d]
    out = (rq * rk).sum(-1)[0, 0]                                    # [T]
    return out[0] if scalar else out


def rotated_score_relative(q, k, delta, *, base=10000.0, inv_freq=None, layout="interleaved"):
    r"""The relative form of rotated_score, pair by pair (float32).

    Formula:
        q^\top R(\delta) k = \sum_i \cos(\delta\theta_i)(q_a k_a + q_b k_b) + \sin(\delta\theta_i)(q_b k_a - q_a k_b)

    delta = s - p, a number or a 1-D tensor [T]; (a, b) = rope_pairs(d, layout)[i]
    -> Tensor[] or [T].
    """
    q = _vector("q", q)
    k = _vector("k", k, q.shape[0])
    d = q.shape[0]
    dl = _scalar_or_1d("delta", _as_positions(delta, "delta"))      # [] or [T]
    pairs = rope_pairs(d, layout)                                    # [d/2,2]
    qa, qb, ka, kb = q[pairs[:, 0]], q[pairs[:, 1]], k[pairs[:, 0]], k[pairs[:, 1]]  # [d/2] x4
    phi = rope_angles(dl, d, base=base, inv_freq=inv_freq)           # [..., d/2]
    return (phi.cos() * (qa * ka + qb * kb) + phi.sin() * (qb * ka - qa * kb)).sum(-1)  # [] or [T]


def shift_scores(q, k, m, n, delta, *, base=10000.0, inv_freq=None, layout="interleaved",
                 rotate="both"):
    r"""The two tests of seed 000 §12 steps 3-4 -> Tensor[3] float32.

    Formula:
        (R(m)q)^\top (R(n)k) = q^\top R(m)^\top R(n)\, k = q^\top R(n-m)\, k
        R\big((n+\Delta)-(m+\Delta)\big) = R(n-m)

    [score(m, n), score(m + delta, n + delta) (common shift: equal), score(m, n + delta)
    (only the key moves: different unless delta theta_i are multiples of 2 pi)].
    """
    m, n = (check_float(name, v, -MAX_POSITION, MAX_POSITION) for name, v in (("m", m), ("n", n)))
    delta = check_float("delta", delta, -MAX_POSITION, MAX_POSITION)
    p = torch.tensor([m, m + delta, m], dtype=torch.float64)        # [3]
    s = torch.tensor([n, n + delta, n + delta], dtype=torch.float64)  # [3]
    return rotated_score(q, k, p, s, base=base, inv_freq=inv_freq, layout=layout, rotate=rotate)  # [3]


def content_vectors(head_dim, kind="unit", seed=0, layout="interleaved"):
    """Content q, k [d] for the demos (float32).

    "unit":   every pair is (1, 0) (the hands of seed 001, q = k);
    "random": independent N(0, 1) entries from torch.Generator(seed).
    """
    head_dim = check_even("head_dim", head_dim)
    check_choice("kind", kind, CONTENTS)
    seed = check_int("seed", seed, 0, 2**31 - 1)
    if kind == "unit":
        q = torch.zeros(head_dim)                                    # [d]
        q[rope_pairs(head_dim, layout)[:, 0]] = 1.0
        return q, q.clone()                                          # [d] x2
    g = torch.Generator().manual_seed(seed)
    return torch.randn(head_dim, generator=g), torch.randn(head_dim, generator=g)  # [d] x2


def clock_hands(m, n, head_dim, *, base=10000.0, inv_freq=None, q=None, k=None,
                layout="interleaved"):
    r"""Clock faces: per pair i, the q hand at position m and the k hand at position n.

    Formula:
        \theta_i = \text{base}^{-2i/d}, \quad \phi_q = m\,\theta_i, \quad \phi_k = n\,\theta_i
        \angle(R(m)q_i,\ R(n)k_i) = \angle(q_i, k_i) + (n-m)\,\theta_i \ \text{wrapped to } (-\pi, \pi]

    A hand is the pair (q_a, q_b) rotated by m theta_i (unit (1, 0) when q is None); q_x, q_y its
    tip, q_angle its angle; the same for k at n. delta = wrap((n - m) theta_i), what the rotation
    adds; between = wrap(k_angle - q_angle), the angle drawn (= delta for unit hands);
    score = q_hand . k_hand. m, n: numbers or 1-D tensors [T] (broadcast)
    -> dict of float32 Tensors [d/2] or [T,d/2].
    """
    head_dim = check_even("head_dim", head_dim)
    inv_freq = _resolve_inv_freq(head_dim, base, inv_freq)          # [d/2]
    pairs = rope_pairs(head_dim, layout)                             # [d/2,2]
    mm = _scalar_or_1d("m", _as_positions(m, "m"))                   # [] or [T]
    nn = _scalar_or_1d("n", _as_positions(n, "n"))                   # [] or [T]
    unit = content_vectors(head_dim, "unit", 0, layout)[0]           # [d]
    qv = unit if q is None else _vector("q", q, head_dim)            # [d]
    kv = unit if k is None else _vector("k", k, head_dim)            # [d]
    q0 = torch.stack((qv[pairs[:, 0]], qv[pairs[:, 1]]), -1)         # [d/2,2]
    k0 = torch.stack((kv[pairs[:, 0]], kv[pairs[:, 1]]), -1)         # [d/2,2]
    mm, nn = torch.broadcast_tensors(mm, nn)                         # [] or [T]
    phi_q = mm[..., None] * inv_freq                                 # [...,d/2] float32
    phi_k = nn[..., None] * inv_freq                                 # [...,d/2]
    hq = (rotation_2x2(phi_q) @ q0[..., None])[..., 0]               # [...,d/2,2]
    hk = (rotation_2x2(phi_k) @ k0[..., None])[..., 0]               # [...,d/2,2]
    qa = torch.atan2(hq[..., 1], hq[..., 0])                         # [...,d/2]
    ka = torch.atan2(hk[..., 1], hk[..., 0])                         # [...,d/2]
    return dict(
        theta=inv_freq.expand_as(qa).clone(),                        # [...,d/2]
        q_angle=wrap_angle(qa), q_x=hq[..., 0], q_y=hq[..., 1],      # [...,d/2] x3
        k_angle=wrap_angle(ka), k_x=hk[..., 0], k_y=hk[..., 1],      # [...,d/2] x3
        delta=wrap_angle((nn - mm)[..., None] * inv_freq),           # [...,d/2]
        between=wrap_angle(ka - qa),                                 # [...,d/2]
        score=(hq * hk).sum(-1),                                     # [...,d/2]
    )


def shown_pairs(head_dim, count=4):
    """`count` pair indices spread from the fastest (0) to the slowest (d/2 - 1) -> LongTensor."""
    head_dim = check_even("head_dim", head_dim)
    count = check_int("count", count, 1, 16)
    half = head_dim // 2
    idx = torch.linspace(0, half - 1, min(count, half)).round().long()  # [c]
    return torch.unique(idx)                                         # [c']


def layout_demo(head_dim, m, n, *, base=10000.0, seed=0):
    r"""The two pairings side by side (seed 000 §12 step 5) -> dict of float32 Tensors.

    Formula:
        s_{\text{half}}(Pq, Pk) = s_{\text{interleaved}}(q, k), \qquad s_{\text{half}}(q, k) \ne s_{\text{interleaved}}(q, k)

    s_layout(q, k) = rotated_score(q, k, m, n, layout=...); q, k are random content vectors stored
    for the interleaved pairing.
      interleaved: score of (q, k) with layout="interleaved"
      half:        score of (P q, P k) with layout="half"  (P = pairing_permutation): identical
      mixed:       score of (q, k) with layout="half": the interleaved weights read with the
                   other pairing -- a different number, the bug.
    """
    q, k = content_vectors(head_dim, "random", seed)                 # [d] x2
    qh, kh = convert_layout(q), convert_layout(k)                    # [d] x2
    return dict(
        interleaved=rotated_score(q, k, m, n, base=base, layout="interleaved"),
        half=rotated_score(qh, kh, m, n, base=base, layout="half"),
        mixed=rotated_score(q, k, m, n, base=base, layout="half"),
        pairs_interleaved=rope_pairs(head_dim, "interleaved"),       # [d/2,2]
        pairs_half=rope_pairs(head_dim, "half"),                     # [d/2,2]
    )
