"""Relative positions: distance matrix, Shaw clipping, T5 buckets, ALiBi, causal mask / NoPE."""
import streamlit as st

from posviz import ui
from posviz.figures import relative as figs
from posviz.pe import relative as rel
from posviz.views import relative as view

ui.header("relative")
AX = {"x": ui.t("relative.ax.key"), "y": ui.t("relative.ax.query")}
TXT = 22 if ui.present() else 11      # px of the numbers printed in small heatmaps (projector: >= 22)


def lab(title, colorbar=None, **fmt):  # labels of a matrix figure: title, the shared axes, colour bar
    return {**AX, "title": ui.t(title, **fmt), "colorbar": ui.t(colorbar) if colorbar else ""}


def section(name):
    st.header(ui.t(f"relative.h.{name}"))
    st.markdown(ui.t(f"relative.{name}.md"))


def in_columns(*widgets):  # [(widget or st.metric, *args)], each in its own column (stacked on a phone)
    out = []
    for col, (widget, *args) in zip(st.columns(len(widgets)), widgets):
        with col:
            out.append(widget(*args))
    return out


L, past, shift = in_columns((ui.slider, "rel_L", 1, 256, 12), (ui.slider, "rel_past", 0, 256, 0),
                            (ui.slider, "rel_shift", 0, 100, 0))
S = past + L
pos = sh = t5 = al = None

# ---------------------------------------------------------------- 1 distance
section("distance")
with ui.guard():
    pos = view.positions(L, S, shift)
    qpos, kpos = pos["query_pos"], pos["key_pos"]
    st.caption(ui.t("relative.decode.rect" if past else "relative.decode.square", L=L, S=S, first=qpos[0],
                    last=qpos[-1], L_1=pos["naive_last"]))
    if shift:
        st.caption(ui.t("relative.shift.note", shift=shift, first=shift))
    ui.plot(figs.matrix, pos["distance"], qpos, kpos, labels=lab("relative.fig.distance", "relative.cb.distance"),
            text_cols=32, text_size=TXT, max_cells=figs.FULL_CELLS, key="rel_fig_distance")
    ui.explain(rel.relative_distance, rel.distance_from_positions, rel.shifted_positions)
if pos is None:
    st.stop()

# ---------------------------------------------------------------- 2 Shaw
section("shaw")
k = ui.slider("rel_k", 0, 64, 3)
with ui.guard():
    sh = view.shaw(L, S, k)
    in_columns((st.metric, ui.t("relative.m.rows"), sh["summary"]["rows"]),
               (st.metric, ui.t("relative.m.clipped"), sh["clipped_text"]),
               (st.metric, ui.t("relative.m.distinct"), sh["summary"]["distinct"]))
    g1, g2 = st.columns(2)
    with g1:
        ui.plot(figs.matrix, sh["index"], qpos, kpos, labels=lab("relative.fig.shaw.index", "relative.cb.index"),
                scale="sequential", zmin=0, zmax=sh["index_max"], text_size=TXT, key="rel_fig_shaw")
    with g2:
        ui.plot(figs.matrix, sh["lost"], qpos, kpos, labels=lab("relative.fig.shaw.lost", "relative.cb.lost"),
                scale="oranges", zmin=0, zmax=sh["lost_max"], text_size=TXT, key="rel_fig_shaw_lost")
    ui.explain(rel.shaw_relative_index, rel.shaw_lost_distance)

# ---------------------------------------------------------------- 3 T5
section("t5")
bidir, nb, md = in_columns((ui.toggle, "rel_t5_bidir", True), (ui.slider, "rel_t5_nb", 4, 128, 32, 2),
                           (ui.slider, "rel_t5_md", 2, 1024, 128))
with ui.guard():
    t5 = view.t5(L, S, bidir, nb, md)
    in_columns((st.metric, ui.t("relative.m.exact"), t5["max_exact"]),
               (st.metric, ui.t("relative.m.last"), t5["last_start"]),
               (st.metric, ui.t("relative.m.empty"), t5["empty"]))
    g1, g2 = st.columns(2)
    with g1:
        ui.plot(figs.matrix, t5["buckets"], qpos, kpos, labels=lab("relative.fig.t5.matrix", "relative.cb.bucket"),
                scale="sequential", zmin=0, zmax=t5["top"], text_size=TXT, key="rel_fig_t5_matrix")
    with g2:
        step = {k: ui.t(f"relative.{v}") for k, v in dict(title="fig.t5.step", x="ax.distance", y="ax.bucket",
                                                             trace="ax.bucket", exact="t5.exact", log="t5.log").items()}
        ui.plot(figs.t5_step, t5["curve_d"], t5["curve_b"], max_exact=t5["max_exact"], max_distance=md,
                bidirectional=bidir, labels={**step, "max": ui.t("relative.t5.max", md=md)}, key="rel_fig_t5_step")
    ui.explain(rel.t5_relative_position_bucket, rel.t5_bucket_matrix, rel.t5_bucket_ranges,
               note=ui.t("relative.t5.empty_note"))
    st.caption(ui.t("relative.t5.table"))
    th = {c: ui.t(f"relative.t5tab.{c}") for c in ("bucket", "range", "count", "region", "side", "empty")}
    ui.table([{th["bucket"]: r["bucket"], th["range"]: r["span"] or th["empty"], th["count"]: r["count"],
               th["region"]: ui.t(f"relative.t5tab.{r['region']}"), th["side"]: ui.t(f"relative.t5tab.{r['side']}")}
              for r in t5["rows"]], height=280)

