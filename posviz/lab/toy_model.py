r"""A toy single-layer attention model with a choice of position method, and its bugs.

One layer, H heads of width d, model width D = H d, no output projection:

    X = E[token_ids]                       (+ PE[p] for "sinusoidal", + P[p] for "learned")
    Q_h = X W_Q^h + b_Q^h,   K_h = X W_K^h + b_K^h,   V_h = X W_V^h
    RoPE:       Q_h <- R(p) Q_h,  K_h <- R(p) K_h                 (Su et al. 2021)
    S_h = Q_h K_h^T / sqrt(d)  + B_h                             [N,H,L,S]
    ALiBi:      B_h[i,j] = -m_h |p_i - p_j|                       (Press et al. 2021)
    T5:         B_h[i,j] = b_h[bucket(p_j - p_i)]                  (Raffel et al. 2020)
    A_h = softmax(S_h + mask),   O = concat_h(A_h V_h)            [N,L,D]

The weights are seeded and *structured* so that position visibly shapes attention
(nothing is trained). Head kinds, by index: 0 "previous token", 1 "same / nearby
token", 2 and 3 "content" (random W_Q, W_K):

- RoPE: a positional head has a constant query b_Q = u and key b_K = R(1) u, so
  (R(m) u)^T (R(n) R(1) u) = sum_i |u_i|^2 cos((n + 1 - m) theta_i), largest at n = m - 1.
  The "nearby" head uses b_K = u (largest at n = m). The energy of u sits in the fast pairs.
- sinusoidal / learned: a positional head reads the first d dimensions of X (the token
  embeddings are kept small there: a "position channel"); W_K
  applies the per-pair rotation T(w_i) with T PE(n) = PE(n + 1), so
  q_m . k_n ~ sum_i cos((m - n - 1) w_i), again largest at n = m - 1. The learned
  table is seeded as "sinusoid + noise", the shape trained tables often take.
- ALiBi: the slopes do it; T5: the per-bucket bias table favours offset -1 (head 0)
  and offset 0 (head 1) on top of seeded noise.
- NoPE: positional heads have no position to read: near-uniform attention.

Bugs (seed 000 §13) are switches of `forward`; wrong position-id schemes are in
`posviz.pe.position_ids`. A learned table too short for the positions raises
`posviz.pe.learned.PositionOutOfRangeError` (the hard boundary), never wraps.

`forward` is the layer's steps (posviz.lab.toy_layer: embed, project, rotate, bias, mask, attend)
called in the open; `summary_matrix` runs the same steps through its private fast path
(posviz.lab._toy_fast), which shares intermediates between setups and equals forward bit for bit.
"""
import functools
import math
from dataclasses import dataclass

import numpy as np
import torch

from posviz.lab import _toy_fast
from posviz.lab import toy_layer as layer
from posviz.lab.kv_cache import one_thread
from posviz.lab.tokens import MAX_TOKENS, encode
from posviz.lab.toy_layer import LOWP_DTYPES, T5_BUCKETS, T5_MAX_DISTANCE
from posviz.pe.learned import PositionOutOfRangeError
from posviz.pe.position_ids import make_position_ids
from posviz.pe.relative import t5_relative_position_bucket
from posviz.pe.rope import ROPE_LAYOUTS, apply_rope, rope_inv_freq
from posviz.pe.sinusoidal import sinusoidal_frequencies, sinusoidal_positions
from posviz.validate import (
    MAX_LENGTH,
    MAX_POSITION,
    PosvizError,
    as_tensor,
    check_choice,
    check_even,
    check_float,
    check_int,
)

# the position methods of the toy model (not the RoPE scaling methods of posviz.pe.scaling)
POSITION_METHODS = ("nope", "sinusoidal", "learned", "rope", "alibi", "t5")
BUGS = ("no_position", "rotate_q_only", "rotate_v", "rope_on_hidden", "pads_unmasked",
        "layout_mismatch", "low_precision")
ROPE_ONLY_BUGS = ("rotate_q_only", "rotate_v", "rope_on_hidden", "layout_mismatch", "low_precision")
LOWP_OFFSETS = (512, 2048, 8192, 32768)
MAX_LOWP_OFFSET = 60000                # float16 reaches 65504: offset + any toy position stays finite
HEAD_KINDS = ("previous", "nearby", "content", "content")
MAX_VOCAB = 2 * MAX_TOKENS + 32        # embedding rows: ids of a two-sentence batch fit
HARMLESS, HARMFUL = 1e-5, 1e-2         # thresholds used by the tests and the page


