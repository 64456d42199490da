"""Sinusoidal & learned absolute positions (seed 000 §02-§06, §13; seed 001 'absolute PE')."""
import streamlit as st

from posviz import ui
from posviz.figures import sinusoidal as figs
from posviz.pe import learned
from posviz.pe import sinusoidal as sn
from posviz.views import sinusoidal as view

BASES = (10, 100, 1000, 10000, 100000, 1000000)
MAX_D = 256   # <= 400 so no heatmap is decimated along the dimension axis (that would drop every cos)
DIM_OPTIONS = tuple(range(MAX_D))
TRANSLATED = {"module": "sinusoidal.module.", "kind": "sinusoidal.kind.", "saved": "sinusoidal."}   # buffer table
SECTION_NAMES = ("waves", "fp", "sim", "shift", "hand", "layout", "learned", "mod", "buffer", "table")


def lab(prefix, *names, **extra):
    """The labels dict of one figure: text keys sinusoidal.fig.<prefix>.<name>, plus `extra`."""
    return {**{n: ui.t(f"sinusoidal.fig.{prefix}.{n}") for n in names}, **extra}


def section(name, level=st.header):
    level(ui.t(f"sinusoidal.{name}.h"), **({"divider": "gray"} if level is st.header else {}))
    parts = SECTIONS[name]
    if parts["columns"]:
        ui.table(parts["columns"], wrap=True)
    st.markdown(parts["text"])


def row(*parts, widths=None):
    """Draw each part (a callable) in its own column (stacked on a phone); their return values."""
    out = []
    for col, part in zip(st.columns(widths or len(parts)), parts):
        with col:
            out.append(part())
    return out


ui.header("sinusoidal")
st.caption(ui.t("sinusoidal.controls"))
D, base, L = row(lambda: ui.slider("sin_D", 2, MAX_D, 64, 2), lambda: ui.select_slider("sin_base", BASES, 10000),
                 lambda: ui.slider("sin_L", 4, 1024, 100))
POS, DIM, VALUE = ui.t("sinusoidal.fig.pos"), ui.t("sinusoidal.fig.dim"), ui.t("sinusoidal.fig.value")
SECTIONS = dict(zip(SECTION_NAMES, view.sections(tuple(ui.t(f"sinusoidal.{n}.md") for n in SECTION_NAMES))))
sig = None   # view.signal(L, D, base): every figure of L, D and base, one cache entry, fetched in the first guard
section("waves")   # 1 ------------------------------------------------------------------------
dims, pos = row(lambda: ui.multiselect("sin_dims", DIM_OPTIONS, (0, 8, 16, 32, 62), max_selections=figs.MAX_WAVES),
                lambda: ui.slider("sin_pos", 0, 4096, 3), widths=[3, 2])
with ui.guard():
    sig = sig or view.signal(L, D, base)
    st.caption(ui.t("sinusoidal.waves.wavelength", **dict(zip(("fast", "slow"), sig["wavelengths"]))))
    ui.plot(figs.waveforms, sig["table"], tuple(dims), position=pos, key="sin_waves", labels=dict(
        lab("waves", "title", "dim"), x=POS, y=VALUE, sin=ui.t("sinusoidal.fig.sin"), cos=ui.t("sinusoidal.fig.cos")))
    ui.explain(sn.sinusoidal_frequencies, sn.sinusoidal_positions, sn.sinusoidal_wavelengths,
               note=ui.t("sinusoidal.note.waves"))
section("fp")   # 2 ---------------------------------------------------------------------------
with ui.guard():
    sig = sig or view.signal(L, D, base)   # (raises again here if it raised above)
    if pos >= L:
        st.info(ui.t("sinusoidal.fp.beyond", p=pos, L=L))
    row(lambda: ui.plot(figs.fingerprint_table, sig["table"], pos, key="sin_fingerprint",
                        labels=dict(title=ui.t("sinusoidal.fig.fp.heatmap"), x=POS, y=DIM, value=VALUE)),
        lambda: ui.plot(figs.fingerprint_column, view.column(D, base, pos), key="sin_fingerprint_column",
                        labels=dict(title=ui.t("sinusoidal.fig.fp.slice", p=pos), y=DIM)), widths=[3, 1])
    st.caption(ui.t("sinusoidal.fp.zero", vals=sig["pe0"]))
    ui.explain(sn.sinusoidal_positions)
section("sim")   # 3 --------------------------------------------------------------------------
with ui.guard():
    sig = sig or view.signal(L, D, base)
    curves = sig["curves"]
    row(lambda: ui.plot(figs.similarity, sig["similarity"], labels=lab("sim", "title", "x", "y"),
                        key="sin_similarity"),
        lambda: ui.plot(figs.dot_vs_offset, curves["dots"], curves["anchored"], curves["anchors"], key="sin_dot_offset",
                        labels=lab("dot", "title", "x", "y", "formula", "anchor")))
    summary, (m1, m2, m3) = curves["summary"], st.columns(3)
    m1.metric(ui.t("sinusoidal.sim.m.start"), f"{summary['start']:.4g}")
    m2.metric(ui.t("sinusoidal.sim.m.rise"), curves["rise"] or ui.t("sinusoidal.sim.m.rise.none"))
    m3.metric(ui.t("sinusoidal.sim.m.min"),
              f"{summary['minimum']:.4g} ({ui.t('sinusoidal.sim.m.min.at', a=summary['argmin'])})")
    st.warning(ui.t("sinusoidal.sim.warn"), icon=":material/straighten:")
    ui.explain(sn.similarity_matrix, sn.dot_by_offset, sn.anchored_dot_by_offset)
