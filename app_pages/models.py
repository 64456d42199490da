"""Real models side by side: every RoPE setting of the gallery (published config.json files, read as
transformers reads them), each model's layers as RoPE / local / global / NoPE, and two or more
models' wavelengths and decay on one axis against their trained and maximum lengths."""
import streamlit as st

from posviz import ui
from posviz.figures import models as fm
from posviz.pe import models as gallery
from posviz.pe import rope_config, scaling
from posviz.views import models as view

ui.header("models")
strip_names = ui.labels("models.strip", *view.STRIP)      # looked up once per run, not once per cell
col = ui.labels("models.col", "name", "released", "head_dim", "rotary", "theta", "scaling", "lengths", "pattern",
                "softmax", "source")

# ---------------------------------------------------------------- the table
st.subheader(ui.t("models.table.title"))
st.markdown(ui.t("models.table.text", n=len(gallery.KEYS)))
order = ui.select("models_sort", view.SORT_KEYS, "released")
rows = view.table_rows(order)
source = "repo" if ui.present() else "source"   # lecture mode: a plain table, the repo name instead of the address
ui.table([{col["name"]: r["name"], col["released"]: r["released"], col["head_dim"]: r["head_dim"],
           col["rotary"]: r["rotary_dim"], col["theta"]: r["theta"],
           col["scaling"]: r["scaling"] + (f" ×{r['factor']:g}" if r["factor"] else ""),
           col["lengths"]: f"{r['trained']:,} → {r['max_length']:,}",
           col["pattern"]: " · ".join(f"{n} {strip_names[c]}" for c, n in r["pattern"].items()),
           col["softmax"]: f"{r['softmax']:.4f}", col["source"]: r[source]} for r in rows],
         column_config={col["source"]: st.column_config.LinkColumn(
             col["source"], display_text=r"https://huggingface\.co/([^/ ]+/[^/ ]+).*")})
ui.explain(rope_config.read_model_rope, view.describe, note=ui.t("models.table.note"))

# ---------------------------------------------------------------- pick and compare
st.subheader(ui.t("models.pick.title"))
picked = ui.multiselect("models_pick", gallery.KEYS, view.DEFAULT_PICK, max_selections=6)
if len(picked) < 2:
    st.info(ui.t("models.pick.fewer"))
else:
    keys = tuple(picked)
    entries = [view.entry(k) for k in keys]
    st.markdown(ui.t("models.strip.text"))
    ui.plot(fm.layer_strip_figure, [e["strip"] for e in entries], [e["name"] for e in entries], key="models_strip",
            labels=ui.labels("models.strip", *view.STRIP, "title", "x"))
    ui.explain(view.layer_strip)
    cmp = view.compare(keys)
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
               head["rel"]: f"{c['max_rel']:.1e}" if "max_rel" in c else c["error"]} for e, c in checks])
    st.caption(ui.t("models.check.text"))

with ui.more("models_all", icon=":material/view_week:") as box:   # a deep dive: closed, its body does not run
    if box.open:
        everyone = view.all_strips()
        ui.plot(fm.layer_strip_figure, everyone["strips"], everyone["names"], key="models_strip_all",
                labels=ui.labels("models.strip", *view.STRIP, "x", title="models.all.title"))
st.page_link("app_pages/extrapolation.py", label=ui.t("nav.extrapolation"), icon=":material/arrow_forward:")
