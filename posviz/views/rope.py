r"""Views of the RoPE page (app_pages/rope.py): plain arguments in, numbers / numpy arrays / dicts out (cached).

Every number the page shows comes from here, computed by posviz.pe.rope and posviz.pe.rope_demos.
"""
import inspect
import math
import re

import numpy as np
import torch
from torch.nn import functional as F

from posviz.pe import rope, rope_demos
from posviz.validate import MAX_POSITION, check_choice, check_float, check_int
from posviz.views import cached

DIMS = (2, 4, 8, 16, 32, 64, 128, 256)
BASES = (10, 100, 1000, 10000, 100000, 500000, 1000000)
EXAMPLES = ("s08", "s08_shift", "s001", "s17_a", "s17_b", "s17_c")
ANIM_MODES = ("both", "key")
THETAS = {"pi2": math.pi / 2, "pi3": math.pi / 3}     # the calculator's θ presets; "other" = any value
THETA_CHOICES = (*THETAS, "other")
ANIMATION_STEPS = 48
MAX_SHOWN_DISTANCE = 64
STEP_DIM = 8                                          # the step-by-step case: d = 8, three positions
STEP_POSITIONS = 3
STEP_MAX_P = 100000
STEP_X = (1.0, 0.0, 0.6, 0.8, -0.5, 0.5, 0.0, 1.0)    # the same content vector at every position
ATTENTION_SHAPE = (2, 4, 6, 8)                        # §09: q, k, v = torch.randn(2, 4, 6, 8)
GQA_KV_HEADS = 2                                      # K/V heads of the grouped-query check (H_q = 4)


def _np(t):
    return t.detach().cpu().numpy()


# ---------------------------------------------------------------- clocks, scores, animation
@cached
def clock(m, n, head_dim, base=10000.0, content="unit", seed=0):
    """Hands of the shown pairs (fastest -> slowest) -> dict(pairs [c], hands {name: [c]}, slowest
    (theta of the last pair, base^-(d-2)/d), exponent ((d-2)/d), plain (True when the arc drawn
    is the rotation (n-m)theta itself: unit content))."""
    q, k = rope_demos.content_vectors(head_dim, content, seed)             # [d] x2
    pairs = rope_demos.shown_pairs(head_dim)                               # [c]
    hands = rope_demos.clock_hands(m, n, head_dim, base=base, q=q, k=k)    # {name: [d/2]}
    theta = rope.rope_inv_freq(head_dim, base)                       # [d/2]
    return dict(pairs=_np(pairs), hands={key: _np(v[pairs]) for key, v in hands.items()},
                slowest=float(theta[-1]), exponent=(head_dim - 2) / head_dim, last=head_dim // 2 - 1,
                plain=content == "unit")


@cached
def scores(m, n, delta, head_dim, base=10000.0, content="unit", only_q=False, seed=0):
    """shift_scores for the page's content vectors -> dict(scores [score(m,n), score(m+Δ,n+Δ),
    score(m,n+Δ)], deltas [None, then each minus the first as "+0.0000" text, rounded so that
    float noise never shows as -0.0000])."""
    q, k = rope_demos.content_vectors(head_dim, content, seed)             # [d] x2
    s = [float(v) for v in rope_demos.shift_scores(q, k, m, n, delta, base=base, rotate="q" if only_q else "both")]
    return dict(scores=s, deltas=[None] + [f"{round(v - s[0], 4) + 0.0:+.4f}" for v in s[1:]])


@cached
def animation(m, n, head_dim, base=10000.0, content="unit", mode="both", seed=0, steps=ANIMATION_STEPS):
    r"""Positions over steps t = 0..T-1 and the hands and score at each.

    Formula:
        \text{both: } (m+t,\ n+t) \ \Rightarrow\ q^\top R\big((n+t)-(m+t)\big)k = q^\top R(n-m)k \ \text{(constant)}
        \text{key: } (m,\ n+t) \ \Rightarrow\ q^\top R(n+t-m)\,k \ \text{(changes with } t)

    -> dict(pairs [c], q_xy [T,c,2], k_xy [T,c,2], scores [T], steps [T], m [T], n [T]).
    """
    check_choice("mode", mode, ANIM_MODES)
    steps = check_int("steps", steps, 2, 512)
    m = check_float("m", m, -MAX_POSITION, MAX_POSITION)
    n = check_float("n", n, -MAX_POSITION, MAX_POSITION)
    q, k = rope_demos.content_vectors(head_dim, content, seed)             # [d] x2
    t = torch.arange(steps)                                          # [T]
    mm = m + t if mode == "both" else torch.full((steps,), m)        # [T]
    nn = n + t                                                       # [T]
    pairs = rope_demos.shown_pairs(head_dim)                               # [c]
    h = rope_demos.clock_hands(mm, nn, head_dim, base=base, q=q, k=k)      # {name: [T,d/2]}
    q_xy = torch.stack((h["q_x"], h["q_y"]), -1)[:, pairs]           # [T,c,2]
    k_xy = torch.stack((h["k_x"], h["k_y"]), -1)[:, pairs]           # [T,c,2]
    s = rope_demos.rotated_score(q, k, mm, nn, base=base)                  # [T]
    return dict(pairs=_np(pairs), q_xy=_np(q_xy), k_xy=_np(k_xy), scores=_np(s), steps=_np(t),
                m=_np(mm), n=_np(nn))


