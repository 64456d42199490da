"""posviz.pe.relative: hand values, properties, and agreement with the reference implementations
(Hugging Face T5Attention._relative_position_bucket; the ALiBi paper's get_slopes)."""
import math
import random

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from posviz.pe import relative as R
from posviz.validate import PosvizError


# ---------------------------------------------------------------- reference: ALiBi get_slopes
def official_get_slopes(n):
    """Re-written from ofirpress/attention_with_linear_biases, fairseq/models/transformer.py
    (TransformerDecoder.__init__): recursive, python floats, then torch.Tensor (float32)."""
    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return get_slopes_power_of_2(closest_power_of_2) + official_get_slopes(2 * closest_power_of_2)[0::2][
        : n - closest_power_of_2]


def hf_bucket(rel, **kw):
    from transformers.models.t5.modeling_t5 import T5Attention

    return T5Attention._relative_position_bucket(rel, **kw)


# ---------------------------------------------------------------- distance
def test_relative_distance_hand():
    assert R.relative_distance(3).tolist() == [[0, -1, -2], [1, 0, -1], [2, 1, 0]]
    assert R.relative_distance(3).dtype == torch.long


def test_relative_distance_right_aligned_decode():
    # 2 new queries over 5 keys: the queries are positions 3 and 4
    assert R.relative_distance(2, 5).tolist() == [[3, 2, 1, 0, -1], [4, 3, 2, 1, 0]]
    assert R.query_positions(2, 5).tolist() == [3, 4]
    # the decode rows are the last rows of the full matrix
    assert torch.equal(R.relative_distance(2, 5), R.relative_distance(5)[-2:])


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(0, 40), st.integers(0, 1000))
def test_distance_toeplitz_and_shift_invariant(L, past, shift):
    S = L + past
    d = R.relative_distance(L, S)
    assert d.shape == (L, S)
    if L > 1 and S > 1:
        assert torch.equal(d[1:, 1:], d[:-1, :-1])             # constant along every diagonal
    i, j = R.shifted_positions(L, S, shift=shift)
    assert i[0].item() == S - L + shift and j[0].item() == shift
    assert torch.equal(R.distance_from_positions(i, j), d)     # a common shift changes nothing
    # the diagonal of the query rows is 0
    assert (d[torch.arange(L), torch.arange(S - L, S)] == 0).all()


# ---------------------------------------------------------------- causal mask / NoPE
def test_causal_mask_and_uniform_attention():
    assert R.causal_mask(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]
    assert R.causal_mask(1, 4).tolist() == [[True, True, True, True]]   # decode: sees the whole cache
    a = R.nope_uniform_attention(4)
    for i in range(4):
        assert torch.allclose(a[i, : i + 1], torch.full((i + 1,), 1 / (i + 1)))
        assert (a[i, i + 1:] == 0).all()
    assert torch.allclose(a.sum(-1), torch.ones(4))
    # decode rows equal the last rows of the full causal computation
    assert torch.allclose(R.nope_uniform_attention(2, 6), R.nope_uniform_attention(6)[-2:])


# ---------------------------------------------------------------- Shaw
def test_shaw_index_k2_hand():
    assert R.shaw_relative_index(5, max_distance=2).tolist() == [
        [2, 3, 4, 4, 4],
        [1, 2, 3, 4, 4],
        [0, 1, 2, 3, 4],
        [0, 0, 1, 2, 3],
        [0, 0, 0, 1, 2],
    ]
    assert R.shaw_lost_distance(5, max_distance=2).tolist() == [
        [0, 0, 0, 1, 2],
        [0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0],
        [1, 0, 0, 0, 0],
        [2, 1, 0, 0, 0],
    ]
    s = R.shaw_summary(5, max_distance=2)
    assert s == dict(rows=5, pairs=25, clipped=6, distinct=9, rows_used=5)


@pytest.mark.parametrize("L,S,k", [(1, 1, 0), (4, 9, 0), (6, 6, 3), (3, 20, 5), (12, 12, 64)])
def test_shaw_properties(L, S, k):
    idx = R.shaw_relative_index(L, S, max_distance=k)
    d = R.relative_distance(L, S)
    assert idx.min() >= 0 and idx.max() <= 2 * k
    assert torch.equal(idx, (-d).clamp(-k, k) + k)              # clamp(j - i, -k, k) + k
    assert torch.equal(R.shaw_clipped_distance(L, S, max_distance=k), k - idx)
    inside = d.abs() <= k
    assert torch.equal(idx[inside], (k - d)[inside])           # exact within k
    assert torch.equal(R.shaw_lost_distance(L, S, max_distance=k), (d.abs() - k).clamp_min(0))


