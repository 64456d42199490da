"""Length extrapolation: wavelengths, unseen phases, PI / NTK / dynamic / YaRN / Llama 3 / LongRoPE; gallery
presets; a pasted config.json with all it says (layer types, partial rotary, NoPE, softmax scale), checked live."""
import streamlit as st

from posviz import ui
from posviz.figures import extrapolation as fx
from posviz.figures import models as fm
from posviz.pe import models as gallery
from posviz.pe import rope_config, scaling
from posviz.views import extrapolation as view
from posviz.views import models as mview

PRESET_OPTIONS = gallery.KEYS + ("custom", "pasted")


def t(key, **fmt): return ui.t(f"extrapolation.{key}", **fmt)  # noqa: E704


def lab(*keys, **fmt):   # a figure's labels: text extrapolation.fig.<key> -> labels[last part of key]
    return {k.rsplit(".", 1)[-1]: t(f"fig.{k}", **fmt) for k in keys}


def type_name(key):
    base, _, long = key.partition(":")
    return (t(f"type.{base}") if base in view.LAYER_TYPES else base) + (t(f"type.{long}") if long else "")


def _on_preset():
    if (k := st.session_state.get("ext_preset")) in gallery.KEYS:
        st.session_state.update(ext_ltrain=mview.entry(k)["l_train"], ext_ltarget=mview.entry(k)["l_target"],
                                ext_method="model")


def model_section(m, name, config_text, l_train, l_target):
    """Everything the config says: summary, layer types, strip, notes, per-type curves, live check."""
    st.markdown(t("model.line", name=name, d=m["head_dim"], r=m["rotary_dim"], n=len(m["strip"]),
                  trained=f"{m['trained'] or 0:,}", longest=f"{m['max_length'] or 0:,}", layout=t(f"layout.{m['layout']}")))
    if "source" in m:
        st.caption(t("model.source", source=m["source"], released=m["released"], check=t(f"check.{m['check']}")))
    ui.table([{t(f"col.{c}"): type_name(x) if c == "type" else x for c, x in r.items()} for r in view.type_rows(m)])
    for code, v in (n for n in m["notes"] if n[0] in view.NOTE_CODES):
        st.caption(t(f"note.{code}", v=v))
    if len(set(m["strip"])) > 1:
        ui.plot(fm.layer_strip_figure, [m["strip"]], [name], key="ext_strip",
                labels={**{c: ui.t(f"models.strip.{c}") for c in mview.STRIP}, **lab("strip.title", "strip.x")})
    if view.has_layer_curves(m):   # computed only where drawn (several layer types, or LongRoPE's two sets)
        lc = view.layer_curves(view.curve_inputs(m), l_target)
        st.markdown(t("layers.text"))
        ui.plot(fx.frequencies_figure, [(k, type_name(k), inv) for k, inv, _ in lc["curves"]], key="ext_layers_freq",
                labels=lab("layers.title", "pair.x", "freq.y"))
        ui.plot(fx.decay_figure, lc["distances"], [(k, type_name(k), s) for k, _, s in lc["curves"]], l_train,
                l_target, key="ext_layers_decay", switch=lc["switch"],
                labels={**lab("layers_decay.title", "decay.x", "decay.y", "switch"), **lengths(l_train, l_target)})
        ui.explain(view.layer_curves, scaling.rope_frequencies, scaling.longrope_attention_factor)
    if m["temperature"]:
        p, tau = view.query_temperature(m["temperature"]["floor_scale"], m["temperature"]["attn_scale"], l_target)
        ui.plot(fx.temperature_figure, p, tau, key="ext_temperature", labels=lab("temp.title", "temp.x", "temp.y"))
        ui.explain(view.query_temperature)
    if m["softmax_scale"] != 1.0:
        ui.explain(scaling.deepseek_softmax_scale, note=t("softmax.note", v=f"{m['softmax_scale']:.4f}"))


def lengths(a, b): return {**lab("l_train", n=f"{a:,}"), **lab("l_target", n=f"{b:,}")}  # noqa: E704


