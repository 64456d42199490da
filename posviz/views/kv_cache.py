"""View of the RoPE + KV cache page (app_pages/kv_cache.py): the full causal forward against prefill +
decode in every mode, the positions the last decode step used, and the cache table; a streaming cache
(attention sinks + a window) under both position contracts; gpt-oss's learned sink logits.

Plain arguments in, plain numbers / lists / dicts out.
"""
import math

import numpy as np

from posviz.lab import eviction, kv_cache, speculative, streaming
from posviz.pe import rope
from posviz.views import cached

MODES = kv_cache.MODES
DTYPES = tuple(kv_cache.DTYPES)
ROPE_LAYOUTS = rope.ROPE_LAYOUTS
HEADS = (1, 2, 4)
HEAD_DIMS = (8, 16, 32, 64, 128)
MAX_LENGTH = 96            # slider range of L and P on the page
# The cache table: the first TRACE_HEAD and the last TRACE_TAIL decode steps (TRACE_STEPS rows), the first
# TRACE_KEYS cached keys: seven columns fit the page's column in lecture mode, beside the scene's panel
# (tests/browser/test_kv_cache_layout.py)
TRACE_HEAD, TRACE_TAIL, TRACE_KEYS = 6, 3, 5
TRACE_STEPS = TRACE_HEAD + TRACE_TAIL
STREAM_MODES = streaming.STREAM_MODES
STREAM_MAX_LENGTH = 192    # slider range of the streaming section's length
SINK_MODES = streaming.SINK_MODES[1:]   # the wrong ones, each against "correct"


def read_positions_at(result, mode, step=-1):
    """Positions the query and each cached key were rotated by at one decode step of a
    compare_modes result -> (query_position, [key positions]) or None if nothing is decoded."""
    tr = result["traces"][mode]
    if not tr:
        return None
    s = tr[step]
    return s["query_position"], s["read_positions"]


@cached
def decoding(length, prefill_length, *, heads=2, head_dim=16, dtype="float32", layout="interleaved"):
    """kv_cache.compare_modes for every mode, plus what the page states: `wrong_min` (the smallest
    max error of the wrong modes), `last` ({mode: (query position, key positions)} of the last
    decode step, or None when P = L) and `tables` ({mode: the cache table of `cache_table`}). The
    decode traces themselves stay out (at L = 96 they are thousands of numbers the page never
    draws, copied out of the cache on every rerun)."""
    res = kv_cache.compare_modes(length, prefill_length, heads=heads, head_dim=head_dim, dtype=dtype,
                                 layout=layout, modes=MODES)
    res["wrong_min"] = min(res["max_decoded"][m] for m in MODES if m != "correct")
    res["tol_note"] = tolerance_note(dtype, res["max_decoded"]["correct"])
    res["last"] = None if prefill_length >= length else {m: read_positions_at(res, m) for m in MODES}
    res["tables"] = {m: _table(res["traces"][m]) for m in MODES}
    del res["traces"]
    return res


def tolerance_note(dtype, correct_max):
    """Which sentence states the correct decode's distance from the full forward: "lowp" (a low-precision
    dtype: the full forward in that dtype differs from float32's, the grey line), "f32" (float32: the
    full forward is the reference itself and the decode differs by rounding) or "f32_exact" (equal)."""
    if dtype != "float32":
        return "lowp"
    return "f32_exact" if correct_max == 0 else "f32"


def table_steps(trace, head=TRACE_HEAD, tail=TRACE_TAIL):
    """The steps the cache table shows: all of them, or the first `head` and the last `tail` (so that
    the table ends where the decode ends) -> (steps, index of the first step after the cut or None)."""
    if len(trace) <= head + tail:
        return list(trace), None
    return list(trace[:head]) + list(trace[-tail:]), head


