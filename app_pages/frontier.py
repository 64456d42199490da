"""Today's RoPE: interleaved M-RoPE with 3-D position ids (Qwen2-VL to Qwen3.5) and MLA's decoupled RoPE
(DeepSeek-V2/V3/V3.2, Kimi K2), each live: widgets -> posviz.views.frontier -> posviz.figures.frontier -> ui.plot.

The page's sections, in the order the user sees them, then the script that runs them."""
import streamlit as st

from posviz import ui
from posviz.figures import frontier as ff
from posviz.pe import mla, position_ids, rope, scaling
from posviz.views import frontier as view

AXES = {a: f"frontier.axis.{a}" for a in view.AXES}   # the figures' axis names: text keys


def position_rows(model, n_text, image, frames, video, fps):
    """The composed sequence's three position-id rows, and what each vision block did to the positions."""
    seq = view.sequence(model, n_text, image, frames, video, fps)
    lab = ui.labels("frontier.fig.ids", "title", "x", "y", "next", **AXES, image="frontier.kind.image",
                    video="frontier.kind.video")
    ui.plot(ff.position_ids_figure, seq["ids"], seq["next"], seq["blocks"], labels=lab, key="frontier_ids")
    ui.explain(position_ids.mrope_position_ids, position_ids.vision_block_ids)
    lines = [ui.t("frontier.ids.summary", L=seq["length"], next=seq["next"])]
    sentence = {"qwen2_vl": "video", "qwen2_5_vl": "video_time"}.get(view.MROPE_PRESETS[model]["index"], "video_frames")
    for b in seq["blocks"]:
        t, h, w = b["grid"]
        fields = dict(first=b["first"], last=b["last"], start=b["start"], h=h, w=w, t=t, hmax=b["start"] + h - 1,
                      wmax=b["start"] + w - 1, tmax=int(seq["ids"][0, b["first"]:b["last"] + 1].max()),
                      resume=b["resume"], max=b["max"], stride=seq["stride"], tps=seq["tokens_per_second"],
                      sec=seq["seconds"] or 0)
        lines.append(ui.t("frontier.ids.image" if b["kind"] == "image" else f"frontier.ids.{sentence}", **fields))
        if b["resume"] <= b["max"]:
            lines.append(ui.t("frontier.ids.reuse", kind=ui.t(f"frontier.kind.{b['kind']}"), resume=b["resume"],
                              max=b["max"]))
    st.markdown("\n".join(f"- {line}" for line in lines))
    st.caption(ui.t("frontier.ids.note"))
    st.markdown(ui.t("frontier.cp"))


def pair_axes(model):
    """Which pair follows which axis, per model; the chosen model's wavelengths by axis."""
    st.subheader(ui.t("frontier.pairs.title"))
    st.markdown(ui.t("frontier.pairs.text"))
    rows = [(r["name"].split()[0], r["sections"], r["axes"]) for r in view.pair_layouts()]
    ui.plot(ff.pair_axes_figure, rows, labels=ui.labels("frontier.fig.pairs", "title", "x", **AXES),
            key="frontier_pairs")
    ui.explain(rope.mrope_pair_axes)
    st.subheader(ui.t("frontier.wave.title"))
    st.markdown(ui.t("frontier.wave.text"))
    wv = view.axis_wavelengths(model)
    lab = ui.labels("frontier.fig.wave", "x", "y", "band", **AXES,
                    title=("frontier.fig.wave.title", {"name": wv["name"]}))
    ui.plot(ff.axis_wavelength_figure, wv["wavelengths"], wv["axes"], labels=lab, key="frontier_wave")
    col = ui.labels("frontier.col", "axis", "pairs", "range", "fastest", "slowest")
    names = ui.labels(**AXES)
    ui.table([{col["axis"]: names[r["axis"]], col["pairs"]: r["pairs"], col["range"]: f"{r['first']}–{r['last']}",
               col["fastest"]: f"{r['fastest']:,.1f}", col["slowest"]: f"{r['slowest']:,.0f}"}
              for r in wv["summary"]], static=True)
    ui.explain(scaling.pair_wavelengths)


def angle_map(model, n_text, image, frames, video, fps):
    """Deep dive: every pair's angle at every token (mrope_angles), behind a closed expander."""
    with ui.more("frontier_angles", icon=":material/grid_on:") as box:
        if box.open:
            st.markdown(ui.t("frontier.angles.text"))
            an = view.angles(model, n_text, image, frames, video, fps)
            ui.plot(ff.angles_figure, an["cos"], an["axes"], key="frontier_angle_map",
                    labels=ui.labels("frontier.fig.angles", "title", "x", "y", **AXES))
            ui.explain(rope.mrope_angles)


