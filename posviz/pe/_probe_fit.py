r"""The fits of the probe (posviz.pe.model_probe): what a query did between position 0 and position p, dim by dim.

Every dim is fitted as y_i = a x_i + b x_j over samples (heads x sequences): the partner j that fits exactly is the
dim it turns with, atan2(±b, a) its angle, |(a, b)| its gain; θ is unwrapped from the angles at p = 1, 2, 8, 64, ...

Formula:
    y_i = g\,(x_i \cos\phi_i \mp x_{j(i)} \sin\phi_i),\qquad \phi_i = p_{a(i)}\,\theta_i \pmod{2\pi}
"""
import dataclasses
import math

import numpy as np

FIT = 1e-6            # relative residual of an exact 2-dim fit (float32 data)
STILL = 1e-5          # |b| / |a| below which a dim did not turn at that position


@dataclasses.dataclass(frozen=True)
class Turn:
    """What one query (or key) of one layer does with positions, fitted dim by dim.

    pairs: (first, second) dims that turn together, by first dim; theta / theta_long: the angle per unit
    position of each pair at the trained length (run B) and far beyond it (run C), nan where a pair did
    not turn; gain / gain_long: (position, factor on the whole vector) at each probed position (1.0: no
    scaling); axes: per rotated dim (first halves, then second halves, in pair order) the position row it
    follows (multimodal RoPE), or None."""

    width: int
    pairs: tuple[tuple[int, int], ...]
    theta: tuple[float, ...]
    theta_long: tuple[float, ...]
    gain: tuple[tuple[int, float], ...]
    gain_long: tuple[tuple[int, float], ...]
    axes: tuple[tuple[int, int], ...] | None = None
    problem: str | None = None
    weight_pairs: tuple[tuple[int, int], ...] | None = None   # the pairs in the projection's own dims, when the
    # model rearranges them before rotating (DeepSeek-V3's rope_interleave): how a checkpoint's dims pair

    @property
    def rotates(self) -> bool:
        return bool(self.pairs)

    @property
    def scaled(self) -> bool:
        return any(abs(g - 1.0) > 1e-4 for _, g in self.gain + self.gain_long)


def _fit(x, y, partner):
    """y_i ≈ a_i x_i + b_i x_partner(i) by least squares over samples (axis 0): x, y [S, ..., d], partner [d]
    -> a, b, rel [..., d] (rel: the residual relative to |y_i|²)."""
    xj = x[..., partner]                                                                      # [S, ..., d]
    gii, gjj, gij = (x * x).sum(0), (xj * xj).sum(0), (x * xj).sum(0)                         # [..., d] x3
    cii, cji, yy = (x * y).sum(0), (xj * y).sum(0), (y * y).sum(0)                            # [..., d] x3
    det = gii * gjj - gij * gij                                                               # [..., d]
    ok = det > 1e-12 * gii * gjj
    safe = np.where(ok, det, 1.0)
    a = np.where(ok, (gjj * cii - gij * cji) / safe, cii / np.maximum(gii, 1e-300))           # [..., d]
    b = np.where(ok, (gii * cji - gij * cii) / safe, 0.0)                                     # [..., d]
    rel = (yy - a * cii - b * cji) / np.maximum(yy, 1e-300)                                  # [..., d]
    return a, b, np.abs(rel)


def _moved(x, y):
    """Dims whose value changed: x, y [S, ..., d] -> bool [..., d]."""
    return (np.abs(y - x) > 1e-5 * np.abs(x).max()).any(0)


def _partners(x, y):
    """The dim each dim turns with, searched over all dims: x, y [S, d] -> partner [d] (itself: no partner)."""
    d = x.shape[-1]
    best, best_rel = np.arange(d), np.full(d, np.inf)
    for shift in range(1, d):
        cand = (np.arange(d) + shift) % d                                                     # [d]
        _, b, rel = _fit(x, y, cand)
        better = (rel < best_rel) & (np.abs(b) > 0)
        best, best_rel = np.where(better, cand, best), np.where(better, rel, best_rel)
    return np.where(_moved(x, y), best, np.arange(d))


class PairingCache:
    """Pairings found so far (most layers share one): tried before a full search."""

    def __init__(self):
        self.known = []

    def partners(self, x, y):
        moved = _moved(x, y)
        for partner in self.known:
            if partner.shape[0] == x.shape[-1] and np.all(moved <= (partner != np.arange(partner.shape[0]))):
                _, _, rel = _fit(x, y, partner)
                if np.all(rel[moved] < FIT):
                    return partner
        partner = _partners(x, y)
        self.known.append(partner)
        return partner


