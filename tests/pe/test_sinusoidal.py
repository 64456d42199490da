"""posviz.pe.sinusoidal: the seed's numbers by hand, the shift-rotation identity, offset-only
dot products, layout equivalence, reference implementations, and argument validation."""
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from posviz.pe import sinusoidal as sn
from posviz.validate import PosvizError


# ---------------------------------------------------------------- frequencies and table
def test_frequencies_formula():
    for dim, base in [(2, 10000.0), (8, 10000.0), (64, 10000.0), (16, 500000.0), (6, 10.0)]:
        w = sn.sinusoidal_frequencies(dim, base)
        assert w.shape == (dim // 2,) and w.dtype == torch.float32
        expect = torch.tensor([base ** (-2 * i / dim) for i in range(dim // 2)], dtype=torch.float32)
        torch.testing.assert_close(w, expect, rtol=1e-6, atol=0)
        assert w[0] == 1.0 and bool((w[1:] < w[:-1]).all())


def test_row0_is_0101_interleaved():
    pe = sn.sinusoidal_positions(5, 8)
    assert pe.shape == (5, 8)
    torch.testing.assert_close(pe[0], torch.tensor([0.0, 1.0] * 4))
    torch.testing.assert_close(pe[0, 0::2], torch.zeros(4))          # seed 000 §05 asserts
    torch.testing.assert_close(pe[0, 1::2], torch.ones(4))


def test_matches_seed_000_section_05_code():
    """The seed's own function (exp(-log(10000) * 2i / D)) gives the same table."""
    length, dim = 50, 16
    positions = torch.arange(length, dtype=torch.float32)[:, None]
    pair_index = torch.arange(0, dim, 2, dtype=torch.float32)
    angles = positions * torch.exp(-math.log(10000.0) * pair_index / dim)[None, :]
    ref = torch.empty(length, dim)
    ref[:, 0::2], ref[:, 1::2] = angles.sin(), angles.cos()
    torch.testing.assert_close(sn.sinusoidal_positions(length, dim), ref, atol=2e-5, rtol=0)


def test_matches_vaswani_formula_elementwise():
    # frequencies are float32 (as in real models), so angles p*w carry ~1e-7 relative error
    pe = sn.sinusoidal_positions(7, 10, offset=100, dtype=torch.float64)
    for r in range(7):
        p = 100 + r
        for i in range(5):
            assert pe[r, 2 * i].item() == pytest.approx(math.sin(p / 10000 ** (2 * i / 10)), abs=1e-5)
            assert pe[r, 2 * i + 1].item() == pytest.approx(math.cos(p / 10000 ** (2 * i / 10)), abs=1e-5)


def test_offset_rows():
    full = sn.sinusoidal_positions(30, 12)
    part = sn.sinusoidal_positions(10, 12, offset=20)
    torch.testing.assert_close(part, full[20:])


def test_matches_transformers_interleaved_reference():
    """Hugging Face XLM's create_sinusoidal_embeddings: the interleaved layout."""
    xlm = pytest.importorskip("transformers.models.xlm.modeling_xlm")
    out = xlm.create_sinusoidal_embeddings(300, 32, torch.empty(300, 32))
    torch.testing.assert_close(out, sn.sinusoidal_positions(300, 32), atol=2e-5, rtol=0)


def test_matches_transformers_concat_reference():
    """Hugging Face Marian's table: sin in the first half, cos in the second (tensor2tensor)."""
    marian = pytest.importorskip("transformers.models.marian.modeling_marian")
    weight = marian.MarianSinusoidalPositionalEmbedding(300, 32).create_weight()
    torch.testing.assert_close(weight.float(), sn.sinusoidal_positions(300, 32, layout="concat"), atol=2e-5, rtol=0)


# ---------------------------------------------------------------- layouts
@pytest.mark.parametrize("dim", [2, 4, 10, 64])
def test_layouts_are_a_permutation(dim):
    a = sn.sinusoidal_positions(33, dim, layout="interleaved")
    b = sn.sinusoidal_positions(33, dim, layout="concat")
    perm = sn.sinusoidal_layout_permutation(dim)
    assert sorted(perm.tolist()) == list(range(dim))
    torch.testing.assert_close(b, a[:, perm])
    torch.testing.assert_close(a @ a.T, b @ b.T)                       # same dot products


def test_concat_halves():
    b = sn.sinusoidal_positions(5, 8, layout="concat")
    torch.testing.assert_close(b[0], torch.tensor([0.0] * 4 + [1.0] * 4))


# ---------------------------------------------------------------- shift = rotation
def test_rotation_2x2_is_seed_formula():
    w, d = 0.3, 5
    m = sn.shift_rotation_2x2(d, w)
    a = d * w
    expect = torch.tensor([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]], dtype=torch.float64)
    torch.testing.assert_close(m, expect)
    for p in (0, 1, 7, 1234):
        v = torch.tensor([math.sin(p * w), math.cos(p * w)], dtype=torch.float64)
        t = torch.tensor([math.sin((p + d) * w), math.cos((p + d) * w)], dtype=torch.float64)
        torch.testing.assert_close(m @ v, t)
    torch.testing.assert_close(m @ m.T, torch.eye(2, dtype=torch.float64))   # a rotation


@settings(max_examples=40, deadline=None)
@given(p=st.integers(0, 5000), delta=st.integers(-500, 500), half=st.integers(1, 32),
       layout=st.sampled_from(sn.SINUSOIDAL_LAYOUTS))
def test_shift_rotation_identity(p, delta, half, layout):
    dim = 2 * half
    delta = max(delta, -p)
    m = sn.shift_rotation_matrix(delta, dim, layout=layout)
    pe_p = sn.sinusoidal_positions(1, dim, layout=layout, offset=p)[0]
    target = sn.sinusoidal_positions(1, dim, layout=layout, offset=p + delta)[0]
    assert (m @ pe_p - target).abs().max() < 1e-5


def test_shift_matrix_block_diagonal_and_independent_of_p():
    m = sn.shift_rotation_matrix(3, 8, dtype=torch.float64)
    w = sn.sinusoidal_frequencies(8).to(torch.float64)
    for i in range(4):
        torch.testing.assert_close(m[2 * i:2 * i + 2, 2 * i:2 * i + 2], sn.shift_rotation_2x2(3, float(w[i])))
    off = m.clone()
    for i in range(4):
        off[2 * i:2 * i + 2, 2 * i:2 * i + 2] = 0
    assert off.abs().max() == 0
    torch.testing.assert_close(m @ m.T, torch.eye(8, dtype=torch.float64))
    # composition: M(a) M(b) = M(a + b)
    torch.testing.assert_close(sn.shift_rotation_matrix(2, 8, dtype=torch.float64) @
                               sn.shift_rotation_matrix(5, 8, dtype=torch.float64),
                               sn.shift_rotation_matrix(7, 8, dtype=torch.float64))


def test_shift_check():
    pe_p, rotated, target, err = sn.shift_check(5, 3, 16)
    assert err < 1e-5
    torch.testing.assert_close(target, sn.sinusoidal_positions(1, 16, offset=8)[0])
    torch.testing.assert_close(pe_p, sn.sinusoidal_positions(1, 16, offset=5)[0])


# ---------------------------------------------------------------- similarity and offsets
def test_hand_table_omega_pi_over_2():
    pe, dots = sn.single_frequency_table()
    assert pe.tolist() == [[0, 1], [1, 0], [0, -1], [-1, 0]]
    assert dots[0, 1] == 0 and dots[2, 3] == 0                        # offset 1 -> 0
    assert dots[0, 2] == -1 and dots[1, 3] == -1                      # offset 2 -> -1
    for m in range(4):
        for n in range(4):
            assert dots[m, n].item() == pytest.approx(math.cos((m - n) * math.pi / 2), abs=1e-12)


def test_similarity_depends_only_on_offset():
    length, dim = 60, 16
    s = sn.similarity_matrix(length, dim).double()
    d = sn.dot_by_offset(length - 1, dim).double()
    for m in range(length):
        for n in range(length):
            assert abs(s[m, n] - d[abs(m - n)]) < 1e-4
    torch.testing.assert_close(torch.diagonal(s), torch.full((length,), dim / 2, dtype=torch.float64))


@settings(max_examples=25, deadline=None)
@given(m=st.integers(0, 20000), n=st.integers(0, 20000), shift=st.integers(0, 20000))
def test_dot_product_shift_invariant(m, n, shift):
    dim = 32
    def pe(p):
        return sn.sinusoidal_positions(1, dim, offset=p, dtype=torch.float64)[0]
    a = pe(m) @ pe(n)
    b = pe(m + shift) @ pe(n + shift)
    w = sn.sinusoidal_frequencies(dim).double()
    assert abs(a - b) < 1e-9
    assert abs(a - torch.cos((m - n) * w).sum()) < 1e-9


def test_anchored_curves_coincide_with_formula():
    d = sn.dot_by_offset(99, 24)
    a = sn.anchored_dot_by_offset([0, 37, 1000, 12345], 99, 24)
    assert a.shape == (4, 100)
    for row in a:
        torch.testing.assert_close(row, d, atol=1e-4, rtol=0)


def test_dot_curve_not_monotone_and_periodic():
    # D = 2: a single frequency w = 1, d(Delta) = cos(Delta): periodic with period 2 pi
    d = sn.dot_by_offset(100, 2).double()
    torch.testing.assert_close(d, torch.cos(torch.arange(101, dtype=torch.float64)), atol=1e-6, rtol=0)
    s = sn.offset_curve_summary(255, 16)
    assert s["start"] == 8.0 and s["first_rise"] is not None           # goes down, then up again
    d16 = sn.dot_by_offset(255, 16)
    assert (d16[1:] > d16[:-1]).any() and (d16[1:] < d16[:-1]).any()


def test_sinusoidal_wavelengths():
    lam = sn.sinusoidal_wavelengths(64)
    assert lam[0].item() == pytest.approx(2 * math.pi)
    assert lam[-1].item() == pytest.approx(2 * math.pi * 10000 ** (62 / 64))


# ---------------------------------------------------------------- the buffer module
def test_sinusoidal_input_buffer_not_saved_and_any_length():
    mod = sn.SinusoidalInput(50, 8, cache_length=10)
    assert "position" not in mod.state_dict() and "token.weight" in mod.state_dict()
    assert [n for n, _ in mod.named_buffers()] == ["position"]
    assert not any(n == "position" for n, _ in mod.named_parameters())
    ids = torch.zeros(2, 25, dtype=torch.long)                          # longer than the cache: still works
    out = mod(ids)
    assert out.shape == (2, 25, 8)
    torch.testing.assert_close(out[0] - mod.token.weight[0], sn.sinusoidal_positions(25, 8))


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize("call, name", [
    (lambda: sn.sinusoidal_frequencies(7), "dim"),
    (lambda: sn.sinusoidal_frequencies(0), "dim"),
    (lambda: sn.sinusoidal_frequencies(8, base=1.0), "base"),
    (lambda: sn.sinusoidal_frequencies(8, base=0.5), "base"),
    (lambda: sn.sinusoidal_frequencies(8, base=float("nan")), "base"),
    (lambda: sn.sinusoidal_positions(0, 8), "length"),
    (lambda: sn.sinusoidal_positions(-3, 8), "length"),
    (lambda: sn.sinusoidal_positions(10**6, 8), "length"),
    (lambda: sn.sinusoidal_positions(4, 9), "dim"),
    (lambda: sn.sinusoidal_positions(4, 8, layout="half"), "layout"),
    (lambda: sn.sinusoidal_positions(4, 8, offset=-1), "offset"),
    (lambda: sn.sinusoidal_positions(4, 8, base=1), "base"),
    (lambda: sn.shift_rotation_matrix(1, 5), "dim"),
    (lambda: sn.shift_rotation_matrix(float("inf"), 4), "delta"),
    (lambda: sn.shift_check(2, -3, 8), "delta"),
    (lambda: sn.shift_check(-1, 1, 8), "position"),
    (lambda: sn.similarity_matrix(5000, 8), "length"),
    (lambda: sn.dot_by_offset(-1, 8), "max_offset"),
    (lambda: sn.anchored_dot_by_offset([], 5, 8), "anchors"),
    (lambda: sn.anchored_dot_by_offset([-1], 5, 8), "anchors"),
    (lambda: sn.single_frequency_table(0), "num_positions"),
    (lambda: sn.sinusoidal_layout_permutation(3), "dim"),
    (lambda: sn.SinusoidalInput(10, 7), "model_dim"),
])
def test_invalid_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize("call, code", [
    (lambda: sn.sinusoidal_frequencies(7), "even"),
    (lambda: sn.sinusoidal_positions(4, 8, layout="half"), "choice"),
    (lambda: sn.anchored_dot_by_offset([], 5, 8), "range"),
    (lambda: sn.SinusoidalInput(10, 8)(torch.zeros(4, dtype=torch.long)), "token_ids_tensor"),
    (lambda: sn.SinusoidalInput(10, 8)(torch.zeros(1, 3)), "token_ids_tensor"),
    (lambda: sn.SinusoidalInput(10, 8)([[1, 2]]), "token_ids_tensor"),
    (lambda: sn.SinusoidalInput(10, 8)(torch.full((1, 3), 10)), "range"),
    (lambda: sn.SinusoidalInput(10, 8)(torch.full((1, 3), -1)), "range"),
])
def test_errors_are_coded_and_speak_both_languages(call, code):
    """Every error is a PosvizError whose message exists in English and Chinese (issue 14 item 3)."""
    with pytest.raises(PosvizError) as e:
        call()
    assert e.value.code == code
    assert e.value.message("en") != e.value.message("zh")
    assert not e.value.message("zh").startswith("err.")


def test_every_figure_function_has_its_formula():
    """The formula box reads these docstring sections (pages hold no LaTeX)."""
    from posviz.ui.plotting import formulas

    for fn in (sn.sinusoidal_frequencies, sn.sinusoidal_positions, sn.sinusoidal_wavelengths, sn.pair_columns,
               sn.sinusoidal_layout_permutation, sn.shift_rotation_2x2, sn.shift_rotation_matrix, sn.shift_check,
               sn.similarity_matrix, sn.dot_by_offset, sn.anchored_dot_by_offset, sn.single_frequency_table,
               sn.SinusoidalInput):
        assert formulas(fn), fn.__name__
    assert formulas(sn.sinusoidal_frequencies) == [r"\omega_i = \text{base}^{-2i/D},\quad i = 0, 1, \ldots, D/2-1"]
    assert len(formulas(sn.shift_rotation_2x2)) == 1                   # continuation lines join one formula
