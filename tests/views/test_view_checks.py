"""posviz.views.checks: the checklist and the exercises, as plain data for the page."""
from posviz.lab import checklist, exercises
from posviz.views import checks as view


def test_step_runs_on_the_pages_sentences():
    r = view.step(1, False, "dog bites man", "man bites dog")
    assert r["passed"] and dict(r["numbers"])["chk.n.perm"] == "[2, 1, 0]"
    assert not view.step(1, True, "猫追狗", "狗追猫")["passed"]
    assert view.step(8, False, "猫追狗", "狗追猫")["boundary"]["code"] == "learned_boundary"
    assert view.step(8, True, "猫追狗", "狗追猫") == checklist.run_step(8, True)


def test_fixed_exercises_and_verdicts():
    fx = view.fixed_exercises()
    assert [(r["p"], r["s"]) for r in fx["ex1"]] == [(1, 2), (5, 6), (5, 7)]
    assert len(fx["ex2"]) == 2 and fx["ex3_answer"] == 2
    assert view.verdict(None, 1.0) is None
    assert view.verdict(7.23, fx["ex1"][0]["closed_form"]) is True
    assert view.verdict(7.3, fx["ex1"][0]["closed_form"]) is False


def test_generated_problem_and_its_apply_rope_check():
    g = view.generated(22)
    assert g["problem"] == exercises.problem(22)
    assert g["rope"]["max_diff"] < 1e-4 and len(g["rope"]["q_rot"]) == 2
