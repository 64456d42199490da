"""The debugging path of seed 000 §12 run live, the exercises of §17, and new generated RoPE problems."""
import streamlit as st

from posviz import ui
from posviz.figures import checks as figs
from posviz.lab import checklist, exercises
from posviz.views import checks as view

GEN_KEYS = ("chk_gen_q1", "chk_gen_q2", "chk_gen_k1", "chk_gen_k2", "chk_gen_score")
CODES = {"chk.n.method": "w.ov_method", "chk.n.mode": "w.kv_modes"}   # numbers whose value is a code: its text

ui.header("checks")
mark = {True: ":green-badge[" + ui.t("checks.pass") + "]", False: ":red-badge[" + ui.t("checks.fail") + "]"}
example = (ui.t("overview.default_a"), ui.t("overview.default_b"))   # the overview's sentence, reordered


def words(v, number=None):
    """A value or column as the user reads it: a text key ("chk.v.no_error") or the code of a position method
    or a cache mode (the value of `number` "chk.n.method" / "chk.n.mode") in the user's language; numbers
    and formulas as they are."""
    if number in CODES:
        return ui.t(f"{CODES[number]}.{v}")
    return ui.t(v) if v.startswith("chk.") else v


summary = st.container(key="chk_summary")      # a scene shows it (posviz.scenes.checks)
results = {}
for i in view.STEPS:
    with st.container(border=True, key=f"chk_step{i}"), ui.guard():
        head = st.empty()
        st.markdown(ui.t("checks.step1.what", a=example[0], b=example[1]) if i == 1 else ui.t(f"checks.step{i}.what"))
        res = results[i] = view.step(i, ui.toggle(key=f"chk_break{i}", value=False), *example)
        head.markdown(f"#### {i} · {ui.t(f'checks.step{i}.title')} {mark[res['passed']]}")
        ui.table({ui.t("checks.numbers"): [ui.t(k) for k, _ in res["numbers"]],
                  ui.t("checks.value"): [words(v, k) for k, v in res["numbers"]]}, static=True)
        if res["boundary"]:
            b = res["boundary"]
            st.info(ui.t("checks.boundary", msg=ui.t(f"err.{b['code']}", **b["params"])), icon=":material/block:")
        if res["table"]:
            tab = res["table"]
            ui.table({words(c): [words(r[j]) for r in tab["rows"]] for j, c in enumerate(tab["columns"])},
                     static=True)
        if not res["passed"]:
            st.warning(ui.t(f"checks.step{i}.fail"))
        ui.explain(checklist.STEP_FUNCTIONS[i])

with summary:
    st.subheader(ui.t("checks.summary"))
    ui.table({ui.t("checks.col.step"): [str(i) for i in results],
              ui.t("checks.col.check"): [ui.t(f"checks.step{i}.title") for i in results],
              ui.t("checks.col.status"): [ui.t("checks.pass" if r["passed"] else "checks.fail")
                                          for r in results.values()]}, static=True)

# ---------------------------------------------------------------- exercises (a deep dive: runs only when open)
def predict(key, answer, integer=False):
    """A number box; returns True/False/None (no answer yet) and says so."""
    if integer:
        got = ui.number(key, 0, 3, None, step=1)
    else:
        got = ui.number(key, -1000.0, 1000.0, None, step=0.01, format="%.4f")
    ok = view.verdict(got, answer, 0.5 if integer else view.TOL)
    if ok is None:
        st.caption(ui.t("checks.ex.wait"))
    elif ok:
        st.success(ui.t("checks.ex.right", tol=0.5 if integer else view.TOL))
    else:
        st.warning(ui.t("checks.ex.wrong", got=got))
    return ok


def rows_table(rows, rotated_k=True):
    ui.table({"(p, s)": [f"({r['p']}, {r['s']})" for r in rows], "R(p)q": [str(r["q_rot"]) for r in rows],
              "R(s)k" if rotated_k else "k": [str(r["k_rot"]) for r in rows],
              "(R(p)q)ᵀR(s)k" if rotated_k else "(R(p)q)ᵀk": [f"{r['score']:.4f}" for r in rows]}
             | ({"qᵀR(s−p)k": [f"{r['closed_form']:.4f}" for r in rows]} if rotated_k else {}), static=True)


