"""posviz.views.sinusoidal: plain data out (no tensors), and the numbers the page's narration states,
checked against the same functions the figures use."""
import math

import numpy as np
import pytest
import torch

from posviz import text
from posviz.pe import learned
from posviz.views import sinusoidal as view


def _plain(x):
    """Only numbers, strings, numpy arrays, lists / tuples / dicts of them."""
    if isinstance(x, torch.Tensor):
        return False
    if isinstance(x, dict):
        return all(_plain(k) and _plain(v) for k, v in x.items())
    if isinstance(x, (list, tuple)):
        return all(_plain(v) for v in x)
    return x is None or isinstance(x, (int, float, str, bool, np.ndarray, np.floating, np.integer))


@pytest.mark.parametrize("call", [
    lambda: view.table(10, 8, 10000), lambda: view.column(8, 10000, 30), lambda: view.wavelength_range(8, 100),
    lambda: view.position_zero(8, 10000), lambda: view.similarity(10, 8, 10000),
    lambda: view.offset_curves(10, 8, 10000),
    lambda: view.shift(5, 3, 8, 10000), lambda: view.hand(), lambda: view.signal(10, 8, 10000),
    lambda: view.learned_shape(8, 16, 16), lambda: view.modulo(30, 8), lambda: view.saved(8, 16, 10000),
    lambda: view.sections(("text only", "| a | b |\n|---|---|\n| 1 | 2 |\nafter")),
])
def test_views_return_plain_data(call):
    assert _plain(call())


def test_signal_is_the_plain_functions_it_combines():
    """One cache entry per (L, D, base) holds exactly what the separate functions compute."""
    sig = view.signal(40, 16, 100)
    np.testing.assert_array_equal(sig["table"], view.table(40, 16, 100))
    np.testing.assert_array_equal(sig["concat"], view.table(40, 16, 100, "concat"))
    np.testing.assert_array_equal(sig["similarity"], view.similarity(40, 16, 100))
    curves = view.offset_curves(40, 16, 100)
    np.testing.assert_array_equal(sig["curves"]["dots"], curves["dots"])
    np.testing.assert_array_equal(sig["curves"]["anchored"], curves["anchored"])
    assert sig["curves"]["summary"] == curves["summary"] and sig["curves"]["rise"] == curves["rise"]
    assert sig["wavelengths"] == view.wavelength_range(16, 100) and sig["pe0"] == view.position_zero(16, 100)
    assert sig["perm"] == view.permutation_text(16)


def test_sections_split_each_text():
    a, b = view.sections(("no table here", "intro\n| h1 | h2 |\n|---|---|\n| x | y |\nafter"))
    assert a == {"columns": {}, "text": "no table here"}
    assert b == {"columns": {"h1": ["x"], "h2": ["y"]}, "text": "intro\nafter"}


def test_fingerprint_column_is_the_formula_beyond_the_table():
    column = view.column(16, 10000, 40)                          # position 40 lies beyond L = 32
    np.testing.assert_allclose(column, view.table(41, 16, 10000)[40], atol=1e-6)


def test_scene_waves_claims():
    """“Dimension 0 repeats every 6.28 positions; dimension 62 hardly moves in 100 positions.”"""
    fast, _ = view.wavelength_range(64, 10000)
    assert f"{fast:.2f}" == "6.28" and "6.28" in text.get("en", "sinusoidal.scene.waves.say")
    column = view.table(100, 64, 10000)[:, 62]                   # sin of pair 31
    assert column.max() - column.min() < 0.02                    # barely moves over 100 positions
    assert view.wavelength_range(64, 10000)[1] > 40000


def test_scene_shift_claim():
    """“M(3)·PE(5) lands exactly on PE(8)”, and M(Δ) does not depend on p."""
    a, b = view.shift(5, 3, 16, 10000), view.shift(500, 3, 16, 10000)
    assert a["error"] < 1e-6
    np.testing.assert_allclose(a["target"], view.table(1, 16, 10000, offset=8)[0], atol=1e-6)
    np.testing.assert_array_equal(a["matrix"], b["matrix"])
    assert sorted(a["blocks"]) == [0, 7]


