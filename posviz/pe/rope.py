r"""Rotary position embedding (RoPE), seed 000 §07-§09 and seed 001 "RoPE".

Each pair i of a head's d dimensions is rotated by the angle p * theta_i:

    theta_i = base^{-2i/d},  i = 0 .. d/2-1
    R_i(p) = [[cos p theta_i, -sin p theta_i],
              [sin p theta_i,  cos p theta_i]]
    (R(p) q)^T (R(s) k) = q^T R(p)^T R(s) k = q^T R(s - p) k   (only s - p survives)

Two pairings exist in real code:
    "interleaved": pairs (0,1), (2,3), ...           RoFormer, seed 000 §09
    "half":        pairs (i, i + d/2)                Hugging Face Llama `rotate_half`
They are the same rotation after the permutation P of `layout_permutation`:
    interleaved(x) = P^{-1} half(P x),   and (P a).(P b) = a.b, so scores agree,
but a checkpoint trained with one pairing is NOT usable by code with the other unless its
Q/K projection rows are permuted (seed 000 §12 step 5).

Only Q and K are rotated, after the Q/K projection, in every layer and every head;
V is never rotated (seed 000 §07, seed 001).
"""
import math
import threading
from collections import OrderedDict

import torch

from posviz.validate import (MAX_POSITION, check_base, check_choice, check_even, check_float,
                                check_int)

LAYOUTS = ("interleaved", "half")
ROTATE = ("both", "q")          # "q": the bug of seed 000 §13 / §17 ex. 2 (only Q rotated)
CONTENTS = ("unit", "random")


# ---------------------------------------------------------------- frequencies and angles
def rope_inv_freq(head_dim, base=10000.0):
    """theta_i = base^{-2i/d}, i = 0..d/2-1 -> Tensor[d/2] float32 (computed in float64)."""
    head_dim = check_even("head_dim", head_dim)
    base = check_base(base)
    i = torch.arange(0, head_dim, 2, dtype=torch.float64)          # [d/2] = 2i
    return (base ** (-i / head_dim)).to(torch.float32)              # [d/2]


