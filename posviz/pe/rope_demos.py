r"""The RoPE page's hand-made examples, computed with the library posviz.pe.rope.

One pair by hand in float64 (pair_rotate, pair_score, the articles' worked examples), the scores of
content vectors q, k [d] after rotation (rotated_score, the shift tests of “Same words, different order…” §12), the
clock hands of “Position encodings”, the content vectors and pairs the page shows, the two pairings side by
side, and apply_rope's intermediates step by step. The formulas of RoPE itself (rope_inv_freq,
apply_rope, rotate_pairs, the attention functions) are those of posviz.pe.rope.
"""
from __future__ import annotations

import math

import torch

from posviz.pe.rope import (
    Positions,
    _as_positions,
    _position_ids,
    _resolve_inv_freq,
    apply_rope,
    convert_layout,
    rope_angles,
    rope_inv_freq,
    rope_pairs,
    rotation_2x2,
    wrap_angle,
)
from posviz.validate import MAX_POSITION, PosvizError, as_tensor, check_choice, check_even, check_float, check_int

ROTATE = ("both", "q")          # "q": the bug of “Same words, different order…” §13 / §17 ex. 2 (only Q rotated)
CONTENTS = ("unit", "random")
MAX_THETA = 1e3                 # |theta| of a hand-made pair (rad per token)

Pair = tuple[float, float] | list[float] | torch.Tensor   # one pair (v_1, v_2)


def _scalar_or_1d(name, t):
    if t.ndim > 1:
        raise PosvizError("rope_scalar_or_1d", name=name, shape=list(t.shape))
    return t


# ---------------------------------------------------------------- one pair, by hand (float64)
def _pair(name, v):
    try:
        t = torch.as_tensor(v, dtype=torch.float64)                  # [2]
    except (TypeError, ValueError, RuntimeError):
        raise PosvizError("rope_pair", name=name, got=repr(v)) from None
    if tuple(t.shape) != (2,) or not torch.isfinite(t).all():
        raise PosvizError("rope_pair", name=name, got=repr(v))
    return t


def pair_rotate(v: Pair, position: float, theta: float) -> torch.Tensor:
    r"""One pair v [2] turned by p * theta (float64, for hand checks) -> Tensor[2].

    Formula:
        R(p\theta)\,v = \big(v_1\cos p\theta - v_2\sin p\theta,\ v_1\sin p\theta + v_2\cos p\theta\big)
    """
    v = _pair("v", v)
    p = check_float("position", position, -MAX_POSITION, MAX_POSITION)
    theta = check_float("theta", theta, -MAX_THETA, MAX_THETA)
    return rotation_2x2(torch.tensor(p * theta, dtype=torch.float64)) @ v  # [2]


def pair_score(q: Pair, k: Pair, p: float, s: float, theta: float, rotate: str = "both") -> torch.Tensor:
    r"""The score of one pair after rotation (float64) -> 0-d Tensor.

    Formula:
        (R(p\theta)q)^\top (R(s\theta)k) = q^\top R\big((s-p)\theta\big)\,k

    rotate="q" rotates only the query (the bug of “Same words, different order…” §17 ex. 2): (R(p theta) q)^T k.
    """
    q, k = _pair("q", q), _pair("k", k)                              # [2] x2
    check_choice("rotate", rotate, ROTATE)
    rk = pair_rotate(k, s, theta) if rotate == "both" else k         # [2]
    return pair_rotate(q, p, theta) @ rk                             # []


def pair_score_relative(q: Pair, k: Pair, p: float, s: float, theta: float) -> torch.Tensor:
    r"""q^T R((s - p) theta) k for one pair (float64) -> 0-d Tensor: only s - p enters."""
    q, k = _pair("q", q), _pair("k", k)
    p = check_float("p", p, -MAX_POSITION, MAX_POSITION)
    s = check_float("s", s, -MAX_POSITION, MAX_POSITION)
    theta = check_float("theta", theta, -MAX_THETA, MAX_THETA)
    return q @ rotation_2x2(torch.tensor((s - p) * theta, dtype=torch.float64)) @ k  # []


def pair_score_closed_form(q: Pair, k: Pair, phi: float) -> torch.Tensor:
    r"""The score of one pair written with cos and sin of the relative angle (float64) -> 0-d Tensor.

    Formula:
        q^\top R(\phi)\,k = \cos\phi\,(q_1k_1 + q_2k_2) + \sin\phi\,(q_2k_1 - q_1k_2)
        \phi = (s-p)\,\theta \ \text{(both rotated)}, \qquad \phi = -p\,\theta \ \text{(only } q \text{ rotated)}
    """
    q, k = _pair("q", q), _pair("k", k)                              # [2] x2
    phi = check_float("phi", phi, -MAX_POSITION * MAX_THETA, MAX_POSITION * MAX_THETA)
    dot, cross = q @ k, q[1] * k[0] - q[0] * k[1]                    # [] x2
    return math.cos(phi) * dot + math.sin(phi) * cross               # []