def test_scene_modulo_claims():
    """“with p mod 8, positions 0, 8, 16 and 24 read the same row” and “22 of the 30 positions”."""
    mod = view.modulo(30, 8)
    assert mod["aliases"][0] == (0, [0, 8, 16, 24]) and mod["shown"][0] == (0, "0, 8, 16, 24")
    assert mod["overrun"] == 22 and mod["more"] == 0
    assert "0, 8, 16" in text.get("en", "sinusoidal.scene.mod.say")
    assert view.modulo(2048, 16)["shown"][0][1].endswith(" …")


def test_scene_edge_is_the_boundary():
    assert view.learned_shape(64, 512, 512) == [view.BATCH, 512, 64]
    with pytest.raises(learned.PositionOutOfRangeError) as e:
        view.learned_shape(64, 512, 513)
    assert e.value.boundary


def test_hand_rows_are_the_article_table():
    """“Same words, different order…” §04: [0, 1], [1, 0], [0, -1], [-1, 0]."""
    assert view.hand()["rows"] == ["[0, 1]", "[1, 0]", "[0, -1]", "[-1, 0]"]


def test_layout_permutation_text():
    assert view.permutation_text(8) == "[0, 2, 4, 6, 1, 3, 5, 7]"
    assert view.signal(4, 64, 10000)["perm"] == "[0, 2, 4, …, 62, 1, 3, …, 63]"


def test_position_zero_is_0101():
    assert view.position_zero(16, 10000) == "0, 1, 0, 1, 0, 1, 0, 1"


def test_saved_columns():
    cols = view.saved(8, 16, 10000)
    rows = list(zip(*cols.values()))
    assert ("learned", "position.weight", "[16, 8]", "parameter", "yes") in rows
    assert ("sinusoidal", "position", "[16, 8]", "buffer", "no") in rows
    assert set(cols["saved"]) <= {"yes", "no"} and set(cols["kind"]) <= {"parameter", "buffer"}


def test_offset_curve_rise_text():
    curves = view.offset_curves(256, 16, 10000)
    assert curves["rise"] == f"Δ = {curves['summary']['first_rise']}"
    assert view.offset_curves(4, 2, 10000)["rise"] is None or math.isfinite(curves["summary"]["minimum"])


@pytest.mark.parametrize("dim", [16, 64, 128])
def test_the_first_rise_is_the_first_offset_higher_than_the_one_before(dim):
    """At the page's default D = 64: d(4) = 23.93 > d(5) = 23.50 < d(6) = 23.56, so the curve first rises at
    Δ = 6 (it used to print the minimum before it, Δ = 5)."""
    curves = view.offset_curves(100, dim, 10000)
    d, r = curves["dots"], curves["summary"]["first_rise"]
    assert d[r] > d[r - 1] and all(d[k] <= d[k - 1] for k in range(1, r))
    if dim == 64:
        assert curves["rise"] == "Δ = 6"


def test_barcodes_are_the_table_s_rows_and_neighbours_dot_the_same():
    """Issue 33 item 13: “Position encodings”' barcode on every seat: the rows of the table, every one different,
    and PE(p)·PE(p+1) the same for both pairs of neighbours (sum_i cos(w_i), by hand)."""
    bc = view.barcodes(64, 10000, 3)
    assert bc["seats"] == [3, 4, 43, 44] and bc["rows"].shape == (4, 64)
    for row, q in zip(bc["rows"], bc["seats"]):
        np.testing.assert_allclose(row, view.table(q + 1, 64, 10000)[q], atol=1e-6)
    assert len({tuple(np.round(r, 5)) for r in bc["rows"]}) == 4
    hand = sum(math.cos(10000 ** (-2 * i / 64)) for i in range(32))
    assert bc["dots"] == pytest.approx([hand, hand], abs=1e-4)
