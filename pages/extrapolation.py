"""Length extrapolation: wavelengths vs L_train, never-seen phases, PI / NTK / dynamic NTK / YaRN /
Llama 3 frequencies and decay, real model presets, and a pasted config's rope parameters."""
import json

import streamlit as st

from posviz import ui
from posviz.pe import models as presets
from posviz.pe import rope_config
from posviz.pe import scaling
from posviz.figures import extrapolation as fx
from posviz.text.extrapolation import TEX

PAGE = "extrapolation"
PRESET_OPTIONS = presets.KEYS + ("custom", "pasted")
METHOD_OPTIONS = ("model",) + scaling.METHODS
HEAD_DIMS = (16, 32, 64, 80, 96, 128, 160, 192, 256)
THETAS = (10000.0, 50000.0, 100000.0, 500000.0, 1000000.0, 10000000.0)
FALLBACK = "llama31_8b"


def _plain(v):
    """Tensors -> numpy (cacheable, small); everything else unchanged."""
    if hasattr(v, "numpy"):
        return v.numpy()
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return tuple(_plain(x) for x in v)
    return v


@ui.cache
def _view(head_dim, params_json, l_train, l_target, method):
    return _plain(scaling.extrapolation_view(head_dim, json.loads(params_json), l_train, l_target, method))


@ui.cache
def _figures(head_dim, params_json, l_train, l_target, method, model_name, lang):
    """The five figures of the page (plotly objects are slow to build; cached per view and language)."""
    view = _view(head_dim, params_json, l_train, l_target, method)
    focus = model_name if method == "model" else label(method)
    shown = [m for m in scaling.METHODS if m in view["curves"]]
    if json.loads(params_json)["rope_type"] != "default":
        shown.append("model")
    names = {m: model_name if m == "model" else label(m) for m in shown}
    return {
        "ratio": fx.ratio_figure(view["ratio"], view["bands"], view["factor"], t=ui.t, name=focus),
        "wave": fx.wavelength_figure(view["wavelengths"], l_train, l_target, t=ui.t,
                                     scaled=None if method == "default" else view["wavelengths_selected"],
                                     scaled_name=ui.t("extrapolation.fig.scaled", name=focus)),
        "phase": fx.phase_figure(view["seen"], view["needed"], view["never_seen"], t=ui.t),
        "freq": fx.frequencies_figure([(m, names[m], view["curves"][m][0]) for m in shown], t=ui.t,
                                      yarn_range=view["yarn_range"], llama3_edges=view["llama3_edges"]),
        "decay": fx.decay_figure(view["distances"], [(m, names[m], view["scores"][m]) for m in shown],
                                 l_train, l_target, t=ui.t, shown={"default", method, "model"}),
    }


@ui.cache
def _paste(text):
    return rope_config.read_rope_config(text)


@ui.cache
def _spectrum(head_dim, params_json):
    params = json.loads(params_json)
    theta, _ = scaling.rope_frequencies(head_dim, {"rope_type": "default", "rope_theta": params["rope_theta"]})
    inv, attention = scaling.rope_frequencies(head_dim, params)
    return theta.numpy(), inv.numpy(), attention


def _on_preset():
    p = presets.PRESETS.get(st.session_state.get("ext_preset"))
    if p is not None:
        st.session_state["ext_ltrain"] = p["l_train"]
        st.session_state["ext_ltarget"] = p["l_target"]
        st.session_state["ext_method"] = "model"


def _params_table(head_dim, params):
    rows = [{ui.t("extrapolation.paste.col.param"): "head_dim (d)", ui.t("extrapolation.paste.col.value"): str(head_dim)}]
    rows += [{ui.t("extrapolation.paste.col.param"): k, ui.t("extrapolation.paste.col.value"): str(v)}
             for k, v in params.items()]
    st.dataframe(rows, hide_index=True, width="stretch")


