r"""Packed sequences: several documents in one row, the attention mask that must match their position
ids, and a packed row split across context-parallel ranks (seed 000 §11; transformers'
DataCollatorWithFlattening and flash-attention's varlen `cu_seqlens`).

A packed row holds documents d_0, d_1, ... back to back. Each document must come out exactly as if it
ran alone (positions start..start+n-1, causal). That needs two things that must agree:

    position ids   "reset": every document restarts at the model's first id (0, or 2 for a
                   RoBERTa-like model that counts from padding_idx + 1);
                   "global": the ids run on over the row; "source": each keeps its source coordinates;
                   "from0": reset ids that start at 0, fed to a model that counts from 2 (the collator's
                   default position_ids_start = 0 on RoBERTa, XLM-R, ESM, ...)
    mask           "block": block-diagonal causal (a query sees earlier keys of its own document);
                   "causal": one causal mask over the whole row (documents see earlier documents)

With "causal", every document after the first attends to the ones before it (a leak): wrong for
every method, NoPE included. With the block mask, relative methods (RoPE, ALiBi, T5) only feel
offsets inside a document, so "global" and "source" ids give the same scores as "reset"; absolute
ones (sinusoidal, learned) read other position vectors, or rows beyond their table.

Context parallelism splits the row into contiguous shards, one per rank; each rank rotates its own
queries and keys and gathers the others' keys and values. A rank must use the ids of ITS tokens (the
row's ids, sliced); a rank that numbers its shard from 0 computes other scores.
"""
import numpy as np
import torch

from posviz.lab import toy_layer as layer
from posviz.lab import toy_model
from posviz.lab.toy_model import AttentionResult, build_model, encode_pair, forward, real_positions
from posviz.pe.learned import PositionOutOfRangeError
from posviz.pe.position_ids import PACK_CONTRACTS, packed_position_ids, packed_segment_ids
from posviz.pe.rope import apply_rope
from posviz.validate import MAX_LENGTH, PosvizError, as_tensor, check_choice, check_int

PACK_IDS = PACK_CONTRACTS + ("from0",)
PACK_MASKS = ("block", "causal")
MODEL_START = 2        # a RoBERTa-like model's first position id (padding_idx + 1)
MAX_RANKS = 4
# the columns of the summary: (ids, mask, ranks, restart)
PACK_SETUPS = (("reset", "block", 1, False), ("global", "block", 1, False), ("source", "block", 1, False),
               ("reset", "causal", 1, False), ("global", "causal", 1, False), ("from0", "block", 1, False),
               ("reset", "block", 2, True))


def block_causal_mask(segment_ids):
    r"""Which keys each query of a packed row may see -> bool [T,T]: earlier tokens of its own document.

    Formula:
        M_{ij}=[\,j\le i\,]\wedge[\,\text{seg}_i=\text{seg}_j\,]
    """
    seg = as_tensor("segment_ids", segment_ids, ndim=1).long()              # [T]
    t = torch.arange(seg.shape[0])                                           # [T]
    return (t[None, :] <= t[:, None]) & (seg[:, None] == seg[None, :])       # [T,T]


def pack_position_ids(lengths, ids, *, source_offsets=None):
    r"""The position ids a packing pipeline feeds the model, and the first id the model itself counts from
    -> (LongTensor[T], start).

    Formula:
        \text{from0: } p=t-t_k\ \text{fed to a model whose own ids are } 2..n_k+1

    "reset", "global", "source" are posviz.pe.position_ids.packed_position_ids (start 0); "from0" is
    "reset" on a model with start MODEL_START, the mismatch of a 0-based collator.
    """
    check_choice("ids", ids, PACK_IDS)
    contract = "reset" if ids == "from0" else ids
    pos = packed_position_ids(lengths, contract, source_offsets=source_offsets)   # [T]
    return pos, (MODEL_START if ids == "from0" else 0)


def rank_of_tokens(length, ranks):
    r"""Contiguous context-parallel shards: the rank that holds each token of a row of `length` -> LongTensor[T].

    Formula:
        \text{shard}_r=\{t:\ \lfloor tR/T\rfloor=r\}\quad(\text{torch.tensor\_split: the first ranks get one more})
    """
    length = check_int("length", length, 1, MAX_LENGTH)
    ranks = check_int("ranks", ranks, 1, MAX_RANKS)
    sizes = [len(c) for c in torch.tensor_split(torch.arange(length), ranks)]
    return torch.repeat_interleave(torch.arange(ranks), torch.tensor(sizes))   # [T]


def context_parallel_ids(position_ids, ranks, *, restart=False):
    r"""The ids each rank rotates its shard with, in row order -> LongTensor[T].

    Formula:
        \text{correct: } p^{(r)}=p[\text{shard}_r]\qquad \text{restart: } p^{(r)}=0,1,\dots,|\text{shard}_r|-1
    """
    pos = as_tensor("position_ids", position_ids, ndim=1).long()            # [T]
    rank = rank_of_tokens(pos.shape[0], ranks)                               # [T]
    if not restart:
        return pos.clone()                                                   # [T] the row's ids, sliced
    return torch.cat([torch.arange(int((rank == r).sum())) for r in range(ranks)])   # [T]


