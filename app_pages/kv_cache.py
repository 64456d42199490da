"""KV cache: prefill + decode against the full forward, the correct cache and its wrong ones, per dtype; a
streaming cache of attention sinks + a window; gpt-oss's learned sink logits; keys evicted from the middle of the
cache; a tree of speculative drafts verified in one pass.

The page's sections after the controls, in the order the user sees them, then the script that draws the
controls and runs them."""
import streamlit as st

from posviz import ui
from posviz.figures import kv_cache as figs
from posviz.figures import relative as rfigs
from posviz.lab import eviction, kv_cache, speculative, streaming
from posviz.views import kv_cache as view

MODE_KEYS = {f"mode.{m}": f"w.kv_modes.{m}" for m in view.MODES}   # the figures' labels of the modes: text keys


def decode(res, shown, P, dtype):
    """1 · the verdict of every decode mode, its error per position and what "equal" means."""
    none = ui.t("kv_cache.summary.none")
    ui.table({   # the verdict first: on a phone the table scrolls sideways
        ui.t("kv_cache.summary.mode"): [ui.t(f"w.kv_modes.{m}") for m in view.MODES],
        ui.t("kv_cache.summary.verdict"): [ui.t("kv_cache.pass" if res["passed"][m] else "kv_cache.fail")
                                           for m in view.MODES],
        ui.t("kv_cache.summary.first"): [none if res["first_fail"][m] is None else str(res["first_fail"][m])
                                         for m in view.MODES],
        ui.t("kv_cache.summary.max"): [f"{res['max_decoded'][m]:.2e}" for m in view.MODES],
    }, static=True)
    ui.plot(figs.error_figure, res["positions"], {m: res["errors"][m] for m in shown}, prefill_length=P,
            allowed=res["allowed"], precision=res["precision"], key="kv_errors",
            labels=ui.labels("kv_cache.fig.error", "title", "x", "y", prefill="kv_cache.fig.prefill",
                             allowed="kv_cache.fig.allowed", precision=("kv_cache.fig.precision", {"dtype": dtype}),
                             **MODE_KEYS))
    st.caption(ui.t("kv_cache.fig.floor"))
    ui.explain(kv_cache.full_causal_rope_attention, kv_cache.decode_with_cache_trace, kv_cache.compare_modes)
    note = res["tol_note"]   # float32 has no grey line: its sentence says what the float32 numbers are
    st.markdown(ui.t("kv_cache.tol" if note == "lowp" else f"kv_cache.tol.{note}", dtype=dtype, rtol=res["rtol"],
                     atol=res["atol"], prec=res["max_precision"], corr32=res["max_decoded_f32"]["correct"],
                     wrong=res["wrong_min"], same=res["max_decoded"]["correct"]))
    if note == "lowp":
        st.caption(ui.t("kv_cache.tol_same", dtype=dtype, same=res["max_decoded"]["correct"]))


def trace(res, shown, L):
    """2 · the positions the last decode step used, and the cache table step by step."""
    st.subheader(ui.t("kv_cache.trace.title"))
    if res["last"] is None:
        st.info(ui.t("kv_cache.trace.none"))
        return
    if shown:
        ui.plot(figs.positions_figure, {m: res["last"][m][0] for m in shown},
                {m: res["last"][m][1] for m in shown}, key="kv_positions",
                labels=ui.labels("kv_cache.fig.pos", "x", "y", "query",
                                 title=("kv_cache.fig.pos.title", {"t": L - 1}), **MODE_KEYS))
        st.caption(ui.t("kv_cache.fig.pos.note"))
        ui.explain(kv_cache.decode_with_cache_trace, view.read_positions_at)
    mode = ui.radio("kv_trace_mode", view.MODES, "correct")
    with st.container(key="kv_trace"):      # the cache table: what the long decode's scene lands on (issue 33)
        ui.table(res["tables"][mode], static=True)
    st.caption(ui.t("kv_cache.trace.caption", head=view.TRACE_HEAD, tail=view.TRACE_TAIL, keys=view.TRACE_KEYS))


