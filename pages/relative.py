"""Relative positions: distance matrix, Shaw clipping, T5 buckets, ALiBi, causal mask / NoPE."""
import streamlit as st

from posviz import ui
from posviz.pe import relative
from posviz.figures import relative as fig_rel

ui.header("relative")


# ---------------------------------------------------------------- cached compute (numpy out)
@ui.cache
def distance(L, S, shift):
    i, j = relative.shifted_positions(L, S, shift=shift)
    return relative.distance_from_positions(i, j).numpy(), i.numpy(), j.numpy()


@ui.cache
def shaw(L, S, k):
    return (relative.shaw_relative_index(L, S, max_distance=k).numpy(),
            relative.shaw_lost_distance(L, S, max_distance=k).numpy(),
            relative.shaw_clipped_distance(L, S, max_distance=k).numpy(),
            relative.shaw_summary(L, S, max_distance=k))


@ui.cache
def t5(L, S, bidir, nb, md):
    kw = dict(bidirectional=bidir, num_buckets=nb, max_distance=md)
    d, b = relative.t5_bucket_curve(**kw)
    return (relative.t5_bucket_matrix(L, S, **kw).numpy(), d.numpy(), b.numpy(),
            relative.t5_bucket_ranges(**kw), relative.t5_max_exact(bidirectional=bidir, num_buckets=nb),
            relative.t5_representative_distance(L, S, **kw).numpy())


@ui.cache
def alibi(H, h, L, S):
    return (relative.alibi_slopes(H).numpy(), relative.alibi_base_heads(H),
            relative.alibi_head_bias(H, h, L, S).numpy())


@ui.cache
def mask(L, S):
    return relative.causal_mask(L, S).numpy(), relative.nope_uniform_attention(L, S).numpy()


def t5_table(rows):
    inf = ui.t("relative.t5tab.inf")
    out = []
    for r in rows:
        if r["count"] == 0:
            rng = ui.t("relative.t5tab.empty")
        else:
            lo = f"−{inf}" if r["lo"] is None else str(r["lo"])
            hi = inf if r["hi"] is None else str(r["hi"])
            rng = lo if lo == hi else f"{lo} … {hi}"
        out.append({ui.t("relative.t5tab.bucket"): r["bucket"], ui.t("relative.t5tab.range"): rng,
                    ui.t("relative.t5tab.count"): inf if r["count"] is None else str(r["count"]),
                    ui.t("relative.t5tab.region"): ui.t(f"relative.t5tab.{r['region']}"),
                    ui.t("relative.t5tab.side"): ui.t(f"relative.t5tab.{r['side']}")})
    return out


ax = dict(x_title=ui.t("relative.ax.key"), y_title=ui.t("relative.ax.query"))

# ---------------------------------------------------------------- shared controls
c1, c2, c3 = st.columns(3)
with c1:
    L = ui.slider("rel_L", 1, 256, 12)
with c2:
    past = ui.slider("rel_past", 0, 256, 0)
with c3:
    shift = ui.slider("rel_shift", 0, 100, 0)
S = past + L

# ---------------------------------------------------------------- 1 distance
st.header(ui.t("relative.h.distance"))
st.markdown(ui.t("relative.distance.md"))
with ui.guard():
    D, qpos, kpos = distance(L, S, shift)
    if past:
        st.caption(ui.t("relative.decode.rect", L=L, S=S, first=qpos[0], last=qpos[-1], L_1=L - 1))
    else:
        st.caption(ui.t("relative.decode.square", S=S, first=qpos[0], last=qpos[-1]))
    if shift:
        st.caption(ui.t("relative.shift.note", shift=shift, first=shift))
    ui.plot(ui.build(fig_rel.matrix, D, query_pos=qpos, key_pos=kpos, title=ui.t("relative.fig.distance"),
                           colorbar_title=ui.t("relative.cb.distance"), text_cols=32, **ax),
            key="rel_fig_distance")
    ui.explain([r"D_{ij} = i - j,\qquad i = S - L + r\ \ (\text{right-aligned queries})",
                r"D_{(i+\Delta)(j+\Delta)} = (i+\Delta)-(j+\Delta) = D_{ij}"],
               relative.relative_distance, relative.shifted_positions, relative.distance_from_positions)