def sharded_forward(model, token_ids, position_ids, rank, *, segment_ids=None):
    r"""The toy layer on a row split across ranks: rank r embeds and rotates its shard with its ids,
    gathers every rank's keys and values, and attends from its own queries (causal, by row index)
    -> AttentionResult (weights [1,H,T,T], output [1,T,D]).

    Formula:
        A^{(r)}=\operatorname{softmax}\!\Big(\frac{R(p^{(r)})Q^{(r)}\,[R(p^{(0)})K^{(0)};\dots]^\top}{\sqrt d}+B+M\Big),
            \qquad O=[A^{(0)}V;\ A^{(1)}V;\dots]

    With each rank's ids sliced from the row's, it computes what `toy_model.forward` computes on the
    whole row (tested).
    """
    token_ids = as_tensor("token_ids", token_ids, ndim=2).long()            # [1,T]
    pos = as_tensor("position_ids", position_ids, ndim=1).long()            # [T]
    rank = as_tensor("rank", rank, ndim=1).long()                            # [T]
    if token_ids.shape[0] != 1 or not token_ids.shape[1] == pos.shape[0] == rank.shape[0]:
        raise PosvizError("lab.same_shape", names="token_ids[0], position_ids, rank",
                          shapes=f"{list(token_ids.shape)}, {list(pos.shape)}, {list(rank.shape)}")
    ranks = int(rank.max()) + 1
    qs, ks, vs = [], [], []
    for r in range(ranks):                                                   # every rank: its own shard
        rows = (rank == r).nonzero().flatten()                               # [n_r]
        x = layer.embed_inputs(model, token_ids[:, rows], pos[None, rows], model.method)   # [1,n_r,D]
        q, k, v = layer.project(model, x)                                    # [1,H,n_r,d] x3
        if model.method == "rope":
            q = apply_rope(q, pos[rows], layout=model.rope_layout)           # [1,H,n_r,d]
            k = apply_rope(k, pos[rows], layout=model.rope_layout)           # [1,H,n_r,d]
        qs.append(q)
        ks.append(k)
        vs.append(v)
    keys, values = torch.cat(ks, dim=-2), torch.cat(vs, dim=-2)              # [1,H,T,d] x2 (all-gathered)
    allowed = layer.key_mask(torch.ones_like(token_ids), False, True)        # [1,T,T] causal by row index
    if segment_ids is not None:
        seg = as_tensor("segment_ids", segment_ids, ndim=1).long()           # [T]
        allowed = allowed & (seg[:, None] == seg[None, :])[None]             # [1,T,T]
    bias = layer.position_bias(model, pos[None], model.method, True)         # [1,H,T,T] or None
    weights, outs = [], []
    for r in range(ranks):
        rows = (rank == r).nonzero().flatten()                               # [n_r]
        scores = layer.scaled_scores(qs[r], keys)                            # [1,H,n_r,T]
        if bias is not None:
            scores = scores + bias[:, :, rows]                               # [1,H,n_r,T]
        w, o = layer.attend(scores, allowed[:, rows], values, model.dim)     # [1,H,n_r,T] [1,n_r,D]
        weights.append(w)
        outs.append(o)
    return AttentionResult(weights=torch.cat(weights, dim=2), output=torch.cat(outs, dim=1),
                           position_ids=pos[None])                           # [1,H,T,T] [1,T,D]


def _documents(sentence_a, sentence_b, names):
    """The two sentences' tokens and token ids (one vocabulary, as the padded batch has them)."""
    batch = encode_pair(sentence_a, sentence_b, "right", names)
    docs = []
    for r in range(2):
        real = real_positions(batch.attention_mask[r])                        # [n]
        docs.append(([batch.tokens[r][i] for i in real.tolist()], batch.token_ids[r, real]))   # [n]
    return docs


def _alone(model, docs, start):
    """Each document run alone (causal, positions start..start+n-1) -> list of AttentionResult."""
    return [forward(model, t[None], torch.ones_like(t)[None], torch.arange(start, start + len(t))[None], causal=True)
            for _, t in docs]


