"""View of the attention lab (app_pages/lab.py): the padded batch against each sentence alone, the
method x setup summary, packing, and the numbers the low-precision narration states.

Plain arguments in (str, int, float, tuples), plain numbers / numpy arrays / lists / dicts out.
"""
import math

import numpy as np

from posviz.lab import angle_precision, loss, packing, tokens, toy_model
from posviz.pe import position_ids
from posviz.validate import check_choice, check_int
from posviz.views import cached

# ---------------------------------------------------------------- options of the page's widgets
POSITION_METHODS = toy_model.POSITION_METHODS
ROPE_LAYOUTS = toy_model.ROPE_LAYOUTS
SCHEMES = position_ids.SCHEMES
LOWP_DTYPES = tuple(toy_model.LOWP_DTYPES)
LOWP_OFFSETS = toy_model.LOWP_OFFSETS
PACK_CONTRACTS = position_ids.PACK_CONTRACTS
PACK_MAX_OFFSET = 4096
PACK_IDS, PACK_MASKS, PACK_SETUPS = packing.PACK_IDS, packing.PACK_MASKS, packing.PACK_SETUPS
PACK_RANKS = tuple(range(1, packing.MAX_RANKS + 1))
HEAD_DIMS = (8, 16, 32, 64)
MAX_CHARS = tokens.MAX_CHARS
HARMLESS, HARMFUL = toy_model.HARMLESS, toy_model.HARMFUL
# widget key -> the bug of toy_model.forward it switches on
BUG_KEYS = {"lab_nopos": "no_position", "lab_qonly": "rotate_q_only", "lab_rotv": "rotate_v",
            "lab_hidden": "rope_on_hidden", "lab_unmasked": "pads_unmasked",
            "lab_layoutbug": "layout_mismatch", "lab_lowp": "low_precision"}
SUMMARY_ROWS, SUMMARY_COLS = toy_model.SUMMARY_ROWS, toy_model.SUMMARY_COLS
ROW_NAMES = tuple(f"lab.row.{m}.{lay}" if m == "rope" else f"lab.row.{m}" for m, lay in SUMMARY_ROWS)   # text keys
SCHEME_COLS = tuple(j for j, (_, bug) in enumerate(SUMMARY_COLS) if bug is None)   # position-id schemes
BUG_COLS = tuple(j for j, (_, bug) in enumerate(SUMMARY_COLS) if bug is not None)  # bugs (ids from the mask)
LOWP_COL = SUMMARY_COLS.index(("mask", "low_precision"))   # the one column the low-precision settings feed
# the page's low-precision settings as it opens; also what they are set to where nothing reads them
LOWP_DEFAULTS = dict(lowp_dtype="bfloat16", lowp_offset=8192)


def applies(method, bug):
    """Is `bug` meaningful for `method`? (RoPE-only bugs need RoPE.)"""
    return toy_model.applies(method, bug)


def verdict(error):
    """"harmless" (float rounding), "small" or "harmful" for a max output error."""
    return "harmless" if error < HARMLESS else "harmful" if error > HARMFUL else "small"


def _runs(values):
    """[8192, 8192, 8256] -> "8192 ×2, 8256" (consecutive equal values counted)."""
    out = []
    for v in values:
        if out and out[-1][0] == v:
            out[-1][1] += 1
        else:
            out.append([v, 1])
    return ", ".join(f"{v:g} ×{n}" if n > 1 else f"{v:g}" for v, n in out)


def lowp_rounding(positions, lowp_dtype, lowp_offset):
    """What the low-precision bug does to the positions p + offset of the real tokens: the numbers
    the page's narration states (computed with toy_model.lowp_positions, the bug's own rounding).

    Returns dict(lo, hi: the shifted positions; first: the power of two from which `spacing`
    holds; spacing: distance of neighbouring numbers the dtype can store there; bits; values:
    the stored positions as runs "8192 ×5"; exact: True when every position is still exact).
    """
    used = sorted({int(p) for p in positions})
    stored = toy_model.lowp_positions(used, lowp_offset, lowp_dtype)           # the bug's own rounding
    lo, hi = used[0] + int(lowp_offset), used[-1] + int(lowp_offset)
    first = 2.0 ** math.floor(math.log2(lo)) if lo >= 1 else 1.0
    spacing = toy_model.representable_spacing(first, lowp_dtype)
    return dict(lo=lo, hi=hi, first=first, spacing=spacing, bits=toy_model.significant_bits(lowp_dtype),
                values=_runs(stored.float().tolist()),
                exact=toy_model.representable_spacing(hi, lowp_dtype) <= 1.0)


