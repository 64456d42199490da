"""posviz.views.overview: plain data out, shared colour ranges, and the numbers the narration states
(token i averages over i + 1 tokens), checked against the toy layer that draws the figure."""
import numpy as np
import pytest
import torch

from posviz import text
from posviz.views import overview as view


def test_equivariance_returns_arrays_and_ranges():
    res = view.equivariance("dog bites man", "man bites dog", method="rope")
    assert not any(isinstance(v, torch.Tensor) for v in res.values())
    lo, hi = res["value_range"]
    assert lo == -hi and hi >= max(np.abs(res["out_b"]).max(), np.abs(res["p_out_a"]).max())
    d_lo, d_hi = res["diff_range"]
    assert d_lo == -d_hi and d_hi == pytest.approx(max(np.abs(res["diff"]).max(), 1e-6))


def test_an_exact_zero_difference_keeps_a_visible_range():
    res = view.equivariance("dog bites man", "man bites dog")
    assert res["max_diff"] < view.HARMLESS
    assert res["diff_range"][1] == max(res["max_diff"], 1e-6)                # float noise is not amplified


def test_table_has_a_row_per_method():
    table = view.equivariance_table("dog bites man", "man bites dog")
    assert table.shape == (len(view.POSITION_METHODS), 2)
    nope = view.POSITION_METHODS.index("nope")
    assert table[nope, 0] < view.HARMLESS < table[nope, 1]        # equivariant without the mask, not with it


@pytest.mark.parametrize("n", [1, 3, 4, 7])
def test_causal_weights_are_one_over_i_plus_1(n):
    """The footnote's claim: token i (from 0) averages over the i + 1 tokens 0..i, weight 1/(i+1) each,
    the same 1/(i+1) as the relative page's causal-mask section."""
    w = view.causal_weights(n)
    assert w["length"] == n
    np.testing.assert_allclose(w["weights"], [1 / (i + 1) for i in range(n)], rtol=1e-6)
    assert w["shown"].startswith("1, 0.5" if n > 1 else "1")
    assert w["shown"].endswith("…") == (n > view.WEIGHTS_SHOWN)


def test_causal_note_says_i_plus_1_in_both_languages():
    for lang in ("en", "zh"):
        note = text.get(lang, "overview.causal", n=3, last=2, weights="1, 0.5, 0.333")
        assert "i + 1" in note and "1/(i + 1)" in note


def test_seat_numbers():
    seat = view.seat_numbers(512)
    assert seat["p"][0] == 1 and len(seat["p"]) == 512
    np.testing.assert_allclose(seat["normalised"], seat["p"] / view.SEAT_TRAIN_LENGTH)
    assert seat["sinusoids"].shape == (3, 512) and np.abs(seat["sinusoids"]).max() <= 1
    periods = [2 * np.pi / w for w in view.SEAT_OMEGAS]
    assert [round(p) for p in periods] == [31, 126, 503]                  # the numbers of overview.seat.explain
    assert "31, 126, 503" in text.get("en", "overview.seat.explain")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_markdown_table_splits_the_reference_tables(lang):
    """The pages' reference tables become st.table columns (they fit a phone); the rest stays text."""
    methods = view.markdown_table(text.get(lang, "overview.table.md"))
    assert len(methods["columns"]) == 5 and all(len(col) == 7 for col in methods["columns"].values())
    assert list(methods["columns"].values())[0][0] == "Sinusoidal APE" and methods["text"] == ""
    absolute = view.markdown_table(text.get(lang, "sinusoidal.table.md"))
    assert len(absolute["columns"]) == 6 and all(len(col) == 3 for col in absolute["columns"].values())
    assert "padding" in absolute["text"] and "|" not in absolute["text"]
    assert view.markdown_table("no table here") == {"columns": {}, "text": "no table here"}


def test_a_bag_of_words_only_where_every_reordering_is_invisible():
    """Issue 33 item 12: ALiBi without a mask on a reversed sentence was called "a bag of words", although any
    other reordering breaks it. bag_of_words tries every swap of neighbours and the reversal."""
    assert view.other_orders("猫追狗") == ["追 猫 狗", "猫 狗 追", "狗 追 猫"]
    for a, b in (("猫追狗", "狗追猫"), ("man bites dog", "dog bites man")):
        nope = view.bag_of_words(a, method="nope", causal=False)
        assert nope["bag"] and nope["max_diff"] < view.HARMLESS and nope["tried"] == 3
        assert view.equivariance(a, b, method="alibi")["max_diff"] < view.HARMLESS       # blind to the reversal
        alibi = view.bag_of_words(a, method="alibi", causal=False)
        assert not alibi["bag"] and alibi["max_diff"] > 1e-3                              # but not to a swap
        assert alibi["worst"] in view.other_orders(a)
        for method in ("sinusoidal", "rope"):
            assert not view.bag_of_words(a, method=method)["bag"]
        assert not view.bag_of_words(a, method="nope", causal=True)["bag"]
