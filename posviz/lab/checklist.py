r"""The nine-step debugging path of “Same words, different order…” §12, run live, and the exercises of §17.

Each step is a function `step_<n>(broken=False) -> dict` that runs a real check against
posviz and returns {"step": n, "passed": bool, "numbers": [(text key, value string), ...],
"table": optional {"columns": [...], "rows": [[...], ...]}, "boundary": optional {"code", "params"}}.
A value string that starts with "chk.v." is itself a text key (a word, translated by the page);
"boundary" is the coded error of a demonstrated limit (step 8), for the page to show in the user's
language. `broken=True` switches on the bug the step is meant to catch (“Same words, different order…” §13), so the same
check visibly fails:

    1 permutation equivariance without position      broken: RoPE left on in the "control"
    2 token ids / valid mask / position ids          broken: one shared arange(L) for all rows
    3 common shift: s(p+Δ, s+Δ) = s(p, s)            broken: only Q rotated
    4 relative shift: moving only the key matters    broken: RoPE never applied (not wired in)
    5 even/odd pairing                               broken: "half" layout on interleaved weights
    6 full forward vs KV cache, every position       broken: cache restarts at position 0
    7 left vs right padding, ids from the mask       broken: shared arange with left padding
    8 learned absolute table at L = M and M + 1      broken: position wrapped modulo M
    9 angles in float32 at long positions            broken: angles computed in bfloat16
"""
import math

import torch

from posviz.lab import kv_cache as kvcache
from posviz.lab import toy_model as attention
from posviz.lab.tokens import encode
from posviz.pe.learned import LearnedAbsolutePositions, PositionOutOfRangeError, modulo_position_ids
from posviz.pe.position_ids import position_ids_from_mask, shared_arange
from posviz.pe.rope import apply_rope, rope_inv_freq
from posviz.validate import check_choice, check_float, check_int

STEPS = tuple(range(1, 10))
TOL = 1e-5            # "equal" for float32 checks
CHANGE = 1e-3         # "changed" for the relative shift test
ANGLE_TOL = 1e-2      # largest acceptable |cos/sin error| of the angle table
LONG_POSITIONS = (10, 100, 1000, 5000, 10000, 30000)
SENTENCE_SHORT = "我 爱 ML"           # “Same words, different order…” §11
SENTENCE_LONG = "你 也 爱 ML 吗"
EQUIVARIANCE_PAIR = ("猫追狗", "狗追猫")   # the overview's sentence and its reordering (step 1)
NO_ERROR = "chk.v.no_error"


def _g(x):
    return f"{x:.3g}" if isinstance(x, float) else str(x)


def _result(step, passed, numbers, table=None, boundary=None):
    return {"step": step, "passed": bool(passed), "numbers": [(k, _g(v)) for k, v in numbers],
            "table": table, "boundary": boundary}


def _content(d=8, seed=0):
    """Seeded content vectors q, k [1,1,1,d]."""
    g = torch.Generator().manual_seed(seed)
    q, k = torch.randn(2, 1, 1, 1, d, generator=g)                   # [1,1,1,d] x2
    return q, k


def rotated_score(q, k, p, s, *, rotate_q=True, rotate_k=True, layout="interleaved"):
    """(R(p) q)^T (R(s) k) for one query at p and one key at s (q, k [1,1,1,d]), either rotation
    switchable off (the bugs of steps 3 and 4) -> float."""
    qr = apply_rope(q, torch.tensor([p]), layout=layout) if rotate_q else q   # [1,1,1,d]
    kr = apply_rope(k, torch.tensor([s]), layout=layout) if rotate_k else k   # [1,1,1,d]
    return float((qr * kr).sum())


# ---------------------------------------------------------------- the nine steps
def step_1(broken=False, sentence_a=EQUIVARIANCE_PAIR[0], sentence_b=EQUIVARIANCE_PAIR[1]):
    """No-position control: Attn(PX) = P Attn(X), X = sentence_a, PX = sentence_b (a reordering).
    Broken: RoPE still on in the control."""
    method = "rope" if broken else "nope"
    r = attention.equivariance(sentence_a, sentence_b, method=method)
    return _result(1, r["max_diff"] <= TOL, [("chk.n.method", method),
                                              ("chk.n.perm", r["perm"]),
                                              ("chk.n.equiv_diff", r["max_diff"]),
                                              ("chk.n.tol", TOL)])


