"""Views of the sinusoidal & learned page: plain arguments in, numpy arrays / numbers / dicts out.

The page calls a few cached views, one per group of controls (every cache hit costs a fraction of a
millisecond, so the page makes seven calls per rerun, not twenty): `sections` (the texts' reference
tables), `signal` (everything of L, D and base), `column`, `shift`, `learned_shape`, `modulo` and `saved`.
They combine the plain functions below, which compute one thing each (the tests check those).
"""
from posviz.pe import learned as pe_learned
from posviz.pe import sinusoidal as sn
from posviz.views import cached
from posviz.views.overview import markdown_table

ANCHORS = (0, 37, 1000)      # three starting positions m for PE(m)·PE(m+Δ): they share one curve
VOCAB = 1000
BATCH = 3                    # “Same words, different order…” §06: token ids [3, 20] -> hidden [3, 20, 64]
PE0_SHOWN = 8                # entries of PE(0) printed under the fingerprint
PERM_SHOWN_UP_TO = 16        # the permutation is printed in full up to this D, abbreviated beyond
MAX_ALIAS_ROWS = 12          # rows of the modulo bug's alias table
ALIAS_POSITIONS_SHOWN = 8    # positions listed per row


# ---------------------------------------------------------------- the cached views the page calls
@cached
def sections(markdowns):
    """Each section text (a tuple of markdown strings) split into its reference table's columns and the
    rest of the text (views.overview.markdown_table) -> list of dict(columns, text), in order."""
    return [markdown_table.uncached(md) for md in markdowns]


@cached(shared=True)
def signal(length, dim, base):
    """Everything of the page that depends on L, D and base, in one cache entry (shared, not copied: the
    page and the figures only read it) -> dict(table [L, D], concat [L, D], perm (as printed),
    similarity [L, L], curves (offset_curves), wavelengths (fastest, slowest), pe0 (as printed))."""
    return {"table": table(length, dim, base), "concat": table(length, dim, base, "concat"),
            "perm": permutation_text(dim), "similarity": similarity(length, dim, base),
            "curves": offset_curves(length, dim, base), "wavelengths": wavelength_range(dim, base),
            "pe0": position_zero(dim, base)}


@cached
def column(dim, base, position):
    """The column PE(position) of the table (the position may lie beyond L) -> float32 [D]."""
    return table(1, dim, base, offset=position)[0]


BARCODE_GAP = 1          # the two pairs of seats of the barcode picture are this far apart ...
BARCODE_LATER = 40       # ... and the second pair sits this much later


@cached
def barcodes(dim, base, position):
    """“Same words, different order…”'s barcode picture (“Position encodings”: a barcode printed on every seat):
    the rows PE(p), PE(p+1), PE(p+40), PE(p+41) of the table, and the two dot products of each pair of neighbours,
    equal although the seats differ: the relation of two barcodes tells how far apart they are, not where.
    -> dict(rows float32 [4, D], seats [4], dots [2] (PE(a)·PE(a+1) of each pair))."""
    seats = [position, position + BARCODE_GAP, position + BARCODE_LATER, position + BARCODE_LATER + BARCODE_GAP]
    rows = table(1, dim, base, offset=seats[0]).repeat(4, 0)                     # [4,D]
    for i, q in enumerate(seats):
        rows[i] = column(dim, base, q)                                              # [D]
    dots = sn.anchored_dot_by_offset(seats[::2], BARCODE_GAP, dim, base=float(base))[:, BARCODE_GAP]   # [2]
    return {"rows": rows, "seats": seats, "dots": [float(x) for x in dots]}


@cached
def shift(position, delta, dim, base):
    """M(Δ), PE(p), M(Δ)·PE(p), PE(p+Δ), the float32 error and the 2×2 blocks of the fastest and
    slowest pairs -> dict of numpy arrays and numbers."""
    pe_p, rotated, target, err = sn.shift_check(position, delta, dim, base=float(base))
    w = sn.sinusoidal_frequencies(dim, float(base))                  # [D/2]
    last = dim // 2 - 1
    return {"matrix": sn.shift_rotation_matrix(delta, dim, base=float(base)).numpy(),
            "pe_p": pe_p.numpy(), "rotated": rotated.numpy(), "target": target.numpy(), "error": err,
            "blocks": {0: sn.shift_rotation_2x2(delta, float(w[0])).numpy(),
                       last: sn.shift_rotation_2x2(delta, float(w[last])).numpy()}}