@cached
def distance(head_dim, base=10000.0, max_distance=MAX_SHOWN_DISTANCE):
    r"""Unit-hand score per pair and its mean over all pairs, against the distance r = n - m.

    Formula:
        s(r) = \frac{1}{d/2} \sum_i \cos(r\,\theta_i) \quad \text{(unit hands } q = k = (1, 0) \text{ in every pair)}

    -> dict(distances [2R+1], pairs [c], per_pair [c, 2R+1], mean [2R+1]).
    """
    max_distance = check_int("max_distance", max_distance, 1, 8192)
    r = torch.arange(-max_distance, max_distance + 1)                # [2R+1]
    cos = rope.rope_angles(r, head_dim, base=base).cos()             # [2R+1, d/2]
    pairs = rope_demos.shown_pairs(head_dim)                               # [c]
    return dict(distances=_np(r), pairs=_np(pairs), per_pair=_np(cos[:, pairs].T.contiguous()),
                mean=_np(cos.mean(-1)))


@cached
def hand_examples():
    """The articles' worked examples (see posviz.pe.rope_demos.hand_examples) -> list of dicts."""
    return rope_demos.hand_examples()


@cached
def hand_table():
    """The worked examples as table rows: column code -> shown value (the example's key to translate)."""
    return [dict(example=r["example"], q=str(r["q"]), k=str(r["k"]), theta=r["theta_text"], p=r["p"], s=r["s"],
                 rq=str(r["rq"]), rk=str(r["rk"]), score=round(r["score"], 4), relative=round(r["relative"], 4))
            for r in rope_demos.hand_examples()]


@cached
def layouts(head_dim, m, n, base=10000.0):
    """The two pairings (see posviz.pe.rope_demos.layout_demo) -> dict of floats and int arrays [d/2, 2], and the
    verdict beside each score against the interleaved one, computed (never written into the page): verdict
    {"half": ..., "mixed": ...}, each "same" (equal to float32 rounding), "one" (equal because at this d the two
    pairings are one: pairing_permutation is the identity, d = 2) or "wrong"."""
    lv = rope_demos.layout_demo(head_dim, m, n, base=base)
    out = {key: (float(v) if v.ndim == 0 else _np(v)) for key, v in lv.items()}
    one = bool(torch.equal(rope.pairing_permutation(head_dim), torch.arange(head_dim)))

    def verdict(x):
        if not math.isclose(x, out["interleaved"], rel_tol=1e-5, abs_tol=1e-6):
            return "wrong"
        return "one" if one else "same"
    out["verdict"] = {"half": verdict(out["half"]), "mixed": verdict(out["mixed"])}
    return out


# ---------------------------------------------------------------- apply_rope step by step
# The functions whose source the step-by-step section shows (apply_rope and what it calls), and the
# markers it reads there: a line of theirs ending in "(step: <marker>)" is the line of that step.
STEP_SOURCES = (rope.rope_inv_freq, rope.apply_rope, rope.rotate_pairs)
STEP_MARKERS = (("theta", ("theta",)), ("angles", ("angles",)), ("cos_sin", ("cos", "sin")),
                ("even_odd", ("even_odd",)), ("rotated_even", ("rotated_even",)), ("rotated_odd", ("rotated_odd",)),
                ("out", ("out",)))
_MARKER = re.compile(r"#.*\(step: (\w+)\)\s*$")


