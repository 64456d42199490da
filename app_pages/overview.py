"""Why attention needs position (seed 000 §01-§02, seed 001 'bag of words'): permutation equivariance
live on an editable sentence, the causal mask's leak, where position enters, the method table."""
import streamlit as st

from posviz import ui
from posviz.figures import overview as figs
from posviz.lab import toy_model
from posviz.pe import position_scores
from posviz.views import overview as view

METHOD_PAGES = (("app_pages/sinusoidal.py", "sinusoidal"), ("app_pages/relative.py", "relative"),
                ("app_pages/rope.py", "rope"), ("app_pages/decay.py", "decay"),
                ("app_pages/extrapolation.py", "extrapolation"), ("app_pages/length.py", "length"),
                ("app_pages/lab.py", "lab"), ("app_pages/kv_cache.py", "kv-cache"), ("app_pages/checks.py", "checks"))
DOT_KEYS = ("abs", "rope", "bias", "tok", "pe", "hidden", "qkv", "softmax", "qk", "rot", "v", "scores", "bias_node")

ui.header("overview")

# ---------------------------------------------------------------- 1 · permutation equivariance
st.subheader(ui.t("overview.eq"))
st.markdown(ui.t("overview.eq.text"))
for f in ui.formulas(view.equivariance)[:3]:   # Attn(PX) = P Attn(X), and what Attn is
    st.latex(f)
c = st.columns([2, 2, 1.5, 1.1], vertical_alignment="bottom")
sent_a = ui.text_input("ov_a", ui.t("overview.default_a"), max_chars=view.MAX_CHARS, col=c[0])
sent_b = ui.text_input("ov_b", ui.t("overview.default_b"), max_chars=view.MAX_CHARS, col=c[1])
method = ui.select("ov_method", view.POSITION_METHODS, "nope", col=c[2])
causal = ui.toggle("ov_causal", False, col=c[3])

names = (ui.t("w.ov_a"), ui.t("w.ov_b"))   # how an error calls the two sentences
with ui.guard():
    res = view.equivariance(sent_a, sent_b, method=method, causal=causal, names=names)
    c = st.columns([1, 3])
    c[0].metric(ui.t("overview.metric"), f"{res['max_diff']:.1e}")
    bag = view.bag_of_words(sent_a, method=method, causal=causal, names=names)
    if res["max_diff"] < view.HARMLESS and bag["bag"]:
        c[1].success(ui.t("overview.verdict.equal", n=bag["tried"]))
    elif res["max_diff"] < view.HARMLESS:              # blind to this reordering only (ALiBi and a reversal)
        c[1].info(ui.t("overview.verdict.this", d=f"{bag['max_diff']:.1e}", order=bag["worst"]))
    else:
        c[1].warning(ui.t("overview.verdict.broken"))
    if method == "nope" and not causal:
        st.caption(ui.t("overview.step1"))
    panels = (("", res["out_b"], "b", "value", res["value_range"]),          # keys ov_equiv, ov_equiv_pa, ov_equiv_diff
              ("_pa", res["p_out_a"], "pa", "value", res["value_range"]),
              ("_diff", res["diff"], "diff", "delta", res["diff_range"]))
    for col, (suffix, z, title, value, zrange) in zip(st.columns(3), panels):
        with col:
            lab = ui.labels(x="overview.fig.dim", y="overview.fig.token", title=f"overview.fig.{title}",
                            value=f"overview.fig.{value}")
            ui.plot(figs.equivariance_panel, z, res["tokens_b"], zrange=zrange, labels=lab, key=f"ov_equiv{suffix}")
    ui.explain(view.equivariance, toy_model.equivariance, toy_model.forward, note=ui.t("overview.explain.note"))

    table = view.equivariance_table(sent_a, sent_b, names=names)
    ui.plot(figs.equivariance_bars, table, [ui.t(f"w.ov_method.{m}") for m in view.POSITION_METHODS],
            labels=ui.labels("overview.bars", "title", "y", "nomask", "causal"), key="ov_bars")
    prefix = view.causal_weights(len(res["tokens_b"]))
    st.markdown(ui.t("overview.causal", n=prefix["length"], last=prefix["length"] - 1, weights=prefix["shown"]))
    st.markdown(ui.t("overview.alibi"))
    ui.explain(view.equivariance_table, view.causal_weights, toy_model.equivariance_table)

