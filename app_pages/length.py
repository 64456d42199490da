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
curves = {v: f"w.len_model.{v}" for v in VARIANTS} | {"live": "length.live_trace"}   # text keys of the curves
names = ui.labels(**curves)
trained = ("length.trained", {"n": train_len - 1})   # the text key of the training length's mark

shown = ui.multiselect("len_show", VARIANTS, VARIANTS)
c = st.columns([1.2, 1.4, 1.4], vertical_alignment="bottom")
metric = ui.radio("len_metric", ("acc", "loss"), "acc", col=c[0])
model = ui.select("len_model", VARIANTS, "rope", col=c[1])
run_live = ui.toggle("len_live", False, col=c[2])

main = view.main_plot(metric, tuple(shown))
if run_live:
    with ui.guard(), st.spinner(ui.t("length.live_running")):
        main = view.main_plot(metric, tuple(shown), model)
series = main["series"]
ui.plot(figs.bucket_lines, buckets, series, train_len, reference=main["reference"], y_range=main["y_range"],
        labels=ui.labels(**curves, title=f"length.fig_{metric}", subtitle="length.fig_sub", x="length.x_bucket",
                         y=f"length.y_{metric}", train=trained, reference="length.chance"),
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
    c = st.columns(3)
    layer = ui.radio("len_layer", tuple(range(1, cfg["n_layers"] + 1)), cfg["n_layers"], col=c[0])
    head = ui.slider("len_head", 1, cfg["n_heads"], 1, col=c[1])
    long_len = ui.select_slider("len_long", view.LONG, 256, col=c[2])

st.subheader(ui.t("length.alias_title"))
st.markdown(ui.t("length.alias_intro"))
c = st.columns(2)
target = ui.slider("len_alias_target", 1, train_len - 1, info["offset"], col=c[0])
tol = ui.slider("len_alias_tol", 5, 90, 40, step=5, col=c[1])
al = view.alias_finder(target, tol, long_len, layer, head)
with ui.guard():
    st.markdown(ui.t("length.alias_result", t=target, tol=tol, n=len(al["aliases"]), pairs=len(al["pairs"]),
                     waves=", ".join(f"{w:g}" for w in al["wavelengths"]), L=train_len,
                     offsets=", ".join(str(d) for d in al["aliases"])))
    ui.plot(figs.alias_errors, al["error"], al["aliases"], tol, train_len, key="len_alias",
            labels=ui.labels(title=("length.alias_fig", {"t": target}), subtitle="length.alias_sub", x="length.alias_x",
                             y="length.alias_y", tol=("length.alias_tol", {"tol": tol}), alias="length.alias_marks",
                             train=trained))
    cols = al["table"]
    yes_no = {True: ui.t("length.alias_seen"), False: ui.t("length.alias_unseen")}
    head_of = ui.labels("length.alias_col", "offset", "error", "seen", "weight")
    ui.table({head_of["offset"]: cols["offset"], head_of["error"]: cols["error"],
              head_of["seen"]: [yes_no[s] for s in cols["seen"]], head_of["weight"]: cols["weight"]}, static=True)
    st.caption(ui.t("length.alias_table_note", n=long_len, layer=layer, head=head))
    ui.explain(lengtheval.phase_aliases, lengtheval.offset_weights, note=ui.t("length.explain_alias"))

with maps:
    if model == "learned":
        st.info(ui.t("length.learned_na", n=train_len - 1))
    else:
        with ui.guard():
            overlay = al["aliases"] if model == "rope" else ()
            lab = {"x": "length.x_key", "y": "length.y_query", "block_max": "length.block_max",   # text keys
                   "aliases": ("length.alias_lines", {"t": target}), "target": ("length.alias_target", {"t": target})}
            pair, c = view.maps(model, train_len, long_len, layer, head), st.columns(2)
            with c[0]:
                ui.plot(figs.attention_map, pair["short"], key="len_maps",
                        labels=ui.labels(**lab, title=("length.map_short", {"n": train_len})))
            with c[1]:
                ui.plot(figs.attention_map, pair["long"], train_length=train_len, aliases=tuple(overlay), target=target,
                        labels=ui.labels(**lab, title=("length.map_long", {"n": long_len})), key="len_maps_long")
            if model != "rope":
                st.caption(ui.t("length.alias_rope_only"))
            ui.explain(tinylm.Attention.forward, lengtheval.attention_map,
                       note=ui.t("length.explain_maps", model=names[model], side=figs.MAX_SIDE, n=train_len))

st.subheader(ui.t("length.entropy_title"))
ent = view.entropy_curves(layer, tuple(shown))
ui.plot(figs.bucket_lines, buckets, ent["series"], train_len, reference=ent["uniform"],
        labels=ui.labels(**curves, title="length.fig_entropy", subtitle=("length.fig_entropy_sub", {"layer": layer}),
                         x="length.x_bucket", y="length.y_entropy", train=trained, reference="length.uniform"),
        key="len_entropy")
ui.explain(lengtheval.attention_entropy, view.uniform_entropy, note=ui.t("length.explain_entropy"))
st.markdown(ui.t("length.literature", **view.t5_far()))
