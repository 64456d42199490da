"""Real models side by side: every RoPE setting of the gallery (published config.json files, read as
transformers reads them), each model's layers as RoPE / local / global / NoPE, and two or more
models' wavelengths and decay on one axis against their trained and maximum lengths."""
import streamlit as st

from posviz import ui
from posviz.figures import models as fm
from posviz.pe import models as gallery
from posviz.pe import rope_config, scaling
from posviz.views import models as view

STRIP_LABELS = (*view.STRIP, *view.MARKS, "window")


def strip_plot(rows, key, **labels):
    """Layer strips (views.models.strips): category colours, ● / ◇ marks, windows on hover."""
    ui.plot(fm.layer_strip_figure, rows["strips"], rows["names"], key=key, marks=rows["marks"],
            windows=rows["windows"], labels=ui.labels("models.strip", *STRIP_LABELS, **labels))


def diff_value(setting, value):
    """A difference table's cell in the page's language (pairing and layer names are words)."""
    if setting == "layers":
        layers = ui.labels("models.strip", *view.STRIP)
        return " · ".join(f"{n} {layers[c]}" for c, n in value.items())
    if setting == "layout" and value != "—":
        return ui.t(f"extrapolation.layout.{value}")
    return value


def differences_table(diff):
    """The settings in which the chosen models differ, one column per model; the settings they share, named."""
    st.subheader(ui.t("models.diff.title"))
    names = ui.labels("models.diff", *view.DIFF)
    if not diff["rows"]:
        st.markdown(ui.t("models.diff.none"))
        return
    ui.table([{ui.t("models.diff.setting"): names[r["setting"]],
               **{n: diff_value(r["setting"], v) for n, v in zip(diff["names"], r["values"])}} for r in diff["rows"]])
    if diff["same"]:
        st.caption(ui.t("models.diff.same", names=ui.t("models.diff.sep").join(names[s] for s in diff["same"])))


@ui.section
def proportional_section():
    """Proportional vs partial rotary: the same head and factor read both ways, side by side."""
    st.markdown(ui.t("models.prop.text"))
    c = st.columns(4)
    dim = ui.select_slider("models_prop_d", view.PROP_DIMS, 512, col=c[0])
    frac = ui.select_slider("models_prop_p", view.PROP_FACTORS, 0.25, col=c[1])
    base = ui.select_slider("models_prop_base", view.PROP_BASES, 1000000, col=c[2])
    l_train = ui.select_slider("models_prop_ltrain", gallery.LENGTHS, 131072, col=c[3])
    pv = view.proportional_vs_partial(dim, frac, base, l_train)
    names, short = ui.labels("models.prop", *view.READINGS), ui.labels("models.prop.short", *view.READINGS)
    m = st.container(key="models_prop_metrics").columns(4)    # the numbers the proportional scene quotes
    for i, r in enumerate(view.READINGS):
        m[i].metric(ui.t("models.prop.metric.slowest", reading=short[r]),           # θ and its wavelength
                    f"{pv[r]['slowest']:.3g} (λ {pv[r]['longest']:,.0f})")
        m[2 + i].metric(ui.t("models.prop.metric.never", reading=short[r]),
                        ui.t("models.prop.metric.never.value", n=pv[r]["never"], k=pv["k"]))
    ui.plot(fm.rotated_dims_figure, [pv[r]["mask"] for r in view.READINGS], [names[r] for r in view.READINGS],
            key="models_prop_dims", labels=ui.labels("models.prop", "rotated", "still",
                                                     title="models.fig.prop_dims.title", x="models.fig.prop_dims.x"))
    ui.plot(fm.wavelength_compare_figure, [{**pv[r], "name": names[r], "trained": l_train, "max_length": None}
                                           for r in view.READINGS], key="models_prop_wave",
            labels=ui.labels("models.fig.wave", "y", "trained", "max", title="models.fig.prop_wave.title",
                             x="models.fig.prop_wave.x"))
    ui.plot(fm.decay_compare_figure, pv["distances"], [(names[r], pv[r]["score"], None) for r in view.READINGS],
            key="models_prop_decay",
            labels=ui.labels("models.fig.decay", "x", "y", title="models.fig.prop_decay.title"))
    ui.explain(scaling.proportional_inv_freq, scaling.partial_inv_freq, scaling.rotated_dims,
               view.proportional_vs_partial)
    st.markdown(ui.t("models.prop.why"))


ui.header("models")
strip_names = ui.labels("models.strip", *STRIP_LABELS)   # looked up once per run, not once per cell
col = ui.labels("models.col", "name", "released", "head_dim", "rotary", "theta", "scaling", "lengths", "pattern",
                "softmax", "source")