def _resolve_inv_freq(head_dim, base, inv_freq):
    """inv_freq if given (checked against head_dim), else base^{-2i/d} -> float32 [d/2]."""
    head_dim = check_even("head_dim", head_dim)
    if inv_freq is None:
        return rope_inv_freq(head_dim, base)                         # [d/2]
    if not isinstance(inv_freq, torch.Tensor):
        inv_freq = torch.as_tensor(inv_freq)
    if tuple(inv_freq.shape) != (head_dim // 2,):
        raise ValueError(f"inv_freq must have shape [{head_dim // 2}] (head_dim/2), got {tuple(inv_freq.shape)}")
    inv_freq = inv_freq.to(torch.float32)                            # [d/2]
    if not torch.isfinite(inv_freq).all():
        raise ValueError("inv_freq must be finite")
    return inv_freq


def _as_positions(position_ids, name="position_ids"):
    """int / float / list / tensor of positions -> float32 tensor of the same shape, checked."""
    if not isinstance(position_ids, torch.Tensor):
        try:
            position_ids = torch.as_tensor(position_ids)
        except (TypeError, ValueError, RuntimeError):
            raise ValueError(f"{name} must be numbers, got {position_ids!r}") from None
    if position_ids.is_complex() or position_ids.dtype == torch.bool:
        raise ValueError(f"{name} must be real numbers, got dtype {position_ids.dtype}")
    pos = position_ids.to(torch.float32)                             # same shape
    if pos.numel() and (not torch.isfinite(pos).all() or pos.abs().max() > MAX_POSITION):
        raise ValueError(f"{name} must be finite with |p| <= {MAX_POSITION}")
    return pos


def rope_angles(position_ids, head_dim, *, base=10000.0, inv_freq=None):
    r"""phi[..., i] = p * theta_i, computed in float32 as models do.

    position_ids: a number or a tensor [...] -> Tensor[..., d/2] float32.
    """
    inv_freq = _resolve_inv_freq(head_dim, base, inv_freq)          # [d/2]
    pos = _as_positions(position_ids)                                # [...]
    return pos[..., None] * inv_freq                                 # [..., d/2]


def wrap_angle(angle):
    r"""Wrap angles to (-pi, pi]:  w = pi - ((pi - a) mod 2pi).  Same shape and dtype."""
    a = torch.as_tensor(angle)
    if not a.is_floating_point():
        a = a.to(torch.float32)                                      # [...]
    w = math.pi - torch.remainder(math.pi - a.to(torch.float64), 2 * math.pi)  # [...] float64
    return w.to(a.dtype)                                             # [...]


# ---------------------------------------------------------------- layouts
def rope_pairs(head_dim, layout="interleaved"):
    """Which dimensions form pair i (rotated by theta_i) -> LongTensor[d/2, 2].

    interleaved: (2i, 2i+1);  half: (i, i + d/2).
    """
    head_dim = check_even("head_dim", head_dim)
    check_choice("layout", layout, LAYOUTS)
    i = torch.arange(head_dim // 2)                                  # [d/2]
    if layout == "interleaved":
        return torch.stack((2 * i, 2 * i + 1), dim=-1)               # [d/2,2]
    return torch.stack((i, i + head_dim // 2), dim=-1)               # [d/2,2]


def layout_permutation(head_dim, src="interleaved", dst="half"):
    """Index P with x_dst = x_src[..., P]: the same pair i sits at rope_pairs(d, dst)[i].

    interleaved -> half: P = [0, 2, 4, ..., d-2, 1, 3, ..., d-1];  half -> interleaved is its
    inverse. Then  apply_rope(x, layout=src) == convert_layout(apply_rope(convert_layout(x,
    src, dst), layout=dst), dst, src)  and every q.k score is unchanged.
    """
    head_dim = check_even("head_dim", head_dim)
    check_choice("src", src, LAYOUTS)
    check_choice("dst", dst, LAYOUTS)
    a, b = rope_pairs(head_dim, src), rope_pairs(head_dim, dst)      # [d/2,2] x2
    perm = torch.empty(head_dim, dtype=torch.long)                   # [d]
    perm[b.flatten()] = a.flatten()                                  # dst slot of pair i <- src slot
    return perm                                                      # [d]


def convert_layout(x, src="interleaved", dst="half"):
    """Reorder the last dimension of x [..., d] from one pairing to the other (x[..., P])."""
    if not isinstance(x, torch.Tensor) or x.ndim < 1:
        raise ValueError(f"x must be a tensor [..., d], got {type(x).__name__}")
    perm = layout_permutation(x.shape[-1], src, dst)                 # [d]
    return x[..., perm]                                              # [..., d]


# ---------------------------------------------------------------- rotation matrices
def rotation_2x2(angle):
    r"""R(a) = [[cos a, -sin a], [sin a, cos a]] for a tensor of angles [...] -> [..., 2, 2]."""
    a = torch.as_tensor(angle)
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

    Block i sits on the rows/columns rope_pairs(d, layout)[i] and rotates by p * theta_i:
        R[a, a] = cos, R[a, b] = -sin, R[b, a] = sin, R[b, b] = cos.
    Property (any layout): R(p)^T R(s) = R(s - p).
    """
    pos = check_float("position", position, -MAX_POSITION, MAX_POSITION)
    check_choice("layout", layout, LAYOUTS)
    phi = rope_angles(pos, head_dim, base=base, inv_freq=inv_freq)   # [d/2]
    pairs = rope_pairs(head_dim, layout)                             # [d/2,2]
    a, b = pairs[:, 0], pairs[:, 1]                                  # [d/2] x2
    r = torch.zeros(head_dim, head_dim, dtype=torch.float32)         # [d,d]
    r[a, a] = phi.cos()
    r[a, b] = -phi.sin()
    r[b, a] = phi.sin()
    r[b, b] = phi.cos()
    return r                                                         # [d,d]


# ---------------------------------------------------------------- one pair, by hand
def _pair(name, v):
    t = torch.as_tensor(v, dtype=torch.float64)                      # [2]
    if tuple(t.shape) != (2,) or not torch.isfinite(t).all():
        raise ValueError(f"{name} must be a finite 2-vector, got {v!r}")
    return t


def pair_rotate(v, position, theta):
    r"""R(p theta) v for one pair v [2] (float64, for hand checks) -> Tensor[2]."""
    v = _pair("v", v)
    p = check_float("position", position, -MAX_POSITION, MAX_POSITION)
    theta = check_float("theta", theta, -1e3, 1e3)
    return rotation_2x2(torch.tensor(p * theta, dtype=torch.float64)) @ v  # [2]


def pair_score(q, k, p, s, theta):
    r"""(R(p theta) q)^T (R(s theta) k) for one pair (float64) -> 0-d Tensor.

    Equals pair_score_relative(q, k, p, s, theta) = q^T R((s - p) theta) k.
    """
    q, k = _pair("q", q), _pair("k", k)                              # [2] x2
    return pair_rotate(q, p, theta) @ pair_rotate(k, s, theta)       # []


def pair_score_relative(q, k, p, s, theta):
    r"""q^T R((s - p) theta) k for one pair (float64) -> 0-d Tensor: only s - p enters."""
    q, k = _pair("q", q), _pair("k", k)
    p = check_float("p", p, -MAX_POSITION, MAX_POSITION)
    s = check_float("s", s, -MAX_POSITION, MAX_POSITION)
    theta = check_float("theta", theta, -1e3, 1e3)
    return q @ rotation_2x2(torch.tensor((s - p) * theta, dtype=torch.float64)) @ k  # []


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
def _positions(position_ids, n, length):
    """position_ids [L] or [N,L] (integer or float) -> float32 [1,L] or [N,L] (not expanded)."""
    if not isinstance(position_ids, torch.Tensor):
        try:
            position_ids = torch.as_tensor(position_ids)
        except (TypeError, ValueError, RuntimeError):
            raise ValueError(f"position_ids must be numbers [L] or [N,L], got {position_ids!r}") from None
    if position_ids.ndim == 1:
        if position_ids.shape[0] != length:
            raise ValueError(f"position_ids must have shape [L]={length} or [N,L], got {tuple(position_ids.shape)}")
        position_ids = position_ids[None, :]                         # [1,L]
    elif position_ids.ndim != 2 or tuple(position_ids.shape) != (n, length):
        raise ValueError(f"position_ids must have shape [{length}] or [{n},{length}], got {tuple(position_ids.shape)}")
    return _as_positions(position_ids)                               # [1,L] or [N,L]


def _check_positions(position_ids, n, length):
    """position_ids [L] or [N,L] (integer or float) -> float32 [N,L]."""
    return _positions(position_ids, n, length).expand(n, length)     # [N,L]


def rope_cos_sin(position_ids, inv_freq, attention_factor=1.0):
    """Angles p * theta_i in float32 -> (cos, sin), each [N, L, d/2]."""
    angles = position_ids.to(torch.float32)[..., None] * inv_freq.to(torch.float32)  # [N,L,d/2]
    return angles.cos() * attention_factor, angles.sin() * attention_factor           # [N,L,d/2] x2


# Angle tables are cached: a model applies the same positions to Q and K of every layer.
_TABLE_CACHE = OrderedDict()
_TABLE_LOCK = threading.Lock()
_TABLE_ENTRIES = 8
_TABLE_MAX_NUMEL = 1 << 22       # tables above 4M entries are recomputed, not kept


def _table(pos, inv_freq, attention_factor, dtype, complex_table):
    """(cos, sin) [B,1,L,d/2] in `dtype`, or cos + i sin as one complex table, cached.

    Keyed by the exact bytes of the positions and inv_freq, so a hit is always the same
    numbers as a recomputation.
    """
    key = (pos.shape, pos.detach().numpy().tobytes(), inv_freq.detach().numpy().tobytes(), attention_factor, dtype,
           complex_table) if pos.device.type == "cpu" else None
    if key is not None:
        with _TABLE_LOCK:
            hit = _TABLE_CACHE.get(key)
            if hit is not None:
                _TABLE_CACHE.move_to_end(key)
                return hit
    cos, sin = rope_cos_sin(pos, inv_freq, attention_factor)         # [B,L,d/2] x2 float32
    cos, sin = cos.to(dtype)[:, None], sin.to(dtype)[:, None]        # [B,1,L,d/2] x2
    value = torch.complex(cos, sin) if complex_table else (cos, sin)  # [B,1,L,d/2] complex
    if key is not None and cos.numel() <= _TABLE_MAX_NUMEL:
        with _TABLE_LOCK:
            _TABLE_CACHE[key] = value
            while len(_TABLE_CACHE) > _TABLE_ENTRIES:
                _TABLE_CACHE.popitem(last=False)
    return value


def _complex_path_is_exact(x):
    """True when the one-pass complex multiply gives bit-for-bit the separate products and sums.

    PyTorch's vectorised complex multiply computes ac - bs and as + bc with separate roundings,
    like the formula; its scalar remainder loop may fuse them (FMA, 1 ulp apart). So the fast
    path is used only when every row and every thread's chunk is a whole number of vector blocks
    (64 complex numbers); other shapes (small demos) take the formula path.
    """
    if x.dtype not in (torch.float32, torch.float64) or not x.is_contiguous() or x.device.type != "cpu":
        return False
    n, h, length, d = x.shape
    row, total, threads = length * (d // 2), x.numel() // 2, max(1, torch.get_num_threads())
    return row % 64 == 0 and (threads == 1 or (total % threads == 0 and (total // threads) % 64 == 0))


def apply_rope(x, position_ids, *, base=10000.0, inv_freq=None, attention_factor=1.0,
               layout="interleaved"):
    """Rotate x [N,H,L,d] by R(p) for the positions p in position_ids ([L] or [N,L]).

    x'_{2i}   = x_{2i} cos(p theta_i) - x_{2i+1} sin(p theta_i)      (interleaved)
    x'_{2i+1} = x_{2i} sin(p theta_i) + x_{2i+1} cos(p theta_i)
    "half" pairs x_i with x_{i+d/2} instead. Angles are computed in float32 and only
    cos/sin are cast to x.dtype (seed 000 §09). cos and sin are multiplied by
    attention_factor, as Hugging Face does for YaRN.

    Fast path (interleaved, contiguous float32/float64): pair (x_{2i}, x_{2i+1}) is the complex
    number x_{2i} + i x_{2i+1}, and the rotation is one complex multiply by cos + i sin, i.e.
    (a + ib)(c + is) = (ac - bs) + i(as + bc): the same products and sums as the lines
    above, in one pass over x.
    """
    if not isinstance(x, torch.Tensor) or x.ndim != 4:
        raise ValueError(f"x must be a tensor [N,H,L,d], got shape {getattr(x, 'shape', None)}")
    if not x.is_floating_point():
        raise ValueError(f"x must be a floating point tensor, got dtype {x.dtype}")
    n, h, length, d = x.shape
    check_even("head_dim (x.shape[-1])", d)
    check_choice("layout", layout, LAYOUTS)
    attention_factor = check_float("attention_factor", attention_factor, 0.0, 100.0, lo_open=True)
    if inv_freq is None:
        inv_freq = rope_inv_freq(d, base)                            # [d/2]
    elif not isinstance(inv_freq, torch.Tensor) or tuple(inv_freq.shape) != (d // 2,):
        raise ValueError(f"inv_freq must have shape [{d // 2}] (head_dim/2), got {tuple(getattr(inv_freq, 'shape', ()))}")
    inv_freq = inv_freq.to(torch.float32)                            # [d/2]
    pos = _positions(position_ids, n, length)                        # [B,L], B in {1, N}
    if layout == "interleaved" and _complex_path_is_exact(x):
        rot = _table(pos, inv_freq, attention_factor, x.dtype, True)  # [B,1,L,d/2] complex
        xc = torch.view_as_complex(x.view(n, h, length, d // 2, 2))  # [N,H,L,d/2] complex (a view)
        return torch.view_as_real(xc * rot).view(n, h, length, d)    # [N,H,L,d]
    cos, sin = _table(pos, inv_freq, attention_factor, x.dtype, False)  # [B,1,L,d/2] x2
    return rotate_pairs(x, cos, sin, layout)                         # [N,H,L,d]


def rotate_pairs(x, cos, sin, layout="interleaved"):
    """Rotate each pair of x [...,d] by given cos/sin [...,d/2] (broadcast):

    (x1, x2) -> (x1 cos - x2 sin, x1 sin + x2 cos), pairs (2i, 2i+1) or (i, i+d/2).
    """
    d = x.shape[-1]
    if layout == "interleaved":
        x1, x2 = x[..., 0::2], x[..., 1::2]                          # [...,d/2] x2
        out = torch.empty_like(x)                                    # [...,d]
        out[..., 0::2] = x1 * cos - x2 * sin
        out[..., 1::2] = x1 * sin + x2 * cos
        return out
    x1, x2 = x[..., : d // 2], x[..., d // 2:]                       # [...,d/2] x2
    return torch.cat((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)  # [...,d]


# ---------------------------------------------------------------- scores
def _vector(name, v, head_dim=None):
    t = torch.as_tensor(v, dtype=torch.float32)                      # [d]
    if t.ndim != 1 or (head_dim is not None and t.shape[0] != head_dim):
        want = f"[{head_dim}]" if head_dim is not None else "[d]"
        raise ValueError(f"{name} must be a vector {want}, got shape {tuple(t.shape)}")
    check_even(f"{name} length (head_dim)", t.shape[0])
    return t


def rope_score(q, k, p, s, *, base=10000.0, inv_freq=None, attention_factor=1.0,
               layout="interleaved", rotate="both"):
    r"""Score after rotation: (R(p) q)^T (R(s) k) through apply_rope, float32.

    q, k: content vectors [d]; p, s: positions, numbers or 1-D tensors [T] (broadcast)
    -> Tensor[] or [T]. rotate="q" rotates only the query (a bug: the score then depends on
    p itself, not only on s - p).
    """
    q, k = _vector("q", q), _vector("k", k, None)
    if k.shape != q.shape:
        raise ValueError(f"k must have the same shape as q {tuple(q.shape)}, got {tuple(k.shape)}")
    check_choice("rotate", rotate, ROTATE)
    pp, ss = _as_positions(p, "p"), _as_positions(s, "s")           # [] or [T]
    if pp.ndim > 1 or ss.ndim > 1:
        raise ValueError("p and s must be numbers or 1-D tensors")
    scalar = pp.ndim == 0 and ss.ndim == 0
    pp, ss = torch.broadcast_tensors(pp.reshape(-1), ss.reshape(-1))  # [T] x2
    t, d = pp.shape[0], q.shape[0]
    kw = dict(base=base, inv_freq=inv_freq, attention_factor=attention_factor, layout=layout)
    rq = apply_rope(q.expand(1, 1, t, d).contiguous(), pp, **kw)     # [1,1,T,d]
    rk = apply_rope(k.expand(1, 1, t, d).contiguous(), ss, **kw) if rotate == "both" \
        else k.expand(1, 1, t, d)                                    # [1,1,T,d]
    out = (rq * rk).sum(-1)[0, 0]                                    # [T]
    return out[0] if scalar else out


def rope_score_relative(q, k, delta, *, base=10000.0, inv_freq=None, layout="interleaved"):
    r"""Relative form q^T R(delta) k, delta = s - p, computed pair by pair (float32):

        q^T R(phi) k = sum_i cos(phi_i)(q_a k_a + q_b k_b) + sin(phi_i)(q_b k_a - q_a k_b),
        phi_i = delta * theta_i,  (a, b) = rope_pairs(d, layout)[i].
    delta: a number or a 1-D tensor [T] -> Tensor[] or [T].
    """
    q = _vector("q", q)
    k = _vector("k", k, q.shape[0])
    d = q.shape[0]
    dl = _as_positions(delta, "delta")                               # [] or [T]
    if dl.ndim > 1:
        raise ValueError("delta must be a number or a 1-D tensor")
    pairs = rope_pairs(d, layout)                                    # [d/2,2]
    qa, qb, ka, kb = q[pairs[:, 0]], q[pairs[:, 1]], k[pairs[:, 0]], k[pairs[:, 1]]  # [d/2] x4
    phi = rope_angles(dl, d, base=base, inv_freq=inv_freq)           # [..., d/2]
    return (phi.cos() * (qa * ka + qb * kb) + phi.sin() * (qb * ka - qa * kb)).sum(-1)  # [] or [T]


def shift_scores(q, k, m, n, delta, *, base=10000.0, inv_freq=None, layout="interleaved",
                 rotate="both"):
    r"""The two tests of seed 000 §12 steps 3-4 -> Tensor[3] float32:

    [score(m, n), score(m + delta, n + delta) (common shift: equal), score(m, n + delta)
    (only the key moves: different unless delta theta_i are multiples of 2 pi)].
    """
    m, n = (check_float(k, v, -MAX_POSITION, MAX_POSITION) for k, v in (("m", m), ("n", n)))
    delta = check_float("delta", delta, -MAX_POSITION, MAX_POSITION)
    p = torch.tensor([m, m + delta, m], dtype=torch.float64)        # [3]
    s = torch.tensor([n, n + delta, n + delta], dtype=torch.float64)  # [3]
    return rope_score(q, k, p, s, base=base, inv_freq=inv_freq, layout=layout, rotate=rotate)  # [3]


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

    A hand is the pair (q_a, q_b) rotated by m theta_i (unit (1, 0) when q is None):
        q_angle = atan2 of R(m theta_i) q_pair, (q_x, q_y) its tip; same for k at n.
        delta   = wrap((n - m) theta_i) in (-pi, pi]: what the rotation adds between them.
        between = wrap(k_angle - q_angle) (= delta for unit hands), score = q_hand . k_hand.
    m, n: numbers or 1-D tensors [T] (broadcast) -> dict of float32 Tensors [d/2] or [T,d/2].
    """
    head_dim = check_even("head_dim", head_dim)
    inv_freq = _resolve_inv_freq(head_dim, base, inv_freq)          # [d/2]
    pairs = rope_pairs(head_dim, layout)                             # [d/2,2]
    mm, nn = _as_positions(m, "m"), _as_positions(n, "n")           # [] or [T]
    if mm.ndim > 1 or nn.ndim > 1:
        raise ValueError("m and n must be numbers or 1-D tensors")
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

    q, k are random content vectors stored for the interleaved pairing.
      interleaved: score of (q, k) with layout="interleaved"
      half:        score of (P q, P k) with layout="half"  (P = layout_permutation): identical
      mixed:       score of (q, k) with layout="half": the interleaved weights read with the
                   other pairing -- a different number, the bug.
    """
    q, k = content_vectors(head_dim, "random", seed)                 # [d] x2
    qh, kh = convert_layout(q), convert_layout(k)                    # [d] x2
    return dict(
        interleaved=rope_score(q, k, m, n, base=base, layout="interleaved"),
        half=rope_score(qh, kh, m, n, base=base, layout="half"),
        mixed=rope_score(q, k, m, n, base=base, layout="half"),
        pairs_interleaved=rope_pairs(head_dim, "interleaved"),       # [d/2,2]
        pairs_half=rope_pairs(head_dim, "half"),                     # [d/2,2]
    )


# ---------------------------------------------------------------- page views (scalar arguments)
# The page caches these with ui.cache: scalar arguments in, small tensors out.
ANIMATION_STEPS = 48
MAX_SHOWN_DISTANCE = 64


def clock_view(m, n, head_dim, base=10000.0, content="unit", seed=0):
    """Hands of the shown pairs (fast -> slow) -> dict(pairs [c], hands {name: [c]})."""
    q, k = content_vectors(head_dim, content, seed)                  # [d] x2
    pairs = shown_pairs(head_dim)                                    # [c]
    hands = clock_hands(m, n, head_dim, base=base, q=q, k=k)         # {name: [d/2]}
    return dict(pairs=pairs, hands={key: v[pairs] for key, v in hands.items()})  # {name: [c]}


def score_view(m, n, delta, head_dim, base=10000.0, content="unit", seed=0, only_q=False):
    """shift_scores for the page's content vectors -> Tensor[3] (see shift_scores)."""
    q, k = content_vectors(head_dim, content, seed)                  # [d] x2
    return shift_scores(q, k, m, n, delta, base=base, rotate="q" if only_q else "both")  # [3]


def animation_view(m, n, head_dim, base=10000.0, content="unit", mode="both", seed=0,
                   steps=ANIMATION_STEPS):
    """Positions over steps t = 0..T-1: "both" moves (m+t, n+t), "key" moves (m, n+t).

    -> dict(pairs [c], q_xy [T,c,2], k_xy [T,c,2], scores [T], steps [T], m [T], n [T]).
    """
    check_choice("mode", mode, ("both", "key"))
    steps = check_int("steps", steps, 2, 512)
    m = check_float("m", m, -MAX_POSITION, MAX_POSITION)
    n = check_float("n", n, -MAX_POSITION, MAX_POSITION)
    q, k = content_vectors(head_dim, content, seed)                  # [d] x2
    t = torch.arange(steps)                                          # [T]
    mm = m + t if mode == "both" else torch.full((steps,), m)        # [T]
    nn = n + t                                                       # [T]
    pairs = shown_pairs(head_dim)                                    # [c]
    h = clock_hands(mm, nn, head_dim, base=base, q=q, k=k)           # {name: [T,d/2]}
    q_xy = torch.stack((h["q_x"], h["q_y"]), -1)[:, pairs]           # [T,c,2]
    k_xy = torch.stack((h["k_x"], h["k_y"]), -1)[:, pairs]           # [T,c,2]
    scores = rope_score(q, k, mm, nn, base=base)                     # [T]
    return dict(pairs=pairs, q_xy=q_xy, k_xy=k_xy, scores=scores, steps=t, m=mm, n=nn)


def distance_view(head_dim, base=10000.0, max_distance=MAX_SHOWN_DISTANCE):
    r"""Unit-hand score per pair, cos(r theta_i), and its mean over all pairs, r = -R..R.

    -> dict(distances [2R+1], pairs [c], per_pair [c, 2R+1], mean [2R+1]).
    """
    max_distance = check_int("max_distance", max_distance, 1, 8192)
    r = torch.arange(-max_distance, max_distance + 1)                # [2R+1]
    phi = rope_angles(r, head_dim, base=base)                        # [2R+1, d/2]
    cos = phi.cos()                                                  # [2R+1, d/2]
    pairs = shown_pairs(head_dim)                                    # [c]
    return dict(distances=r, pairs=pairs, per_pair=cos[:, pairs].T.contiguous(), mean=cos.mean(-1))
