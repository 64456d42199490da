"""Views of the relative-position page: plain arguments in, numpy arrays / numbers / dicts out (cached).

Every matrix is [L, S]: query rows i (right-aligned: the last L of the S key positions), key columns j.
"""
import math

import numpy as np
import torch

from posviz.lab import tokens
from posviz.pe import cope, deberta, fire, transformer_xl, xpos
from posviz.pe import relative as rel
from posviz.views import cached

SLOPE_DIGITS = 3      # significant digits of the ALiBi slopes the page and its narration print


@cached
def positions(query_length, key_length, shift):
    """The distance matrix i - j and the (shifted) absolute positions of its rows and columns -> dict."""
    i, j = rel.shifted_positions(query_length, key_length, shift=shift)     # [L], [S]
    d = rel.distance_from_positions(i, j)                                   # [L,S]
    span = max(int(d.abs().max()), 1)
    return {"distance": d.numpy(), "query_pos": i.numpy(), "key_pos": j.numpy(),
            "zrange": (-span, span),                 # the one colour range of every distance-like panel
            "naive_last": query_length - 1}          # the last row of a matrix built with queries at 0..L-1


@cached
def shaw(query_length, key_length, k):
    """Shaw's table row per pair (0..2k), the distance clipping loses (0..lost_max), the clipped distance
    and the counts of shaw_summary."""
    kw = dict(max_distance=k)
    lost = rel.shaw_lost_distance(query_length, key_length, **kw)           # [L,S]
    summary = rel.shaw_summary(query_length, key_length, **kw)
    return {"index": rel.shaw_relative_index(query_length, key_length, **kw).numpy(), "index_max": max(2 * k, 1),
            "lost": lost.numpy(), "lost_max": max(int(lost.max()), 1),
            "clipped": rel.shaw_clipped_distance(query_length, key_length, **kw).numpy(),
            "summary": summary, "clipped_text": f"{summary['clipped']} / {summary['pairs']}"}


def _span(row):
    """A bucket's distances as text: "8 … 11", "91 … ∞", "−∞ … −91", "3"; None for an empty bucket."""
    if row["count"] == 0:
        return None
    lo = "−∞" if row["lo"] is None else str(row["lo"]).replace("-", "−")
    hi = "∞" if row["hi"] is None else str(row["hi"]).replace("-", "−")
    return lo if lo == hi else f"{lo} … {hi}"