def exercises_section():
    st.caption(ui.t("checks.ex.intro"))
    fixed = view.fixed_exercises()
    ex1, ex2, ex3 = fixed["ex1"], fixed["ex2"], fixed["ex3"]
    st.subheader(ui.t("checks.ex1.title"))
    st.markdown(ui.t("checks.ex1.q"))
    oks = []
    for col, key, row in zip(st.columns(3), ("chk_ex1_a", "chk_ex1_b", "chk_ex1_c"), ex1):
        with col:
            oks.append(predict(key, row["closed_form"]))
    if ui.toggle("chk_reveal1", False) or all(oks):
        st.markdown(ui.t("checks.ex1.answer", a=ex1[0]["closed_form"], c=ex1[2]["closed_form"]))
        rows_table(ex1)
        ui.explain(checklist.exercise_1)

    st.subheader(ui.t("checks.ex2.title"))
    st.markdown(ui.t("checks.ex2.q"))
    oks = []
    for col, key, row in zip(st.columns(2), ("chk_ex2_a", "chk_ex2_b"), ex2):
        with col:
            oks.append(predict(key, row["closed_form"]))
    if ui.toggle("chk_reveal2", False) or all(oks):
        st.markdown(ui.t("checks.ex2.answer", a=ex2[0]["closed_form"], b=ex2[1]["closed_form"]))
        rows_table(ex2, rotated_k=False)

    st.subheader(ui.t("checks.ex3.title"))
    st.markdown(ui.t("checks.ex3.q"))
    if ui.toggle("chk_reveal3", False) or predict("chk_ex3", fixed["ex3_answer"], integer=True):
        st.markdown(ui.t("checks.ex3.answer"))
        modes = ("correct", "restart")
        ui.table({ui.t("checks.ex3.col.pos"): [ui.t(f"w.kv_modes.{m}") for m in modes],
                  **{str(p): [f"{ex3[m][p]:.2e}" for m in modes] for p in range(4)}}, static=True)
        ui.explain(checklist.exercise_3)


# ---------------------------------------------------------------- new problems from a seed (a deep dive too)
def next_problem():
    st.session_state["chk_gen_seed"] = (int(st.session_state.get("chk_gen_seed") or 0) + 1) % (exercises.MAX_SEED + 1)
    for k in GEN_KEYS + ("chk_gen_reveal",):
        st.session_state[k] = False if k == "chk_gen_reveal" else None


def generator_section():
    st.markdown(ui.t("checks.gen.intro"))
    c = st.columns(2, vertical_alignment="bottom")
    seed = ui.number("chk_gen_seed", 0, exercises.MAX_SEED, 20, step=1, col=c[0])
    c[1].button(ui.t("checks.gen.new"), key="chk_gen_new", on_click=next_problem, icon=":material/casino:")
    gen = view.generated(int(seed if seed is not None else 20))
    prob = gen["problem"]
    st.markdown(ui.t("checks.gen.q_only" if prob["only_q"] else "checks.gen.q", q=prob["q"], k=prob["k"],
                     theta=prob["theta"]["text"], p=prob["p"], s=prob["s"]))
    numbers = prob["q_rot"] + prob["k_rot"] + [prob["score"]]
    oks = []
    for col, key, x in zip(st.columns(5), GEN_KEYS, numbers):
        with col:
            oks.append(predict(key, x["value"]))
    if ui.toggle("chk_gen_reveal", False) or all(oks):
        for line in figs.worked_latex(prob):
            st.latex(line)
        rope = gen["rope"]
        ui.table({ui.t("checks.gen.col.what"): [ui.t(f"w.{k}") for k in GEN_KEYS],
                  ui.t("checks.gen.col.exact"): [x["text"] for x in numbers],
                  ui.t("checks.gen.col.decimal"): [f"{x['value']:.4f}" for x in numbers],
                  "apply_rope": [f"{v:.4f}" for v in rope["q_rot"] + rope["k_rot"] + [rope["score"]]]}, static=True)
        shift = "shift_same" if not prob["only_q"] else "shift_coincide" if prob["shift_equal"] else "shift_changed"
        st.markdown(ui.t(f"checks.gen.{shift}",
                         d=prob["shift"], p=prob["p"] + prob["shift"], s=prob["s"] + prob["shift"],
                         score=prob["shift_score"]["text"], diff=f"{rope['max_diff']:.1e}"))
        ui.explain(exercises.problem, exercises.rope_check)


for key, section, prefixes in (("chk_more_ex", exercises_section, ("chk_ex", "chk_reveal")),
                               ("chk_more_gen", generator_section, ("chk_gen_",))):
    linked = any(k.startswith(prefixes) for k in st.query_params.keys())   # a link with answers opens its section
    with ui.more(key, expanded=linked) as box, ui.guard():
        if box.open:
            section()
