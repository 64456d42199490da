import math

import numpy as np
import pytest
import torch

from posviz.lab import toy_model as A
from posviz.lab.kv_cache import one_thread
from posviz.lab.tokens import encode
from posviz.lab.toy_layer import rotate_lowp
from posviz.pe.learned import PositionOutOfRangeError
from posviz.pe.position_ids import position_ids_from_mask
from posviz.pe.relative import alibi_bias, t5_bucket_matrix
from posviz.pe.rope import apply_rope

S_A, S_B = "I love ML", "do you love ML too"
ZH_A, ZH_B = "我爱ML", "你也爱ML吗"
METHOD_ROWS = A.SUMMARY_ROWS


@pytest.mark.parametrize("method, layout", METHOD_ROWS)
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("causal", [False, True])
def test_correct_padded_batch_matches_unpadded_runs(method, layout, side, causal):
    batch = encode([S_A, S_B], padding_side=side)
    model = A.build_model(method, num_heads=3, head_dim=16, rope_layout=layout)
    _, _, errs, pos = A.compare(model, batch, "mask", (), causal=causal)
    assert max(float(e.max()) for e in errs) < 1e-5
    assert pos.tolist() == position_ids_from_mask(batch.attention_mask).tolist()


def _pattern(err, status):
    """'0' harmless (< 1e-5), 'X' harmful (> 1e-2), '-' not applicable / out of range, '?' in between."""
    out = []
    for i in range(err.shape[0]):
        row = ""
        for j in range(err.shape[1]):
            e = err[i, j]
            row += "-" if status[i][j] != "ok" else "0" if e < A.HARMLESS else "X" if e > A.HARMFUL else "?"
        out.append(row)
    return out


# columns: mask arange token_ids zeros modulo | no_position q_only rot_v hidden unmasked layout lowp
EXPECTED_LEFT = [
    "000000---X--",   # NoPE: no position-id bug can hurt it; only unmasked pads do
    "0XXX0X---X--",   # sinusoidal: a uniform shift (arange, left padding) hurts an absolute method
    "0XXX0X---X--",   # learned
    "00XX0XXXXXXX",   # RoPE interleaved: the shift is harmless, every RoPE bug hurts
    "00XX0XXXXXXX",   # RoPE half
    "00XX0X---X--",   # ALiBi
    "00XX0X---X--",   # T5
]


@pytest.mark.parametrize("sentences", [(S_A, S_B), (ZH_A, ZH_B)])
@pytest.mark.parametrize("heads, causal", [(4, False), (2, False), (4, True)])
def test_summary_matrix_pattern_left_padding(sentences, heads, causal):
    err, status = A.summary_matrix(*sentences, padding_side="left", num_heads=heads, head_dim=16,
                                   causal=causal, max_length=16)
    assert _pattern(err, status) == EXPECTED_LEFT


def test_summary_matrix_right_padding_arange_is_harmless():
    err, status = A.summary_matrix(S_A, S_B, padding_side="right", num_heads=4, head_dim=16)
    pat = _pattern(err, status)
    assert [r[1] for r in pat] == ["0"] * 7            # shared arange with right padding
    assert [r[0] for r in pat] == ["0"] * 7


def test_summary_matrix_modulo_bites_when_the_table_is_short():
    err, status = A.summary_matrix(S_A, S_B, padding_side="left", num_heads=4, head_dim=16, max_length=3)
    pat = _pattern(err, status)
    cols = [r[4] for r in pat]
    assert cols == ["0", "X", "-", "X", "X", "X", "X"]
    # the learned table cannot run the 5-token sentence at all: hard boundary, never wrapped
    assert set(status[2]) == {"out_of_range", "na"}


def test_no_pads_means_pad_bugs_are_harmless():
    err, status = A.summary_matrix("a b c", "d e f", padding_side="left", num_heads=2, head_dim=16)
    j = A.SUMMARY_COLS.index(("mask", "pads_unmasked"))
    assert np.nanmax(err[:, j]) < A.HARMLESS
    j = A.SUMMARY_COLS.index(("arange", None))
    assert np.nanmax(err[:, j]) < A.HARMLESS


def test_learned_boundary_raises_and_modulo_does_not():
    batch = encode([S_A, S_B], padding_side="right")
    model = A.build_model("learned", num_heads=2, head_dim=16, max_length=4)
    pos = position_ids_from_mask(batch.attention_mask)
    with pytest.raises(PositionOutOfRangeError, match="max_length=4") as e:
        A.forward(model, batch.token_ids, batch.attention_mask, pos)
    assert e.value.boundary and e.value.code == "learned_boundary"   # the hard boundary, shown as such
    assert issubclass(PositionOutOfRangeError, ValueError)
    assert "max_length=4" in e.value.message("zh")
    A.forward(model, batch.token_ids, batch.attention_mask, pos % 4)


