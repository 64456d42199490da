"""Sinusoidal & learned absolute positions (seed 000 §02-§06, §13; seed 001 'absolute PE').

The page's sections, in the order the user sees them, then the script that draws the controls, the
section headings and texts, and runs the sections."""
import streamlit as st

from posviz import ui
from posviz.figures import overview as ov_figs
from posviz.figures import sinusoidal as figs
from posviz.pe import learned, position_scores
from posviz.pe import sinusoidal as sn
from posviz.views import overview as ov_view
from posviz.views import sinusoidal as view

BASES = (10, 100, 1000, 10000, 100000, 1000000)
MAX_D = 256   # <= 400 so no heatmap is decimated along the dimension axis (that would drop every cos)
DIM_OPTIONS = tuple(range(MAX_D))
TRANSLATED = {"module": "sinusoidal.module.", "kind": "sinusoidal.kind.", "saved": "sinusoidal."}   # buffer table
SECTION_NAMES = ("waves", "fp", "sim", "shift", "hand", "layout", "learned", "mod", "buffer", "table")
POS, DIM, VALUE = "sinusoidal.fig.pos", "sinusoidal.fig.dim", "sinusoidal.fig.value"   # text keys of shared axes


def section(name, texts, level=st.header):
    """A section's heading, its reference table (when its text has one) and the rest of its text."""
    level(ui.t(f"sinusoidal.{name}.h"), **({"divider": "gray"} if level is st.header else {}))
    if texts[name]["columns"]:
        ui.table(texts[name]["columns"], wrap=True)
    st.markdown(texts[name]["text"])


def waves(L, D, base):
    """1 · the waveforms of chosen dimensions; returns the position the next section fingerprints."""
    c = st.columns([3, 2])
    dims = ui.multiselect("sin_dims", DIM_OPTIONS, (0, 8, 16, 32, 62), max_selections=figs.MAX_WAVES, col=c[0])
    pos = ui.slider("sin_pos", 0, 4096, 3, col=c[1])
    with ui.guard():
        sig = view.signal(L, D, base)   # every figure of L, D and base: one cache entry for the whole page
        with st.container(key="sin_waves_view"):    # the wavelengths and the waves: what scene 1 lands on
            st.caption(ui.t("sinusoidal.waves.wavelength", **dict(zip(("fast", "slow"), sig["wavelengths"]))))
            lab = ui.labels("sinusoidal.fig.waves", "title", "dim", x=POS, y=VALUE, sin="sinusoidal.fig.sin",
                            cos="sinusoidal.fig.cos")
            ui.plot(figs.waveforms, sig["table"], tuple(dims), position=pos, key="sin_waves", labels=lab)
        ui.explain(sn.sinusoidal_frequencies, sn.sinusoidal_positions, sn.sinusoidal_wavelengths,
                   note=ui.t("sinusoidal.note.waves"))
    return pos


def fingerprint(L, D, base, pos):
    """2 · the table as a heatmap, and the column of one position."""
    with ui.guard():
        sig = view.signal(L, D, base)
        if pos >= L:
            st.info(ui.t("sinusoidal.fp.beyond", p=pos, L=L))
        c = st.columns([3, 1])
        with c[0]:
            ui.plot(figs.fingerprint_table, sig["table"], pos, key="sin_fingerprint",
                    labels=ui.labels(title="sinusoidal.fig.fp.heatmap", x=POS, y=DIM, value=VALUE))
        with c[1]:
            ui.plot(figs.fingerprint_column, view.column(D, base, pos), key="sin_fingerprint_column",
                    labels=ui.labels(title=("sinusoidal.fig.fp.slice", {"p": pos}), y=DIM))
        st.caption(ui.t("sinusoidal.fp.zero", vals=sig["pe0"]))
        ui.explain(sn.sinusoidal_positions)
        bc = view.barcodes(D, base, pos)
        a, a1, b, b1 = bc["seats"]
        st.markdown(ui.t("sinusoidal.barcode.text", a=a, a1=a1, b=b, b1=b1, later=b - a, d=f"{bc['dots'][0]:.4g}"))
        ui.plot(figs.barcodes, bc["rows"], bc["seats"], bc["dots"], key="sin_barcodes",
                labels=ui.labels("sinusoidal.fig.barcode", "title", "seat", "dot", x=DIM))
        ui.explain(sn.anchored_dot_by_offset)


