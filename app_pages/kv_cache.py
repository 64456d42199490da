"""KV cache: prefill + decode against the full forward, the correct cache and its wrong ones, per dtype."""
import streamlit as st

from posviz import ui
from posviz.figures import kv_cache as figs
from posviz.lab import kv_cache
from posviz.views import kv_cache as view

ui.header("kv_cache")

c = st.columns(3)
L = ui.slider("kv_L", 2, view.MAX_LENGTH, 6, col=c[0])
P = ui.slider("kv_prefill", 1, view.MAX_LENGTH, 4, col=c[0])
heads = ui.select_slider("kv_heads", view.HEADS, 2, col=c[1])
head_dim = ui.select_slider("kv_head_dim", view.HEAD_DIMS, 16, col=c[1])
dtype = ui.radio("kv_dtype", view.DTYPES, "float32", col=c[2])
layout = ui.radio("kv_layout", view.ROPE_LAYOUTS, "interleaved", col=c[2])
modes = ui.multiselect("kv_modes", view.MODES, view.MODES)
mode_keys = {f"mode.{m}": f"w.kv_modes.{m}" for m in view.MODES}   # the figures' labels of the modes: text keys
setup = dict(heads=heads, head_dim=head_dim, dtype=dtype, layout=layout)

with ui.guard():
    res = view.decoding(L, P, **setup)
    shown = [m for m in view.MODES if m in modes]
    if not shown:
        st.info(ui.t("kv_cache.need_mode"))
    none = ui.t("kv_cache.summary.none")
    ui.table({   # the verdict first: on a phone the table scrolls sideways
        ui.t("kv_cache.summary.mode"): [ui.t(f"w.kv_modes.{m}") for m in view.MODES],
        ui.t("kv_cache.summary.verdict"): [ui.t("kv_cache.pass" if res["passed"][m] else "kv_cache.fail")
                                           for m in view.MODES],
        ui.t("kv_cache.summary.first"): [none if res["first_fail"][m] is None else str(res["first_fail"][m])
                                         for m in view.MODES],
        ui.t("kv_cache.summary.max"): [f"{res['max_decoded'][m]:.2e}" for m in view.MODES],
    }, static=True)

    ui.plot(figs.error_figure, res["positions"], {m: res["errors"][m] for m in shown}, prefill_length=P,
            allowed=res["allowed"], precision=res["precision"], key="kv_errors",
            labels=ui.labels("kv_cache.fig.error", "title", "x", "y", prefill="kv_cache.fig.prefill",
                             allowed="kv_cache.fig.allowed", precision=("kv_cache.fig.precision", {"dtype": dtype}),
                             **mode_keys))
    st.caption(ui.t("kv_cache.fig.floor"))
    ui.explain(kv_cache.full_causal_rope_attention, kv_cache.decode_with_cache_trace, kv_cache.compare_modes)
    st.markdown(ui.t("kv_cache.tol", dtype=dtype, rtol=res["rtol"], atol=res["atol"], prec=res["max_precision"],
                     corr32=res["max_decoded_f32"]["correct"], wrong=res["wrong_min"]))
    st.caption(ui.t("kv_cache.tol_same", dtype=dtype, same=res["max_decoded"]["correct"]))

    st.subheader(ui.t("kv_cache.why.title"))
    st.markdown(ui.t("kv_cache.why"))

    st.subheader(ui.t("kv_cache.trace.title"))
    if res["last"] is None:
        st.info(ui.t("kv_cache.trace.none"))
    else:
        if shown:
            ui.plot(figs.positions_figure, {m: res["last"][m][0] for m in shown},
                    {m: res["last"][m][1] for m in shown}, key="kv_positions",
                    labels=ui.labels("kv_cache.fig.pos", "x", "y", "query",
                                     title=("kv_cache.fig.pos.title", {"t": L - 1}), **mode_keys))
            st.caption(ui.t("kv_cache.fig.pos.note"))
            ui.explain(kv_cache.decode_with_cache_trace, view.read_positions_at)
        mode = ui.radio("kv_trace_mode", view.MODES, "correct")
        ui.table(res["tables"][mode], static=True)
        st.caption(ui.t("kv_cache.trace.caption", steps=view.TRACE_STEPS, keys=view.TRACE_KEYS))

st.subheader(ui.t("kv_cache.diagram.title"))
ui.diagram(ui.t("kv_cache.diagram"))
st.markdown(ui.t("kv_cache.advice"))
