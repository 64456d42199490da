"""Sinusoidal & learned absolute positions (seed 000 §02-§06, §13; seed 001 'absolute PE')."""
import streamlit as st

from posviz import ui
from posviz.pe import learned
from posviz.pe import sinusoidal as sn
from posviz.figures import sinusoidal as figs

BASES = (10, 100, 1000, 10000, 100000, 1000000)
MAX_D = 256   # <= 400 so no heatmap is decimated along the dimension axis (that would drop every cos)
DIM_OPTIONS = tuple(range(MAX_D))
ANCHORS = (0, 37, 1000)
MAX_ALIAS_ROWS = 12
VOCAB = 1000
BATCH = 3     # seed 000 §06: token ids [3, 20] -> hidden [3, 20, 64]
PE0_SHOWN = 8


# ------------------------------------------------------------------ cached compute (numpy / python out)
@ui.cache
def pe_table(length, dim, base, layout="interleaved", offset=0):
    return sn.sinusoidal_positions(length, dim, base=float(base), layout=layout, offset=offset).numpy()


@ui.cache
def wavelength_range(dim, base):
    lam = sn.wavelengths(dim, float(base))
    return float(lam[0]), float(lam[-1])


@ui.cache
def similarity(length, dim, base):
    return sn.similarity_matrix(length, dim, base=float(base)).numpy()


@ui.cache
def offset_curves(length, dim, base):
    dots = sn.dot_by_offset(length - 1, dim, base=float(base)).numpy()
    anchored = sn.anchored_dot_by_offset(ANCHORS, length - 1, dim, base=float(base)).numpy()
    return dots, anchored, sn.offset_curve_summary(length - 1, dim, base=float(base))