def similarity(L, D, base):
    """3 · PE·PEᵀ and the dot product against the offset."""
    with ui.guard():
        sig = view.signal(L, D, base)
        curves, summary = sig["curves"], sig["curves"]["summary"]
        c = st.columns(2)
        with c[0]:
            ui.plot(figs.similarity, sig["similarity"], labels=ui.labels("sinusoidal.fig.sim", "title", "x", "y"),
                    key="sin_similarity")
        with c[1]:
            ui.plot(figs.dot_vs_offset, curves["dots"], curves["anchored"], curves["anchors"], key="sin_dot_offset",
                    labels=ui.labels("sinusoidal.fig.dot", "title", "x", "y", "formula", "anchor"))
        c = st.columns(3)
        c[0].metric(ui.t("sinusoidal.sim.m.start"), f"{summary['start']:.4g}")
        c[1].metric(ui.t("sinusoidal.sim.m.rise"), curves["rise"] or ui.t("sinusoidal.sim.m.rise.none"))
        c[2].metric(ui.t("sinusoidal.sim.m.min"),
                    f"{summary['minimum']:.4g} ({ui.t('sinusoidal.sim.m.min.at', a=summary['argmin'])})")
        st.warning(ui.t("sinusoidal.sim.warn"), icon=":material/straighten:")
        ui.explain(sn.similarity_matrix, sn.dot_by_offset, sn.anchored_dot_by_offset)


