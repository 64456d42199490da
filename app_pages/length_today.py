"""Today's RoPE, trained: NoPE/RoPE hybrids, partial and proportional RoPE, QK-norm, which frequencies a trained
RoPE model uses, PI / NTK / YaRN with and without a short fine-tune, learned-table variants and a positional
shortcut: five runs of each, read from the shipped results."""
import streamlit as st

from posviz import ui
from posviz.figures import length as figs
from posviz.tinylm import evaluate as lengtheval
from posviz.tinylm import frequencies, recipes, task
from posviz.tinylm import model as tinylm
from posviz.views import length as view

PAGE = "length_today"

ui.header(PAGE, say={k: ui.labels(**fields) for k, fields in view.scene_say(PAGE).items()})
info = view.shipped()
buckets, train_len, n_runs = info["buckets"], info["train_length"], len(info["seeds"])
names = ui.labels(**{v: f"lenf.name.{v}" for v in lengtheval.ALL_VARIANTS + lengtheval.SHORTCUT})
trained = ("length.trained", {"n": train_len - 1})


def pending(variants):
    """A note instead of a section whose runs are not in results.json yet -> True if it was shown."""
    missing = view.pending(tuple(variants))
    if missing:
        st.info(ui.t("lenf.pending_runs", names=ui.t("lenf.list_sep").join(names[v] for v in missing)))
    return bool(missing)


def bucket_chart(variants, *, key, title):
    """Accuracy per bucket of `variants`: the mean of the runs with their min-max band."""
    main = view.main_plot("acc", tuple(variants))
    ui.plot(figs.bucket_lines, buckets, main["series"], train_len, reference=main["reference"], y_range=main["y_range"],
            bands=main["bands"], key=key,
            labels=ui.labels(**{v: f"lenf.name.{v}" for v in variants}, title=title, x="length.x_bucket",
                             y="length.y_acc", subtitle=("length.fig_sub", {"n": n_runs}), train=trained,
                             reference="length.chance"))


def variants():
    """NoPE every 2nd / 4th layer, partial and proportional RoPE, QK-norm: which extrapolate, with the spread."""
    st.subheader(ui.t("lenf.variants_title"))
    st.markdown(ui.t("lenf.variants_intro"))
    shown = ui.multiselect("lenf_show", view.FRONTIER, view.FRONTIER)
    if pending(view.FRONTIER):
        return
    bucket_chart(shown, key="lenf_main", title="lenf.fig_variants")
    ui.explain(tinylm.rope_spectrum, tinylm.Attention.forward, note=ui.t("lenf.explain_variants"))
    cols = view.verdict_table(tuple(v for v in view.FRONTIER if v in shown))    # the variants on the chart
    head = ui.labels("lenf.col", "variant", "word", "first", "next", "last", "hold_to", "chance")
    with st.container(key="lenf_verdicts"):    # the numbers scenes 1 and 2 quote
        ui.table({head["variant"]: [names[v] for v in cols["variant"]],
                  head["word"]: [ui.t(f"lenf.word.{w}") for w in cols["word"]], head["first"]: cols["first"],
                  head["next"]: cols["next"], head["last"]: cols["last"],
                  head["hold_to"]: [max(h, 0) if h >= 0 else "—" for h in cols["hold_to"]],
                  head["chance"]: cols["chance"]}, static=True)
    groups = view.verdict_groups(view.FRONTIER)
    sep = ui.t("lenf.list_sep")
    st.markdown(ui.t("lenf.variants_read", **{w: sep.join(names[v] for v in vs) or "—" for w, vs in groups.items()}))


