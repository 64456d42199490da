import streamlit as st

from posviz import ui
from posviz.figures import lab as figs
from posviz.lab import toy_model
from posviz.pe import position_ids
from posviz.views import lab as view

ui.header("lab")

# ---------------------------------------------------------------- 1 · batch and model
st.subheader(ui.t("lab.setup"))
c1, c2 = st.columns(2)
with c1:
    sent_a = ui.text_input("lab_a", ui.t("lab.default_a"), max_chars=view.MAX_CHARS)
with c2:
    sent_b = ui.text_input("lab_b", ui.t("lab.default_b"), max_chars=view.MAX_CHARS)
c1, c2, c3 = st.columns([1, 1.2, 1])
with c1:
    side = ui.radio("lab_side", ("left", "right"), "left")
with c2:
    method = ui.select("lab_method", view.POSITION_METHODS, "rope")
with c3:
    layout = ui.radio("lab_layout", view.ROPE_LAYOUTS, "interleaved", disabled=method != "rope")
c1, c2, c3, c4 = st.columns(4, vertical_alignment="center")
with c1:
    heads = ui.slider("lab_heads", 1, 4, 2)
with c2:
    head_dim = ui.select_slider("lab_dim", view.HEAD_DIMS, 16)
with c3:
    maxlen = ui.slider("lab_maxlen", 2, 64, 16)
with c4:
    causal = ui.toggle("lab_causal", False)
with st.expander(ui.t("lab.weights.title"), icon=":material/tune:"):
    st.markdown(ui.t("lab.weights"))

# ---------------------------------------------------------------- 2 · position ids and bugs
st.subheader(ui.t("lab.bugs"))
c1, c2, c3 = st.columns([1.2, 1.4, 1.4])
with c1:
    scheme = ui.select("lab_scheme", view.SCHEMES, "mask")
    dtype = ui.select("lab_dtype", view.LOWP_DTYPES, "bfloat16")
    offset = ui.select_slider("lab_offset", view.LOWP_OFFSETS, 8192)
not_rope = method != "rope"
with c2:
    on = {k: ui.toggle(k, False) for k in ("lab_nopos", "lab_unmasked")}
    on.update({k: ui.toggle(k, False, disabled=not_rope) for k in ("lab_qonly", "lab_rotv")})
with c3:
    on.update({k: ui.toggle(k, False, disabled=not_rope) for k in ("lab_hidden", "lab_layoutbug", "lab_lowp")})
st.caption(ui.t("lab.bugs.rope_only"))
bugs = tuple(view.BUG_KEYS[k] for k, v in on.items() if v and view.applies(method, view.BUG_KEYS[k]))

settings = dict(padding_side=side, num_heads=heads, head_dim=head_dim, causal=causal, max_length=maxlen,
                lowp_dtype=dtype, lowp_offset=offset, names=(ui.t("w.lab_a"), ui.t("w.lab_b")))
names = (ui.t("lab.name.a"), ui.t("lab.name.b"))