def step_2(broken=False):
    """Print token ids, valid mask and position ids of a left-padded batch (“Same words, different order…” §11).

    Contract: every row's first real token has position 0 and the real tokens count 0, 1, 2...
    Broken: one shared arange(L) for every row.
    """
    batch = encode([SENTENCE_SHORT, SENTENCE_LONG], padding_side="left")
    mask = batch.attention_mask                                       # [N,L]
    pos = shared_arange(mask) if broken else position_ids_from_mask(mask)  # [N,L]
    ok = all(pos[r][mask[r].bool()].tolist() == list(range(int(mask[r].sum()))) for r in range(mask.shape[0]))
    rows = []
    for r in range(mask.shape[0]):
        rows.append(["tokens", r] + batch.tokens[r])
        rows.append(["token_ids", r] + batch.token_ids[r].tolist())
        rows.append(["valid", r] + mask[r].tolist())
        rows.append(["position_ids", r] + pos[r].tolist())
    table = {"columns": ["chk.c.tensor", "chk.c.row"] + [str(j) for j in range(mask.shape[1])],
             "rows": [[str(c) for c in row] for row in rows]}
    first = [int(pos[r][mask[r].bool()][0]) for r in range(mask.shape[0])]
    return _result(2, ok, [("chk.n.scheme", "arange" if broken else "cumsum(mask)-1"),
                           ("chk.n.first_real", first)], table)


def step_3(broken=False, *, p=3, s=7, delta=100):
    """Common shift: (R(p+Δ)q)^T R(s+Δ)k = (R(p)q)^T R(s)k. Broken: only Q is rotated."""
    q, k = _content()
    a = rotated_score(q, k, p, s, rotate_k=not broken)
    b = rotated_score(q, k, p + delta, s + delta, rotate_k=not broken)
    return _result(3, abs(a - b) <= 1e-4, [("chk.n.score_ps", a), ("chk.n.score_shift", b),
                                            ("chk.n.abs_diff", abs(a - b)), ("chk.n.tol", 1e-4)])


def step_4(broken=False, *, p=3, s=7, move=1):
    """Relative shift: moving only the key (s -> s+1) must change the score.
    Broken: RoPE is never applied, so positions cannot reach the score."""
    q, k = _content()
    a = rotated_score(q, k, p, s, rotate_q=not broken, rotate_k=not broken)
    b = rotated_score(q, k, p, s + move, rotate_q=not broken, rotate_k=not broken)
    return _result(4, abs(a - b) > CHANGE, [("chk.n.score_ps", a), ("chk.n.score_key_moved", b),
                                            ("chk.n.abs_diff", abs(a - b)), ("chk.n.min_change", CHANGE)])


def deinterleave_permutation(d):
    """[0, 2, 4, ..., 1, 3, 5, ...]: x_half = x[perm] turns pairs (2i, 2i+1) into (i, i + d/2)."""
    return list(range(0, d, 2)) + list(range(1, d, 2))


def step_5(broken=False, *, d=8, p=2, s=5):
    """Even/odd pairing: weights trained with interleaved pairs must be permuted before a
    "half" (rotate_half) implementation uses them. Broken: used without the permutation."""
    q, k = _content(d)
    perm = torch.tensor(deinterleave_permutation(d))                  # [d]
    ref = rotated_score(q, k, p, s, layout="interleaved")
    raw = rotated_score(q, k, p, s, layout="half")
    permuted = rotated_score(q[..., perm], k[..., perm], p, s, layout="half")
    used = raw if broken else permuted
    return _result(5, abs(used - ref) <= TOL, [("chk.n.score_interleaved", ref),
                                                ("chk.n.score_half_raw", raw),
                                                ("chk.n.score_half_perm", permuted),
                                                ("chk.n.abs_diff", abs(used - ref)), ("chk.n.tol", TOL)])


def step_6(broken=False, *, length=8, prefill_length=4):
    """Full causal forward vs prefill + decode with a KV cache, every position.
    Broken: the cache restarts at position 0 (“Same words, different order…” §10, wrong A)."""
    q, k, v = kvcache.random_qkv(1, 2, length, 16)                     # [1,2,L,16] x3
    full = kvcache.full_causal_rope_attention(q, k, v)                 # [1,2,L,16]
    mode = "restart" if broken else "correct"
    dec = kvcache.decode_with_cache(q, k, v, prefill_length=prefill_length, mode=mode)  # [1,2,L,16]
    err = kvcache.per_position_error(dec, full)                       # [L]
    ok = bool((err <= kvcache.allowed_error(full, "float32")).all())
    table = {"columns": ["p"] + [str(i) for i in range(length)],
             "rows": [["max |Δ|"] + [f"{e:.1e}" for e in err.tolist()]]}
    return _result(6, ok, [("chk.n.mode", mode), ("chk.n.prefill", prefill_length),
                           ("chk.n.max_err", float(err.max())), ("chk.n.tol", TOL)], table)