# ---------------------------------------------------------------- 2 · where position enters
st.subheader(ui.t("overview.where"))
st.markdown(ui.t("overview.where.text"))
dot_labels, dot_pt = ui.labels("overview.dot", *DOT_KEYS), 22 if ui.present() else 14   # >= 22 px on a projector
for col, kind in zip(st.columns(3), ("abs", "rope", "bias")):      # side by side; one under the other on a phone
    col.graphviz_chart(figs.where_position_dot(dot_labels, kinds=(kind,), fontsize=dot_pt, rankdir="TB"))

# ---------------------------------------------------------------- 3 · the method table
st.subheader(ui.t("overview.table"))
methods = view.markdown_table(ui.t("overview.table.md"))
ui.table(methods["columns"], wrap=True)
st.caption(ui.t("overview.table.note"))
st.markdown(f"**{ui.t('overview.links')}**")
cols = st.columns(3) * 3
for col, (file, path) in zip(cols, METHOD_PAGES):
    with col:
        st.page_link(file, label=ui.t(f"nav.{path}"), icon=":material/arrow_forward:")

@ui.section
def integer_scores():
    """4b · what a linear layer makes of a bare integer: the score of positions m and n grows with m·n."""
    st.markdown(ui.t("overview.int.text"))
    c = st.columns(2)
    weights = ui.radio("ov_int_weights", position_scores.WEIGHTS, "identity", col=c[0])
    seed = ui.slider("ov_int_seed", 0, 99, 0, col=c[1])
    with ui.guard():
        sc = view.offset_scores("integer", weights, seed)
        c = ui.panels(2)
        with c[0]:
            ui.plot(figs.score_map, sc["scores"], key="ov_int_map",
                    labels=ui.labels("overview.fig.score", "x", "y", "value", title="overview.int.fig"))
        with c[1]:
            ui.plot(figs.score_lines, sc["lines"], sc["offsets"], key="ov_int_lines",
                    labels=ui.labels("overview.fig.lines", "title", "x", "y", "offset"))
        diag = sc["lines"][0]
        st.metric(ui.t("overview.fig.score.residual"), f"{sc['residual']:.2f}", border=True,
                  help=ui.t("overview.fig.score.residual.help"))
        st.markdown(ui.t("overview.int.result", first=f"{diag[0]:.3g}", last=f"{diag[-1]:.3g}", m=len(diag) - 1,
                         r=f"{sc['residual']:.2f}"))
        ui.explain(position_scores.position_scores, position_scores.relative_residual)


# ---------------------------------------------------------------- 4 · bare integer seat number
st.subheader(ui.t("overview.seat"))
st.markdown(ui.t("overview.seat.text"))
with ui.guard():
    length = ui.slider("ov_len", 64, 2048, 512, step=64)
    seat = view.seat_numbers(length)
    c = st.columns(2)
    with c[0]:
        ui.plot(figs.seat_integer, seat["p"], seat["integer"], seat["normalised"], seat["train_length"], key="ov_seat",
                labels=ui.labels("overview.seat", "int", "norm", "train", "emb", "x", title="overview.seat.left"))
    with c[1]:
        ui.plot(figs.seat_sinusoids, seat["p"], seat["sinusoids"], seat["omegas"], key="ov_seat_sin",
                labels=ui.labels("overview.seat", "x", title="overview.seat.right"))
    ui.explain(view.seat_numbers, note=ui.t("overview.seat.explain"))
    integer_scores()
