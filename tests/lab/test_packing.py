"""posviz.lab.packing and the packed-sequence helpers of posviz.pe.position_ids: position ids, cu_seqlens and
the block-diagonal causal mask against transformers (DataCollatorWithFlattening, flash-attention's varlen
kwargs, the packed-sequence mask of masking_utils, RoBERTa's position ids); the toy layer on a packed row
against each document alone; a row split across context-parallel ranks."""
import numpy as np
import pytest
import torch
from transformers import DataCollatorWithFlattening
from transformers.masking_utils import (
    and_masks,
    causal_mask_function,
    find_packed_sequence_indices,
    packed_sequence_mask_function,
)
from transformers.modeling_flash_attention_utils import prepare_fa_kwargs_from_position_ids
from transformers.models.roberta.modeling_roberta import RobertaEmbeddings

from posviz.lab import packing as P
from posviz.lab import toy_model as A
from posviz.pe.position_ids import cu_seqlens, packed_position_ids, packed_segment_ids, segment_ids_from_position_ids
from posviz.validate import PosvizError

S_A, S_B = "I love ML", "do you love ML too"
CASES = [[3, 5], [1, 1, 1], [7], [2, 9, 4, 1], [16, 3]]


def _collate(lengths, **kw):
    features = [{"input_ids": list(range(10, 10 + n))} for n in lengths]
    return DataCollatorWithFlattening(return_tensors="pt", **kw)(features)


@pytest.mark.parametrize("lengths", CASES)
def test_reset_ids_and_cu_seqlens_equal_transformers_flattening_collator(lengths):
    got = _collate(lengths, return_flash_attn_kwargs=True, return_seq_idx=True)
    assert torch.equal(got["position_ids"][0], packed_position_ids(lengths, "reset"))
    assert got["cu_seq_lens_q"].tolist() == cu_seqlens(lengths).tolist() and cu_seqlens(lengths).dtype == torch.int32
    assert torch.equal(got["seq_idx"][0].long(), packed_segment_ids(lengths))
    start = _collate(lengths, position_ids_start=P.MODEL_START)["position_ids"][0]   # a RoBERTa-like model's ids
    assert torch.equal(start, packed_position_ids(lengths, "reset") + P.MODEL_START)


@pytest.mark.parametrize("lengths", CASES)
def test_cu_seqlens_and_segments_from_position_ids_equal_transformers(lengths):
    reset = packed_position_ids(lengths, "reset")[None]
    (cu_q, cu_k), _ = prepare_fa_kwargs_from_position_ids(reset)
    assert cu_q.tolist() == cu_k.tolist() == cu_seqlens(lengths).tolist()
    seg = segment_ids_from_position_ids(reset)
    assert torch.equal(seg[0], packed_segment_ids(lengths))
    hf = find_packed_sequence_indices(reset)
    assert torch.equal(seg, hf if hf is not None else torch.zeros_like(seg))
    # ids that run on read as one document, to transformers and to us: the mask cannot separate them
    glob = packed_position_ids(lengths, "global")[None]
    assert find_packed_sequence_indices(glob) is None and not segment_ids_from_position_ids(glob).any()


@pytest.mark.parametrize("lengths", CASES)
def test_block_causal_mask_equals_transformers_packed_sequence_mask(lengths):
    seg = packed_segment_ids(lengths)
    fn = and_masks(causal_mask_function, packed_sequence_mask_function(seg[None]))
    n = len(seg)
    b, h = torch.tensor(0), torch.tensor(0)
    hf = torch.tensor([[bool(fn(b, h, torch.tensor(i), torch.tensor(j))) for j in range(n)] for i in range(n)])
    assert torch.equal(P.block_causal_mask(seg), hf)


def test_roberta_counts_positions_from_two():
    """MODEL_START: RoBERTa numbers real tokens from padding_idx + 1 (pad id 1)."""
    ids = torch.tensor([[0, 31414, 232, 2]])
    assert RobertaEmbeddings.create_position_ids_from_input_ids(ids, padding_idx=1).tolist() == [[2, 3, 4, 5]]
    assert P.MODEL_START == 1 + 1


def test_context_parallel_ids_and_shards():
    assert P.rank_of_tokens(8, 2).tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    assert P.rank_of_tokens(7, 3).tolist() == [0, 0, 0, 1, 1, 2, 2]               # the first ranks get one more
    reset = packed_position_ids([3, 5], "reset")
    assert P.context_parallel_ids(reset, 2).tolist() == [0, 1, 2, 0, 1, 2, 3, 4]  # the row's ids, sliced
    assert P.context_parallel_ids(reset, 2, restart=True).tolist() == [0, 1, 2, 3, 0, 1, 2, 3]
    assert P.context_parallel_ids(torch.arange(7), 3, restart=True).tolist() == [0, 1, 2, 0, 1, 0, 1]