def marked_lines(fns=STEP_SOURCES):
    """{marker: line} for every line of the source of `fns` that ends in a "(step: <marker>)" comment:
    the code of the line, stripped, without its comment. A marker found twice raises LookupError."""
    out = {}
    for fn in fns:
        for line in inspect.getsource(fn).splitlines():
            found = _MARKER.search(line)
            if not found:
                continue
            if found[1] in out:
                raise LookupError(f"step marker {found[1]!r} appears twice (in {fn.__qualname__})")
            out[found[1]] = line.split("#")[0].strip()
    return out


def step_code(fns=STEP_SOURCES):
    """The lines of apply_rope (and of rope_inv_freq and rotate_pairs, which it calls) that each step
    shows, read from their source by their markers: the listing on the page is the code that runs.
    A marker missing from the source raises LookupError."""
    lines = marked_lines(fns)
    missing = [m for _, markers in STEP_MARKERS for m in markers if m not in lines]
    if missing:
        raise LookupError(f"no line marked (step: {missing[0]}) in " + ", ".join(fn.__qualname__ for fn in fns))
    return {step: "\n".join(lines[m] for m in markers) for step, markers in STEP_MARKERS}


STEPS = (("theta", ("inv_freq",)), ("angles", ("angles",)), ("cos_sin", ("cos", "sin")),
         ("even_odd", ("even", "odd")), ("rotated_even", ("rotated_even",)), ("rotated_odd", ("rotated_odd",)),
         ("out", ("out",)))


def _rows(label, keys, array, fmt="{:.4f}"):
    """A small table named `label` (its first column): one row per entry of `keys`, columns "0".."C-1"."""
    a = np.atleast_2d(array)
    return [{label: key, **{str(j): fmt.format(float(v)) for j, v in enumerate(row)}} for key, row in zip(keys, a)]


@cached
def steps(p, base=10000.0):
    """apply_rope on the fixed case (d = 8, x = STEP_X at positions p, p+1, p+2), step by step.

    -> dict(positions [3], code {step: line}, tables {step: rows}, max_diff: max |out - apply_rope|
    (0.0: the steps are the function)).
    """
    p = check_int("p", p, 0, STEP_MAX_P)
    pos = torch.arange(STEP_POSITIONS) + p                           # [3]
    x = torch.tensor(STEP_X).expand(STEP_POSITIONS, STEP_DIM).contiguous()  # [3,8]
    st = rope_demos.apply_rope_steps(x, pos, base=base)
    whole = rope.apply_rope(x[None, None], pos, base=base)[0, 0]     # [3,8]
    keys = [f"p={int(v)}" for v in pos]
    fine = {"inv_freq": "{:.9g}", "angles": "{:.9g}"}               # float32 digits: the rounding is visible
    tables = {name: _rows(name, ["θᵢ"] if name == "inv_freq" else keys, _np(st[name]), fine.get(name, "{:.4f}"))
              for name in ("inv_freq", "angles", "cos", "sin", "even", "odd", "rotated_even", "rotated_odd", "out")}
    return dict(positions=[int(v) for v in pos], code=step_code(), tables=tables, x=list(STEP_X),
                max_diff=float((st["out"] - whole).abs().max()))