@cached
def hand():
    """The ω = π/2 hand table: PE [4, 2], the dot products [4, 4], and its rows as printed."""
    pe, dots = sn.single_frequency_table()
    return {"pe": pe.numpy(), "dots": dots.numpy(), "positions": list(range(len(pe))),
            "rows": [f"[{a:g}, {b:g}]" for a, b in pe.tolist()]}


@cached
def learned_shape(dim, max_length, length):
    """Output shape of LearnedAbsolutePositions on token ids [BATCH, length]; raises
    PositionOutOfRangeError (the boundary) when length > max_length."""
    return list(pe_learned.learned_forward_shape(dim, max_length, length, batch=BATCH, vocab_size=VOCAB))


@cached
def modulo(length, max_length):
    """The modulo bug: the row each position reads, the rows several positions share (`aliases`), the
    first MAX_ALIAS_ROWS of them as printed (`shown`: row, "p1, p2, …"), how many rows are not shown
    (`more`) and how many positions read an earlier position's row (`overrun`)."""
    aliases = pe_learned.aliased_positions(length, max_length)
    shown = [(r, ", ".join(map(str, ps[:ALIAS_POSITIONS_SHOWN])) + (" …" if len(ps) > ALIAS_POSITIONS_SHOWN else ""))
             for r, ps in aliases[:MAX_ALIAS_ROWS]]
    return {"rows": pe_learned.modulo_position_ids(length, max_length).numpy(), "aliases": aliases,
            "shown": shown, "more": max(len(aliases) - MAX_ALIAS_ROWS, 0), "overrun": max(length - max_length, 0)}


@cached
def saved(dim, max_length, base):
    """What each input module stores, as columns: module ("learned" / "sinusoidal"), name, shape,
    kind ("parameter" / "buffer"), saved ("yes" / "no": in state_dict)."""
    rows = pe_learned.state_dict_summary(VOCAB, dim, max_length, base=float(base))
    return {"module": [r[0] for r in rows], "name": [r[1] for r in rows], "shape": [str(list(r[2])) for r in rows],
            "kind": [r[3] for r in rows], "saved": ["yes" if r[4] else "no" for r in rows]}


# ---------------------------------------------------------------- what they combine (plain functions)
def table(length, dim, base, layout="interleaved", offset=0):
    """PE for positions offset .. offset+length-1 -> float32 [L, D]."""
    return sn.sinusoidal_positions(length, dim, base=float(base), layout=layout, offset=offset).numpy()


def wavelength_range(dim, base):
    """(fastest, slowest) wavelength 2π/ω_i in positions."""
    lam = sn.sinusoidal_wavelengths(dim, float(base))                # [D/2]
    return float(lam[0]), float(lam[-1])


def position_zero(dim, base):
    """The first PE0_SHOWN entries of PE(0), as printed ("0, 1, 0, 1, ...")."""
    return ", ".join(f"{v:g}" for v in table(1, dim, base)[0][:PE0_SHOWN])


def similarity(length, dim, base):
    """PE·PEᵀ -> float32 [L, L]."""
    return sn.similarity_matrix(length, dim, base=float(base)).numpy()


def offset_curves(length, dim, base):
    """d(Δ) for Δ = 0..L-1 from the formula and measured from each anchor, its summary numbers, and the
    first rise as printed ("Δ = 5", or None when the curve only falls)."""
    dots = sn.dot_by_offset(length - 1, dim, base=float(base)).numpy()                    # [L]
    anchored = sn.anchored_dot_by_offset(ANCHORS, length - 1, dim, base=float(base)).numpy()  # [A,L]
    summary = sn.offset_curve_summary(length - 1, dim, base=float(base))
    rise = None if summary["first_rise"] is None else f"Δ = {summary['first_rise']}"
    return {"dots": dots, "anchored": anchored, "anchors": ANCHORS, "summary": summary, "rise": rise}


def permutation_text(dim):
    """The permutation from the interleaved to the concat table, as printed (abbreviated beyond
    PERM_SHOWN_UP_TO)."""
    perm = sn.sinusoidal_layout_permutation(dim).tolist()
    return str(perm) if dim <= PERM_SHOWN_UP_TO else f"[0, 2, 4, …, {dim - 2}, 1, 3, …, {dim - 1}]"
