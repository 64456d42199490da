"""The toy attention lab: a batch of two sentences, position-id schemes and every bug of §13 as a switch; RoPE's
angles in low precision along the whole context.

The page's sections after the controls, in the order the user sees them, then the script that draws the
controls and runs them."""
import streamlit as st

from posviz import ui
from posviz.figures import lab as figs
from posviz.lab import angle_precision, loss, packing, toy_layer, toy_model
from posviz.pe import position_ids
from posviz.views import lab as view


def effects(res, scheme, bugs):
    """The error of the chosen setup against the correct one, and what each switched-on bug does."""
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


def compare(res, heads):
    """3 · the attention of one row and head, correct against chosen, and the error of every token -> the head
    shown (the packed row's maps show it too)."""
    st.subheader(ui.t("lab.compare"))
    row = ui.radio("lab_row", (0, 1), 0)
    head = min(ui.radio("lab_head", tuple(range(heads)), 0), heads - 1)
    r = res["rows"][row]
    c = st.columns(3)
    with c[0]:
        ui.plot(figs.attention_map, r["correct"][head], r["tokens"], zmax=r["top"][head], key="lab_attn",
                labels=ui.labels(x="lab.fig.key", y="lab.fig.query", title="lab.fig.correct", colorbar="lab.fig.prob"))
    with c[1]:
        ui.plot(figs.attention_map, r["chosen"][head], r["tokens"], zmax=r["top"][head], key="lab_attn_chosen",
                labels=ui.labels(x="lab.fig.key", y="lab.fig.query", title="lab.fig.chosen", colorbar="lab.fig.prob"))
    with c[2]:
        ui.plot(figs.attention_difference, r["correct"][head], r["chosen"][head], r["tokens"], key="lab_attn_diff",
                labels=ui.labels(x="lab.fig.key", y="lab.fig.query", title="lab.fig.diff", colorbar="lab.fig.delta"))
    st.caption(ui.t("lab.compare.note"))
    ui.explain(toy_model.forward, toy_layer.embed_inputs, toy_layer.project, toy_layer.position_bias,
               toy_layer.key_mask, toy_layer.attend, toy_model.compare, note=ui.t("lab.explain.note"))
    ui.plot(figs.error_bars, res["errors"], res["real_tokens"], harmless=view.HARMLESS, harmful=view.HARMFUL,
            labels=ui.labels("lab.err", "title", "y", harmless=("lab.err.harmless", {"v": view.HARMLESS}),
                             harmful=("lab.err.harmful", {"v": view.HARMFUL}),
                             **{"name.0": "lab.name.a", "name.1": "lab.name.b"}), key="lab_err")
    return head


def tensors(res, names):
    """4 · the three tensors the model was given, correct and chosen (a deep dive: runs only when open)."""
    st.subheader(ui.t("lab.tensors"))
    st.caption(ui.t("lab.tensors.note") + "\n\n" + ui.t("lab.pads.loss"))
    with ui.more("lab_tensors") as box:
        if box.open:
            correct, chosen = view.tensors(res, names=names,
                                           labels=tuple(ui.t(f"lab.t.{k}") for k in ("token", "id", "mask", "pos")))
            c = st.columns(2)
            with c[0]:
                st.markdown(f"**{ui.t('lab.tensors.correct')}**")
                ui.table(correct)
            with c[1]:
                st.markdown(f"**{ui.t('lab.tensors.chosen')}**")
                ui.table(chosen)
            ui.explain(position_ids.position_ids_from_mask, position_ids.make_position_ids)


