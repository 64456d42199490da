"""Length extrapolation: wavelengths, unseen phases, PI / NTK / dynamic / YaRN / Llama 3 / LongRoPE; gallery
presets; a pasted config.json with all it says (layer types, windows, partial / proportional rotary, M-RoPE,
NoPE, softmax scale), analysed at its own lengths and checked live."""
import streamlit as st

from posviz import ui
from posviz.figures import extrapolation as fx
from posviz.figures import models as fm
from posviz.pe import models as gallery
from posviz.pe import rope_config, scaling
from posviz.views import extrapolation as view
from posviz.views import models as mview

PRESET_OPTIONS = gallery.KEYS + ("custom", "pasted")
PAIR_X = "extrapolation.fig.pair.x"      # the text key of the pair axis every spectrum shares


def type_name(key):
    """A layer type in the user's language ("full_attention", "full_attention:long": LongRoPE's long set)."""
    base, _, long = key.partition(":")
    name = ui.t(f"extrapolation.type.{base}") if base in view.LAYER_TYPES else base
    return name + (ui.t(f"extrapolation.type.{long}") if long else "")


def lengths(l_train, l_target):
    """The text keys (with their fields) of a figure's two length marks, for ui.labels."""
    return {"l_train": ("extrapolation.fig.l_train", {"n": f"{l_train:,}"}),
            "l_target": ("extrapolation.fig.l_target", {"n": f"{l_target:,}"})}


def _on_paste():
    """A config pasted (or the paste box chosen): analysed at its own lengths, as a gallery model is."""
    own = mview.paste_lengths(st.session_state.get("ext_paste", mview.entry(view.FALLBACK)["config_json"]))
    if own:
        st.session_state.update(ext_ltrain=own[0], ext_ltarget=own[1], ext_method="model")


def _on_preset():
    """A model chosen from the list, or the paste box: the length sliders go to the model's own lengths."""
    if (k := st.session_state.get("ext_preset")) in gallery.KEYS:
        st.session_state.update(ext_ltrain=mview.entry(k)["l_train"], ext_ltarget=mview.entry(k)["l_target"],
                                ext_method="model")
    elif k == "pasted":
        _on_paste()


def layer_curves(m, l_train, l_target):
    """The frequencies and the decay of each layer type (or of LongRoPE's short and long factors)."""
    lc = view.layer_curves(view.curve_inputs(m), l_target)
    st.markdown(ui.t("extrapolation.layers.text"))
    ui.plot(fx.frequencies_figure, [(k, type_name(k), inv) for k, inv, _ in lc["curves"]], key="ext_layers_freq",
            labels=ui.labels(title="extrapolation.fig.layers.title", x=PAIR_X, y="extrapolation.fig.freq.y"))
    ui.plot(fx.decay_figure, lc["distances"], [(k, type_name(k), s) for k, _, s in lc["curves"]], l_train,
            l_target, key="ext_layers_decay", switch=lc["switch"],
            labels=ui.labels("extrapolation.fig", "switch", title="extrapolation.fig.layers_decay.title",
                             x="extrapolation.fig.decay.x", y="extrapolation.fig.decay.y",
                             **lengths(l_train, l_target)))
    ui.explain(view.layer_curves, scaling.rope_frequencies, scaling.longrope_attention_factor)


def model_notes(m):
    """The reading's notes, what each window means for the phases met, the rows M-RoPE's pairs follow."""
    for code, v in (n for n in m["notes"] if n[0] in view.NOTE_CODES):
        st.caption(ui.t(f"extrapolation.note.{code}", v=v))
    for w in view.window_phases(view.window_inputs(m)):   # what a window means for the distances and phases met
        st.caption(ui.t("extrapolation.window.line", kind=ui.t(f"extrapolation.window.kind.{w['type']}"),
                        layers=w["layers"], w=f"{w['window']:,}", w1=f"{w['window'] - 1:,}", turn=w["turn"],
                        pairs=w["pairs"], slow=f"{w['slowest']:.2g}"))
    if m["mrope_scheme"] in ("interleaved", "hw_t"):
        st.caption(ui.t("extrapolation.mrope.axes", **dict(zip("thw", view.mrope_axis_pairs(m["mrope_axes"])))))
    for pairs, a, b in view.mrope_half_rows(m["mrope_rows"]):
        st.caption(ui.t("extrapolation.mrope.halves", pairs=pairs, a=a, b=b))