@cached
def t5(query_length, key_length, bidirectional, num_buckets, max_distance):
    """T5's bucket of every pair, the step curve bucket(d), the table of which distances share a bucket
    (span None = empty, count "∞" = unbounded), the exact range, where the last bucket starts, how
    many buckets are empty, and the distance each bucket can still tell apart."""
    kw = dict(bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    d, b = rel.t5_bucket_curve(**kw)                                          # [2E+1] x2
    ranges = rel.t5_bucket_ranges(**kw)
    past = [r for r in ranges if r["side"] == "past"]
    rows = [{"bucket": r["bucket"], "span": _span(r), "count": "∞" if r["count"] is None else str(r["count"]),
             "region": r["region"], "side": r["side"]} for r in ranges]
    return {"buckets": rel.t5_bucket_matrix(query_length, key_length, **kw).numpy(),
            "curve_d": d.numpy(), "curve_b": b.numpy(), "rows": rows,
            "max_exact": rel.t5_max_exact(bidirectional=bidirectional, num_buckets=num_buckets), "top": num_buckets - 1,
            "last_start": past[-1]["lo"] if past[-1]["lo"] is not None else 0,
            "empty": sum(r["count"] == 0 for r in ranges),
            "representative": rel.t5_representative_distance(query_length, key_length, **kw).numpy()}


def slope_text(m):
    """A slope as the page and its narration print it (3 significant digits: 0.707, 0.0884, 0.00391)."""
    return f"{m:.{SLOPE_DIGITS}g}"


@cached
def alibi_order(num_heads):
    """Which ALiBi head is steepest and which flattest, from alibi_slopes: with H not a power of two
    the interleaved slopes break the order by head index (H = 12: head 9 is the steepest).

    Returns {"H", "slopes" [H] float64, "n_base", "sorted" (slopes fall with h), "steep", "flat" (1-based
    heads), "m_steep", "m_flat" (printed slopes), "steeper" [H]: how many heads are steeper than each}."""
    m = rel.alibi_slopes(num_heads).double().numpy()                         # [H]
    steeper = (m[None, :] > m[:, None]).sum(axis=1)                         # [H]
    steep, flat = int(np.argmax(m)) + 1, int(np.argmin(m)) + 1
    return {"H": int(num_heads), "slopes": m, "n_base": rel.alibi_base_heads(num_heads),
            "sorted": bool(np.all(np.diff(m) < 0)), "steep": steep, "flat": flat,
            "m_steep": slope_text(m[steep - 1]), "m_flat": slope_text(m[flat - 1]), "steeper": steeper.tolist()}


@cached
def alibi(num_heads, head, query_length, key_length):
    """The slopes of every head and the bias of one head (1-based; a head beyond H is clamped to H):
    {"slopes" [H], "n_base", "n_fill" (= 2 n_base), "head", "slope" (printed), "steeper", "bias" [L,S],
    "bias_range" (its symmetric colour range), "order" (alibi_order)}."""
    order = alibi_order(num_heads)
    h = min(int(head), order["H"])
    bias = rel.alibi_head_bias(num_heads, h, query_length, key_length)     # [L,S]
    span = float(bias.abs().max()) or 1.0
    return {"slopes": order["slopes"].astype(np.float32), "n_base": order["n_base"], "n_fill": 2 * order["n_base"],
            "head": h, "slope": slope_text(order["slopes"][h - 1]), "steeper": order["steeper"][h - 1],
            "order": order, "bias": bias.numpy(), "bias_range": (-span, span)}


@cached
def mask(query_length, key_length):
    """The causal mask (1 = edge exists) and, with no position signal and equal contents, the weight
    1/(i+1) each query row puts on every visible key -> {"mask" [L,S] float32, "weight" [L]}."""
    uniform = rel.nope_uniform_attention(query_length, key_length).numpy()   # [L,S]
    return {"mask": rel.causal_mask(query_length, key_length).numpy().astype(np.float32),
            "weight": uniform[:, 0]}


# ---------------------------------------------------------------- the rest of the family (issue 37)
XL_MODEL_DIM, XL_HEAD_DIM = 32, 16      # the toy Transformer-XL layer: one head of 16 over contents of width 32
XL_TERMS = transformer_xl.TERMS
DEBERTA_MODEL_DIM, DEBERTA_HEADS = 32, 2
DEBERTA_BUCKETS = (4, 8, 16, 32, 64, 128, 256)
DEBERTA_MAX_POSITIONS = (16, 32, 64, 128, 256, 512)
FIRE_MULTIPLES = (1, 2, 4, 8)
FIRE_SERIES = ("alibi", "t5", "kerple", "fire")
FIRE_NAMES = tuple(f"name.{k}" for k in (*FIRE_SERIES, "fire_train"))   # the figure's label names
XPOS_HEAD_DIM = 64
XPOS_BASES = (64, 128, 256, 512, 1024, 2048, 4096)
XPOS_RANGES = (256, 512, 1024, 2048, 4096, 8192)
XPOS_SERIES = ("rope", "xpos", "envelope")
XPOS_NAMES = tuple(f"name.{k}" for k in XPOS_SERIES)
COPE_COUNTS = cope.COUNT
COPE_MAX_CHARS = 200
COPE_MAX_WORD = 30
COPE_MAX_SHARPNESS = 20.0


def signed(x, digits=2):
    """A number as the page prints it: fixed digits, a real minus sign, no "−0.00"."""
    text = f"{x:.{digits}f}"
    return ("0." + "0" * digits if float(text) == 0 else text).replace("-", "−")


def _masked(z, keep):
    """float32 copy of z with NaN where keep is False (plotly leaves those cells blank)."""
    return np.where(keep, z, np.nan).astype(np.float32)


def _z(*arrays):
    """One symmetric colour range for compared panels, NaN ignored -> {"zmin", "zmax"} (a figure's keywords)."""
    m = max(float(np.nanmax(np.abs(a))) if np.isfinite(a).any() else 0.0 for a in arrays)
    m = m if m > 0 else 1.0
    return {"zmin": -m, "zmax": m}


@cached
def transformer_xl_view(segment_length, memory_length, keep):
    """Transformer-XL on toy weights (one head of XL_HEAD_DIM): the score of the kept terms on the causal cells,
    the relative shift's matrix before and after, and what the page states.

    {"keep", "score" [L,S] (NaN above the diagonal), "score_z", "raw" [L,S] (column c: distance S-1-c),
    "shifted" [L,S] (column j: key j; above the diagonal the pad and the next row's numbers), "shift_z",
    "query_pos", "key_pos", "said": {L, S, d, err (largest |shifted - (b)+(d)| on the causal cells), and
    rel_shift_costs' counts}}."""
    keep = tuple(t for t in XL_TERMS if t in keep)
    s = segment_length + memory_length
    w = transformer_xl.xl_random_weights(XL_MODEL_DIM, 1, XL_HEAD_DIM, s, seed=0)
    terms = transformer_xl.xl_terms(w["h"], memory_length=memory_length, w_q=w["w_q"], w_ke=w["w_ke"],
                                    w_kr=w["w_kr"], u=w["u"], v=w["v"])
    past = transformer_xl.xl_distances(segment_length, memory_length).numpy() >= 0    # [L,S]
    fast = transformer_xl.xl_position_scores(w["h"], memory_length=memory_length, w_q=w["w_q"], w_kr=w["w_kr"],
                                             v=w["v"])
    bd = (terms["cp"] + terms["gp"])[0].numpy()                                      # [L,S]
    raw, shifted = fast["raw"][0].numpy(), fast["shifted"][0].numpy()               # [L,S] x2
    score = _masked(transformer_xl.xl_score(terms, keep, head_dim=XL_HEAD_DIM)[0].numpy(), past)  # [L,S]
    costs = transformer_xl.rel_shift_costs(segment_length, memory_length, XL_HEAD_DIM)
    return {"keep": keep, "score": score, "score_z": _z(score),
            "raw": raw.astype(np.float32), "shifted": shifted.astype(np.float32), "shift_z": _z(raw, shifted),
            "query_pos": np.arange(memory_length, s), "key_pos": np.arange(s),
            "said": {"L": segment_length, "S": s, "d": XL_HEAD_DIM, "err": float(np.abs(shifted - bd)[past].max()),
                     **costs}}


@cached
def deberta_view(length, buckets, max_position):
    """DeBERTa-v3's disentangled attention on toy weights (head 0): the row of P every distance reads, the three
    terms [L,L] on one colour range, and what the page states about the buckets.

    {"curve_d", "curve_row": clip(bucket(d) + k, 0, 2k-1) for d in ±1.25 max_position, "step" (the step figure's
    keywords: the exact region |d| <= k/2, the dashed max_position), "terms": {term: [L,L]}, "z", "pos",
    "said": {L, k, top (max_position), exact (= k/2), used (distinct rows in the matrix), distinct (2L - 1),
    rows (2k)}}."""
    w = deberta.deberta_random_weights(DEBERTA_MODEL_DIM, DEBERTA_HEADS, length, bucket_size=buckets, seed=0)
    terms = deberta.deberta_terms(w["h"], w["rel_embeddings"], w["weights"], heads=DEBERTA_HEADS,
                                  bucket_size=buckets, max_position=max_position)
    idx = deberta.deberta_relative_index(length, bucket_size=buckets, max_position=max_position)
    extent = int(1.25 * max_position)
    d = torch.arange(-extent, extent + 1)                                             # [2E+1]
    row = (deberta.deberta_log_bucket(d, bucket_size=buckets, max_position=max_position) + buckets).clamp(
        0, 2 * buckets - 1)                                                          # [2E+1]
    out = {t: terms[t][0].numpy().astype(np.float32) for t in deberta.TERMS}
    return {"curve_d": d.numpy(), "curve_row": row.numpy(), "terms": out, "z": _z(*out.values()),
            "step": {"max_exact": buckets // 2 + 1, "max_distance": max_position, "bidirectional": True},
            "pos": np.arange(length),
            "said": {"L": length, "k": buckets, "top": max_position, "exact": buckets // 2, "rows": 2 * buckets,
                     "used": int(idx["index"].unique().numel()), "distinct": 2 * length - 1}}


def alibi_head(al):
    """(heads, head) of the ALiBi section's result (its head clamped to H), (8, 1) when it was refused."""
    return (al["order"]["H"], al["head"]) if al else (8, 1)


@cached
def fire_view(train_length, multiple, num_heads, head):
    """FIRE, KERPLE-log and T5's table fitted to ALiBi head h's bias at the training length, then each scheme's
    bias for one query at `multiple` times the training length.

    {"distance" [i+1], "curves": {"alibi", "t5", "kerple", "fire"} [i+1], "marks" (the figure's training length
    and FIRE's curve of the last training query), "said": {i (the query), h, n, m (the slope, printed), r1, r2,
    alibi_far, t5_far, kerple_far, fire_far (each scheme's bias at the query's farthest key), fire_n (FIRE's
    bias at distance n - 1 for this query), fire_n0 (and for the last training query)}}."""
    slope = float(rel.alibi_slopes(num_heads)[min(head, num_heads) - 1])
    target = -slope * torch.arange(train_length, dtype=torch.float64)                 # [N]
    fit = fire.fit_to_bias(target)
    i = multiple * train_length - 1
    b = fire.biases_at(i, fit, alibi_slope=slope)
    train = fire.biases_at(train_length - 1, fit, alibi_slope=slope)
    curves = {k: b[k].numpy().astype(np.float32) for k in FIRE_SERIES}
    far = {f"{k}_far": signed(float(b[k][-1])) for k in FIRE_SERIES}
    return {"distance": b["distance"].numpy(), "curves": curves,
            "marks": {"train_length": train_length, "train_curve": train["fire"].numpy().astype(np.float32)},
            "said": {"i": i, "h": min(head, num_heads), "n": train_length, "m": slope_text(slope),
                     "r1": f"{fit['kerple'][0]:.4g}", "r2": f"{fit['kerple'][1]:.3g}", **far,
                     "fire_n": signed(float(b["fire"][train_length - 1])), "fire_n0": signed(float(train["fire"][-1]))}}


@cached
def xpos_view(scale_base, max_distance):
    """Plain RoPE's and xPos's score of q = k = ones (head width XPOS_HEAD_DIM) against the distance, and xPos's
    envelope: {"r", "curves": {"rope", "xpos", "envelope"}, "say": the narration's text key, relative.xpos.half (the
    envelope halves within the range) or .nohalf, "said": {B (the scale base), half (the first r where it is <= 1/2,
    or None), end (the envelope at the range's end), r_max, z0, z1 (the zeta of pair 0, the fastest to decay, and
    of the last pair, the slowest)}}."""
    r = torch.arange(max_distance + 1)                                                # [R+1]
    c = xpos.xpos_ones_curve(XPOS_HEAD_DIM, r, scale_base=scale_base)
    env = c["envelope"].numpy()
    half = np.nonzero(env <= 0.5)[0]
    zeta = xpos.xpos_zeta(XPOS_HEAD_DIM).numpy()
    return {"r": r.numpy(), "curves": {k: c[k].numpy().astype(np.float32) for k in XPOS_SERIES},
            "say": "relative.xpos.half" if half.size else "relative.xpos.nohalf",
            "said": {"B": scale_base, "half": int(half[0]) if half.size else None, "end": round(float(env[-1]), 3),
                     "r_max": max_distance, "z0": round(float(zeta[0]), 4), "z1": round(float(zeta[-1]), 4)}}


@cached
def cope_view(sentence, count, word, sharpness, *, name="sentence"):
    """CoPE's positions on a typed sentence for a head that counts `count`: {"tokens", "positions" [L,L] (NaN
    above the diagonal), "top", "say": the narration's text key, relative.cope.said, or relative.cope.no_word
    (counting a word that is no token of the sentence),
    "said": {L, n (tokens counted), first (the first token's position seen from the last token), last (the last
    token's own), gate_on, gate_off (sigmoid(±sharpness))}}. `name`: the sentence's name in an error message
    (the page's label of its box, in the user's language)."""
    toks = tokens.tokenize(sentence, name=name)
    counted = cope.counted_tokens(toks, count, word)
    z = cope.count_gate_logits(counted, sharpness=sharpness)                        # [L,L]
    p = cope.cope_positions(z).numpy()                                               # [L,L]
    n = len(toks)
    past = np.arange(n)[None, :] <= np.arange(n)[:, None]                             # [L,L]
    return {"tokens": toks, "positions": _masked(p, past), "top": float(p.max()),
            "say": "relative.cope.no_word" if count == "word" and not any(counted) else "relative.cope.said",
            "said": {"L": n, "n": int(sum(counted)), "first": round(float(p[-1, 0]), 2),
                     "last": round(float(p[-1, -1]), 2), "gate_on": round(1 / (1 + math.exp(-sharpness)), 4),
                     "gate_off": round(1 / (1 + math.exp(sharpness)), 4)}}