# ---------------------------------------------------------------- 2 Shaw
st.header(ui.t("relative.h.shaw"))
st.markdown(ui.t("relative.shaw.md"))
k = ui.slider("rel_k", 0, 64, 3)
shaw_ok = False
with ui.guard():
    idx, lost, clipped, summ = shaw(L, S, k)
    shaw_ok = True
    m1, m2, m3 = st.columns(3)
    m1.metric(ui.t("relative.m.rows"), summ["rows"])
    m2.metric(ui.t("relative.m.clipped"), f"{summ['clipped']} / {summ['pairs']}")
    m3.metric(ui.t("relative.m.distinct"), summ["distinct"])
    ui.plot(ui.build(fig_rel.shaw, idx, lost, k=k, query_pos=qpos,
                         titles=[ui.t("relative.fig.shaw.index"), ui.t("relative.fig.shaw.lost")],
                         colorbar_titles=[ui.t("relative.cb.index"), ui.t("relative.cb.lost")], **ax),
            key="rel_fig_shaw")
    ui.explain([r"a^K_{ij} = w^K_{\mathrm{clip}(j-i,\,k)},\quad \mathrm{clip}(x,k)=\max(-k,\min(k,x))",
                r"e_{ij} = \frac{q_i\,(k_j + a^K_{ij})^\top}{\sqrt{d}},\qquad z_i=\sum_j \alpha_{ij}(v_j + a^V_{ij})",
                r"\text{lost}_{ij} = \max(|i-j|-k,\ 0)"],
               relative.shaw_relative_index, relative.shaw_lost_distance)

# ---------------------------------------------------------------- 3 T5
st.header(ui.t("relative.h.t5"))
st.markdown(ui.t("relative.t5.md"))
c1, c2, c3 = st.columns(3)
with c1:
    bidir = ui.toggle("rel_t5_bidir", True)
with c2:
    nb = ui.slider("rel_t5_nb", 4, 128, 32, 2)
with c3:
    md = ui.slider("rel_t5_md", 2, 1024, 128)
t5_ok = False
with ui.guard():
    buckets, curve_d, curve_b, ranges, max_exact, t5_rep = t5(L, S, bidir, nb, md)
    t5_ok = True
    half = [r for r in ranges if r["side"] == "past"]
    last = half[-1]["lo"] if half[-1]["lo"] is not None else 0
    m1, m2, m3 = st.columns(3)
    m1.metric(ui.t("relative.m.exact"), max_exact)
    m2.metric(ui.t("relative.m.last"), last)
    m3.metric(ui.t("relative.m.empty"), sum(r["count"] == 0 for r in ranges))
    g1, g2 = st.columns(2)
    with g1:
        ui.plot(ui.build(fig_rel.matrix, buckets, query_pos=qpos, key_pos=kpos, title=ui.t("relative.fig.t5.matrix"),
                               colorbar_title=ui.t("relative.cb.bucket"), diverging=False, zmin=0,
                               zmax=nb - 1, **ax), key="rel_fig_t5_matrix")
    with g2:
        ui.plot(ui.build(fig_rel.t5_step, curve_d, curve_b, max_exact=max_exact, max_distance=md, bidirectional=bidir,
                                title=ui.t("relative.fig.t5.step"), x_title=ui.t("relative.ax.distance"),
                                y_title=ui.t("relative.ax.bucket"), exact_label=ui.t("relative.t5.exact"),
                                log_label=ui.t("relative.t5.log"), max_label=ui.t("relative.t5.max", md=md),
                                bucket_label=ui.t("relative.ax.bucket")), key="rel_fig_t5_step")
    ui.explain([r"n = |j - i|\ (\text{bidirectional}),\qquad n=\max(i-j,\,0)\ (\text{causal})",
                r"\text{bucket}(n)=\begin{cases} n & n < m_e \\ \min\!\Big(m_e + \Big\lfloor"
                r"\frac{\ln(n/m_e)}{\ln(\text{max\_distance}/m_e)}\,(n_b-m_e)\Big\rfloor,\ n_b-1\Big) & n\ge m_e"
                r"\end{cases},\quad m_e=\lfloor n_b/2\rfloor"],
               relative.t5_relative_position_bucket, relative.t5_bucket_matrix, relative.t5_bucket_ranges,
               note=ui.t("relative.t5.empty_note"))
    st.caption(ui.t("relative.t5.table"))
    st.dataframe(t5_table(ranges), hide_index=True, height=280)