@ui.section
def argmax_section(setup):
    """2b · comparing only the argmax hides cache bugs: next-token agreement against the error, per decode step."""
    st.subheader(ui.t("kv_cache.argmax.title"))
    st.markdown(ui.t("kv_cache.argmax.text"))
    c = st.columns(3)
    n = ui.slider("kv_argmax_L", 4, view.MAX_LENGTH, 24, col=c[0])
    p = ui.slider("kv_argmax_P", 1, view.MAX_LENGTH - 1, 8, col=c[1])
    seed = ui.slider("kv_argmax_seed", 0, 99, 0, col=c[2])
    with ui.guard():
        res = view.argmax(n, min(p, n - 1), seed, heads=setup["heads"], head_dim=setup["head_dim"],
                          layout=setup["layout"])
        ui.plot(figs.argmax_figure, res["steps"], res["errors"], res["agree"], key="kv_argmax",
                labels=ui.labels("kv_cache.fig.argmax", "title", "x", "y", "agree", "differ", **MODE_KEYS))
        st.markdown("\n".join(ui.t("kv_cache.argmax.line", mode=ui.t(f"w.kv_modes.{m}"), k=res["agreed"][m],
                                     n=len(res["steps"]), err=f"{res['max_error'][m]:.2g}") for m in view.MODES))
        ui.explain(kv_cache.argmax_check)


def stream_body(setup):
    """The streaming section's controls, its verdicts and figures."""
    c = st.columns(3)
    n = ui.slider("kv_stream_L", 2, view.STREAM_MAX_LENGTH, 48, col=c[0])
    sinks = ui.slider("kv_stream_sinks", 0, streaming.MAX_SINKS, 4, col=c[1])
    window = ui.slider("kv_stream_window", 1, 64, 8, col=c[2])
    modes = ui.multiselect("kv_stream_modes", view.STREAM_MODES, view.STREAM_MODES)
    keys = {f"mode.{m}": f"w.kv_stream_modes.{m}" for m in view.STREAM_MODES}
    with ui.guard():
        res = view.stream(n, sinks, window, **setup)
        shown = [m for m in view.STREAM_MODES if m in modes]
        if not shown:
            st.info(ui.t("kv_cache.stream.need_mode"))
        ui.table({
            ui.t("kv_cache.summary.mode"): [ui.t(f"w.kv_stream_modes.{m}") for m in view.STREAM_MODES],
            ui.t("kv_cache.summary.verdict"): [ui.t("kv_cache.pass" if res["passed"][m] else "kv_cache.fail")
                                               for m in view.STREAM_MODES],
            ui.t("kv_cache.summary.max"): [f"{res['max_error'][m]:.2e}" for m in view.STREAM_MODES],
        }, static=True)
        ui.plot(figs.error_figure, res["positions"], {m: res["errors"][m] for m in shown},
                prefill_length=min(res["cache"], n), allowed=res["allowed"], key="kv_stream_errors",
                labels=ui.labels("kv_cache.fig.error", "x", "y", title="kv_cache.fig.stream.title",
                                 prefill="kv_cache.fig.stream.fill", allowed="kv_cache.fig.allowed", **keys))
        ui.explain(streaming.streaming_reference, streaming.streaming_decode_trace, streaming.kept_tokens)
        if res["first_evict"] is None:
            st.info(ui.t("kv_cache.stream.no_evict", c=res["cache"]))
            return
        st.markdown(ui.t("kv_cache.stream.offsets", t=n - 1, c=res["cache"], re=res["max_offset"]["reassigned"],
                         gl=res["max_offset"]["global"]))
        st.markdown(ui.t("kv_cache.stream.stale" if window > 1 else "kv_cache.stream.stale_none",
                         first=res["first_evict"], wrong=res["wrong"], slot=res["cache"] - 1))
        if setup["dtype"] != "float32":
            st.caption(ui.t("kv_cache.stream.lowp", dtype=setup["dtype"], shift=res["max_error"]["shift"],
                            on_read=res["max_error"]["on_read"]))
        if shown:
            ui.plot(figs.positions_figure, {m: res["last"][m]["query"] for m in shown},
                    {m: res["last"][m]["keys"] for m in shown}, key="kv_stream_positions",
                    labels=ui.labels("kv_cache.fig.pos", "x", "y", "query",
                                     title=("kv_cache.fig.stream.pos.title", {"t": n - 1}), **keys))
        if res["score_range"] is None:
            st.info(ui.t("kv_cache.stream.no_sinks"))
            return
        ui.plot(figs.sink_score_figure, res["scores"], first_evict=res["first_evict"], key="kv_stream_scores",
                labels=ui.labels("kv_cache.fig.score", "title", "x", "y", "evict",
                                 **{f"contract.{c}": f"kv_cache.stream.contract.{c}" for c in streaming.CONTRACTS}))
        (re, _), (lo, hi) = res["score_range"]["reassigned"], res["score_range"]["global"]
        st.caption(ui.t("kv_cache.stream.score", c1=res["cache"] - 1, re=re, gl_lo=lo, gl_hi=hi))
        ui.explain(streaming.sink_score_curve, streaming.contract_positions)