def model_section(m, name, l_train, l_target):
    """Everything the config says, held to the model's code: summary, what posviz could not follow, layer types,
    notes, M-RoPE rows, strip, per-type curves, query scaling."""
    widths = ui.t("extrapolation.model.width.sep").join(
        ui.t("extrapolation.model.width", type=type_name(k), d=d, r=r) for k, d, r in view.header_widths(m))
    widths = widths or ui.t("extrapolation.model.width.none", d=m["head_dim"])
    st.markdown(ui.t("extrapolation.model.line", name=name, widths=widths, n=len(m["strip"]),
                     trained=f"{m['trained'] or 0:,}", longest=f"{m['max_length'] or 0:,}",
                     pairs=ui.t(f"extrapolation.layout.{m['layout']}") if m["types"] else "—"))
    if "source" in m:
        st.caption(ui.t("extrapolation.model.source", source=m["source"], released=m["released"],
                        check=ui.t(f"extrapolation.check.{m['check']}")))
    if m["unverified"]:   # what the model's code does that posviz's formulas do not reproduce: said, not drawn
        st.warning("\n".join([ui.t("extrapolation.unverified.title")] + [
            "- " + ui.t(f"extrapolation.unverified.{code}", v=v) for code, v in m["unverified"]]))
    if m["no_rope"]:
        st.info(ui.t(f"extrapolation.no_rope.{m['no_rope']}"))
    col = ui.labels("extrapolation.col", "type", "layers", "rope_type", "theta", "factor", "rotary", "attention",
                    "window")
    if m["types"]:
        ui.table([{col[c]: type_name(x) if c == "type" else x for c, x in r.items()} for r in view.type_rows(m)])
    model_notes(m)
    if len(set(m["strip"])) > 1 or any(m["windows"]) or any(m["marks"]):
        ui.plot(fm.layer_strip_figure, [m["strip"]], [name], key="ext_strip", marks=[m["marks"]],
                windows=[m["windows"]], labels=ui.labels("models.strip", *mview.STRIP, *mview.MARKS, "window",
                                                         title="extrapolation.fig.strip.title",
                                                         x="extrapolation.fig.strip.x"))
    if view.has_layer_curves(m):   # computed only where drawn (several layer types, or LongRoPE's two sets)
        layer_curves(m, l_train, l_target)
    if q := m["query_scaling"]:
        p, tau = view.query_curve(q["kind"], q["params_json"], l_target)
        ui.plot(fx.temperature_figure, p, tau, key="ext_temperature",
                labels=ui.labels("extrapolation.fig.temp", "x", "y", title=f"extrapolation.fig.temp.{q['kind']}"))
        ui.explain(scaling.query_scale)
    if m["softmax_scale"] != 1.0:
        st.caption(ui.t("extrapolation.softmax.note", v=f"{m['softmax_scale']:.4f}"))


def figure_section(sec, builder, *args, labels, explain, note=False, **kw):
    """One figure of the analysis: its title and text (extrapolation.<sec>.*), the figure, its formulas."""
    st.subheader(ui.t(f"extrapolation.{sec}.title"))
    st.markdown(ui.t(f"extrapolation.{sec}.text"))
    ui.plot(builder, *args, key=f"ext_{sec}", labels=labels, **kw)
    ui.explain(*explain, note=ui.t(f"extrapolation.{sec}.note", n=1200) if note else None)