# ---------------------------------------------------------------- 4 ALiBi
st.header(ui.t("relative.h.alibi"))
st.markdown(ui.t("relative.alibi.md"))
c1, c2 = st.columns(2)
with c1:
    H = ui.slider("rel_heads", 1, 128, 8)
with c2:
    head_asked = ui.slider("rel_head", 1, 128, 1)
h = min(head_asked, H)
if h != head_asked:
    st.caption(ui.t("relative.alibi.clamped", asked=head_asked, H=H, h=h))
alibi_ok = False
with ui.guard():
    slopes, n_base, bias = alibi(H, h, L, S)
    alibi_ok = True
    g1, g2 = st.columns(2)
    with g1:
        ui.plot(ui.build(fig_rel.alibi_slopes, slopes, n_base=n_base, title=ui.t("relative.fig.alibi.slopes"),
                                     x_title=ui.t("relative.ax.head"), y_title=ui.t("relative.ax.slope"),
                                     base_label=ui.t("relative.alibi.base", n=n_base),
                                     fill_label=ui.t("relative.alibi.fill", n2=2 * n_base), selected=h),
                key="rel_fig_alibi_slopes")
    with g2:
        ui.plot(ui.build(fig_rel.matrix, bias, query_pos=qpos, key_pos=kpos,
                               title=ui.t("relative.fig.alibi.bias", h=h, m=f"{float(slopes[h - 1]):.6g}"),
                               colorbar_title=ui.t("relative.cb.bias"), **ax), key="rel_fig_alibi_bias")
    ui.explain([r"m_h = 2^{-8h/H}\quad (H = 2^a),\qquad b_{hij} = -m_h\,|i-j|",
                r"H \ne 2^a:\ \ m = \mathrm{slopes}(2^{\lfloor\log_2 H\rfloor})\ \Vert\ "
                r"\mathrm{slopes}(2^{\lfloor\log_2 H\rfloor+1})[0::2][:H-2^{\lfloor\log_2 H\rfloor}]"],
               relative.alibi_slopes, relative.alibi_head_bias)

# ---------------------------------------------------------------- 5 mask / NoPE
st.header(ui.t("relative.h.mask"))
st.markdown(ui.t("relative.mask.md"))
with ui.guard():
    M, U = mask(L, S)
    ui.plot(ui.build(fig_rel.mask, M, U, query_pos=qpos,
                         titles=[ui.t("relative.fig.mask.mask"), ui.t("relative.fig.mask.uniform")],
                         line_x_title=ui.t("relative.ax.query"), line_y_title=ui.t("relative.ax.weight"),
                         allowed_label=ui.t("relative.mask.allowed"), weight_label=ui.t("relative.mask.weight"),
                         **ax), key="rel_fig_mask")
    ui.explain([r"M_{ij} = [\,j \le i\,]", r"A_{ij} = \frac{M_{ij}}{\sum_{j'} M_{ij'}} = \frac{[\,j\le i\,]}{i+1}"],
               relative.causal_mask, relative.nope_uniform_attention)

# ---------------------------------------------------------------- 6 side by side
st.header(ui.t("relative.h.side"))
st.markdown(ui.t("relative.side.md"))
if shaw_ok and t5_ok and alibi_ok:
    with ui.guard():
        ui.plot(ui.build(fig_rel.side_by_side, 
            [D, clipped, t5_rep], bias, query_pos=qpos,
            titles=[ui.t("relative.fig.side.distance"), ui.t("relative.fig.side.shaw", k=k),
                    ui.t("relative.fig.side.t5")],
            alibi_title=ui.t("relative.fig.side.alibi", h=h), colorbar_title=ui.t("relative.cb.tokens"),
            alibi_colorbar_title=ui.t("relative.cb.logits"), **ax), key="rel_fig_side")
        ui.explain([r"i-j,\qquad \mathrm{clip}(i-j,-k,k),\qquad \arg\min_{d\,\in\,\text{bucket}(i-j)} |d|,"
                    r"\qquad -m_h|i-j|"],
                   relative.shaw_clipped_distance, relative.t5_representative_distance)

# ---------------------------------------------------------------- 7 tables
st.header(ui.t("relative.h.tables"))
st.markdown(ui.t("relative.tables.md"))
st.subheader(ui.t("relative.table.methods.title"))
st.markdown(ui.t("relative.table.methods"))
st.subheader(ui.t("relative.table.boundary.title"))
st.markdown(ui.t("relative.table.boundary"))
