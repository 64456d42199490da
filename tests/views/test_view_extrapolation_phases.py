"""Issue 33 item 8 on /extrapolation: the phase figure's text says what each method does to the pairs that reach
angles never seen in training; each clause checked on every combination of width, base, lengths and factor below
(the text used to say NTK-aware removes them "for the slowest pairs": for Llama 2 at s = 4 it fixes one pair and 17
of 18 remain, as the chart's own title counts)."""
import itertools
import json

import pytest

from posviz import text
from posviz.views import extrapolation as view

GRID = list(itertools.product((16, 64, 128), (10000.0, 500000.0, 1000000.0), (2048, 4096, 32768), (2, 4, 8, 16)))


def _never(d, base, train, s, method):
    params = json.dumps({"rope_type": "default", "rope_theta": base})
    return int(view.analysis(d, params, train, train * s, method)["never_seen"].sum())


@pytest.mark.parametrize("d, base, train, s", GRID[::7])
def test_pi_yarn_and_llama3_remove_every_new_angle_ntk_only_the_slowest(d, base, train, s):
    red = _never(d, base, train, s, "default")          # 0 where even the slowest pair turns in training
    for method in ("linear", "yarn", "llama3"):
        assert _never(d, base, train, s, method) == 0, method
    assert _never(d, base, train, s, "ntk") == max(red - 1, 0)


def test_llama2_at_4x_keeps_17_of_18():
    assert (_never(128, 10000.0, 4096, 4, "default"), _never(128, 10000.0, 4096, 4, "ntk")) == (18, 17)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_phase_text_says_so(lang):
    t = text.get(lang, "extrapolation.phase.text")
    assert "for the slowest pairs" not in t and "消除了最慢的那些" not in t
    assert ("NTK-aware removes only the slowest one" in t) if lang == "en" else ("NTK-aware 只消除最慢的一对" in t)