def step_7(broken=False):
    """Left vs right padding: the real tokens' outputs must match when position ids come from
    the mask. The toy model uses absolute (sinusoidal) positions, whose contract is "the first
    real token is position 0". Broken: one shared arange(L) for every row."""
    model = attention.build_model("sinusoidal")
    outs = {}
    for side in ("left", "right"):
        batch = encode([SENTENCE_SHORT, SENTENCE_LONG], padding_side=side)
        mask = batch.attention_mask                                   # [N,L]
        pos = shared_arange(mask) if broken else position_ids_from_mask(mask)  # [N,L]
        res = attention.forward(model, batch.token_ids, mask, pos)
        outs[side] = res.output[0][mask[0].bool()]                    # [n,D] real tokens of row 0
    diff = float((outs["left"] - outs["right"]).abs().max())
    return _result(7, diff <= TOL, [("chk.n.scheme", "arange" if broken else "cumsum(mask)-1"),
                                    ("chk.n.lr_diff", diff), ("chk.n.tol", TOL)])


def step_8(broken=False, *, max_length=8):
    """Learned absolute table at L = M (works) and L = M + 1 (must raise a clear error).
    Broken: positions wrapped modulo M -- no error, position M silently reads row 0."""
    module = LearnedAbsolutePositions(32, 8, max_length).requires_grad_(False)
    ok_shape = tuple(module(torch.zeros(1, max_length, dtype=torch.long)).shape)
    if broken:
        ids = modulo_position_ids(max_length + 1, max_length)         # [M+1]
        table = module.position.weight                                # [M,D]
        alias = float((table[ids[-1]] - table[0]).abs().max())
        return _result(8, False, [("chk.n.shape_at_M", ok_shape), ("chk.n.at_M1", NO_ERROR),
                                  ("chk.n.row_of_M", int(ids[-1])), ("chk.n.alias_diff", alias)])
    try:
        module(torch.zeros(1, max_length + 1, dtype=torch.long))
        short, boundary, ok = NO_ERROR, None, False
    except PositionOutOfRangeError as e:
        short, boundary, ok = type(e).__name__, {"code": e.code, "params": dict(e.params)}, True
    return _result(8, ok, [("chk.n.shape_at_M", ok_shape), ("chk.n.at_M1", short)], boundary=boundary)


def angle_errors(positions=LONG_POSITIONS, *, head_dim=64, dtype="float32"):
    """max_i |cos(p θ_i) - cos_ref|, |sin ...| with the angles computed in `dtype`
    (positions and θ cast to it first) vs exact float64 angles -> list, one per position.
    float32 keeps ~7 digits, so p θ_0 = 30000 is off by ~1e-3 rad; bfloat16 keeps ~3, so
    positions above 256 are not even representable: the error is O(1)."""
    check_choice("dtype", dtype, kvcache.DTYPES)
    dt = kvcache.DTYPES[dtype]
    inv = rope_inv_freq(head_dim)                                     # [d/2] float32
    exact = 10000.0 ** (-torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)  # [d/2]
    p = torch.tensor(positions, dtype=torch.float64)                  # [P]
    ref = p[:, None] * exact[None]                                    # [P,d/2] float64 truth
    ang = (p.to(dt)[:, None] * inv.to(dt)[None]).double()             # [P,d/2] in dtype
    err = torch.maximum((ang.cos() - ref.cos()).abs(), (ang.sin() - ref.sin()).abs())  # [P,d/2]
    return err.amax(dim=-1).tolist()


def step_9(broken=False):
    """Angles p·θ_i in float32 stay accurate at long positions; in bfloat16 (or float16) the
    error grows with the position. Broken: the angle table is computed in bfloat16."""
    used = "bfloat16" if broken else "float32"
    errs = {dt: angle_errors(dtype=dt) for dt in ("float32", "bfloat16", "float16")}
    rows = [[str(p)] + [f"{errs[dt][i]:.1e}" for dt in errs] for i, p in enumerate(LONG_POSITIONS)]
    table = {"columns": ["p", "float32", "bfloat16", "float16"], "rows": rows}
    worst = max(errs[used])
    return _result(9, worst <= ANGLE_TOL, [("chk.n.angle_dtype", used), ("chk.n.max_angle_err", worst),
                                           ("chk.n.tol", ANGLE_TOL)], table)