def _lowp_settings(lowp_dtype, lowp_offset):
    """The low-precision settings checked as toy_model.forward checks them -> dict(lowp_dtype, lowp_offset)."""
    check_choice("lowp_dtype", lowp_dtype, LOWP_DTYPES)
    return dict(lowp_dtype=lowp_dtype, lowp_offset=check_int("lowp_offset", lowp_offset, 0, toy_model.MAX_LOWP_OFFSET))


def experiment(sentence_a, sentence_b, *, padding_side="left", method="rope", rope_layout="interleaved",
               num_heads=2, head_dim=16, scheme="mask", bugs=(), causal=False, max_length=16,
               lowp_dtype="bfloat16", lowp_offset=4096, seed=0, names=toy_model.SENTENCE_NAMES):
    """Everything sections 2-4 of the lab draw: the chosen setup on the padded batch vs each sentence alone.

    For row r: the reference attention (sentence alone) embedded in the padded L x L grid
    (real x pad = 0, pad rows NaN), the chosen attention (pad rows NaN), the per-token error and
    the three tensors ("Same words, different order..." §12 step 2) for both setups. With the
    low-precision bug on RoPE, also `lowp`: lowp_rounding of the positions used plus the float32
    control `f32` at the same offset. Cached by `_experiment` on the settings that matter: without
    that bug the low-precision settings are checked, then left out of the cache key.
    """
    bugs = tuple(b for b in bugs if applies(method, b))
    lowp = _lowp_settings(lowp_dtype, lowp_offset)              # checked even where nothing reads them
    if "low_precision" not in bugs:
        lowp = LOWP_DEFAULTS
    return _experiment(sentence_a, sentence_b, padding_side=padding_side, method=method, rope_layout=rope_layout,
                       num_heads=num_heads, head_dim=head_dim, scheme=scheme, bugs=bugs, causal=causal,
                       max_length=max_length, seed=seed, names=tuple(names), **lowp)


@cached
def _experiment(sentence_a, sentence_b, *, padding_side, method, rope_layout, num_heads, head_dim, scheme, bugs,
                causal, max_length, lowp_dtype, lowp_offset, seed, names):
    """`experiment` (its docstring), on settings that all matter."""
    batch = toy_model.encode_pair(sentence_a, sentence_b, padding_side, names)
    model = toy_model.build_model(method, num_heads=num_heads, head_dim=head_dim, rope_layout=rope_layout,
                                  max_length=max_length, seed=seed)
    chosen, refs, errs, pos = toy_model.compare(model, batch, scheme, bugs, causal=causal,
                                                lowp_dtype=lowp_dtype, lowp_offset=lowp_offset)
    n, length = batch.token_ids.shape
    rows = []
    for r in range(n):
        real = toy_model.real_positions(batch.attention_mask[r]).numpy()
        ref = np.full((model.num_heads, length, length), np.nan, dtype=np.float32)
        ref[:, real] = 0.0
        ref[:, real[:, None], real[None, :]] = refs[r].weights[0].numpy()   # the sentence alone, in the grid
        got = chosen.weights[r].numpy().copy()
        got[:, batch.attention_mask[r].numpy() == 0] = np.nan                # pad queries are not tokens
        rows.append(dict(
            tokens=list(batch.tokens[r]), real=real.tolist(), correct=ref, chosen=got,
            error=errs[r].numpy(), ids_correct=batch.token_ids[r, real].tolist(),
            pos_correct=list(range(len(real))), ids=batch.token_ids[r].tolist(),
            mask=batch.attention_mask[r].tolist(), pos=pos[r].tolist()))
    for row in rows:   # one colour range per head, shared by the correct and the chosen map
        both = np.concatenate([row["correct"], row["chosen"]], axis=-1).reshape(model.num_heads, -1)
        row["top"] = [max(float(np.nanmax(h)), 1e-6) for h in both]
    max_error = max(float(e.max()) for e in errs)
    out = dict(rows=rows, max_error=max_error, verdict=verdict(max_error), length=length, lowp=None,
               errors=[row["error"] for row in rows],
               real_tokens=[[row["tokens"][i] for i in row["real"]] for row in rows])
    if "low_precision" in bugs:
        used = [row["pos"][i] for row in rows for i in row["real"]]
        out["lowp"] = dict(lowp_rounding(used, lowp_dtype, lowp_offset), dtype=lowp_dtype, offset=lowp_offset,
                           f32=toy_model.lowp_float32_error(
                               sentence_a, sentence_b, padding_side=padding_side, rope_layout=rope_layout,
                               num_heads=num_heads, head_dim=head_dim, causal=causal, lowp_offset=lowp_offset,
                               seed=seed, names=names))
    return out