def summary_body(sent_a, sent_b, settings, method, layout, scheme, bugs):
    """5 · every scheme and bug at once on this batch, the chosen cells marked (a deep dive: its 7 x 12 runs
    happen only when open)."""
    table = view.summary(sent_a, sent_b, **settings)
    selected = view.selected_cells(method, layout, scheme, bugs)
    rows = [ui.t(k) for k in view.ROW_NAMES]
    for col, part, suffix in zip(ui.panels([5, 7]), ("schemes", "bugs"), ("", "_bugs")):
        with col:
            ui.plot(figs.summary_heatmap, table[part]["err"], table[part]["status"], rows,
                    [ui.t(f"lab.col.{b or s}") for s, b in table[part]["cols"]], selected=selected[part],
                    labels=ui.labels("lab.summary", "na", "oor", title=f"lab.summary.title.{part}"),
                    key=f"lab_summary{suffix}")
    st.caption(ui.t("lab.summary.note"))
    ui.explain(toy_model.summary_matrix, note=ui.t("lab.summary.explain"))


def pack_results(run, table, method, layout, head, rows_m):
    """6 · what the packed row computes: its verdict, attention against each document alone, the error per
    token, and every method under every packing setup."""
    if run["status"] != "ok":
        st.warning(ui.t("lab.pack.oor", hi=run["hi"], m=rows_m))
    else:
        st.metric(ui.t("lab.pack.metric"), f"{run['max_error']:.2e}")
        st.markdown(f"**{ui.t('lab.verdict.' + run['verdict'])}**")
        c = st.columns(3)
        maps = ((figs.attention_map, (run["correct"][head],), "lab_pack_attn", "lab.pack.fig.correct", "lab.fig.prob"),
                (figs.attention_map, (run["chosen"][head],), "lab_pack_attn_chosen", "lab.pack.fig.chosen",
                 "lab.fig.prob"),
                (figs.attention_difference, (run["correct"][head], run["chosen"][head]), "lab_pack_diff",
                 "lab.fig.diff", "lab.fig.delta"))
        for col, (builder, z, key, title, bar) in zip(c, maps):
            with col:
                extra = {"zmax": run["top"][head]} if builder is figs.attention_map else {}
                ui.plot(builder, *z, run["tokens"], key=key, **extra,
                        labels=ui.labels(x="lab.fig.key", y="lab.fig.query", title=title, colorbar=bar))
        st.caption(ui.t("lab.pack.maps.note"))
        ui.plot(figs.error_bars, run["errors"], run["doc_tokens"], harmless=view.HARMLESS, harmful=view.HARMFUL,
                labels=ui.labels("lab.err", "y", title="lab.pack.err.title",
                                 harmless=("lab.err.harmless", {"v": view.HARMLESS}),
                                 harmful=("lab.err.harmful", {"v": view.HARMFUL}),
                                 **{"name.0": "lab.name.a", "name.1": "lab.name.b"}), key="lab_pack_err")
        ui.explain(packing.pack_experiment, packing.block_causal_mask, packing.sharded_forward,
                   packing.context_parallel_ids)
    with ui.more("lab_pack_all") as box:   # every method x setup: a deep dive (49 packed runs when a size moves)
        if box.open:
            row = view.SUMMARY_ROWS.index((method, layout if method == "rope" else "interleaved"))
            rows = [ui.t(k) for k in view.ROW_NAMES]
            tab = view.pack_table(**table)
            ui.plot(figs.summary_heatmap, tab["err"], tab["status"], rows,
                    [ui.t(f"lab.pack.setup.{j}") for j in range(len(view.PACK_SETUPS))],
                    selected=None if run["setup"] is None else (row, run["setup"]), key="lab_pack_summary",
                    labels=ui.labels("lab.summary", "na", "oor", title="lab.pack.summary.title"))
            st.caption(ui.t("lab.pack.summary.note"))
            ui.explain(packing.pack_summary)


