"""Train short, test long: tiny models trained at length 64 with five runs each, evaluated per bucket up to 512."""
import streamlit as st

from posviz import ui
from posviz.figures import length as figs
from posviz.tinylm import evaluate as lengtheval
from posviz.tinylm import model as tinylm
from posviz.views import length as view

PAGE = "length"
VARIANTS = view.VARIANTS

ui.header(PAGE, say={k: ui.labels(**fields) for k, fields in view.scene_say(PAGE).items()})
info = view.shipped()
buckets, train_len, cfg = info["buckets"], info["train_length"], info["config"]
curves = {v: f"w.len_model.{v}" for v in VARIANTS} | {"live": "length.live_trace"}   # text keys of the curves
names = ui.labels(**curves)
trained = ("length.trained", {"n": train_len - 1})   # the text key of the training length's mark


def main_chart():
    """The six methods per bucket: the mean of five runs, their min-max band, the table and the findings."""
    shown = ui.multiselect("len_show", VARIANTS, view.SHOWN)
    c = st.columns([1.2, 1.4, 1.4], vertical_alignment="bottom")
    metric = ui.radio("len_metric", ("acc", "loss"), "acc", col=c[0])
    model = ui.select("len_model", VARIANTS, "rope", col=c[1])
    run_live = ui.toggle("len_live", False, col=c[2])
    main = view.main_plot(metric, tuple(shown))
    if run_live:
        with ui.guard(), st.spinner(ui.t("length.live_running")):
            main = view.main_plot(metric, tuple(shown), model)
    ui.plot(figs.bucket_lines, buckets, main["series"], train_len, reference=main["reference"],
            y_range=main["y_range"], bands=main["bands"], key="len_main",
            labels=ui.labels(**curves, title=f"length.fig_{metric}", x="length.x_bucket", y=f"length.y_{metric}",
                             subtitle=("length.fig_sub", {"n": len(info["seeds"])}), train=trained,
                             reference="length.chance"))
    ui.explain(lengtheval.bucket_mean, lengtheval.summary, view.chance_level, lengtheval.rope_override,
               note=ui.t("length.explain_main"))
    st.caption(ui.t("length.provenance", **info["provenance"]))
    if run_live and "live" in main["series"]:
        st.caption(ui.t("length.live_note", model=names[model], secs=view.live(model).get("seconds", 0)))
    table = view.seed_table(tuple(shown), metric)
    with st.container(key="len_table"):    # the numbers the scenes about the curves quote
        ui.table({ui.t("length.table_method"): [names[v] for v in table["rows"]]}
                 | {b: [row[k] for row in table["rows"].values()] for k, b in enumerate(table["buckets"])}, static=True)
    lines = view.finding_lines(VARIANTS)
    st.markdown(ui.t("length.findings", n=len(info["seeds"])) + "".join(
        "\n" + ui.t("length.f.line", name=names[v], parts=ui.t("length.f.sep").join(ui.t(k, **p) for k, p in parts))
        for v, parts in lines))
    return model, tuple(shown)