@ui.section
def stream_section(setup):
    """4 · attention sinks + a rolling window: positions reassigned in the cache or kept global, and the stale
    keys (a deep dive: runs only when open)."""
    st.subheader(ui.t("kv_cache.stream.title"))
    st.caption(ui.t("kv_cache.stream.teaser"))
    with ui.more("kv_stream") as box:
        if box.open:
            st.markdown(ui.t("kv_cache.stream.md"))
            stream_body(setup)


def sinks_body(L, setup):
    """The sink section's control, the mass that goes nowhere and the wrong kernels' errors."""
    sigma = ui.slider("kv_sink", -4.0, 8.0, 2.0, step=0.5)
    with ui.guard():
        res = view.sinks(L, sigma, **setup)
        ui.plot(figs.sink_mass_figure, res["positions"], res["sink"], key="kv_sink_mass",
                labels=ui.labels("kv_cache.fig.sink", "title", "x", "y", "head"))
        st.markdown(ui.t("kv_cache.sinks.numbers", s=sigma, p0=res["first"][0], pl=res["last"][0], n=L,
                         ign=res["max_error"]["ignored"], sc=res["max_error"]["scaled"]))
        ui.plot(figs.error_figure, res["positions"], res["errors"], prefill_length=None, allowed=res["allowed"],
                key="kv_sink_errors",
                labels=ui.labels("kv_cache.fig.error", "x", "y", title="kv_cache.fig.sinkerr.title",
                                 allowed="kv_cache.fig.allowed",
                                 **{f"mode.{m}": f"kv_cache.sinks.mode.{m}" for m in view.SINK_MODES}))
        ui.explain(streaming.sink_attention, streaming.compare_sinks)


@ui.section
def sinks_section(L, setup):
    """5 · gpt-oss: a learned logit per head in the softmax denominator, without a value (a deep dive)."""
    st.subheader(ui.t("kv_cache.sinks.title"))
    st.caption(ui.t("kv_cache.sinks.teaser"))
    with ui.more("kv_sinks") as box:
        if box.open:
            st.markdown(ui.t("kv_cache.sinks.md"))
            sinks_body(L, setup)


def evict_body():
    """Keys dropped from the middle: keep their positions, renumber them, or let the query count the cache."""
    c = st.columns(4)
    prompt = ui.slider("kv_ev_P", 4, view.EVICT_MAX_PROMPT, 24, col=c[0])
    start = ui.slider("kv_ev_start", 0, view.EVICT_MAX_START, 8, col=c[1])
    count = ui.slider("kv_ev_count", 0, view.EVICT_MAX_COUNT, 6, col=c[2])
    policy = ui.radio("kv_ev_policy", view.EVICT_POLICIES, "span", col=c[3])
    ev = view.evicted(prompt, start, count, policy)
    modes = {f"mode.{m}": f"kv_cache.evict.mode.{m}" for m in view.EVICT_MODES}
    ui.table({ui.t("kv_cache.summary.mode"): [ui.t(f"kv_cache.evict.mode.{m}") for m in view.EVICT_MODES],
              ui.t("kv_cache.evict.vs_full"): [f"{ev['max_error'][m]:.2e}" for m in view.EVICT_MODES],
              ui.t("kv_cache.evict.vs_keep"): [f"{ev['max_position_error'][m]:.2e}" for m in view.EVICT_MODES]},
             static=True)
    ui.plot(figs.error_figure, ev["positions"], ev["position_errors"], prefill_length=prompt,
            precision=ev["errors"]["keep"], key="kv_evict_errors",
            labels=ui.labels("kv_cache.fig.evict", "title", prefill="kv_cache.fig.evict.prompt",
                             precision="kv_cache.fig.evict.itself", x="kv_cache.fig.error.x", y="kv_cache.fig.error.y",
                             **modes))
    ui.plot(figs.positions_figure, ev["last_query"], ev["last_keys"], key="kv_evict_positions",
            labels=ui.labels("kv_cache.fig.pos", "x", "y", "query", title=("kv_cache.fig.evict.pos", ev["said"]),
                             **modes))
    st.markdown(ui.t(f"kv_cache.evict.said.{ev['case']}", **ev["said"]))
    ui.explain(eviction.eviction_positions, eviction.evicted_decode, eviction.evicted_tokens, eviction.h2o_scores,
               eviction.compare_eviction)
    st.markdown(ui.t("kv_cache.evict.stacks"))