@ui.section
def shift(D, base):
    """4 · a shift by Δ is a rotation: M(Δ)·PE(p) = PE(p+Δ)."""
    c = st.columns(2)
    p = ui.slider("sin_p", 0, 2000, 5, col=c[0])
    delta = ui.slider("sin_delta", 0, 500, 3, col=c[1])
    with ui.guard():
        sh = view.shift(p, delta, D, base)
        c = st.columns([1, 1.6])
        with c[0]:
            ui.plot(figs.shift_matrix, sh["matrix"], labels=ui.labels(title="sinusoidal.fig.shift.matrix"),
                    key="sin_shift")
        with c[1]:
            ui.plot(figs.shift_vectors, sh["pe_p"], sh["rotated"], sh["target"], key="sin_shift_vectors",
                    labels=ui.labels("sinusoidal.fig.shift", "pe_p", "target", "rotated",
                                     title="sinusoidal.fig.shift.vectors", x=DIM))
        c = st.columns([1, 2])   # the float32 error | the live 2x2 blocks
        c[0].metric(ui.t("sinusoidal.shift.err"), f"{sh['error']:.2e}", help=ui.t("sinusoidal.shift.err.help"))
        with c[1]:
            st.markdown(ui.t("sinusoidal.shift.blocks", i=D // 2 - 1, delta=delta))
            st.latex(figs.shift_blocks_latex(sh["blocks"]))
            st.caption(ui.t("sinusoidal.shift.nop"))
        ui.explain(sn.shift_rotation_2x2, sn.shift_rotation_matrix, sn.shift_check,
                   note=ui.t("sinusoidal.note.shift"))


@ui.section
def read_offset(D, base):
    """4b · can a linear layer read the offset (sinusoidal), or is it forced to (RoPE)? score(m, n) of one token."""
    st.subheader(ui.t("sinusoidal.lin.h"))
    st.markdown(ui.t("sinusoidal.lin.text"))
    c = st.columns(3)
    method = ui.radio("sin_lin_method", ("sinusoidal", "rope"), "sinusoidal", col=c[0])
    weights = ui.radio("sin_lin_weights", position_scores.WEIGHTS, "random", col=c[1])
    seed = ui.slider("sin_lin_seed", 0, 99, 0, col=c[2])
    with ui.guard():
        sc = ov_view.offset_scores(method, weights, seed, D, base)
        c = ui.panels(2)
        with c[0]:
            ui.plot(ov_figs.score_map, sc["scores"], key="sin_lin_map",
                    labels=ui.labels("overview.fig.score", "x", "y", "value", title=f"sinusoidal.lin.fig.{method}"))
        with c[1]:
            ui.plot(ov_figs.score_lines, sc["lines"], sc["offsets"], key="sin_lin_lines",
                    labels=ui.labels("overview.fig.lines", "title", "x", "y", "offset"))
        word = "relative" if sc["residual"] < position_scores.RELATIVE else "absolute"
        st.metric(ui.t("overview.fig.score.residual"), f"{sc['residual']:.1e}", border=True,
                  help=ui.t("overview.fig.score.residual.help"))
        st.markdown(ui.t(f"sinusoidal.lin.{method}.{word}", r=f"{sc['residual']:.1e}"))
        ui.explain(position_scores.position_scores, position_scores.relative_residual, position_scores.relative_part)


def by_hand():
    """5 · ω = π/2 by hand (a worked example: closed, its body does not run)."""
    with ui.more("sin_by_hand") as box:
        if box.open:
            hand = view.hand()
            c = st.columns([1.4, 2, 2])
            with c[0]:
                ui.table({ui.t("sinusoidal.hand.col.p"): hand["positions"],
                          ui.t("sinusoidal.hand.col.pe"): hand["rows"]}, static=True)
            with c[1]:
                ui.plot(figs.hand_circle, hand["pe"], labels=ui.labels(title="sinusoidal.fig.hand.circle"),
                        key="sin_hand")
            with c[2]:
                ui.plot(figs.hand_dots, hand["dots"], labels=ui.labels(title="sinusoidal.fig.hand.dots"),
                        key="sin_hand_dots")
            st.markdown(ui.t("sinusoidal.hand.facts"))
            ui.explain(sn.single_frequency_table)


def column_order(L, D, base):
    """6 · interleaved against concat columns (closed, its body does not run)."""
    with ui.more("sin_column_order") as box, ui.guard():
        if box.open:
            sig = view.signal(L, D, base)
            c = st.columns(2)
            with c[0]:
                ui.plot(figs.layout_table, sig["table"], colorbar=False, key="sin_layouts",
                        labels=ui.labels(title="sinusoidal.fig.layout.interleaved", x=DIM, y=POS))
            with c[1]:
                ui.plot(figs.layout_table, sig["concat"], colorbar=True, key="sin_layouts_concat",
                        labels=ui.labels(title="sinusoidal.fig.layout.concat", x=DIM, y=POS))
            st.caption(ui.t("sinusoidal.layout.perm", perm=sig["perm"]))
            ui.explain(sn.pair_columns, sn.sinusoidal_layout_permutation)


def learned_table(D):
    """7 · a learned table of M rows read at L positions: L > M is the boundary; returns (M, L)."""
    c = st.columns(2)
    M = ui.slider("sin_M", 1, 1024, 16, col=c[0])
    L = ui.slider("sin_learned_L", 1, 2048, 16, col=c[1])
    refused = True
    with st.container(key="sin_boundary"), ui.guard():   # L > M: the boundary, a warning in the user's language
        st.success(ui.t("sinusoidal.learned.ok", L=L, M=M, shape=str(view.learned_shape(D, M, L))),
                   icon=":material/check_circle:")
        refused = False
    if refused:
        st.markdown(ui.t("sinusoidal.learned.err_why", M=M))
    return M, L


def modulo(M, L):
    """The bug that hides the boundary: position p reads row p mod M."""
    with ui.guard():
        mod = view.modulo(L, M)
        c = st.columns([3, 2])
        with c[0]:
            ui.plot(figs.modulo_rows, L, M, mod["rows"], key="sin_modulo",
                    labels=ui.labels("sinusoidal.fig.mod", "title", "x", "y", "correct", "modulo", "no_row",
                                     "last_row"))
        with c[1]:
            if not mod["aliases"]:
                st.info(ui.t("sinusoidal.mod.none"))
            else:
                st.warning(ui.t("sinusoidal.mod.count", n=mod["overrun"], L=L), icon=":material/warning:")
                ui.table({ui.t("sinusoidal.mod.col.row"): [r for r, _ in mod["shown"]],
                          ui.t("sinusoidal.mod.col.positions"): [ps for _, ps in mod["shown"]]}, static=True)
                if mod["more"]:
                    st.caption(ui.t("sinusoidal.mod.more", n=mod["more"]))
        ui.explain(learned.LearnedAbsolutePositions, learned.modulo_position_ids, note=ui.t("sinusoidal.note.learned"))


def saved(D, M, base):
    """What a checkpoint saves of each kind: a learned table is a parameter, the sinusoidal one a buffer."""
    with ui.guard():
        ui.table({ui.t(f"sinusoidal.buffer.col.{c}"): [ui.t(TRANSLATED[c] + v) if c in TRANSLATED else v for v in vals]
                  for c, vals in view.saved(D, M, base).items()}, static=True)
        ui.explain(sn.SinusoidalInput, learned.state_dict_summary)


ui.header("sinusoidal")
st.caption(ui.t("sinusoidal.controls"))
c = st.columns(3)
D = ui.slider("sin_D", 2, MAX_D, 64, 2, col=c[0])
base = ui.select_slider("sin_base", BASES, 10000, col=c[1])
L = ui.slider("sin_L", 4, 1024, 100, col=c[2])
texts = dict(zip(SECTION_NAMES, view.sections(tuple(ui.t(f"sinusoidal.{n}.md") for n in SECTION_NAMES))))

section("waves", texts)
pos = waves(L, D, base)
section("fp", texts)
fingerprint(L, D, base, pos)
section("sim", texts)
similarity(L, D, base)
section("shift", texts)
shift(D, base)
read_offset(D, base)
section("hand", texts)
by_hand()
section("layout", texts)
column_order(L, D, base)
section("learned", texts)
M, learned_L = learned_table(D)
section("mod", texts, st.subheader)
modulo(M, learned_L)
section("buffer", texts, st.subheader)
saved(D, M, base)
st.info(ui.t("sinusoidal.extrap"), icon=":material/info:")
section("table", texts, st.subheader)
st.info(ui.t("sinusoidal.shortcut"), icon=":material/alt_route:")