@ui.section
def frequency_use():
    """Per head, how much of the score each frequency pair carries, at offsets seen and unseen; the ablation."""
    st.subheader(ui.t("lenf.freq_title"))
    st.markdown(ui.t("lenf.freq_intro"))
    run = ui.select("lenf_run", tuple(info["seeds"]), info["seeds"][0])
    use = view.pair_use(run)
    c = ui.panels(2)
    for k, (col, region) in enumerate(zip(c, ("seen", "unseen"))):
        with col:
            ui.plot(figs.share_map, use["shares"][k], [f"{h} · Δ {o} · {w:.2f}" for h, o, w in
                                                        zip(use["heads"], use["diag_offset"], use["diag_weight"])],
                    use["wavelengths"], zmax=100, key=f"lenf_shares_{region}",
                    labels=ui.labels(title=f"lenf.share_{region}", subtitle=("lenf.share_sub", {"run": run}),
                                     x="lenf.share_x", y="lenf.share_y"))
    ui.explain(frequencies.pair_contributions, frequencies.pair_shares, frequencies.head_diagonals,
               note=ui.t("lenf.explain_shares"))
    s = view.frequency_summary()
    ab = s["ablation"]
    pairs = [f"{i}" for i in range(len(ab["mean"]))]
    groups = {b: ([r[k] for r in ab["mean"]], [r[k] for r in ab["lo"]], [r[k] for r in ab["hi"]])
              for k, b in enumerate(("b0", "b1"))}
    ui.plot(figs.ablation_bars, pairs, groups, base={"b0": ab["base"][0], "b1": ab["base"][1]}, key="lenf_ablation",
            labels=ui.labels(title="lenf.abl_title", subtitle=("lenf.abl_sub", {"n": n_runs}), x="lenf.abl_x",
                             y="lenf.abl_y", b0="lenf.abl_b0", b1="lenf.abl_b1"))
    ui.explain(lengtheval.rotation_ablation, note=ui.t("lenf.explain_ablation"))
    words = view.frequency_words()
    st.container(key="lenf_findings").markdown(ui.t("lenf.freq_finding", **words))
    st.markdown(ui.t("lenf.freq_lit", **words))


def scaling():
    """RoPE trained at 64, then PI / NTK-aware / YaRN at 256 (s = 4), with and without 300 steps of fine-tuning."""
    st.subheader(ui.t("lenf.scale_title"))
    st.markdown(ui.t("lenf.scale_intro", steps=recipes.FINE_TUNE["steps"], length=recipes.SCALE_LENGTH))
    shown = ui.multiselect("lenf_scale", view.SCALING, view.SCALING)
    if pending(view.SCALING):
        return
    bucket_chart(shown, key="lenf_scale_fig", title="lenf.fig_scale")
    ui.explain(lengtheval.rope_override, tinylm.rope_spectrum, note=ui.t("lenf.explain_scale"))
    st.container(key="lenf_scale_read").markdown(ui.t("lenf.scale_read", steps=recipes.FINE_TUNE["steps"],
                                                       **view.scaling_words()))


def lessons():
    """A learned table enlarged, clamped or wrapped; a positional shortcut, and the marker moved."""
    st.subheader(ui.t("lenf.table_title"))
    st.markdown(ui.t("lenf.table_intro", rows=lengtheval.GROW_ROWS))
    if not pending(view.TABLE):
        bucket_chart(view.TABLE, key="lenf_table", title="lenf.fig_table")
        ui.explain(tinylm.enlarge_table, note=ui.t("lenf.explain_table"))
        st.container(key="lenf_table_read").markdown(ui.t("lenf.table_read", **view.table_words()))
    st.subheader(ui.t("lenf.short_title"))
    st.markdown(ui.t("lenf.short_intro", at=recipes.MARKER_AT))
    if pending(view.SHORTCUT):
        return
    m = view.marker_curves(view.SHORTCUT)
    ui.plot(figs.marker_lines, m["positions"], m["series"], m["trained_at"], bands=m["bands"], chance=m["chance"],
            key="lenf_marker",
            labels=ui.labels(**{v: f"lenf.name.{v}" for v in view.SHORTCUT}, title="lenf.fig_short",
                             subtitle=("length.fig_sub", {"n": n_runs}), x="lenf.short_x", y="length.y_acc",
                             reference="lenf.short_chance", trained=("lenf.short_trained", {"at": recipes.MARKER_AT})))
    ui.explain(task.make_marker_batch, lengtheval.marker_accuracy, note=ui.t("lenf.explain_short"))
    st.container(key="lenf_short_read").markdown(ui.t("lenf.short_read", **view.shortcut_words()))


variants()
frequency_use()
scaling()
lessons()
st.caption(ui.t("lenf.provenance", **info["provenance"]))