def test_permutation_equivariance():
    for a, b in (("dog bites man", "man bites dog"), ("猫追狗", "狗追猫"), ("a b c d e", "e c a d b")):
        r = A.equivariance(a, b, method="nope", causal=False)
        assert r["max_diff"] < 1e-5
        assert np.abs(r["attn_b"] - r["p_attn_a"]).max() < 1e-5
        for method in ("sinusoidal", "learned", "rope", "t5"):
            assert A.equivariance(a, b, method=method)["max_diff"] > 1e-2, method
        assert A.equivariance(a, b, method="nope", causal=True)["max_diff"] > 1e-2   # the mask leaks position
        assert A.equivariance(a, b, method="alibi", causal=True)["max_diff"] > 1e-2
    # ALiBi's -m|i-j| has no direction: a reversed sentence is invisible without the causal mask ...
    assert A.equivariance("dog bites man", "man bites dog", method="alibi")["max_diff"] < 1e-5
    # ... but any other reordering changes the distances
    assert A.equivariance("a b c d e", "e c a d b", method="alibi")["max_diff"] > 1e-2
    table = A.equivariance_table("猫追狗", "狗追猫")
    assert table.shape == (len(A.POSITION_METHODS), 2)
    alibi = A.POSITION_METHODS.index("alibi")
    assert table[0, 0] < 1e-5 and table[alibi, 0] < 1e-5
    assert all(table[i, 0] > 1e-2 for i in range(len(A.POSITION_METHODS)) if i not in (0, alibi))
    assert (table[:, 1] > 1e-2).all()


def test_equivariance_needs_a_permutation():
    with pytest.raises(ValueError, match="permutation"):
        A.equivariance("dog bites man", "man bites cat")
    with pytest.raises(ValueError, match="句子 B") as e:                    # the page's own names
        A.equivariance("猫追狗", "狗追猫猫", names=("句子 A", "句子 B"))
    assert e.value.code == "lab.permutation" and "排列" in e.value.message("zh")
    assert A.permutation_between(list("abca"), list("caab")) == [2, 0, 3, 1]


def test_positional_heads_prefer_the_previous_token():
    ids = encode(["a b c d e f g h"]).token_ids[0]
    for method in ("sinusoidal", "learned", "rope", "t5"):
        w = A.run_single(A.build_model(method, num_heads=2, head_dim=16), ids).weights[0, 0]   # [L,L]
        prev = w.diagonal(-1)                                        # A[i, i-1]
        assert (prev > 0.4).float().mean() > 0.8, method
    nope = A.run_single(A.build_model("nope", num_heads=2, head_dim=16), ids).weights[0, 0]
    assert nope.max() < 0.3                                          # nothing to read: near uniform


def test_alibi_and_t5_biases_match_posviz_relative():
    model = A.build_model("alibi", num_heads=4, head_dim=8)
    ids = torch.tensor([[1, 2, 3, 4, 5]])
    mask, pos = torch.ones_like(ids), torch.arange(5)[None]
    model0 = A.ToyModel(**{**model.__dict__, "wq": model.wq * 0, "wk": model.wk * 0})
    w = A.forward(model0, ids, mask, pos).weights[0]                 # [H,L,S]
    assert torch.allclose(w, alibi_bias(4, 5).softmax(-1), atol=1e-6)
    t5 = A.build_model("t5", num_heads=2, head_dim=8)
    t50 = A.ToyModel(**{**t5.__dict__, "wq": t5.wq * 0, "wk": t5.wk * 0})
    for causal in (False, True):
        w = A.forward(t50, ids, mask, pos, causal=causal).weights[0]
        b = t5.t5_table[:, t5_bucket_matrix(5, bidirectional=not causal, num_buckets=32, max_distance=128)]
        if causal:
            b = b.masked_fill(~torch.ones(5, 5, dtype=torch.bool).tril(), -1e9)
        assert torch.allclose(w, b.softmax(-1), atol=1e-6)


