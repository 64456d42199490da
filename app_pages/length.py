"""Train short, test long: tiny models trained at length 64, evaluated per bucket up to 512."""
import streamlit as st

from posviz import ui
from posviz.figures import length as figs
from posviz.tinylm import evaluate as lengtheval
from posviz.tinylm import model as tinylm
from posviz.views import length as view

PAGE = "length"
VARIANTS = view.VARIANTS

ui.header(PAGE)
info = view.shipped()
buckets, train_len, cfg = info["buckets"], info["train_length"], info["config"]
names = {v: ui.t(f"w.len_model.{v}") for v in VARIANTS} | {"live": ui.t("length.live_trace")}
trained = ui.t("length.trained", n=train_len - 1)

shown = ui.multiselect("len_show", VARIANTS, VARIANTS)
c1, c2, c3 = st.columns([1.2, 1.4, 1.4], vertical_alignment="bottom")
with c1:
    metric = ui.radio("len_metric", ("acc", "loss"), "acc")
with c2:
    model = ui.select("len_model", VARIANTS, "rope")
with c3:
    run_live = ui.toggle("len_live", False)

main = view.main_plot(metric, tuple(shown))
if run_live:
    with ui.guard(), st.spinner(ui.t("length.live_running")):
        main = view.main_plot(metric, tuple(shown), model)
series = main["series"]
ui.plot(figs.bucket_lines, buckets, series, train_len, reference=main["reference"], y_range=main["y_range"],
        labels=names | {"title": ui.t(f"length.fig_{metric}"), "subtitle": ui.t("length.fig_sub"),
                        "x": ui.t("length.x_bucket"), "y": ui.t(f"length.y_{metric}"), "train": trained,
                        "reference": ui.t("length.chance")},
        key="len_main")
ui.explain(lengtheval.bucket_mean, view.chance_level, lengtheval.rope_override, note=ui.t("length.explain_main"))
st.caption(ui.t("length.provenance", **info["provenance"]))
if run_live and "live" in series:
    st.caption(ui.t("length.live_note", model=names[model], secs=view.live(model).get("seconds", 0)))
st.markdown(ui.t("length.findings"))

# ---------------------------------------------------------------- inside one head, and the phase aliases
maps = st.container()
with maps:
    st.subheader(ui.t("length.maps_title"))
    d1, d2, d3 = st.columns(3)
    with d1:
        layer = ui.radio("len_layer", tuple(range(1, cfg["n_layers"] + 1)), cfg["n_layers"])
    with d2:
        head = ui.slider("len_head", 1, cfg["n_heads"], 1)
    with d3:
        long_len = ui.select_slider("len_long", view.LONG, 256)

st.subheader(ui.t("length.alias_title"))
st.markdown(ui.t("length.alias_intro"))
e1, e2 = st.columns(2)
with e1:
    target = ui.slider("len_alias_target", 1, train_len - 1, info["offset"])
with e2:
    tol = ui.slider("len_alias_tol", 5, 90, 40, step=5)
al = view.alias_finder(target, tol, long_len, layer, head)
with ui.guard():
    st.markdown(ui.t("length.alias_result", t=target, tol=tol, n=len(al["aliases"]), pairs=len(al["pairs"]),
                     waves=", ".join(f"{w:g}" for w in al["wavelengths"]), L=train_len,
                     offsets=", ".join(str(d) for d in al["aliases"])))
    ui.plot(figs.alias_errors, al["error"], al["aliases"], tol, train_len, key="len_alias",
            labels={"title": ui.t("length.alias_fig", t=target), "subtitle": ui.t("length.alias_sub"),
                    "x": ui.t("length.alias_x"), "y": ui.t("length.alias_y"), "tol": ui.t("length.alias_tol", tol=tol),
                    "alias": ui.t("length.alias_marks"), "train": trained})
    cols = al["table"]
    yes_no = {True: ui.t("length.alias_seen"), False: ui.t("length.alias_unseen")}
    ui.table({ui.t("length.alias_col.offset"): cols["offset"], ui.t("length.alias_col.error"): cols["error"],
              ui.t("length.alias_col.seen"): [yes_no[s] for s in cols["seen"]],
              ui.t("length.alias_col.weight"): cols["weight"]}, static=True)
    st.caption(ui.t("length.alias_table_note", n=long_len, layer=layer, head=head))
    ui.explain(lengtheval.phase_aliases, lengtheval.offset_weights, note=ui.t("length.explain_alias"))

with maps:
    if model == "learned":
        st.info(ui.t("length.learned_na", n=train_len - 1))
    else:
        with ui.guard():
            overlay = al["aliases"] if model == "rope" else ()
            lab = {"x": ui.t("length.x_key"), "y": ui.t("length.y_query"), "block_max": ui.t("length.block_max"),
                   "aliases": ui.t("length.alias_lines", t=target), "target": ui.t("length.alias_target", t=target)}
            pair, (m1, m2) = view.maps(model, train_len, long_len, layer, head), st.columns(2)
            with m1:
                ui.plot(figs.attention_map, pair["short"],
                        labels=lab | {"title": ui.t("length.map_short", n=train_len)}, key="len_maps")
            with m2:
                ui.plot(figs.attention_map, pair["long"],
                        train_length=train_len, aliases=tuple(overlay), target=target,
                        labels=lab | {"title": ui.t("length.map_long", n=long_len)}, key="len_maps_long")
            if model != "rope":
                st.caption(ui.t("length.alias_rope_only"))
            ui.explain(tinylm.Attention.forward, lengtheval.attention_map,
                       note=ui.t("length.explain_maps", model=names[model], side=figs.MAX_SIDE, n=train_len))

st.subheader(ui.t("length.entropy_title"))
ent = view.entropy_curves(layer, tuple(shown))
ui.plot(figs.bucket_lines, buckets, ent["series"], train_len, reference=ent["uniform"],
        labels=names | {"title": ui.t("length.fig_entropy"), "subtitle": ui.t("length.fig_entropy_sub", layer=layer),
                        "x": ui.t("length.x_bucket"), "y": ui.t("length.y_entropy"), "train": trained,
                        "reference": ui.t("length.uniform")},
        key="len_entropy")
ui.explain(lengtheval.attention_entropy, view.uniform_entropy, note=ui.t("length.explain_entropy"))
st.markdown(ui.t("length.literature", **view.t5_far()))