def analysis_sections(d, params_json, l_train, l_target, method, name, sections):
    v = None
    with ui.guard():
        v = view.analysis(d, params_json, l_train, l_target, method)
    if v is None: return  # noqa: E701
    focus = name if method == "model" else ui.t(f"w.ext_method.{method}")
    shown = [k for k in scaling.SCALING_METHODS if k in v["curves"]] + ["model"]
    names = {k: name if k == "model" else ui.t(f"w.ext_method.{k}") for k in shown}
    for col, (k, val) in zip(st.columns(5), (("ratio_s", f"{v['s']:.4g}"), ("ntk", f"{v['ntk_base']:.3g}"),
                                             ("never", t("metric.never.value", n=v["n_long"], d=d // 2)),
                                             ("attn", f"{v['curves'][method][1]:.4f}"), ("d", str(d)))):
        col.metric(t(f"metric.{k}"), val)
    one_over = t("fig.one_over_factor" if method == "model" else "fig.one_over_s", f=f"{v['factor']:g}")
    ends = lengths(l_train, l_target)
    for sec, builder, args, kw, labels, fns in (
        ("ratio", fx.ratio_figure, (v["ratio"], v["bands"], v["factor"]), {},
         {**lab("ratio.title", "pair.x", "ratio.y", name=focus), "one_over": one_over,
          **{f"band{b}": t(f"fig.band{b}", n=n) for b, n in enumerate(v["band_counts"])}},
         (view.analysis, scaling.frequency_ratio, scaling.band_of_ratio)),
        ("wave", fx.wavelength_figure, (v["wavelengths"], l_train, l_target),
         {"scaled": None if method == "default" else v["wavelengths_selected"]},
         {**lab("wavelength.title", "pair.x", "wavelength.y", "turns", "never_turns", "scaled", name=focus), **ends},
         (scaling.pair_wavelengths,)),
        ("phase", fx.phase_figure, (v["seen"], v["needed"], v["never_seen"]), {},
         lab("phase.title", "pair.x", "phase.y", "seen", "needed_ok", "needed_new", n=int(v["never_seen"].sum()),
             d=int(v["seen"].size)), (scaling.phase_coverage,)),
        ("freq", fx.frequencies_figure, ([(k, names[k], v["curves"][k][0]) for k in shown],),
         {"yarn_range": v["yarn_range"], "llama3_edges": v["llama3_edges"], "sections": sections},
         lab("freq.title", "pair.x", "freq.y", "yarn_ramp"),
         (scaling.rope_frequencies, scaling.ntk_aware_base, scaling.yarn_correction_range, scaling.yarn_ramp,
          scaling.yarn_attention_factor, scaling.method_parameters)),
        ("decay", fx.decay_figure, (v["distances"], [(k, names[k], v["scores"][k]) for k in shown], l_train,
                                    l_target), {"shown": ("default", method, "model")},
         {**lab("decay.title", "decay.x", "decay.y"), **ends}, (scaling.ones_score, scaling.log_distances)),
    ):
        st.subheader(t(f"{sec}.title"))
        st.markdown(t(f"{sec}.text"))
        ui.plot(builder, *args, key=f"ext_{sec}", labels=labels, **kw)
        ui.explain(*fns, note=t(f"{sec}.note", n=1200) if sec in ("ratio", "decay") else None)


ui.header("extrapolation")
c1, c2, c3, c4 = st.columns([2.2, 2, 2, 1.6], vertical_alignment="bottom")
with c1: key = ui.select("ext_preset", PRESET_OPTIONS, view.FALLBACK, on_change=_on_preset)  # noqa: E701
with c2: l_train = ui.select_slider("ext_ltrain", gallery.LENGTHS, 8192)  # noqa: E701
with c3: l_target = ui.select_slider("ext_ltarget", gallery.LENGTHS, 131072)  # noqa: E701
with c4: method = ui.select("ext_method", ("model",) + scaling.SCALING_METHODS, "model")  # noqa: E701
if l_target <= l_train: st.info(t("warn.short"))  # noqa: E701

m = config_text = None
if key == "custom":
    k1, k2, _ = st.columns([2, 2, 3])
    with k1: d = ui.select_slider("ext_head_dim", view.HEAD_DIMS, 128)  # noqa: E701
    with k2: theta = ui.select_slider("ext_theta", view.THETAS, 10000.0)  # noqa: E701
    st.caption(t("custom.line", d=d, theta=float(theta)))
    analysis_sections(d, view.custom_params(theta), l_train, l_target, method, ui.t("w.ext_method.model"), None)
else:
    if key == "pasted":
        st.caption(t("paste.text"))
        config_text = st.text_area(ui.t("w.ext_paste"), value=mview.entry(view.FALLBACK)["config_json"], key="ext_paste",
                                   max_chars=rope_config.MAX_BYTES, height=230, bind="query-params")
        r = mview.read_pasted(config_text)
        if (m := r.get("model")) is None:   # user-derived text: shown as plain code, never as markdown
            (st.warning if r["boundary"] else st.error)(t("paste.unsupported") if r["boundary"] else ui.t("ui.invalid"))
            st.code(ui.t(f"err.{r['code']}", **r["params"])[:2000], language=None, wrap_lines=True)
            st.info(t("paste.nothing"))
    else:
        m = mview.entry(key)
        config_text = m["config_json"]
    if m is not None:
        name = m.get("name", t("model.pasted"))
        model_section(m, name, config_text, l_train, l_target)
        layer = ui.select("ext_layer", tuple(m["types"]), m["main"]) if len(m["types"]) > 1 else m["main"]
        d, params_json = view.spectrum_inputs(m, layer)
        analysis_sections(d, params_json, l_train, l_target, method, name,
                          [(a, b, t(f"mrope.{i}")) for a, b, i in view.mrope_sections(m["mrope_section"])])
        c = mview.transformers_check(config_text)   # the live line under the figures of this config
        st.caption(t("check.line" if "max_rel" in c else "check.failed", rel=f"{c.get('max_rel', 0):.1e}", **c))

st.subheader(t("why.title"))
for parts, link in ((("angles", "pi", "ntk", "yarn", "llama3", "longrope"), "models"), (("train", "eval"), "length"),
                    (("deepseek",), None)):   # one element per run of paragraphs, a link after each run
    st.markdown("\n\n".join(t(f"why.{part}") for part in parts))
    if link:
        st.page_link(f"app_pages/{link}.py", icon=":material/arrow_forward:", label=ui.t(f"nav.{link}"))
