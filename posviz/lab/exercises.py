r"""New predict-then-reveal RoPE problems in two dimensions, made from a seed
(“Same words, different order…” §08 and §17).

One problem: integer content vectors q, k in R^2, one pair of dimensions with the angle θ in
{π/2, π/3, π/4, π/6}, a query position p and a key position s, and sometimes the bug of “Same words, different order…”
§13 "only Q is rotated". The student predicts R(pθ)q, R(sθ)k (or k) and the score, then reveals the
worked answer and its closed form. With θ a simple fraction of π every cosine and sine is one of
0, ±1/2, ±√2/2, ±√3/2, ±1, so every number of the answer is exactly a + b√r (a, b rational, r the
problem's root: 3 for π/3 and π/6, 2 for π/4, none for π/2); `problem` returns each value exactly
({"a": [num, den], "b": [num, den], "r": r}), as text ("1/2 − √3") and as a float.

Pure: the same seed gives the same problem on every machine (random.Random), no global state.
`rope_check` recomputes the problem with posviz.pe.rope.apply_rope (float32), for the reveal.
"""
import math
import random
from fractions import Fraction

import torch

from posviz.pe.rope import apply_rope
from posviz.validate import check_int

ANGLES = ((1, 2), (1, 3), (1, 4), (1, 6))      # θ = num·π/den
MAX_SEED = 999_999
MAX_ENTRY = 3                                  # |q_i|, |k_i| <= 3
MAX_POSITION = 7
ONLY_Q_SHARE = 0.25                            # share of problems with the bug "rotate only Q"
SHIFTS = (1, 2, 3, 4, 5)
MINUS = "−"


# ---------------------------------------------------------------- exact numbers a + b√r
def _root(den):
    return {2: 1, 3: 3, 4: 2, 6: 3}[den]


def _cos_sin(turn, r):
    """cos and sin of the angle turn·π (turn a Fraction with denominator 1, 2, 3, 4 or 6) as (a, b) pairs:
    value = a + b√r."""
    deg = int((Fraction(turn) * 180) % 360)                      # an integer multiple of 30 or 45
    half, zero = Fraction(1, 2), Fraction(0)
    first = {0: (1, zero), 30: (zero, half), 45: (zero, half), 60: (half, zero), 90: (zero, zero)}

    def cos_of(d):
        d %= 360
        if d > 180:
            d = 360 - d                                          # cos(360 - d) = cos d
        if d > 90:
            a, b = cos_of(180 - d)                               # cos(180 - d) = -cos d
            return -a, -b
        if d in (30, 45) and r != {30: 3, 45: 2}[d]:
            raise AssertionError("angle and root disagree")      # never: r follows θ's denominator
        a, b = first[d]
        return Fraction(a), Fraction(b)

    return cos_of(deg), cos_of(90 - deg)                         # sin d = cos(90 - d)


def _add(x, y):
    return x[0] + y[0], x[1] + y[1]


def _mul(x, y, r):
    return x[0] * y[0] + r * x[1] * y[1], x[0] * y[1] + x[1] * y[0]


def _scale(c, x):
    return c * x[0], c * x[1]


def _frac_text(f):
    s = str(abs(f.numerator)) if f.denominator == 1 else f"{abs(f.numerator)}/{f.denominator}"
    return (MINUS if f < 0 else "") + s


def exact_text(a, b, r):
    """a + b√r as plain text: 0, 3/2, −√3/2, 1/2 − √3, 11/2 + 3√3/2."""
    a, b = Fraction(a), Fraction(b)
    if r == 1:
        return _frac_text(a + b)
    if b == 0:
        return _frac_text(a)
    c = abs(b)
    coef = "" if c.numerator == 1 else str(c.numerator)
    term = f"{coef}√{r}" + ("" if c.denominator == 1 else f"/{c.denominator}")
    if a == 0:
        return (MINUS if b < 0 else "") + term
    return f"{_frac_text(a)} {MINUS if b < 0 else '+'} {term}"


def _exact(x, r):
    a, b = (x[0] + x[1], Fraction(0)) if r == 1 else x
    return {"a": [a.numerator, a.denominator], "b": [b.numerator, b.denominator], "r": r,
            "text": exact_text(a, b, r), "value": float(a) + float(b) * math.sqrt(r)}


def angle_text(turn):
    """turn·π as text: 0, π, −π/2, 2π/3, 5π/6."""
    turn = Fraction(turn)
    if turn == 0:
        return "0"
    n = abs(turn.numerator)
    s = ("" if n == 1 else str(n)) + "π" + ("" if turn.denominator == 1 else f"/{turn.denominator}")
    return (MINUS if turn < 0 else "") + s


def wrap_turn(turn):
    """turn·π wrapped to (−π, π], as a Fraction of π."""
    w = Fraction(turn) % 2
    return w - 2 if w > 1 else w


def _angle(turn):
    return {"pi": [turn.numerator, turn.denominator], "text": angle_text(turn), "value": float(turn) * math.pi}


# ---------------------------------------------------------------- one problem
def _rotate(v, cs, r):
    """R(φ) v = [c v1 − s v2, s v1 + c v2] with (c, s) exact and v integer."""
    c, s = cs
    return _add(_scale(v[0], c), _scale(-v[1], s)), _add(_scale(v[0], s), _scale(v[1], c))


def _dot(u, v, r):
    return _add(_mul(u[0], v[0], r), _mul(u[1], v[1], r))


