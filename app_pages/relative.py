"""Relative positions: distance matrix, Shaw clipping, T5 buckets, ALiBi, causal mask / NoPE; the rest of the family
(Transformer-XL, DeBERTa, FIRE and KERPLE, xPos, CoPE), each a deep dive.

The page's sections, in the order the user sees them (each returns what the side-by-side panels reuse,
None where its input was refused), then the script that draws the controls and runs them."""
import streamlit as st

from posviz import ui
from posviz.figures import relative as figs
from posviz.pe import cope, deberta, fire, transformer_xl, xpos
from posviz.pe import relative as rel
from posviz.views import relative as view

AX = {"x": "relative.ax.key", "y": "relative.ax.query"}   # text keys of the axes every matrix shares


def section(name):
    st.header(ui.t(f"relative.h.{name}"))
    st.markdown(ui.t(f"relative.{name}.md"))


def distance(L, S, shift, past, txt):
    pos = None
    with ui.guard():
        pos = view.positions(L, S, shift)
        qpos = pos["query_pos"]
        st.caption(ui.t("relative.decode.rect" if past else "relative.decode.square", L=L, S=S, first=qpos[0],
                        last=qpos[-1], L_1=pos["naive_last"]))
        if shift:
            st.caption(ui.t("relative.shift.note", shift=shift, first=shift))
        ui.plot(figs.matrix, pos["distance"], qpos, pos["key_pos"], text_cols=32, text_size=txt,
                max_cells=figs.FULL_CELLS, key="rel_fig_distance",
                labels=ui.labels(**AX, title="relative.fig.distance", colorbar="relative.cb.distance"))
        ui.explain(rel.relative_distance, rel.distance_from_positions, rel.shifted_positions)
    return pos


def shaw(L, S, qpos, kpos, txt):
    k = ui.slider("rel_k", 0, 64, 3)
    sh = None
    with ui.guard():
        sh = view.shaw(L, S, k)
        c = st.columns(3)
        c[0].metric(ui.t("relative.m.rows"), sh["summary"]["rows"])
        c[1].metric(ui.t("relative.m.clipped"), sh["clipped_text"])
        c[2].metric(ui.t("relative.m.distinct"), sh["summary"]["distinct"])
        c = st.columns(2)
        with c[0]:
            ui.plot(figs.matrix, sh["index"], qpos, kpos, scale="sequential", zmin=0, zmax=sh["index_max"],
                    text_size=txt, key="rel_fig_shaw",
                    labels=ui.labels(**AX, title="relative.fig.shaw.index", colorbar="relative.cb.index"))
        with c[1]:
            ui.plot(figs.matrix, sh["lost"], qpos, kpos, scale="oranges", zmin=0, zmax=sh["lost_max"],
                    text_size=txt, key="rel_fig_shaw_lost",
                    labels=ui.labels(**AX, title="relative.fig.shaw.lost", colorbar="relative.cb.lost"))
        ui.explain(rel.shaw_relative_index, rel.shaw_lost_distance)
    return sh, k


def t5_buckets(L, S, qpos, kpos, txt):
    c = st.columns(3)
    bidir = ui.toggle("rel_t5_bidir", True, col=c[0])
    nb = ui.slider("rel_t5_nb", 4, 128, 32, 2, col=c[1])
    md = ui.slider("rel_t5_md", 2, 1024, 128, col=c[2])
    t5 = None
    with ui.guard():
        t5 = view.t5(L, S, bidir, nb, md)
        c = st.columns(3)
        c[0].metric(ui.t("relative.m.exact"), t5["max_exact"])
        c[1].metric(ui.t("relative.m.last"), t5["last_start"])
        c[2].metric(ui.t("relative.m.empty"), t5["empty"])
        c = st.columns(2)
        with c[0]:
            ui.plot(figs.matrix, t5["buckets"], qpos, kpos, scale="sequential", zmin=0, zmax=t5["top"],
                    text_size=txt, key="rel_fig_t5_matrix",
                    labels=ui.labels(**AX, title="relative.fig.t5.matrix", colorbar="relative.cb.bucket"))
        with c[1]:
            ui.plot(figs.t5_step, t5["curve_d"], t5["curve_b"], max_exact=t5["max_exact"], max_distance=md,
                    bidirectional=bidir, key="rel_fig_t5_step",
                    labels=ui.labels(title="relative.fig.t5.step", x="relative.ax.distance", y="relative.ax.bucket",
                                     trace="relative.ax.bucket", exact="relative.t5.exact", log="relative.t5.log",
                                     max=("relative.t5.max", {"md": md})))
        ui.explain(rel.t5_relative_position_bucket, rel.t5_bucket_matrix, rel.t5_bucket_ranges,
                   note=ui.t("relative.t5.empty_note"))
        st.caption(ui.t("relative.t5.table"))
        th = ui.labels("relative.t5tab", "bucket", "range", "count", "region", "side", "empty")
        ui.table([{th["bucket"]: r["bucket"], th["range"]: r["span"] or th["empty"], th["count"]: r["count"],
                   th["region"]: ui.t(f"relative.t5tab.{r['region']}"),
                   th["side"]: ui.t(f"relative.t5tab.{r['side']}")} for r in t5["rows"]], height=280)
    return t5


