"""posviz.lab.angle_precision: phase errors of RoPE's angles by hand (bfloat16 and float16 rounding of the position),
the float32 paths' bounds, and the envelope."""
import math

import pytest
import torch

from posviz.lab import angle_precision as A


def test_the_fastest_pair_by_hand():
    """theta_0 = 1 is exact in every dtype, so pair 0's error is the rounding of m itself: bfloat16 keeps every integer
    up to 256 and rounds 257 to 256 (ties to even) and 301 to 300; float16 keeps every integer up to 2048 and rounds
    2049 to 2048."""
    bf = A.rope_phase_error(4100, 8, "bfloat16", "angle_lowp")[:, 0]
    assert float(bf[:257].abs().max()) < 1e-12                            # exact (up to wrapping the angle)
    assert float(bf[257]) == pytest.approx(-1.0) and float(bf[301]) == pytest.approx(-1.0)
    assert float(bf[4097]) == pytest.approx(-1.0)                        # spacing 32 from 4096: 4097 -> 4096
    f16 = A.rope_phase_error(2100, 8, "float16", "angle_lowp")[:, 0]
    assert float(f16[:2049].abs().max()) < 1e-12 and float(f16[2049]) == pytest.approx(-1.0)


def test_float32_angles_stay_small_and_stored_cos_sin_do_not_grow():
    for dtype in A.LOW_DTYPES:
        f32 = A.rope_phase_error(32768, 64, dtype, "float32").abs()
        table = A.rope_phase_error(32768, 64, dtype, "cos_sin_lowp").abs()
        low = A.rope_phase_error(32768, 64, dtype, "angle_lowp").abs()
        assert float(f32.max()) < 32768 * 2 ** -24 * 2           # one float32 rounding of an angle up to 32768 rad
        eps = torch.finfo(A.LOW_DTYPES[dtype]).eps
        assert float(table.max()) < float(f32.max()) + 2 * eps    # one rounding of cos and sin on float32's angle
        assert float(table[:1000].max()) > float(table.max()) / 8      # bounded from the start: it does not grow
        assert float(low.max()) > 3.1                               # the bug: the phase is noise (up to pi)


def test_the_errors_are_wrapped_to_minus_pi_pi():
    e = A.rope_phase_error(20000, 16, "bfloat16", "angle_lowp")
    assert float(e.max()) <= math.pi and float(e.min()) > -math.pi - 1e-12


def test_envelope_and_first_position():
    e = A.rope_phase_error(1000, 16, "bfloat16", "angle_lowp")
    x, y = A.phase_error_envelope(e, bins=7)
    assert x.tolist() == list(range(0, 1001, 143)) and float(y.max()) == float(e.abs().max())   # 1001 = 7 x 143
    first = A.first_position_above(e, 0.1)
    assert float(e[first].abs().max()) > 0.1 and float(e[:first].abs().max()) <= 0.1
    assert A.first_position_above(A.rope_phase_error(100, 16, "float16", "float32"), 0.1) is None
