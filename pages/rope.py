"""RoPE clock page: widgets -> posviz.pe.rope views (cached) -> posviz.figures.rope -> ui.plot."""
import streamlit as st

from posviz import ui
from posviz.pe import rope
from posviz.figures import rope as fr

DIMS = (2, 4, 8, 16, 32, 64, 128, 256)
BASES = (10, 100, 1000, 10000, 100000, 500000, 1000000)
EXAMPLES = ("s08", "s08_shift", "s001", "s17_a", "s17_b", "s17_c")

clock_view = ui.cache(rope.clock_view)
score_view = ui.cache(rope.score_view)
animation_view = ui.cache(rope.animation_view)
distance_view = ui.cache(rope.distance_view)
hand_examples = ui.cache(rope.hand_examples)
layout_demo = ui.cache(rope.layout_demo)


def _diff(a, b):
    """Metric delta text, rounded so that float noise shows as +0.0000, not -0.0000."""
    return f"{round(a - b, 4) + 0.0:+.4f}"


ui.header("rope")

# ---------------------------------------------------------------- controls
st.subheader(ui.t("rope.controls"))
c = st.columns(5)
with c[0]:
    m = ui.slider("rope_m", 0, 128, 2)
with c[1]:
    n = ui.slider("rope_n", 0, 128, 5)
with c[2]:
    delta = ui.slider("rope_shift", -64, 64, 4)
with c[3]:
    d = ui.select_slider("rope_dim", DIMS, 8)
with c[4]:
    base = ui.select_slider("rope_base", BASES, 10000)
c = st.columns([1, 1])
with c[0]:
    content = ui.radio("rope_content", ("unit", "random"), "unit")
with c[1]:
    only_q = ui.toggle("rope_only_q", False)

# ---------------------------------------------------------------- clocks
st.subheader(ui.t("rope.clock.title"))
st.caption(ui.t("rope.clock.caption"))
with ui.guard():
    cv = clock_view(m, n, d, float(base), content)
    labels = dict(q=ui.t("rope.clock.q", m=m), k=ui.t("rope.clock.k", n=n), arc=ui.t("rope.clock.arc"),
                  pair=ui.t("rope.clock.pair"), angle=ui.t("rope.clock.angle"))
    ui.plot(ui.build(fr.clock_faces, cv["hands"], cv["pairs"], labels=labels), key="rope_clocks")
    ui.explain([r"\theta_i = \text{base}^{-2i/d},\quad \phi_q = m\,\theta_i,\quad \phi_k = n\,\theta_i",
                r"\angle(q,k) = (n-m)\,\theta_i \ \text{wrapped to } (-\pi, \pi]"],
               rope.clock_hands, rope.wrap_angle, note=ui.t("rope.clock.formula_note"))

# ---------------------------------------------------------------- shift test
st.subheader(ui.t("rope.score.title"))
st.caption(ui.t("rope.score.caption"))
with ui.guard():
    s = score_view(m, n, delta, d, float(base), content, 0, only_q)
    s0, s1, s2 = float(s[0]), float(s[1]), float(s[2])
    c = st.columns(3)
    c[0].metric(ui.t("rope.score.base", m=m, n=n), f"{s0:.4f}", border=True)
    c[1].metric(ui.t("rope.score.shift", m=m + delta, n=n + delta), f"{s1:.4f}", delta=_diff(s1, s0),
                delta_color="off" if not only_q else "normal", border=True)
    c[2].metric(ui.t("rope.score.key", m=m, n=n + delta), f"{s2:.4f}", delta=_diff(s2, s0), border=True)
    if only_q:
        st.warning(ui.t("rope.score.bug"), icon=":material/bug_report:")
    else:
        st.success(ui.t("rope.score.equal"), icon=":material/check_circle:")
    st.caption(ui.t("rope.score.note"))
    ui.explain([r"(R(m)q)^\top (R(n)k) = q^\top R(m)^\top R(n)\, k = q^\top R(n-m)\, k",
                r"R((n+\Delta)-(m+\Delta)) = R(n-m)"],
               rope.shift_scores, rope.rope_score, rope.apply_rope)

# ---------------------------------------------------------------- animation
st.subheader(ui.t("rope.anim.title"))
st.caption(ui.t("rope.anim.caption"))
mode = ui.radio("rope_anim", ("both", "key"), "both")
with ui.guard():
    av = animation_view(m, n, d, float(base), content, mode)
    labels = dict(q=ui.t("rope.anim.q"), k=ui.t("rope.anim.k"), score=ui.t("rope.anim.score"),
                  now=ui.t("rope.anim.now"), x=ui.t("rope.anim.x"), y=ui.t("rope.anim.y"),
                  play=ui.t("rope.anim.play"), pause=ui.t("rope.anim.pause"), step=ui.t("rope.anim.step"),
                  pair=ui.t("rope.dist.pair"))
    ui.plot(ui.build(fr.clock_animation, av["q_xy"], av["k_xy"], av["scores"], av["steps"], av["m"], av["n"], av["pairs"],
                               labels=labels), key="rope_anim_fig")
    ui.explain(r"\text{both: } (m+t,\ n+t)\ \Rightarrow\ \text{score constant};\qquad "
               r"\text{key: } (m,\ n+t)\ \Rightarrow\ \text{score changes}",
               rope.animation_view, rope.clock_hands)

