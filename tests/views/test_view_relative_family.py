"""posviz.views.relative's deep dives on the rest of the family (issue 37): plain outputs, and every number the
scenes' narrations state, computed by the same views the figures draw."""
import numpy as np
import pytest

from posviz import text
from posviz.lab import tokens
from posviz.pe import cope
from posviz.scenes.relative import SCENES
from posviz.views import relative as V

SCENE = {sc["title"].rsplit(".", 1)[1]: sc["values"] for sc in SCENES["relative"]}


def say(name, lang="en"):
    return text.get(lang, f"relative.scene.{name}.say")


def test_outputs_are_plain():
    for out in (V.transformer_xl_view.uncached(4, 3, V.XL_TERMS), V.deberta_view.uncached(9, 8, 16),
                V.fire_view.uncached(16, 2, 8, 1), V.xpos_view.uncached(64, 256),
                V.cope_view.uncached("a b. c", "sentences", "", 4.0)):
        for key, value in out.items():
            assert not hasattr(value, "detach"), key


def test_xl_scene():
    """8 tokens, memory 4, only (d): every diagonal one value; the shift leaves 8*7/2 = 28 cells of junk."""
    v = SCENE["xl"]
    xl = V.transformer_xl_view.uncached(v["rel_L"], v["rel_past"], tuple(v["rel_xl_terms"]))
    d = xl["query_pos"][:, None] - xl["key_pos"][None, :]
    for k in np.unique(d[d >= 0]):
        cells = xl["score"][d == k]
        assert np.allclose(cells, cells[0], atol=1e-5), k
    assert np.isnan(xl["score"][d < 0]).all()
    assert xl["said"]["junk"] == 28 and "28 cells" in say("xl") and "28 个格子" in say("xl", "zh")
    assert xl["said"]["err"] < 1e-5
    both = V.transformer_xl_view.uncached(8, 4, ("cc", "gp"))
    assert not np.allclose(both["score"][d == 0], both["score"][d == 0][0])       # (a) brings the contents in


def test_deberta_scene():
    v = SCENE["deberta"]
    db = V.deberta_view.uncached(v["rel_L"], v["rel_deb_k"], v["rel_deb_max"])
    s = db["said"]
    assert (s["distinct"], s["used"], s["exact"]) == (127, 31, 8)
    for lang in text.LANGS:
        assert all(str(n) in say("deberta", lang) for n in (64, 16, 127, 31, 8))
    assert db["curve_row"].min() == 0 and db["curve_row"].max() == 2 * 16 - 1


def test_fire_scene():
    v = SCENE["fire"]
    fr = V.fire_view.uncached(v["rel_fire_train"], v["rel_fire_mult"], v["rel_heads"], v["rel_head"])
    s = fr["said"]
    assert (s["i"], s["h"], s["m"]) == (255, 3, "0.125")
    far = (s["alibi_far"], s["kerple_far"], s["t5_far"], s["fire_far"])
    assert far == ("−31.88", "−31.55", "0.00", "−8.00")
    for lang in text.LANGS:
        for n in ("−31.88", "−31.55", "0.00", "−8.00", "0.125", "256", "64"):
            assert n in say("fire", lang), (lang, n)
    assert fr["curves"]["fire"][-1] > fr["curves"]["alibi"][-1] / 2          # FIRE stretched, not extended
    assert V.signed(-0.001) == "0.00" and V.signed(-2.5) == "−2.50"


def test_xpos_scene():
    v = SCENE["xpos"]
    xp = V.xpos_view.uncached(v["rel_xpos_base"], v["rel_xpos_range"])
    assert xp["say"] == "relative.xpos.half" and xp["said"]["half"] == 832 and xp["said"]["end"] == 0.14
    for lang in text.LANGS:
        assert "832" in say("xpos", lang) and "0.14" in say("xpos", lang) and "4096" in say("xpos", lang)
    assert V.xpos_view.uncached(4096, 256)["say"] == "relative.xpos.nohalf"


@pytest.mark.parametrize("lang", text.LANGS)
def test_cope_scene_on_each_languages_default_sentence(lang):
    """Three sentences: seen from the last token, the first sentence's tokens at 3, the second's at 2, the last's
    at 1."""
    v = SCENE["cope"]
    sentence = text.get(lang, "relative.cope.default")
    cp = V.cope_view.uncached(sentence, v["rel_cope_count"], text.get(lang, "relative.cope.default_word"),
                              v["rel_cope_sharp"])
    toks = tokens.tokenize(sentence)
    ends = [i for i, c in enumerate(cope.counted_tokens(toks, "sentences")) if c]
    assert len(ends) == 3
    last = cp["positions"][-1]
    sentence_of = np.searchsorted(ends, np.arange(len(toks)))      # 0, 1, 2: the sentence each token is in
    assert np.allclose(last, 3 - sentence_of, atol=0.01)
    assert cp["said"]["first"] == 3.0 and cp["said"]["n"] == 3
    word = V.cope_view.uncached(sentence, "word", text.get(lang, "relative.cope.default_word"), 8.0)
    assert word["said"]["n"] == 2                                  # the default word occurs twice in both languages
    assert "3" in say("cope", lang) and "2" in say("cope", lang)


@pytest.mark.parametrize("sharpness", [0.0, 8.0])
def test_cope_word_not_in_the_sentence_is_said(sharpness):
    """A word that is no token marks nothing: every gate is sigmoid(-sharpness), so the first token sits at
    L x that gate from the last; a word carrying its punctuation ("sat.") is found as "sat"."""
    cp = V.cope_view.uncached("The cat sat. The dog ran!", "word", "zebra", sharpness)
    s = cp["said"]
    assert cp["say"] == "relative.cope.no_word" and s["n"] == 0 and s["L"] == 6
    assert s["first"] == pytest.approx(s["L"] * s["gate_off"], abs=0.01)
    found = V.cope_view.uncached("The cat sat. The dog ran!", "word", "Sat", sharpness)
    assert found["say"] == "relative.cope.said" and found["said"]["n"] == 1
    assert V.cope_view.uncached("The cat sat.", "sentences", "zebra", sharpness)["say"] == "relative.cope.said"


def test_bad_sentences_are_refused_in_the_users_language():
    from posviz.validate import PosvizError

    with pytest.raises(PosvizError) as e:
        V.cope_view.uncached("   ", "tokens", "", 8.0)
    assert text.get("zh", f"err.{e.value.code}", **e.value.params)