def pack_section(sent_a, sent_b, settings, method, layout, names, head):
    """6 · the two sentences packed into one row: position ids, the mask that must match them, and ranks."""
    st.subheader(ui.t("lab.pack"))
    st.markdown(ui.t("lab.pack.md"))
    pack = ui.toggle("lab_pack", False)
    pack_off = ui.slider("lab_pack_off", 0, view.PACK_MAX_OFFSET, 100, disabled=not pack)
    if not pack:
        return
    st.markdown(ui.t("lab.pack.live"))
    c = st.columns([1.3, 1.2, 1.5])
    ids = ui.select("lab_pack_ids", view.PACK_IDS, "reset", col=c[0])
    mask = ui.radio("lab_pack_mask", view.PACK_MASKS, "block", col=c[1])
    ranks = ui.select_slider("lab_pack_ranks", view.PACK_RANKS, 1, col=c[2])
    restart = ui.toggle("lab_pack_restart", False, disabled=ranks == 1, col=c[2])
    model = {k: settings[k] for k in ("num_heads", "head_dim", "max_length", "names")}
    with ui.guard():
        packed = view.packed(sent_a, sent_b, pack_off, settings["names"])
        run = view.pack_run(sent_a, sent_b, method=method, rope_layout=layout, ids=ids, mask=mask, ranks=ranks,
                            restart=restart, source_offset=pack_off, **model)
        st.caption(ui.t("lab.pack.off", o=pack_off))
        ui.table(view.packed_rows(packed, names=names, run=run, row_labels=ui.labels(
            "lab.pack.col", "token", "segment", "fed", "rank", *view.PACK_CONTRACTS)))
        ui.explain(position_ids.packed_position_ids, packing.pack_position_ids, position_ids.cu_seqlens)
        st.markdown("\n\n".join(ui.t(k) for k in (f"lab.pack.ids.{ids}", f"lab.pack.mask.{mask}")))
        if ranks > 1:
            st.markdown(ui.t("lab.pack.cp.restart" if restart else "lab.pack.cp.sliced", r=ranks))
        table = dict(sentence_a=sent_a, sentence_b=sent_b, source_offset=pack_off, **model)
        pack_results(run, table, method, layout, head, settings["max_length"])


@ui.section
def loss_section(sent_a, settings, method):
    """7 · pad labels in the loss: ignore_index or not, against the number of pads (a deep dive: runs only when
    open)."""
    st.subheader(ui.t("lab.loss"))
    st.caption(ui.t("lab.loss.teaser"))
    with ui.more("lab_pads") as box:
        if box.open:
            st.markdown(ui.t("lab.loss.md"))
            ignore = ui.toggle("lab_ignore", True)
            side = settings["padding_side"]
            with ui.guard():
                curve = view.pad_loss(sent_a, method=method, padding_side=side, num_heads=settings["num_heads"],
                                      head_dim=settings["head_dim"], name=settings["names"][0])
                said = view.pad_loss_said(curve, ignore)     # at view.SHOWN_PADS pads: the sentence, mark and table
                ui.plot(figs.pad_loss_figure, curve["pads"], curve["ignored"], curve["kept"], view.SHOWN_PADS,
                        key="lab_loss", labels=ui.labels("lab.fig.loss", "title", "x", "y", "ignored", "kept",
                                                         now=("lab.fig.loss.now", said["said"])))
                st.markdown(ui.t(said["say"], side=ui.t(f"lab.loss.side.{side}"), **said["said"]))
                row = view.pad_labels(sent_a, padding_side=side, ignore=ignore, name=settings["names"][0])
                ui.table({ui.t("lab.loss.col.token"): row["tokens"], ui.t("lab.loss.col.label"): row["labels"]},
                         static=True)
                ui.explain(loss.next_token_labels, loss.next_token_loss)


