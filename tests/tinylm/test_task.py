"""posviz.tinylm.task: the copy-with-offset task and its deterministic generator."""
import pytest
import torch

from posviz.tinylm.task import BOS, IGNORE, answer_mask, make_batch, make_marker_batch
from posviz.validate import PosvizError


def test_targets_are_the_token_k_back():
    x, y = make_batch(4, 20, vocab_size=10, offset=3, seed=1)
    assert x.shape == y.shape == (4, 20)
    assert (x[:, 0] == BOS).all()
    assert ((x[:, 1:] >= 1) & (x[:, 1:] < 10)).all()
    assert (y[:, :3] == IGNORE).all()
    assert torch.equal(y[:, 3:], x[:, :-3])


def test_hand_example():
    # offset 2: the answer at position i is the token at i-2
    x, y = make_batch(1, 6, vocab_size=5, offset=2, seed=0)
    for i in range(6):
        assert int(y[0, i]) == (IGNORE if i < 2 else int(x[0, i - 2]))


def test_deterministic_and_seed_dependent():
    a = make_batch(8, 64, seed=5)
    b = make_batch(8, 64, seed=5)
    c = make_batch(8, 64, seed=6)
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
    assert not torch.equal(a[0], c[0])


def test_longer_than_training():
    x, y = make_batch(2, 512, seed=3)
    assert x.shape == (2, 512)
    assert torch.equal(y[:, 2:], x[:, :-2])
    # roughly uniform content tokens
    counts = torch.bincount(x[:, 1:].reshape(-1), minlength=32)[1:]
    assert counts.min() > 0


def test_answer_mask():
    m = answer_mask(5, 2)
    assert m.tolist() == [False, False, True, True, True]


@pytest.mark.parametrize("kw,name", [(dict(batch_size=0, length=8), "batch_size"),
                                      (dict(batch_size=2, length=1), "length"),
                                      (dict(batch_size=2, length=10**6), "length"),
                                      (dict(batch_size=2, length=8, vocab_size=2), "vocab_size"),
                                      (dict(batch_size=2, length=8, offset=0), "offset"),
                                      (dict(batch_size=2, length=8, offset=8), "offset"),
                                      (dict(batch_size=2, length=8, seed=-1), "seed"),
                                      (dict(batch_size=2.5, length=8), "batch_size")])
def test_invalid(kw, name):
    with pytest.raises(PosvizError, match=name):
        make_batch(**kw)


def test_offset_beyond_the_length_names_the_range():
    with pytest.raises(PosvizError) as e:
        make_batch(2, 8, offset=8)
    assert e.value.code == "range" and (e.value.params["lo"], e.value.params["hi"]) == (1, 7)


# ---------------------------------------------------------------- the marker task (positional shortcut)
def test_marker_batch_by_hand():
    x, y, where = make_marker_batch(3, 20, vocab_size=10, marker_at=5, seed=2)
    assert x.shape == y.shape == (3, 20) and where.tolist() == [5, 5, 5]
    assert (x[:, 0] == BOS).all() and (x[:, 5] == 9).all()
    assert ((x == 9).sum(1) == 1).all()                        # the marker appears once
    rest = torch.cat([x[:, 1:5], x[:, 6:]], 1)
    assert ((rest >= 1) & (rest <= 8)).all()                   # content tokens 1..V-2
    assert (y[:, :7] == IGNORE).all()                          # answers from p + 2 on
    assert torch.equal(y[:, 7:], x[:, 6:7].expand(3, 13))      # the token right after the marker


def test_marker_anywhere_is_deterministic_and_in_range():
    a = make_marker_batch(64, 64, seed=7)
    b = make_marker_batch(64, 64, seed=7)
    assert all(torch.equal(u, v) for u, v in zip(a, b))
    x, y, where = a
    assert where.min() >= 1 and where.max() <= 56 and len(set(where.tolist())) > 20
    for n in range(64):
        p = int(where[n])
        assert int(x[n, p]) == 31 and (y[n, p + 2:] == x[n, p + 1]).all() and (y[n, :p + 2] == IGNORE).all()
    with pytest.raises(ValueError, match="marker_at"):
        make_marker_batch(2, 16, marker_at=14)