def tree_body():
    """A tree of drafts in one pass: position ids by depth and the tree mask, against the two bugs."""
    c = st.columns(3)
    prefix = ui.slider("kv_tree_P", 1, view.TREE_MAX_PREFIX, 6, col=c[0])
    shape = ui.select("kv_tree_shape", view.TREE_SHAPES, "2x2", col=c[1])
    setup = ui.radio("kv_tree_setup", view.TREE_SETUPS, "correct", col=c[2])
    tr = view.tree(prefix, shape, setup)
    ui.plot(rfigs.matrix, tr["shown_mask"], tr["labels"], tr["key_labels"], scale="mask", zmin=0, zmax=1,
            showscale=False, text_cols=0, title_at="phone", key="kv_tree_mask",
            labels=ui.labels("kv_cache.fig.tree", "x", "y", title=(f"kv_cache.fig.tree.mask.{setup}", tr["said"])))
    ui.plot(figs.error_figure, tr["nodes"], tr["errors"], prefill_length=None, key="kv_tree_errors",
            labels=ui.labels(title="kv_cache.fig.tree.errors", x="kv_cache.fig.tree.node", y="kv_cache.fig.error.y",
                             **{f"mode.{s}": f"w.kv_tree_setup.{s}" for s in view.TREE_SETUPS}))
    st.markdown(ui.t("kv_cache.tree.said", **tr["said"]))
    ui.explain(speculative.tree_position_ids, speculative.tree_mask, speculative.tree_attention,
               speculative.branch_reference)
    st.markdown(ui.t("kv_cache.tree.stacks"))


ui.header("kv_cache")

c = st.columns(3)
L = ui.slider("kv_L", 2, view.MAX_LENGTH, 6, col=c[0])
P = ui.slider("kv_prefill", 1, view.MAX_LENGTH, 4, col=c[0])
heads = ui.select_slider("kv_heads", view.HEADS, 2, col=c[1])
head_dim = ui.select_slider("kv_head_dim", view.HEAD_DIMS, 16, col=c[1])
dtype = ui.radio("kv_dtype", view.DTYPES, "float32", col=c[2])
layout = ui.radio("kv_layout", view.ROPE_LAYOUTS, "interleaved", col=c[2])
modes = ui.multiselect("kv_modes", view.MODES, view.MODES)
setup = dict(heads=heads, head_dim=head_dim, dtype=dtype, layout=layout)

with ui.guard():
    res = view.decoding(L, P, **setup)
    shown = [m for m in view.MODES if m in modes]
    if not shown:
        st.info(ui.t("kv_cache.need_mode"))
    decode(res, shown, P, dtype)
    st.subheader(ui.t("kv_cache.why.title"))
    st.markdown(ui.t("kv_cache.why"))
    trace(res, shown, L)
argmax_section(setup)

st.subheader(ui.t("kv_cache.diagram.title"))
st.markdown(ui.t("kv_cache.diagram"))
st.markdown(ui.t("kv_cache.advice"))
stream_section(setup)
sinks_section(L, setup)
ui.deep_dive("kv_evict", "kv_cache.evict", evict_body)     # a serving case: evicted keys
ui.deep_dive("kv_tree", "kv_cache.tree", tree_body)        # a serving case: draft trees
