"""posviz.figures.rope: trace types, shapes, animation frames, payload sizes, phone-safe layout."""
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from posviz.figures import export, style
from posviz.figures import rope as fr
from posviz.views import rope as view

CLOCK_LABELS = dict(q="q", k="k", arc="arc", pair="pair {i}: θ={theta:.3g}", angle="{deg:.0f}°")
ANIM_LABELS = dict(q="q", k="k", score="score", now="now", x="t", y="score", play="play", pause="pause",
                   step="t={t} m={m} n={n} s={score:.3f}", pair="pair {i}")
DIST_LABELS = dict(x="n-m", y="score", pair="pair {i}", mean="mean", now="now")


def kb(fig):
    return len(fig.to_json()) / 1024


def test_clock_faces():
    cv = view.clock(2, 5, 8)
    fig = fr.clock_faces(cv["hands"], cv["pairs"], labels=CLOCK_LABELS)
    assert [tr.type for tr in fig.data] == ["scatter"] * 4           # faces, arcs, q hands, k hands
    q = [tr for tr in fig.data if tr.name == "q"][0]
    x, y = np.asarray(q.x), np.asarray(q.y)
    assert x.shape == (3 * 4,) and np.isnan(x[2::3]).all()           # 4 hands, NaN-separated
    # the q hand of pair 0 goes from the first centre (0, 0) to (cos 2, sin 2)
    assert np.allclose([x[0], y[0], x[1], y[1]], [0, 0, np.cos(2.0), np.sin(2.0)], atol=1e-6)
    # the k hand of pair 1 (second clock, centre 2.7 radii to the right) at angle 5 * 0.1
    k = [tr for tr in fig.data if tr.name == "k"][0]
    assert np.allclose([k.x[4] - k.x[3], k.y[4] - k.y[3]], [np.cos(0.5), np.sin(0.5)], atol=1e-6)
    # two clocks per row (phone-safe): pair 2 sits below pair 0
    assert k.x[6] == pytest.approx(k.x[0]) and k.y[6] < k.y[0] - 2
    titles = [a.text for a in fig.layout.annotations]
    assert len(titles) == 4 and titles[0].startswith("pair 0: θ=1") and "172°" in titles[0]
    assert titles[0].count("<br>") == 1
    assert "q" in export.figure_csv(fig)
    assert kb(fig) < 40


def test_clock_animation_frames_and_buttons():
    av = view.animation(2, 5, 8, mode="both")
    fig = fr.clock_animation(av["q_xy"], av["k_xy"], av["scores"], av["steps"], av["m"], av["n"], av["pairs"],
                             labels=ANIM_LABELS)
    assert len(fig.frames) == view.ANIMATION_STEPS
    fr0 = fig.frames[5]
    assert len(fr0.data) == 4 and list(fr0.traces) == [1, 2, 4, 5]
    assert fig.data[5].xaxis == "x3"                                 # the caption has a row of its own
    assert [fig.data[i].name for i in fr0.traces] == ["q", "k", "now", "step"]
    assert fr0.data[3].text[0].startswith("t=5 m=7 n=10")
    # frame 5 of "both": the q hand of pair 0 is at (m+5) theta_0 = 7 rad
    assert np.allclose([fr0.data[0].x[1], fr0.data[0].y[1]], [np.cos(7.0), np.sin(7.0)], atol=1e-5)
    # the dict built without validation is a valid figure
    assert len(go.Figure(fig.to_dict()).frames) == view.ANIMATION_STEPS
    menus = fig.layout.updatemenus[0]
    assert [b.method for b in menus.buttons] == ["animate", "animate"]
    assert menus.buttons[0].args[0] is None and menus.buttons[0].args[1]["fromcurrent"] is True
    assert len(fig.layout.sliders[0].steps) == view.ANIMATION_STEPS
    # common shift: the score line is flat; moving only the key: it is not
    assert np.ptp(np.asarray(av["scores"])) < 1e-4
    av2 = view.animation(2, 5, 8, mode="key")
    assert np.ptp(np.asarray(av2["scores"])) > 0.5
    assert kb(fig) < 150


def test_animation_payload_at_max_settings():
    av = view.animation(128, 0, 256, 1000000.0, "random", "key")
    fig = fr.clock_animation(av["q_xy"], av["k_xy"], av["scores"], av["steps"], av["m"], av["n"], av["pairs"],
                             labels=ANIM_LABELS)
    assert kb(fig) < 300


