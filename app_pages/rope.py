"""RoPE page: widgets -> posviz.views.rope (cached) -> posviz.figures.rope -> ui.plot."""
import streamlit as st

from posviz import ui
from posviz.figures import rope as fr
from posviz.pe import rope, rope_demos
from posviz.views import rope as view


def _labels(prefix, keys, **fmt):
    return {k: ui.t(f"{prefix}.{k}", **fmt) for k in keys}


def _section(name, **fmt):
    st.subheader(ui.t(f"rope.{name}.title"))
    st.caption(ui.t(f"rope.{name}.caption", **fmt))


ui.header("rope")

st.subheader(ui.t("rope.controls"))
c = st.columns(5)
with c[0]: m = ui.slider("rope_m", 0, 128, 2)  # noqa: E701
with c[1]: n = ui.slider("rope_n", 0, 128, 5)  # noqa: E701
with c[2]: delta = ui.slider("rope_shift", -64, 64, 4)  # noqa: E701
with c[3]: d = ui.select_slider("rope_dim", view.DIMS, 8)  # noqa: E701
with c[4]: base = float(ui.select_slider("rope_base", view.BASES, 10000))  # noqa: E701
c = st.columns(2)
with c[0]: content = ui.radio("rope_content", ("unit", "random"), "unit")  # noqa: E701
with c[1]: only_q = ui.toggle("rope_only_q", False)  # noqa: E701

st.subheader(ui.t("rope.clock.title"))
with ui.guard():
    cv = view.clock(m, n, d, base, content)
    st.caption(ui.t("rope.clock.caption", last=cv["last"], base=f"{base:g}", exponent=f"{cv['exponent']:.4g}",
                    slowest=f"{cv['slowest']:.3g}"))
    lab = _labels("rope.clock", ("arc", "pair") + (("angle",) if cv["plain"] else ("between", "added")))
    ui.plot(fr.clock_faces, cv["hands"], cv["pairs"], labels=lab | dict(q=ui.t("rope.clock.q", m=m),
            k=ui.t("rope.clock.k", n=n)), key="rope_clocks")
    ui.explain(rope_demos.clock_hands, rope.rope_inv_freq, rope.wrap_angle, note=ui.t("rope.clock.formula_note"))

_section("score")
with ui.guard():
    sc = view.scores(m, n, delta, d, base, content, only_q)
    names = (ui.t("rope.score.base", m=m, n=n), ui.t("rope.score.shift", m=m + delta, n=n + delta),
             ui.t("rope.score.key", m=m, n=n + delta))
    for i, (col, name) in enumerate(zip(st.columns(3), names)):
        col.metric(name, f"{sc['scores'][i]:.4f}", delta=sc["deltas"][i], border=True,
                   delta_color="off" if i == 1 and not only_q else "normal")
    (st.warning if only_q else st.success)(ui.t("rope.score.bug" if only_q else "rope.score.equal"),
                                           icon=":material/bug_report:" if only_q else ":material/check_circle:")
    st.caption(ui.t("rope.score.note"))
    ui.explain(rope_demos.shift_scores, rope_demos.rotated_score, rope.apply_rope)

_section("anim")
mode = ui.radio("rope_anim", view.ANIM_MODES, "both")
with ui.guard():
    av = view.animation(m, n, d, base, content, mode)
    lab = _labels("rope.anim", ("q", "k", "score", "now", "x", "y", "play", "pause", "step")) | dict(
        pair=ui.t("rope.dist.pair"))
    ui.plot(fr.clock_animation, av["q_xy"], av["k_xy"], av["scores"], av["steps"], av["m"], av["n"], av["pairs"],
            labels=lab, key="rope_anim_fig")
    ui.explain(view.animation, rope_demos.clock_hands)

