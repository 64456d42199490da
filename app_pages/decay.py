"""Long-term decay: RoFormer's bound, q = k, random and single pairs; ALiBi and sinusoidal alongside."""
import streamlit as st

from posviz import ui
from posviz.figures import decay as figs
from posviz.pe import decay
from posviz.views import decay as view


def lab(title, names, **fmt):
    """Labels of a decay figure: the title (formatted with fmt), the shared x axis, its y axis, and the
    trace-name templates `decay.fig.<name>` (the builder fills {base}, {h}, ... per curve)."""
    return {"title": ui.t(f"decay.fig.{title}.title", **fmt), "x": ui.t("decay.fig.x"),
            "y": ui.t(f"decay.fig.{title}.y"), **{n: ui.t(f"decay.fig.{n}") for n in names}}


ui.header("decay")
st.warning(ui.t("decay.note"), icon=":material/lightbulb:")

c1, c2, c3, c4 = st.columns([3, 2, 2, 1.3], vertical_alignment="bottom")
with c1:
    bases = ui.multiselect("decay_bases", view.BASES, [10000, 500000])
with c2:
    d = ui.slider("decay_d", 2, 512, 128, 2)
with c3:
    R = ui.select_slider("decay_R", view.R_OPTIONS, 1024)
with c4:
    log_x = ui.toggle("decay_logx", False)

if not bases:
    st.info(ui.t("decay.no_bases"))
    st.stop()
bases = sorted(bases)

with ui.guard():
    r = view.grid(R, log_x)
    if len(r) < R + 1:
        st.caption(ui.t("decay.grid", p=len(r), n=R + 1, R=R))

    # ---------------------------------------------------------------- 1. bound and q = k = 1
    st.subheader(ui.t("decay.s1.title"))
    st.markdown(ui.t("decay.s1.text"))
    k1, k2, k3, k4 = st.columns([2, 3, 2, 2], vertical_alignment="bottom")
    with k1:
        show_ones = ui.toggle("decay_ones", True)
    with k2:
        heads = ui.multiselect("decay_alibi", view.ALIBI_HEADS, [], placeholder=ui.t("decay.alibi_none"))
    with k3:
        show_sin = ui.toggle("decay_sin", False)
    with k4:
        sin_dim = ui.select_slider("decay_sin_dim", view.SIN_DIMS, 512, disabled=not show_sin)
    series = [(b, view.main_curves(d, R, log_x, b)) for b in bases]
    alibi = view.alibi_lines(R, log_x, tuple(sorted(heads))) if heads else None
    sinus = (sin_dim, view.SIN_BASE, view.sinusoidal_line(R, log_x, sin_dim)) if show_sin else None
    ui.plot(figs.curves_figure, r, series, alibi=alibi, sinusoidal=sinus, show_ones=show_ones, log_x=log_x,
            labels=lab("main", ("bound", "ones", "alibi", "sin"), d=d), key="decay_main")
    st.markdown(ui.t("decay.s1.read"))
    ui.explain(view.main_curves, decay.roformer_decay_bound_at, decay.rope_score_curve, decay.ones_score_curve,
               view.alibi_lines, view.sinusoidal_line, decay.sinusoidal_dot, note=ui.t("decay.explain.main"))
    st.caption(ui.t("decay.table"))
    rows = []
    for b in bases:
        s = view.summary(d, R, b)
        rows.append({ui.t("decay.tab.base"): f"{b:,}", ui.t("decay.tab.bound0"): round(s["bound0"], 4),
                     ui.t("decay.tab.boundR"): round(s["boundR"], 4), ui.t("decay.tab.ratio"): round(s["ratio"], 4),
                     ui.t("decay.tab.wave"): round(s["wavelength_max"], 1),
                     ui.t("decay.tab.neg"): "—" if s["first_negative"] is None else str(s["first_negative"])})
    ui.table(rows)

    # ---------------------------------------------------------------- 2. random content
    st.subheader(ui.t("decay.s2.title"))
    st.markdown(ui.t("decay.s2.text"))
    k1, k2, k3, k4 = st.columns([3, 3, 1, 2], vertical_alignment="bottom")
    with k1:
        rho = ui.slider("decay_rho", 0.0, 1.0, 1.0, 0.1)
    with k2:
        n = ui.slider("decay_n", 1, 256, 64)
    with k3:
        seed = ui.number("decay_seed", 0, 9999, 0, 1)
    with k4:
        show_example = ui.toggle("decay_example", True)
    rho = round(rho, 2)
    rand = [(b, view.random_curves(d, R, log_x, b, n, rho, int(seed))) for b in bases]
    ui.plot(figs.random_figure, r, rand, log_x=log_x, show_example=show_example, key="decay_random",
            labels=lab("random", ("band", "band_hi", "mean", "expected", "example"), rho=f"{rho:g}"))
    ui.explain(decay.random_score_band, decay.rope_score_curve, note=ui.t("decay.explain.random"))

    # ---------------------------------------------------------------- 3. one pair
    st.subheader(ui.t("decay.s3.title"))
    st.markdown(ui.t("decay.s3.text"))
    last = view.last_pair(d)
    if last > 0:
        if st.session_state.get("decay_pair", 0) > last:
            st.session_state["decay_pair"] = last
        pair = ui.slider("decay_pair", 0, last, min(16, last))
    else:
        pair = 0
    pairs = [(b, view.pair_curve(d, R, log_x, b, pair)) for b in bases]
    cols = st.columns(min(len(pairs), 4))
    for col, (b, p) in zip(cols * 2, pairs):
        col.metric(ui.t("decay.metric.cos3", i=pair, base=f"{b:,}"), f"{p['at3']:.4f}",
                   help=ui.t("decay.metric.cos3.help"))
    ui.plot(figs.pair_figure, r, pairs, pair=pair, log_x=log_x,
            labels=lab("pair", ("pair", "mark"), i=pair), key="decay_pair_fig")
    ui.explain(decay.pair_oscillation, note=ui.t("decay.explain.pair"))
