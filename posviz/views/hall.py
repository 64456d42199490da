"""The hall's right answers and the class's tally.

ANSWERS[question id](values) computes a question's right answer from the scene's widget values
(posviz.scenes: the question's `values`) with the very view the page calls for the figure the scene
shows, so the reveal and the answer can never disagree: -> {"answer": an option code (multiple choice)
or a number, "facts": the numbers the explanation after the reveal (text hall.q.<id>.why) quotes}.
Nothing here is typed in: change a scene's values and the right answer follows.
"""
import math

import numpy as np

from posviz.validate import PosvizError
from posviz.views import cached
from posviz.views import decay as decay_view
from posviz.views import extrapolation as ext_view
from posviz.views import kv_cache as kv_view
from posviz.views import length as length_view
from posviz.views import models as models_view
from posviz.views import overview as overview_view
from posviz.views import relative as relative_view
from posviz.views import rope as rope_view
from posviz.views import sinusoidal as sin_view

SAME = 1e-4            # two float32 scores closer than this are the same number
OTHER_P = 50           # the second position the sinusoidal shift is checked at
MAX_BARS = 12          # a number question's chart: distinct answers, or this many bins


def _fmt(x, digits=4):
    return f"{x:.{digits}g}"


# ---------------------------------------------------------------- overview
def overview_bag(values, sentences):
    """No position: attention of the reordered sentence = the old outputs, reordered (max |difference|)."""
    r = overview_view.equivariance(*sentences, method=values["ov_method"], causal=values["ov_causal"])
    return {"answer": "moved" if r["max_diff"] < SAME else "changed", "facts": {"diff": f"{r['max_diff']:.1e}"}}


def overview_mask(values, sentences):
    """A causal mask alone: do the two orders give different outputs (beyond reordering)?"""
    r = overview_view.equivariance(*sentences, method=values["ov_method"], causal=values["ov_causal"])
    return {"answer": "yes" if r["max_diff"] > 1e3 * SAME else "no", "facts": {"diff": _fmt(r["max_diff"], 3)}}


# ---------------------------------------------------------------- sinusoidal
def sinusoidal_shift(values):
    """M(Δ) at the scene's p and at another p: the same matrix (only Δ) or not; PE(p+Δ) reached or not."""
    a = sin_view.shift(values["sin_p"], values["sin_delta"], values["sin_D"], values["sin_base"])
    b = sin_view.shift(OTHER_P, values["sin_delta"], values["sin_D"], values["sin_base"])
    same = float(np.abs(a["matrix"] - b["matrix"]).max())
    answer = "none" if a["error"] > SAME else "delta" if same < SAME else "both"
    return {"answer": answer, "facts": {"p": values["sin_p"], "p2": OTHER_P, "delta": values["sin_delta"],
                                        "diff": f"{same:.1e}", "error": f"{a['error']:.1e}"}}


def sinusoidal_sim(values):
    """PE(p)·PE(p+k) against PE(p)·PE(p-k), from the similarity matrix at the middle row p = L/2."""
    s = sin_view.similarity(values["sin_L"], values["sin_D"], values["sin_base"])     # [L,L]
    p = values["sin_L"] // 2
    k = np.arange(1, p)
    gap = s[p, p + k] - s[p, p - k]
    answer = "equal" if np.abs(gap).max() < SAME else "ahead" if gap.mean() > 0 else "behind"
    return {"answer": answer, "facts": {"p": int(p), "k": int(k[-1]), "gap": f"{np.abs(gap).max():.1e}"}}


def sinusoidal_edge(values):
    """A learned table of M rows read at L = M + 1 positions: the view refuses (the boundary) or not."""
    try:
        sin_view.learned_shape(values.get("sin_D", 64), values["sin_M"], values["sin_learned_L"])
    except PosvizError as e:
        if e.code == "learned_boundary":
            return {"answer": "refused", "facts": {"M": values["sin_M"], "last": values["sin_M"] - 1}}
        raise
    return {"answer": "learns", "facts": {"M": values["sin_M"], "last": values["sin_M"] - 1}}


# ---------------------------------------------------------------- relative
def _relative_positions(values, shift):
    L = values["rel_L"]
    return relative_view.positions(L, L + values["rel_past"], shift)


def relative_shift(values):
    """How many entries of i - j change when every absolute position moves by the scene's shift."""
    moved = _relative_positions(values, values["rel_shift"])["distance"]
    still = _relative_positions(values, 0)["distance"]
    return {"answer": int((moved != still).sum()), "facts": {"shift": values["rel_shift"], "n": int(moved.size)}}