def _angles(x, y, partner):
    """Per dim: angle φ (rotate_half's sign convention: the first dim of a pair gets −sin), whether it turned,
    the fit's residual: x, y [S, ..., d] -> [..., d] x3."""
    a, b, rel = _fit(x, y, partner)
    first = np.arange(x.shape[-1]) < partner
    s = np.where(first, -b, b)
    turned = (np.abs(b) > STILL * np.maximum(np.abs(a), 1e-30)) & (partner != np.arange(x.shape[-1]))
    return np.arctan2(s, a), turned, rel


def _sheared_angles(x, y, partner, rounds=6):
    """_angles when the two dims of a pair may turn by different angles (XD-RoPE's image tokens) and a norm after
    the rotation then rescales each sample by its own factor: the per-dim fit and the per-sample factor k_s,
    fitted in turn. x, y [S, T, d] -> angles [T, d]."""
    k = np.ones(y.shape[:2])                                                                  # [S, T]
    xj = x[..., partner]                                                                      # [S, T, d]
    for _ in range(rounds):
        a, b, _ = _fit(x, y / k[..., None], partner)                                          # [T, d] x2
        pred = a * x + b * xj                                                                 # [S, T, d]
        k = (pred * y).sum(-1) / np.maximum((pred * pred).sum(-1), 1e-300)                    # [S, T]
    first = np.arange(x.shape[-1]) < partner
    return np.arctan2(np.where(first, -b, b), a)


def _unwrap(positions, angles):
    """θ from angles φ_t ≡ p_t θ (mod 2π) at increasing positions: the estimate at the first positive position,
    refined at each next one by the number of turns it predicts. positions [T], angles [T, k] -> θ [k]."""
    theta = np.full(angles.shape[1], np.nan)
    for p, phi in zip(positions, angles):
        if p <= 0:
            continue
        first = np.isnan(theta)
        turns = np.round((theta * p - phi) / (2 * math.pi))
        theta = np.where(first, phi / p, (phi + 2 * math.pi * np.nan_to_num(turns)) / p)
    return theta


def _samples(t):
    """[N, H, L, d] -> [S, L, d] with S = N·H samples per position (float64)."""
    n, h, length, d = t.shape
    return t.double().numpy().reshape(n * h, length, d)


def _unscaled(x, y):
    """y with each sample's query scaling taken out (a rotation keeps the norm): y · |x| / |y|, per sample and
    position (Mistral Large 3 scales each head by its own factor). x, y [S, T, d]."""
    return y * (np.linalg.norm(x, axis=-1) / np.maximum(np.linalg.norm(y, axis=-1), 1e-300))[..., None]


def _gains(x, y):
    """The factor on the whole vector per position: median over samples of |y| / |x|. x, y [S, T, d] -> [T]."""
    return np.median(np.linalg.norm(y, axis=-1) / np.maximum(np.linalg.norm(x, axis=-1), 1e-300), axis=0)


def _reference(run, base):
    """The unrotated samples each position of a run is compared with: the run's own first token (position 0;
    every token of a sequence carries the same state in a fast run) or run A's token at the same place."""
    x = _samples(run) if base is None else _samples(base)                                     # [S, L, d]
    return np.broadcast_to(x[:, :1], x.shape) if base is None else x