# ---------------------------------------------------------------- distance
st.subheader(ui.t("rope.dist.title"))
st.caption(ui.t("rope.dist.caption"))
with ui.guard():
    dv = distance_view(d, float(base))
    labels = dict(x=ui.t("rope.dist.x"), y=ui.t("rope.dist.y"), pair=ui.t("rope.dist.pair"),
                  mean=ui.t("rope.dist.mean", h=d // 2), now=ui.t("rope.dist.now"))
    ui.plot(ui.build(fr.score_vs_distance, dv["distances"], dv["per_pair"], dv["mean"], dv["pairs"], n - m, labels=labels),
            key="rope_distance")
    ui.explain(r"\frac{1}{d/2}\sum_i \cos\big((n-m)\,\theta_i\big)\quad\text{(unit hands } q=k=(1,0)\text{ per pair)}",
               rope.distance_view)

# ---------------------------------------------------------------- worked examples
st.subheader(ui.t("rope.hand.title"))
st.caption(ui.t("rope.hand.caption"))
with ui.guard():
    rows = hand_examples()
    col = {k: ui.t(f"rope.hand.col.{k}") for k in ("example", "q", "k", "theta", "p", "s", "rq", "rk", "score",
                                                   "relative")}
    table = [{col["example"]: ui.t(f"rope.hand.{r['example']}"), col["q"]: str(r["q"]), col["k"]: str(r["k"]),
              col["theta"]: r["theta_text"], col["p"]: r["p"], col["s"]: r["s"], col["rq"]: str(r["rq"]),
              col["rk"]: str(r["rk"]), col["score"]: round(r["score"], 4), col["relative"]: round(r["relative"], 4)}
             for r in rows]
    c = st.columns([3, 2])
    with c[1]:
        example = ui.select("rope_example", EXAMPLES, "s08")
        row = next(r for r in rows if r["example"] == example)
        st.info(ui.t(f"rope.hand.explain.{example}"))
    with c[0]:
        labels = dict(q0=ui.t("rope.hand.q0"), k0=ui.t("rope.hand.k0"), rq=ui.t("rope.hand.rq", p=row["p"]),
                      rk=ui.t("rope.hand.rk", s=row["s"]),
                      title=ui.t("rope.hand.clock_title", theta=row["theta_text"], p=row["p"], s=row["s"],
                                 score=row["score"]))
        ui.plot(ui.build(fr.pair_clock, row["q"], row["k"], row["rq"], row["rk"], labels=labels), key="rope_hand")
    st.dataframe(table, hide_index=True, width="stretch")
    ui.explain([r"R(\phi) = \begin{bmatrix}\cos\phi & -\sin\phi\\ \sin\phi & \cos\phi\end{bmatrix},\quad "
                r"q^\top R(\phi)\,k = \cos\phi\,(q\cdot k) + \sin\phi\,(q_2k_1 - q_1k_2)"],
               rope.hand_examples, rope.pair_rotate, rope.pair_score_relative)

# ---------------------------------------------------------------- layouts
st.subheader(ui.t("rope.layout.title"))
st.caption(ui.t("rope.layout.caption"))
with ui.guard():
    lv = layout_demo(d, m, n, base=float(base))
    labels = dict(rows=[ui.t("rope.layout.row.interleaved"), ui.t("rope.layout.row.half")],
                  x=ui.t("rope.layout.x"), z=ui.t("rope.layout.z"))
    ui.plot(ui.build(fr.layout_pairs, lv["pairs_interleaved"], lv["pairs_half"], labels=labels), key="rope_layouts")
    c = st.columns(3)
    c[0].metric(ui.t("rope.layout.m_interleaved"), f"{float(lv['interleaved']):.4f}", border=True)
    c[1].metric(ui.t("rope.layout.m_half"), f"{float(lv['half']):.4f}", delta=ui.t("rope.layout.same"),
                delta_color="green", delta_arrow="off", border=True)
    c[2].metric(ui.t("rope.layout.m_mixed"), f"{float(lv['mixed']):.4f}", delta=ui.t("rope.layout.wrong"),
                delta_color="red", delta_arrow="off", border=True)
    st.warning(ui.t("rope.layout.warning"), icon=":material/warning:")
    ui.explain([r"P = [0, 2, \dots, d-2,\ 1, 3, \dots, d-1],\qquad "
                r"\mathrm{interleaved}(x) = P^{-1}\,\mathrm{half}(P x)"],
               rope.layout_permutation, rope.layout_demo, note=ui.t("rope.layout.formula_note"))

# ---------------------------------------------------------------- where it happens (seed 000 §07, seed 001)
st.subheader(ui.t("rope.where.title"))
st.markdown(ui.t("rope.where.body"))
st.code(ui.t("rope.where.diagram"), language=None)