# ---------------------------------------------------------------- T5
def test_t5_hand_values_bidirectional():
    def b(rel):                                                # nb=32, md=128
        return R.t5_relative_position_bucket(torch.tensor(rel)).item()

    assert b(0) == 0
    assert b(-1) == 1 and b(-7) == 7                           # key before query: exact 1..7
    assert b(1) == 17 and b(7) == 23                           # key after query: upper half
    # log region: 8 + floor(log(n/8)/log(16) * 8)
    for n in (8, 12, 16, 23, 64, 90, 91, 127):
        assert b(-n) == min(8 + int(math.log(n / 8) / math.log(128 / 8) * 8), 15)
    assert b(-8) == 8 and b(-12) == 9 and b(-91) == 15 and b(-5000) == 15 and b(5000) == 31


def test_t5_hand_values_causal():
    b = lambda rel: R.t5_relative_position_bucket(torch.tensor(rel), bidirectional=False).item()  # noqa: E731
    assert b(3) == 0 and b(1000) == 0                          # future keys: bucket 0
    assert b(-3) == 3 and b(-15) == 15
    assert b(-16) == 16 and b(-20) == 16 + int(math.log(20 / 16) / math.log(8) * 16) == 17
    assert b(-128) == 31 and b(-4000) == 31


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_bucket_range(bidirectional):
    rel = torch.arange(-3000, 3001)
    for nb, md in [(32, 128), (16, 32), (8, 5), (64, 1000), (4, 2), (33, 9)]:
        if md <= R.t5_max_exact(bidirectional=bidirectional, num_buckets=nb):
            continue
        b = R.t5_relative_position_bucket(rel, bidirectional=bidirectional, num_buckets=nb, max_distance=md)
        assert b.min() >= 0 and b.max() < nb


def test_t5_matches_hugging_face_random():
    rng = random.Random(1234)
    rel = torch.arange(-5000, 5001)
    for _ in range(150):
        bidirectional = rng.random() < 0.5
        nb = rng.randint(4 if bidirectional else 2, 300)
        me = R.t5_max_exact(bidirectional=bidirectional, num_buckets=nb)
        md = rng.choice([me + 1, me + 2, rng.randint(me + 1, 6000)])
        kw = dict(bidirectional=bidirectional, num_buckets=nb, max_distance=md)
        assert torch.equal(R.t5_relative_position_bucket(rel, **kw), hf_bucket(rel, **kw)), kw


@pytest.mark.parametrize("L,S", [(7, 7), (1, 50), (5, 300)])
@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_matrix_matches_hf_compute_bias_layout(L, S, bidirectional):
    # HF compute_bias: context = arange(L) + past_seen_tokens, memory = arange(S), rel = memory - context
    past = S - L
    rel = torch.arange(S)[None, :] - (torch.arange(L)[:, None] + past)
    kw = dict(bidirectional=bidirectional, num_buckets=32, max_distance=128)
    assert torch.equal(R.t5_bucket_matrix(L, S, **kw), hf_bucket(rel, **kw))


@pytest.mark.parametrize("bidirectional,nb,md", [(True, 32, 128), (False, 32, 128), (True, 16, 32),
                                                 (True, 32, 10), (False, 8, 5), (True, 128, 1024)])
