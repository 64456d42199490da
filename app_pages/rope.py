"""RoPE page: widgets -> posviz.views.rope (cached) -> posviz.figures.rope -> ui.plot.

The page's sections, in the order the user sees them, then the script that draws the controls and runs them."""
import streamlit as st

from posviz import ui
from posviz.figures import rope as fr
from posviz.pe import rope, rope_demos
from posviz.views import rope as view


def section(name, **fmt):
    """A section's title and caption: text rope.<name>.title and rope.<name>.caption."""
    st.subheader(ui.t(f"rope.{name}.title"))
    st.caption(ui.t(f"rope.{name}.caption", **fmt))


def clocks(m, n, d, base, content):
    st.subheader(ui.t("rope.clock.title"))
    with ui.guard():
        cv = view.clock(m, n, d, base, content)
        caption = "rope.clock.caption" if cv["last"] else "rope.clock.caption.one"      # d = 2: one pair
        st.caption(ui.t(caption, last=cv["last"], base=f"{base:g}", exponent=f"{cv['exponent']:.4g}",
                        slowest=f"{cv['slowest']:.3g}"))
        hands = ("angle",) if cv["plain"] else ("between", "added")
        lab = ui.labels("rope.clock", "arc", "pair", *hands, q=("rope.clock.q", {"m": m}), k=("rope.clock.k", {"n": n}))
        ui.plot(fr.clock_faces, cv["hands"], cv["pairs"], labels=lab, key="rope_clocks")
        ui.explain(rope_demos.clock_hands, rope.rope_inv_freq, rope.wrap_angle, note=ui.t("rope.clock.formula_note"))


def scores(m, n, delta, d, base, content, only_q):
    section("score")
    with ui.guard():
        sc = view.scores(m, n, delta, d, base, content, only_q)
        names = (ui.t("rope.score.base", m=m, n=n), ui.t("rope.score.shift", m=m + delta, n=n + delta),
                 ui.t("rope.score.key", m=m, n=n + delta))
        for i, (col, name) in enumerate(zip(st.container(key="rope_scores").columns(3), names)):
            col.metric(name, f"{sc['scores'][i]:.4f}", delta=sc["deltas"][i], border=True,
                       delta_color="off" if i == 1 and not only_q else "normal")
        if only_q:
            st.warning(ui.t("rope.score.bug"), icon=":material/bug_report:")
        else:
            st.success(ui.t("rope.score.equal"), icon=":material/check_circle:")
        st.caption(ui.t("rope.score.note"))
        ui.explain(rope_demos.shift_scores, rope_demos.rotated_score, rope.apply_rope)


@ui.section
def animation(m, n, d, base, content):
    section("anim")
    mode = ui.radio("rope_anim", view.ANIM_MODES, "both")
    with ui.guard():
        av = view.animation(m, n, d, base, content, mode)
        lab = ui.labels("rope.anim", "q", "k", "score", "now", "x", "y", "play", "pause", "step", pair="rope.dist.pair")
        ui.plot(fr.clock_animation, av["q_xy"], av["k_xy"], av["scores"], av["steps"], av["m"], av["n"], av["pairs"],
                labels=lab, key="rope_anim_fig")
        ui.explain(view.animation, rope_demos.clock_hands)


