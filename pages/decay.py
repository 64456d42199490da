"""Long-term decay: RoFormer's bound, q = k, random and single pairs; ALiBi and sinusoidal alongside."""
import streamlit as st

from posviz import ui
from posviz.pe import decay
from posviz.figures import decay as fig_decay
from posviz.text.decay import ALIBI_HEADS, BASES, R_OPTIONS, SIN_DIMS, TEX

POINTS = 1025


@ui.cache
def _grid(R, log):
    return decay.distance_grid(R, points=POINTS, log=log).numpy()


@ui.cache
def _curves(d, R, log, base):
    r = decay.distance_grid(R, points=POINTS, log=log)
    return (decay.roformer_decay_bound_at(d, r, base=base).numpy(),
            decay.ones_score_curve(d, r, base=base).numpy())


@ui.cache
def _summary(d, R, base):
    return decay.decay_summary(d, R, base=base)


@ui.cache
def _alibi(R, log, heads):
    r = decay.distance_grid(R, points=POINTS, log=log)
    slopes = decay.alibi_slopes(8).tolist()
    return [(h, slopes[h - 1], pen) for h, pen in zip(heads, decay.alibi_penalty(r, heads).numpy())]


@ui.cache
def _sin(R, log, dim):
    return decay.sinusoidal_dot(dim, decay.distance_grid(R, points=POINTS, log=log)).numpy()


@ui.cache
def _random(d, R, log, base, n, rho, seed):
    r = decay.distance_grid(R, points=POINTS, log=log)
    band = decay.random_score_band(d, r, base=base, n_samples=n, correlation=rho, seed=seed)
    expected = decay.random_score_expectation(d, r, base=base, correlation=rho)
    return band.mean.numpy(), band.std.numpy(), band.example.numpy(), expected.numpy()


@ui.cache
def _pair(d, R, log, base, pair):
    r = decay.distance_grid(R, points=POINTS, log=log)
    theta = float(decay.rope_inv_freq(d, base)[pair])
    seed_value = float(decay.pair_oscillation(d, [3], pair, base=base)[0])
    return theta, decay.pair_oscillation(d, r, pair, base=base).numpy(), seed_value


ui.header("decay")
st.warning(ui.t("decay.note"), icon=":material/lightbulb:")

c1, c2, c3, c4 = st.columns([3, 2, 2, 1.3], vertical_alignment="bottom")
with c1:
    bases = ui.multiselect("decay_bases", BASES, [10000, 500000])
with c2:
    d = ui.slider("decay_d", 2, 512, 128, 2)
with c3:
    R = ui.select_slider("decay_R", R_OPTIONS, 1024)
with c4:
    log_x = ui.toggle("decay_logx", False)

if not bases:
    st.info(ui.t("decay.no_bases"))
    st.stop()
bases = sorted(bases)

with ui.guard():
    r = _grid(R, log_x)
    if len(r) < R + 1:
        st.caption(ui.t("decay.grid", p=len(r), n=R + 1, R=R))

    # ---------------------------------------------------------------- 1. bound and q = k = 1
    st.subheader(ui.t("decay.s1.title"))
    st.markdown(ui.t("decay.s1.text"))
    k1, k2, k3, k4 = st.columns([2, 3, 2, 2], vertical_alignment="bottom")
    with k1:
        show_ones = ui.toggle("decay_ones", True)
    with k2:
        heads = ui.multiselect("decay_alibi", ALIBI_HEADS, [], placeholder=ui.t("decay.alibi_none"))
    with k3:
        show_sin = ui.toggle("decay_sin", False)
    with k4:
        sin_dim = ui.select_slider("decay_sin_dim", SIN_DIMS, 512, disabled=not show_sin)
    series = [(b, *_curves(d, R, log_x, b)) for b in bases]
    alibi = _alibi(R, log_x, tuple(sorted(heads))) if heads else None
    sinus = (sin_dim, 10000, _sin(R, log_x, sin_dim)) if show_sin else None
    ui.plot(fig_decay.decay_figure(r, d, series, alibi=alibi, sinusoidal=sinus, show_ones=show_ones,
                                   log_x=log_x, t=ui.t), key="decay_main")
    st.markdown(ui.t("decay.s1.read"))
    ui.explain([TEX["decay.tex.bound"], TEX["decay.tex.ones"], TEX["decay.tex.alibi"], TEX["decay.tex.sin"]],
               decay.roformer_decay_bound_at, decay.rope_score_curve, decay.alibi_penalty, decay.sinusoidal_dot,
               note=ui.t("decay.explain.main"))
    st.caption(ui.t("decay.table"))
    rows = []
    for b in bases:
        s = _summary(d, R, b)
        rows.append({ui.t("decay.tab.base"): f"{b:,}", ui.t("decay.tab.bound0"): round(s["bound0"], 4),
                     ui.t("decay.tab.boundR"): round(s["boundR"], 4), ui.t("decay.tab.ratio"): round(s["ratio"], 4),
                     ui.t("decay.tab.wave"): round(s["wavelength_max"], 1),
                     ui.t("decay.tab.neg"): "—" if s["first_negative"] is None else str(s["first_negative"])})
    st.dataframe(rows, hide_index=True)

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
    rand = [(b, *_random(d, R, log_x, b, n, round(rho, 2), int(seed))) for b in bases]
    ui.plot(fig_decay.random_figure(r, rand, correlation=round(rho, 2), log_x=log_x, show_example=show_example,
                                    t=ui.t), key="decay_random")
    ui.explain([TEX["decay.tex.score"], TEX["decay.tex.random"]], decay.random_score_band,
               decay.rope_score_curve, note=ui.t("decay.explain.random"))

    # ---------------------------------------------------------------- 3. one pair
    st.subheader(ui.t("decay.s3.title"))
    st.markdown(ui.t("decay.s3.text"))
    if d > 2:
        if st.session_state.get("decay_pair", 0) > d // 2 - 1:
            st.session_state["decay_pair"] = d // 2 - 1
        pair = ui.slider("decay_pair", 0, d // 2 - 1, min(16, d // 2 - 1))
    else:
        pair = 0
    pairs = [(b, *_pair(d, R, log_x, b, pair)) for b in bases]
    cols = st.columns(min(len(pairs), 4))
    for col, (b, theta, _, seed_value) in zip(cols * 2, pairs):
        col.metric(ui.t("decay.metric.seed", i=pair, base=f"{b:,}"), f"{seed_value:.4f}",
                   help=ui.t("decay.metric.seed.help"))
    ui.plot(fig_decay.pair_figure(r, [(b, theta, cos) for b, theta, cos, _ in pairs], pair=pair, log_x=log_x,
                                  t=ui.t), key="decay_pair_fig")
    ui.explain(TEX["decay.tex.pair"], decay.pair_oscillation, note=ui.t("decay.explain.pair"))