def paste_section():
    """The paste box: user text, read with json.loads only, shown as a table (never as markdown)."""
    st.subheader(ui.t("extrapolation.paste.title"))
    st.caption(ui.t("extrapolation.paste.text"))
    text = st.text_area(ui.t("w.ext_paste"), value=presets.preset_json(FALLBACK), max_chars=rope_config.MAX_BYTES,
                        key="ext_paste", height=230)
    try:
        r = _paste(text)
    except ValueError as e:
        st.error(ui.t("ui.invalid"), icon=":material/error:")
        st.code(str(e)[:2000], language=None, wrap_lines=True)   # user-derived text: plain, never markdown
        return None
    st.success(ui.t("extrapolation.paste.ok", d=r["head_dim"], t=r["rope_parameters"]["rope_type"]))
    _params_table(r["head_dim"], r["rope_parameters"])
    for code, v in r["notes"]:
        st.text(ui.t(f"extrapolation.note.{code}", v=v))
    if r["ignored"]:
        st.text(ui.t("extrapolation.paste.ignored", keys=", ".join(r["ignored"])[:1000]))
    trained = r["rope_parameters"].get("original_max_position_embeddings") or r["max_position_embeddings"]
    if trained:
        st.text(ui.t("extrapolation.paste.ltrain", n=f"{trained:,}"))
    theta, inv, _ = _spectrum(r["head_dim"], json.dumps(r["rope_parameters"], sort_keys=True))
    ui.plot(fx.frequencies_figure([("default", label("default"), theta), ("model", ui.t("w.ext_preset.pasted"), inv)],
                                  t=ui.t, height=360), key="ext_paste_freq")
    ui.explain(TEX["wave"], rope_config.read_config, scaling.rope_frequencies)
    return r["head_dim"], r["rope_parameters"]


def label(m):
    return ui.t(f"w.ext_method.{m}")


ui.header(PAGE)
c1, c2, c3, c4 = st.columns([2.2, 2, 2, 1.6], vertical_alignment="bottom")
with c1:
    key = ui.select("ext_preset", PRESET_OPTIONS, FALLBACK, on_change=_on_preset)
with c2:
    l_train = ui.select_slider("ext_ltrain", presets.LENGTHS, 8192)
with c3:
    l_target = ui.select_slider("ext_ltarget", presets.LENGTHS, 131072)
with c4:
    method = ui.select("ext_method", METHOD_OPTIONS, "model")

# ---------------------------------------------------------------- the model
pasted_shown = False
if key == "custom":
    k1, k2, _ = st.columns([2, 2, 3])
    with k1:
        head_dim = ui.select_slider("ext_head_dim", HEAD_DIMS, 128)
    with k2:
        theta = ui.select_slider("ext_theta", THETAS, 10000.0)
    params = {"rope_type": "default", "rope_theta": float(theta)}
    st.caption(ui.t("extrapolation.custom.line", d=head_dim, theta=float(theta)))
    model_name = label("model")
elif key == "pasted":
    pasted_shown = True
    got = paste_section()
    if got is None:
        st.info(ui.t("extrapolation.paste.fallback"))
        key = FALLBACK
    else:
        head_dim, params = got
        model_name = ui.t("w.ext_preset.pasted")
if key in presets.PRESETS:
    p = presets.preset(key)
    head_dim, params = p["head_dim"], p["rope_parameters"]
    model_name = p["name"]
    scaling_text = (", ".join(f"{k}={v}" for k, v in params.items() if k not in ("rope_theta",))
                    if params["rope_type"] != "default" else ui.t("extrapolation.preset.none"))
    st.markdown(ui.t("extrapolation.preset.line", name=p["name"], repo=p["repo"], d=head_dim,
                     theta=params["rope_theta"], scaling=scaling_text))
    st.caption(ui.t("extrapolation.preset.source", source=p["source"], checked=ui.t(f"extrapolation.checked.{key}")))

if l_target <= l_train:
    st.info(ui.t("extrapolation.warn.short"))

view = None
params_json = json.dumps(params, sort_keys=True)
with ui.guard():
    view = _view(head_dim, params_json, l_train, l_target, method)
    figs = _figures(head_dim, params_json, l_train, l_target, method, model_name, ui.lang())
if view is None:
    st.stop()

