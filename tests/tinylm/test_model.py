"""posviz.tinylm.model: the tiny decoder with a selectable position method."""
import pytest
import torch

from posviz.pe import learned
from posviz.pe.relative import alibi_bias, t5_bucket_matrix
from posviz.pe.rope import rope_inv_freq
from posviz.tinylm.model import TRAINED_METHODS, PositionOutOfRangeError, TinyConfig, TinyLM, build
from posviz.validate import PosvizError

SMALL = dict(d_model=16, n_heads=2, max_length=16, t5_num_buckets=8, t5_max_distance=16)


def model(method, seed=0, **kw):
    torch.manual_seed(seed)
    return TinyLM(TinyConfig(method=method, **{**SMALL, **kw})).eval()


@pytest.mark.parametrize("method", TRAINED_METHODS)
def test_shapes_and_attention_rows(method):
    m = model(method)
    x = torch.randint(0, 32, (3, 12))
    logits, maps = m(x, return_attention=True)
    assert logits.shape == (3, 12, 32)
    assert len(maps) == 2 and maps[0].shape == (3, 2, 12, 12)
    assert torch.allclose(maps[1].sum(-1), torch.ones(3, 2, 12))
    assert (maps[0].triu(1) == 0).all()                   # causal: no weight on future keys


@pytest.mark.parametrize("method", TRAINED_METHODS)
def test_causal(method):
    m = model(method)
    x = torch.randint(0, 32, (2, 12))
    y = x.clone()
    y[:, 8:] = (y[:, 8:] + 1) % 32
    with torch.no_grad():
        assert torch.allclose(m(x)[:, :8], m(y)[:, :8], atol=1e-6)


def test_one_layer_nope_is_blind_to_the_order_of_the_prefix():
    # NoPE: attention is permutation-equivariant (seed 001); with one layer, the last position attends to
    # all tokens with no position signal, so permuting the earlier tokens leaves its output unchanged
    m = model("nope", n_layers=1)
    x = torch.randint(1, 32, (1, 10))
    perm = torch.cat([torch.randperm(9), torch.tensor([9])])
    with torch.no_grad():
        assert torch.allclose(m(x)[0, -1], m(x[:, perm])[0, -1], atol=1e-5)
    # a position method breaks this symmetry
    r = model("sinusoidal", n_layers=1)
    with torch.no_grad():
        assert not torch.allclose(r(x)[0, -1], r(x[:, perm])[0, -1], atol=1e-5)


def test_learned_table_boundary():
    m = model("learned")
    with pytest.raises(PositionOutOfRangeError, match="max_length") as e:
        m(torch.zeros(1, 17, dtype=torch.long))
    # the library's one boundary error: coded, shown by the UI as the hard boundary, in either language
    assert PositionOutOfRangeError is learned.PositionOutOfRangeError and e.value.boundary
    assert e.value.code == "learned_boundary" and e.value.params == {"L": 17, "M": 16, "last": 15}
    assert e.value.message("zh").startswith("这正是文章提醒的硬边界")
    assert isinstance(e.value, ValueError)
    out = m(torch.zeros(1, 20, dtype=torch.long), clamp_positions=True)
    assert out.shape == (1, 20, 32)
    with torch.no_grad():   # clamping changes nothing inside the table
        x = torch.randint(0, 32, (1, 16))
        assert torch.allclose(m(x), m(x, clamp_positions=True))


def test_alibi_and_t5_biases_use_posviz_relative():
    m = model("alibi")
    assert torch.equal(m._bias(10), alibi_bias(2, 10))
    t = model("t5")
    b = t._bias(10)
    buckets = t5_bucket_matrix(10, bidirectional=False, num_buckets=8, max_distance=16)
    assert torch.equal(b, t.t5_bias.weight[buckets].permute(2, 0, 1))
    assert model("rope")._bias(10) is None


def test_rope_override_default_is_identity():
    m = model("rope")
    x = torch.randint(0, 32, (2, 12))
    with torch.no_grad():
        a = m(x)
        m.rope_override = (rope_inv_freq(8), 1.0)
        b = m(x)
        m.rope_override = (rope_inv_freq(8) / 4, 1.0)
        c = m(x)
    m.rope_override = None
    assert torch.allclose(a, b)
    assert not torch.allclose(a, c)


def test_rope_and_alibi_are_shift_invariant_in_the_scores():
    # with position-free content, a relative method gives the same attention pattern to the
    # same content at any absolute offset: a sequence that repeats with period 4
    for method in ("rope", "alibi"):
        m = model(method, n_layers=1)
        x = torch.tensor([[1, 2, 3, 4] * 6])
        _, maps = m(x, return_attention=True)
        a = maps[0][0]                                           # [H,L,L]
        # row i and row i+4 attend to the last 4 keys identically (the bias depends on i - j)
        assert torch.allclose(a[:, 11, 8:12] / a[:, 11, 8:12].sum(-1, keepdim=True),
                              a[:, 15, 12:16] / a[:, 15, 12:16].sum(-1, keepdim=True), atol=1e-5)


def test_build_from_dict_and_config_roundtrip():
    cfg = TinyConfig(method="t5", **SMALL)
    assert build(cfg.to_dict()).cfg == cfg


@pytest.mark.parametrize("kw,name", [(dict(method="xpos"), "method"), (dict(d_model=30, n_heads=4), "d_model"),
                                      (dict(n_layers=0), "n_layers"),
                                      (dict(method="t5", t5_max_distance=8), "max_distance"),
                                      (dict(vocab_size=1), "vocab_size")])
def test_invalid_config(kw, name):
    with pytest.raises(ValueError, match=name):
        TinyConfig(**kw)


def test_invalid_tokens():
    m = model("nope")
    with pytest.raises(PosvizError, match="tokens") as e:
        m(torch.tensor([[0, 40]]))
    assert e.value.code == "range" and e.value.params["hi"] == 31 and e.value.params["got"] == 40
    with pytest.raises(PosvizError, match="tokens") as e:
        m(torch.zeros(5, dtype=torch.long))
    assert e.value.code == "ndim"
    with pytest.raises(PosvizError, match="tokens") as e:
        m(torch.zeros(1, 5))
    assert e.value.code == "tinylm_tokens" and "float32" in e.value.message("zh")


def test_config_errors_are_coded():
    with pytest.raises(PosvizError) as e:
        TinyConfig(d_model=30, n_heads=4)
    assert e.value.code == "tinylm_heads" and "n_heads=4" in e.value.message("zh")
