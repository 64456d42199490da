import streamlit as st

from posviz import ui
from posviz.lab import toy_model as attention
from posviz.lab import tokens
from posviz.figures import overview as figs

ui.header("overview")

equivariance = ui.cache(attention.equivariance)
equivariance_table = ui.cache(attention.equivariance_table)
METHOD_PAGES = (("pages/sinusoidal.py", "sinusoidal"), ("pages/relative.py", "relative"),
                ("pages/rope.py", "rope"), ("pages/decay.py", "decay"),
                ("pages/extrapolation.py", "extrapolation"), ("pages/length.py", "length"),
                ("pages/lab.py", "lab"), ("pages/kv_cache.py", "kv-cache"), ("pages/checks.py", "checks"))

# ---------------------------------------------------------------- 1 · permutation equivariance
st.subheader(ui.t("overview.eq"))
st.markdown(ui.t("overview.eq.text"))
st.latex(r"\operatorname{Attn}(PX)=P\,\operatorname{Attn}(X),\qquad "
         r"\operatorname{Attn}(X)=\operatorname{softmax}\!\Big(\frac{XW_Q(XW_K)^\top}{\sqrt d}\Big)XW_V")
c1, c2, c3, c4 = st.columns([2, 2, 1.5, 1.1], vertical_alignment="bottom")
with c1:
    sent_a = ui.text_input("ov_a", ui.t("overview.default_a"), max_chars=tokens.MAX_CHARS)
with c2:
    sent_b = ui.text_input("ov_b", ui.t("overview.default_b"), max_chars=tokens.MAX_CHARS)
with c3:
    method = ui.select("ov_method", attention.METHODS, "nope")
with c4:
    causal = ui.toggle("ov_causal", False)

with ui.guard():
    res = equivariance(sent_a, sent_b, method=method, causal=causal)
    m1, m2 = st.columns([1, 3])
    m1.metric(ui.t("overview.metric"), f"{res['max_diff']:.1e}")
    if res["max_diff"] < attention.HARMLESS:
        m2.success(ui.t("overview.verdict.equal"))
    else:
        m2.warning(ui.t("overview.verdict.broken"))
    if method == "nope" and not causal:
        st.caption(ui.t("overview.step1"))
    fig = figs.equivariance_panels(
        res["out_b"], res["p_out_a"], res["diff"], res["tokens_b"],
        titles=(ui.t("overview.fig.b"), ui.t("overview.fig.pa"), ui.t("overview.fig.diff")),
        x_title=ui.t("overview.fig.dim"), y_title=ui.t("overview.fig.token"),
        value_title=ui.t("overview.fig.value"), diff_title=ui.t("overview.fig.delta"))
    ui.plot(fig, key="ov_equiv")
    ui.explain(r"\max\big|\operatorname{Attn}(PX)-P\operatorname{Attn}(X)\big|",
               attention.equivariance, attention.forward, note=ui.t("overview.explain.note"))

    table = equivariance_table(sent_a, sent_b)
    fig = figs.equivariance_bars(table, [ui.t(f"w.ov_method.{m}") for m in attention.METHODS],
                                 (ui.t("overview.bars.nomask"), ui.t("overview.bars.causal")),
                                 title=ui.t("overview.bars.title"), y_title=ui.t("overview.bars.y"))
    ui.plot(fig, key="ov_bars")
    st.markdown(ui.t("overview.causal"))
    st.markdown(ui.t("overview.alibi"))
    ui.explain(r"\text{bar}(\text{method},\text{mask})=\max\big|\operatorname{Attn}(PX)-P\operatorname{Attn}(X)\big|",
               attention.equivariance_table)

# ---------------------------------------------------------------- 2 · where position enters
st.subheader(ui.t("overview.where"))
st.markdown(ui.t("overview.where.text"))
dot_keys = ("abs", "rope", "bias", "tok", "pe", "hidden", "qkv", "softmax", "qk", "rot", "v", "scores", "bias_node")
st.graphviz_chart(figs.where_position_dot({k: ui.t(f"overview.dot.{k}") for k in dot_keys}))

# ---------------------------------------------------------------- 3 · the method table
st.subheader(ui.t("overview.table"))
st.markdown(ui.t("overview.table.md"))
st.caption(ui.t("overview.table.note"))
st.markdown(f"**{ui.t('overview.links')}**")
cols = st.columns(3) * 3
for col, (file, path) in zip(cols, METHOD_PAGES):
    with col:
        st.page_link(file, label=ui.t(f"nav.{path}"), icon=":material/arrow_forward:")

# ---------------------------------------------------------------- 4 · bare integer seat number
st.subheader(ui.t("overview.seat"))
st.markdown(ui.t("overview.seat.text"))
with ui.guard():
    length = ui.slider("ov_len", 64, 2048, 512, step=64)
    labels = {k: ui.t(f"overview.seat.{k}") for k in ("int", "norm", "train", "emb")}
    fig = figs.seat_number_figure(length, train_length=128,
                                  titles=(ui.t("overview.seat.left"), ui.t("overview.seat.right")),
                                  x_title=ui.t("overview.seat.x"), labels=labels)
    ui.plot(fig, key="ov_seat")
    ui.explain([r"x_p=p\quad\text{or}\quad p/L_{\text{train}}",
                r"PE_{2i}(p)=\sin(p\,\omega_i),\ \omega\in\{0.2,\ 0.05,\ 0.0125\}"],
               figs.seat_number_figure, note=ui.t("overview.seat.explain"))