def test_lowp_rotation_equals_apply_rope_in_float32_and_differs_in_bfloat16():
    x = torch.randn(2, 2, 6, 16, generator=torch.Generator().manual_seed(1))
    pos = torch.arange(6)[None].expand(2, 6)
    for layout in ("interleaved", "half"):
        ref = apply_rope(x, pos, layout=layout)
        assert torch.allclose(rotate_lowp(x, pos, 0, torch.float32, layout), ref, atol=1e-6)
        off = rotate_lowp(x, pos, 8192, torch.bfloat16, layout)
        exact = apply_rope(x, pos + 8192, layout=layout)
        assert (off - exact).abs().max() > 0.1
    # the honest control: float32 at the same offset is close to the unshifted run
    assert A.lowp_float32_error(S_A, S_B, lowp_offset=8192) < 1e-2


def test_rope_structured_key_is_one_step_ahead():
    m = A.build_model("rope", num_heads=1, head_dim=16)
    u = m.bq[0][None, None, None]                                   # [1,1,1,d]
    assert torch.allclose(apply_rope(u, torch.tensor([1.0]))[0, 0, 0], m.bk[0], atol=1e-5)
    mh = A.build_model("rope", num_heads=1, head_dim=16, rope_layout="half")
    u = mh.bq[0][None, None, None]
    assert torch.allclose(apply_rope(u, torch.tensor([1.0]), layout="half")[0, 0, 0], mh.bk[0], atol=1e-5)


def test_forward_validates_tensors():
    model = A.build_model("rope", num_heads=1, head_dim=8)
    ids = torch.tensor([[1, 2, 3]])
    with pytest.raises(ValueError, match="position_ids"):
        A.forward(model, ids, torch.ones_like(ids), torch.zeros(1, 4, dtype=torch.long))
    with pytest.raises(ValueError, match="token_ids"):
        A.forward(model, ids * 1000, torch.ones_like(ids), torch.zeros_like(ids))
    with pytest.raises(ValueError, match="attention_mask"):
        A.forward(model, ids, torch.ones(1, 3), torch.zeros_like(ids))


def test_low_precision_rounding_of_positions():
    """The numbers the lab's low-precision narration states (issue 14: above 8192 bfloat16 steps by 64)."""
    assert A.representable_spacing(8192, "bfloat16") == 64.0
    assert A.representable_spacing(8100, "bfloat16") == 32.0 == A.representable_spacing(4096, "bfloat16")
    assert A.representable_spacing(8192, "float16") == 8.0
    assert set(A.lowp_positions(torch.arange(32), 8192).float().tolist()) == {8192.0}   # 8192..8223 -> 8192
    assert float(A.lowp_positions(torch.tensor([58]), 8192)) == 8256.0                  # 8250 -> 8256
    assert A.lowp_positions(torch.arange(5), 512, "float16").float().tolist() == [512, 513, 514, 515, 516]
    assert A.significant_bits("bfloat16") == 8 and A.significant_bits("float16") == 11
    # the bug rotates by exactly these rounded positions (times the rounded theta)
    x = torch.randn(1, 1, 5, 8, generator=torch.Generator().manual_seed(0))
    pos = torch.arange(5)[None]
    stored = A.lowp_positions(pos, 8192)                                              # [1,5] bfloat16
    assert torch.equal(rotate_lowp(x, pos, 8192, torch.bfloat16, "interleaved"),
                       rotate_lowp(x, stored.float() - 8192, 8192, torch.bfloat16, "interleaved"))
    for bad in (dict(lowp_dtype="float8"), dict(offset=-1), dict(offset=10**9)):
        with pytest.raises(ValueError):
            A.lowp_positions(pos, **{"offset": 8192, **bad})


def test_errors_are_coded():
    model = A.build_model("rope", num_heads=1, head_dim=8)
    ids = torch.tensor([[1, 2, 3]])
    with pytest.raises(ValueError) as e:
        A.forward(model, ids, torch.ones_like(ids), torch.zeros(1, 4, dtype=torch.long))
    assert e.value.code == "lab.same_shape" and e.value.message("zh") != str(e.value)
    with pytest.raises(ValueError, match="head_dim") as e:
        A.build_model("rope", head_dim=9)
    assert e.value.code == "even"