_section("dist")
with ui.guard():
    dv = view.distance(d, base)
    lab = _labels("rope.dist", ("x", "y", "pair", "now")) | dict(mean=ui.t("rope.dist.mean", h=d // 2))
    ui.plot(fr.score_vs_distance, dv["distances"], dv["per_pair"], dv["mean"], dv["pairs"], n - m, labels=lab,
            key="rope_distance")
    ui.explain(view.distance)

_section("hand")
with ui.guard():
    rows = view.hand_examples()
    c = st.columns([3, 2])
    with c[1]:
        example = ui.select("rope_example", view.EXAMPLES, "s08")
        row = next(r for r in rows if r["example"] == example)
        st.info(ui.t(f"rope.hand.explain.{example}"))
    with c[0]:
        lab = _labels("rope.hand", ("q0", "k0")) | dict(rq=ui.t("rope.hand.rq", p=row["p"]), rk=ui.t(
            "rope.hand.rk", s=row["s"]), title=ui.t("rope.hand.clock_title", theta=row["theta_text"], p=row["p"],
                                                    s=row["s"], score=row["score"]))
        ui.plot(fr.pair_clock, row["q"], row["k"], row["rq"], row["rk"], labels=lab, key="rope_hand")
    table = view.hand_table()
    cols = {k: ui.t(f"rope.hand.col.{k}") for k in table[0]}             # looked up once, not once per cell
    ui.table([{cols[k]: ui.t(f"rope.hand.{v}") if k == "example" else v for k, v in r.items()} for r in table])
    ui.explain(rope_demos.hand_examples, rope_demos.pair_rotate, rope.rotation_2x2, rope_demos.pair_score_closed_form)

_section("calc")
qk = {}
for col, (key, v) in zip(st.columns(4), (("q1", 1.0), ("q2", 2.0), ("k1", 3.0), ("k2", 4.0))):
    with col: qk[key] = ui.number(f"rope_calc_{key}", -100.0, 100.0, v, 0.5)  # noqa: E701
c = st.columns(4)
with c[0]: theta = ui.radio("rope_calc_theta", view.THETA_CHOICES, "pi3")  # noqa: E701
with c[1]: other = ui.number("rope_calc_theta_x", -10.0, 10.0, 0.5, 0.01, disabled=theta != "other")  # noqa: E701
with c[2]: p = ui.number("rope_calc_p", -1000, 1000, 5)  # noqa: E701
with c[3]: s = ui.number("rope_calc_s", -1000, 1000, 7)  # noqa: E701
calc_only_q = ui.toggle("rope_calc_only_q", False)
with ui.guard():
    kv = view.calculator(qk["q1"], qk["q2"], qk["k1"], qk["k2"], theta, other, p, s, calc_only_q)
    c = st.columns([3, 2])
    lab = _labels("rope.hand", ("q0", "k0")) | dict(rq=ui.t("rope.hand.rq", p=p), title=ui.t("rope.calc.clock_title",
        theta=kv["theta"], p=p, s=s), rk=ui.t("rope.calc.k_only" if calc_only_q else "rope.hand.rk", s=s))
    with c[0]:
        ui.plot(fr.pair_clock, kv["q"], kv["k"], kv["rq"], kv["rk"], labels=lab, key="rope_calc_clock")
    with c[1]:
        st.metric(ui.t("rope.calc.score"), f"{kv['score']:.4f}", border=True)
        st.latex(fr.calculator_formula(kv))
        st.caption(ui.t("rope.calc.only_q" if calc_only_q else "rope.calc.relative"))
    ui.explain(view.calculator, rope_demos.pair_score, rope_demos.pair_score_closed_form)

_section("steps", x=view.STEP_X)
with ui.more("rope_steps") as box, ui.guard():   # a deep dive: closed, its body does not run
    if box.open:
        sv = view.steps(ui.slider("rope_step_p", 0, view.STEP_MAX_P, 0), base)
        for step, tables in view.STEPS:
            st.markdown(ui.t(f"rope.steps.{step}"))
            st.code(sv["code"][step], language="python", wrap_lines=True)
            for col, name in zip(st.columns(len(tables)), tables):
                with col: ui.table(sv["tables"][name])  # noqa: E701
        st.caption(ui.t("rope.steps.check", diff=f"{sv['max_diff']:.1e}"))
        ui.explain(rope.apply_rope, rope.rotate_pairs, rope.rope_inv_freq, rope_demos.apply_rope_steps, note=ui.t("rope.steps.fast_note"))

_section("sdpa")
with ui.guard():
    at = view.attention_check(delta, base)
    c = st.columns(2)
    for i, key in enumerate(("sdpa_vs_own", "plain_shuffle", "shift", "rope_shuffle")):   # columns: check | proof
        c[i % 2].metric(ui.t(f"rope.sdpa.{key}", delta=delta), f"{at[key]:.1e}", border=True,
                        help=ui.t(f"rope.sdpa.{key}.help"))
    st.info(ui.t("rope.sdpa.proof"))
    ui.explain(view.attention_check, rope.rope_attention, rope.plain_attention)

_section("layout")
with ui.guard():
    lv = view.layouts(d, m, n, base)
    lab = dict(rows=[ui.t("rope.layout.row.interleaved"), ui.t("rope.layout.row.half")], **_labels("rope.layout", "xz"))
    ui.plot(fr.layout_pairs, lv["pairs_interleaved"], lv["pairs_half"], labels=lab, key="rope_layouts")
    for col, key, note, color in zip(st.columns(3), ("interleaved", "half", "mixed"), (None, "same", "wrong"),
                                     ("off", "green", "red")):
        col.metric(ui.t(f"rope.layout.m_{key}"), f"{lv[key]:.4f}", delta=note and ui.t(f"rope.layout.{note}"),
                   delta_color=color, delta_arrow="off", border=True)
    st.warning(ui.t("rope.layout.warning"), icon=":material/warning:")
    ui.explain(rope.pairing_permutation, rope_demos.layout_demo, note=ui.t("rope.layout.formula_note"))

st.subheader(ui.t("rope.where.title"))
st.markdown(ui.t("rope.where.body"))
ui.diagram(ui.t("rope.where.diagram"))