def relative_alibi(values):
    """The head with the steepest ALiBi slope (it forgets the far past fastest)."""
    slopes = np.asarray(relative_view.alibi(values["rel_heads"], values["rel_head"], values["rel_L"],
                                            values["rel_L"] + values["rel_past"])["slopes"])
    top = int(np.argmax(slopes))
    answer = "same" if np.ptp(slopes) == 0 else "first" if top == 0 else "last" if top == len(slopes) - 1 else "middle"
    return {"answer": answer, "facts": {"h": len(slopes), "head": top + 1, "steep": _fmt(slopes.max(), 3),
                                        "flat": _fmt(slopes.min(), 3)}}


def relative_decode(values):
    """i - j of the last query and the first key when L queries follow `past` cached keys."""
    d = _relative_positions(values, values["rel_shift"])["distance"]
    return {"answer": int(d[-1, 0]), "facts": {"L": values["rel_L"], "past": values["rel_past"],
                                               "S": values["rel_L"] + values["rel_past"]}}


# ---------------------------------------------------------------- rope
def rope_shift(values):
    """The score while q and k move on together (the animation's "both"): constant, up or down."""
    v = values
    a = rope_view.animation(v["rope_m"], v["rope_n"], v["rope_dim"], v["rope_base"], v["rope_content"], v["rope_anim"])
    s = np.asarray(a["scores"])
    spread = float(s.max() - s.min())
    answer = "same" if spread < SAME else "up" if s[-1] > s[0] and np.all(np.diff(s) >= 0) else \
        "down" if s[-1] < s[0] and np.all(np.diff(s) <= 0) else "depends"
    return {"answer": answer, "facts": {"score": _fmt(float(s[0])), "steps": len(s) - 1, "spread": f"{spread:.1e}"}}


def rope_layouts(values):
    """The same q, k and positions under interleaved and half pairing (each used consistently)."""
    v = values
    lv = rope_view.layouts(v["rope_dim"], v["rope_m"], v["rope_n"], v["rope_base"])
    same = abs(lv["interleaved"] - lv["half"]) < SAME
    return {"answer": "same" if same else "differ",
            "facts": {"inter": _fmt(lv["interleaved"]), "half": _fmt(lv["half"]), "mixed": _fmt(lv["mixed"])}}


# ---------------------------------------------------------------- decay
def _decay_trend(values, flat):
    v = values
    r = decay_view.random_curves(v["decay_d"], v["decay_R"], v["decay_logx"], v["decay_bases"][0], v["decay_n"],
                                 v["decay_rho"], v["decay_seed"])
    e = np.asarray(r["expected"])
    start, end = float(e[0]), float(e[-1])
    if np.abs(e).max() < SAME:
        answer = flat
    elif end < start / 2:
        answer = "decays"
    elif end > start * 2:
        answer = "grows"
    else:
        answer = flat
    return {"answer": answer, "facts": {"start": _fmt(start, 3), "end": _fmt(end, 3), "R": v["decay_R"],
                                        "mean_max": _fmt(r["mean_max"], 2), "n": v["decay_n"]}}


def decay_same(values):
    """Random q = k (correlation 1): the expected score at distance R against at 0."""
    return _decay_trend(values, "flat")


def decay_indep(values):
    """Independent random q, k (correlation 0): the expected score, 0 at every distance."""
    return _decay_trend(values, "zero")


# ---------------------------------------------------------------- extrapolation
def _never_seen(values):
    v = values
    m = models_view.entry(v["ext_preset"])
    d, params = ext_view.spectrum_inputs(m, m["main"])
    a = ext_view.analysis(d, params, v["ext_ltrain"], v["ext_ltarget"], v["ext_method"])
    return {"answer": int(np.asarray(a["never_seen"]).sum()),
            "facts": {"pairs": int(np.asarray(a["seen"]).size), "train": v["ext_ltrain"], "target": v["ext_ltarget"],
                      "long": a["n_long"]}}


def extrapolation_naive(values):
    """Pairs that meet angles at the target length they never met in training, no scaling."""
    return _never_seen(values)


def extrapolation_pi(values):
    """The same count with position interpolation."""
    return _never_seen(values)


# ---------------------------------------------------------------- kv cache
def _kv_setup(values):
    return dict(heads=values["kv_heads"], head_dim=values["kv_head_dim"], layout=values["kv_layout"])


