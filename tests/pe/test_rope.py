"""posviz.pe.rope: the RoPE identities, layouts, the transparent formula and its private fast path
(bit for bit), Hugging Face agreement, attention, coded errors."""
import math

import pytest
import torch
from torch.nn import functional as F

from posviz.pe import _rope_fast, rope
from posviz.pe.rope import (
    apply_rope,
    convert_layout,
    pairing_permutation,
    rope_angles,
    rope_inv_freq,
    rope_pairs,
    rope_rotation_matrix,
    rotation_2x2,
    wrap_angle,
)
from posviz.pe.rope_demos import rotated_score
from posviz.validate import PosvizError


def formula_rope(x, pos, inv_freq, layout="interleaved", factor=1.0):
    """The textbook formula, written independently (seed 000 §09), for bitwise comparisons."""
    ang = pos.to(torch.float32)[..., None] * inv_freq                 # [L,d/2] or [N,L,d/2]
    if ang.ndim == 2:
        ang = ang[None]
    cos, sin = (ang.cos() * factor).to(x.dtype)[:, None], (ang.sin() * factor).to(x.dtype)[:, None]
    d = x.shape[-1]
    if layout == "interleaved":
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack((a * cos - b * sin, a * sin + b * cos), -1).flatten(-2)
    a, b = x[..., : d // 2], x[..., d // 2:]
    return torch.cat((a * cos - b * sin, a * sin + b * cos), -1)


# ---------------------------------------------------------------- identities
def test_inv_freq_and_angles():
    f = rope_inv_freq(8, 10000.0)
    assert f.dtype == torch.float32
    assert torch.allclose(f, torch.tensor([1.0, 0.1, 0.01, 0.001]))
    a = rope_angles(torch.tensor([0, 1, 2]), 8)
    assert a.shape == (3, 4) and a.dtype == torch.float32
    assert torch.equal(a[2], 2.0 * f)
    assert rope_angles(3, 8).shape == (4,)


def test_rotation_group_property():
    for layout in rope.ROPE_LAYOUTS:
        for p, s in [(0, 0), (1, 3), (5, 7), (100, 37), (-4, 9)]:
            rp = rope_rotation_matrix(p, 16, layout=layout).double()
            rs = rope_rotation_matrix(s, 16, layout=layout).double()
            rd = rope_rotation_matrix(s - p, 16, layout=layout).double()
            assert torch.allclose(rp.T @ rs, rd, atol=1e-5)
            assert torch.allclose(rp.T @ rp, torch.eye(16, dtype=torch.float64), atol=1e-6)
    r2 = rotation_2x2(torch.tensor([0.3, 1.1]))
    assert r2.shape == (2, 2, 2)
    assert torch.allclose(r2[0].T @ r2[1], rotation_2x2(torch.tensor(0.8)), atol=1e-6)


def test_pair_rotations_are_the_blocks_of_the_matrix():
    blocks = rope.rope_pair_rotations(5, 8)
    assert blocks.shape == (4, 2, 2)
    for layout in rope.ROPE_LAYOUTS:
        r = rope_rotation_matrix(5, 8, layout=layout)
        for i, (a, b) in enumerate(rope_pairs(8, layout).tolist()):
            assert torch.equal(r[[a, b]][:, [a, b]], blocks[i])
    assert torch.allclose(blocks[0], torch.tensor([[math.cos(5), -math.sin(5)], [math.sin(5), math.cos(5)]]))


def test_rotation_matrix_matches_apply_rope():
    torch.manual_seed(1)
    x = torch.randn(1, 1, 1, 12)
    for layout in rope.ROPE_LAYOUTS:
        r = rope_rotation_matrix(7, 12, layout=layout)
        assert torch.allclose(r @ x[0, 0, 0], apply_rope(x, [7], layout=layout)[0, 0, 0], atol=1e-6)


def test_wrap_angle():
    assert float(wrap_angle(torch.tensor(-math.pi, dtype=torch.float64))) == pytest.approx(math.pi)
    assert float(wrap_angle(torch.tensor(math.pi, dtype=torch.float64))) == pytest.approx(math.pi)
    w = wrap_angle(torch.linspace(-20, 20, 401))
    assert (w > -math.pi).all() and (w <= math.pi + 1e-6).all()


# ---------------------------------------------------------------- layouts
def test_pairing_permutation():
    assert pairing_permutation(8).tolist() == [0, 2, 4, 6, 1, 3, 5, 7]
    assert pairing_permutation(8, "half", "interleaved").tolist() == [0, 4, 1, 5, 2, 6, 3, 7]
    assert pairing_permutation(8, "half", "half").tolist() == list(range(8))
    p = pairing_permutation(10)
    inv = pairing_permutation(10, "half", "interleaved")
    assert torch.equal(p[inv], torch.arange(10)) and torch.equal(inv[p], torch.arange(10))
    assert rope_pairs(6, "interleaved").tolist() == [[0, 1], [2, 3], [4, 5]]
    assert rope_pairs(6, "half").tolist() == [[0, 3], [1, 4], [2, 5]]


@pytest.mark.parametrize("shape", [(2, 3, 5, 8), (1, 4, 64, 128), (3, 2, 7, 6)])
def test_layouts_equivalent_via_permutation(shape):
    torch.manual_seed(5)
    x = torch.randn(*shape)
    pos = torch.randint(0, 5000, (shape[0], shape[2]))
    inter = apply_rope(x, pos)
    half = apply_rope(convert_layout(x, "interleaved", "half"), pos, layout="half")
    assert torch.equal(inter, convert_layout(half, "half", "interleaved"))
    # scores identical: (P a).(P b) = a.b
    q, k = torch.randn(shape[-1]), torch.randn(shape[-1])
    s1 = rotated_score(q, k, 4, 11)
    s2 = rotated_score(convert_layout(q), convert_layout(k), 4, 11, layout="half")
    assert float(s1) == pytest.approx(float(s2), abs=1e-5)


# ---------------------------------------------------------------- apply_rope: the transparent formula, its fast path
FAST_SHAPES = [(1, 4, 256, 128), (2, 3, 5, 8), (1, 2, 96, 64), (2, 4, 33, 6), (1, 1, 48, 8), (3, 2, 64, 2),
               (1, 32, 128, 128), (2, 1, 16, 16), (1, 1, 1, 128), (4, 2, 8, 32)]


def test_apply_rope_is_seed000_s09_listing():
    """apply_rope gives the numbers of the article's own listing (its exp/log inv_freq aside: we use
    transformers' float32 expression), for [L] and [N,L] positions, both pairings."""
    torch.manual_seed(6)
    x = torch.randn(2, 4, 6, 8)
    pos = torch.arange(6)
    inv = rope_inv_freq(8)
    assert torch.equal(apply_rope(x, pos), formula_rope(x, pos, inv))
    pos2 = torch.stack((pos, pos + 7))                               # [N,L]
    assert torch.equal(apply_rope(x, pos2), formula_rope(x, pos2, inv))
    assert torch.equal(apply_rope(x, pos2, layout="half"), formula_rope(x, pos2, inv, "half"))


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_fast_path_bitwise_equals_transparent_formula(threads):
    """On every shape, dtype and thread count where _rope_fast applies, torch.equal with the
    transparent rotation (rotate_pairs) and with the independent formula above."""
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        torch.manual_seed(6)
        taken = 0
        for shape in FAST_SHAPES:
            for dtype in (torch.float32, torch.float64, torch.bfloat16, torch.float16):
                x = torch.randn(*shape).to(dtype)
                for pos in (torch.arange(shape[2]) * 3, torch.randint(0, 100000, (shape[0], shape[2]))):
                    for factor in (1.0, 1.2345):
                        inv = rope_inv_freq(shape[-1])
                        want = formula_rope(x, pos, inv, factor=factor)
                        assert torch.equal(apply_rope(x, pos, attention_factor=factor), want), (shape, dtype)
                        assert torch.equal(apply_rope(x, pos, layout="half", attention_factor=factor),
                                           formula_rope(x, pos, inv, "half", factor))
                        if _rope_fast.applies(x, "interleaved"):
                            taken += 1
                            p = pos.float() if pos.ndim == 2 else pos.float()[None]
                            ang = p[..., None] * inv                                 # [B,L,d/2]
                            cos = (ang.cos() * factor).to(dtype)[:, None]
                            sin = (ang.sin() * factor).to(dtype)[:, None]
                            fast = _rope_fast.rotate_interleaved(x, cos, sin)
                            assert torch.equal(fast, rope.rotate_pairs(x, cos, sin)), (shape, dtype, threads)
        assert taken > 0                                             # the fast path is exercised
    finally:
        torch.set_num_threads(old)


def test_fast_path_applies_only_where_exact():
    assert _rope_fast.applies(torch.zeros(1, 4, 256, 128), "interleaved")
    assert not _rope_fast.applies(torch.zeros(1, 4, 256, 128), "half")
    assert not _rope_fast.applies(torch.zeros(1, 4, 256, 128, dtype=torch.bfloat16), "interleaved")
    assert not _rope_fast.applies(torch.zeros(2, 3, 5, 8), "interleaved")          # 20 pairs per row
    assert not _rope_fast.applies(torch.zeros(1, 4, 128, 256).transpose(2, 3), "interleaved")  # not contiguous
    assert not _rope_fast.applies(torch.zeros(1, 1, 0, 8), "interleaved")


def test_repeated_calls_are_identical_and_never_alias():
    """No cache: the same input gives the same bits each time, in fresh tensors."""
    torch.manual_seed(7)
    x = torch.randn(1, 2, 64, 128)
    pos = torch.arange(64)
    a = apply_rope(x, pos)
    b = apply_rope(x, pos)
    assert torch.equal(a, b) and a.data_ptr() != b.data_ptr()
    a.zero_()                                                        # mutating a result changes nothing else
    assert torch.equal(apply_rope(x, pos), b)
    c = apply_rope(x, pos + 1)
    assert not torch.equal(c, b)
    assert torch.equal(apply_rope(x, pos, base=500000.0), formula_rope(x, pos, rope_inv_freq(128, 500000.0)))
    assert not hasattr(rope, "_TABLE_CACHE") and not hasattr(_rope_fast, "_TABLE_CACHE")


def test_input_not_modified_and_grad_flows():
    x = torch.randn(1, 2, 64, 128, requires_grad=True)
    x0 = x.detach().clone()
    y = apply_rope(x, torch.arange(64))
    y.square().sum().backward()
    assert torch.equal(x.detach(), x0)
    # rotation preserves norms, so d/dx |R x|^2 = 2x
    assert torch.allclose(x.grad, 2 * x0, atol=1e-5)


def test_low_precision_keeps_float32_angles():
    torch.manual_seed(8)
    x = torch.randn(1, 2, 16, 64)
    pos = torch.arange(16) + 100000                                  # large positions
    for dt in (torch.float16, torch.bfloat16):
        got = apply_rope(x.to(dt), pos)
        assert got.dtype == dt
        want = formula_rope(x.to(dt), pos, rope_inv_freq(64))       # cos/sin from float32 angles
        assert torch.equal(got, want)
        # angles in low precision would be badly wrong at p ~ 1e5
        bad_ang = (pos.to(dt)[:, None] * rope_inv_freq(64).to(dt))
        assert (bad_ang.float() - pos.float()[:, None] * rope_inv_freq(64)).abs().max() > 1.0
        ref32 = apply_rope(x.to(dt).float(), pos)
        assert (got.float() - ref32).abs().max() < 0.05


# ---------------------------------------------------------------- Hugging Face reference
def _hf_cos_sin(pos, inv_freq, factor, dtype):
    """cos/sin exactly as LlamaRotaryEmbedding.forward builds them (same inv_freq)."""
    freqs = pos[..., None].float() * inv_freq.float()                # [N,L,d/2]
    emb = torch.cat((freqs, freqs), dim=-1)                          # [N,L,d]
    return (emb.cos() * factor).to(dtype), (emb.sin() * factor).to(dtype)


@pytest.mark.parametrize("factor", [1.0, 1.2345])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_matches_hugging_face(factor, dtype):
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    torch.manual_seed(9)
    n, h, length, d = 2, 3, 17, 64
    q = torch.randn(n, h, length, d).to(dtype)
    k = torch.randn(n, h, length, d).to(dtype)
    pos = torch.randint(0, 4096, (n, length))                        # [N,L] position ids
    for inv in (rope_inv_freq(d, 10000.0), rope_inv_freq(d, 500000.0) / 8.0):
        cos, sin = _hf_cos_sin(pos, inv, factor, dtype)
        hq, hk = apply_rotary_pos_emb(q, k, cos, sin)
        assert torch.equal(apply_rope(q, pos, inv_freq=inv, attention_factor=factor, layout="half"), hq)
        assert torch.equal(apply_rope(k, pos, inv_freq=inv, attention_factor=factor, layout="half"), hk)
    # [L] position ids broadcast over the batch like HF's [1,L]
    pos1 = torch.arange(length) + 7
    cos, sin = _hf_cos_sin(pos1[None], rope_inv_freq(d), 1.0, dtype)
    hq, _ = apply_rotary_pos_emb(q, k, cos, sin)
    assert torch.equal(apply_rope(q, pos1, layout="half"), hq)


def test_interleaved_matches_hugging_face_after_permutation():
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    torch.manual_seed(10)
    q = torch.randn(1, 2, 9, 32)
    pos = torch.arange(9)[None] * 11
    cos, sin = _hf_cos_sin(pos, rope_inv_freq(32), 1.0, torch.float32)
    hq, _ = apply_rotary_pos_emb(convert_layout(q), convert_layout(q), cos, sin)
    assert torch.equal(apply_rope(q, pos), convert_layout(hq, "half", "interleaved"))


def _llama_rotary(head_dim, base):
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    cfg = LlamaConfig(hidden_size=2 * head_dim, num_attention_heads=2, head_dim=head_dim,
                      rope_parameters={"rope_type": "default", "rope_theta": base})
    return LlamaRotaryEmbedding(cfg)


@pytest.mark.parametrize("head_dim, base", [(48, 50000.0), (64, 10000.0), (128, 500000.0), (8, 10000.0),
                                            (80, 1000000.0), (96, 10000.0), (2, 10000.0)])
def test_inv_freq_is_transformers_default_bit_for_bit(head_dim, base):
    """Issue 13: rope_inv_freq is transformers' float32 computation, not a rounded float64 one
    (at d=48, base 50000 the float64 route is one ulp off in 16 of 24 frequencies)."""
    emb = _llama_rotary(head_dim, base)
    assert emb.inv_freq.dtype == torch.float32
    assert torch.equal(rope_inv_freq(head_dim, base), emb.inv_freq)
    if head_dim == 48:
        i = torch.arange(0, 48, 2, dtype=torch.float64)
        rounded = (base ** (-i / 48)).to(torch.float32)
        assert (rounded != emb.inv_freq).sum() > 0                   # the old route really differed


@pytest.mark.parametrize("head_dim, base", [(48, 50000.0), (64, 10000.0), (128, 500000.0), (80, 1000000.0)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16, torch.float64])
def test_half_layout_equals_apply_rotary_pos_emb_at_any_position(head_dim, base, dtype):
    """apply_rope(layout="half") == transformers' LlamaRotaryEmbedding + apply_rotary_pos_emb bit for bit,
    positions 0..10^5 (and the neighbourhood of 900 where d=48, base 50000 differed by 2e-4)."""
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    emb = _llama_rotary(head_dim, base)
    g = torch.Generator().manual_seed(head_dim)
    near_900 = torch.arange(880, 930)
    spread = torch.randint(0, 100001, (2, 50), generator=g)
    for pos in (near_900[None].expand(2, -1), spread, torch.tensor([[0, 1, 99999, 100000] * 4] * 2)):
        q = torch.randn(2, 3, pos.shape[1], head_dim, generator=g).to(dtype)
        k = torch.randn(2, 3, pos.shape[1], head_dim, generator=g).to(dtype)
        cos, sin = emb(q, pos)
        hq, hk = apply_rotary_pos_emb(q, k, cos, sin)
        assert torch.equal(apply_rope(q, pos, base=base, layout="half"), hq)
        assert torch.equal(apply_rope(k, pos, base=base, layout="half"), hk)


# ---------------------------------------------------------------- invalid input
@pytest.mark.parametrize("call, name", [
    (lambda: rope_inv_freq(7), "head_dim"),
    (lambda: rope_inv_freq(0), "head_dim"),
    (lambda: rope_inv_freq(8, 1.0), "base"),
    (lambda: rope_inv_freq(8, 0.5), "base"),
    (lambda: rope_inv_freq(8, float("nan")), "base"),
    (lambda: apply_rope(torch.randn(1, 1, 3, 7), torch.arange(3)), "head_dim"),
    (lambda: apply_rope(torch.randn(1, 1, 3, 8), torch.arange(3), base=1.0), "base"),
    (lambda: apply_rope(torch.randn(1, 1, 3, 8), torch.arange(3), layout="bad"), "layout"),
    (lambda: apply_rope(torch.randn(1, 1, 3, 8), torch.arange(4)), "position_ids"),
    (lambda: apply_rope(torch.randn(2, 1, 3, 8), torch.zeros(3, 3)), "position_ids"),
    (lambda: apply_rope(torch.randn(2, 1, 3, 8), torch.zeros(2, 3, 1)), "position_ids"),
    (lambda: apply_rope(torch.randn(1, 1, 3, 8), torch.tensor([0.0, float("inf"), 1.0])), "position_ids"),
    (lambda: apply_rope(torch.randn(1, 3, 8), torch.arange(3)), "x"),
    (lambda: apply_rope([[1.0]], torch.arange(3)), "x"),
    (lambda: apply_rope(torch.ones(1, 1, 3, 8, dtype=torch.long), torch.arange(3)), "x"),
    (lambda: apply_rope(torch.randn(1, 1, 3, 8), torch.arange(3), inv_freq=torch.ones(3)), "inv_freq"),
    (lambda: apply_rope(torch.randn(1, 1, 3, 8), torch.arange(3), attention_factor=0), "attention_factor"),
    (lambda: rope_angles([1, 2], 5), "head_dim"),
    (lambda: pairing_permutation(8, "interleaved", "x"), "dst"),
    (lambda: rope_pairs(8, "odd"), "layout"),
    (lambda: rope_rotation_matrix(float("nan"), 8), "position"),
    (lambda: apply_rope(torch.randn(1, 1, 3, 8), torch.tensor([1 + 1j, 2, 3])), "position_ids"),
    (lambda: apply_rope(torch.randn(1, 1, 3, 8), "abc"), "position_ids"),
    (lambda: apply_rope(torch.randn(1, 1, 3, 8), torch.arange(3), inv_freq=torch.full((4,), float("nan"))),
     "inv_freq"),
    (lambda: rope.plain_attention(torch.randn(1, 1, 3, 8), torch.randn(1, 1, 3, 6), torch.randn(1, 1, 3, 8),
                                  is_causal=True), "k"),
    (lambda: rope.rope_attention(torch.randn(1, 1, 3, 8), torch.randn(1, 1, 5, 8), torch.randn(1, 1, 5, 8),
                                 torch.arange(3), torch.arange(5), is_causal=True), "is_causal"),
    (lambda: rope.rope_attention(torch.randn(1, 1, 3), torch.randn(1, 1, 3, 8), torch.randn(1, 1, 3, 8),
                                 torch.arange(3), torch.arange(3), is_causal=False), "q"),
])
def test_invalid_input_names_the_parameter(call, name):
    """Every error is a coded PosvizError (a ValueError) whose message names the parameter, in en and zh."""
    with pytest.raises(PosvizError, match=name) as e:
        call()
    assert name in e.value.message("zh")


# ---------------------------------------------------------------- attention (seed 000 §09)
def test_rope_attention_is_sdpa_on_rotated_qk_and_equals_plain_attention():
    g = torch.Generator().manual_seed(11)
    q, k, v = (torch.randn(2, 4, 6, 8, generator=g) for _ in range(3))
    pos = torch.arange(6)
    out = rope.rope_attention(q, k, v, pos, pos, is_causal=True)
    assert out.shape == (2, 4, 6, 8)                                  # the article's assert
    own = rope.plain_attention(apply_rope(q, pos), apply_rope(k, pos), v, is_causal=True)
    assert torch.allclose(out, own, atol=1e-6)
    sdpa = torch.nn.functional.scaled_dot_product_attention(apply_rope(q, pos), apply_rope(k, pos), v, is_causal=True)
    assert torch.equal(out, sdpa)
    # the first query sees only the first key: its output is v[..., 0, :]
    assert torch.allclose(out[:, :, 0], v[:, :, 0], atol=1e-6)
    # without the mask, plain attention equals SDPA too; with L < S the causal mask is right-aligned
    assert torch.allclose(rope.plain_attention(q, k, v, is_causal=False),
                          torch.nn.functional.scaled_dot_product_attention(q, k, v), atol=1e-6)
    last = rope.plain_attention(q[:, :, -1:], k, v, is_causal=True)   # the newest query sees every key
    assert torch.allclose(last, rope.plain_attention(q[:, :, -1:], k, v, is_causal=False))


def test_sdpa_adds_no_position_and_rope_does():
    g = torch.Generator().manual_seed(12)
    q, k, v = (torch.randn(1, 2, 6, 8, generator=g) for _ in range(3))
    pos, rev = torch.arange(6), torch.arange(5, -1, -1)
    sdpa = torch.nn.functional.scaled_dot_product_attention
    assert torch.allclose(sdpa(q[:, :, rev], k[:, :, rev], v[:, :, rev]), sdpa(q, k, v)[:, :, rev], atol=1e-6)
    roped = rope.rope_attention(q, k, v, pos, pos, is_causal=False)
    shuffled = rope.rope_attention(q[:, :, rev], k[:, :, rev], v[:, :, rev], pos, pos, is_causal=False)
    assert (shuffled - roped[:, :, rev]).abs().max() > 1e-2
    shifted = rope.rope_attention(q, k, v, pos + 1000, pos + 1000, is_causal=True)
    assert torch.allclose(shifted, rope.rope_attention(q, k, v, pos, pos, is_causal=True), atol=1e-4)


def test_grouped_query_heads_follow_sdpa_s_rule():
    """Issue 33 item 13: §09's shapes Q [N,...,H_q,L,E], K [N,...,H,S,E]: with H_q ≠ H, SDPA needs enable_gqa and
    H_q a multiple of H; query head h reads K/V head h // (H_q/H) (torch's repeat_interleave of the K/V heads)."""
    kv_head_of, plain_attention, rope_attention = rope.kv_head_of, rope.plain_attention, rope.rope_attention
    assert kv_head_of(4, 2).tolist() == [0, 0, 1, 1] and kv_head_of(6, 3).tolist() == [0, 0, 1, 1, 2, 2]
    assert kv_head_of(8, 1).tolist() == [0] * 8 and kv_head_of(4, 4).tolist() == [0, 1, 2, 3]
    with pytest.raises(PosvizError) as e:
        kv_head_of(4, 3)
    assert e.value.code == "gqa_heads"
    g = torch.Generator().manual_seed(1)
    q = torch.randn(2, 4, 6, 8, generator=g)
    k, v = torch.randn(2, 2, 6, 8, generator=g), torch.randn(2, 2, 6, 8, generator=g)
    pos = torch.arange(6)
    got = rope_attention(q, k, v, pos, pos, is_causal=True)
    want = F.scaled_dot_product_attention(apply_rope(q, pos), apply_rope(k, pos).repeat_interleave(2, 1),
                                          v.repeat_interleave(2, 1), is_causal=True)
    torch.testing.assert_close(got, want, rtol=0, atol=1e-6)
    own = plain_attention(apply_rope(q, pos), apply_rope(k, pos), v, is_causal=True)
    torch.testing.assert_close(own, want, rtol=0, atol=1e-6)
    with pytest.raises(PosvizError) as e:
        rope_attention(q, torch.randn(2, 3, 6, 8), torch.randn(2, 3, 6, 8), pos, pos, is_causal=True)
    assert e.value.code == "gqa_heads"
    with pytest.raises(PosvizError):
        rope_attention(q[:, :2], k[:, :1].expand(2, 4, 6, 8).contiguous(), v.repeat_interleave(2, 1), pos, pos,
                       is_causal=True)                                 # more K/V heads than query heads