@dataclass(frozen=True)
class ToyModel:
    """Seeded weights of the toy model (all float32)."""
    method: str
    rope_layout: str
    num_heads: int
    head_dim: int
    max_length: int
    embed: torch.Tensor      # [V,D]
    pos_table: torch.Tensor  # [M,D] learned absolute table (used by "learned")
    wq: torch.Tensor         # [H,D,d]
    wk: torch.Tensor         # [H,D,d]
    wv: torch.Tensor         # [H,D,d]
    bq: torch.Tensor         # [H,d]
    bk: torch.Tensor         # [H,d]
    t5_table: torch.Tensor   # [H,T5_BUCKETS]

    @property
    def dim(self):
        return self.num_heads * self.head_dim


@dataclass(frozen=True)
class AttentionResult:
    weights: torch.Tensor    # [N,H,L,S] attention probabilities
    output: torch.Tensor     # [N,L,D] concat of the heads' outputs
    position_ids: torch.Tensor  # [N,L] the ids actually used


def _pair_rotation(angles, layout, d):
    """Block rotation matrix [d,d] acting on column vectors, one angle per pair ([d/2])."""
    return _pair_blocks([(math.cos(a), math.sin(a)) for a in angles.tolist()], layout, d)


def _pair_blocks(cos_sin, layout, d):
    """[d,d] zeros with the 2x2 block [[c, -s], [s, c]] of pair i at its two dims, (c, s) = cos_sin[i]
    (Python floats, rounded to float32 as an element assignment rounds them)."""
    i = torch.arange(d // 2)                                        # [d/2]
    a0, a1 = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2)
    c, s = torch.tensor(cos_sin).T                                  # [d/2] x2 float32
    r = torch.zeros(d, d)                                           # [d,d]
    r[a0, a0], r[a0, a1], r[a1, a0], r[a1, a1] = c, -s, s, c
    return r


def _pair_weights(npairs):
    """Energy per frequency pair of a positional head: the fast pairs carry it."""
    return torch.tensor([1.0 if i < 2 else 0.5 ** (i - 1) for i in range(npairs)])  # [d/2]


def build_model(method="rope", *, num_heads=2, head_dim=16, rope_layout="interleaved",
                max_length=16, seed=0):
    """Seeded, structured weights for `method` (see the module docstring)."""
    check_choice("method", method, POSITION_METHODS)
    check_choice("rope_layout", rope_layout, ROPE_LAYOUTS)
    return _structured(method, rope_layout, _seeded_draws(num_heads, head_dim, max_length, seed))


def _seeded_draws(num_heads, head_dim, max_length, seed):
    """The random draws every method's model starts from (they depend on the sizes and the seed, not on
    the method) -> dict of tensors and the generator's state after them."""
    h = check_int("num_heads", num_heads, 1, 4)
    d = check_even("head_dim", head_dim, 8, 64)
    m = check_int("max_length", max_length, 1, MAX_LENGTH)
    seed = check_int("seed", seed, 0, 2**31 - 1)
    g = torch.Generator().manual_seed(seed)
    dim = h * d
    embed = 0.5 * torch.randn(MAX_VOCAB, dim, generator=g)                        # [V,D]
    pos_table = sinusoidal_positions(m, dim) + 0.2 * torch.randn(m, dim, generator=g)  # [M,D]
    content = 1.5 / math.sqrt(dim)
    wq = content * torch.randn(h, dim, d, generator=g)                            # [H,D,d]
    wk = content * torch.randn(h, dim, d, generator=g)                            # [H,D,d]
    wv = torch.randn(h, dim, d, generator=g) / math.sqrt(dim)                     # [H,D,d]
    t5_table = 0.5 * torch.randn(h, T5_BUCKETS, generator=g)                      # [H,B]
    return dict(h=h, d=d, m=m, embed=embed, pos_table=pos_table, wq=wq, wk=wk, wv=wv, t5_table=t5_table,
                state=g.get_state())