def alibi(L, S, qpos, kpos):
    c = st.columns(2)
    H = ui.slider("rel_heads", 1, 128, 8, col=c[0])
    head_asked = ui.slider("rel_head", 1, 128, 1, col=c[1])
    al = None
    with ui.guard():
        al = view.alibi(H, head_asked, L, S)
        h, order = al["head"], al["order"]
        if h != head_asked:
            st.caption(ui.t("relative.alibi.clamped", asked=head_asked, H=H, h=h))
        c = st.columns(2)
        with c[0]:
            ui.plot(figs.slope_bars, al["slopes"], n_base=al["n_base"], selected=h, key="rel_fig_alibi_slopes",
                    labels=ui.labels(title="relative.fig.alibi.slopes", x="relative.ax.head", y="relative.ax.slope",
                                     base=("relative.alibi.base", {"n": al["n_base"]}),
                                     fill=("relative.alibi.fill", {"n2": al["n_fill"]})))
        with c[1]:
            ui.plot(figs.matrix, al["bias"], qpos, kpos, key="rel_fig_alibi_bias",
                    labels=ui.labels(**AX, title=("relative.fig.alibi.bias", {"h": h, "m": al["slope"]}),
                                     colorbar="relative.cb.bias"))
        st.info(ui.t("relative.alibi.sorted" if order["sorted"] else "relative.alibi.mixed", **order) + " "
                + ui.t("relative.alibi.rank", h=h, m_h=al["slope"], steeper=al["steeper"], H=H))
        ui.explain(rel.alibi_slopes, rel.alibi_head_bias)
    return al


def mask(L, S, qpos, kpos):
    with ui.guard():
        mk = view.mask(L, S)
        c = st.columns(2)
        with c[0]:
            ui.plot(figs.matrix, mk["mask"], qpos, kpos, scale="mask", zmin=0, zmax=1, showscale=False, text_cols=0,
                    labels=ui.labels(**AX, title="relative.fig.mask.mask"), key="rel_fig_mask")
        with c[1]:
            ui.plot(figs.weight_line, qpos, mk["weight"], key="rel_fig_mask_weight",
                    labels=ui.labels(title="relative.fig.mask.uniform", x=AX["y"], y="relative.ax.weight",
                                     trace="relative.mask.weight"))
        ui.explain(rel.causal_mask, rel.nope_uniform_attention)