@ui.cache
def shift(position, delta, dim, base):
    pe_p, rotated, target, err = sn.shift_check(position, delta, dim, base=float(base))
    m = sn.shift_rotation_matrix(delta, dim, base=float(base)).numpy()
    w = sn.sinusoidal_frequencies(dim, float(base))
    blocks = [sn.shift_rotation_2x2(delta, float(w[i])).tolist() for i in (0, dim // 2 - 1)]
    return m, pe_p.numpy(), rotated.numpy(), target.numpy(), err, blocks


@ui.cache
def hand():
    pe, dots = sn.single_frequency_table()
    return pe.numpy(), dots.numpy()


@ui.cache
def learned_shape(dim, max_length, length):
    return learned.learned_forward_shape(dim, max_length, length, batch=BATCH, vocab_size=VOCAB)


@ui.cache
def modulo(length, max_length):
    return learned.modulo_position_ids(length, max_length).numpy(), learned.aliased_positions(length, max_length)


@ui.cache
def saved(dim, max_length, base):
    return learned.state_dict_summary(VOCAB, dim, max_length, base=float(base))


@ui.cache
def fig_waves(L, D, base, dims, lab, pos):
    return figs.to_cacheable(figs.waveforms(pe_table(L, D, base), dims, labels=lab, position=pos))


@ui.cache
def fig_fingerprint(L, D, base, pos, lab):
    fp = pe_table(1, D, base, offset=pos)[0]
    return figs.to_cacheable(figs.fingerprint(pe_table(L, D, base), fp, pos, labels=lab))


@ui.cache
def fig_similarity(L, D, base, lab):
    return figs.to_cacheable(figs.similarity(similarity(L, D, base), labels=lab))


@ui.cache
def fig_dots(L, D, base, lab):
    dots, anchored, _ = offset_curves(L, D, base)
    return figs.to_cacheable(figs.dot_vs_offset(dots, anchored, ANCHORS, labels=lab))


@ui.cache
def fig_shift(p, delta, D, base, lab):
    m, pe_p, rotated, target, _, _ = shift(p, delta, D, base)
    return figs.to_cacheable(figs.shift_rotation(m, pe_p, rotated, target, labels=lab))


@ui.cache
def fig_hand(lab):
    return figs.to_cacheable(figs.hand_table(*hand(), labels=lab))


@ui.cache
def fig_layouts(L, D, base, lab):
    return figs.to_cacheable(figs.layouts(pe_table(L, D, base), pe_table(L, D, base, "concat"), labels=lab))


@ui.cache
def fig_modulo(LL, M, lab):
    return figs.to_cacheable(figs.modulo_rows(LL, M, modulo(LL, M)[0], labels=lab))


def labels(prefix, *names):
    return {n: ui.t(f"sinusoidal.fig.{prefix}.{n}") for n in names}


def matrix_latex(m):
    rows = r" \\ ".join(" & ".join(f"{v:+.4f}" for v in row) for row in m)
    return r"\begin{bmatrix}" + rows + r"\end{bmatrix}"


# ------------------------------------------------------------------ page
ui.header("sinusoidal")
st.caption(ui.t("sinusoidal.controls"))
c1, c2, c3 = st.columns(3)
with c1:
    D = ui.slider("sin_D", 2, MAX_D, 64, 2)
with c2:
    base = ui.select_slider("sin_base", BASES, 10000)
with c3:
    L = ui.slider("sin_L", 4, 1024, 100)
fig_pos, fig_dim = ui.t("sinusoidal.fig.pos"), ui.t("sinusoidal.fig.dim")

# 1 waveforms ------------------------------------------------------
st.header(ui.t("sinusoidal.waves.h"), divider="gray")
st.markdown(ui.t("sinusoidal.waves.md"))
w1, w2 = st.columns([3, 2])
with w1:
    dims = ui.multiselect("sin_dims", DIM_OPTIONS, (0, 8, 16, 32, 62), max_selections=figs.MAX_WAVES)
with w2:
    pos = ui.slider("sin_pos", 0, 4096, 3)
with ui.guard():
    fast, slow = wavelength_range(D, base)
    st.caption(ui.t("sinusoidal.waves.wavelength", fast=fast, slow=slow))
    lab = dict(title=ui.t("sinusoidal.fig.waves.title"), x=fig_pos, y=ui.t("sinusoidal.fig.value"),
               dim=ui.t("sinusoidal.fig.waves.dim"), sin=ui.t("sinusoidal.fig.sin"), cos=ui.t("sinusoidal.fig.cos"))
    ui.plot(figs.revive(fig_waves(L, D, base, tuple(dims), lab, pos)), key="sin_waves")
    ui.explain([r"\omega_i = \text{base}^{-2i/D}", r"PE_{p,2i} = \sin(p\,\omega_i),\quad PE_{p,2i+1} = \cos(p\,\omega_i)"],
               sn.sinusoidal_frequencies, sn.sinusoidal_positions, note=ui.t("sinusoidal.note.waves"))

# 2 fingerprint ----------------------------------------------------
st.header(ui.t("sinusoidal.fp.h"), divider="gray")
st.markdown(ui.t("sinusoidal.fp.md"))
with ui.guard():
    if pos >= L:
        st.info(ui.t("sinusoidal.fp.beyond", p=pos, L=L))
    lab = dict(heatmap=ui.t("sinusoidal.fig.fp.heatmap"), slice=ui.t("sinusoidal.fig.fp.slice"),
               value=ui.t("sinusoidal.fig.value"), x=fig_pos, y=fig_dim)
    ui.plot(figs.revive(fig_fingerprint(L, D, base, pos, lab)), key="sin_fingerprint")
    st.caption(ui.t("sinusoidal.fp.zero", vals=", ".join(f"{v:g}" for v in pe_table(1, D, base)[0][:PE0_SHOWN])))
    ui.explain(r"PE(p) = [\sin(p\omega_0), \cos(p\omega_0), \ldots, \sin(p\omega_{D/2-1}), \cos(p\omega_{D/2-1})]",
               sn.sinusoidal_positions)

# 3 similarity -----------------------------------------------------
st.header(ui.t("sinusoidal.sim.h"), divider="gray")
st.markdown(ui.t("sinusoidal.sim.md"))
with ui.guard():
    dots, anchored, summary = offset_curves(L, D, base)
    left, right = st.columns(2)
    with left:
        lab = dict(title=ui.t("sinusoidal.fig.sim.title"), x=ui.t("sinusoidal.fig.sim.x"), y=ui.t("sinusoidal.fig.sim.y"))
        ui.plot(figs.revive(fig_similarity(L, D, base, lab)), key="sin_similarity")
    with right:
        lab = labels("dot", "title", "x", "y", "formula", "anchor")
        ui.plot(figs.revive(fig_dots(L, D, base, lab)), key="sin_dot_offset")
    m1, m2, m3 = st.columns(3)
    m1.metric(ui.t("sinusoidal.sim.m.start"), f"{summary['start']:.4g}")
    rise = summary["first_rise"]
    m2.metric(ui.t("sinusoidal.sim.m.rise"), ui.t("sinusoidal.sim.m.rise.none") if rise is None else f"Δ = {rise}")
    m3.metric(ui.t("sinusoidal.sim.m.min"),
              f"{summary['minimum']:.4g} ({ui.t('sinusoidal.sim.m.min.at', a=summary['argmin'])})")
    st.warning(ui.t("sinusoidal.sim.warn"), icon=":material/straighten:")
    ui.explain([r"PE(m)^\top PE(n) = \sum_{i=0}^{D/2-1} \cos\big((m-n)\,\omega_i\big)"],
               sn.similarity_matrix, sn.dot_by_offset, sn.anchored_dot_by_offset)

# 4 shift = rotation -----------------------------------------------
st.header(ui.t("sinusoidal.shift.h"), divider="gray")
st.markdown(ui.t("sinusoidal.shift.md"))
s1, s2 = st.columns(2)
with s1:
    p = ui.slider("sin_p", 0, 2000, 5)
with s2:
    delta = ui.slider("sin_delta", 0, 500, 3)
with ui.guard():
    err, blocks = shift(p, delta, D, base)[4:]
    lab = labels("shift", "matrix", "vectors", "pe_p", "target", "rotated")
    lab["dim"] = fig_dim
    ui.plot(figs.revive(fig_shift(p, delta, D, base, lab)), key="sin_shift")
    e1, e2 = st.columns([1, 2])
    e1.metric(ui.t("sinusoidal.shift.err"), f"{err:.2e}", help=ui.t("sinusoidal.shift.err.help"))
    with e2:
        st.markdown(ui.t("sinusoidal.shift.blocks", i=D // 2 - 1, delta=delta))
        st.latex(r"M_0(\Delta) = " + matrix_latex(blocks[0]) + r",\qquad M_{" + str(D // 2 - 1) + r"}(\Delta) = "
                 + matrix_latex(blocks[1]))
        st.caption(ui.t("sinusoidal.shift.nop"))
    ui.explain([r"\begin{bmatrix}\sin((p+\Delta)\omega)\\ \cos((p+\Delta)\omega)\end{bmatrix} = "
                r"\begin{bmatrix}\cos(\Delta\omega) & \sin(\Delta\omega)\\ -\sin(\Delta\omega) & \cos(\Delta\omega)"
                r"\end{bmatrix}\begin{bmatrix}\sin(p\omega)\\ \cos(p\omega)\end{bmatrix}",
                r"PE(p+\Delta) = M(\Delta)\,PE(p),\quad M(\Delta) = \operatorname{blockdiag}_i M_i(\Delta)"],
               sn.shift_rotation_2x2, sn.shift_rotation_matrix, sn.shift_check, note=ui.t("sinusoidal.note.shift"))

# 5 hand table -----------------------------------------------------
st.header(ui.t("sinusoidal.hand.h"), divider="gray")
st.markdown(ui.t("sinusoidal.hand.md"))
h_pe, h_dots = hand()
t1, t2 = st.columns([1, 3])
with t1:
    st.dataframe({ui.t("sinusoidal.hand.col.p"): list(range(len(h_pe))),
                  ui.t("sinusoidal.hand.col.pe"): [f"[{a:g}, {b:g}]" for a, b in h_pe.tolist()]},
                 hide_index=True)
with t2:
    ui.plot(figs.revive(fig_hand(labels("hand", "circle", "dots"))), key="sin_hand")
st.markdown(ui.t("sinusoidal.hand.facts"))
ui.explain([r"\omega = \pi/2,\quad PE_\omega(p) = [\sin(p\omega), \cos(p\omega)]",
            r"PE_\omega(m)^\top PE_\omega(n) = \cos\big((m-n)\,\omega\big)"], sn.single_frequency_table)

# 6 layouts --------------------------------------------------------
st.header(ui.t("sinusoidal.layout.h"), divider="gray")
st.markdown(ui.t("sinusoidal.layout.md"))
with ui.guard():
    lab = labels("layout", "interleaved", "concat")
    lab.update(x=fig_dim, y=fig_pos)
    ui.plot(figs.revive(fig_layouts(L, D, base, lab)), key="sin_layouts")
    perm = str(sn.layout_permutation(D).tolist()) if D <= 16 else f"[0, 2, 4, …, {D - 2}, 1, 3, …, {D - 1}]"
    st.caption(ui.t("sinusoidal.layout.perm", perm=perm))
    ui.explain([r"\text{interleaved}: [\sin\omega_0 p, \cos\omega_0 p, \sin\omega_1 p, \cos\omega_1 p, \ldots]",
                r"\text{concat}: [\sin\omega_0 p, \ldots, \sin\omega_{D/2-1} p, \cos\omega_0 p, \ldots, \cos\omega_{D/2-1} p]"],
               sn.pair_columns, sn.layout_permutation)

# 7 learned --------------------------------------------------------
st.header(ui.t("sinusoidal.learned.h"), divider="gray")
st.markdown(ui.t("sinusoidal.learned.md"))
l1, l2 = st.columns(2)
with l1:
    M = ui.slider("sin_M", 1, 1024, 16)
with l2:
    LL = ui.slider("sin_learned_L", 1, 2048, 16)
failed = True
with ui.guard():
    shape = learned_shape(D, M, LL)
    st.success(ui.t("sinusoidal.learned.ok", L=LL, M=M, shape=str(list(shape))), icon=":material/check_circle:")
    failed = False
if failed:
    st.markdown(ui.t("sinusoidal.learned.err_why", L=LL, M=M, last=M - 1))

st.subheader(ui.t("sinusoidal.mod.h"))
st.markdown(ui.t("sinusoidal.mod.md"))
with ui.guard():
    _, aliases = modulo(LL, M)
    f1, f2 = st.columns([3, 2])
    with f1:
        lab = labels("mod", "title", "x", "y", "correct", "modulo", "no_row", "last_row")
        ui.plot(figs.revive(fig_modulo(LL, M, lab)), key="sin_modulo")
    with f2:
        if not aliases:
            st.info(ui.t("sinusoidal.mod.none"))
        else:
            st.warning(ui.t("sinusoidal.mod.count", n=max(LL - M, 0), L=LL), icon=":material/warning:")
            shown = aliases[:MAX_ALIAS_ROWS]
            st.dataframe({ui.t("sinusoidal.mod.col.row"): [r for r, _ in shown],
                          ui.t("sinusoidal.mod.col.positions"): [", ".join(map(str, ps[:8])) + (" …" if len(ps) > 8 else "")
                                                                 for _, ps in shown]}, hide_index=True)
            if len(aliases) > MAX_ALIAS_ROWS:
                st.caption(ui.t("sinusoidal.mod.more", n=len(aliases) - MAX_ALIAS_ROWS))
    ui.explain([r"X_p = E_{token(p)} + P[p],\quad 0 \le p < M",
                r"\text{bug: } P[p \bmod M] \Rightarrow P[M] \equiv P[0],\ P[M+1] \equiv P[1],\ \ldots"],
               learned.LearnedAbsolutePositions, learned.modulo_position_ids, note=ui.t("sinusoidal.note.learned"))

st.subheader(ui.t("sinusoidal.buffer.h"))
st.markdown(ui.t("sinusoidal.buffer.md"))
with ui.guard():
    table = saved(D, M, base)
    st.dataframe({ui.t("sinusoidal.buffer.col.module"): [ui.t(f"sinusoidal.module.{r[0]}") for r in table],
                  ui.t("sinusoidal.buffer.col.name"): [r[1] for r in table],
                  ui.t("sinusoidal.buffer.col.shape"): [str(list(r[2])) for r in table],
                  ui.t("sinusoidal.buffer.col.kind"): [ui.t(f"sinusoidal.kind.{r[3]}") for r in table],
                  ui.t("sinusoidal.buffer.col.saved"): [ui.t("sinusoidal.yes" if r[4] else "sinusoidal.no") for r in table]},
                 hide_index=True)
    ui.explain([r"\texttt{register\_buffer(name, tensor, persistent=False)}"], sn.SinusoidalInput,
               learned.state_dict_summary)

st.info(ui.t("sinusoidal.extrap"), icon=":material/info:")
st.subheader(ui.t("sinusoidal.table.h"))
st.markdown(ui.t("sinusoidal.table.md"))
st.info(ui.t("sinusoidal.shortcut"), icon=":material/alt_route:")