def tensor_table(tokens_, ids, mask, pos, *, names, labels):
    """The three tensors of "Same words, different order..." §12 step 2 as table rows (one row per
    sentence and tensor). labels = (token, token id, valid mask, position id) in the page language;
    cells are plain strings (a table never renders HTML)."""
    width = max(len(t) for t in tokens_)
    rows = []
    for name, toks, i, m, p in zip(names, tokens_, ids, mask, pos):
        for lab, vals in zip(labels, (toks, i, m, p)):
            row = {"": f"{name} · {lab}"}
            for c in range(width):
                row[str(c)] = str(vals[c]) if c < len(vals) else ""
            rows.append(row)
    return rows


def tensors(result, *, names, labels):
    """(correct, chosen) tables of an `experiment` result: each sentence alone vs the padded batch."""
    rows = result["rows"]
    correct = tensor_table([[x["tokens"][i] for i in x["real"]] for x in rows], [x["ids_correct"] for x in rows],
                           [[1] * len(x["real"]) for x in rows], [x["pos_correct"] for x in rows],
                           names=names, labels=labels)
    chosen = tensor_table([x["tokens"] for x in rows], [x["ids"] for x in rows], [x["mask"] for x in rows],
                          [x["pos"] for x in rows], names=names, labels=labels)
    return correct, chosen


def summary(sentence_a, sentence_b, *, padding_side="left", num_heads=2, head_dim=16, causal=False,
            max_length=16, lowp_dtype="bfloat16", lowp_offset=8192, seed=0, names=toy_model.SENTENCE_NAMES):
    """toy_model.summary_matrix split for two figures: dict(err [7,12], status, and the position-id
    scheme columns / bug columns as "schemes" and "bugs", each dict(err, status (numpy str), cols)).

    The low-precision column is the only one the low-precision settings feed: away from their defaults it is
    cached apart (`summary_cells`), so that changing the offset recomputes two cells, not the whole matrix; at
    their defaults (a size moved, the page as it opens) the matrix is one call, its models and references built
    once."""
    common = dict(padding_side=padding_side, num_heads=num_heads, head_dim=head_dim, causal=causal,
                  max_length=max_length, seed=seed, names=tuple(names))
    lowp = _lowp_settings(lowp_dtype, lowp_offset)
    if lowp == LOWP_DEFAULTS:
        err, status = summary_cells(sentence_a, sentence_b, cols=tuple(range(len(SUMMARY_COLS))), **common, **lowp)
    else:
        rest = tuple(j for j in range(len(SUMMARY_COLS)) if j != LOWP_COL)
        err_rest, status_rest = summary_cells(sentence_a, sentence_b, cols=rest, **common, **LOWP_DEFAULTS)
        err_lowp, status_lowp = summary_cells(sentence_a, sentence_b, cols=(LOWP_COL,), **common, **lowp)
        err = np.insert(err_rest, LOWP_COL, err_lowp[:, 0], axis=1)
        status = [row[:LOWP_COL] + lowp_row + row[LOWP_COL:] for row, lowp_row in zip(status_rest, status_lowp)]
    # each part's status as a numpy array of str: ui.plot hashes it in one pass on every rerun
    parts = {name: dict(err=err[:, list(cols)], status=np.array([[row[j] for j in cols] for row in status]),
                        cols=[SUMMARY_COLS[j] for j in cols])
             for name, cols in (("schemes", SCHEME_COLS), ("bugs", BUG_COLS))}
    return dict(err=err, status=status, **parts)