def mla_layout(key):
    """MLA's split of q and k, and what one token leaves in the cache."""
    m = view.mla_model(key)
    c = m["cache"]
    st.markdown(ui.t("frontier.mla.diagram", name=m["name"], nope=m["nope"], rope=m["rope"], latent=m["latent"],
                    heads=m["heads"], mla=c["mla"]))
    st.subheader(ui.t("frontier.cache.title"))
    rows = [(ui.t("frontier.cache.mla"), c["latent"], c["rope"]),
            (ui.t("frontier.cache.mha"), c["mha"] // 2, c["mha"] // 2),
            (ui.t("frontier.cache.expanded"), m["heads"] * (m["nope"] + m["rope"]), m["heads"] * m["v"])]
    ui.plot(ff.cache_figure, rows, labels=ui.labels("frontier.fig.cache", "title", "y", "first", "second"),
            key="frontier_cache")
    st.markdown(ui.t("frontier.cache.text", name=m["name"], latent=c["latent"], rope=c["rope"], mla=f"{c['mla']:,}",
                     heads=m["heads"], nope=m["nope"], mha=f"{c['mha']:,}", ratio=c["ratio"],
                     expanded=f"{c['expanded']:,}", layers=c["layers"], mla_kib=m["bytes"]["mla"] / 1024,
                     mha_mib=m["bytes"]["mha"] / 2**20, mla_gib=m["gib_128k"]["mla"], mha_gib=m["gib_128k"]["mha"]))
    ui.explain(mla.mla_cache_per_token)


def absorbing():
    """Absorbing W_UK into the query: exact without RoPE and with MLA's decoupled part, wrong with RoPE on the key."""
    st.subheader(ui.t("frontier.absorb.title"))
    st.markdown(ui.t("frontier.absorb.text"))
    ab = view.absorption()
    modes = {m: ab[m]["error"] for m in mla.ROPE_MODES}
    ui.plot(ff.absorb_figure, ab["distance"], modes, key="frontier_absorb",
            labels=ui.labels("frontier.fig.absorb", "title", "x", "y", none="frontier.mode.none",
                             whole="frontier.mode.whole", decoupled="frontier.mode.decoupled"))
    st.markdown(ui.t("frontier.absorb.result", none=ab["none"]["max"], d1=ab["whole"]["error"][1],
                     worst=ab["whole"]["max"], dec=ab["decoupled"]["max"]))
    ui.explain(mla.expanded_scores, mla.absorbed_scores, mla.absorption_errors)


def softmax_scale(key):
    """The softmax scale of the model's MLA layers, YaRN's mscale included, and every MLA model's beside it."""
    st.subheader(ui.t("frontier.scale.title"))
    col = ui.labels("frontier.scale.col", "model", "factor", "mad", "plain", "m2", "scale")
    with st.container(key="frontier_scale"):
        ui.table([{col["model"]: r["name"], col["factor"]: f"{r['factor']:g}", col["mad"]: f"{r['mad']:g}",
                   col["plain"]: f"{r['plain']:.4f}", col["m2"]: f"{r['m2']:.3f}", col["scale"]: f"{r['scale']:.4f}"}
                  for r in view.mla_scales()], static=True)
    m = view.mla_model(key)
    s, p = m["scale"], m["rope_parameters"]
    if s["factor"] == 1.0:
        st.markdown(ui.t("frontier.scale.none", name=m["name"], nope=m["nope"], rope=m["rope"], plain=s["plain"]))
    else:
        st.markdown(ui.t("frontier.scale.text", name=m["name"], factor=float(p["factor"]), nope=m["nope"],
                         rope=m["rope"], plain=s["plain"], mad=float(p["mscale_all_dim"]), m2=s["factor"],
                         scale=s["scale"]))
    ui.explain(mla.mla_softmax_scale, scaling.yarn_get_mscale)


# ---------------------------------------------------------------- the page
ui.header("frontier")
st.header(ui.t("frontier.mrope.title"))
st.markdown(ui.t("frontier.mrope.text"))
c = st.columns(3)
model = ui.select("frontier_model", view.MROPE_MODELS, "qwen2_vl", col=c[0])
n_text = ui.slider("frontier_text", 1, view.MAX_TEXT, 4, col=c[0])
image = ui.select("frontier_image", view.IMAGE_GRIDS, "8x8", col=c[1])
frames = ui.slider("frontier_frames", 0, view.MAX_FRAMES, 2, col=c[2])
video = ui.select("frontier_video", view.VIDEO_GRIDS, "4x4", col=c[2])
fps = ui.select_slider("frontier_fps", view.FPS, 2.0, col=c[1]) if model == "qwen2_5_vl" else 2.0
with ui.guard():
    position_rows(model, n_text, image, frames, video, fps)
    pair_axes(model)
    angle_map(model, n_text, image, frames, video, fps)

st.header(ui.t("frontier.mla.title"))
st.markdown(ui.t("frontier.mla.text"))
mla_key = ui.select("frontier_mla", view.MLA_MODELS, "deepseek_v3")
with ui.guard():
    mla_layout(mla_key)
    absorbing()
    softmax_scale(mla_key)
st.page_link("app_pages/kv_cache.py", label=ui.t("nav.kv-cache"), icon=":material/arrow_forward:")