def _pack_run(model, docs, ids, mask, ranks, restart, source_offset, refs=None):
    """One setup on one model -> dict(ids_fed, rank, start, status, errors, correct, chosen). `refs`: a dict
    {start: `_alone` results} shared by the setups of one model (filled here)."""
    lengths = [len(toks) for toks, _ in docs]
    seg = packed_segment_ids(lengths)                                         # [T]
    pos, start = pack_position_ids(lengths, ids, source_offsets=[0, source_offset])   # [T]
    rank = rank_of_tokens(len(seg), ranks)                                    # [T]
    fed = context_parallel_ids(pos, ranks, restart=restart)                   # [T]
    token_ids = torch.cat([t for _, t in docs])[None]                         # [1,T]
    out = dict(ids_fed=fed.tolist(), rank=rank.tolist(), start=start, segments=seg.tolist(), status="ok",
               errors=None, correct=None, chosen=None)
    refs = {} if refs is None else refs
    try:
        if start not in refs:
            refs[start] = _alone(model, docs, start)
        alone = refs[start]
        segments = seg[None] if mask == "block" else None                    # [1,T]
        if ranks == 1:
            chosen = forward(model, token_ids, torch.ones_like(token_ids), fed[None], causal=True,
                             segment_ids=segments)
        else:
            chosen = sharded_forward(model, token_ids, fed, rank, segment_ids=None if segments is None else seg)
    except PositionOutOfRangeError:   # the learned table's hard boundary: no row for some position
        out["status"] = "out_of_range"
        return out
    bounds = np.cumsum([0] + lengths)
    out["errors"] = [(chosen.output[0, a:b] - ref.output[0]).abs().amax(dim=-1).numpy()
                     for (a, b), ref in zip(zip(bounds, bounds[1:]), alone)]  # [n_k] each
    correct = np.zeros(chosen.weights.shape[1:], dtype=np.float32)            # [H,T,T]
    for (a, b), ref in zip(zip(bounds, bounds[1:]), alone):
        correct[:, a:b, a:b] = ref.weights[0].numpy()                         # each document alone, on the diagonal
    out["correct"], out["chosen"] = correct, chosen.weights[0].numpy()        # [H,T,T] x2
    return out


@toy_model._one_thread
def pack_experiment(sentence_a, sentence_b, *, method="rope", rope_layout="interleaved", ids="reset", mask="block",
                    ranks=1, restart=False, source_offset=100, num_heads=2, head_dim=16, max_length=16, seed=0,
                    names=toy_model.SENTENCE_NAMES):
    r"""Sentences A and B packed into one row and run through the toy layer (causal) with the chosen ids,
    mask and context-parallel split, against each document run alone.

    Formula:
        \mathrm{err}_{k,t}=\max_c\big|O^{\text{packed}}_{t_k+t,\,c}-O^{\text{alone}(d_k)}_{t,c}\big|

    Returns plain data: tokens, segments, ids_fed (what the model was given), rank (of each token),
    start (the model's first id), status ("ok" or "out_of_range": a learned table without a row for
    some position), errors (per document, per token), max_error, correct / chosen attention [H,T,T]
    (correct: each document alone on the block diagonal).
    """
    check_choice("ids", ids, PACK_IDS)
    check_choice("mask", mask, PACK_MASKS)
    ranks = check_int("ranks", ranks, 1, MAX_RANKS)
    source_offset = check_int("source_offset", source_offset, 0, MAX_LENGTH)
    docs = _documents(sentence_a, sentence_b, names)
    if ranks > sum(len(toks) for toks, _ in docs):
        raise PosvizError("range", name="ranks", lo=1, hi=sum(len(toks) for toks, _ in docs), got=ranks)
    model = build_model(method, num_heads=num_heads, head_dim=head_dim, rope_layout=rope_layout,
                        max_length=max_length, seed=seed)
    run = _pack_run(model, docs, ids, mask, ranks, restart, source_offset)
    run["tokens"] = [tok for toks, _ in docs for tok in toks]
    run["doc_tokens"] = [toks for toks, _ in docs]
    run["max_error"] = None if run["errors"] is None else max(float(e.max()) for e in run["errors"])
    return run


@toy_model._one_thread
def pack_summary(sentence_a, sentence_b, *, source_offset=100, num_heads=2, head_dim=16, max_length=16, seed=0,
                 names=toy_model.SENTENCE_NAMES, cols=None):
    r"""Every method (rows of toy_model.SUMMARY_ROWS) under every packing setup (PACK_SETUPS, or the columns
    `cols` of it) -> (err [7,S], status): the largest output error of any token against its document run
    alone. The documents alone run once per method and first id, shared by the setups.

    Formula:
        \text{cell}(\text{method},\text{setup})=\max_{k,t,c}\big|O^{\text{packed}}_{t_k+t,c}-O^{\text{alone}(d_k)}_{t,c}\big|
    """
    source_offset = check_int("source_offset", source_offset, 0, MAX_LENGTH)
    setups = PACK_SETUPS if cols is None else tuple(PACK_SETUPS[check_int("cols", j, 0, len(PACK_SETUPS) - 1)]
                                                   for j in cols)
    docs = _documents(sentence_a, sentence_b, names)
    err = np.full((len(toy_model.SUMMARY_ROWS), len(setups)), np.nan)
    status = [["ok"] * len(setups) for _ in toy_model.SUMMARY_ROWS]
    for i, (method, layout) in enumerate(toy_model.SUMMARY_ROWS):
        model = build_model(method, num_heads=num_heads, head_dim=head_dim, rope_layout=layout,
                            max_length=max_length, seed=seed)
        refs = {}
        for j, (ids, mask, ranks, restart) in enumerate(setups):
            run = _pack_run(model, docs, ids, mask, min(ranks, sum(len(t) for t, _ in docs)), restart,
                            source_offset, refs)
            status[i][j] = run["status"]
            if run["errors"] is not None:
                err[i, j] = max(float(e.max()) for e in run["errors"])
    return err, status

