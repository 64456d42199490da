"""posviz.pe.learned: the learned absolute table, its hard boundary, and the modulo bug."""
import pytest
import torch

from posviz.pe import learned
from posviz.validate import PosvizError


def test_forward_shape_and_sum():
    mod = learned.LearnedAbsolutePositions(vocab_size=1000, model_dim=64, max_length=512)
    ids = torch.randint(0, 1000, (3, 20), generator=torch.Generator().manual_seed(1))
    out = mod(ids)
    assert out.shape == (3, 20, 64)                                     # seed 000 §06
    torch.testing.assert_close(out, mod.token.weight[ids] + mod.position.weight[:20][None])
    assert mod.position.weight.shape == (512, 64)
    assert mod.position.weight.requires_grad


def test_seeded_init_is_reproducible_and_leaves_global_rng():
    torch.manual_seed(123)
    before = torch.rand(1)
    torch.manual_seed(123)
    a = learned.LearnedAbsolutePositions(50, 8, 16, seed=7)
    after = torch.rand(1)
    assert before == after                                              # global RNG untouched
    b = learned.LearnedAbsolutePositions(50, 8, 16, seed=7)
    c = learned.LearnedAbsolutePositions(50, 8, 16, seed=8)
    torch.testing.assert_close(a.position.weight, b.position.weight)
    assert not torch.equal(a.position.weight, c.position.weight)


def test_length_equal_to_max_length_works():
    mod = learned.LearnedAbsolutePositions(100, 8, 16)
    assert mod(torch.zeros(2, 16, dtype=torch.long)).shape == (2, 16, 8)
    assert learned.learned_forward_shape(8, 16, 16) == (1, 16, 8)


def test_length_beyond_max_length_raises_clear_error():
    mod = learned.LearnedAbsolutePositions(100, 8, 16)
    with pytest.raises(learned.PositionOutOfRangeError) as e:
        mod(torch.zeros(1, 17, dtype=torch.long))
    assert isinstance(e.value, ValueError)
    msg = str(e.value)
    assert "max_length=16" in msg and "L=17" in msg
    with pytest.raises(learned.PositionOutOfRangeError, match="max_length=16"):
        learned.learned_forward_shape(8, 16, 17)


def test_never_wraps():
    """Row p is position p; no position ever reads row p mod M."""
    mod = learned.LearnedAbsolutePositions(10, 4, 5)
    out = mod(torch.zeros(1, 5, dtype=torch.long))[0] - mod.token.weight[0]
    torch.testing.assert_close(out, mod.position.weight)


def test_modulo_bug_aliases_positions():
    ids = learned.modulo_position_ids(20, 8)
    assert ids.tolist() == [p % 8 for p in range(20)]
    assert ids[8] == 0 and ids[16] == 0                                 # far positions reuse row 0
    al = dict(learned.aliased_positions(20, 8))
    assert al[0] == [0, 8, 16] and al[3] == [3, 11, 19] and al[7] == [7, 15]
    assert learned.aliased_positions(8, 8) == []                        # no overrun, no alias
    # what the bug does to a model: positions 0 and M get identical vectors
    mod = learned.LearnedAbsolutePositions(10, 4, 8)
    rows = mod.position(ids)
    torch.testing.assert_close(rows[0], rows[8])


def test_state_dict_summary():
    rows = learned.state_dict_summary(100, 8, 16)
    got = {(m, n): (shape, kind, saved) for m, n, shape, kind, saved in rows}
    assert got[("learned", "position.weight")] == ((16, 8), "parameter", True)
    assert got[("sinusoidal", "position")] == ((16, 8), "buffer", False)
    assert got[("learned", "token.weight")] == ((100, 8), "parameter", True)


@pytest.mark.parametrize("call, name", [
    (lambda: learned.LearnedAbsolutePositions(0, 8, 16), "vocab_size"),
    (lambda: learned.LearnedAbsolutePositions(10, 0, 16), "model_dim"),
    (lambda: learned.LearnedAbsolutePositions(10, 8, 0), "max_length"),
    (lambda: learned.LearnedAbsolutePositions(10, 8, 10**9), "max_length"),
    (lambda: learned.LearnedAbsolutePositions(10, 8, 4)(torch.zeros(4, dtype=torch.long)), "token_ids"),
    (lambda: learned.LearnedAbsolutePositions(10, 8, 4)(torch.zeros(1, 3)), "token_ids"),
    (lambda: learned.LearnedAbsolutePositions(10, 8, 4)(torch.full((1, 3), 10)), "token_ids"),
    (lambda: learned.learned_forward_shape(8, 16, 0), "length"),
    (lambda: learned.modulo_position_ids(0, 8), "length"),
    (lambda: learned.modulo_position_ids(8, 0), "max_length"),
    (lambda: learned.modulo_position_ids(8, "abc"), "max_length"),
])
def test_invalid_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_boundary_error_is_a_coded_boundary_in_both_languages():
    """L = M + 1 is the hard boundary the articles warn about: a PosvizError with boundary = True,
    which the UI shows as a warning (not as invalid input), in the user's language."""
    with pytest.raises(learned.PositionOutOfRangeError) as e:
        learned.learned_forward_shape(64, 512, 513)
    err = e.value
    assert isinstance(err, PosvizError) and err.boundary and err.code == "learned_boundary"
    assert err.params == dict(L=513, M=512, last=511)
    assert "max_length=512" in err.message("zh") and "硬边界" in err.message("zh")
    assert "hard boundary" in err.message("en")


@pytest.mark.parametrize("call, code", [
    (lambda: learned.LearnedAbsolutePositions(10, 8, 4)(torch.zeros(1, 3)), "token_ids_tensor"),
    (lambda: learned.LearnedAbsolutePositions(10, 8, 4)(torch.full((1, 3), 10)), "range"),
    (lambda: learned.modulo_position_ids(8, 0), "range"),
])
def test_errors_are_coded(call, code):
    with pytest.raises(PosvizError) as e:
        call()
    assert e.value.code == code and not e.value.boundary


def test_formulas_live_beside_the_code():
    from posviz.ui.plotting import formulas

    assert formulas(learned.LearnedAbsolutePositions) and formulas(learned.modulo_position_ids)