STEP_FUNCTIONS = {1: step_1, 2: step_2, 3: step_3, 4: step_4, 5: step_5, 6: step_6, 7: step_7,
                  8: step_8, 9: step_9}


def run_step(step, broken=False, *, sentences=EQUIVARIANCE_PAIR):
    """Run check `step` (1..9), with its bug switched on if `broken`; `sentences` (X, PX) feed step 1."""
    fn = STEP_FUNCTIONS[check_int("step", step, 1, 9)]
    with kvcache.one_thread():
        return fn(bool(broken), *sentences) if fn is step_1 else fn(bool(broken))


# ---------------------------------------------------------------- exercises of “Same words, different order…” §17
EX1_Q, EX1_K, EX1_THETA = (1.0, 2.0), (3.0, 4.0), math.pi / 3
EX1_PAIRS = ((1, 2), (5, 6), (5, 7))


def _vec2(x):
    return torch.tensor(x, dtype=torch.float32).reshape(1, 1, 1, 2)   # [1,1,1,2]


def exercise_1(q=EX1_Q, k=EX1_K, theta=EX1_THETA, pairs=EX1_PAIRS, *, rotate_k=True):
    r"""Scores (R(p) q)^T (R(s) k) = q^T R(s - p) k for one pair of dimensions with angle θ.

    Formula:
        (R(p\theta)q)^\top R(s\theta)k=q^\top R(\varphi)k=(q\cdot k)\cos\varphi+(q_2k_1-q_1k_2)\sin\varphi,
            \quad\varphi=(s-p)\theta
        (R(p\theta)q)^\top k=q^\top R(-p\theta)k

    With rotate_k=False (exercise 2) the score is (R(p) q)^T k = q^T R(-p) k.
    Returns one dict per (p, s): rotated q, rotated k, score, closed-form score.
    """
    theta = check_float("theta", theta, -100.0, 100.0)
    inv = torch.tensor([theta], dtype=torch.float32)                  # [1]
    qv, kv = _vec2(q), _vec2(k)                                       # [1,1,1,2] x2
    dot, cross = q[0] * k[0] + q[1] * k[1], q[1] * k[0] - q[0] * k[1]
    out = []
    for p, s in pairs:
        qr = apply_rope(qv, torch.tensor([p]), inv_freq=inv)          # [1,1,1,2]
        kr = apply_rope(kv, torch.tensor([s]), inv_freq=inv) if rotate_k else kv  # [1,1,1,2]
        phi = ((s - p) if rotate_k else -p) * theta
        out.append({"p": p, "s": s, "q_rot": [round(x, 4) for x in qr.flatten().tolist()],
                    "k_rot": [round(x, 4) for x in kr.flatten().tolist()],
                    "score": float((qr * kr).sum()), "closed_form": dot * math.cos(phi) + cross * math.sin(phi)})
    return out


def exercise_2():
    """Rotate only Q: the common shift (1,2) -> (5,6) changes the score, so the test fails."""
    return exercise_1(pairs=EX1_PAIRS[:2], rotate_k=False)


def exercise_3(*, length=4, prefill_length=2, heads=1, head_dim=4, seed=0):
    """Length 4: full causal forward vs prefill 2 + decode 2, correct and restart modes.
    -> {"correct": [max |Δ| per position], "restart": [...]}"""
    q, k, v = kvcache.random_qkv(1, heads, length, head_dim, seed=seed)  # [1,H,L,d] x3
    full = kvcache.full_causal_rope_attention(q, k, v)                 # [1,H,L,d]
    return {m: kvcache.per_position_error(
        kvcache.decode_with_cache(q, k, v, prefill_length=prefill_length, mode=m), full).tolist()
        for m in ("correct", "restart")}


def check_answer(value, answer, tol):
    """True if the student's number is within tol of the answer (None = no answer yet)."""
    if value is None:
        return None
    try:
        return abs(float(value) - float(answer)) <= tol
    except (TypeError, ValueError):
        return False


def exercise_3_answer(errors):
    """First position where the restart version's error exceeds the float32 tolerance (or -1)."""
    bad = [p for p, e in enumerate(errors["restart"]) if e > TOL]
    return bad[0] if bad else -1