def angles_section(dtype, head_dim, offset):
    """8 · RoPE's angles computed in the low-precision dtype, along positions 0..offset, against float32 and
    against float32 angles whose cos and sin are stored low (a deep dive: runs only when open)."""
    st.subheader(ui.t("lab.angles.title"))
    st.caption(ui.t("lab.angles.teaser"))
    with ui.more("lab_angles") as box:
        if box.open:
            st.markdown(ui.t("lab.angles.md"))
            with ui.guard():
                an = view.angles(dtype, head_dim, offset)
                ui.plot(figs.phase_error_figure, an["x"], an["lines"], key="lab_angles_fig",
                        labels=ui.labels("lab.angles", "x", "y", "pi", *view.ANGLE_NAMES,
                                         title=("lab.angles.fig", an["said"])))
                st.markdown(ui.t(an["say"], **an["said"]))
                ui.explain(angle_precision.rope_phase_error, angle_precision.phase_error_envelope)
                st.markdown(ui.t("lab.angles.stacks"))


ui.header("lab")

# ---------------------------------------------------------------- 1 · batch and model
st.subheader(ui.t("lab.setup"))
c = st.columns(2)
sent_a = ui.text_input("lab_a", ui.t("lab.default_a"), max_chars=view.MAX_CHARS, col=c[0])
sent_b = ui.text_input("lab_b", ui.t("lab.default_b"), max_chars=view.MAX_CHARS, col=c[1])
c = st.columns([1, 1.2, 1])
side = ui.radio("lab_side", ("left", "right"), "left", col=c[0])
method = ui.select("lab_method", view.POSITION_METHODS, "rope", col=c[1])
layout = ui.radio("lab_layout", view.ROPE_LAYOUTS, "interleaved", disabled=method != "rope", col=c[2])
c = st.columns(4, vertical_alignment="center")
heads = ui.slider("lab_heads", 1, 4, 2, col=c[0])
head_dim = ui.select_slider("lab_dim", view.HEAD_DIMS, 16, col=c[1])
maxlen = ui.slider("lab_maxlen", 2, 64, 16, col=c[2])
causal = ui.toggle("lab_causal", False, col=c[3])
with st.expander(ui.t("lab.weights.title"), icon=":material/tune:"):
    st.markdown(ui.t("lab.weights"))

# ---------------------------------------------------------------- 2 · position ids and bugs
st.subheader(ui.t("lab.bugs"))
c = st.columns([1.2, 1.4, 1.4])
scheme = ui.select("lab_scheme", view.SCHEMES, "mask", col=c[0])
dtype = ui.select("lab_dtype", view.LOWP_DTYPES, "bfloat16", col=c[0])
offset = ui.select_slider("lab_offset", view.LOWP_OFFSETS, view.LOWP_DEFAULTS["lowp_offset"], col=c[0])
not_rope = method != "rope"
on = {k: ui.toggle(k, False, col=c[1]) for k in ("lab_nopos", "lab_unmasked")}
on |= {k: ui.toggle(k, False, disabled=not_rope, col=c[1]) for k in ("lab_qonly", "lab_rotv")}
on |= {k: ui.toggle(k, False, disabled=not_rope, col=c[2]) for k in ("lab_hidden", "lab_layoutbug", "lab_lowp")}
st.caption(ui.t("lab.bugs.rope_only"))
bugs = tuple(view.BUG_KEYS[k] for k, v in on.items() if v and view.applies(method, view.BUG_KEYS[k]))

names = (ui.t("lab.name.a"), ui.t("lab.name.b"))         # the two rows, in the tables
settings = dict(padding_side=side, num_heads=heads, head_dim=head_dim, causal=causal, max_length=maxlen,
                lowp_dtype=dtype, lowp_offset=offset, names=(ui.t("w.lab_a"), ui.t("w.lab_b")))   # in errors
head = 0
with ui.guard():
    res = view.experiment(sent_a, sent_b, method=method, rope_layout=layout, scheme=scheme, bugs=bugs, **settings)
    effects(res, scheme, bugs)
    head = compare(res, heads)
    tensors(res, names)
ui.deep_dive("lab_matrix", "lab.summary", summary_body, sent_a, sent_b, settings, method, layout, scheme, bugs,
             title="lab.summary")
pack_section(sent_a, sent_b, settings, method, layout, names, head)
loss_section(sent_a, settings, method)
angles_section(dtype, head_dim, offset)