def test_score_vs_distance():
    dv = view.distance(64)
    fig = fr.score_vs_distance(dv["distances"], dv["per_pair"], dv["mean"], dv["pairs"], 3, labels=DIST_LABELS)
    assert len(fig.data) == 5 and fig.data[-1].name == "mean"
    assert len(fig.data[-1].x) == 2 * view.MAX_SHOWN_DISTANCE + 1
    assert float(np.asarray(fig.data[-1].y)[view.MAX_SHOWN_DISTANCE]) == pytest.approx(1.0)
    assert kb(fig) < 60


def test_pair_clock_and_layouts():
    row = view.hand_examples()[0]
    fig = fr.pair_clock(row["q"], row["k"], row["rq"], row["rk"],
                        labels=dict(q0="q0", k0="k0", rq="rq", rk="rk", title="t"))
    rq = [tr for tr in fig.data if tr.name == "rq"][0]
    assert np.allclose([rq.x[1], rq.y[1]], [0.0, 1.0], atol=1e-6)
    lv = view.layouts(8, 1, 2)
    fig = fr.layout_pairs(lv["pairs_interleaved"], lv["pairs_half"], labels=dict(rows=["a", "b"], x="x", z="z"))
    z = np.asarray(fig.data[0].z)
    assert fig.data[0].type == "heatmap" and z.shape == (2, 8)
    assert z[0].tolist() == [0, 0, 1, 1, 2, 2, 3, 3] and z[1].tolist() == [0, 1, 2, 3, 0, 1, 2, 3]
    big = view.layouts(256, 1, 2)
    fig = fr.layout_pairs(big["pairs_interleaved"], big["pairs_half"], labels=dict(rows=["a", "b"], x="x", z="z"))
    assert fig.data[0].text is None and kb(fig) < 60
    json.loads(fig.to_json())


def test_every_builder_output_is_a_valid_figure_with_the_house_template():
    """Round trip through JSON and a fresh go.Figure; the template is expanded; CSV export works."""
    cv = view.clock(3, 9, 16, 10000.0, "random")
    av = view.animation(3, 9, 16, 10000.0, "random", "key")
    dv = view.distance(16)
    lv = view.layouts(16, 3, 9)
    row = view.hand_examples()[-1]
    figs = [
        fr.clock_faces(cv["hands"], cv["pairs"], labels=CLOCK_LABELS),
        fr.clock_animation(av["q_xy"], av["k_xy"], av["scores"], av["steps"], av["m"], av["n"], av["pairs"],
                           labels=ANIM_LABELS),
        fr.score_vs_distance(dv["distances"], dv["per_pair"], dv["mean"], dv["pairs"], 6, labels=DIST_LABELS),
        fr.pair_clock(row["q"], row["k"], row["rq"], row["rk"], labels=dict(q0="a", k0="b", rq="c", rk="d", title="t")),
        fr.layout_pairs(lv["pairs_interleaved"], lv["pairs_half"], labels=dict(rows=["a", "b"], x="x", z="z")),
    ]
    for fig in figs:
        spec = json.loads(fig.to_json())
        assert isinstance(spec["layout"]["template"], dict)          # expanded, not a bare name
        go.Figure(fig.to_dict())                                     # raises on any invalid property
        export.figure_csv(fig)


def test_random_content_titles_state_the_angle_drawn_and_the_rotation():
    """With random content and m = n the rotation adds 0°, but the arc drawn is not 0°: the title
    says both (issue 14)."""
    cv = view.clock(5, 5, 8, 10000.0, "random")
    labels = dict(CLOCK_LABELS, between="q→k {deg:.0f}°", added="added {deg:.0f}°")
    del labels["angle"]
    fig = fr.clock_faces(cv["hands"], cv["pairs"], labels=labels)
    for j, a in enumerate(fig.layout.annotations):
        lines = a.text.split("<br>")
        assert len(lines) == 3 and lines[2] == "added 0°"
        assert lines[1] == f"q→k {np.degrees(float(cv['hands']['between'][j])):.0f}°"
    assert any(not a.text.split("<br>")[1].endswith(" 0°") for a in fig.layout.annotations)



