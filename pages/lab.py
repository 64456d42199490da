import streamlit as st

from posviz import ui
from posviz.lab import toy_model as attention
from posviz.pe import position_ids as positions
from posviz.lab import tokens
from posviz.figures import lab as figs

ui.header("lab")

BUG_KEYS = {"lab_nopos": "no_position", "lab_qonly": "rotate_q_only", "lab_rotv": "rotate_v",
            "lab_hidden": "rope_on_hidden", "lab_unmasked": "pads_unmasked",
            "lab_layoutbug": "layout_mismatch", "lab_lowp": "low_precision"}
run = ui.cache(attention.lab_run)
summary = ui.cache(attention.summary_matrix)
f32_error = ui.cache(attention.lowp_float32_error)
PACK_MAX_OFFSET = 4096


@ui.cache
def packed(a, b, offset):
    """Tokens of A + B in one row, their segment and position ids under every contract."""
    toks = [tokens.tokenize(a, name="lab_a"), tokens.tokenize(b, name="lab_b")]
    lengths = [len(t) for t in toks]
    ids = {c: positions.packed_position_ids(lengths, c, source_offsets=[0, offset]).tolist()
           for c in positions.PACK_CONTRACTS}
    return toks[0] + toks[1], positions.packed_segment_ids(lengths).tolist(), ids


def verdict(err):
    if err < attention.HARMLESS:
        return ui.t("lab.verdict.harmless")
    return ui.t("lab.verdict.harmful") if err > attention.HARMFUL else ui.t("lab.verdict.small")


# ---------------------------------------------------------------- 1 · batch and model
st.subheader(ui.t("lab.setup"))
c1, c2 = st.columns(2)
with c1:
    sent_a = ui.text_input("lab_a", ui.t("lab.default_a"), max_chars=tokens.MAX_CHARS)
with c2:
    sent_b = ui.text_input("lab_b", ui.t("lab.default_b"), max_chars=tokens.MAX_CHARS)
c1, c2, c3 = st.columns([1, 1.2, 1])
with c1:
    side = ui.radio("lab_side", ("left", "right"), "left")
with c2:
    method = ui.select("lab_method", attention.METHODS, "rope")
with c3:
    layout = ui.radio("lab_layout", attention.ROPE_LAYOUTS, "interleaved", disabled=method != "rope")
c1, c2, c3, c4 = st.columns(4, vertical_alignment="center")
with c1:
    heads = ui.slider("lab_heads", 1, 4, 2)
with c2:
    head_dim = ui.select_slider("lab_dim", (8, 16, 32, 64), 16)
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
    scheme = ui.select("lab_scheme", positions.SCHEMES, "mask")
    dtype = ui.select("lab_dtype", tuple(attention.LOWP_DTYPES), "bfloat16")
    offset = ui.select_slider("lab_offset", attention.LOWP_OFFSETS, 8192)
not_rope = method != "rope"
with c2:
    on = {k: ui.toggle(k, False) for k in ("lab_nopos", "lab_unmasked")}
    on.update({k: ui.toggle(k, False, disabled=not_rope) for k in ("lab_qonly", "lab_rotv")})
with c3:
    on.update({k: ui.toggle(k, False, disabled=not_rope) for k in ("lab_hidden", "lab_layoutbug", "lab_lowp")})
st.caption(ui.t("lab.bugs.rope_only"))
bugs = tuple(BUG_KEYS[k] for k, v in on.items() if v and attention.applies(method, BUG_KEYS[k]))

settings = dict(padding_side=side, num_heads=heads, head_dim=head_dim, causal=causal, max_length=maxlen,
                lowp_dtype=dtype, lowp_offset=offset)
names = (ui.t("lab.name.a"), ui.t("lab.name.b"))