def side_by_side(pos, sh, k, t5, al):
    """The four panels above again, on one scale (a deep dive: closed, its body does not run)."""
    with ui.more("rel_side") as box:
        if box.open and None not in (pos, sh, t5, al):
            tokens, h = "relative.cb.tokens", al["head"]
            panels = [("rel_fig_side", pos["distance"], "relative.fig.side.distance", tokens, pos["zrange"]),
                      ("rel_fig_side_shaw", sh["clipped"], ("relative.fig.side.shaw", {"k": k}), tokens, pos["zrange"]),
                      ("rel_fig_side_t5", t5["representative"], "relative.fig.side.t5", tokens, pos["zrange"]),
                      ("rel_fig_side_alibi", al["bias"], ("relative.fig.side.alibi", {"h": h}), "relative.cb.logits",
                       al["bias_range"])]
            grid = [*st.columns(2), *st.columns(2)]               # 2 x 2 on a wide screen, stacked on a phone
            for cell, (key, z, title, colorbar, (zmin, zmax)) in zip(grid, panels):
                with cell:
                    ui.plot(figs.matrix, z, pos["query_pos"], pos["key_pos"], zmin=zmin, zmax=zmax, text_cols=0,
                            key=key, labels=ui.labels(**AX, title=title, colorbar=colorbar))
            ui.explain(rel.relative_distance, rel.shaw_clipped_distance, rel.t5_representative_distance,
                       rel.alibi_head_bias)


def xl_body(L, past):
    """8 · Transformer-XL: the score of the terms kept (drop any of the four), then the relative shift."""
    keep = ui.multiselect("rel_xl_terms", view.XL_TERMS, view.XL_TERMS)
    xl = view.transformer_xl_view(L, past, keep)
    ui.plot(figs.matrix, xl["score"], xl["query_pos"], xl["key_pos"], text_cols=0, key="rel_fig_xl_score",
            **xl["score_z"], labels=ui.labels("relative.xl", "title", "colorbar", **AX))
    ui.explain(transformer_xl.xl_relative_encoding, transformer_xl.xl_terms, transformer_xl.xl_score)
    st.subheader(ui.t("relative.xl.shift.title"))
    for cell, name in zip(st.columns(2), ("raw", "shifted")):
        with cell:
            ui.plot(figs.matrix, xl[name], xl["query_pos"], xl["key_pos"], text_cols=0, key=f"rel_fig_xl_{name}",
                    **xl["shift_z"], labels=ui.labels(x=f"relative.ax.xl_{name}", y=AX["y"],
                                                      title=f"relative.fig.xl.{name}", colorbar="relative.cb.score"))
    st.markdown(ui.t("relative.xl.costs", **xl["said"]))
    ui.explain(transformer_xl.rel_shift, transformer_xl.xl_position_scores, transformer_xl.rel_shift_costs)


def deberta_body(L):
    """9 · DeBERTa: the log buckets of the relative position, and the three terms of the score."""
    c = st.columns(2)
    k = ui.select_slider("rel_deb_k", view.DEBERTA_BUCKETS, 16, col=c[0])
    top = ui.select_slider("rel_deb_max", view.DEBERTA_MAX_POSITIONS, 64, col=c[1])
    db = view.deberta_view(L, k, top)
    ui.plot(figs.t5_step, db["curve_d"], db["curve_row"], **db["step"], key="rel_fig_deb_bucket",
            labels=ui.labels("relative.deb", "trace", "exact", "log", "title", "x", "y",
                             max=("relative.deb.max", {"md": top})))
    st.markdown(ui.t("relative.deb.counts", **db["said"]))
    for cell, term in zip(st.columns(3), deberta.TERMS):
        with cell:
            ui.plot(figs.matrix, db["terms"][term], db["pos"], db["pos"], text_cols=0, key=f"rel_fig_deb_{term}",
                    **db["z"],
                    labels=ui.labels(**AX, title=f"relative.fig.deb.{term}", colorbar="relative.cb.score"))
    ui.explain(deberta.deberta_log_bucket, deberta.deberta_relative_index, deberta.deberta_terms)


def fire_body(al):
    """10 · FIRE and KERPLE: learned functions of the distance, fitted at the training length, against ALiBi and T5
    beyond it."""
    c = st.columns(2)
    n = ui.slider("rel_fire_train", 16, 256, 64, col=c[0])
    times = ui.select_slider("rel_fire_mult", view.FIRE_MULTIPLES, 4, col=c[1])
    fr = view.fire_view(n, times, *view.alibi_head(al))
    ui.plot(figs.bias_curves, fr["distance"], fr["curves"], **fr["marks"], key="rel_fig_fire",
            labels=ui.labels("relative.fire", *view.FIRE_NAMES, x="relative.ax.back", y="relative.ax.bias",
                             title=("relative.fig.fire", fr["said"]), train=("relative.fire.train", fr["said"])))
    st.markdown(ui.t("relative.fire.numbers", **fr["said"]))
    ui.explain(fire.fire_inputs, fire.fire_mlp, fire.kerple_log, fire.fit_to_bias, fire.biases_at)