m1, m2, m3, m4, m5 = st.columns(5)
m1.metric(ui.t("extrapolation.metric.s"), f"{view['s']:.4g}")
m2.metric(ui.t("extrapolation.metric.never"),
          ui.t("extrapolation.metric.never.value", n=view["n_long"], d=head_dim // 2))
m3.metric(ui.t("extrapolation.metric.ntk"), f"{view['ntk_base']:.4g}")
m4.metric(ui.t("extrapolation.metric.attn"), f"{view['curves'][method][1]:.4f}")
m5.metric(ui.t("extrapolation.metric.d"), str(head_dim))

# ---------------------------------------------------------------- what changes per pair
st.subheader(ui.t("extrapolation.ratio.title"))
st.markdown(ui.t("extrapolation.ratio.text"))
ui.plot(figs["ratio"], key="ext_ratio")
ui.explain([TEX["ratio"], TEX["llama3"]], scaling.rope_frequencies,
           scaling.band_of_ratio, note=ui.t("extrapolation.ratio.note"))

# ---------------------------------------------------------------- 1 wavelengths
st.subheader(ui.t("extrapolation.wave.title"))
st.markdown(ui.t("extrapolation.wave.text"))
ui.plot(figs["wave"], key="ext_wave")
ui.explain(TEX["wave"], scaling.wavelengths)

# ---------------------------------------------------------------- 2 phases
st.subheader(ui.t("extrapolation.phase.title"))
st.markdown(ui.t("extrapolation.phase.text"))
ui.plot(figs["phase"], key="ext_phase")
ui.explain(TEX["phase"], scaling.phase_coverage)

# ---------------------------------------------------------------- 3 spectra
st.subheader(ui.t("extrapolation.freq.title"))
st.markdown(ui.t("extrapolation.freq.text"))
ui.plot(figs["freq"], key="ext_freq")
ui.explain([TEX["pi"], TEX["ntk"], TEX["yarn"],
            TEX["llama3"]], scaling.rope_frequencies, scaling.ntk_aware_base,
           scaling.yarn_correction_range, scaling.yarn_ramp, scaling.method_parameters)

# ---------------------------------------------------------------- 4 decay
st.subheader(ui.t("extrapolation.decay.title"))
st.markdown(ui.t("extrapolation.decay.text"))
ui.plot(figs["decay"], key="ext_decay")
ui.explain(TEX["score"], scaling.rope_score, scaling.log_distances,
           note=ui.t("extrapolation.decay.note", n=1200))

# ---------------------------------------------------------------- why
st.subheader(ui.t("extrapolation.why.title"))
for part in ("angles", "pi", "ntk", "yarn", "llama3", "train", "eval", "deepseek"):
    st.markdown(ui.t(f"extrapolation.why.{part}"))
    if part == "eval":
        st.page_link("pages/length.py", label=ui.t("nav.length"), icon=":material/arrow_forward:")

# ---------------------------------------------------------------- paste + presets
if not pasted_shown:
    with st.expander(ui.t("extrapolation.paste.title"), icon=":material/content_paste:"):
        paste_section()
with st.expander(ui.t("extrapolation.presets.title"), icon=":material/table:"):
    st.caption(ui.t("extrapolation.presets.text"))
    rows = []
    for k in presets.KEYS:
        q = presets.preset(k)
        rp = q["rope_parameters"]
        rows.append({
            ui.t("extrapolation.presets.col.name"): q["name"],
            ui.t("extrapolation.presets.col.d"): q["head_dim"],
            ui.t("extrapolation.presets.col.theta"): f"{rp['rope_theta']:g}",
            ui.t("extrapolation.presets.col.scaling"): ", ".join(f"{a}={b}" for a, b in rp.items() if a != "rope_theta"),
            ui.t("extrapolation.presets.col.ltrain"): q["l_train"],
            ui.t("extrapolation.presets.col.source"): q["source"],
            ui.t("extrapolation.presets.col.checked"): ui.t(f"extrapolation.checked.{k}"),
        })
    st.dataframe(rows, hide_index=True, width="stretch")
