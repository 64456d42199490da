import pytest
import torch

from posviz.pe.position_ids import (
    SCHEMES,
    make_position_ids,
    modulo_positions,
    position_ids_from_mask,
    shared_arange,
    token_ids_as_positions,
    zero_positions,
)


def test_seed_000_section_11_example():
    valid = torch.tensor([[False, False, True, True, True], [True, True, True, True, True]])
    assert position_ids_from_mask(valid).tolist() == [[0, 0, 0, 1, 2], [0, 1, 2, 3, 4]]


def test_right_padding_and_int_masks():
    mask = [[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]
    assert position_ids_from_mask(mask).tolist() == [[0, 1, 2, 2, 2], [0, 1, 2, 3, 4]]
    assert position_ids_from_mask(torch.tensor(mask)).dtype == torch.long


def test_left_and_right_padding_give_the_same_ids_to_real_tokens():
    left = torch.tensor([[0, 0, 1, 1, 1]])
    right = torch.tensor([[1, 1, 1, 0, 0]])
    assert position_ids_from_mask(left)[0, 2:].tolist() == position_ids_from_mask(right)[0, :3].tolist() == [0, 1, 2]


def test_wrong_schemes():
    mask = torch.tensor([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]])
    ids = torch.tensor([[0, 0, 7, 8, 7], [1, 2, 3, 4, 5]])
    assert shared_arange(mask).tolist() == [[0, 1, 2, 3, 4]] * 2
    assert token_ids_as_positions(ids).tolist() == ids.tolist()
    assert zero_positions(mask).tolist() == [[0] * 5] * 2
    assert modulo_positions(mask, 3).tolist() == [[0, 0, 0, 1, 2], [0, 1, 2, 0, 1]]
    for s in SCHEMES:
        out = make_position_ids(s, mask, ids, table_size=3)
        assert out.shape == (2, 5) and out.dtype == torch.long
    assert make_position_ids("mask", mask).tolist() == [[0, 0, 0, 1, 2], [0, 1, 2, 3, 4]]


@pytest.mark.parametrize("bad, word", [
    ([[0, 2, 1]], "attention_mask"),
    ([0, 1, 1], "attention_mask"),
    ([[0.0, 1.0]], "attention_mask"),
    ("abc", "attention_mask"),
    (torch.ones(1, 9000, dtype=torch.long), "attention_mask"),
])
def test_invalid_masks(bad, word):
    with pytest.raises(ValueError, match=word):
        position_ids_from_mask(bad)


def test_invalid_scheme_and_table_size():
    mask = torch.ones(1, 3, dtype=torch.long)
    with pytest.raises(ValueError, match="scheme"):
        make_position_ids("random", mask)
    with pytest.raises(ValueError, match="table_size"):
        modulo_positions(mask, 0)
    with pytest.raises(ValueError, match="table_size"):
        make_position_ids("modulo", mask)
    with pytest.raises(ValueError, match="token_ids"):
        make_position_ids("token_ids", mask)
    with pytest.raises(ValueError, match="token_ids"):
        token_ids_as_positions(torch.tensor([[-1, 2]]))


# ---------------------------------------------------------------- packing (seed 000 §11, last paragraph)
from posviz.pe.position_ids import PACK_CONTRACTS, packed_position_ids, packed_segment_ids  # noqa: E402


def test_packed_contracts_by_hand():
    assert packed_segment_ids([3, 5]).tolist() == [0, 0, 0, 1, 1, 1, 1, 1]
    assert packed_position_ids([3, 5], "global").tolist() == [0, 1, 2, 3, 4, 5, 6, 7]
    assert packed_position_ids([3, 5], "reset").tolist() == [0, 1, 2, 0, 1, 2, 3, 4]
    assert packed_position_ids([3, 5], "source", source_offsets=[0, 100]).tolist() == [0, 1, 2, 100, 101, 102, 103, 104]


def test_packed_contracts_agree_on_offsets_within_a_segment():
    lengths = [4, 1, 6]
    seg = packed_segment_ids(lengths)
    ids = {c: packed_position_ids(lengths, c, source_offsets=[7, 0, 50]) for c in PACK_CONTRACTS}
    for k in range(len(lengths)):
        rel = [ids[c][seg == k] - ids[c][seg == k][0] for c in PACK_CONTRACTS]
        assert all(torch.equal(rel[0], r) for r in rel)
    # reset equals the mask-derived ids of each segment run alone
    assert ids["reset"].tolist() == sum((list(range(n)) for n in lengths), [])


@pytest.mark.parametrize("args, kw, name", [
    (([3, 5], "pack"), {}, "contract"),
    (([], "global"), {}, "segment_lengths"),
    (([0, 2], "reset"), {}, "segment_lengths"),
    (("abc", "reset"), {}, "segment_lengths"),
    (([3, 5], "source"), {}, "source_offsets"),
    (([3, 5], "source"), {"source_offsets": [0]}, "source_offsets"),
    (([3, 5], "source"), {"source_offsets": [0, -1]}, "source_offsets"),
    (([8000, 8000], "global"), {}, "segment_lengths"),
])
def test_packed_invalid_input(args, kw, name):
    with pytest.raises(ValueError, match=name):
        packed_position_ids(*args, **kw)


def test_errors_are_coded():
    from posviz import text

    for call, code in ((lambda: position_ids_from_mask([[0, 2, 1]]), "lab.binary"),
                       (lambda: position_ids_from_mask([[0.0, 1.0]]), "lab.integer_tensor"),
                       (lambda: make_position_ids("modulo", torch.ones(1, 3, dtype=torch.long)), "lab.needs"),
                       (lambda: make_position_ids("token_ids", torch.ones(1, 3, dtype=torch.long),
                                                  torch.ones(1, 4, dtype=torch.long)), "lab.same_shape"),
                       (lambda: packed_position_ids([3, 5], "source", source_offsets=[0]), "lab.one_per_segment"),
                       (lambda: packed_position_ids("abc", "reset"), "lab.int_list"),
                       (lambda: packed_segment_ids([0, 2]), "range")):
        with pytest.raises(ValueError) as e:
            call()
        assert e.value.code == code and text.has(f"err.{code}")
        assert e.value.message("zh") != str(e.value)