def xpos_body():
    """11 · xPos: RoPE with an explicit exponential decay per pair, against plain RoPE's decay."""
    c = st.columns(2)
    scale_base = ui.select_slider("rel_xpos_base", view.XPOS_BASES, 512, col=c[0])
    reach = ui.select_slider("rel_xpos_range", view.XPOS_RANGES, 4096, col=c[1])
    xp = view.xpos_view(scale_base, reach)
    ui.plot(figs.score_curves, xp["r"], xp["curves"], key="rel_fig_xpos",
            labels=ui.labels("relative.xpos", *view.XPOS_NAMES, x="relative.ax.r", y="relative.ax.score_d",
                             title=("relative.fig.xpos", {"d": view.XPOS_HEAD_DIM, "B": scale_base})))
    st.markdown(ui.t(xp["say"], **xp["said"]))
    ui.explain(xpos.xpos_zeta, xpos.apply_xpos, xpos.xpos_ones_curve)


def cope_body():
    """12 · CoPE: positions counted by gates on the context, on a sentence the student types."""
    sentence = ui.text_input("rel_cope_text", ui.t("relative.cope.default"), max_chars=view.COPE_MAX_CHARS)
    c = st.columns(3)
    count = ui.radio("rel_cope_count", view.COPE_COUNTS, "sentences", col=c[0])
    word = ui.text_input("rel_cope_word", ui.t("relative.cope.default_word"), max_chars=view.COPE_MAX_WORD, col=c[1],
                         disabled=count != "word")
    sharpness = ui.slider("rel_cope_sharp", 0.0, view.COPE_MAX_SHARPNESS, 8.0, step=0.5, col=c[2])
    cp = view.cope_view(sentence, count, word, sharpness, name=ui.t("w.rel_cope_text"))
    ui.plot(figs.token_matrix, cp["positions"], cp["tokens"], zmax=cp["top"], key="rel_fig_cope",
            labels=ui.labels("relative.cope", "title", "colorbar", **AX))
    st.markdown(ui.t(cp["say"], **cp["said"]))
    ui.explain(cope.cope_positions, cope.count_gate_logits, cope.counted_tokens, cope.cope_position_logits)


ui.header("relative")
txt = 22 if ui.present() else 11      # px of the numbers printed in small heatmaps (projector: >= 22)
c = st.columns(3)
L = ui.slider("rel_L", 1, 256, 12, col=c[0])
past = ui.slider("rel_past", 0, 256, 0, col=c[1])
shift = ui.slider("rel_shift", 0, 100, 0, col=c[2])
S = past + L

section("distance")
pos = distance(L, S, shift, past, txt)
if pos is None:
    st.stop()
qpos, kpos = pos["query_pos"], pos["key_pos"]
section("shaw")
sh, k = shaw(L, S, qpos, kpos, txt)
section("t5")
t5 = t5_buckets(L, S, qpos, kpos, txt)
section("alibi")
al = alibi(L, S, qpos, kpos)
section("mask")
mask(L, S, qpos, kpos)
section("side")
side_by_side(pos, sh, k, t5, al)
section("tables")
for name in ("methods", "boundary"):
    st.subheader(ui.t(f"relative.table.{name}.title"))
    st.markdown(ui.t(f"relative.table.{name}"))
# 8-12 · the rest of the family, each a deep dive whose body runs only open
ui.deep_dive("rel_xl", "relative.xl", xl_body, L, past, title="relative.h.xl", top=True)
ui.deep_dive("rel_deberta", "relative.deberta", deberta_body, L, title="relative.h.deberta", top=True)
ui.deep_dive("rel_fire", "relative.fire", fire_body, al, title="relative.h.fire", top=True)
ui.deep_dive("rel_xpos", "relative.xpos", xpos_body, title="relative.h.xpos", top=True)
ui.deep_dive("rel_cope", "relative.cope", cope_body, title="relative.h.cope", top=True)
