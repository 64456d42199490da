"""Long-term decay: RoFormer's bound, q = k, random and single pairs; ALiBi and sinusoidal alongside."""
import streamlit as st

from posviz import ui
from posviz.figures import decay as figs
from posviz.pe import decay
from posviz.views import decay as view

ui.header("decay")
st.warning(ui.t("decay.note"), icon=":material/lightbulb:")

c = st.columns([3, 2, 2, 1.3], vertical_alignment="bottom")
bases = ui.multiselect("decay_bases", view.BASES, [10000, 500000], col=c[0])
d = ui.slider("decay_d", 2, 512, 128, 2, col=c[1])
R = ui.select_slider("decay_R", view.R_OPTIONS, 1024, col=c[2])
log_x = ui.toggle("decay_logx", False, col=c[3])

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
    c = st.columns([2, 3, 2, 2], vertical_alignment="bottom")
    show_ones = ui.toggle("decay_ones", True, col=c[0])
    heads = ui.multiselect("decay_alibi", view.ALIBI_HEADS, [], placeholder=ui.t("decay.alibi_none"), col=c[1])
    show_sin = ui.toggle("decay_sin", False, col=c[2])
    sin_dim = ui.select_slider("decay_sin_dim", view.SIN_DIMS, 512, disabled=not show_sin, col=c[3])
    series = [(b, view.main_curves(d, R, log_x, b)) for b in bases]
    alibi = view.alibi_lines(R, log_x, tuple(sorted(heads))) if heads else None
    sinus = (sin_dim, view.SIN_BASE, view.sinusoidal_line(R, log_x, sin_dim)) if show_sin else None
    ui.plot(figs.curves_figure, r, series, alibi=alibi, sinusoidal=sinus, show_ones=show_ones, log_x=log_x,
            labels=ui.labels("decay.fig", "x", "bound", "ones", "ones_key", "alibi", "sin", y="decay.fig.main.y",
                             title=("decay.fig.main.title", {"d": d, "b0": view.summary(d, R, bases[0])["bound0"]})),
            key="decay_main")
    st.markdown(ui.t("decay.s1.read"))
    ui.explain(view.main_curves, decay.roformer_decay_bound_at, decay.rope_score_curve, decay.ones_score_curve,
               view.alibi_lines, view.sinusoidal_line, decay.sinusoidal_dot, note=ui.t("decay.explain.main"))
    st.caption(ui.t("decay.table"))
    col = ui.labels("decay.tab", "base", "bound0", "boundR", "ratio", "wave", "neg")
    rows = []
    for b in bases:
        s = view.summary(d, R, b)
        rows.append({col["base"]: f"{b:,}", col["bound0"]: round(s["bound0"], 4), col["boundR"]: round(s["boundR"], 4),
                     col["ratio"]: round(s["ratio"], 4), col["wave"]: round(s["wavelength_max"], 1),
                     col["neg"]: "—" if s["first_negative"] is None else str(s["first_negative"])})
    ui.table(rows)

    # ---------------------------------------------------------------- 2. random content
    st.subheader(ui.t("decay.s2.title"))
    st.markdown(ui.t("decay.s2.text"))
    c = st.columns([3, 3, 1, 2], vertical_alignment="bottom")
    rho = ui.slider("decay_rho", 0.0, 1.0, 1.0, 0.1, col=c[0])
    n = ui.slider("decay_n", 1, 256, 64, col=c[1])
    seed = ui.number("decay_seed", 0, 9999, 0, 1, col=c[2])
    show_example = ui.toggle("decay_example", True, col=c[3])
    rho = round(rho, 2)
    rand = [(b, view.random_curves(d, R, log_x, b, n, rho, int(seed))) for b in bases]
    ui.plot(figs.random_figure, r, rand, log_x=log_x, show_example=show_example, key="decay_random",
            labels=ui.labels("decay.fig", "x", "band", "band_hi", "mean", "expected", "example",
                             title=("decay.fig.random.title", {"rho": f"{rho:g}"}), y="decay.fig.random.y"))
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
            labels=ui.labels("decay.fig", "x", "pair", "mark", title=("decay.fig.pair.title", {"i": pair}),
                             y="decay.fig.pair.y"), key="decay_pair_fig")
    ui.explain(decay.pair_oscillation, note=ui.t("decay.explain.pair"))