def alias_section(long_len, layer, head, run):
    """The phase-alias finder: offsets whose fast phases repeat those of the target, on the RoPE map."""
    st.subheader(ui.t("length.alias_title"))
    st.markdown(ui.t("length.alias_intro"))
    c = st.columns(2)
    target = ui.slider("len_alias_target", 1, train_len - 1, info["offset"], col=c[0])
    tol = ui.slider("len_alias_tol", 5, 90, 40, step=5, col=c[1])
    al = view.alias_finder(target, tol, long_len, layer, head, run)
    with ui.guard():
        with st.container(key="len_alias_view"):     # the offsets and their figure: what scene 5 lands on
            st.markdown(ui.t("length.alias_result", t=target, tol=tol, n=len(al["aliases"]), pairs=len(al["pairs"]),
                             waves=", ".join(f"{w:g}" for w in al["wavelengths"]), L=train_len,
                             offsets=", ".join(str(d) for d in al["aliases"])))
            ui.plot(figs.alias_errors, al["error"], al["aliases"], tol, train_len, key="len_alias",
                    labels=ui.labels(title=("length.alias_fig", {"t": target}), subtitle="length.alias_sub",
                                     x="length.alias_x", y="length.alias_y", tol=("length.alias_tol", {"tol": tol}),
                                     alias="length.alias_marks", train=trained))
        cols = al["table"]
        yes_no = {True: ui.t("length.alias_seen"), False: ui.t("length.alias_unseen")}
        head_of = ui.labels("length.alias_col", "offset", "error", "seen", "weight")
        ui.table({head_of["offset"]: cols["offset"], head_of["error"]: cols["error"],
                  head_of["seen"]: [yes_no[s] for s in cols["seen"]], head_of["weight"]: cols["weight"]}, static=True)
        st.caption(ui.t("length.alias_table_note", n=long_len, layer=layer, head=head, run=run))
        st.markdown(ui.t("length.alias_strongest", n=train_len - 1, offsets=ui.t("length.alias_sep").join(
            ui.t("length.alias_hit" if hit else "length.alias_miss", d=d, w=w) for d, w, hit in al["strongest"])))
        ui.explain(lengtheval.phase_aliases, lengtheval.offset_weights, note=ui.t("length.explain_alias"))
    return target, al["aliases"]


def maps_section(box, model, run, long_len, layer, head, target, alias_list):
    """The two attention maps of one head of one run: at the training length and far beyond it."""
    with box:
        if model == "learned":
            st.info(ui.t("length.learned_na", n=train_len - 1))
            return
        with ui.guard():
            overlay = alias_list if model == "rope" else ()
            lab = {"x": "length.x_key", "y": "length.y_query", "block_max": "length.block_max",   # text keys
                   "aliases": ("length.alias_lines", {"t": target}), "target": ("length.alias_target", {"t": target})}
            pair, c = view.maps(model, train_len, long_len, layer, head, run), ui.panels(2)
            with c[0]:
                ui.plot(figs.attention_map, pair["short"], key="len_maps",
                        labels=ui.labels(**lab, title=("length.map_short", {"n": train_len})))
            with c[1]:
                ui.plot(figs.attention_map, pair["long"], train_length=train_len, aliases=tuple(overlay), target=target,
                        labels=ui.labels(**lab, title=("length.map_long", {"n": long_len})), key="len_maps_long")
            if model != "rope":
                st.caption(ui.t("length.alias_rope_only"))
            ui.explain(tinylm.Attention.forward, lengtheval.attention_map,
                       note=ui.t("length.explain_maps", model=names[model], side=figs.MAX_SIDE, n=train_len, run=run))


def entropy_section(layer, shown):
    """Attention entropy per bucket, and what the literature reports."""
    st.subheader(ui.t("length.entropy_title"))
    ent = view.entropy_curves(layer, shown)
    ui.plot(figs.bucket_lines, buckets, ent["series"], train_len, reference=ent["uniform"], bands=ent["bands"],
            labels=ui.labels(**curves, title="length.fig_entropy", x="length.x_bucket", y="length.y_entropy",
                             subtitle=("length.fig_entropy_sub", {"layer": layer}), train=trained,
                             reference="length.uniform"),
            key="len_entropy")
    ui.explain(lengtheval.attention_entropy, view.uniform_entropy, note=ui.t("length.explain_entropy"))
    clauses = {name: ui.t(key, **params) for name, (key, params) in view.literature().items()}
    st.markdown(ui.t("length.literature", **view.t5_far(), **clauses))


model, shown = main_chart()
maps = st.container()
with maps:
    st.subheader(ui.t("length.maps_title"))
    c = st.columns(4)
    layer = ui.radio("len_layer", tuple(range(1, cfg["n_layers"] + 1)), cfg["n_layers"], col=c[0])
    head = ui.slider("len_head", 1, cfg["n_heads"], 1, col=c[1])
    long_len = ui.select_slider("len_long", view.LONG, 256, col=c[2])
    run = ui.select("len_run", tuple(info["seeds"]), info["seeds"][0], col=c[3])
target, alias_list = alias_section(long_len, layer, head, run)
maps_section(maps, model, run, long_len, layer, head, target, alias_list)
entropy_section(layer, shown)
