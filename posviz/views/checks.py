"""Views of the debugging-checklist page (app_pages/checks.py): the nine checks of “Same words, different order…” §12,
the fixed exercises of §17 and the generated RoPE problems. Plain arguments in; plain dicts and lists out (cached)."""
from posviz.lab import checklist, exercises
from posviz.views import cached

STEPS = checklist.STEPS
TOL = 0.01                   # a prediction counts as right within this


@cached(max_entries=128)
def step(i, broken, sentence_a, sentence_b):
    """Check `i` (1..9), its bug planted if `broken`; step 1 runs on X = sentence_a, PX = sentence_b."""
    return checklist.run_step(i, broken, sentences=(sentence_a, sentence_b))


@cached
def fixed_exercises():
    """Exercises 1-3 of §17 with their answers: dict(ex1, ex2 (rows of checklist.exercise_1/_2),
    ex3 (errors per position, correct and restart), ex3_answer (first failing position))."""
    ex3 = checklist.exercise_3()
    return dict(ex1=checklist.exercise_1(), ex2=checklist.exercise_2(), ex3=ex3,
                ex3_answer=checklist.exercise_3_answer(ex3))


@cached(max_entries=256)
def verdict(got, answer, tol=TOL):
    """True if the student's number is within tol of the answer, None before any answer."""
    return checklist.check_answer(got, answer, tol)


@cached
def generated(seed):
    """The generated problem of `seed`, and the same problem recomputed by apply_rope (float32)."""
    prob = exercises.problem(seed)
    return dict(problem=prob, rope=exercises.rope_check(prob))