def test_t5_bucket_ranges_cover_every_distance(bidirectional, nb, md):
    rows = R.t5_bucket_ranges(bidirectional=bidirectional, num_buckets=nb, max_distance=md)
    assert [r["bucket"] for r in rows] == list(range(nb))
    d = torch.arange(-3 * md, 3 * md + 1)                      # i - j
    b = R.t5_relative_position_bucket(-d, bidirectional=bidirectional, num_buckets=nb, max_distance=md)
    for dv, bv in zip(d.tolist(), b.tolist()):
        r = rows[bv]
        assert r["count"] != 0
        assert (r["lo"] is None or r["lo"] <= dv) and (r["hi"] is None or dv <= r["hi"]), (dv, r)
    for r in rows:                                             # finite counts are exact
        if r["count"]:
            inside = ((d >= r["lo"]) & (d <= r["hi"])).sum().item()
            assert inside == r["count"]
    me = R.t5_max_exact(bidirectional=bidirectional, num_buckets=nb)
    assert [r["region"] for r in rows[:me]] == ["exact"] * me
    if bidirectional:
        assert rows[nb // 2]["count"] == 0                     # 'distance 0 after the query' never occurs


def test_t5_bucket_ranges_hand_t5_default():
    rows = R.t5_bucket_ranges()                                # T5: 32 buckets, 128
    assert (rows[8]["lo"], rows[8]["hi"]) == (8, 11)
    assert (rows[15]["lo"], rows[15]["hi"]) == (91, None)      # the last bucket starts well before 128
    assert (rows[31]["lo"], rows[31]["hi"]) == (None, -91)
    causal = R.t5_bucket_ranges(bidirectional=False)
    assert (causal[0]["lo"], causal[0]["hi"]) == (None, 0)     # future keys share bucket 0 with d = 0


@pytest.mark.parametrize("bidirectional,nb,md", [(True, 32, 128), (False, 32, 128), (True, 16, 32), (False, 8, 5)])
def test_t5_representative_distance(bidirectional, nb, md):
    kw = dict(bidirectional=bidirectional, num_buckets=nb, max_distance=md)
    L, S = 20, 200
    rep = R.t5_representative_distance(L, S, **kw)
    d = R.relative_distance(L, S)
    assert (rep.abs() <= d.abs()).all()
    b_rep = R.t5_relative_position_bucket(-rep, **kw)
    b = R.t5_bucket_matrix(L, S, **kw)
    assert torch.equal(b_rep, b)                               # same bucket: indistinguishable to T5
    me = R.t5_max_exact(bidirectional=bidirectional, num_buckets=nb)
    exact = d.abs() < me if bidirectional else (d >= 0) & (d < me)
    assert torch.equal(rep[exact], d[exact])


def test_t5_curve():
    d, b = R.t5_bucket_curve(num_buckets=32, max_distance=128)
    assert d[0].item() == -160 and d[-1].item() == 160
    assert torch.equal(b, hf_bucket(-d, bidirectional=True, num_buckets=32, max_distance=128))


# ---------------------------------------------------------------- ALiBi
def test_alibi_slopes_hand_8_heads():
    assert R.alibi_slopes(8).tolist() == [1 / 2**h for h in range(1, 9)]


def test_alibi_slopes_hand_non_power_of_two():
    # 12 heads: the 8 slopes 2^-1..2^-8, then every other slope of 16 heads (2^-0.5h): h = 1, 3, 5, 7
    want = [2.0**-h for h in range(1, 9)] + [2.0 ** (-0.5 * h) for h in (1, 3, 5, 7)]
    assert torch.equal(R.alibi_slopes(12), torch.tensor(want, dtype=torch.float32))
    # 6 heads: 2^-2h for h = 1..4, then 2^-1 and 2^-3
    want6 = [2.0 ** (-2 * h) for h in range(1, 5)] + [2.0**-1, 2.0**-3]
    assert torch.equal(R.alibi_slopes(6), torch.tensor(want6, dtype=torch.float32))
    assert R.alibi_slopes(1).tolist() == [2.0**-8]


@pytest.mark.parametrize("n", list(range(1, 129)))
def test_alibi_slopes_equal_official(n):
    got = R.alibi_slopes(n)
    assert got.dtype == torch.float32 and got.shape == (n,)
    assert torch.equal(got, torch.Tensor(official_get_slopes(n)))


def test_alibi_base_heads():
    assert [R.alibi_base_heads(n) for n in (1, 2, 3, 6, 8, 12, 20, 40, 96, 128)] == [1, 2, 2, 4, 8, 8, 16, 32, 64, 128]


@pytest.mark.parametrize("H,L,S", [(8, 6, 6), (12, 3, 10), (20, 1, 7), (96, 4, 4)])
def test_alibi_bias(H, L, S):
    bias = R.alibi_bias(H, L, S)
    assert bias.shape == (H, L, S) and bias.dtype == torch.float32
    m = torch.Tensor(official_get_slopes(H))
    d = R.relative_distance(L, S).abs().float()
    assert torch.equal(bias, -m[:, None, None] * d)
    if L > 1:
        assert torch.equal(bias[:, 1:, 1:], bias[:, :-1, :-1])   # shift invariant along diagonals
    assert (bias <= 0).all()
    assert not torch.signbit(bias[bias == 0]).any()             # 0, not -0.0, on the diagonal
    for h in (1, H):
        assert torch.equal(R.alibi_head_bias(H, h, L, S), bias[h - 1])


def test_alibi_causal_equivalent_to_official_row_constant_bias():
    # the official code adds m*j (same for every row); under the causal mask the softmax is identical
    H, L = 8, 7
    scores = torch.randn(H, L, L)
    mask = R.causal_mask(L)
    m = R.alibi_slopes(H)
    ours = (scores + R.alibi_bias(H, L)).masked_fill(~mask, float("-inf")).softmax(-1)
    official = (scores + m[:, None, None] * torch.arange(L)[None, None, :]).masked_fill(~mask, float("-inf"))
    official = official.softmax(-1)
    assert torch.allclose(ours, official, atol=1e-6)


# ---------------------------------------------------------------- invalid input
@pytest.mark.parametrize("call,name", [
    (lambda: R.relative_distance(0), "query_length"),
    (lambda: R.relative_distance(-3), "query_length"),
    (lambda: R.relative_distance("abc"), "query_length"),
    (lambda: R.relative_distance(1e308), "query_length"),
    (lambda: R.relative_distance(2.5), "query_length"),
    (lambda: R.relative_distance(5, 3), "query_length"),
    (lambda: R.relative_distance(3, 0), "key_length"),
    (lambda: R.relative_distance(10**6), "query_length"),
    (lambda: R.causal_mask(4, 2), "query_length"),
    (lambda: R.shaw_relative_index(4, max_distance=-1), "max_distance"),
    (lambda: R.shaw_lost_distance(4, max_distance="x"), "max_distance"),
    (lambda: R.alibi_slopes(0), "num_heads"),
    (lambda: R.alibi_slopes(129), "num_heads"),
    (lambda: R.alibi_bias(0, 4), "num_heads"),
    (lambda: R.alibi_head_bias(8, 9, 4), "head"),
    (lambda: R.alibi_head_bias(8, 0, 4), "head"),
    (lambda: R.t5_bucket_matrix(4, num_buckets=2), "num_buckets"),
    (lambda: R.t5_bucket_matrix(4, bidirectional=False, num_buckets=1), "num_buckets"),
    (lambda: R.t5_bucket_matrix(4, num_buckets=32, max_distance=8), "max_distance"),
    (lambda: R.t5_bucket_matrix(4, max_distance=-1), "max_distance"),
    (lambda: R.t5_bucket_matrix(4, bidirectional="yes"), "bidirectional"),
    (lambda: R.t5_bucket_ranges(num_buckets=5000), "num_buckets"),
    (lambda: R.shifted_positions(3, shift=-1), "shift"),
    (lambda: R.distance_from_positions([], [1]), "query_pos"),
])
def test_invalid_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_scene_claims_hold():
    # the numbers the scenes of the page say out loud
    rows = R.t5_bucket_ranges(bidirectional=True, num_buckets=16, max_distance=32)
    assert R.t5_max_exact(bidirectional=True, num_buckets=16) == 4
    assert rows[7]["lo"] == 20 and rows[7]["hi"] is None                 # "from distance 20 on"
    assert R.shaw_summary(12, max_distance=2)["pairs"] == 144
    assert R.shaw_summary(12, max_distance=2)["rows_used"] == 5
    assert R.query_positions(4, 32).tolist() == [28, 29, 30, 31]
    causal = R.t5_bucket_ranges(bidirectional=False)
    assert all(r["side"] == "past" for r in causal)


def test_t5_bucket_ranges_large_max_distance_fast():
    import time

    t = time.time()
    rows = R.t5_bucket_ranges(bidirectional=True, num_buckets=1024, max_distance=10**6)
    assert time.time() - t < 5
    assert len(rows) == 1024


@pytest.mark.parametrize("call,code", [
    (lambda: R.relative_distance(5, 3), "rel_query_length"),
    (lambda: R.t5_bucket_matrix(4, num_buckets=32, max_distance=8), "rel_t5_max_distance"),
    (lambda: R.distance_from_positions([], [1]), "rel_positions"),
    (lambda: R.distance_from_positions([[1, 2]], [1]), "rel_positions"),
    (lambda: R.t5_relative_position_bucket(object()), "tensor"),
    (lambda: R.alibi_slopes(0), "range"),
])
def test_errors_are_coded_and_speak_chinese(call, code):
    with pytest.raises(PosvizError) as e:
        call()
    assert e.value.code == code
    zh = e.value.message("zh")
    assert zh != e.value.message("en") and any("\u4e00" <= ch <= "\u9fff" for ch in zh)