# ---------------------------------------------------------------- rope_attention vs posviz's own attention
@cached
def attention_check(delta=4, base=10000.0, seed=0):
    r"""The rope_attention of “Same words, different order…” §09 against posviz's own attention, and what proves
    that SDPA adds no position.

    Formula:
        \max \big|\mathrm{SDPA}(R q, R k, v) - \mathrm{softmax}(R q\,(R k)^\top/\sqrt d + M)\,v\big| \approx 0
        \text{SDPA alone: } \mathrm{SDPA}(Pq, Pk, Pv) = P\,\mathrm{SDPA}(q, k, v)
            \ \text{(no mask: token order is invisible)}
        \text{with RoPE: } \mathrm{rope\_attention}(Pq, Pk, Pv) \ne P\,\mathrm{rope\_attention}(q, k, v)
        \text{common shift: } \mathrm{rope\_attention}(q, k, v;\ p+\Delta) = \mathrm{rope\_attention}(q, k, v;\ p)
        \text{grouped heads } (H_q = 4,\ H = 2)\text{: } \mathrm{SDPA}_{\text{gqa}}(Rq, Rk, v)_h
            = \mathrm{Attn}(Rq_h, Rk_{\lfloor h/2\rfloor}, v_{\lfloor h/2\rfloor})

    q, k, v = torch.randn(2, 4, 6, 8) (Generator(seed)); positions 0..5; P reverses the tokens; the grouped-query
    check keeps K/V heads 0 and 1 of k and v (H = 2 for H_q = 4: §09's K [N,...,H,S,E] beside Q [N,...,H_q,L,E]).
    -> dict of max abs differences (floats) and the shape.
    """
    delta = check_int("delta", delta, -MAX_POSITION // 2, MAX_POSITION // 2)
    g = torch.Generator().manual_seed(check_int("seed", seed, 0, 2**31 - 1))
    q, k, v = (torch.randn(*ATTENTION_SHAPE, generator=g) for _ in range(3))  # [2,4,6,8] x3
    pos = torch.arange(ATTENTION_SHAPE[2])                           # [6]
    rot = rope.rope_attention(q, k, v, pos, pos, is_causal=True, base=base)  # [2,4,6,8]
    own = rope.plain_attention(rope.apply_rope(q, pos, base=base), rope.apply_rope(k, pos, base=base), v,
                               is_causal=True)                       # [2,4,6,8]
    rev = torch.arange(ATTENTION_SHAPE[2] - 1, -1, -1)               # [6] P: reverse the tokens
    plain = F.scaled_dot_product_attention(q, k, v)                  # [2,4,6,8] no positions at all
    plain_perm = F.scaled_dot_product_attention(q[:, :, rev], k[:, :, rev], v[:, :, rev])  # [2,4,6,8]
    roped = rope.rope_attention(q, k, v, pos, pos, is_causal=False, base=base)  # [2,4,6,8]
    roped_perm = rope.rope_attention(q[:, :, rev], k[:, :, rev], v[:, :, rev], pos, pos, is_causal=False,
                                     base=base)                      # [2,4,6,8]
    shifted = rope.rope_attention(q, k, v, pos + delta, pos + delta, is_causal=True, base=base)  # [2,4,6,8]
    kg, vg = k[:, :GQA_KV_HEADS], v[:, :GQA_KV_HEADS]               # [2,2,6,8] x2: fewer K/V heads
    grouped = rope.rope_attention(q, kg, vg, pos, pos, is_causal=True, base=base)   # [2,4,6,8] SDPA, enable_gqa
    group = rope.kv_head_of(ATTENTION_SHAPE[1], GQA_KV_HEADS)        # [4] = 0, 0, 1, 1
    own_grouped = rope.plain_attention(rope.apply_rope(q, pos, base=base), rope.apply_rope(k[:, group], pos, base=base),
                                       v[:, group], is_causal=True)  # [2,4,6,8] K/V heads copied per group

    def diff(a, b):
        return float((a - b).abs().max())

    return dict(shape=list(ATTENTION_SHAPE), sdpa_vs_own=diff(rot, own),
                plain_shuffle=diff(plain_perm, plain[:, :, rev]), rope_shuffle=diff(roped_perm, roped[:, :, rev]),
                shift=diff(shifted, rot), delta=delta, gqa=diff(grouped, own_grouped),
                gqa_heads=[ATTENTION_SHAPE[1], GQA_KV_HEADS], gqa_group=group.tolist())


# ---------------------------------------------------------------- the free calculator
@cached
def calculator(q1, q2, k1, k2, theta_choice, theta_value, p, s, only_q=False):
    """One pair, any numbers: R(p)q, R(s)k (k itself when only Q is rotated), the score and its
    closed form with phi = (s - p) theta (or -p theta when only Q is rotated) -> dict of floats.
    theta is THETAS[theta_choice] (π/2, π/3), or theta_value when the choice is "other"."""
    check_choice("theta", theta_choice, THETA_CHOICES)
    theta = THETAS.get(theta_choice, theta_value)
    q, k = (float(q1), float(q2)), (float(k1), float(k2))
    rq = rope_demos.pair_rotate(q, p, theta)                               # [2]
    rk = torch.tensor(k, dtype=torch.float64) if only_q else rope_demos.pair_rotate(k, s, theta)  # [2]
    phi = (-float(p) if only_q else float(s) - float(p)) * float(theta)
    return dict(q=list(q), k=list(k), rq=[float(v) for v in rq], rk=[float(v) for v in rk], theta=float(theta),
                p=float(p), s=float(s), phi=phi, dot=q[0] * k[0] + q[1] * k[1], cross=q[1] * k[0] - q[0] * k[1],
                score=float(rope_demos.pair_score(q, k, p, s, theta, rotate="q" if only_q else "both")),
                closed=float(rope_demos.pair_score_closed_form(q, k, phi)), only_q=bool(only_q))