# ---------------------------------------------------------------- the table
st.subheader(ui.t("models.table.title"))
st.markdown(ui.t("models.table.text", n=len(gallery.KEYS)))
order = ui.select("models_sort", view.SORT_KEYS, "released")
rows = view.table_rows(order)
source = "repo" if ui.present() else "source"   # lecture mode: a plain table, the repo name instead of the address
ui.table([{col["name"]: r["name"], col["released"]: r["released"], col["head_dim"]: r["head_dim"],
           col["rotary"]: f"{r['rotary_dim']}" + (" ◇" if r["proportional"] else ""), col["theta"]: r["theta"],
           col["scaling"]: r["scaling"] + (f" ×{r['factor']:g}" if r["factor"] else ""),
           col["lengths"]: f"{r['trained']:,} → {r['max_length']:,}",
           col["pattern"]: " · ".join(f"{n} {strip_names[c]}" for c, n in r["pattern"].items())
           + "".join(f" · {strip_names['window'].format(w=f'{w:,}')}" for w in r["windows"]),
           col["softmax"]: f"{r['softmax']:.4f}", col["source"]: r[source]} for r in rows],
         column_config={col["source"]: st.column_config.LinkColumn(
             col["source"], display_text=r"https://huggingface\.co/([^/ ]+/[^/ ]+).*")})
ui.explain(rope_config.read_model_rope, view.describe, note=ui.t("models.table.note"))

# ---------------------------------------------------------------- pick and compare
st.subheader(ui.t("models.pick.title"))
picked = ui.multiselect("models_pick", gallery.KEYS, view.DEFAULT_PICK, max_selections=6)
own = ()   # ((config text, name), ...): the pasted configs that read a model join the comparison
if ui.toggle("models_own"):
    st.caption(ui.t("models.own.text"))
    boxes = st.columns(len(view.OWN_KEYS))
    for i, key in enumerate(view.OWN_KEYS):
        with boxes[i]:
            own_text, lost = ui.paste_box(key, "", rope_config.MAX_BYTES, height=160)
            if own_text.strip() and ui.paste_reading(view.read_pasted(own_text), lost) is not None:
                own += ((own_text, ui.t("models.own.name", n=i + 1)),)
if len(picked) + len(own) < 2:
    st.info(ui.t("models.pick.fewer"))
else:
    keys = tuple(picked)
    entries = view.chosen(keys, own)
    differences_table(view.differences(keys, own))
    st.markdown(ui.t("models.strip.text"))
    strip_plot(view.strips(keys, own), key="models_strip", title="models.strip.title", x="models.strip.x")
    ui.explain(view.layer_strip, view.layer_marks)
    cmp = view.compare(keys, own=own)
    if len(cmp["models"]) < len(keys):   # a model without RoPE has no spectrum to draw
        st.caption(ui.t("models.wave.skipped", names=", ".join(e["name"] for e in entries if not e["main"])))
    st.subheader(ui.t("models.wave.title"))
    st.markdown(ui.t("models.wave.text"))
    named = [{**m, "name": ui.t("models.wave.name", name=m["name"], trained=f"{m['trained']:,}",
                                longest=f"{m['max_length']:,}")} for m in cmp["models"]]
    ui.plot(fm.wavelength_compare_figure, named, key="models_wave",
            labels=ui.labels("models.fig.wave", "title", "x", "y", "trained", "max"))
    ui.explain(scaling.pair_wavelengths, scaling.rope_frequencies)
    st.subheader(ui.t("models.decay.title"))
    st.markdown(ui.t("models.decay.text"))
    curves = [(m["name"], m["score"], m["max_length"]) for m in cmp["models"]]
    ui.plot(fm.decay_compare_figure, cmp["distances"], curves, key="models_decay",
            labels=ui.labels("models.fig.decay", "title", "x", "y"))
    ui.explain(view.compare, scaling.ones_score, note=ui.t("models.decay.note"))
    st.subheader(ui.t("models.check.title"))
    checks = [(e, view.transformers_check(e["config_json"])) for e in entries]
    head = ui.labels("models.check", "version", "rel")
    ui.table([{col["name"]: e["name"], head["version"]: c["version"],
               head["rel"]: f"{c['max_rel']:.1e}" if "max_rel" in c else ui.t("models.check.none") if c.get("none")
               else c["error"]} for e, c in checks])
    st.caption(ui.t("models.check.text"))

with ui.more("models_all", icon=":material/view_week:") as box:   # a deep dive: closed, its body does not run
    if box.open:
        strip_plot(view.all_strips(), key="models_strip_all", x="models.strip.x", title="models.all.title")
with ui.more("models_prop", icon=":material/compare:") as box:   # a deep dive: proportional vs partial rotary
    if box.open:
        proportional_section()
st.page_link("app_pages/extrapolation.py", label=ui.t("nav.extrapolation"), icon=":material/arrow_forward:")