def distance(d, base, offset):
    section("dist")
    with ui.guard():
        dv = view.distance(d, base)
        lab = ui.labels("rope.dist", "x", "y", "pair", "now", mean=("rope.dist.mean", {"h": d // 2}))
        ui.plot(fr.score_vs_distance, dv["distances"], dv["per_pair"], dv["mean"], dv["pairs"], offset, labels=lab,
                key="rope_distance")
        ui.explain(view.distance)


@ui.section
def by_hand():
    section("hand")
    with ui.guard():
        c = st.columns([3, 2])
        example = ui.select("rope_example", view.EXAMPLES, "s08", col=c[1])
        c[1].info(ui.t(f"rope.hand.explain.{example}"))
        row = next(r for r in view.hand_examples() if r["example"] == example)
        title = dict(theta=row["theta_text"], p=row["p"], s=row["s"], score=row["score"])
        lab = ui.labels("rope.hand", "q0", "k0", rq=("rope.hand.rq", {"p": row["p"]}),
                        rk=("rope.hand.rk", {"s": row["s"]}), title=("rope.hand.clock_title", title))
        with c[0]:
            ui.plot(fr.pair_clock, row["q"], row["k"], row["rq"], row["rk"], labels=lab, key="rope_hand")
        table = view.hand_table()
        cols = ui.labels("rope.hand.col", *table[0])             # looked up once, not once per cell
        ui.table([{cols[k]: ui.t(f"rope.hand.{v}") if k == "example" else v for k, v in r.items()} for r in table])
        ui.explain(rope_demos.hand_examples, rope_demos.pair_rotate, rope.rotation_2x2,
                   rope_demos.pair_score_closed_form)


@ui.section
def calculator():
    section("calc")
    c = st.columns(4)
    q1 = ui.number("rope_calc_q1", -100.0, 100.0, 1.0, 0.5, col=c[0])
    q2 = ui.number("rope_calc_q2", -100.0, 100.0, 2.0, 0.5, col=c[1])
    k1 = ui.number("rope_calc_k1", -100.0, 100.0, 3.0, 0.5, col=c[2])
    k2 = ui.number("rope_calc_k2", -100.0, 100.0, 4.0, 0.5, col=c[3])
    c = st.columns(4)
    theta = ui.radio("rope_calc_theta", view.THETA_CHOICES, "pi3", col=c[0])
    other = ui.number("rope_calc_theta_x", -10.0, 10.0, 0.5, 0.01, disabled=theta != "other", col=c[1])
    p = ui.number("rope_calc_p", -1000, 1000, 5, col=c[2])
    s = ui.number("rope_calc_s", -1000, 1000, 7, col=c[3])
    only_q = ui.toggle("rope_calc_only_q", False)
    with ui.guard():
        kv = view.calculator(q1, q2, k1, k2, theta, other, p, s, only_q)
        c = st.columns([3, 2])
        lab = ui.labels("rope.hand", "q0", "k0", rq=("rope.hand.rq", {"p": p}),
                        rk=("rope.calc.k_only", {}) if only_q else ("rope.hand.rk", {"s": s}),
                        title=("rope.calc.clock_title", {"theta": kv["theta"], "p": p, "s": s}))
        with c[0]:
            ui.plot(fr.pair_clock, kv["q"], kv["k"], kv["rq"], kv["rk"], labels=lab, key="rope_calc_clock")
        with c[1]:
            st.metric(ui.t("rope.calc.score"), f"{kv['score']:.4f}", border=True)
            st.latex(fr.calculator_formula(kv))
            st.caption(ui.t("rope.calc.only_q" if only_q else "rope.calc.relative"))
        ui.explain(view.calculator, rope_demos.pair_score, rope_demos.pair_score_closed_form)


@ui.section
def steps(base):
    section("steps", x=view.STEP_X)
    with ui.more("rope_steps") as box, ui.guard():   # a deep dive: closed, its body does not run
        if box.open:
            sv = view.steps(ui.slider("rope_step_p", 0, view.STEP_MAX_P, 0), base)
            for step, tables in view.STEPS:
                st.markdown(ui.t(f"rope.steps.{step}"))
                st.code(sv["code"][step], language="python", wrap_lines=True)
                for col, name in zip(st.columns(len(tables)), tables):
                    with col:
                        ui.table(sv["tables"][name])
            st.caption(ui.t("rope.steps.check", diff=f"{sv['max_diff']:.1e}"))
            ui.explain(rope.apply_rope, rope.rotate_pairs, rope.rope_inv_freq, rope_demos.apply_rope_steps,
                       note=ui.t("rope.steps.fast_note"))


def sdpa(delta, base):
    section("sdpa")
    with ui.guard():
        at = view.attention_check(delta, base)
        c = st.columns(2)
        for i, key in enumerate(("sdpa_vs_own", "plain_shuffle", "shift", "rope_shuffle")):   # columns: check | proof
            c[i % 2].metric(ui.t(f"rope.sdpa.{key}", delta=delta), f"{at[key]:.1e}", border=True,
                            help=ui.t(f"rope.sdpa.{key}.help"))
        st.info(ui.t("rope.sdpa.proof"))
        hq, h = at["gqa_heads"]
        st.metric(ui.t("rope.sdpa.gqa", hq=hq, h=h), f"{at['gqa']:.1e}", border=True, help=ui.t("rope.sdpa.gqa.help"))
        st.markdown(ui.t("rope.sdpa.gqa.text", hq=hq, hq_last=hq - 1, h=h, g=hq // h,
                         group=", ".join(map(str, at["gqa_group"]))))
        ui.explain(view.attention_check, rope.rope_attention, rope.plain_attention, rope.kv_head_of)


def layouts(d, m, n, base):
    section("layout")
    with ui.guard():
        lv = view.layouts(d, m, n, base)
        lab = ui.labels("rope.layout", "x", "z", rows=["rope.layout.row.interleaved", "rope.layout.row.half"])
        ui.plot(fr.layout_pairs, lv["pairs_interleaved"], lv["pairs_half"], labels=lab, key="rope_layouts")
        for col, key in zip(st.columns(3), ("interleaved", "half", "mixed")):
            note = lv["verdict"].get(key)          # computed by the view: same, one (d = 2) or wrong
            col.metric(ui.t(f"rope.layout.m_{key}"), f"{lv[key]:.4f}", delta=note and ui.t(f"rope.layout.{note}", d=d),
                       delta_color={"wrong": "red", None: "off"}.get(note, "green"), delta_arrow="off", border=True)
        st.warning(ui.t("rope.layout.warning"), icon=":material/warning:")
        ui.explain(rope.pairing_permutation, rope_demos.layout_demo, note=ui.t("rope.layout.formula_note"))


ui.header("rope")
st.subheader(ui.t("rope.controls"))
c = st.columns(5)
m = ui.slider("rope_m", 0, 128, 2, col=c[0])
n = ui.slider("rope_n", 0, 128, 5, col=c[1])
delta = ui.slider("rope_shift", -64, 64, 4, col=c[2])
d = ui.select_slider("rope_dim", view.DIMS, 8, col=c[3])
base = float(ui.select_slider("rope_base", view.BASES, 10000, col=c[4]))
c = st.columns(2)
content = ui.radio("rope_content", ("unit", "random"), "unit", col=c[0])
only_q = ui.toggle("rope_only_q", False, col=c[1])

clocks(m, n, d, base, content)
scores(m, n, delta, d, base, content, only_q)
animation(m, n, d, base, content)
distance(d, base, n - m)
by_hand()
calculator()
steps(base)
sdpa(delta, base)
layouts(d, m, n, base)
st.subheader(ui.t("rope.where.title"))
st.markdown(ui.t("rope.where.body"))
ui.diagram(ui.t("rope.where.diagram"))