with ui.guard():
    res = view.experiment(sent_a, sent_b, method=method, rope_layout=layout, scheme=scheme, bugs=bugs, **settings)
    st.metric(ui.t("lab.metric"), f"{res['max_error']:.2e}")
    st.markdown(f"**{ui.t('lab.verdict.' + res['verdict'])}**")
    with st.container(border=True):
        st.markdown(f"**{ui.t('lab.effects')}**")
        st.markdown(ui.t(f"lab.effect.{scheme}"))
        for bug in bugs:
            if bug == "low_precision":
                lowp = res["lowp"]
                stored = ui.t("lab.lowp.exact" if lowp["exact"] else "lab.lowp.collapse", **lowp)
                st.markdown(ui.t("lab.effect.low_precision", stored=stored, **lowp))
            else:
                st.markdown(ui.t(f"lab.effect.{bug}"))

    # ------------------------------------------------------------ 3 · correct vs chosen
    st.subheader(ui.t("lab.compare"))
    row = ui.radio("lab_row", (0, 1), 0)
    head = ui.radio("lab_head", tuple(range(heads)), 0)
    r = res["rows"][row]
    head = min(head, heads - 1)
    axes = {"x": ui.t("lab.fig.key"), "y": ui.t("lab.fig.query")}
    c1, c2, c3 = st.columns(3)
    with c1:
        ui.plot(figs.attention_map, r["correct"][head], r["tokens"], zmax=r["top"][head], key="lab_attn",
                labels={**axes, "title": ui.t("lab.fig.correct"), "colorbar": ui.t("lab.fig.prob")})
    with c2:
        ui.plot(figs.attention_map, r["chosen"][head], r["tokens"], zmax=r["top"][head], key="lab_attn_chosen",
                labels={**axes, "title": ui.t("lab.fig.chosen"), "colorbar": ui.t("lab.fig.prob")})
    with c3:
        ui.plot(figs.attention_difference, r["correct"][head], r["chosen"][head], r["tokens"], key="lab_attn_diff",
                labels={**axes, "title": ui.t("lab.fig.diff"), "colorbar": ui.t("lab.fig.delta")})
    st.caption(ui.t("lab.compare.note"))
    ui.explain(toy_model.forward, toy_model.compare, note=ui.t("lab.explain.note"))

    ui.plot(figs.error_bars, res["errors"], res["real_tokens"], harmless=view.HARMLESS, harmful=view.HARMFUL,
            labels={"title": ui.t("lab.err.title"), "y": ui.t("lab.err.y"), "name.0": names[0], "name.1": names[1],
                    "harmless": ui.t("lab.err.harmless", v=view.HARMLESS),
                    "harmful": ui.t("lab.err.harmful", v=view.HARMFUL)}, key="lab_err")

    # ------------------------------------------------------------ 4 · the three tensors
    st.subheader(ui.t("lab.tensors"))
    st.caption(ui.t("lab.tensors.note") + "\n\n" + ui.t("lab.pads.loss"))
    with ui.more("lab_tensors") as box:
        if box.open:
            correct, chosen = view.tensors(res, names=names,
                                           labels=tuple(ui.t(f"lab.t.{k}") for k in ("token", "id", "mask", "pos")))
            c1, c2 = st.columns(2)
            with c1:
                st.markdown(f"**{ui.t('lab.tensors.correct')}**")
                ui.table(correct)
            with c2:
                st.markdown(f"**{ui.t('lab.tensors.chosen')}**")
                ui.table(chosen)
            ui.explain(position_ids.position_ids_from_mask, position_ids.make_position_ids)

# ---------------------------------------------------------------- 5 · summary matrix
st.subheader(ui.t("lab.summary"))
with ui.guard():
    summary = view.summary(sent_a, sent_b, **settings)
    selected = view.selected_cells(method, layout, scheme, bugs)
    rows = [ui.t(f"lab.row.{m}.{lay}") if m == "rope" else ui.t(f"lab.row.{m}") for m, lay in view.SUMMARY_ROWS]
    cells = {"na": ui.t("lab.summary.na"), "oor": ui.t("lab.summary.oor")}
    for col, part, suffix in zip(st.columns([5, 7]), ("schemes", "bugs"), ("", "_bugs")):
        with col:
            ui.plot(figs.summary_heatmap, summary[part]["err"], summary[part]["status"], rows,
                    [ui.t(f"lab.col.{b or s}") for s, b in summary[part]["cols"]], selected=selected[part],
                    labels={**cells, "title": ui.t(f"lab.summary.title.{part}")}, key=f"lab_summary{suffix}")
    st.caption(ui.t("lab.summary.note"))
    ui.explain(toy_model.summary_matrix, note=ui.t("lab.summary.explain"))

# ---------------------------------------------------------------- 6 · packing and concatenation
st.subheader(ui.t("lab.pack"))
st.markdown(ui.t("lab.pack.md"))
pack = ui.toggle("lab_pack", False)
pack_off = ui.slider("lab_pack_off", 0, view.PACK_MAX_OFFSET, 100, disabled=not pack)
if pack:
    with ui.guard():
        packed = view.packed(sent_a, sent_b, pack_off, settings["names"])
        st.caption(ui.t("lab.pack.off", o=pack_off))
        ui.table(view.packed_rows(packed, names=names, row_labels={
            k: ui.t(f"lab.pack.col.{k}") for k in ("token", "segment") + view.PACK_CONTRACTS}))
        ui.explain(position_ids.packed_position_ids)
