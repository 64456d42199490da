"""Train short, test long: tiny models trained at length 64, evaluated per bucket up to 512."""
import streamlit as st

from posviz import ui
from posviz.tinylm import evaluate as lengtheval
from posviz.tinylm import model as tinylm
from posviz.figures import length as fl

PAGE = "length"
VARIANTS = lengtheval.VARIANTS
LONG = (128, 256, 512)


@ui.cache
def shipped():
    """The shipped results.json and MANIFEST.json (no model is run to draw the main plot)."""
    import json
    import os

    from posviz.tinylm.model import WEIGHTS_DIR

    with open(os.path.join(WEIGHTS_DIR, "MANIFEST.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    return lengtheval.load_results(), manifest


@ui.cache
def attention(variant, length, layer, head):
    return lengtheval.attention_map(variant, length, layer, head).numpy()


@ui.cache
def live(variant):
    return lengtheval.live_evaluate(variant)


ui.header(PAGE)
res, manifest = shipped()
buckets, train_len = res["buckets"], res["train_length"]
cfg = manifest["models"]["rope"]["config"]
labels = {v: ui.t(f"w.len_model.{v}") for v in VARIANTS}
labels["live"] = ui.t("length.live_trace")

shown = ui.multiselect("len_show", VARIANTS, VARIANTS)
c1, c2, c3 = st.columns([1.2, 1.4, 1.4], vertical_alignment="bottom")
with c1:
    metric = ui.radio("len_metric", ("acc", "loss"), "acc")
with c2:
    model = ui.select("len_model", VARIANTS, "rope")
with c3:
    run_live = ui.toggle("len_live", False)

series = {v: res["variants"][v][metric] for v in shown if v in res["variants"]}
live_res = None
if run_live:
    with ui.guard(), st.spinner(ui.t("length.live_running")):
        live_res = live(model)
        series["live"] = live_res[metric]
if metric == "acc":
    ref, ref_label, y_range = [fl.chance_level(cfg["vocab_size"])] * len(buckets), ui.t("length.chance"), [-0.02, 1.02]
else:
    ref, ref_label, y_range = None, None, fl.loss_range(series)
fig = fl.bucket_lines(buckets, series, labels, train_len, title=ui.t(f"length.fig_{metric}"),
                      x_title=ui.t("length.x_bucket"), y_title=ui.t(f"length.y_{metric}"),
                      train_label=ui.t("length.trained", n=train_len - 1), y_range=y_range,
                      reference=ref, reference_label=ref_label)
ui.plot(fig, key="len_main")
ui.explain([r"\mathrm{acc}_b=\frac{\#\{i\in b,\ i\ge k:\ \arg\max_v z_{i,v}=x_{i-k}\}}{\#\{i\in b,\ i\ge k\}}",
            r"\text{PI: }\theta_i/s\qquad \text{NTK: } b'=b\,s^{d/(d-2)}\qquad s=L_\text{eval}/L_\text{train}"],
           lengtheval.bucket_mean, lengtheval.rope_override, note=ui.t("length.explain_main"))
runs = manifest["models"].values()
st.caption(ui.t("length.provenance", cmd=manifest.get("last_command", ""),
                secs=f"{sum(r['wall_time_s'] for r in runs):.0f}", cpu=f"{sum(r['cpu_time_s'] for r in runs):.0f}",
                n=res["num_sequences"], date=manifest.get("date", "")))
if live_res is not None:
    st.caption(ui.t("length.live_note", model=labels[model], secs=live_res.get("seconds", 0)))
st.markdown(ui.t("length.findings"))

st.subheader(ui.t("length.maps_title"))
d1, d2, d3 = st.columns(3)
with d1:
    layer = ui.radio("len_layer", tuple(range(1, cfg["n_layers"] + 1)), cfg["n_layers"])
with d2:
    head = ui.slider("len_head", 1, cfg["n_heads"], 1)
with d3:
    long_len = ui.select_slider("len_long", LONG, 256)
if model == "learned":
    st.info(ui.t("length.learned_na", n=train_len - 1))
else:
    with ui.guard():
        short_map = attention(model, train_len, layer - 1, head - 1)
        long_map = attention(model, long_len, layer - 1, head - 1)
        fig2 = fl.attention_pair(short_map, long_map, train_length=train_len,
                                 titles=(ui.t("length.map_short", n=train_len), ui.t("length.map_long", n=long_len)),
                                 x_title=ui.t("length.x_key"), y_title=ui.t("length.y_query"))
        ui.plot(fig2, key="len_maps")
        ui.explain(r"a_{ij}=\mathrm{softmax}_j\!\left(\frac{q_i^\top k_j}{\sqrt{d_h}}+B_{ij}\right),\ j\le i",
                   tinylm.Attention.forward, lengtheval.attention_map, note=ui.t("length.explain_maps", model=labels[model]))

st.subheader(ui.t("length.entropy_title"))
ent = {v: [None if all(h[b] is None for h in res["variants"][v]["entropy"][layer - 1]) else
           sum(h[b] for h in res["variants"][v]["entropy"][layer - 1]) / cfg["n_heads"]
           for b in range(len(buckets))] for v in shown if v in res["variants"]}
fig3 = fl.bucket_lines(buckets, ent, labels, train_len, title=ui.t("length.fig_entropy", layer=layer),
                       x_title=ui.t("length.x_bucket"), y_title=ui.t("length.y_entropy"),
                       train_label=ui.t("length.trained", n=train_len - 1),
                       reference=fl.uniform_entropy(buckets), reference_label=ui.t("length.uniform"))
ui.plot(fig3, key="len_entropy")
ui.explain(r"H_i=-\sum_{j\le i} a_{ij}\ln a_{ij}\qquad H_i^{\text{uniform}}=\ln(i+1)",
           lengtheval.attention_entropy, note=ui.t("length.explain_entropy"))
st.markdown(ui.t("length.literature"))