def test_animation_layout_is_phone_safe():
    """Play buttons below the frame slider, the step caption above the clocks' titles, legend between
    the clocks and the score line: nothing overlaps (issue 12)."""
    av = view.animation(2, 5, 8)
    fig = fr.clock_animation(av["q_xy"], av["k_xy"], av["scores"], av["steps"], av["m"], av["n"], av["pairs"],
                             labels=ANIM_LABELS)
    slider, menu = fig.layout.sliders[0], fig.layout.updatemenus[0]
    assert slider.yanchor == menu.yanchor == "top" and menu.y == slider.y and menu.pad.t >= 70   # under the slider
    assert slider.x == 0 and slider.len == 1
    caption, clocks, score = fig.layout.yaxis3.domain, fig.layout.yaxis.domain, fig.layout.yaxis2.domain
    assert caption[0] >= clocks[1] and clocks[0] > score[1]
    assert score[1] < fig.layout.legend.y < clocks[0]
    assert fig.layout.margin.t >= 40                                   # the mode bar has its own strip


def test_calculator_formula():
    c = view.calculator(1, 2, 3, 4, "pi3", 0.5, 5, 7)
    tex = fr.calculator_formula(c)
    assert tex.startswith(r"\begin{aligned}") and r"\phi &= (s-p)" in tex and "&= -3.7679" in tex
    assert r"(-0.5)\cdot 11 + 0.866\cdot 2" in tex
    neg = fr.calculator_formula(view.calculator(1, 2, 3, 4, "pi3", 0.5, -5, 7, True))
    assert r"-p\,\theta = -(-5)" in neg


def validated_equals_built(fig):
    """plotly's validation raises on a wrong property and expands what plotly.js does not know (a named
    colour scale such as "Viridis"): the validated figure must be exactly the one built."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


RANDOM_LABELS = dict(CLOCK_LABELS, between="q→k {deg:.0f}°", added="added {deg:.0f}°")
del RANDOM_LABELS["angle"]
PAIR_LABELS = dict(q0="q0", k0="k0", rq="rq", rk="rk", title="t")


def _all_figures(m, n, d, base, content):
    cv = view.clock(m, n, d, base, content)
    yield fr.clock_faces(cv["hands"], cv["pairs"], labels=CLOCK_LABELS if cv["plain"] else RANDOM_LABELS)
    for mode in view.ANIM_MODES:
        av = view.animation(m, n, d, base, content, mode)
        yield fr.clock_animation(av["q_xy"], av["k_xy"], av["scores"], av["steps"], av["m"], av["n"], av["pairs"],
                                 labels=ANIM_LABELS)
    dv = view.distance(d, base)
    yield fr.score_vs_distance(dv["distances"], dv["per_pair"], dv["mean"], dv["pairs"], n - m, labels=DIST_LABELS)
    lv = view.layouts(d, m, n, base)
    yield fr.layout_pairs(lv["pairs_interleaved"], lv["pairs_half"], labels=dict(rows=["a", "b"], x="x", z="z"))


@pytest.mark.parametrize("m, n, d, base, content", [
    (2, 5, 8, 10000.0, "unit"), (1, 3, 2, 10000.0, "unit"), (5, 5, 8, 10000.0, "random"),
    (3, 9, 16, 100.0, "random"), (0, 128, 32, 10.0, "unit"), (128, 0, 256, 1000000.0, "random")])
def test_every_figure_is_valid_plotly(m, n, d, base, content):
    """The builders skip plotly's validation for speed: validate what they build here, every kind, and
    in lecture mode."""
    for fig in _all_figures(m, n, d, base, content):
        assert validated_equals_built(fig), fig.layout.title.text
        go.Figure(style.presentation(fig).to_dict())


def test_every_pair_clock_is_valid_plotly():
    rows = view.hand_examples()
    calcs = [view.calculator(1, 2, 3, 4, "pi3", 0.5, 5, 7, only_q) for only_q in (False, True)]
    calcs.append(view.calculator(0, 0, 0, 0, "other", -10.0, -1000, 1000))
    for r in rows + calcs:
        fig = fr.pair_clock(r["q"], r["k"], r["rq"], r["rk"], labels=PAIR_LABELS)
        assert validated_equals_built(fig)
        go.Figure(style.presentation(fig).to_dict())


def test_animation_frames_are_plain_and_validate_on_access():
    """The animation's frames skip plotly's validation when built (it ignores _validate=False for
    frames); to_dict carries them, `frames` gives validated go.Frame objects."""
    av = view.animation(2, 5, 8)
    fig = fr.clock_animation(av["q_xy"], av["k_xy"], av["scores"], av["steps"], av["m"], av["n"], av["pairs"],
                             labels=ANIM_LABELS)
    frames = fig.to_dict()["frames"]
    assert len(frames) == len(fig.frames) == view.ANIMATION_STEPS
    assert frames[5]["data"][3]["text"] == list(fig.frames[5].data[3].text)
    assert json.loads(fig.to_json())["frames"][5]["name"] == "5"