def trace_table(trace, *, max_keys=TRACE_KEYS, angle_unit=1.0):
    """A decode trace -> rows for a table: one row per step, one column per cached key slot.

    Each cell is "p · θ₀p" with θ₀ = base^0 = 1 rad per position (pair 0, the fastest hand)
    and the angle wrapped to [0, 2π). The steps are `table_steps`' (the first ones and the last
    ones; the first row after the cut reads "… t"); keys beyond max_keys are cut (the page says
    so). Returns (columns, rows) of strings.
    """
    steps, cut = table_steps(trace)
    width = min(max(len(s["read_positions"]) for s in steps), max_keys) if steps else 0
    columns = ["t", "q"] + [f"k{j}" for j in range(width)]
    rows = []
    for s in steps:
        cells = []
        for j in range(width):
            if j < len(s["read_positions"]):
                p_stored, p_read = s["stored_positions"][j], s["read_positions"][j]
                cell = f"{p_read:g} · {math.fmod(p_read * angle_unit, 2 * math.pi):.2f}"
                if p_stored != p_read:
                    cell = f"({p_stored:g}→) {cell}"
                cells.append(cell)
            else:
                cells.append("")
        rows.append([str(s["token"]), f"{s['query_position']:g}"] + cells)
    if cut is not None:
        rows[cut][0] = f"… {rows[cut][0]}"
    return columns, rows


def _table(trace):
    """trace_table as {column: [cells]}, each cell on one line (no-break spaces: on a phone the table
    scrolls sideways instead of breaking "4 · 4.00" in two)."""
    cols, rows = trace_table(trace)
    return {c: [r[i].replace(" ", "\u00a0") for r in rows] for i, c in enumerate(cols)}


def cache_table(length, prefill_length, mode, *, heads=2, head_dim=16, dtype="float32", layout="interleaved"):
    """The cache table of one mode as {column: [cells]} (TRACE_STEPS steps, TRACE_KEYS keys)."""
    res = decoding(length, prefill_length, heads=heads, head_dim=head_dim, dtype=dtype, layout=layout)
    return res["tables"][mode]


# ---------------------------------------------------------------- attention sinks and a streaming cache
@cached
def stream(length, sinks, window, *, heads=2, head_dim=16, dtype="float32", layout="interleaved"):
    """streaming.compare_streaming for every mode, plus what the page states: `cache` (S + W),
    `max_offset` ({contract: the largest offset the last query sees}), `wrong` (the stale mode's
    largest error) and `score_range` ({contract: (min, max) of the sink score after the cache is full},
    None without sinks or eviction)."""
    res = streaming.compare_streaming(length, sinks, window, heads=heads, head_dim=head_dim, dtype=dtype,
                                      layout=layout, modes=STREAM_MODES)
    res["cache"] = sinks + window
    res["max_offset"] = dict(res["offsets"])
    res["wrong"] = res["max_error"]["stale"]
    res["right_max"] = max(res["max_error"][m] for m in STREAM_MODES if m != "stale")
    full = res["first_evict"]
    res["score_range"] = None if res["scores"] is None or full is None else {
        c: (min(v[full - 1:]), max(v[full - 1:])) for c, v in res["scores"].items()}
    return res


@cached
def sinks(length, sink_logit, *, heads=2, head_dim=16, dtype="float32", layout="interleaved"):
    """streaming.compare_sinks, plus what the page states: `first` (each head's sink mass at position 0,
    where one key competes with the sink) and `last` (at the last position)."""
    res = streaming.compare_sinks(length, sink_logit, heads=heads, head_dim=head_dim, dtype=dtype, layout=layout)
    res["first"] = [h[0] for h in res["sink"]]
    res["last"] = [h[-1] for h in res["sink"]]
    return res


@cached
def argmax(length, prefill_length, seed=0, *, heads=2, head_dim=16, layout="interleaved"):
    """kv_cache.argmax_check of every mode (float32): the next-token argmax of the decode against the full
    forward's per decoded step, beside the step's largest output error."""
    return kv_cache.argmax_check(length, prefill_length, heads=heads, head_dim=head_dim, seed=seed, layout=layout)