@cached
def summary_cells(sentence_a, sentence_b, *, cols, padding_side, num_heads, head_dim, causal, max_length,
                  lowp_dtype, lowp_offset, seed, names):
    """toy_model.summary_matrix of the columns `cols` (indices into SUMMARY_COLS) -> (err [7,len(cols)], status)."""
    return toy_model.summary_matrix(sentence_a, sentence_b, padding_side=padding_side, num_heads=num_heads,
                                    head_dim=head_dim, causal=causal, max_length=max_length, lowp_dtype=lowp_dtype,
                                    lowp_offset=lowp_offset, seed=seed, names=names,
                                    cols=tuple(SUMMARY_COLS[j] for j in cols))


def selected_cells(method, rope_layout, scheme, bugs):
    """The summary cell of the current choice in each part: {"schemes": (row, col) | None, "bugs": ...}.

    One cell is outlined only when the choice is one column of the matrix (one scheme, or ids
    from the mask with at most one bug)."""
    row = SUMMARY_ROWS.index((method, rope_layout if method == "rope" else "interleaved"))
    bugs = tuple(b for b in bugs if applies(method, b))
    out = {"schemes": None, "bugs": None}
    if scheme != "mask" and not bugs:
        out["schemes"] = (row, SCHEMES.index(scheme))
    elif scheme == "mask" and not bugs:
        out["schemes"] = (row, 0)
    elif scheme == "mask" and len(bugs) == 1:
        out["bugs"] = (row, [SUMMARY_COLS[j][1] for j in BUG_COLS].index(bugs[0]))
    return out


def packed_rows(result, *, row_labels, names, run=None):
    """A `packed` result as table rows: one row per line (token, segment, one per contract), one
    column per packed position. row_labels = {"token", "segment", <contract>: label}. With `run` (a
    `pack_run` result), two more lines: the ids fed to the model ("fed") and, across several ranks,
    the rank holding each token ("rank")."""
    lines = [(row_labels["token"], result["tokens"]), (row_labels["segment"], [names[k] for k in result["segments"]])]
    lines += [(row_labels[c], result["ids"][c]) for c in PACK_CONTRACTS]
    if run is not None:
        lines.append((row_labels["fed"], run["ids_fed"]))
        if max(run["rank"]) > 0:
            lines.append((row_labels["rank"], run["rank"]))
    return [{"": label, **{str(t): str(v) for t, v in enumerate(vals)}} for label, vals in lines]


@cached
def packed(sentence_a, sentence_b, source_offset, names=toy_model.SENTENCE_NAMES):
    """Sentences A + B packed into one row: tokens, segment (0 / 1) and the position ids under
    every contract of posviz.pe.position_ids.packed_position_ids -> dict(tokens, segments, ids)."""
    toks = [tokens.tokenize(s, name=n) for s, n in zip((sentence_a, sentence_b), names)]
    lengths = [len(t) for t in toks]
    ids = {c: position_ids.packed_position_ids(lengths, c, source_offsets=[0, source_offset]).tolist()
           for c in PACK_CONTRACTS}
    return dict(tokens=toks[0] + toks[1], segments=position_ids.packed_segment_ids(lengths).tolist(), ids=ids)