def hand_examples() -> list[dict]:
    """The worked examples of the articles, recomputed -> list of dicts (python numbers).

    “Same words, different order…” §08: q=k=[1,0], theta=pi/2, (p,s)=(1,3) and (5,7): score -1 both times.
    “Position encodings”:     q=k=(1,0), m=2, n=5: cos(3 theta), shown for theta=1 (base^0, pair 0).
    “Same words, different order…” §17 ex. 1: q=[1,2], k=[3,4], theta=pi/3: (1,2) and (5,6) equal, (5,7) differs.
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


# ---------------------------------------------------------------- apply_rope step by step
def apply_rope_steps(x: torch.Tensor, position_ids: Positions, *, base: float = 10000.0) -> dict[str, torch.Tensor]:
    r"""Every intermediate of apply_rope (interleaved) for one head, in the order of its listing.

    Formula:
        \text{even} = x_{0::2}, \quad \text{odd} = x_{1::2}
        \text{out} = \mathrm{stack}(\text{even}\cos - \text{odd}\sin,\ \text{even}\sin
            + \text{odd}\cos).\mathrm{flatten}

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


# ---------------------------------------------------------------- scores of q, k vectors
def _vector(name, v, head_dim=None):
    t = as_tensor(name, v, dtype=torch.float32)                      # [d]
    if t.ndim != 1 or (head_dim is not None and t.shape[0] != head_dim):
        raise PosvizError("rope_vector", name=name, want=head_dim if head_dim is not None else "d",
                          shape=list(t.shape))
    check_even(f"{name} length (head_dim)", t.shape[0])
    return t


def rotated_score(q: torch.Tensor, k: torch.Tensor, p: Positions, s: Positions, *, base: float = 10000.0,
                  inv_freq: torch.Tensor | None = None, attention_factor: float = 1.0,
                  layout: str = "interleaved", rotate: str = "both") -> torch.Tensor:
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


def rotated_score_relative(q: torch.Tensor, k: torch.Tensor, delta: Positions, *, base: float = 10000.0,
                           inv_freq: torch.Tensor | None = None, layout: str = "interleaved") -> torch.Tensor:
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


def shift_scores(q: torch.Tensor, k: torch.Tensor, m: float, n: float, delta: float, *, base: float = 10000.0,
                 inv_freq: torch.Tensor | None = None, layout: str = "interleaved",
                 rotate: str = "both") -> torch.Tensor:
    r"""The two tests of “Same words, different order…” §12 steps 3-4 -> Tensor[3] float32.

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


def content_vectors(head_dim: int, kind: str = "unit", seed: int = 0,
                    layout: str = "interleaved") -> tuple[torch.Tensor, torch.Tensor]:
    """Content q, k [d] for the demos (float32).

    "unit":   every pair is (1, 0) (the hands of “Position encodings”, q = k);
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


# ---------------------------------------------------------------- clock hands, pairings side by side
def clock_hands(m: Positions, n: Positions, head_dim: int, *, base: float = 10000.0,
                inv_freq: torch.Tensor | None = None, q: torch.Tensor | None = None,
                k: torch.Tensor | None = None, layout: str = "interleaved") -> dict[str, torch.Tensor]:
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


def shown_pairs(head_dim: int, count: int = 4) -> torch.Tensor:
    """`count` pair indices spread from the fastest (0) to the slowest (d/2 - 1) -> LongTensor."""
    head_dim = check_even("head_dim", head_dim)
    count = check_int("count", count, 1, 16)
    half = head_dim // 2
    idx = torch.linspace(0, half - 1, min(count, half)).round().long()  # [c]
    return torch.unique(idx)                                         # [c']


def layout_demo(head_dim: int, m: float, n: float, *, base: float = 10000.0, seed: int = 0) -> dict[str, torch.Tensor]:
    r"""The two pairings side by side (“Same words, different order…” §12 step 5) -> dict of float32 Tensors.

    Formula:
        s_{\text{half}}(Pq, Pk) = s_{\text{interleaved}}(q, k), \qquad
            s_{\text{half}}(q, k) \ne s_{\text{interleaved}}(q, k)

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
