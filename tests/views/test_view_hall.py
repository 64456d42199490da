"""posviz.views.hall: each question's right answer, computed from its scene with the page's own view, equals
the answer derived by hand from the articles; every question reads in en and zh; the class's tally."""
import math

import pytest

from posviz import text
from posviz.pe.relative import alibi_slopes
from posviz.scenes import QUESTIONS, SCENES
from posviz.views import hall

PAGES = {"overview", "sinusoidal", "relative", "rope", "decay", "extrapolation", "kv_cache", "length"}
SENTENCES = {lang: (text.get(lang, "overview.default_a"), text.get(lang, "overview.default_b")) for lang in text.LANGS}


def right(qid, lang="en"):
    return hall.right_answer(qid, QUESTIONS[qid]["values"], SENTENCES[lang])


def test_at_least_twelve_questions_over_the_pages_the_issue_names():
    assert len(QUESTIONS) >= 12
    assert {q["page"] for q in QUESTIONS.values()} >= PAGES
    assert set(hall.ANSWERS) == set(QUESTIONS)
    for qid, q in QUESTIONS.items():
        assert qid.startswith(q["page"] + ".")
        assert SCENES[q["page"]][q["scene"]]["question"]["id"] == qid
        assert ("choices" in q) != ("number" in q), qid
        if "number" in q:
            assert q["number"][0] < q["number"][1] and q["tol"] >= 0


@pytest.mark.parametrize("lang", text.LANGS)
@pytest.mark.parametrize("qid", sorted(QUESTIONS))
def test_every_question_reads_in_both_languages_and_its_explanation_is_filled_from_the_data(qid, lang):
    q = QUESTIONS[qid]
    r = right(qid, lang)
    keys = [f"hall.q.{qid}"] + [f"hall.q.{qid}.{c}" for c in q.get("choices", ())]
    assert all(text.TABLES[lang].get(k) for k in keys), qid
    why = text.get(lang, f"hall.q.{qid}.why", answer=r["answer"], **r["facts"])
    assert "{" not in why and "}" not in why
    if "choices" in q:
        assert r["answer"] in q["choices"]
    else:
        lo, hi = q["number"]
        assert lo <= r["answer"] <= hi and isinstance(r["answer"], int)
    assert r == right(qid, "en")          # the answer does not depend on the language the page is read in


def test_relative_answers_by_hand():
    v = QUESTIONS["relative.shift"]["values"]
    assert right("relative.shift")["answer"] == 0                  # (i+s) - (j+s) = i - j: nothing changes
    v = QUESTIONS["relative.decode"]["values"]
    assert right("relative.decode")["answer"] == v["rel_L"] + v["rel_past"] - 1 == 31    # last query, first key
    # ALiBi, 12 heads (Press et al.): 2^-1..2^-8, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5: head 9 is the steepest
    slopes = alibi_slopes(12).tolist()
    assert max(range(12), key=slopes.__getitem__) == 8 and math.isclose(max(slopes), 2 ** -0.5, rel_tol=1e-6)
    r = right("relative.alibi")
    assert r["answer"] == "middle" and r["facts"]["head"] == 9


def test_extrapolation_answers_by_hand():
    # Llama 2: theta_i = 10000^(-2i/128); a pair whose wavelength 2 pi / theta_i exceeds 4096 never turned a full
    # circle in training: i/64 > log10(4096 / 2 pi) / 4, i.e. pairs 46..63
    never = sum(1 for i in range(64) if 2 * math.pi * 10000 ** (2 * i / 128) > 4096)
    assert never == 18 == right("extrapolation.naive")["answer"]
    assert right("extrapolation.pi")["answer"] == 0                 # positions / 4 stay inside 0..4096


def test_kv_cache_answers_by_hand():
    v = QUESTIONS["kv_cache.restart"]["values"]
    r = right("kv_cache.restart")
    assert r["answer"] == 0 and r["facts"]["right"] == v["kv_L"] - 1     # one token per step: position_ids = [0]
    v = QUESTIONS["kv_cache.stream"]["values"]
    r = right("kv_cache.stream")
    assert r["answer"] == v["kv_stream_sinks"] + v["kv_stream_window"] - 1 == 11
    assert r["facts"]["global"] == v["kv_stream_L"] - 1


def test_the_choice_answers():
    want = {"overview.bag": "moved", "overview.mask": "yes", "sinusoidal.shift": "delta", "sinusoidal.sim": "equal",
            "sinusoidal.edge": "refused", "rope.shift": "same", "rope.layouts": "same", "decay.same": "decays",
            "decay.indep": "zero"}
    assert {q: right(q)["answer"] for q in want} == want
    far = right("length.far")
    shown = QUESTIONS["length.far"]["values"]["len_show"]
    assert far["answer"] in shown and all(float(far["facts"][far["answer"]]) >= float(far["facts"][v]) for v in shown)


def test_the_answer_follows_the_scene_values_not_a_typed_in_result():
    v = dict(QUESTIONS["relative.decode"]["values"], rel_past=10)
    assert hall.relative_decode(v)["answer"] == v["rel_L"] + 10 - 1
    v = dict(QUESTIONS["rope.shift"]["values"], rope_anim="key")      # move only k: the score changes
    assert hall.rope_shift(v)["answer"] != "same"
    v = dict(QUESTIONS["sinusoidal.edge"]["values"], sin_learned_L=512)
    assert hall.sinusoidal_edge(v)["answer"] == "learns"
    v = dict(QUESTIONS["overview.mask"]["values"], ov_causal=False)
    assert hall.overview_mask(v, SENTENCES["en"])["answer"] == "no"


def test_tally_of_choices():
    t = hall.tally((0, 2, 2, 3), choices=("a", "b", "c", "d"), right="c")
    assert t == {"n": 4, "labels": ["a", "b", "c", "d"], "counts": [1, 0, 2, 1], "right_bar": 2, "right_n": 2,
                 "right_share": 0.5}
    assert hall.tally((), choices=("a", "b"), right="a")["right_share"] is None


def test_tally_of_numbers():
    t = hall.tally((18.0, 17.0, 3.0, 18.0), right=18, tol=1)
    assert t["labels"] == ["3", "17", "18"] and t["counts"] == [1, 1, 2] and t["right_bar"] == 2
    assert t["right_n"] == 3 and t["right_share"] == 0.75           # 17 is within the tolerance
    many = hall.tally(tuple(float(x) for x in range(100)), right=50, tol=0)
    assert len(many["counts"]) == hall.MAX_BARS and sum(many["counts"]) == 100 and many["right_n"] == 1
    assert many["labels"][many["right_bar"]].startswith("49.5") and hall.share_text(0.125) == "13 %"
    assert hall.share_text(None) == "—"
    right_only = hall.tally((), right=0, tol=0)
    assert right_only["counts"] == [0] and right_only["labels"] == ["0"]