@cached
def pack_run(sentence_a, sentence_b, *, method="rope", rope_layout="interleaved", ids="reset", mask="block", ranks=1,
             restart=False, source_offset=100, num_heads=2, head_dim=16, max_length=16,
             names=toy_model.SENTENCE_NAMES):
    """packing.pack_experiment, plus what the page states: verdict, `doc_max` (each document's largest
    error), `top` (one colour range per head for the correct and the packed map), `hi` (the largest
    position a learned table would need) and `setup` (the column of PACK_SETUPS, or None)."""
    ranks = ranks if ranks > 1 else 1
    run = packing.pack_experiment(sentence_a, sentence_b, method=method, rope_layout=rope_layout, ids=ids, mask=mask,
                                  ranks=ranks, restart=restart and ranks > 1, source_offset=source_offset,
                                  num_heads=num_heads, head_dim=head_dim, max_length=max_length, names=tuple(names))
    run["hi"] = max(max(run["ids_fed"]), run["start"] + max(len(t) for t in run["doc_tokens"]) - 1)
    run["setup"] = pack_setup(ids, mask, ranks, restart)
    if run["status"] != "ok":
        run.update(verdict=None, doc_max=None, top=None)
        return run
    run["verdict"] = verdict(run["max_error"])
    run["doc_max"] = [float(e.max()) for e in run["errors"]]
    both = np.concatenate([run["correct"], run["chosen"]], axis=-1).reshape(run["chosen"].shape[0], -1)
    run["top"] = [max(float(h.max()), 1e-6) for h in both]
    return run


def pack_setup(ids, mask, ranks, restart):
    """The column of PACK_SETUPS that a packing choice is, or None (a context-parallel split without a
    restart computes what one rank computes: the column of the same ids and mask)."""
    key = (ids, mask, ranks, True) if ranks > 1 and restart else (ids, mask, 1, False)
    return PACK_SETUPS.index(key) if key in PACK_SETUPS else None


SOURCE_COL = PACK_SETUPS.index(("source", "block", 1, False))   # the one column the source offset feeds


def pack_table(sentence_a, sentence_b, *, source_offset=100, num_heads=2, head_dim=16, max_length=16,
               names=toy_model.SENTENCE_NAMES):
    """packing.pack_summary as dict(err [7, S], status (numpy str), cols (PACK_SETUPS)). The "source" column
    is the only one the source offset feeds: it is cached apart (`pack_cells`), so that moving the offset
    recomputes one column, not seven."""
    common = dict(num_heads=num_heads, head_dim=head_dim, max_length=max_length, names=tuple(names))
    rest = tuple(j for j in range(len(PACK_SETUPS)) if j != SOURCE_COL)
    err_rest, status_rest = pack_cells(sentence_a, sentence_b, cols=rest, source_offset=0, **common)
    err_src, status_src = pack_cells(sentence_a, sentence_b, cols=(SOURCE_COL,), source_offset=source_offset,
                                     **common)
    err = np.insert(err_rest, SOURCE_COL, err_src[:, 0], axis=1)
    status = [row[:SOURCE_COL] + src + row[SOURCE_COL:] for row, src in zip(status_rest, status_src)]
    return dict(err=err, status=np.array(status), cols=list(PACK_SETUPS))


@cached
def pack_cells(sentence_a, sentence_b, *, cols, source_offset, num_heads, head_dim, max_length, names):
    """packing.pack_summary of the columns `cols` (indices into PACK_SETUPS) -> (err [7, len(cols)], status)."""
    return packing.pack_summary(sentence_a, sentence_b, source_offset=source_offset, num_heads=num_heads,
                                head_dim=head_dim, max_length=max_length, names=names, cols=cols)


MAX_PADS = 16            # the loss curve's pad counts 0..MAX_PADS (issue 33 item 17)
SHOWN_PADS = 4           # the pad count the page's sentence and label table read
FLAT = 1e-5              # a loss curve that moves less than this over the pads does not move


@cached
def pad_loss(sentence, *, method="rope", padding_side="right", num_heads=2, head_dim=16, causal=True,
             name="sentence A"):
    """The loss of sentence A padded with 0..MAX_PADS pads, pad labels ignored and kept (loss.pad_loss_curve),
    and how far each curve moves -> dict(pads, ignored, kept, moves {"ignored", "kept"}: max - min, tokens)."""
    r = loss.pad_loss_curve(sentence, method=method, padding_side=padding_side, num_heads=num_heads,
                            head_dim=head_dim, causal=causal, max_pads=MAX_PADS, name=name)
    return {**r, "moves": {k: max(r[k]) - min(r[k]) for k in ("ignored", "kept")}}


