"""posviz.lab.loss (issue 33 item 17): pad labels in the loss. The labels by hand, the loss against a cross-entropy
written out, and the claim: ignored, the pad labels leave the loss where it is for any number of pads; kept, the
loss moves with the pads alone."""
import math

import pytest
import torch

from posviz.lab import loss, toy_model
from posviz.lab.tokens import encode


def test_labels_by_hand():
    ids = torch.tensor([[0, 0, 5, 6, 7], [5, 6, 7, 0, 0]])
    mask = (ids != 0).long()
    assert loss.next_token_labels(ids, mask, ignore_pads=True).tolist() == [[-100, -100, 6, 7, -100],
                                                                             [6, 7, -100, -100, -100]]
    assert loss.next_token_labels(ids, mask, ignore_pads=False).tolist() == [[0, 5, 6, 7, -100], [6, 7, 0, 0, -100]]


def test_the_loss_is_the_mean_of_the_counted_positions():
    row = encode(["the cat sat on the mat"])
    ids = loss.padded(row.token_ids, 3, "right")
    mask = (ids != 0).long()
    model = toy_model.build_model("rope", max_length=ids.shape[1])
    pos = mask.cumsum(-1).sub(1).clamp_min(0)
    logits = toy_model.forward(model, ids, mask, pos, causal=True).output @ model.embed.T   # [1,L,V]
    for ignore in (True, False):
        labels = loss.next_token_labels(ids, mask, ignore_pads=ignore)[0].tolist()
        terms = [-torch.log_softmax(logits[0, t], -1)[y].item() for t, y in enumerate(labels) if y != -100]
        assert loss.next_token_loss(model, ids, mask, ignore_pads=ignore) == pytest.approx(sum(terms) / len(terms),
                                                                                          rel=1e-6)


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("method", toy_model.POSITION_METHODS)
def test_ignored_pad_labels_keep_the_loss_kept_ones_move_it(method, side):
    r = loss.pad_loss_curve("猫 追 狗 跑 了", method=method, padding_side=side, max_pads=6)
    assert max(r["ignored"]) - min(r["ignored"]) < 1e-5
    assert max(r["kept"]) - min(r["kept"]) > 0.01
    assert r["ignored"][0] == r["kept"][0] and all(math.isfinite(x) for x in r["kept"])