def analysis_sections(d, params_json, l_train, l_target, method, name, sections):
    """The metrics and the five figures of one rotary spectrum under the method in focus."""
    v = None
    with ui.guard():
        v = view.analysis(d, params_json, l_train, l_target, method)
    if v is None:
        return
    focus = name if method == "model" else ui.t(f"w.ext_method.{method}")
    shown = [k for k in scaling.SCALING_METHODS if k in v["curves"]] + ["model"]
    names = {k: name if k == "model" else ui.t(f"w.ext_method.{k}") for k in shown}
    c = st.columns(5)
    c[0].metric(ui.t("extrapolation.metric.ratio_s"), f"{v['s']:.4g}")
    c[1].metric(ui.t("extrapolation.metric.ntk"), f"{v['ntk_base']:.3g}")
    c[2].metric(ui.t("extrapolation.metric.never"), ui.t("extrapolation.metric.never.value", n=v["n_long"], d=d // 2))
    c[3].metric(ui.t("extrapolation.metric.attn"), f"{v['curves'][method][1]:.4f}")
    c[4].metric(ui.t("extrapolation.metric.d"), str(d))
    one_over = "extrapolation.fig.one_over_factor" if method == "model" else "extrapolation.fig.one_over_s"
    bands = {f"band{b}": (f"extrapolation.fig.band{b}", {"n": n}) for b, n in enumerate(v["band_counts"])}
    figure_section("ratio", fx.ratio_figure, v["ratio"], v["bands"], v["factor"], note=True,
                   labels=ui.labels(title=("extrapolation.fig.ratio.title", {"name": focus}), x=PAIR_X,
                                    y="extrapolation.fig.ratio.y", one_over=(one_over, {"f": f"{v['factor']:g}"}),
                                    **bands),
                   explain=(view.analysis, scaling.frequency_ratio, scaling.band_of_ratio))
    figure_section("wave", fx.wavelength_figure, v["wavelengths"], l_train, l_target,
                   scaled=None if method == "default" else v["wavelengths_selected"],
                   labels=ui.labels("extrapolation.fig", "turns", "never_turns", x=PAIR_X,
                                    title="extrapolation.fig.wavelength.title", y="extrapolation.fig.wavelength.y",
                                    scaled=("extrapolation.fig.scaled", {"name": focus}), **lengths(l_train, l_target)),
                   explain=(scaling.pair_wavelengths,))
    figure_section("phase", fx.phase_figure, v["seen"], v["needed"], v["never_seen"],
                   labels=ui.labels("extrapolation.fig", "seen", "needed_ok", "needed_new", x=PAIR_X,
                                    y="extrapolation.fig.phase.y", title=("extrapolation.fig.phase.title", {
                                        "n": int(v["never_seen"].sum()), "d": int(v["seen"].size)})),
                   explain=(scaling.phase_coverage,))
    figure_section("freq", fx.frequencies_figure, [(k, names[k], v["curves"][k][0]) for k in shown],
                   yarn_range=v["yarn_range"], llama3_edges=v["llama3_edges"], sections=sections,
                   labels=ui.labels("extrapolation.fig", "yarn_ramp", title="extrapolation.fig.freq.title", x=PAIR_X,
                                    y="extrapolation.fig.freq.y"),
                   explain=(scaling.rope_frequencies, scaling.ntk_aware_base, scaling.yarn_correction_range,
                            scaling.yarn_ramp, scaling.yarn_attention_factor, scaling.method_parameters))
    figure_section("decay", fx.decay_figure, v["distances"], [(k, names[k], v["scores"][k]) for k in shown], l_train,
                   l_target, shown=("default", method, "model"), note=True,
                   labels=ui.labels("extrapolation.fig.decay", "title", "x", "y", **lengths(l_train, l_target)),
                   explain=(scaling.ones_score, scaling.log_distances))


def pasted_model():
    """The paste box and what it reads (None, with the reason shown, when it reads no model)."""
    st.caption(ui.t("extrapolation.paste.text"))
    config_text, lost = ui.paste_box("ext_paste", mview.entry(view.FALLBACK)["config_json"], rope_config.MAX_BYTES,
                                     on_change=_on_paste)
    return ui.paste_reading(mview.read_pasted(config_text), lost), config_text


ui.header("extrapolation")
c = st.columns([2.2, 2, 2, 1.6], vertical_alignment="bottom")
key = ui.select("ext_preset", PRESET_OPTIONS, view.FALLBACK, on_change=_on_preset, col=c[0])
l_train = ui.select_slider("ext_ltrain", gallery.LENGTHS, 8192, col=c[1])
l_target = ui.select_slider("ext_ltarget", gallery.LENGTHS, 131072, col=c[2])
method = ui.select("ext_method", ("model",) + scaling.SCALING_METHODS, "model", col=c[3])
if l_target <= l_train:
    st.info(ui.t("extrapolation.warn.short"))

if key == "custom":
    c = st.columns([2, 2, 3])
    d = ui.select_slider("ext_head_dim", view.HEAD_DIMS, 128, col=c[0])
    theta = ui.select_slider("ext_theta", view.THETAS, 10000.0, col=c[1])
    st.caption(ui.t("extrapolation.custom.line", d=d, theta=float(theta)))
    analysis_sections(d, view.custom_params(theta), l_train, l_target, method, ui.t("w.ext_method.model"), None)
else:
    m, config_text = pasted_model() if key == "pasted" else (mview.entry(key), mview.entry(key)["config_json"])
    if m is not None:
        name = m.get("name", ui.t("extrapolation.model.pasted"))
        model_section(m, name, l_train, l_target)
    if m is not None and m["main"]:   # a model without RoPE has no spectrum to analyse
        layer = ui.select("ext_layer", tuple(m["types"]), m["main"]) if len(m["types"]) > 1 else m["main"]
        d, params_json = view.spectrum_inputs(m, layer)
        if (prop := view.proportional_equivalent(m, layer)) is not None:
            st.caption(ui.t("extrapolation.proportional.line", k=prop[0], d=prop[1], b=f"{prop[2]:.4g}"))
        sections = [(a, b, ui.t(f"extrapolation.mrope.{i}"))
                    for a, b, i in view.mrope_sections(m["mrope_section"], m["mrope_scheme"])]
        analysis_sections(d, params_json, l_train, l_target, method, name, sections)
    if m is not None:
        check = mview.transformers_check(config_text)   # the live line under the figures of this config
        st.caption(ui.t("extrapolation.check.none" if check.get("none") else "extrapolation.check.line"
                        if "max_rel" in check else "extrapolation.check.failed",
                        rel=f"{check.get('max_rel', 0):.1e}", **check))

st.subheader(ui.t("extrapolation.why.title"))
for parts, link in ((("angles", "pi", "ntk", "yarn", "llama3", "longrope"), "models"), (("train", "eval"), "length"),
                    (("deepseek",), None)):   # one element per run of paragraphs, a link after each run
    st.markdown("\n\n".join(ui.t(f"extrapolation.why.{part}") for part in parts))
    if link:
        st.page_link(f"app_pages/{link}.py", icon=":material/arrow_forward:", label=ui.t(f"nav.{link}"))