# ---------------------------------------------------------------- the fast summary equals the straightforward one
def _summary_by_compare(sentence_a, sentence_b, *, padding_side="left", num_heads=2, head_dim=16, causal=False,
                        max_length=16, lowp_dtype="bfloat16", lowp_offset=4096):
    """The summary matrix computed the transparent way: `compare` for every cell, as summary_matrix did
    before it shared references and intermediates (on one thread, as summary_matrix and the app run)."""
    batch = A.encode_pair(sentence_a, sentence_b, padding_side)
    err = np.full((len(A.SUMMARY_ROWS), len(A.SUMMARY_COLS)), np.nan)
    status = [["ok"] * len(A.SUMMARY_COLS) for _ in A.SUMMARY_ROWS]
    with one_thread():
        for i, (method, layout) in enumerate(A.SUMMARY_ROWS):
            model = A.build_model(method, num_heads=num_heads, head_dim=head_dim, rope_layout=layout,
                                  max_length=max_length)
            for j, (scheme, bug) in enumerate(A.SUMMARY_COLS):
                if not A.applies(method, bug):
                    status[i][j] = "na"
                    continue
                try:
                    _, _, errs, _ = A.compare(model, batch, scheme, () if bug is None else (bug,), causal=causal,
                                              lowp_dtype=lowp_dtype, lowp_offset=lowp_offset)
                except PositionOutOfRangeError:
                    status[i][j] = "out_of_range"
                    continue
                err[i, j] = max(float(e.max()) for e in errs)
    return err, status


@pytest.mark.parametrize("sentences, kw", [
    ((S_A, S_B), {}),
    ((S_A, S_B), dict(padding_side="right", num_heads=4, head_dim=64, causal=True, lowp_dtype="float16",
                      lowp_offset=32768)),
    ((S_A, S_B), dict(num_heads=1, head_dim=8, max_length=3)),                  # learned out of range, modulo wraps
    ((ZH_A, ZH_B), dict(num_heads=3, head_dim=32, max_length=5, lowp_offset=512)),  # the references out of range
    (("the cat the cat sat", "x"), dict(causal=True, max_length=64)),           # repeated tokens, a 1-token row
    (("a b c", "d e f"), dict(padding_side="right", num_heads=4)),              # no pads at all
    ((" ".join(f"w{i}" for i in range(24)), "short one"), dict(num_heads=2, head_dim=16, max_length=64)),
])
def test_summary_matrix_equals_compare_cell_by_cell(sentences, kw):
    """summary_matrix shares the references and the intermediates of its setups (posviz.lab._toy_fast): every
    cell and status must be exactly what `compare` gives for that cell."""
    want_err, want_status = _summary_by_compare(*sentences, **kw)
    err, status = A.summary_matrix(*sentences, **kw)
    assert status == want_status
    np.testing.assert_array_equal(err, want_err)                      # bit for bit (NaN where n/a)
    some = (A.SUMMARY_COLS[11], A.SUMMARY_COLS[0], A.SUMMARY_COLS[4])   # any subset of the columns, any order
    part, part_status = A.summary_matrix(*sentences, **kw, cols=some)
    idx = [A.SUMMARY_COLS.index(c) for c in some]
    np.testing.assert_array_equal(part, want_err[:, idx])
    assert part_status == [[row[j] for j in idx] for row in want_status]


def test_summary_matrix_checks_its_columns():
    with pytest.raises(ValueError, match="cols") as e:
        A.summary_matrix(S_A, S_B, cols=(("mask", "typo"),))
    assert e.value.code == "choice"


def test_pair_blocks_equal_the_element_by_element_rotation():
    """build_model's block rotations, written with index tensors, equal the element loop they replace."""
    for layout, d in (("interleaved", 8), ("half", 16), ("interleaved", 64)):
        angles = torch.rand(d // 2) * 7 - 3                                 # [d/2]
        loop = torch.zeros(d, d)                                            # [d,d]
        for i, a in enumerate(angles.tolist()):
            a0, a1 = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2)
            c, s = math.cos(a), math.sin(a)
            loop[a0, a0], loop[a0, a1], loop[a1, a0], loop[a1, a1] = c, -s, s, c
        assert torch.equal(A._pair_rotation(angles, layout, d), loop)


def test_one_set_of_draws_serves_every_method():
    """summary_matrix draws the seeded weights once and structures every method's model from them:
    each model equals build_model's, field for field, and the draws stay untouched."""
    draws = A._seeded_draws(3, 16, 7, 5)
    before = {k: v.clone() for k, v in draws.items() if torch.is_tensor(v)}
    for method, layout in A.SUMMARY_ROWS + (("sinusoidal", "half"),):
        shared = A._structured(method, layout, draws)
        fresh = A.build_model(method, num_heads=3, head_dim=16, rope_layout=layout, max_length=7, seed=5)
        for name, value in vars(fresh).items():
            other = getattr(shared, name)
            assert torch.equal(value, other) if torch.is_tensor(value) else value == other, (method, name)
    assert all(torch.equal(draws[k], v) for k, v in before.items())
