import streamlit as st

from posviz import ui
from posviz.lab import kv_cache as kvcache
from posviz.figures import kv_cache as figs

ui.header("kv_cache")
MODES = kvcache.MODES
run = ui.cache(kvcache.compare_modes)

c1, c2, c3 = st.columns(3)
with c1:
    L = ui.slider("kv_L", 2, 96, 6)
    P = ui.slider("kv_prefill", 1, 96, 4)
with c2:
    heads = ui.select_slider("kv_heads", (1, 2, 4), 2)
    head_dim = ui.select_slider("kv_head_dim", (8, 16, 32, 64, 128), 16)
with c3:
    dtype = ui.radio("kv_dtype", tuple(kvcache.DTYPES), "float32")
    layout = ui.radio("kv_layout", ("interleaved", "half"), "interleaved")
modes = ui.multiselect("kv_modes", MODES, MODES)
labels = {m: ui.t(f"w.kv_modes.{m}") for m in MODES}

with ui.guard():
    res = run(L, P, heads=heads, head_dim=head_dim, dtype=dtype, layout=layout, modes=tuple(MODES))
    shown = [m for m in MODES if m in modes]
    if not shown:
        st.info(ui.t("kv_cache.need_mode"))
    none = ui.t("kv_cache.summary.none")
    st.dataframe({
        ui.t("kv_cache.summary.mode"): [labels[m] for m in MODES],
        ui.t("kv_cache.summary.max"): [f"{res['max_decoded'][m]:.2e}" for m in MODES],
        ui.t("kv_cache.summary.first"): [none if res["first_fail"][m] is None else str(res["first_fail"][m])
                                         for m in MODES],
        ui.t("kv_cache.summary.verdict"): [ui.t("kv_cache.pass" if res["passed"][m] else "kv_cache.fail")
                                           for m in MODES],
    }, hide_index=True, width="stretch")

    fig = figs.error_figure(res["positions"], {m: res["errors"][m] for m in shown}, prefill_length=P,
                            labels=labels, allowed=res["allowed"], precision=res["precision"],
                            title=ui.t("kv_cache.fig.error.title"), x_title=ui.t("kv_cache.fig.error.x"),
                            y_title=ui.t("kv_cache.fig.error.y"), prefill_label=ui.t("kv_cache.fig.prefill"),
                            allowed_label=ui.t("kv_cache.fig.allowed"),
                            precision_label=ui.t("kv_cache.fig.precision", dtype=dtype))
    ui.plot(fig, key="kv_errors")
    st.caption(ui.t("kv_cache.fig.floor"))
    ui.explain([r"\mathrm{out}_p=\sum_{s\le p}\mathrm{softmax}_s\!\Big(\tfrac{(R(p)q_p)^\top R(s)k_s}{\sqrt d}\Big)v_s,"
                r"\qquad (R(p)q)^\top R(s)k=q^\top R(s-p)k",
                r"\mathrm{err}_p=\max_{h,c}\,\big|\mathrm{decode}_{p}-\mathrm{full}_{p}\big|"
                r"\;\le\;\mathrm{atol}+\mathrm{rtol}\cdot\max|\mathrm{full}_p|"],
               kvcache.full_causal_rope_attention, kvcache.decode_with_cache_trace, kvcache.compare_modes)
    st.markdown(ui.t("kv_cache.tol", dtype=dtype, rtol=res["rtol"], atol=res["atol"], prec=res["max_precision"],
                     corr32=res["max_decoded_f32"]["correct"],
                     wrong=min(res["max_decoded"][m] for m in MODES[1:])))
    st.caption(ui.t("kv_cache.tol_same", dtype=dtype, same=res["max_decoded"]["correct"]))

    st.subheader(ui.t("kv_cache.why.title"))
    st.markdown(ui.t("kv_cache.why"))

    st.subheader(ui.t("kv_cache.trace.title"))
    if P >= L:
        st.info(ui.t("kv_cache.trace.none"))
    else:
        last = {m: kvcache.read_positions_at(res, m) for m in shown}
        if shown:
            pfig = figs.positions_figure({m: last[m][0] for m in shown}, {m: last[m][1] for m in shown},
                                         labels=labels, title=ui.t("kv_cache.fig.pos.title", t=L - 1),
                                         x_title=ui.t("kv_cache.fig.pos.x"), y_title=ui.t("kv_cache.fig.pos.y"),
                                         query_label=ui.t("kv_cache.fig.pos.query"))
            ui.plot(pfig, key="kv_positions")
            st.caption(ui.t("kv_cache.fig.pos.note"))
            ui.explain(r"R(a)\,R(b)=R(a+b)\;\Rightarrow\;\text{a key rotated twice carries } a+b",
                       kvcache.read_positions_at)
        mode = ui.radio("kv_trace_mode", MODES, "correct")
        steps, keys = 12, 16
        cols, rows = kvcache.trace_table(res["traces"][mode], max_steps=steps, max_keys=keys)
        st.dataframe({c: [r[i] for r in rows] for i, c in enumerate(cols)}, hide_index=True, width="stretch")
        st.caption(ui.t("kv_cache.trace.caption", steps=steps, keys=keys))

st.subheader(ui.t("kv_cache.diagram.title"))
st.code(ui.t("kv_cache.diagram"), language=None)
st.markdown(ui.t("kv_cache.advice"))