@pytest.mark.parametrize("method, layout", A.SUMMARY_ROWS)
@pytest.mark.parametrize("ranks", [2, 3, 4])
def test_sharded_forward_with_sliced_ids_is_the_whole_row(method, layout, ranks):
    model = A.build_model(method, rope_layout=layout, max_length=32)
    ids = torch.arange(10, 19)[None]
    pos = packed_position_ids([4, 5], "reset")
    seg = packed_segment_ids([4, 5])
    whole = A.forward(model, ids, torch.ones_like(ids), pos[None], causal=True, segment_ids=seg[None])
    split = P.sharded_forward(model, ids, pos, P.rank_of_tokens(9, ranks), segment_ids=seg)
    torch.testing.assert_close(split.output, whole.output, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(split.weights, whole.weights, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("method, layout", A.SUMMARY_ROWS)
def test_reset_ids_with_the_block_mask_reproduce_each_document_alone(method, layout):
    r = P.pack_experiment(S_A, S_B, method=method, rope_layout=layout)
    assert r["status"] == "ok" and r["max_error"] < A.HARMLESS
    assert r["ids_fed"] == [0, 1, 2, 0, 1, 2, 3, 4] and r["segments"] == [0, 0, 0, 1, 1, 1, 1, 1]
    chosen, correct = r["chosen"], r["correct"]
    assert np.abs(chosen - correct).max() < 1e-5 and not chosen[:, 3:, :3].any()   # B never sees A


@pytest.mark.parametrize("method", A.POSITION_METHODS)
def test_restarting_ids_with_a_plain_causal_mask_leak_across_documents(method):
    r = P.pack_experiment(S_A, S_B, method=method, mask="causal")
    assert r["errors"][0].max() < A.HARMLESS                      # the first document has nobody before it
    assert r["errors"][1].max() > A.HARMFUL                       # B attends to A, whatever the method
    assert r["chosen"][:, 3:, :3].sum() > 0.1


def test_ids_that_run_on_break_absolute_methods_only():
    err, status = P.pack_summary(S_A, S_B)
    col = {s: j for j, s in enumerate(P.PACK_SETUPS)}
    rows = {m if m != "rope" else f"rope_{lay}": i for i, (m, lay) in enumerate(A.SUMMARY_ROWS)}
    glob, from0 = col[("global", "block", 1, False)], col[("from0", "block", 1, False)]
    for m in ("nope", "rope_interleaved", "rope_half", "alibi", "t5"):
        assert err[rows[m], glob] < A.HARMLESS and err[rows[m], from0] < A.HARMLESS   # a uniform shift: nothing
    for m in ("sinusoidal", "learned"):
        assert err[rows[m], glob] > A.HARMFUL and err[rows[m], from0] > A.HARMFUL      # other position vectors
    assert status[rows["learned"]][col[("source", "block", 1, False)]] == "out_of_range"  # rows 100.. not in 16
    leak = col[("reset", "causal", 1, False)]
    assert (err[:, leak] > A.HARMFUL).all()
    cp = col[("reset", "block", 2, True)]
    assert err[rows["nope"], cp] < A.HARMLESS and err[rows["rope_interleaved"], cp] > A.HARMFUL


def test_pack_summary_cells_equal_pack_experiment():
    err, status = P.pack_summary(S_A, S_B, source_offset=5)
    for i, (method, layout) in enumerate(A.SUMMARY_ROWS):
        for j, (ids, mask, ranks, restart) in enumerate(P.PACK_SETUPS):
            r = P.pack_experiment(S_A, S_B, method=method, rope_layout=layout, ids=ids, mask=mask, ranks=ranks,
                                  restart=restart, source_offset=5)
            assert status[i][j] == r["status"]
            if r["status"] == "ok":
                assert err[i, j] == r["max_error"]


def test_context_parallel_restart_changes_only_the_shards_after_the_first():
    r = P.pack_experiment(S_A, S_B, ranks=2, restart=True)
    assert r["rank"] == [0, 0, 0, 0, 1, 1, 1, 1] and r["ids_fed"] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert r["errors"][0].max() < A.HARMLESS and r["errors"][1][0] < A.HARMLESS   # rank 0 holds A and B's first
    assert r["errors"][1][1:].max() > A.HARMFUL
    ok = P.pack_experiment(S_A, S_B, ranks=2)
    assert ok["max_error"] < A.HARMLESS


def test_learned_table_boundary_is_a_status_not_an_error():
    r = P.pack_experiment(S_A, S_B, method="learned", ids="global", max_length=6)   # B would need rows 3..7
    assert r["status"] == "out_of_range" and r["errors"] is None and r["max_error"] is None


@pytest.mark.parametrize("kw, code", [(dict(ids="zeros"), "choice"), (dict(mask="none"), "choice"),
                                      (dict(ranks=5), "range"), (dict(ranks=4, restart=True), None)])
def test_pack_experiment_input(kw, code):
    if code is None:
        P.pack_experiment(S_A, "do", **kw)     # 3 + 1 tokens on 4 ranks: one token each
        return
    with pytest.raises(PosvizError) as e:
        P.pack_experiment(S_A, "do", **kw)
    assert e.value.code == code
    with pytest.raises(PosvizError):
        P.pack_experiment("a", "b", ranks=3)    # more ranks than tokens


def test_forward_segment_ids_are_checked():
    model = A.build_model("rope")
    ids = torch.arange(10, 14)[None]
    with pytest.raises(PosvizError) as e:
        A.forward(model, ids, torch.ones_like(ids), torch.arange(4)[None],
                  segment_ids=torch.zeros(1, 3, dtype=torch.long))
    assert e.value.code == "lab.same_shape"
    with pytest.raises(PosvizError) as e:
        A.forward(model, ids, torch.ones_like(ids), torch.arange(4)[None], segment_ids=torch.zeros(1, 4))
    assert e.value.code == "lab.integer_tensor"