# ---------------------------------------------------------------- 4 ALiBi
section("alibi")
H, head_asked = in_columns((ui.slider, "rel_heads", 1, 128, 8), (ui.slider, "rel_head", 1, 128, 1))
with ui.guard():
    al = view.alibi(H, head_asked, L, S)
    h, order = al["head"], al["order"]
    if h != head_asked:
        st.caption(ui.t("relative.alibi.clamped", asked=head_asked, H=H, h=h))
    g1, g2 = st.columns(2)
    with g1:
        ui.plot(figs.slope_bars, al["slopes"], n_base=al["n_base"], selected=h, key="rel_fig_alibi_slopes", labels={
            "title": ui.t("relative.fig.alibi.slopes"), "x": ui.t("relative.ax.head"), "y": ui.t("relative.ax.slope"),
            "base": ui.t("relative.alibi.base", n=al["n_base"]), "fill": ui.t("relative.alibi.fill", n2=al["n_fill"])})
    with g2:
        ui.plot(figs.matrix, al["bias"], qpos, kpos, labels=lab("relative.fig.alibi.bias", "relative.cb.bias", h=h,
                m=al["slope"]), key="rel_fig_alibi_bias")
    st.info(ui.t("relative.alibi.sorted" if order["sorted"] else "relative.alibi.mixed", **order) + " "
            + ui.t("relative.alibi.rank", h=h, m_h=al["slope"], steeper=al["steeper"], H=H))
    ui.explain(rel.alibi_slopes, rel.alibi_head_bias)

# ---------------------------------------------------------------- 5 mask / NoPE
section("mask")
with ui.guard():
    mk = view.mask(L, S)
    g1, g2 = st.columns(2)
    with g1:
        ui.plot(figs.matrix, mk["mask"], qpos, kpos, labels=lab("relative.fig.mask.mask"), scale="mask", zmin=0,
                zmax=1, showscale=False, text_cols=0, key="rel_fig_mask")
    with g2:
        ui.plot(figs.weight_line, qpos, mk["weight"], key="rel_fig_mask_weight", labels={
            "title": ui.t("relative.fig.mask.uniform"), "x": AX["y"], "y": ui.t("relative.ax.weight"),
            "trace": ui.t("relative.mask.weight")})
    ui.explain(rel.causal_mask, rel.nope_uniform_attention)

# ---------------------------------------------------------------- 6 side by side (one scale for the distances)
section("side")
with ui.more("rel_side") as box:           # a deep dive: the four panels above again, on one scale
    if box.open and None not in (pos, sh, t5, al):
        tokens = "relative.cb.tokens"
        panels = [("rel_fig_side", pos["distance"], lab("relative.fig.side.distance", tokens), pos["zrange"]),
                  ("rel_fig_side_shaw", sh["clipped"], lab("relative.fig.side.shaw", tokens, k=k), pos["zrange"]),
                  ("rel_fig_side_t5", t5["representative"], lab("relative.fig.side.t5", tokens), pos["zrange"]),
                  ("rel_fig_side_alibi", al["bias"], lab("relative.fig.side.alibi", "relative.cb.logits", h=h),
                   al["bias_range"])]
        grid = [*st.columns(2), *st.columns(2)]               # 2 x 2 on a wide screen, stacked on a phone
        for cell, (key, z, labels, (zmin, zmax)) in zip(grid, panels):
            with cell:
                ui.plot(figs.matrix, z, qpos, kpos, labels=labels, zmin=zmin, zmax=zmax, text_cols=0, key=key)
        ui.explain(rel.relative_distance, rel.shaw_clipped_distance, rel.t5_representative_distance,
                   rel.alibi_head_bias)

# ---------------------------------------------------------------- 7 tables
section("tables")
for name in ("methods", "boundary"):
    st.subheader(ui.t(f"relative.table.{name}.title"))
    st.markdown(ui.t(f"relative.table.{name}"))
