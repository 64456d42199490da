"""posviz.pe.cope against the paper's equations (Golovneva et al. 2024, §3) and hand-counted sentences."""
import pytest
import torch

from posviz.pe import cope
from posviz.validate import PosvizError


def test_open_gates_give_plain_relative_positions():
    """All gates 1: p_ij = i - j + 1 on and below the diagonal, 0 above (future keys: gate 0)."""
    p = cope.cope_positions(torch.full((6, 6), 60.0))
    i, j = torch.arange(6)[:, None], torch.arange(6)[None, :]
    torch.testing.assert_close(p, torch.where(j <= i, i - j + 1, 0).float())


def test_the_sum_runs_from_the_key_to_the_query():
    """p_ij = sum_{t=j..i} sigmoid(z_it), by a plain loop; right-aligned queries (L < S) included."""
    z = torch.randn(3, 5, generator=torch.Generator().manual_seed(0))
    p = cope.cope_positions(z)
    for r in range(3):
        i = 2 + r
        for j in range(5):
            want = sum(torch.sigmoid(z[r, t]) for t in range(j, i + 1)) if j <= i else 0.0
            assert float(p[r, j]) == pytest.approx(float(want), abs=1e-6)


def test_counting_sentences_by_hand():
    """"a b. c d." counting sentence ends: seen from "d." the keys a, b. are two sentences back (2), c and d. one
    (1); seen from "c": a and b. are 1 back, c itself 0 (it does not count)."""
    toks = ["a", "b.", "c", "d."]
    counted = cope.counted_tokens(toks, "sentences")
    assert counted == [False, True, False, True]
    p = cope.cope_positions(cope.count_gate_logits(counted, sharpness=30.0))
    assert [round(float(v), 4) for v in p[3]] == [2.0, 2.0, 1.0, 1.0]
    assert [round(float(v), 4) for v in p[2, :3]] == [1.0, 1.0, 0.0]
    assert cope.counted_tokens(["The", "cat", "the", "CAT"], "word", "cat") == [False, True, False, True]
    assert cope.counted_tokens(["The", "cat", "sat.", "Sat,"], "word", " sat ") == [False, False, True, True]
    assert cope.counted_tokens(["a.", "。", "。"], "word", "。") == [False, True, True]   # punctuation as the word
    assert cope.counted_tokens(["a", ".", "b"], "word", "  ") == [False, False, False]   # no word, nothing counts
    assert cope.counted_tokens(["猫", "坐", "。"], "sentences") == [False, False, True]
    assert cope.counted_tokens(["x", "y"], "tokens") == [True, True]


def test_fractional_positions_interpolate_between_integer_embeddings():
    """q . e[1.25] = 0.25 q . e[2] + 0.75 q . e[1]; integer positions read their own column."""
    q = torch.tensor([[1.0, 2.0]])                                           # [L=1, d=2]
    e = torch.tensor([[0.0, 1.0, 3.0], [0.0, 2.0, 1.0]])                     # [d, P=3]: q.e = [0, 5, 5]... per column
    at = (q @ e)[0]                                                          # [0, 5, 5]
    out = cope.cope_position_logits(q, torch.tensor([[1.25, 2.0, 0.5]]), e)
    assert out.tolist() == [[0.25 * float(at[2]) + 0.75 * float(at[1]), float(at[2]), 0.5 * float(at[1])]]


def test_sharpness_zero_gives_half_gates_and_bad_input_is_refused():
    p = cope.cope_positions(cope.count_gate_logits([True, False, True], sharpness=0.0))
    assert [float(v) for v in p[2]] == [1.5, 1.0, 0.5]
    with pytest.raises(PosvizError):
        cope.count_gate_logits([True], sharpness=-1.0)
    with pytest.raises(PosvizError) as e:
        cope.cope_positions(torch.zeros(4, 3))
    assert e.value.code == "cope_shape"
    with pytest.raises(PosvizError):
        cope.counted_tokens(["a"], "letters")
