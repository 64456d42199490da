"""posviz.pe.transformer_xl: the four terms equal transformers' XLNet relative attention (the scheme Transformer-XL
introduced; transformers no longer ships Transformer-XL itself) on random weights, the relative shift on a hand
example, and the counts of what it costs."""
import pytest
import torch
from transformers import XLNetConfig, XLNetModel

from posviz.pe import transformer_xl as X
from posviz.validate import PosvizError


def _xlnet(d_model=16, n_head=2, seed=0):
    torch.manual_seed(seed)
    model = XLNetModel(XLNetConfig(d_model=d_model, n_head=n_head, d_inner=32, n_layer=1, attn_type="bi",
                                   vocab_size=10)).eval()
    att = model.layer[0].rel_attn
    with torch.no_grad():
        for p in att.parameters():
            p.normal_()
    return model, att


def _xlnet_scores(model, att, h_all, memory_length, monkeypatch):
    """XLNet's pre-softmax scores (ac + bd) * scale of rel_attn_core, captured at its softmax -> [H,L,S]."""
    lq = h_all.shape[0] - memory_length
    cat = h_all[:, None]                                                 # [S,1,D] (memory, then the segment)
    q = torch.einsum("ibh,hnd->ibnd", cat[memory_length:], att.q)
    k = torch.einsum("ibh,hnd->ibnd", cat, att.k)
    v = torch.einsum("ibh,hnd->ibnd", cat, att.v)
    k_r = torch.einsum("ibh,hnd->ibnd", model.relative_positional_encoding(lq, h_all.shape[0], bsz=1), att.r)
    seen = {}
    softmax = torch.nn.functional.softmax

    def spy(x, dim=None, **kw):
        seen["scores"] = x.detach().clone()
        return softmax(x, dim=dim, **kw)

    monkeypatch.setattr(torch.nn.functional, "softmax", spy)
    with torch.no_grad():
        att.rel_attn_core(q, k, v, k_r)
    return seen["scores"][0]


@pytest.mark.parametrize("segment, memory", [(5, 3), (1, 6), (7, 0)])
def test_the_four_terms_equal_xlnets_relative_attention(segment, memory, monkeypatch):
    """u = r_w_bias, v = r_r_bias, W_kE = k, W_kR = r: (a)+(c) = (q+u).k and (b)+(d) = (q+v).W_R R, scaled by
    1/sqrt(d_head), on every cell (XLNet is bidirectional: the future cells are scores too)."""
    model, att = _xlnet()
    h = torch.randn(segment + memory, 16, generator=torch.Generator().manual_seed(1))
    ref = _xlnet_scores(model, att, h, memory, monkeypatch)
    params = dict(w_q=att.q.detach(), w_ke=att.k.detach(), w_kr=att.r.detach(), u=att.r_w_bias.detach(),
                  v=att.r_r_bias.detach())
    terms = X.xl_terms(h, memory_length=memory, **params)
    ours = X.xl_score(terms, head_dim=8, causal=False)
    assert ours.shape == ref.shape == (2, segment, segment + memory)
    torch.testing.assert_close(ours, ref, rtol=1e-5, atol=1e-5 * float(ref.abs().max()))


def test_the_sinusoid_of_a_distance_is_xlnets():
    model, _ = _xlnet(d_model=16)
    ref = model.relative_positional_encoding(4, 9, bsz=None)[:, 0]        # distances 9, 8, ..., -3
    ours = X.xl_relative_encoding(torch.arange(9, -4, -1), 16)
    torch.testing.assert_close(ours, ref, rtol=0, atol=1e-6)
    assert X.xl_relative_encoding(torch.tensor([0]), 4).tolist() == [[0.0, 0.0, 1.0, 1.0]]


def test_rel_shift_on_a_hand_example():
    """L = 2 queries, S = 3 keys (memory 1): query 0 sits at position 1. Column c of the input scores distance
    S - 1 - c = 2, 1, 0. After the shift query 0 reads distances 1, 0 (its keys 0, 1), then the pad; query 1 reads
    distances 2, 1, 0."""
    x = torch.tensor([[10.0, 11.0, 12.0], [20.0, 21.0, 22.0]])
    assert X.rel_shift(x).tolist() == [[11.0, 12.0, 0.0], [20.0, 21.0, 22.0]]
    assert X.xl_distances(2, 1).tolist() == [[1, 0, -1], [2, 1, 0]]


