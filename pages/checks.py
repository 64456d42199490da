import streamlit as st

from posviz import ui
from posviz.lab import checklist

ui.header("checks")
run = ui.cache(checklist.run_step)
mark = {True: ":green-badge[" + ui.t("checks.pass") + "]", False: ":red-badge[" + ui.t("checks.fail") + "]"}

summary = st.container()
results = {}
for i in checklist.STEPS:
    with st.container(border=True), ui.guard():
        head = st.empty()
        st.markdown(ui.t(f"checks.step{i}.what"))
        b = ui.toggle(f"chk_break{i}", False)
        res = run(i, b)
        results[i] = res
        head.markdown(f"#### {i} · {ui.t(f'checks.step{i}.title')} {mark[res['passed']]}")
        st.dataframe({ui.t("checks.numbers"): [ui.t(k) for k, _ in res["numbers"]],
                      ui.t("checks.value"): [v for _, v in res["numbers"]]}, hide_index=True, width="stretch")
        if res["message"]:
            st.code(res["message"], language=None, wrap_lines=True)
        if res["table"]:
            tab = res["table"]
            st.dataframe({c: [r[j] for r in tab["rows"]] for j, c in enumerate(tab["columns"])},
                         hide_index=True, width="stretch")
        if not res["passed"]:
            st.warning(ui.t(f"checks.step{i}.fail"))
        ui.explain([], checklist.STEP_FUNCTIONS[i])

with summary:
    st.subheader(ui.t("checks.summary"))
    st.dataframe({ui.t("checks.col.step"): [str(i) for i in results],
                  ui.t("checks.col.check"): [ui.t(f"checks.step{i}.title") for i in results],
                  ui.t("checks.col.status"): [ui.t("checks.pass" if r["passed"] else "checks.fail")
                                              for r in results.values()]}, hide_index=True, width="stretch")

# ---------------------------------------------------------------- exercises
st.header(ui.t("checks.ex.title"))
st.caption(ui.t("checks.ex.intro"))


def predict(key, answer, tol, integer=False):
    """A number box; returns True/False/None (no answer yet) and says so."""
    if integer:
        got = ui.number(key, 0, 3, None, step=1)
    else:
        got = ui.number(key, -1000.0, 1000.0, None, step=0.01, format="%.4f")
    ok = checklist.check_answer(got, answer, tol)
    if ok is None:
        st.caption(ui.t("checks.ex.wait"))
    elif ok:
        st.success(ui.t("checks.ex.right", tol=tol))
    else:
        st.warning(ui.t("checks.ex.wrong", got=got))
    return ok


with ui.guard():
    ex1 = ui.cache(checklist.exercise_1)()
    st.subheader(ui.t("checks.ex1.title"))
    st.markdown(ui.t("checks.ex1.q"))
    cols = st.columns(3)
    oks = []
    for col, key, row in zip(cols, ("chk_ex1_a", "chk_ex1_b", "chk_ex1_c"), ex1):
        with col:
            oks.append(predict(key, row["closed_form"], 0.01))
    if ui.toggle("chk_reveal1", False) or all(oks):
        st.markdown(ui.t("checks.ex1.answer", a=ex1[0]["closed_form"], c=ex1[2]["closed_form"]))
        st.dataframe({"(p, s)": [f"({r['p']}, {r['s']})" for r in ex1], "R(p)q": [str(r["q_rot"]) for r in ex1],
                      "R(s)k": [str(r["k_rot"]) for r in ex1], "(R(p)q)ᵀR(s)k": [f"{r['score']:.4f}" for r in ex1],
                      "qᵀR(s−p)k": [f"{r['closed_form']:.4f}" for r in ex1]}, hide_index=True)
        ui.explain(r"q^\top R(\varphi)k=(q\cdot k)\cos\varphi+(q_2k_1-q_1k_2)\sin\varphi,\quad\varphi=(s-p)\theta",
                   checklist.exercise_1)

    ex2 = ui.cache(checklist.exercise_2)()
    st.subheader(ui.t("checks.ex2.title"))
    st.markdown(ui.t("checks.ex2.q"))
    cols = st.columns(2)
    oks = []
    for col, key, row in zip(cols, ("chk_ex2_a", "chk_ex2_b"), ex2):
        with col:
            oks.append(predict(key, row["closed_form"], 0.01))
    if ui.toggle("chk_reveal2", False) or all(oks):
        st.markdown(ui.t("checks.ex2.answer", a=ex2[0]["closed_form"], b=ex2[1]["closed_form"]))
        st.dataframe({"(p, s)": [f"({r['p']}, {r['s']})" for r in ex2], "R(p)q": [str(r["q_rot"]) for r in ex2],
                      "k": [str(r["k_rot"]) for r in ex2], "(R(p)q)ᵀk": [f"{r['score']:.4f}" for r in ex2]},
                     hide_index=True)

    ex3 = ui.cache(checklist.exercise_3)()
    st.subheader(ui.t("checks.ex3.title"))
    st.markdown(ui.t("checks.ex3.q"))
    ok3 = predict("chk_ex3", checklist.exercise_3_answer(ex3), 0.5, integer=True)
    if ui.toggle("chk_reveal3", False) or ok3:
        st.markdown(ui.t("checks.ex3.answer"))
        st.dataframe({ui.t("checks.ex3.col.pos"): [ui.t("w.kv_modes.correct"), ui.t("w.kv_modes.restart")]} |
                     {str(p): [f"{ex3['correct'][p]:.2e}", f"{ex3['restart'][p]:.2e}"] for p in range(4)},
                     hide_index=True)
        ui.explain([], checklist.exercise_3)
