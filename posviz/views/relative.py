"""Views of the relative-position page: plain arguments in, numpy arrays / numbers / dicts out (cached).

Every matrix is [L, S]: query rows i (right-aligned: the last L of the S key positions), key columns j.
"""
import numpy as np

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
