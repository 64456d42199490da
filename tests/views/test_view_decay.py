"""posviz.views.decay: normalised curves, and every number the decay page's narration states, read off
the same functions the figures draw (so text and figure cannot drift apart)."""
import math

import numpy as np
import pytest

from posviz import text
from posviz.pe import decay
from posviz.pe.relative import alibi_slopes
from posviz.scenes.decay import SCENES
from posviz.views import decay as V

SCENE = {sc["title"].rsplit(".", 1)[1]: sc["values"] for sc in SCENES["decay"]}


def say(name, lang):
    return text.get(lang, f"decay.scene.{name}.say")


def fmt(x, digits=2):
    return f"{x:.{digits}f}".replace("-", "−")


def test_curves_are_normalised_and_plain():
    c = V.main_curves.uncached(128, 1024, False, 10000)
    assert c["bound"][0] == pytest.approx(1.0) and c["ones"][0] == pytest.approx(1.0)
    r = V.grid.uncached(1024, False)
    np.testing.assert_allclose(c["bound"], decay.roformer_decay_bound(128, 1024).numpy()[r] / 32.5)
    assert V.sinusoidal_line.uncached(1024, False, 512)[0] == pytest.approx(1.0)
    (h, m, line), = V.alibi_lines.uncached(1024, False, (4,))
    assert (h, m) == (4, 1 / 16) and np.allclose(line, 1 - r / 16)
    assert V.last_pair(2) == 0 and V.last_pair(128) == 63
    for out in (c, V.random_curves.uncached(16, 64, False, 10000, 4, 0.5, 0),
                V.pair_curve.uncached(8, 64, False, 100, 1)):
        assert not any(hasattr(v, "detach") for v in out.values())


def test_values_at_are_the_plotted_points():
    v = SCENE["bases"]
    r = V.grid.uncached(v["decay_R"], v["decay_logx"])
    for base in (max(v["decay_bases"]),):                                  # the base the narration quotes
        c = V.main_curves.uncached(v["decay_d"], v["decay_R"], v["decay_logx"], base)
        at = V.values_at.uncached(v["decay_d"], base, (100, 10000))
        for dist, b, o in zip((100, 10000), at["bound"], at["ones"]):
            hit = np.flatnonzero(r == dist)
            if hit.size:                                                   # a drawn point: the very same number
                assert c["bound"][hit[0]] == pytest.approx(b) and c["ones"][hit[0]] == pytest.approx(o)
            else:                                                          # between two drawn points: next to both
                nb = [int(np.searchsorted(r, dist)) - 1, int(np.searchsorted(r, dist))]
                assert np.abs(c["bound"][nb] - b).max() < 0.03 and np.abs(c["ones"][nb] - o).max() < 0.03
        assert 100 in r                                                    # r = 100 is drawn exactly


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bases_scene_numbers_come_from_the_plotted_curves(lang):
    v = SCENE["bases"]
    s = say("bases", lang)
    big, small = max(v["decay_bases"]), min(v["decay_bases"])
    at = V.values_at.uncached(v["decay_d"], big, (100, 10000))
    for x in (at["ones"][0], at["ones"][1], at["bound"][0], at["bound"][1]):
        assert fmt(x) in s, (fmt(x), s)
    assert f"r = {V.summary.uncached(v['decay_d'], v['decay_R'], small)['first_negative']}" in s
    for base in v["decay_bases"]:                                          # "no base stays near 1"
        far = V.values_at.uncached(v["decay_d"], base, (10000,))
        assert far["ones"][0] < 0.5 and far["bound"][0] < 0.5
    assert "thousands of tokens" not in s and "几千个词内都接近 1" not in s


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_random_scene_numbers(lang):
    v = SCENE["same"]
    args = (v["decay_d"], v["decay_R"], v["decay_logx"], v["decay_bases"][0], v["decay_n"], v["decay_rho"],
            v["decay_seed"])
    c = V.random_curves.uncached(*args)
    s = say("same", lang)
    assert c["mean_gap"] < 0.03 and "0.03" in s and str(v["decay_n"]) in s
    assert f"± {fmt(c['std_mean'])}" in s and fmt(c["example_gap"]) in s
    v = SCENE["indep"]
    args = (v["decay_d"], v["decay_R"], v["decay_logx"], v["decay_bases"][0], v["decay_n"], v["decay_rho"],
            v["decay_seed"])
    c = V.random_curves.uncached(*args)
    s = say("indep", lang)
    assert c["mean_max"] <= 0.03 + 0.005 and "± 0.03" in s
    assert f"± {fmt(c['std_at'][1])}" in s and f"± {fmt(c['std_at'][1000])}" in s


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bound_pair_and_widget_numbers(lang):
    v = SCENE["bound"]
    assert f"{V.summary.uncached(v['decay_d'], v['decay_R'], 10000)['bound0']:g}" == "32.5"
    assert "32.5" in say("bound", lang) and "32.5" in text.get(lang, "decay.s1.text")
    v = SCENE["pair"]
    p = V.pair_curve.uncached(v["decay_d"], v["decay_R"], v["decay_logx"], v["decay_bases"][0], v["decay_pair"])
    assert p["at3"] == pytest.approx(math.cos(3.0)) and f"≈ {fmt(p['at3'])}" in say("pair", lang)
    flat = V.main_curves.uncached(v["decay_d"], v["decay_R"], v["decay_logx"], v["decay_bases"][0])["bound"]
    assert np.allclose(flat, 1.0)                                          # "the RoFormer bound is flat"
    assert V.summary.uncached(128, 4096, 10000)["first_negative"] == 1707
    assert "1707" in text.get(lang, "decay.s1.read")
    assert f"{V.POINTS}" in text.get(lang, "w.decay_R.help")
    m = alibi_slopes(V.ALIBI_NUM_HEADS).tolist()
    assert (m[0], m[3], m[7]) == (1 / 2, 1 / 16, 1 / 256)                  # "head 1 has m = 1/2, head 4 ... 1/256"
    assert all(f in text.get(lang, "w.decay_alibi.help") for f in ("1/2", "1/16", "1/256"))
