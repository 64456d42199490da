"""posviz.tinylm.model: the tiny decoder with a selectable position method, and today's RoPE variants."""
import math

import pytest
import torch

from posviz.pe import learned
from posviz.pe.relative import alibi_bias, t5_bucket_matrix
from posviz.pe.rope import rope_inv_freq
from posviz.tinylm import model as tiny_model
from posviz.tinylm import recipes
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


# ---------------------------------------------------------------- today's RoPE variants
def _hf_proportional(head_dim, theta, fraction):
    """transformers' own proportional RoPE (Gemma 4), read offline from the installed package."""
    from transformers import PretrainedConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    cfg = PretrainedConfig()
    cfg.hidden_size, cfg.num_attention_heads, cfg.head_dim = head_dim * 4, 4, head_dim
    cfg.rope_parameters = {"rope_type": "proportional", "rope_theta": theta, "partial_rotary_factor": fraction}
    return ROPE_INIT_FUNCTIONS["proportional"](cfg, "cpu")


@pytest.mark.parametrize("head_dim, fraction", [(16, 0.25), (16, 0.5), (64, 0.25), (16, 1.0)])
def test_proportional_rope_equals_transformers(head_dim, fraction):
    inv, factor = tiny_model.rope_spectrum(head_dim, {"rope_type": "proportional", "rope_theta": 10000.0,
                                                      "partial_rotary_factor": fraction})
    ref, ref_factor = _hf_proportional(head_dim, 10000.0, fraction)
    assert torch.equal(inv, ref.to(torch.float32)) and factor == ref_factor == 1.0
    kept = int(fraction * head_dim // 2)
    assert (inv[kept:] == 0).all() and (inv[:kept] > 0).all()
    # the full head width in the exponent: theta_1 = b^(-2/d), not b^(-2/d_r)
    if kept > 1:
        assert float(inv[1]) == pytest.approx(10000.0 ** (-2 / head_dim), rel=1e-6)


def test_partial_rope_rotates_the_first_pairs_with_the_rotated_width():
    """Partial rotary as transformers computes it: theta_i = b^(-2i/d_r) over d_r = 0.25 d, then no rotation."""
    inv, factor = tiny_model.rope_spectrum(16, {"rope_type": "default", "rope_theta": 10000.0,
                                                "partial_rotary_factor": 0.25})
    assert inv.tolist() == pytest.approx([1.0, 0.01, 0, 0, 0, 0, 0, 0]) and factor == 1.0
    assert torch.equal(inv[:2], rope_inv_freq(4, 10000.0))


def test_a_pair_with_frequency_zero_is_not_rotated():
    m = model("rope", rope_parameters={"rope_type": "proportional", "rope_theta": 10000.0,
                                       "partial_rotary_factor": 0.25})
    qk = []
    x = torch.randint(1, 32, (1, 10))
    with torch.no_grad():
        m(x, capture=qk)
        h = m.blocks[0].ln1(m.tok(x))
        q = m.blocks[0].attn.qkv(h).view(1, 10, 3, 2, 8).permute(2, 0, 3, 1, 4)[0]       # unrotated q
    rotated = qk[0][0]
    assert torch.equal(rotated[..., 2:], q[..., 2:])                                  # pairs 1..3: frequency 0
    assert not torch.allclose(rotated[..., :2], q[..., :2])                           # pair 0 turns


def test_nope_layers_skip_the_rotation_and_an_all_nope_rope_model_is_nope():
    r = model("rope", nope_layers=(0, 1))
    n = model("nope")
    n.load_state_dict(r.state_dict())
    x = torch.randint(1, 32, (2, 12))
    with torch.no_grad():
        assert torch.equal(r(x), n(x))
    one = model("rope", nope_layers=(1,))
    plain = model("rope")
    plain.load_state_dict(one.state_dict())
    with torch.no_grad():
        a, b = [], []
        one(x, capture=a)
        plain(x, capture=b)
    assert torch.equal(a[0][0], b[0][0]) and not torch.equal(a[1][0], b[1][0])


def test_nope_layers_follow_transformers_every_kth_layer():
    """SmolLM3 / Llama 4 count a NoPE layer where (l + 1) % k == 0: every 4th of 4 layers is layer 3, every
    2nd is layers 1 and 3 -- the recipes' nope_layers."""
    from transformers import SmolLM3Config

    for k, recipe in ((4, "rope_nope4"), (2, "rope_nope2")):
        c = SmolLM3Config(num_hidden_layers=4, no_rope_layer_interval=k)
        nope = tuple(i for i, has in enumerate(c.no_rope_layers) if not has)
        assert nope == recipes.RECIPES[recipe]["nope_layers"]


def test_qk_norm_normalises_q_and_k_per_head():
    m = model("rope", qk_norm=True)
    qk = []
    with torch.no_grad():
        m(torch.randint(1, 32, (1, 9)), capture=qk)
    q, k = qk[0]
    for t in (q, k):       # rotation keeps the norm: RMS 1 per head and position (weights start at 1)
        assert torch.allclose(t.pow(2).mean(-1), torch.ones(t.shape[:-1]), atol=1e-3)


def test_config_round_trip_with_the_new_fields():
    cfg = TinyConfig(method="rope", nope_layers=[1], qk_norm=True, **SMALL,
                     rope_parameters={"rope_type": "linear", "rope_theta": 10000.0, "factor": 4.0})
    d = cfg.to_dict()
    assert d["nope_layers"] == [1] and TinyConfig(**d) == cfg and cfg.nope_layers == (1,)
    with pytest.raises(ValueError, match="nope_layers"):
        TinyConfig(method="rope", nope_layers=(5,), **SMALL)
    with pytest.raises(ValueError, match="rope_type"):
        TinyConfig(method="rope", rope_parameters={"rope_type": "xpos", "rope_theta": 1.0}, **SMALL)


def test_wrap_positions_reads_row_p_mod_the_table():
    m = model("learned")
    x = torch.randint(1, 32, (1, 40))
    with torch.no_grad():
        wrapped = m(x, wrap_positions=True)
        h = m.tok(x) + m.pos(torch.arange(40) % 16)
        for block in m.blocks:
            h, _ = block(h, None, None)
        direct = m.head(m.ln_f(h))
    assert torch.allclose(wrapped, direct, atol=1e-6)


def test_enlarged_table_keeps_the_trained_rows_and_draws_the_new_ones():
    m = model("learned")
    big = tiny_model.enlarge_table(m, 48, seed=3)
    assert big.cfg.max_length == 48 and m.cfg.max_length == 16                     # the original is untouched
    assert torch.equal(big.pos.weight[:16], m.pos.weight)
    assert torch.equal(big.pos.weight[16:], torch.randn(32, 16, generator=torch.Generator().manual_seed(3)))
    x = torch.randint(1, 32, (1, 16))
    with torch.no_grad():
        assert torch.equal(big(x), m(x))
        assert big(torch.randint(1, 32, (1, 48))).shape == (1, 48, 32)
    with pytest.raises(PositionOutOfRangeError):
        big(torch.zeros(1, 49, dtype=torch.long))
    with pytest.raises(PosvizError):
        tiny_model.enlarge_table(model("rope"), 48)


def test_capture_gives_the_q_and_k_of_the_scores():
    m = model("rope")
    qk = []
    x = torch.randint(1, 32, (2, 11))
    with torch.no_grad():
        _, maps = m(x, return_attention=True, capture=qk)
    q, k = qk[1]
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    s = s.masked_fill(torch.ones(11, 11, dtype=torch.bool).triu(1), float("-inf"))
    assert torch.allclose(s.softmax(-1), maps[1], atol=1e-6)


def test_weights_are_saved_as_float16_plain_tensors(tmp_path):
    m = model("rope")
    sha = tiny_model.save_weights(m, tmp_path / "w.pt")
    state = torch.load(tmp_path / "w.pt", weights_only=True)
    assert all(v.dtype == torch.float16 for v in state.values()) and len(sha) == 64
    back = model("rope", seed=9)
    back.load_state_dict(state)
    assert all(torch.equal(back.state_dict()[k], v.float()) for k, v in state.items())
