"""View of the RoPE + KV cache page (app_pages/kv_cache.py): the full causal forward against prefill +
decode in every mode, the positions the last decode step used, and the cache table.

Plain arguments in, plain numbers / lists / dicts out.
"""
import math

from posviz.lab import kv_cache
from posviz.pe import rope
from posviz.views import cached

MODES = kv_cache.MODES
DTYPES = tuple(kv_cache.DTYPES)
ROPE_LAYOUTS = rope.ROPE_LAYOUTS
HEADS = (1, 2, 4)
HEAD_DIMS = (8, 16, 32, 64, 128)
MAX_LENGTH = 96            # slider range of L and P on the page
TRACE_STEPS, TRACE_KEYS = 12, 16


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
    res["last"] = None if prefill_length >= length else {m: read_positions_at(res, m) for m in MODES}
    res["tables"] = {m: _table(res["traces"][m]) for m in MODES}
    del res["traces"]
    return res


def trace_table(trace, *, max_steps=TRACE_STEPS, max_keys=TRACE_KEYS, angle_unit=1.0):
    """A decode trace -> rows for a table: one row per step, one column per cached key slot.

    Each cell is "p · θ₀p" with θ₀ = base^0 = 1 rad per position (pair 0, the fastest hand)
    and the angle wrapped to [0, 2π). Keys beyond max_keys and steps beyond max_steps are cut
    (the page says so). Returns (columns, rows) of strings.
    """
    steps = trace[:max_steps]
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
    return columns, rows


def _table(trace):
    """trace_table as {column: [cells]}, each cell on one line (no-break spaces: on a phone the table
    scrolls sideways instead of breaking "4 · 4.00" in two)."""
    cols, rows = trace_table(trace)
    return {c: [r[i].replace(" ", "\u00a0") for r in rows] for i, c in enumerate(cols)}


def cache_table(length, prefill_length, mode, *, heads=2, head_dim=16, dtype="float32", layout="interleaved"):
    """The cache table of one mode as {column: [cells]} (first TRACE_STEPS steps, TRACE_KEYS keys)."""
    res = decoding(length, prefill_length, heads=heads, head_dim=head_dim, dtype=dtype, layout=layout)
    return res["tables"][mode]