def pad_loss_said(curve, ignore, pads=SHOWN_PADS):
    """What the page says of pad_loss's curve, pad labels ignored or kept: {"say": the text key (lab.loss.<ignored |
    kept>.<flat | moves>), "said": {k (the pads the sentence reads), now, base (the loss with k pads and with none),
    lo, hi (the curve's range)}}, numbers to 4 decimals."""
    which = "ignored" if ignore else "kept"
    y = curve[which]
    word = "flat" if curve["moves"][which] < FLAT else "moves"
    return {"say": f"lab.loss.{which}.{word}",
            "said": {"k": pads, "now": f"{y[pads]:.4f}", "base": f"{y[0]:.4f}", "lo": f"{min(y):.4f}",
                     "hi": f"{max(y):.4f}"}}


@cached
def pad_labels(sentence, pads=SHOWN_PADS, *, padding_side="right", ignore=True, name="sentence A"):
    """What the loss reads at `pads` pads: each position's token and its label (the next token, or ignore_index)
    -> dict(tokens [str] (pads as "<pad>"), labels [str] (a token, or "−100"))."""
    pads = check_int("pads", pads, 0, MAX_PADS)
    row = tokens.encode([sentence], names=[name])
    ids, words = pad_row(row, pads, padding_side)
    mask = (ids != tokens.PAD_ID).long()                                           # [1,L]
    ys = loss.next_token_labels(ids, mask, ignore_pads=ignore)[0].tolist()
    by_id = {i: w for w, i in row.vocab.items()} | {tokens.PAD_ID: tokens.PAD}
    return {"tokens": words, "labels": ["−100" if y == loss.IGNORE_INDEX else by_id[y] for y in ys]}


def pad_row(row, pads, side):
    """A one-sentence Batch with `pads` pad tokens added on `side` -> (token ids [1, n + pads], words)."""
    return loss.padded(row.token_ids, pads, side), ([tokens.PAD] * pads + row.tokens[0] if side == "left"
                                                    else row.tokens[0] + [tokens.PAD] * pads)


# ---------------------------------------------------------------- angles in low precision (issue 37)
ANGLE_MODES = angle_precision.ANGLE_MODES
ANGLE_NAMES = tuple(f"name.{m}" for m in ANGLE_MODES)     # the figure's label names
ANGLE_BINS = 400          # points of each line: the largest error in each block of positions


@cached
def angles(dtype, head_dim, max_position):
    """The phase error of RoPE's angles along positions 0..max_position under each way of computing them:
    {"x": block starts [B], "lines": {mode: largest |error| per block [B]}, "case": "noise" (the low-precision
    angle's error passes pi/2 within the range), "drift" (0.1 rad, not pi/2) or "small" (not even 0.1), "say"
    (lab.angles.said.<case>),
    "said": {dtype, d, m, f32, table, lowp (each mode's largest error, rad), first (the first position where the
    low-precision angle is off by more than 0.1 rad, or "—"), half (... by more than pi/2, or "—")}}."""
    out = {"lines": {}}
    said = {"dtype": dtype, "d": head_dim, "m": max_position}
    for mode, name in zip(ANGLE_MODES, ("f32", "table", "lowp")):
        err = angle_precision.rope_phase_error(max_position, head_dim, dtype, mode)
        x, y = angle_precision.phase_error_envelope(err, ANGLE_BINS)
        out["x"] = x.numpy()
        out["lines"][mode] = y.numpy()
        said[name] = float(y.max())
        if mode == "angle_lowp":
            first, half = (angle_precision.first_position_above(err, v) for v in (0.1, math.pi / 2))
            said.update(first="—" if first is None else first, half="—" if half is None else half)
            out["case"] = "noise" if half is not None else "drift" if first is not None else "small"
            out["say"] = f"lab.angles.said.{out['case']}"                # the narration's text key
    out["said"] = said
    return out