def turn_of(runs, positions, cache):
    """A query's (or key's) behaviour from a short run (B, positions up to the trained length) and a long one
    (C): the pairing, θ per pair at both lengths, the gain per position. runs: {"b", "c", and "a" (positions 0)
    when tokens do not share a state}: [N, H, L, d] each; positions: {"b": [L], "c": [L]}."""
    base = runs.get("a")
    xb, xc = _samples(runs["b"]), _samples(runs["c"])                                          # [S, L, d] x2
    rb, rc = _reference(runs["b"], base), _reference(runs["c"], base)                         # [S, L, d] x2
    width = xb.shape[2]
    if xb.shape != xc.shape:
        return Turn(width, (), (), (), (), (), problem="shape")
    if not np.all(np.abs(rb).max(axis=-1) > 0):
        return Turn(width, (), (), (), (), (), problem="zero")
    last = int(np.argmax(positions["b"]))
    partner = cache.partners(rb[:, last], _unscaled(rb, xb)[:, last])                         # [d]
    pairs_idx = np.array([i for i, j in enumerate(partner) if i < j], dtype=np.int64)
    out, problem = [], None
    for x, y in ((rb, xb), (rc, xc)):
        g = _gains(x, y)                                                                      # [T]
        phi, turned, rel = _angles(x, _unscaled(x, y), partner)                               # [T, d] x3
        if np.any(rel[turned] > FIT):
            problem = "fit"
        out.append((g, phi, turned))
    moved = out[0][2].any(0) | out[1][2].any(0)                                               # [d]
    keep = pairs_idx[moved[pairs_idx] | moved[partner[pairs_idx]]]
    pairs = tuple((int(i), int(partner[i])) for i in keep)
    theta_b = _unwrap(positions["b"], out[0][1][:, keep])                                     # [k]
    theta_c = _unwrap(positions["c"], out[1][1][:, keep])                                     # [k]
    return Turn(width, pairs, tuple(theta_b.tolist()), tuple(theta_c.tolist()),
                tuple(zip(positions["b"], out[0][0].tolist())), tuple(zip(positions["c"], out[1][0].tolist())),
                problem=problem)


def axes_of(d_run, base, turn, rows, scale):
    """Which position row each rotated dim follows: run D gives token t the position (row + 1) · scale_t on
    every row (the long run's positions, so that slow pairs turn visibly). -> per pair (row of its first dim, row
    of its second dim), -1 for a dim too slow to tell; None when a dim matches no row."""
    xd = _samples(d_run)                                                                      # [S, L, d]
    xa = _reference(d_run, base)                                                              # [S, L, d]
    partner = np.arange(turn.width)
    for i, j in turn.pairs:
        partner[i], partner[j] = j, i
    phi = _sheared_angles(xa, xd, partner)                                                    # [T, d]
    dims = np.array([d for pair in turn.pairs for d in pair])                                 # [2k]
    theta = np.repeat(np.asarray(turn.theta_long), 2)                                         # [2k]
    m = np.asarray(scale, dtype=np.float64)[:, None] * theta[None, :]                         # [T, 2k]
    usable = (m * rows > 0.02) & (m * rows < 2 * math.pi - 0.02)                              # [T, 2k]
    row = np.arange(1, rows + 1, dtype=np.float64)[:, None, None]                             # [R, 1, 1]
    err = np.abs(np.remainder(phi[None, :, dims] - row * m[None] + math.pi, 2 * math.pi) - math.pi)   # [R, T, 2k]
    good = (err.min(0) < 1e-3 * np.maximum(1.0, m)) & usable                                  # [T, 2k]
    best = err.argmin(0)                                                                      # [T, 2k]
    out = []
    for c in range(dims.size):
        if not usable[:, c].any():
            out.append(-1)
            continue
        votes = best[good[:, c], c]
        if votes.size == 0 or np.any(votes != votes[0]):
            return None
        out.append(int(votes[0]))
    return tuple(zip(out[0::2], out[1::2]))


def weight_pairs(call, turn):
    """The measured pairs in the dims of the projection that made the queries, when the model rearranged them
    before rotating: each rotated query dim is found as the projection dim it equals (up to a factor) in every
    sample (sequence x head) at position 0. None when no projection holds them all, or when nothing moved."""
    q = call["q"][:, :, 0].double()                                                           # [N, h, d]
    heads = call["heads"]
    dims = sorted({d for pair in turn.pairs for d in pair})
    for proj in reversed(call["projections"]):                                                # the last map first
        n, width = proj.shape
        if width % heads or n != q.shape[0]:
            continue
        slot = width // heads
        y = proj.double().view(n, heads, slot)[:, :q.shape[1]]                                # [N, h, slot]
        yn = y / y.norm(dim=(0, 1), keepdim=True).clamp_min(1e-300)                           # [N, h, slot]
        where = {}
        for d in dims:
            v = q[:, :, d]                                                                    # [N, h]
            cos = (yn * (v / v.norm().clamp_min(1e-300))[:, :, None]).sum((0, 1)).abs()        # [slot]
            p = int(cos.argmax())
            if cos[p] < 1 - 1e-9:
                break
            where[d] = p
        if len(where) == len(dims) and len(set(where.values())) == len(dims):
            mapped = tuple(sorted(tuple(sorted((where[i], where[j]))) for i, j in turn.pairs))
            return None if all(where[d] - where[dims[0]] == d - dims[0] for d in dims) else mapped
    return None