def _score(q, k, p, s, theta, r, only_q):
    """(R(pθ) q)^T R(sθ) k (k unrotated if only_q), exactly -> (a, b)."""
    qr = _rotate(q, _cos_sin(p * theta, r), r)
    kr = [(Fraction(x), Fraction(0)) for x in k] if only_q else _rotate(k, _cos_sin(s * theta, r), r)
    return qr, kr, _dot(qr, kr, r)


def _vector(rng):
    while True:
        v = (rng.randint(-MAX_ENTRY, MAX_ENTRY), rng.randint(-MAX_ENTRY, MAX_ENTRY))
        if v != (0, 0):
            return v


def problem(seed):
    r"""The problem made by `seed` (0..MAX_SEED), with its exact worked answer.

    Formula:
        R(\varphi)=\begin{bmatrix}\cos\varphi&-\sin\varphi\\ \sin\varphi&\cos\varphi\end{bmatrix}
        \text{score}=(R(p\theta)q)^\top R(s\theta)k=(q\cdot k)\cos\varphi+(q_2k_1-q_1k_2)\sin\varphi,
            \quad\varphi=(s-p)\theta
        (R(p\theta)q)^\top k=(q\cdot k)\cos\varphi+(q_2k_1-q_1k_2)\sin\varphi,\quad\varphi=-p\theta

    -> dict(seed, q, k, p, s, only_q, theta {"pi": [n, d], "text", "value"}, r,
            angle_p, angle_s, phi, phi_wrapped (φ in (−π, π]) (angles like theta), cos_p, sin_p, cos_s, sin_s,
           cos_phi, sin_phi,
            q_rot [2], k_rot [2] (k itself if only_q), score, dot (q·k), cross (q_2 k_1 − q_1 k_2),
            closed (the closed form, equal to score), shift Δ, shift_score (the score at p+Δ, s+Δ),
            shift_equal (bool)); every number exact as {"a", "b", "r", "text", "value"}.
    """
    seed = check_int("seed", seed, 0, MAX_SEED)
    rng = random.Random(seed)
    num, den = rng.choice(ANGLES)
    theta, r = Fraction(num, den), _root(den)
    q, k = _vector(rng), _vector(rng)
    p, s = rng.randint(0, MAX_POSITION), rng.randint(0, MAX_POSITION)
    only_q = rng.random() < ONLY_Q_SHARE
    shifts = [d for d in SHIFTS if (d * theta) % 2 != 0]          # a shift by whole turns would hide the bug
    shift = rng.choice(shifts)
    qr, kr, score = _score(q, k, p, s, theta, r, only_q)
    phi = (-p if only_q else s - p) * theta
    cphi, sphi = _cos_sin(phi, r)
    dot, cross = q[0] * k[0] + q[1] * k[1], q[1] * k[0] - q[0] * k[1]
    closed = _add(_scale(dot, cphi), _scale(cross, sphi))
    if closed != score:
        raise AssertionError("closed form and rotation disagree")   # never: the identity R(p)^T R(s) = R(s - p)
    shifted = _score(q, k, p + shift, s + shift, theta, r, only_q)[2]
    (cp, sp), (cs, ss) = _cos_sin(p * theta, r), _cos_sin(s * theta, r)

    def ex(x):
        return _exact(x, r)

    return dict(seed=seed, q=list(q), k=list(k), p=p, s=s, only_q=only_q, theta=_angle(theta), r=r,
                angle_p=_angle(p * theta), angle_s=_angle(s * theta), phi=_angle(phi),
                phi_wrapped=_angle(wrap_turn(phi)),
                cos_p=ex(cp), sin_p=ex(sp), cos_s=ex(cs), sin_s=ex(ss), cos_phi=ex(cphi), sin_phi=ex(sphi),
                q_rot=[ex(x) for x in qr], k_rot=[ex(x) for x in kr], score=ex(score), dot=dot, cross=cross,
                closed=ex(closed), shift=shift, shift_score=ex(shifted), shift_equal=shifted == score)


def answers(prob):
    """The five numbers the student predicts, as floats: R(pθ)q (2), R(sθ)k or k (2), the score."""
    return [x["value"] for x in prob["q_rot"] + prob["k_rot"]] + [prob["score"]["value"]]


def rope_check(prob):
    """The problem recomputed by posviz.pe.rope.apply_rope in float32 (θ as a one-pair inv_freq)
    -> dict(q_rot, k_rot, score, max_diff: largest |apply_rope − exact| over the five numbers)."""
    inv = torch.tensor([prob["theta"]["value"]], dtype=torch.float32)                 # [1]
    q = torch.tensor(prob["q"], dtype=torch.float32).reshape(1, 1, 1, 2)              # [1,1,1,2]
    k = torch.tensor(prob["k"], dtype=torch.float32).reshape(1, 1, 1, 2)              # [1,1,1,2]
    qr = apply_rope(q, torch.tensor([prob["p"]]), inv_freq=inv)                       # [1,1,1,2]
    kr = k if prob["only_q"] else apply_rope(k, torch.tensor([prob["s"]]), inv_freq=inv)  # [1,1,1,2]
    got = qr.flatten().tolist() + kr.flatten().tolist() + [float((qr * kr).sum())]
    return dict(q_rot=got[:2], k_rot=got[2:4], score=got[4],
                max_diff=max(abs(a - b) for a, b in zip(got, answers(prob))))


def grade(prob, guesses, tol=0.01):
    """One verdict per predicted number: True (within tol), False, or None (no guess yet)."""
    return [None if g is None else abs(float(g) - a) <= tol for g, a in zip(guesses, answers(prob))]