def _structured(method, rope_layout, draws):
    """The model of `method` from `draws` (_seeded_draws; left untouched, so that one set of draws
    serves every method of a summary matrix): the structure of the module docstring."""
    h, d, m = draws["h"], draws["d"], draws["m"]
    g = torch.Generator()
    g.set_state(draws["state"])                                                   # the stream goes on from here
    dim = h * d
    embed, pos_table, wq, wk, wv, t5_table = (draws[k].clone() for k in ("embed", "pos_table", "wq", "wk", "wv",
                                                                           "t5_table"))  # [V,D] [M,D] [H,D,d] x3 [H,B]
    bq = torch.zeros(h, d)                                                        # [H,d]
    bk = torch.zeros(h, d)                                                        # [H,d]
    w_pair = _pair_weights(d // 2)                                                # [d/2]
    if method in ("sinusoidal", "learned"):
        embed[:, :d] *= 0.1   # a "position channel": tokens barely use the dims the positional heads read
    for head in range(h):
        kind = HEAD_KINDS[head]
        if kind == "content":
            continue
        shift = 1.0 if kind == "previous" else 0.0   # key rotated one step ahead: peak at n = m - 1
        if method == "rope":
            # u: pair i has norm sqrt(c w_i) and a random direction
            c = 6.0 * math.sqrt(d) / float(w_pair.sum())
            phase = 2 * math.pi * torch.rand(d // 2, generator=g)                # [d/2]
            rot = _pair_rotation(phase, rope_layout, d)                           # [d,d]
            e0 = torch.zeros(d)                                                   # [d]
            idx = torch.arange(d // 2) * 2 if rope_layout == "interleaved" else torch.arange(d // 2)
            e0[idx] = (c * w_pair).sqrt()
            u = rot @ e0                                                          # [d]
            theta = rope_inv_freq(d)                                              # [d/2]
            bq[head] = u
            bk[head] = _pair_rotation(shift * theta, rope_layout, d) @ u          # [d] = R(shift) u
            wq[head] *= 0.3
            wk[head] *= 0.3
        elif method in ("sinusoidal", "learned"):
            # read the first d dims of X (the fastest sinusoid pairs, interleaved sin/cos)
            omega = sinusoidal_frequencies(dim)[: d // 2]                         # [d/2]
            alpha = (8.0 * math.sqrt(d) / float(w_pair.sum())) ** 0.5
            scale = alpha * w_pair.repeat_interleave(2).sqrt()                    # [d]
            sel = torch.zeros(d, dim)                                             # [d,D]
            sel[torch.arange(d), torch.arange(d)] = 1.0
            # [d,d] T PE(n) = PE(n+shift): pair i is [[cos a, sin a], [-sin a, cos a]], a = shift w_i
            t = _pair_blocks([(math.cos(shift * w), -math.sin(shift * w)) for w in omega.tolist()],
                             "interleaved", d)
            wq[head] = (scale[:, None] * sel).T                                   # [D,d]
            wk[head] = (scale[:, None] * (t @ sel)).T                             # [D,d]
        elif method == "t5":
            for rel, boost in ((-1, 3.0) if kind == "previous" else (0, 2.5),):
                b = int(t5_relative_position_bucket(torch.tensor(rel), bidirectional=True,
                                                    num_buckets=T5_BUCKETS, max_distance=T5_MAX_DISTANCE))
                bc = int(t5_relative_position_bucket(torch.tensor(rel), bidirectional=False,
                                                     num_buckets=T5_BUCKETS, max_distance=T5_MAX_DISTANCE))
                t5_table[head, b] += boost
                if bc != b:
                    t5_table[head, bc] += boost
        if method in ("nope", "alibi", "t5"):
            wq[head] *= 0.3
            wk[head] *= 0.3
    return ToyModel(method=method, rope_layout=rope_layout, num_heads=h, head_dim=d, max_length=m,
                    embed=embed, pos_table=pos_table, wq=wq, wk=wk, wv=wv, bq=bq, bk=bk,
                    t5_table=t5_table)


def lowp_positions(position_ids, offset, lowp_dtype="bfloat16"):
    r"""Positions p + offset as `lowp_dtype` stores them: the first rounding of the low-precision bug.

    Formula:
        \tilde p=\operatorname{round}_{\text{dtype}}(p+o),\qquad
            \text{spacing at } x:\ 2^{\lfloor\log_2 x\rfloor}\,\varepsilon_{\text{dtype}}

    bfloat16 keeps 8 significant bits (eps = 2^-7): from 8192 on neighbours are 64 apart, so
    8192..8223 all become 8192. Returns a tensor of the same shape in `lowp_dtype`.
    """
    check_choice("lowp_dtype", lowp_dtype, tuple(LOWP_DTYPES))
    pos = as_tensor("position_ids", position_ids)                          # [...]
    return layer.round_positions(pos, check_int("lowp_offset", offset, 0, MAX_LOWP_OFFSET), LOWP_DTYPES[lowp_dtype])


def representable_spacing(value, lowp_dtype="bfloat16"):
    """Distance from round(value) to the next number `lowp_dtype` can represent above it (its ulp) -> float."""
    check_choice("lowp_dtype", lowp_dtype, tuple(LOWP_DTYPES))
    dt = LOWP_DTYPES[lowp_dtype]
    x = torch.tensor(check_float("value", value, 0.0, float(torch.finfo(dt).max))).to(dt)  # [] rounded
    up = torch.nextafter(x, torch.tensor(float("inf"), dtype=dt))           # [] next representable
    return float(up.float() - x.float())


def significant_bits(lowp_dtype="bfloat16"):
    """Significant bits of `lowp_dtype` (implicit leading bit included): bfloat16 8, float16 11."""
    check_choice("lowp_dtype", lowp_dtype, tuple(LOWP_DTYPES))
    return 1 - int(math.log2(torch.finfo(LOWP_DTYPES[lowp_dtype]).eps))


def _check_inputs(model, token_ids, attention_mask, position_ids):
    """token ids, mask and position ids: integer tensors [N,L] of one shape, ids in range -> the three tensors."""
    checked = []
    for name, t in (("token_ids", token_ids), ("attention_mask", attention_mask), ("position_ids", position_ids)):
        t = as_tensor(name, t, ndim=2)                                    # [N,L]
        if t.is_floating_point() or t.is_complex():
            raise PosvizError("lab.integer_tensor", name=name, got=str(t.dtype))
        checked.append(t)
    token_ids, attention_mask, position_ids = checked
    if not (token_ids.shape == attention_mask.shape == position_ids.shape):
        raise PosvizError("lab.same_shape", names="token_ids, attention_mask, position_ids",
                          shapes=f"{list(token_ids.shape)}, {list(attention_mask.shape)}, {list(position_ids.shape)}")
    check_int("token_ids length (L)", token_ids.shape[1], 1, MAX_LENGTH)
    vocab = model.embed.shape[0]
    bad = token_ids[(token_ids < 0) | (token_ids >= vocab)]
    if bad.numel():
        raise PosvizError("range", name="token_ids", lo=0, hi=vocab - 1, got=int(bad[0]))
    bad = position_ids[(position_ids < 0) | (position_ids > MAX_POSITION)]
    if bad.numel():
        raise PosvizError("range", name="position_ids", lo=0, hi=MAX_POSITION, got=int(bad[0]))
    span = int(position_ids.max() - position_ids.min()) + 1
    if span > MAX_LENGTH:
        raise PosvizError("lab.position_span", name="position_ids", hi=MAX_LENGTH, got=span)
    return token_ids, attention_mask, position_ids


def _check_bugs(bugs, lowp_dtype):
    """bugs (any iterable of names of BUGS) -> tuple; lowp_dtype one of LOWP_DTYPES."""
    bugs = tuple(bugs)
    for b in bugs:
        check_choice("bugs", b, BUGS)
    check_choice("lowp_dtype", lowp_dtype, tuple(LOWP_DTYPES))
    return bugs


def forward(model, token_ids, attention_mask, position_ids, *, causal=False, bugs=(),
            lowp_dtype="bfloat16", lowp_offset=4096):
    r"""One attention layer -> AttentionResult(weights [N,H,L,S], output [N,L,D]).

    Formula:
        A_h=\operatorname{softmax}\!\Big(\frac{(R(p)Q_h)(R(p)K_h)^\top}{\sqrt d}+B_h+M\Big),\qquad
            O=\operatorname{concat}_h(A_h V_h)
        M_{ij}=\begin{cases}0 & \text{valid}_j\ (\wedge\ j\le i)\\ -10^9 & \text{else}\end{cases}

    `bugs` switches on the mistakes of seed 000 §13 (see BUGS); RoPE-only bugs are
    ignored for other methods.
    """
    bugs = _check_bugs(bugs, lowp_dtype)
    lowp_offset = check_int("lowp_offset", lowp_offset, 0, MAX_LOWP_OFFSET)
    token_ids, attention_mask, position_ids = _check_inputs(model, token_ids, attention_mask, position_ids)
    method = "nope" if "no_position" in bugs else model.method
    pos = position_ids.long()                                             # [N,L]
    x = layer.embed_inputs(model, token_ids, pos, method)                 # [N,L,D] E[ids] (+ PE[p] or P[p])
    rope, layout = method == "rope", layer.rope_layout(model, bugs)
    if rope and "rope_on_hidden" in bugs:
        x = layer.rotate_hidden(x, pos, layout)                           # [N,L,D] rotated once, D-dim
    q, k, v = layer.project(model, x)                                     # [N,H,L,d] x3
    if rope and "rope_on_hidden" not in bugs:
        if "low_precision" in bugs:
            rot = functools.partial(layer.rotate_lowp, position_ids=pos, offset=lowp_offset,
                                    dtype=LOWP_DTYPES[lowp_dtype], layout=layout)
        else:
            rot = functools.partial(apply_rope, position_ids=pos, layout=layout)
        q = rot(q)                                                        # [N,H,L,d]
        if "rotate_q_only" not in bugs:
            k = rot(k)                                                    # [N,H,L,d]
        if "rotate_v" in bugs:
            v = rot(v)                                                    # [N,H,L,d]
    scores = layer.scaled_scores(q, k)                                    # [N,H,L,S]
    bias = layer.position_bias(model, pos, method, causal)                # [N,H,L,S] (ALiBi, T5) or None
    if bias is not None:
        scores = scores + bias                                            # [N,H,L,S]
    allowed = layer.key_mask(attention_mask, "pads_unmasked" in bugs, causal)  # [N,L,S]
    weights, out = layer.attend(scores, allowed, v, model.dim)            # [N,H,L,S] [N,L,D]
    return AttentionResult(weights=weights, output=out, position_ids=pos)


# ---------------------------------------------------------------- experiments for the pages
def _one_thread(fn):
    """Run tiny tensors on one intra-op thread (kv_cache.one_thread): on a loaded 2-core host,
    torch's thread pool makes a 5x5 softmax take milliseconds instead of microseconds. For functions
    that return plain data: inference mode spares every op autograd's bookkeeping (~15 % of a
    summary matrix; the same kernels, the same numbers)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with one_thread(), torch.inference_mode():
            return fn(*args, **kwargs)
    return wrapper


def _without_autograd(fn):
    """Run fn in inference mode: no autograd bookkeeping on any op (the same kernels, the same numbers);
    the tensors it returns are read, never trained through."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with torch.inference_mode():
            return fn(*args, **kwargs)
    return wrapper


def real_positions(mask_row):
    """Indices of the real (unpadded) tokens of one mask row -> LongTensor[n]."""
    return torch.nonzero(mask_row, as_tuple=False).flatten()             # [n] indices of real tokens


def run_single(model, ids, *, causal=False):
    """The reference: one sentence alone, unpadded, positions 0..n-1 -> AttentionResult."""
    ids = torch.as_tensor(ids, dtype=torch.long)[None]                    # [1,n]
    mask = torch.ones_like(ids)                                           # [1,n]
    pos = torch.arange(ids.shape[1])[None]                                # [1,n]
    return forward(model, ids, mask, pos, causal=causal)


@_without_autograd
def compare(model, batch, scheme, bugs, *, causal=False, lowp_dtype="bfloat16", lowp_offset=4096):
    r"""Chosen setup on the padded batch vs each sentence run alone.

    Formula:
        \text{correct}_r=\operatorname{Attn}(\text{sentence}_r\text{ alone},\ p=0..n_r-1)
        \text{err}_{r,t}=\max_c\,\big|O^{\text{chosen}}_{r,t,c}-O^{\text{alone}}_{r,t,c}\big|

    err[r][t] = max_c |O_chosen[r, real_t, c] - O_alone_r[t, c]|  over the real tokens t.
    Returns (chosen AttentionResult, list of reference results, list of per-token errors,
    position ids used).
    """
    pos = make_position_ids(scheme, batch.attention_mask, batch.token_ids,
                            table_size=model.max_length)                 # [N,L]
    chosen = forward(model, batch.token_ids, batch.attention_mask, pos, causal=causal, bugs=bugs,
                     lowp_dtype=lowp_dtype, lowp_offset=lowp_offset)
    refs, errs = [], []
    for r in range(batch.token_ids.shape[0]):
        real = real_positions(batch.attention_mask[r])                         # [n]
        ref = run_single(model, batch.token_ids[r, real], causal=causal)
        refs.append(ref)
        diff = (chosen.output[r, real] - ref.output[0]).abs().amax(dim=-1)  # [n]
        errs.append(diff)
    return chosen, refs, errs, pos


SENTENCE_NAMES = ("sentence A", "sentence B")   # how errors name the two sentences (pages pass their labels)


def encode_pair(sentence_a, sentence_b, padding_side, names=SENTENCE_NAMES):
    """The two sentences as one padded Batch (posviz.lab.tokens.encode)."""
    return encode([sentence_a, sentence_b], padding_side=padding_side, names=list(names))


SUMMARY_ROWS = (("nope", "interleaved"), ("sinusoidal", "interleaved"), ("learned", "interleaved"),
                ("rope", "interleaved"), ("rope", "half"), ("alibi", "interleaved"), ("t5", "interleaved"))
SUMMARY_COLS = (("mask", None), ("arange", None), ("token_ids", None), ("zeros", None), ("modulo", None)) + \
    tuple(("mask", b) for b in BUGS)


def applies(method, bug):
    """Is `bug` meaningful for `method`? (RoPE-only bugs need RoPE.)"""
    return bug is None or bug not in ROPE_ONLY_BUGS or method == "rope"


def _max_error(output, flat, alone, bounds):
    """max over sentences r of max over their real tokens t and channels c of |O[r,t,c] - O_alone_r[t,c]|:
    compare's per-token errors reduced exactly as summary_matrix reduced them (a max rounds nothing;
    a sentence holding NaN counts as NaN, and Python's max over the sentences)."""
    per_token = (output.reshape(-1, output.shape[-1])[flat] - alone).abs().amax(dim=-1).tolist()  # [T]
    rows = []
    for a, b in zip(bounds, bounds[1:]):
        vals = per_token[a:b]
        rows.append(math.nan if any(v != v for v in vals) else max(vals))
    return max(rows)


@_one_thread
def summary_matrix(sentence_a, sentence_b, *, padding_side="left", num_heads=2, head_dim=16, causal=False,
                   max_length=16, lowp_dtype="bfloat16", lowp_offset=4096, seed=0, names=SENTENCE_NAMES,
                   cols=SUMMARY_COLS):
    r"""err[method, setup] = max over real tokens of |O_setup - O_alone| -> numpy [7, len(cols)].

    Formula:
        \text{cell}(\text{method},\text{setup})=\max_{r,t,c}\big|O^{\text{setup}}_{r,t,c}-O^{\text{alone}}_{r,t,c}\big|

    Each cell is `compare` of its setup (cols: (scheme, bug) pairs of SUMMARY_COLS, all by
    default). The references (each sentence alone) do not depend on the setup and run once per
    method; the setups of one method share every intermediate they have in common
    (posviz.lab._toy_fast): the numbers of `compare`, bit for bit (tests/lab/test_toy_model.py checks
    them cell by cell).
    NaN marks "not applicable" (a RoPE-only bug on another method); a position beyond the
    learned table gives NaN with status "out_of_range". Returns (err, status) where status
    is a nested list of "ok" / "na" / "out_of_range".
    """
    cols = tuple(cols)
    for col in cols:
        check_choice("cols", col, SUMMARY_COLS)
    batch = encode_pair(sentence_a, sentence_b, padding_side, names)
    err = np.full((len(SUMMARY_ROWS), len(cols)), np.nan)
    status = [["na"] * len(cols) for _ in SUMMARY_ROWS]
    real = _real_tokens(batch)
    draws = inputs = None
    common = {}
    for i, (method, layout) in enumerate(SUMMARY_ROWS):
        if not any(applies(method, bug) for _, bug in cols):
            continue
        if draws is None:   # the random draws of every row's model are the same: drawn once
            draws = _seeded_draws(num_heads, head_dim, max_length, seed)
        model = _structured(method, layout, draws)                       # = build_model(method, ...)
        if inputs is None:   # checked once, as forward checks them (the table size is the same for every row)
            inputs = _summary_inputs(model, batch, cols, lowp_dtype, lowp_offset)
        err[i], status[i] = _summary_row(model, cols, inputs, real, causal=causal, lowp_dtype=lowp_dtype,
                                         common=common)
    return err, status


def _real_tokens(batch):
    """The real tokens of the batch, for summary_matrix: (flat [T], the rows of output.reshape(N*L, D)
    that are real tokens; bounds, sentence r being flat[bounds[r]:bounds[r+1]]; singles, each sentence
    alone as run_single hands it to forward (ids, mask, positions [1,n] x3) with its own shared dict)."""
    reals = [real_positions(m) for m in batch.attention_mask]             # [n_r] per sentence
    length = batch.token_ids.shape[1]
    flat = torch.cat([r * length + real for r, real in enumerate(reals)])  # [T] rows of output.reshape(N*L, D)
    bounds = np.cumsum([0] + [len(real) for real in reals]).tolist()      # sentence r is flat[bounds[r]:bounds[r+1]]
    singles = []
    for r, real in enumerate(reals):
        ids = batch.token_ids[r, real][None]                              # [1,n]
        singles.append(((ids, torch.ones_like(ids), torch.arange(ids.shape[1])[None]), {}))  # [1,n] x3
    return flat, bounds, singles


def _summary_inputs(model, batch, cols, lowp_dtype, lowp_offset):
    """What every cell of summary_matrix runs on, checked as forward checks it: (token_ids, mask,
    {scheme: position ids [N,L]}, lowp_offset)."""
    check_choice("lowp_dtype", lowp_dtype, tuple(LOWP_DTYPES))
    lowp_offset = check_int("lowp_offset", lowp_offset, 0, MAX_LOWP_OFFSET)
    positions = {}
    for scheme in dict.fromkeys(scheme for scheme, _ in cols):
        pos = make_position_ids(scheme, batch.attention_mask, batch.token_ids,
                                table_size=model.max_length)              # [N,L]
        token_ids, mask, pos = _check_inputs(model, batch.token_ids, batch.attention_mask, pos)
        positions[scheme] = pos.long()                                    # [N,L]
    return token_ids, mask, positions, lowp_offset


def _summary_row(model, cols, inputs, real, *, causal, lowp_dtype, common):
    """One method's row of summary_matrix -> (errors, statuses), one per column."""
    token_ids, mask, positions, lowp_offset = inputs
    flat, bounds, singles = real
    run = functools.partial(_toy_fast.memo_forward, model, causal=causal, lowp_dtype=lowp_dtype,
                            lowp_offset=lowp_offset)
    try:   # the references (run_single), both sentences' real tokens in one [T,D] (T = n_A + n_B)
        alone = torch.cat([run(*single, bugs=(), memo={}, common=shared)[0] for single, shared in singles])  # [T,D]
    except PositionOutOfRangeError:   # a sentence alone is already longer than the learned table
        alone = None
    errs, status, memo = [math.nan] * len(cols), ["ok"] * len(cols), {}
    for j, (scheme, bug) in enumerate(cols):
        if not applies(model.method, bug):
            status[j] = "na"
            continue
        if alone is None:
            status[j] = "out_of_range"
            continue
        try:
            out = run(token_ids, mask, positions[scheme], bugs=() if bug is None else (bug,), memo=memo,
                      common=common)                                      # [N,L,D]
        except PositionOutOfRangeError:
            status[j] = "out_of_range"
            continue
        errs[j] = _max_error(out, flat, alone, bounds)
    return errs, status


@_one_thread
def lowp_float32_error(sentence_a, sentence_b, *, padding_side="left", rope_layout="interleaved",
                       num_heads=2, head_dim=16, causal=False, lowp_offset=4096, seed=0, names=SENTENCE_NAMES):
    r"""The honest control of the low-precision bug: the same offset with float32 angles.

    Formula:
        \max_{r,t,c}\big|O_{r,t,c}(p+o)-O_{r,t,c}(p)\big|\quad\text{(float32 angles: only rounding remains)}

    RoPE is shift invariant, so only rounding remains: max |O(p + offset) - O(p)| over real tokens.
    """
    batch = encode_pair(sentence_a, sentence_b, padding_side, names)
    model = build_model("rope", num_heads=num_heads, head_dim=head_dim, rope_layout=rope_layout, seed=seed)
    offset = check_int("lowp_offset", lowp_offset, 0, MAX_LOWP_OFFSET)
    pos = make_position_ids("mask", batch.attention_mask) + offset       # [N,L]
    got = forward(model, batch.token_ids, batch.attention_mask, pos, causal=causal)
    worst = 0.0
    for r in range(batch.token_ids.shape[0]):
        real = real_positions(batch.attention_mask[r])                   # [n]
        ref = run_single(model, batch.token_ids[r, real], causal=causal)
        worst = max(worst, float((got.output[r, real] - ref.output[0]).abs().max()))
    return worst


# ---------------------------------------------------------------- permutation equivariance
def permutation_between(tokens_a, tokens_b, names=SENTENCE_NAMES):
    """perm with tokens_b[i] = tokens_a[perm[i]] (B = P A), or a PosvizError if B is not a reordering of A."""
    if sorted(tokens_a) != sorted(tokens_b):
        raise PosvizError("lab.permutation", name=names[1], other=names[0])
    used, perm = set(), []
    for tok in tokens_b:
        i = next(i for i, t in enumerate(tokens_a) if t == tok and i not in used)
        used.add(i)
        perm.append(i)
    return perm


@_one_thread
def equivariance(sentence_a, sentence_b, *, method="nope", causal=False, num_heads=2, head_dim=16, seed=0,
                 names=SENTENCE_NAMES):
    r"""Attn(PX) vs P Attn(X) for X = sentence_a, PX = sentence_b.

    Without position and mask: Attn(PX) = P Attn(X) exactly (up to float rounding).
    Returns dict(tokens_a, tokens_b, out_b = Attn(PX) [L,D], p_out_a = P Attn(X) [L,D],
    diff [L,D], max_diff, attn_a, attn_b [H,L,L] (head-averaged views use [L,L])).
    """
    batch = encode_pair(sentence_a, sentence_b, "right", names)
    ta, tb = [batch.tokens[r][: batch.lengths[r]] for r in range(2)]
    perm = permutation_between(ta, tb, names)
    model = build_model(method, num_heads=num_heads, head_dim=head_dim, max_length=MAX_TOKENS, seed=seed)
    ra = run_single(model, batch.token_ids[0, : len(ta)], causal=causal)
    rb = run_single(model, batch.token_ids[1, : len(tb)], causal=causal)
    p = torch.tensor(perm)                                                # [L]
    out_b = rb.output[0]                                                  # [L,D] Attn(PX)
    p_out_a = ra.output[0][p]                                             # [L,D] P Attn(X)
    diff = out_b - p_out_a                                                # [L,D]
    attn_a = ra.weights[0].mean(0)                                        # [L,L] head average
    attn_b = rb.weights[0].mean(0)                                        # [L,L]
    p_attn_a = attn_a[p][:, p]                                            # [L,L] P A P^T
    return dict(tokens_a=ta, tokens_b=tb, perm=perm, out_b=out_b.numpy(), p_out_a=p_out_a.numpy(),
                diff=diff.numpy(), max_diff=float(diff.abs().max()), attn_b=attn_b.numpy(),
                p_attn_a=p_attn_a.numpy())


@_one_thread
def equivariance_table(sentence_a, sentence_b, *, num_heads=2, head_dim=16, seed=0, names=SENTENCE_NAMES):
    """max |Attn(PX) - P Attn(X)| for every method, without and with the causal mask -> numpy [M,2]."""
    out = np.zeros((len(POSITION_METHODS), 2))
    for i, method in enumerate(POSITION_METHODS):
        for j, causal in enumerate((False, True)):
            out[i, j] = equivariance(sentence_a, sentence_b, method=method, causal=causal,
                                     num_heads=num_heads, head_dim=head_dim, seed=seed, names=names)["max_diff"]
    return out
