"""posviz.pe.deberta: the log buckets and the three terms equal transformers' DebertaV2 on random weights; the
buckets' worked numbers by hand."""
import math

import pytest
import torch
from transformers import DebertaV2Config
from transformers.models.deberta_v2 import modeling_deberta_v2 as M

from posviz.pe import deberta as D
from posviz.validate import PosvizError


@pytest.mark.parametrize("k, top", [(8, 64), (256, 512), (16, 40), (4, 10), (64, 8192)])
def test_log_buckets_equal_transformers(k, top):
    rel = torch.arange(-3 * top, 3 * top + 1)
    ref = M.make_log_bucket_position(rel, k, top).long()
    assert torch.equal(D.deberta_log_bucket(rel, bucket_size=k, max_position=top), ref)


def test_log_buckets_by_hand():
    """k = 8 (m = 4), P = 64: |d| <= 4 exact; 5 -> 4 + ceil(ln(5/4) / ln(63/4) * 3) = 4 + ceil(0.243) = 5;
    63 -> 4 + 3 = 7 (the last row k - 1 reached at P - 1); 2000 -> 4 + ceil(ln 500 / ln 15.75 * 3) = 4 + 7 = 11."""
    b = D.deberta_log_bucket(torch.tensor([0, 3, 4, 5, -5, 63, 2000]), bucket_size=8, max_position=64).tolist()
    assert b == [0, 3, 4, 5, -5, 7, 4 + math.ceil(math.log(500) / math.log(15.75) * 3)] == [0, 3, 4, 5, -5, 7, 11]
    idx = D.deberta_relative_index(70, bucket_size=8, max_position=64)
    assert idx["index"].min() == 0 and idx["index"].max() == 15          # rows 0 .. 2k-1: far distances clipped
    # d = 69: 4 + ceil(ln(69/4) / ln 15.75 * 3) = 4 + ceil(3.10) = 8, past the table: row 8 + 8 clipped to 15
    assert idx["bucket"][69, 0] == 8 and idx["index"][69, 0] == 15 and idx["index"][0, 69] == 0


def _attention(hidden, heads, k, top, weights):
    cfg = DebertaV2Config(hidden_size=hidden, num_attention_heads=heads, relative_attention=True, position_buckets=k,
                          max_relative_positions=top, pos_att_type=["p2c", "c2p"], share_att_key=True,
                          attention_probs_dropout_prob=0.0, hidden_dropout_prob=0.0)
    att = M.DisentangledSelfAttention(cfg).eval()
    with torch.no_grad():
        att.query_proj.weight.copy_(weights["w_q"].T)
        att.query_proj.bias.copy_(weights["b_q"])
        att.key_proj.weight.copy_(weights["w_k"].T)
        att.key_proj.bias.copy_(weights["b_k"])
    return att


@pytest.mark.parametrize("length, k, top", [(20, 8, 32), (40, 16, 64), (7, 256, 512)])
def test_the_three_terms_equal_debertav2s_scores(length, k, top, monkeypatch):
    """The sum of content->content, content->position and position->content is the score DebertaV2's
    DisentangledSelfAttention hands its softmax (captured there), relative positions built by transformers."""
    w = D.deberta_random_weights(32, 4, length, bucket_size=k, seed=3)
    att = _attention(32, 4, k, top, w["weights"])
    seen = {}
    softmax = torch.nn.functional.softmax

    def spy(x, dim=None, **kw):
        seen["scores"] = x.detach().clone()
        return softmax(x, dim=dim, **kw)

    monkeypatch.setattr(M.nn.functional, "softmax", spy)
    probe = torch.zeros(1, length, 8)
    rel = M.build_relative_position(probe, probe, bucket_size=k, max_position=top)
    with torch.no_grad():
        att(w["h"][None], torch.ones(1, 1, length, length), relative_pos=rel, rel_embeddings=w["rel_embeddings"])
    t = D.deberta_terms(w["h"], w["rel_embeddings"], w["weights"], heads=4, bucket_size=k, max_position=top)
    ours = t["c2c"] + t["c2p"] + t["p2c"]
    torch.testing.assert_close(ours, seen["scores"][0], rtol=1e-5, atol=1e-5 * float(ours.abs().max()))


def test_content_to_content_has_no_position_and_the_position_terms_follow_the_buckets():
    w = D.deberta_random_weights(16, 2, 12, bucket_size=4, seed=0)
    t = D.deberta_terms(w["h"], w["rel_embeddings"], w["weights"], heads=2, bucket_size=4, max_position=16)
    wq, bq, wk, bk = (w["weights"][n] for n in ("w_q", "b_q", "w_k", "b_k"))
    q = (w["h"] @ wq + bq).reshape(12, 2, 8).transpose(0, 1)
    kk = (w["h"] @ wk + bk).reshape(12, 2, 8).transpose(0, 1)
    torch.testing.assert_close(t["c2c"], q @ kk.transpose(-1, -2) / math.sqrt(8 * 3))
    # content->position of query 5 against key 2 (d = 3 > k/2 = 2: bucket 3 here) reads row 3 + 4 = 7 of P
    b = D.deberta_log_bucket(torch.tensor(3), bucket_size=4, max_position=16)
    k_r = ((w["rel_embeddings"] @ wk + bk)[4 + int(b)]).reshape(2, 8)
    torch.testing.assert_close(t["c2p"][:, 5, 2], (q[:, 5] * k_r).sum(-1) / math.sqrt(24))


def test_bad_input_is_refused():
    with pytest.raises(PosvizError):
        D.deberta_log_bucket(torch.tensor([1]), bucket_size=7, max_position=64)     # odd k
    w = D.deberta_random_weights(16, 2, 5, bucket_size=8)
    with pytest.raises(PosvizError) as e:
        D.deberta_terms(w["h"], w["rel_embeddings"][:8], w["weights"], heads=2, bucket_size=8, max_position=16)
    assert e.value.code == "deberta_shapes"