@pytest.mark.parametrize("segment, memory", [(4, 3), (6, 0), (1, 5), (9, 9)])
def test_the_shift_equals_the_gathered_position_terms_where_the_mask_lets_them_through(segment, memory):
    w = X.xl_random_weights(32, 2, 8, segment + memory, seed=3)
    terms = X.xl_terms(w["h"], memory_length=memory, w_q=w["w_q"], w_ke=w["w_ke"], w_kr=w["w_kr"], u=w["u"], v=w["v"])
    fast = X.xl_position_scores(w["h"], memory_length=memory, w_q=w["w_q"], w_kr=w["w_kr"], v=w["v"])
    causal = X.xl_distances(segment, memory) >= 0
    gathered = terms["cp"] + terms["gp"]
    torch.testing.assert_close(fast["shifted"][:, causal], gathered[:, causal], rtol=1e-5, atol=1e-5)
    junk = ~causal
    assert int(junk.sum()) == X.rel_shift_costs(segment, memory, 8)["junk"] == segment * (segment - 1) // 2
    if segment > 1:   # the first cell past the diagonal holds the pad, the others the next row's numbers
        assert fast["shifted"][:, 0, memory + 1].abs().max() == 0
        assert not torch.allclose(fast["shifted"][:, junk], gathered[:, junk])


def test_the_global_position_term_alone_depends_on_the_distance_only():
    """(d) = v . W_R R_{i-j}: constant along every diagonal (a Toeplitz matrix); (a) is not."""
    w = X.xl_random_weights(32, 1, 16, 12, seed=0)
    t = X.xl_terms(w["h"], memory_length=4, w_q=w["w_q"], w_ke=w["w_ke"], w_kr=w["w_kr"], u=w["u"], v=w["v"])
    d = X.xl_distances(8, 4)
    for term, toeplitz in (("gp", True), ("cc", False)):
        same = all(torch.allclose(t[term][0][d == k], t[term][0][d == k][0].expand(int((d == k).sum())), atol=1e-6)
                   for k in range(-7, 12))
        assert same is toeplitz, term
    gc = t["gc"][0]                                   # (c) = u . k_j: one value per key, the same for every query
    assert torch.equal(gc, gc[:1].expand_as(gc))


def test_the_score_sums_the_kept_terms_and_masks_the_future():
    w = X.xl_random_weights(16, 1, 8, 6, seed=2)
    t = X.xl_terms(w["h"], memory_length=2, w_q=w["w_q"], w_ke=w["w_ke"], w_kr=w["w_kr"], u=w["u"], v=w["v"])
    s = X.xl_score(t, ("cc", "gp"), head_dim=8)
    future = X.xl_distances(4, 2) < 0
    assert torch.isinf(s[0][future]).all() and (s[0][future] < 0).all()
    torch.testing.assert_close(s[0][~future], ((t["cc"] + t["gp"])[0] / 8 ** 0.5)[~future])
    assert torch.equal(X.xl_score(t, (), head_dim=8, causal=False), torch.zeros_like(t["cc"]))


def test_costs_by_hand():
    """L = 4, M = 12 (S = 16), d = 16: gathered keys 4*16*16, one key per distance 16*16, the shift copies 4*17."""
    assert X.rel_shift_costs(4, 12, 16) == {"gather_keys": 1024, "shift_keys": 256, "madds": 1024, "shift_copy": 68,
                                            "junk": 6, "bidir_keys": 320}


def test_bad_input_is_refused_with_a_coded_error():
    w = X.xl_random_weights(16, 1, 8, 5)
    with pytest.raises(PosvizError) as e:
        X.xl_terms(w["h"], memory_length=2, w_q=w["w_q"][:8], w_ke=w["w_ke"], w_kr=w["w_kr"], u=w["u"], v=w["v"])
    assert e.value.code == "xl_shapes"
    with pytest.raises(PosvizError) as e:
        X.rel_shift(torch.zeros(5, 3))
    assert e.value.code == "xl_shift_shape"
    with pytest.raises(PosvizError):
        X.xl_distances(0, 3)
    with pytest.raises(PosvizError):
        X.xl_score({t: torch.zeros(1, 2, 2) for t in X.TERMS}, ("zz",), head_dim=4)