# ---------------------------------------------------------------- evicted caches and draft trees (issue 37)
EVICT_MODES = eviction.EVICT_MODES
EVICT_POLICIES = eviction.POLICIES
EVICT_MAX_PROMPT = 96
EVICT_MAX_START, EVICT_MAX_COUNT = EVICT_MAX_PROMPT - 2, EVICT_MAX_PROMPT - 1     # the page's slider ranges
EVICT_STEPS = 16           # decode steps after the eviction
EVICT_LISTED = 8           # evicted tokens the page lists by number
TREE_SHAPES = tuple(speculative.TREE_SHAPES)
TREE_SETUPS = tuple(speculative.SETUPS)
TREE_MAX_PREFIX = 32


def eviction_span(prompt_length, start, count):
    """The page's (start, count) as the span (a, b) of evicted prompt tokens, clamped inside the prompt: the
    prompt's last token is never evicted (the first decoded token reads it as its neighbour)."""
    a = min(int(start), prompt_length - 2)
    return a, min(a + int(count), prompt_length - 1)


@cached
def evicted(prompt_length, start, count, policy, *, heads=2, head_dim=16):
    """eviction.compare_eviction, plus what the page draws and states: `case` (the policy, or "none" when nothing
    is evicted), `last_query` / `last_keys` ({mode: the
    positions of the last decode step}) and `said` {P, n (tokens evicted), a, b (the span asked for), cache (prompt
    tokens left), last (b - 1), which (the evicted tokens, the first EVICT_LISTED), t (the last decoded token),
    keep (max error of "keep" against the full forward), renumber,
    cache_count (their largest error against "keep": what their positions add), q_keep, q_moved (the last
    query's position under "keep" and under the other two)}."""
    a, b = eviction_span(prompt_length, start, count)
    res = eviction.compare_eviction(prompt_length, EVICT_STEPS, (a, b), policy=policy, heads=heads, head_dim=head_dim)
    n = len(res["evicted"])
    res["case"] = policy if n else "none"
    res["last_query"] = {m: res["last"][m]["query"] for m in EVICT_MODES}
    res["last_keys"] = {m: res["last"][m]["keys"] for m in EVICT_MODES}
    shown = ", ".join(str(s) for s in res["evicted"][:EVICT_LISTED]) + (" …" if n > EVICT_LISTED else "")
    res["said"] = {"P": prompt_length, "n": n, "a": a, "last": b - 1, "which": shown or "—", "cache": prompt_length - n,
                   "t": prompt_length + EVICT_STEPS - 1, "keep": res["max_error"]["keep"],
                   "renumber": res["max_position_error"]["renumber"],
                   "cache_count": res["max_position_error"]["cache_count"],
                   "q_keep": int(res["last_query"]["keep"]), "q_moved": int(res["last_query"]["renumber"])}
    return res


@cached
def tree(prefix_length, shape, setup, *, heads=2, head_dim=16):
    """speculative.compare_tree, plus what the page draws and states: `labels` (one per node: "n3·p7", its
    position id in the chosen setup), `key_labels` (the prefix's positions, then the node labels), `shown_mask`
    [N, P+N] (float32) of the chosen setup, `nodes` (0..N-1) and `said` {N, P, depth, wrong_ids, wrong_mask (how
    many nodes each bug gets wrong), first_ids (the first node the consecutive ids get wrong), max_ids,
    max_mask}."""
    res = speculative.compare_tree(prefix_length, shape, heads=heads, head_dim=head_dim)
    scheme, kind = speculative.SETUPS[setup]
    ids = res["position_ids"][scheme]
    labels = [f"n{n}·p{p}" for n, p in enumerate(ids)]
    wrong = res["wrong"]
    res.update(labels=labels, key_labels=[f"p{p}" for p in range(prefix_length)] + labels,
               shown_mask=np.asarray(res["mask"][kind], dtype=np.float32), nodes=list(range(len(ids))),
               said={"N": len(ids), "P": prefix_length, "depth": max(res["depths"]),
                     "wrong_ids": len(wrong["consecutive"]), "wrong_mask": len(wrong["causal"]),
                     "first_ids": wrong["consecutive"][0] if wrong["consecutive"] else "—",
                     "max_ids": res["max_error"]["consecutive"], "max_mask": res["max_error"]["causal"],
                     "max_ok": res["max_error"]["correct"]})
    return res