def kv_restart(values):
    """The position the last decoded query is rotated by when the cache's positions restart at 0."""
    v = values
    res = kv_view.decoding(v["kv_L"], v["kv_prefill"], dtype=v["kv_dtype"], **_kv_setup(v))
    return {"answer": int(res["last"]["restart"][0]),
            "facts": {"right": int(res["last"]["correct"][0]), "P": v["kv_prefill"], "L": v["kv_L"]}}


def kv_stream(values):
    """The largest distance the last query sees when the streaming cache renumbers its keys."""
    v = values
    res = kv_view.stream(v["kv_stream_L"], v["kv_stream_sinks"], v["kv_stream_window"], dtype=v["kv_dtype"],
                         **_kv_setup(v))
    return {"answer": int(res["max_offset"]["reassigned"]),
            "facts": {"cache": res["cache"], "global": int(res["max_offset"]["global"]),
                      "sinks": v["kv_stream_sinks"], "window": v["kv_stream_window"]}}


# ---------------------------------------------------------------- length
def length_far(values):
    """Of the variants the scene shows, the one with the highest mean accuracy in the longest bucket."""
    last = {v: length_view.facts(v, values["len_metric"])["mean"][-1] for v in values["len_show"]}
    best = max(last, key=lambda v: -1 if last[v] is None else last[v])
    return {"answer": best, "facts": {v: "—" if x is None else _fmt(x, 3) for v, x in last.items()}}


ANSWERS = {
    "overview.bag": overview_bag, "overview.mask": overview_mask,
    "sinusoidal.shift": sinusoidal_shift, "sinusoidal.sim": sinusoidal_sim, "sinusoidal.edge": sinusoidal_edge,
    "relative.shift": relative_shift, "relative.alibi": relative_alibi, "relative.decode": relative_decode,
    "rope.shift": rope_shift, "rope.layouts": rope_layouts,
    "decay.same": decay_same, "decay.indep": decay_indep,
    "extrapolation.naive": extrapolation_naive, "extrapolation.pi": extrapolation_pi,
    "kv_cache.restart": kv_restart, "kv_cache.stream": kv_stream,
    "length.far": length_far,
}
NEEDS_SENTENCES = ("overview.bag", "overview.mask")     # their view reads the overview's two sentences


@cached
def right_answer(question, values, sentences):
    """ANSWERS[question](values) (the overview's questions also take the two sentences of the page)."""
    fn = ANSWERS[question]
    return fn(values, sentences) if question in NEEDS_SENTENCES else fn(values)


@cached
def tally(answers, *, choices=None, right=None, tol=0.0):
    """The class's answers to one question -> {"n", "labels" (a bar each), "counts", "right_bar" (the bar of
    the right answer), "right_n" (answers that are right), "right_share" (0..1, None without answers)}.

    Multiple choice (`choices`: the option codes; answers: indices): a bar per option. A number: a bar per
    distinct answer (at most MAX_BARS), else MAX_BARS equal bins over the answers and the right value; an
    answer is right within `tol` of `right`."""
    n = len(answers)
    if choices is not None:
        counts = [0] * len(choices)
        for a in answers:
            counts[a] += 1
        at = choices.index(right)
        return {"n": n, "labels": list(choices), "counts": counts, "right_bar": at, "right_n": counts[at],
                "right_share": counts[at] / n if n else None}
    right_n = sum(1 for a in answers if abs(a - right) <= tol)
    xs = sorted(set(answers) | {float(right)})
    if len(xs) <= MAX_BARS:
        labels = [_fmt(x, 6) for x in xs]
        counts = [sum(1 for a in answers if a == x) for x in xs]
        bar = xs.index(float(right))
    else:
        lo, hi = xs[0], xs[-1]
        width = (hi - lo) / MAX_BARS
        edges = [lo + i * width for i in range(MAX_BARS + 1)]
        counts = [0] * MAX_BARS
        for a in answers:
            counts[min(MAX_BARS - 1, int((a - lo) / width))] += 1
        labels = [f"{_fmt(edges[i], 4)}–{_fmt(edges[i + 1], 4)}" for i in range(MAX_BARS)]
        bar = min(MAX_BARS - 1, int((right - lo) / width))
    return {"n": n, "labels": labels, "counts": counts, "right_bar": bar, "right_n": right_n,
            "right_share": right_n / n if n else None}


def share_text(share):
    """A right share as a whole percent ("64 %"), or "—" without answers."""
    return "—" if share is None else f"{math.floor(share * 100 + 0.5)} %"