with ui.guard():
    res = run(sent_a, sent_b, method=method, rope_layout=layout, scheme=scheme, bugs=bugs, **settings)
    m1, m2 = st.columns([1, 3])
    m1.metric(ui.t("lab.metric"), f"{res['max_error']:.2e}")
    m2.markdown(f"**{verdict(res['max_error'])}**")
    with st.container(border=True):
        st.markdown(f"**{ui.t('lab.effects')}**")
        st.markdown(ui.t(f"lab.effect.{scheme}"))
        for bug in bugs:
            if bug == "low_precision":
                f32 = f32_error(sent_a, sent_b, padding_side=side, method_layout=layout, num_heads=heads,
                                head_dim=head_dim, causal=causal, lowp_offset=offset)
                st.markdown(ui.t("lab.effect.low_precision", f32=f32))
            else:
                st.markdown(ui.t(f"lab.effect.{bug}"))

    # ------------------------------------------------------------ 3 · correct vs chosen
    st.subheader(ui.t("lab.compare"))
    c1, c2 = st.columns([1, 3])
    with c1:
        row = ui.radio("lab_row", (0, 1), 0)
    with c2:
        head = ui.radio("lab_head", tuple(range(heads)), 0)
    head = min(head, heads - 1)
    r = res["rows"][row]
    fig = figs.attention_compare(
        r["correct"][head], r["chosen"][head], r["tokens"],
        titles=(ui.t("lab.fig.correct"), ui.t("lab.fig.chosen"), ui.t("lab.fig.diff")),
        x_title=ui.t("lab.fig.key"), y_title=ui.t("lab.fig.query"),
        prob_title=ui.t("lab.fig.prob"), diff_title=ui.t("lab.fig.delta"))
    ui.plot(fig, key="lab_attn")
    st.caption(ui.t("lab.compare.note"))
    ui.explain([r"A_h=\operatorname{softmax}\!\Big(\frac{(R(p)Q_h)(R(p)K_h)^\top}{\sqrt d}+B_h+M\Big),\quad "
                r"M_{ij}=\begin{cases}0 & \text{valid}_j\ (\wedge\ j\le i)\\ -10^9 & \text{else}\end{cases}",
                r"\text{correct}_r=\text{Attn}(\text{sentence}_r\text{ alone},\ p=0..n_r-1)"],
               attention.forward, attention.compare, note=ui.t("lab.explain.note"))

    fig = figs.error_bars([x["error"] for x in res["rows"]],
                          [[x["tokens"][i] for i in x["real"]] for x in res["rows"]], names,
                          title=ui.t("lab.err.title"), y_title=ui.t("lab.err.y"),
                          harmless_label=ui.t("lab.err.harmless"), harmful_label=ui.t("lab.err.harmful"))
    ui.plot(fig, key="lab_err")
    ui.explain(r"\text{err}_{r,t}=\max_c\,\big|O^{\text{chosen}}_{r,t,c}-O^{\text{alone}}_{r,t,c}\big|",
               attention.compare)

    # ------------------------------------------------------------ 4 · the three tensors
    st.subheader(ui.t("lab.tensors"))
    st.caption(ui.t("lab.tensors.note"))
    st.caption(ui.t("lab.pads.loss"))
    labels = (ui.t("lab.t.token"), ui.t("lab.t.id"), ui.t("lab.t.mask"), ui.t("lab.t.pos"))
    rows = res["rows"]
    c1, c2 = st.columns(2)
    with c1:
        st.markdown(f"**{ui.t('lab.tensors.correct')}**")
        st.dataframe(figs.tensor_rows([[x["tokens"][i] for i in x["real"]] for x in rows],
                                      [x["ids_correct"] for x in rows], [[1] * len(x["real"]) for x in rows],
                                      [x["pos_correct"] for x in rows], names=names, labels=labels),
                     hide_index=True)
    with c2:
        st.markdown(f"**{ui.t('lab.tensors.chosen')}**")
        st.dataframe(figs.tensor_rows([x["tokens"] for x in rows], [x["ids"] for x in rows],
                                      [x["mask"] for x in rows], [x["pos"] for x in rows],
                                      names=names, labels=labels), hide_index=True)
    ui.explain(r"\text{position\_ids}=\max\big(\operatorname{cumsum}(\text{mask})-1,\ 0\big)",
               positions.position_ids_from_mask, positions.make_position_ids)

# ---------------------------------------------------------------- 5 · summary matrix
st.subheader(ui.t("lab.summary"))
with ui.guard():
    err, status = summary(sent_a, sent_b, **settings)
    row_labels = [ui.t(f"lab.row.{m}.{lay}") if m == "rope" else ui.t(f"lab.row.{m}")
                  for m, lay in attention.SUMMARY_ROWS]
    col_labels = [ui.t(f"lab.col.{b or s}") for s, b in attention.SUMMARY_COLS]
    sel_row = attention.SUMMARY_ROWS.index((method, layout if method == "rope" else "interleaved"))
    chosen_cols = [scheme] if scheme != "mask" else []
    chosen_cols += list(bugs)
    if len(chosen_cols) <= 1:
        key = (scheme, bugs[0] if bugs else None) if scheme == "mask" else (scheme, None)
        selected = (sel_row, attention.SUMMARY_COLS.index(key)) if key in attention.SUMMARY_COLS else None
    else:
        selected = None
    fig = figs.summary_heatmap(err, status, row_labels, col_labels, title=ui.t("lab.summary.title"),
                               na_label=ui.t("lab.summary.na"), oor_label=ui.t("lab.summary.oor"),
                               colorbar_title=ui.t("lab.summary.cbar"), selected=selected)
    ui.plot(fig, key="lab_summary")
    st.caption(ui.t("lab.summary.note"))
    ui.explain(r"\text{cell}(\text{method},\text{setup})="
               r"\max_{r,t,c}\big|O^{\text{setup}}_{r,t,c}-O^{\text{alone}}_{r,t,c}\big|",
               attention.summary_matrix, note=ui.t("lab.summary.explain"))

# ---------------------------------------------------------------- 6 · packing and concatenation
st.subheader(ui.t("lab.pack"))
st.markdown(ui.t("lab.pack.md"))
c1, c2 = st.columns(2)
with c1:
    pack = ui.toggle("lab_pack", False)
with c2:
    pack_off = ui.slider("lab_pack_off", 0, PACK_MAX_OFFSET, 100, disabled=not pack)
if pack:
    with ui.guard():
        toks, seg, ids = packed(sent_a, sent_b, pack_off)
        st.caption(ui.t("lab.pack.off", o=pack_off))
        cols = [(ui.t("lab.pack.col.token"), toks), (ui.t("lab.pack.col.segment"), [names[k] for k in seg])]
        cols += [(ui.t(f"lab.pack.col.{c}"), ids[c]) for c in positions.PACK_CONTRACTS]
        st.dataframe([{"": label, **{str(t): str(v) for t, v in enumerate(vals)}} for label, vals in cols],
                     hide_index=True)
        ui.explain([r"\text{global: } p=t,\quad \text{reset: } p=t-t_k,\quad \text{source: } p=o_k+(t-t_k)"],
                   positions.packed_position_ids)