section("shift")   # 4 ------------------------------------------------------------------------
p, delta = row(lambda: ui.slider("sin_p", 0, 2000, 5), lambda: ui.slider("sin_delta", 0, 500, 3))
with ui.guard():
    sh = view.shift(p, delta, D, base)
    row(lambda: ui.plot(figs.shift_matrix, sh["matrix"], labels=dict(title=ui.t("sinusoidal.fig.shift.matrix")),
                        key="sin_shift"),
        lambda: ui.plot(figs.shift_vectors, sh["pe_p"], sh["rotated"], sh["target"], key="sin_shift_vectors",
                        labels=lab("shift", "pe_p", "target", "rotated", title=ui.t("sinusoidal.fig.shift.vectors"),
                                   x=DIM)), widths=[1, 1.6])
    e1, e2 = st.columns([1, 2])   # the float32 error | the live 2x2 blocks
    e1.metric(ui.t("sinusoidal.shift.err"), f"{sh['error']:.2e}", help=ui.t("sinusoidal.shift.err.help"))
    with e2:
        st.markdown(ui.t("sinusoidal.shift.blocks", i=D // 2 - 1, delta=delta))
        st.latex(figs.shift_blocks_latex(sh["blocks"]))
        st.caption(ui.t("sinusoidal.shift.nop"))
    ui.explain(sn.shift_rotation_2x2, sn.shift_rotation_matrix, sn.shift_check, note=ui.t("sinusoidal.note.shift"))
section("hand")   # 5 -------------------------------------------------------------------------
with ui.more("sin_by_hand") as box:   # a worked example: closed, its body does not run
    if box.open:
        hand = view.hand()
        cols = {ui.t("sinusoidal.hand.col.p"): hand["positions"], ui.t("sinusoidal.hand.col.pe"): hand["rows"]}
        row(lambda: ui.table(cols, static=True),
            lambda: ui.plot(figs.hand_circle, hand["pe"], labels={"title": ui.t("sinusoidal.fig.hand.circle")}, key="sin_hand"),
            lambda: ui.plot(figs.hand_dots, hand["dots"], labels={"title": ui.t("sinusoidal.fig.hand.dots")}, key="sin_hand_dots"),
            widths=[1.4, 2, 2])
        st.markdown(ui.t("sinusoidal.hand.facts"))
        ui.explain(sn.single_frequency_table)
section("layout")   # 6 -----------------------------------------------------------------------
with ui.more("sin_column_order") as box, ui.guard():   # closed, its body does not run
    if box.open:
        sig = sig or view.signal(L, D, base)
        row(*[lambda name=name, z=z, key=key: ui.plot(figs.layout_table, z, colorbar=name == "concat", key=key,
                                                      labels=dict(title=ui.t(f"sinusoidal.fig.layout.{name}"), x=DIM, y=POS))
              for name, z, key in (("interleaved", sig["table"], "sin_layouts"), ("concat", sig["concat"], "sin_layouts_concat"))])
        st.caption(ui.t("sinusoidal.layout.perm", perm=sig["perm"]))
        ui.explain(sn.pair_columns, sn.sinusoidal_layout_permutation)
section("learned")   # 7 ----------------------------------------------------------------------
M, LL = row(lambda: ui.slider("sin_M", 1, 1024, 16), lambda: ui.slider("sin_learned_L", 1, 2048, 16))
refused = True
with st.container(key="sin_boundary"), ui.guard():   # L > max_length: the boundary, a warning in the user's language
    st.success(ui.t("sinusoidal.learned.ok", L=LL, M=M, shape=str(view.learned_shape(D, M, LL))),
               icon=":material/check_circle:")
    refused = False
if refused:
    st.markdown(ui.t("sinusoidal.learned.err_why", M=M))
section("mod", st.subheader)
with ui.guard():
    mod = view.modulo(LL, M)
    f1, f2 = st.columns([3, 2])
    with f1:
        ui.plot(figs.modulo_rows, LL, M, mod["rows"], key="sin_modulo",
                labels=lab("mod", "title", "x", "y", "correct", "modulo", "no_row", "last_row"))
    with f2:
        if not mod["aliases"]:
            st.info(ui.t("sinusoidal.mod.none"))
        else:
            st.warning(ui.t("sinusoidal.mod.count", n=mod["overrun"], L=LL), icon=":material/warning:")
            ui.table({ui.t("sinusoidal.mod.col.row"): [r for r, _ in mod["shown"]],
                      ui.t("sinusoidal.mod.col.positions"): [ps for _, ps in mod["shown"]]}, static=True)
            if mod["more"]:
                st.caption(ui.t("sinusoidal.mod.more", n=mod["more"]))
    ui.explain(learned.LearnedAbsolutePositions, learned.modulo_position_ids, note=ui.t("sinusoidal.note.learned"))
section("buffer", st.subheader)
with ui.guard():
    ui.table({ui.t(f"sinusoidal.buffer.col.{c}"): [ui.t(TRANSLATED[c] + v) if c in TRANSLATED else v for v in vals]
              for c, vals in view.saved(D, M, base).items()}, static=True)
    ui.explain(sn.SinusoidalInput, learned.state_dict_summary)
st.info(ui.t("sinusoidal.extrap"), icon=":material/info:")
section("table", st.subheader)
st.info(ui.t("sinusoidal.shortcut"), icon=":material/alt_route:")
