"""Strings of the RoPE + KV cache page (seed 000 §10, §13)."""

EN = {
    "kv_cache.title": "RoPE + KV cache: incremental decoding must equal the full forward",
    "kv_cache.intro": (
        "A KV cache reuses the keys and values of earlier tokens; each new token only brings its own query. "
        "With RoPE this is exact only if the new token is rotated by its **global** position "
        "(past_length, past_length + 1, …) and the cache holds every key **rotated once**, by its own position. "
        "Below, random content vectors q, k, v go through the full causal forward and through prefill + "
        "one-token-at-a-time decoding in four ways; the error per position tells which one is right."),
    "kv_cache.sources": (
        "Sources: Su et al. 2021, *RoFormer* (RoPE); “Same words, different order: how does attention tell positions apart? From sinusoidal encodings to RoPE” §10 (RoPE and KV cache) and §13 (common bugs). "
        "Tolerances: `torch.testing.assert_close` defaults."),
    "w.kv_L": "Sequence length L",
    "w.kv_L.help": "Total tokens: prefill + decoded. The decode loop runs one step per token.",
    "w.kv_prefill": "Prefill length P",
    "w.kv_prefill.help": "Tokens 0..P-1 run in one causal pass; tokens P..L-1 are decoded one at a time. Must be 1..L.",
    "w.kv_heads": "Heads H",
    "w.kv_head_dim": "Head width d",
    "w.kv_dtype": "dtype of q, k, v",
    "w.kv_dtype.help": "Angles p·θ are always computed in float32; only cos/sin and the attention run in this dtype.",
    "w.kv_dtype.float32": "float32",
    "w.kv_dtype.bfloat16": "bfloat16",
    "w.kv_dtype.float16": "float16",
    "w.kv_layout": "Pairing",
    "w.kv_layout.interleaved": "interleaved (0,1),(2,3)…",
    "w.kv_layout.half": "half (i, i+d/2)",
    "w.kv_modes": "Decode modes to compare",
    "w.kv_modes.correct": "correct",
    "w.kv_modes.restart": "wrong A: restart at 0",
    "w.kv_modes.rerotate": "wrong B: re-rotate cache",
    "w.kv_modes.rotate_on_read": "un-rotated cache, rotate on read",
    "w.kv_trace_mode": "Show the cache of",
    "w.kv_trace_mode.correct": "correct",
    "w.kv_trace_mode.restart": "wrong A: restart at 0",
    "w.kv_trace_mode.rerotate": "wrong B: re-rotate cache",
    "w.kv_trace_mode.rotate_on_read": "un-rotated cache, rotate on read",
    "kv_cache.need_mode": "Pick at least one decode mode.",
    "kv_cache.summary.mode": "mode",
    "kv_cache.summary.max": "max error (decoded tokens)",
    "kv_cache.summary.first": "first failing position",
    "kv_cache.summary.verdict": "assert_close",
    "kv_cache.summary.none": "—",
    "kv_cache.pass": "= equal",
    "kv_cache.fail": "≠ differs",
    "kv_cache.fig.error.title": "Per-position max |decode − full forward|",
    "kv_cache.fig.error.x": "position p",
    "kv_cache.fig.error.y": "max abs error (log)",
    "kv_cache.fig.prefill": "prefill",
    "kv_cache.fig.allowed": "tolerance",
    "kv_cache.fig.precision": "full({dtype}) vs full(float32)",
    "kv_cache.fig.floor": "Exact zeros are drawn at 10⁻⁹ so they fit on the log axis.",
    "kv_cache.tol": (
        "**\"Equal\" means equal within a tolerance.** A position passes when "
        "max|decode − full| ≤ atol + rtol·max|full|, with the `assert_close` defaults for **{dtype}**: "
        "rtol = {rtol:g}, atol = {atol:g} (dashed line). The grey dotted line is what the dtype alone costs: "
        "the full forward in {dtype} differs from the float32 one by up to **{prec:.1e}**. "
        "The correct mode's distance from the float32 result is up to **{corr32:.1e}** — not 0, but small; "
        "the wrong modes are off by **{wrong:.2g}**."),
    "kv_cache.tol.f32": (
        "**\"Equal\" means equal within a tolerance.** A position passes when "
        "max|decode − full| ≤ atol + rtol·max|full|, with the `assert_close` defaults for **float32**: "
        "rtol = {rtol:g}, atol = {atol:g} (dashed line). In float32 the full forward *is* the reference, so there is "
        "no grey line. The correct decode differs from it by at most **{same:.1e}** here: not 0, because each decode "
        "step sums its query's scores over a shorter key list, in another order, and float32 rounds every sum "
        "(its machine epsilon is 1.2e-7). The wrong modes are off by **{wrong:.2g}**."),
    "kv_cache.tol.f32_exact": (
        "**\"Equal\" means equal within a tolerance.** A position passes when "
        "max|decode − full| ≤ atol + rtol·max|full|, with the `assert_close` defaults for **float32**: "
        "rtol = {rtol:g}, atol = {atol:g} (dashed line). In float32 the full forward *is* the reference, so there is "
        "no grey line; here the correct decode equals it **exactly** (largest difference {same:g}). "
        "The wrong modes are off by **{wrong:.2g}**."),
    "kv_cache.tol_same": (
        "Both in {dtype}, the correct decode and the full forward differ here by at most **{same:.1e}**. On this CPU "
        "each query row goes through almost the same arithmetic in both paths, so in low precision this can even be "
        "exactly 0; fused GPU kernels tile and reduce in another order and typically differ by about the grey line — "
        "which is why tests compare with a tolerance, never with ==."),
    "kv_cache.why.title": "Why each wrong mode fails from the first decoded token",
    "kv_cache.why": (
        "The first decoded token sits at global position P. In the full forward its score with a past key s < P "
        "is q_P^T R(s − P) k_s. The three bugs give it another offset for **every** past key, so its attention "
        "row changes at once (the prefill rows 0..P−1 are identical in every mode):\n\n"
        "- **wrong A, restart at 0**: q_P is rotated by R(0), keys keep R(s): offset **s − 0 = s** instead of s − P.\n"
        "- **wrong B, re-rotate**: at step t the cached keys are rotated again by R(t) and stored back: key s now "
        "carries s + P (then s + P + (P+1), …), so the offset is **s** at the first step and drifts further each step.\n"
        "- **un-rotated cache, rotate on read**: all keys are rotated by the current R(t) when read: every offset "
        "becomes **0**, the past loses its positions (it looks like no position encoding at all).\n\n"
        "Only the new token's own key (s = P) keeps offset 0 in every mode. The error could vanish only by "
        "accident (e.g. a content vector that is exactly zero, or offsets that differ by a multiple of every "
        "pair's period); with random q, k it never does. With P = 1 the first decoded token has one past key."),
    "kv_cache.trace.title": "What the cache holds, step by step",
    "kv_cache.trace.caption": (
        "One row per decoded token t. Column q: the position its query is rotated by. Columns k0, k1, …: for each "
        "cached key, the position p it is rotated by when the step reads it, and the angle θ₀·p of the fastest "
        "pair (θ₀ = 1 rad per position), wrapped to [0, 2π). \"(0→)\" marks a key stored un-rotated and rotated on "
        "read. Correct: k_s always shows p = s. Shown: the first {head} and the last {tail} decode steps (\"… t\" "
        "marks the cut) and the first {keys} cached keys."),
    "kv_cache.trace.none": "Nothing is decoded when P = L: the whole sequence is prefill.",
    "kv_cache.fig.pos.title": "Positions used by the last decode step (token {t})",
    "kv_cache.fig.pos.x": "cached key slot s",
    "kv_cache.fig.pos.y": "position the key is rotated by",
    "kv_cache.fig.pos.query": "query",
    "w.kv_argmax_L": "Sequence length",
    "w.kv_argmax_P": "Prefill length",
    "w.kv_argmax_seed": "Random draw of q, k, v and the next-token head",
    "kv_cache.argmax.title": "Comparing only the argmax hides cache bugs",
    "kv_cache.argmax.text": (
        "A test that compares only the next token a model picks passes a broken cache at many steps (“Same words, "
        "different order…” §10: compare every position's output). Here a fixed random head W_o turns each decode "
        "step's attention output into scores over 32 tokens; the marker is hollow where the decode picks the "
        "same token as the full forward and a cross where it does not, its height the step's largest output error."),
    "kv_cache.argmax.line": "- **{mode}**: the argmax agrees at {k} of {n} decode steps; the largest error is {err}.",
    "kv_cache.fig.argmax.title": "Largest error per decode step, and whether the argmax agrees",
    "kv_cache.fig.argmax.x": "decoded position t",
    "kv_cache.fig.argmax.y": "max |decode − full| at t",
    "kv_cache.fig.argmax.agree": "argmax agrees",
    "kv_cache.fig.argmax.differ": "argmax differs",
    "kv_cache.fig.pos.note": "Dashed: the position the query is rotated by. Only \"correct\" keeps keys on y = s with the query at the last slot.",
    "kv_cache.diagram.title": "The picture of “Same words, different order…” §10",
    "kv_cache.diagram": (
        "| step | positions | rotate | cache |\n|---|---|---|---|\n"
        "| prefill | 0 1 2 3 | each K by its own R(p) | length 4 |\n"
        "| decode | 4 | q₄, k₄ by R(4) | append k₄ |\n"
        "| decode | 5 | q₅, k₅ by R(5) | append k₅ |\n\n"
        "- **wrong A**: every new token uses R(0)\n"
        "- **wrong B**: the cached K are rotated again at every step"),
    "kv_cache.code.title": "The correct decode step (“Same words, different order…” §10)",
    "kv_cache.advice": (
        "**Test advice.** Turn off dropout and compare the full causal forward with prefill + step decoding at "
        "**every position** (`torch.testing.assert_close`). Comparing only the final argmax can hide a small but "
        "systematic misplacement: a shifted attention row often still ranks the same token first, until it does not."),
    "kv_cache.scene.diagram": "The article's diagram: prefill 0..3, decode 4, 5",
    "kv_cache.scene.diagram.say": (
        "Six tokens, prefill four, decode two. Correct sits at ~10⁻⁷; all three wrong modes jump at position 4, the first decoded token."),
    "kv_cache.scene.one": "Prefill a single token",
    "kv_cache.scene.one.say": (
        "P = 1: everything after the first token is decoded. The wrong modes fail from position 1; look at the cache table of wrong B: the positions its keys carry grow at every step."),
    "kv_cache.scene.reread": "Rotate on read erases the past",
    "kv_cache.scene.reread.say": (
        "The cache table shows every key rotated by the current position: all offsets are 0, the model sees no order in the past."),
    "kv_cache.scene.bf16": "bfloat16: equal within a tolerance",
    "kv_cache.scene.bf16.say": (
        "In bfloat16 the numbers are not the float32 ones (grey line ~10⁻³–10⁻²), but correct stays within the dtype's tolerance; the wrong modes stay far above it."),
    "kv_cache.scene.long": "A longer decode",
    "kv_cache.scene.long.say": (
        "96 tokens, prefill 16: the correct mode stays at rounding level over 80 decode steps. In wrong B every step rotates the whole cache again, so the positions its keys carry pile up: in the last row of the cache table (token 95) key k0 is rotated by position 4440 instead of 0, and the error never recovers."),
    # ---- attention sinks and a streaming cache
    "kv_cache.stream.title": "Attention sinks and a streaming cache (StreamingLLM)",
    "kv_cache.stream.md": (
        "A model can stream far past its training length if the cache stops growing: keep the keys and values of the "
        "first **S** tokens (the *attention sinks*: trained models park attention there, and dropping them makes a "
        "plain sliding window collapse) and of the last **W** tokens, and evict the rest. Token t then reads "
        "kept(t) = {0…S−1} ∪ {t−W+1…t}. Which positions do the kept keys get?\n\n"
        "- **reassigned** (StreamingLLM): the key in cache slot j is at position j, the query at the last slot, so every "
        "offset stays below S + W, inside what the model was trained on;\n"
        "- **global**: the original positions; the query's offset to a sink is t, which grows past every distance the "
        "model ever saw.\n\n"
        "Reassigned positions change at every step, so the cache must re-rotate its keys: StreamingLLM caches them "
        "**un-rotated** and rotates each by its slot on every read; transformers' former SinkCache cached them rotated "
        "and turned the kept window keys back by R(−1) whenever the window slid (R(a)R(b) = R(a+b)). "
        "**The bug**: a rolling cache that keeps the keys rotated by the slot they were written to while the query "
        "takes the last slot. Each cache is compared with the plain recomputation of its own contract."),
    "kv_cache.stream.teaser": "Keep the first tokens and a window of recent ones, and a model can stream past its training length. Which positions do the kept keys get, and what breaks when a rolling cache keeps stale rotated keys?",
    "w.kv_stream": "Open the streaming cache: S sinks + a window of W, correct and buggy",
    "w.kv_stream_L": "Stream length",
    "w.kv_stream_L.help": "Tokens decoded one at a time through the streaming cache.",
    "w.kv_stream_sinks": "Sink tokens S",
    "w.kv_stream_sinks.help": "The first S tokens are never evicted (StreamingLLM keeps 4). 0 is a plain sliding window.",
    "w.kv_stream_window": "Window W",
    "w.kv_stream_window.help": "The last W tokens, the current one included. The cache holds S + W keys.",
    "w.kv_stream_modes": "Streaming caches to compare",
    "w.kv_stream_modes.on_read": "reassigned: rotate on read (StreamingLLM)",
    "w.kv_stream_modes.shift": "reassigned: rotate back on slide (SinkCache)",
    "w.kv_stream_modes.global": "global positions",
    "w.kv_stream_modes.stale": "bug: stale rotated keys",
    "kv_cache.stream.contract.reassigned": "reassigned (in the cache)",
    "kv_cache.stream.contract.global": "global (original)",
    "kv_cache.stream.need_mode": "Pick at least one streaming cache.",
    "kv_cache.fig.stream.title": "Per-position max |streaming cache − plain recomputation|",
    "kv_cache.fig.stream.fill": "cache filling",
    "kv_cache.fig.stream.pos.title": "Positions used at the last step (token {t})",
    "kv_cache.stream.offsets": (
        "At the last step (token {t}) the cache holds {c} keys. With reassigned positions the query sees offsets up to "
        "**{re:g}**; with global ones up to **{gl:g}**: the sinks sit {gl:g} positions back, a distance a model trained "
        "on {c}-token windows never saw."),
    "kv_cache.stream.no_evict": "The stream is not longer than S + W = {c}: nothing is evicted, and both contracts are the ordinary full forward.",
    "kv_cache.stream.stale": (
        "The stale cache is equal up to step {first} (the first eviction) and off by up to **{wrong:.2g}** after it: "
        "every key written into the full cache was rotated by the last slot, {slot:g}, and stays there while it slides "
        "down, so the query sees all window keys at offset 0 (the positions figure: a flat line)."),
    "kv_cache.stream.stale_none": "With a window of one key nothing slides, so the stale cache cannot go wrong here.",
    "kv_cache.stream.lowp": (
        "In {dtype}, SinkCache's way rounds the stored keys again at every slide: its error grows with the stream "
        "(up to {shift:.2g} here), while rotating on read rounds once ({on_read:.2g})."),
    "kv_cache.fig.score.title": "Score of sink token 0 for one fixed query content, per step",
    "kv_cache.fig.score.x": "decode step t",
    "kv_cache.fig.score.y": "qᵀR(Δ)k₀/√d",
    "kv_cache.fig.score.evict": "window slides",
    "kv_cache.stream.score": (
        "Only the positions change between the two lines (the query content is fixed). Once the window slides, the "
        "reassigned offset stays at {c1} and the sink's score holds at {re:.3f}; with global offsets it wanders "
        "between {gl_lo:.3f} and {gl_hi:.3f}, through offsets never trained on."),
    "kv_cache.stream.no_sinks": "S = 0: no sink token to score (a plain sliding window).",
    # ---- gpt-oss learned sinks
    "kv_cache.sinks.title": "gpt-oss: a learned sink logit per head",
    "kv_cache.sinks.md": (
        "gpt-oss makes the sink explicit: every head h has one learned number σ_h, appended to each row's logits "
        "as an extra column **without a value**. The softmax then normalises over the keys *and* the sink, and "
        "the sink's share is dropped: a row's attention may add up to less than 1, and what is missing goes "
        "nowhere. (Its sliding-window layers keep 128 tokens and no first tokens: the learned sink does their job.) "
        "Below every head gets σ; the formula is tested equal to transformers' gpt_oss eager attention."),
    "kv_cache.sinks.teaser": "gpt-oss appends one learned logit per head to the softmax, with no value behind it: attention may go nowhere.",
    "w.kv_sinks": "Open gpt-oss's sink attention and the kernels that get it wrong",
    "w.kv_sink": "Sink logit σ",
    "w.kv_sink.help": "The learned logit of each head's sink (the same here for every head). Large: most attention goes nowhere.",
    "kv_cache.fig.sink.title": "Share of each query's attention that goes nowhere",
    "kv_cache.fig.sink.x": "query position i",
    "kv_cache.fig.sink.y": "1 − Σⱼ pᵢⱼ (to the sink)",
    "kv_cache.fig.sink.head": "head {h}",
    "kv_cache.fig.sinkerr.title": "Per-position max |wrong − correct sink attention|",
    "kv_cache.sinks.mode.ignored": "sink ignored (kernel without sinks)",
    "kv_cache.sinks.mode.scaled": "sink scaled by 1/√d",
    "kv_cache.sinks.numbers": (
        "With σ = {s:g}, query 0 — one key against the sink — gives **{p0:.0%}** of its attention to nothing (head 0); "
        "the last query, with {n} keys, gives {pl:.0%}. A kernel that ignores the sink (a plain softmax) changes "
        "the outputs by up to **{ign:.2g}**; one that scales the sink by 1/√d like a dot product, by **{sc:.2g}**."),
    "kv_cache.scene.stream": "A streaming cache: reassigned vs global positions",
    "kv_cache.scene.stream.say": (
        "48 tokens through a cache of 4 sinks + 8 recent tokens. Both correct caches equal their recomputation. At the last step (token 47) the reassigned query sees offsets up to 11; the global one up to 47, a distance a model trained on 12-token windows never saw."),
    "kv_cache.scene.stale": "The stale-key bug",
    "kv_cache.scene.stale.say": (
        "A rolling cache that keeps the keys rotated by the slot they were written to: equal until token 12, the first eviction, then wrong. In the positions figure all its window keys sit at position 11, the query's own: offset 0."),
    "kv_cache.scene.sinks": "gpt-oss: attention may go nowhere",
    "kv_cache.scene.sinks.say": (
        "Sink logit σ = 2, 16 tokens: query 0, one key against the sink, gives 81% of its attention to nothing (head 0); the last query, with 16 keys, only 25%. A kernel that ignores the sink is wrong from position 0."),
    # errors of posviz.lab.kv_cache
    "err.kv.same_shape": "q, k, v must have the same shape [N,H,L,d], got {shapes}",
    "err.kv.dtype": "q, k, v must share one dtype of {choices}, got {got}",
    "err.kv.sinks_per_head": "sinks needs one logit per head ({heads}), got {got}",
}

ZH = {
    "kv_cache.title": "RoPE + KV Cache：增量解码必须等于完整前向",
    "kv_cache.intro": (
        "KV Cache 复用前面 token 的 Key 和 Value，新 token 只需带来自己的 Query。配合 RoPE 时，只有当新 token 按"
        "**全局**位置（past_length、past_length + 1……）旋转、且缓存中每个 Key 都**只按自己的位置旋转一次**时，"
        "增量解码才与完整前向等价。下面用随机内容向量 q、k、v 分别跑完整因果前向，以及“prefill + 逐 token 解码”的四种写法；"
        "逐位置误差告诉你哪一种是对的。"),
    "kv_cache.sources": (
        "来源：Su 等 2021《RoFormer》（RoPE）；《词相同但顺序不同，注意力怎样辨别位置？从正弦编码到 RoPE》§10（RoPE 与 KV Cache）与 §13（常见错误）。"
        "容差：`torch.testing.assert_close` 默认值。"),
    "w.kv_L": "序列长度 L",
    "w.kv_L.help": "总 token 数 = prefill + 解码。解码循环每个 token 走一步。",
    "w.kv_prefill": "Prefill 长度 P",
    "w.kv_prefill.help": "token 0..P-1 一次因果前向；token P..L-1 逐个解码。必须在 1..L 之间。",
    "w.kv_heads": "头数 H",
    "w.kv_head_dim": "每头宽度 d",
    "w.kv_dtype": "q、k、v 的 dtype",
    "w.kv_dtype.help": "角度 p·θ 始终用 float32 计算；只有 cos/sin 与注意力在此 dtype 下运行。",
    "w.kv_dtype.float32": "float32",
    "w.kv_dtype.bfloat16": "bfloat16",
    "w.kv_dtype.float16": "float16",
    "w.kv_layout": "配对方式",
    "w.kv_layout.interleaved": "交错配对 (0,1),(2,3)…",
    "w.kv_layout.half": "前后半配对 (i, i+d/2)",
    "w.kv_modes": "比较的解码方式",
    "w.kv_modes.correct": "正确",
    "w.kv_modes.restart": "错误 A：每步从 0 开始",
    "w.kv_modes.rerotate": "错误 B：缓存重复旋转",
    "w.kv_modes.rotate_on_read": "缓存未旋转，读取时统一旋转",
    "w.kv_trace_mode": "查看缓存内容：",
    "w.kv_trace_mode.correct": "正确",
    "w.kv_trace_mode.restart": "错误 A：每步从 0 开始",
    "w.kv_trace_mode.rerotate": "错误 B：缓存重复旋转",
    "w.kv_trace_mode.rotate_on_read": "缓存未旋转，读取时统一旋转",
    "kv_cache.need_mode": "请至少选择一种解码方式。",
    "kv_cache.summary.mode": "方式",
    "kv_cache.summary.max": "最大误差（解码 token）",
    "kv_cache.summary.first": "首个失败位置",
    "kv_cache.summary.verdict": "assert_close",
    "kv_cache.summary.none": "—",
    "kv_cache.pass": "= 相等",
    "kv_cache.fail": "≠ 不等",
    "kv_cache.fig.error.title": "逐位置最大 |解码 − 完整前向|",
    "kv_cache.fig.error.x": "位置 p",
    "kv_cache.fig.error.y": "最大绝对误差（对数）",
    "kv_cache.fig.prefill": "prefill",
    "kv_cache.fig.allowed": "容差",
    "kv_cache.fig.precision": "完整前向 {dtype} 与 float32 之差",
    "kv_cache.fig.floor": "精确为 0 的误差画在 10⁻⁹ 处，以便放进对数轴。",
    "kv_cache.tol": (
        "**“相等”指在容差内相等。** 某位置通过的条件是 max|解码 − 完整| ≤ atol + rtol·max|完整|，"
        "采用 `assert_close` 对 **{dtype}** 的默认值：rtol = {rtol:g}，atol = {atol:g}（虚线）。灰色点线是 dtype 本身的代价："
        "{dtype} 下的完整前向与 float32 版本最多相差 **{prec:.1e}**。正确解码与 float32 结果的差最多为 **{corr32:.1e}**——"
        "不是 0，但很小；错误写法则偏离 **{wrong:.2g}**。"),
    "kv_cache.tol.f32": (
        "**“相等”指在容差内相等。** 某位置通过的条件是 max|解码 − 完整| ≤ atol + rtol·max|完整|，"
        "采用 `assert_close` 对 **float32** 的默认值：rtol = {rtol:g}，atol = {atol:g}（虚线）。在 float32 下完整前向本身就是参照，"
        "所以没有灰线。正确解码与它这里最多相差 **{same:.1e}**：不是 0，因为每个解码步在更短的 Key 列表上、以另一种顺序累加 Query 的分数，"
        "而 float32 每次求和都会舍入（机器精度 1.2e-7）。错误写法则偏离 **{wrong:.2g}**。"),
    "kv_cache.tol.f32_exact": (
        "**“相等”指在容差内相等。** 某位置通过的条件是 max|解码 − 完整| ≤ atol + rtol·max|完整|，"
        "采用 `assert_close` 对 **float32** 的默认值：rtol = {rtol:g}，atol = {atol:g}（虚线）。在 float32 下完整前向本身就是参照，"
        "所以没有灰线；这里正确解码与它**完全相等**（最大差 {same:g}）。错误写法则偏离 **{wrong:.2g}**。"),
    "kv_cache.tol_same": (
        "同在 {dtype} 下，正确解码与完整前向这里最多相差 **{same:.1e}**。在这台 CPU 上，两条路径里每一行 Query 的运算几乎相同，"
        "所以低精度下甚至可能恰好为 0；GPU 上的融合内核以不同顺序分块与归约，两者通常相差约灰线的量级——所以测试要用容差比较，而不是 ==。"),
    "kv_cache.why.title": "为什么每种错误写法从第一个解码 token 就出错",
    "kv_cache.why": (
        "第一个解码 token 位于全局位置 P。完整前向中，它与历史 Key s < P 的分数是 q_P^T R(s − P) k_s。"
        "三种错误对**每一个**历史 Key 都给出了另一个位移，所以它的注意力行立刻改变（prefill 的 0..P−1 行在各方式下完全一致）：\n\n"
        "- **错误 A，从 0 开始**：q_P 用 R(0) 旋转，Key 仍是 R(s)：位移变成 **s − 0 = s**，而不是 s − P。\n"
        "- **错误 B，重复旋转**：第 t 步把缓存中的 Key 再按 R(t) 旋转并写回：Key s 变成 s + P（之后是 s + P + (P+1)……），"
        "第一步的位移就是 **s**，之后每步漂得更远。\n"
        "- **缓存未旋转，读取时统一旋转**：读取时所有 Key 都按当前的 R(t) 旋转：所有位移都变成 **0**，历史失去各自的位置"
        "（看起来像完全没有位置编码）。\n\n"
        "只有新 token 自己的 Key（s = P）在各方式下位移都是 0。误差只会偶然消失（例如内容向量恰为 0，"
        "或位移之差恰好是每一对频率周期的整数倍）；随机的 q、k 不会出现。P = 1 时第一个解码 token 只有一个历史 Key。"),
    "kv_cache.trace.title": "缓存里逐步存了什么",
    "kv_cache.trace.caption": (
        "每行是一个解码 token t。q 列：它的 Query 所用的旋转位置。k0、k1……列：每个缓存 Key 在本步被读取时所用的旋转位置 p，"
        "以及最快一对维度的角度 θ₀·p（θ₀ = 每位置 1 弧度），折回 [0, 2π)。“(0→)”表示该 Key 以未旋转形式存储、读取时才旋转。"
        "正确方式下 k_s 总是 p = s。显示前 {head} 个与最后 {tail} 个解码步（“… t”标出截断处），以及前 {keys} 个缓存 Key。"),
    "kv_cache.trace.none": "P = L 时没有解码步：整段都是 prefill。",
    "kv_cache.fig.pos.title": "最后一个解码步（token {t}）使用的位置",
    "kv_cache.fig.pos.x": "缓存中的 Key 槽位 s",
    "kv_cache.fig.pos.y": "Key 所用的旋转位置",
    "kv_cache.fig.pos.query": "Query",
    "w.kv_argmax_L": "序列长度",
    "w.kv_argmax_P": "prefill 长度",
    "w.kv_argmax_seed": "q、k、v 与下一个 token 输出头的随机抽取",
    "kv_cache.argmax.title": "只比 argmax 会掩盖缓存错误",
    "kv_cache.argmax.text": (
        "只比较模型挑出的下一个 token 的测试，会在许多步上放过一个坏掉的缓存（《词相同但顺序不同…》§10：要比较每个位置的输出）。"
        "这里用一个固定的随机输出头 W_o 把每个解码步的注意力输出变成 32 个 token 上的分数；解码挑出的 token 与完整前向相同时标记为空心圆，"
        "不同时为叉，标记的高度是这一步输出的最大误差。"),
    "kv_cache.argmax.line": "- **{mode}**：{n} 个解码步中有 {k} 步 argmax 一致；最大误差为 {err}。",
    "kv_cache.fig.argmax.title": "每个解码步的最大误差，以及 argmax 是否一致",
    "kv_cache.fig.argmax.x": "解码位置 t",
    "kv_cache.fig.argmax.y": "t 处的 max |解码 − 完整前向|",
    "kv_cache.fig.argmax.agree": "argmax 一致",
    "kv_cache.fig.argmax.differ": "argmax 不同",
    "kv_cache.fig.pos.note": "虚线：Query 所用的旋转位置。只有“正确”方式让 Key 落在 y = s 上，且 Query 位于最后一个槽位。",
    "kv_cache.diagram.title": "《词相同但顺序不同…》§10 的示意图",
    "kv_cache.diagram": (
        "| 步骤 | 位置 | 旋转 | cache |\n|---|---|---|---|\n"
        "| prefill | 0 1 2 3 | 每个 K 用自己的 R(p) | 长度 4 |\n"
        "| decode | 4 | q₄、k₄ 用 R(4) | 追加 k₄ |\n"
        "| decode | 5 | q₅、k₅ 用 R(5) | 追加 k₅ |\n\n"
        "- **错误做法 A**：每步新 token 都使用 R(0)\n"
        "- **错误做法 B**：cache 中历史 K 在每步又旋转一次"),
    "kv_cache.code.title": "正确的解码步（《词相同但顺序不同…》§10）",
    "kv_cache.advice": (
        "**测试建议。** 关闭 dropout，逐位置比较完整因果前向与“prefill + 逐 token 解码”的**所有位置**输出"
        "（`torch.testing.assert_close`）。只比最终 argmax 可能掩盖小但系统性的错位：注意力行偏了，排第一的 token 往往仍然相同——直到某一天不再相同。"),
    "kv_cache.scene.diagram": "文章的示意图：prefill 0..3，解码 4、5",
    "kv_cache.scene.diagram.say": "六个 token，prefill 四个、解码两个。正确方式误差约 10⁻⁷；三种错误写法都在位置 4——第一个解码 token——跳起。",
    "kv_cache.scene.one": "只 prefill 一个 token",
    "kv_cache.scene.one.say": "P = 1：第一个 token 之后全部逐个解码。错误写法从位置 1 起出错；看错误 B 的缓存表：Key 所带的位置每一步都在增大。",
    "kv_cache.scene.reread": "读取时统一旋转抹掉了历史",
    "kv_cache.scene.reread.say": "缓存表显示每个 Key 都按当前位置旋转：所有位移都是 0，模型看不到历史的先后。",
    "kv_cache.scene.bf16": "bfloat16：在容差内相等",
    "kv_cache.scene.bf16.say": "bfloat16 下的数值不同于 float32（灰线约 10⁻³–10⁻²），但正确方式仍在该 dtype 的容差内；错误写法远高于容差。",
    "kv_cache.scene.long": "更长的解码",
    "kv_cache.scene.long.say": "96 个 token，prefill 16：正确方式在 80 步解码中始终停在舍入误差量级。错误 B 每一步都把整个缓存再旋转一次，Key 所带的位置不断累积：缓存表最后一行（token 95）中 Key k0 被旋转到位置 4440，而不是 0，误差再也回不来。",
    # ---- attention sinks and a streaming cache
    "kv_cache.stream.title": "注意力汇聚点（attention sink）与流式缓存（StreamingLLM）",
    "kv_cache.stream.md": (
        "只要缓存不再增长，模型就能流式生成远超训练长度的序列：保留前 **S** 个 token 的 Key 和 Value（*注意力汇聚点*：训练好的模型"
        "习惯把注意力停放在那里，去掉它们，单纯的滑动窗口会崩溃）以及最近 **W** 个 token 的，其余逐出。token t 读取的是 "
        "kept(t) = {0…S−1} ∪ {t−W+1…t}。保留下来的 Key 用什么位置？\n\n"
        "- **缓存内重新编号**（StreamingLLM）：缓存槽位 j 的 Key 位于位置 j，Query 位于最后一个槽位，所以所有位移都小于 S + W，"
        "落在模型训练见过的范围内；\n"
        "- **全局位置**：沿用原始位置；Query 到汇聚点的位移是 t，会超过模型见过的任何距离。\n\n"
        "重新编号的位置每一步都在变，所以缓存必须重新旋转 Key：StreamingLLM 缓存**未旋转**的 Key，每次读取时按槽位旋转；"
        "transformers 过去的 SinkCache 缓存已旋转的 Key，窗口每滑动一次就把保留的窗口 Key 反转 R(−1)（R(a)R(b) = R(a+b)）。"
        "**错误写法**：滚动缓存保留按写入时槽位旋转的 Key，而 Query 却取最后一个槽位。每种缓存都与其自身契约的直接重算比较。"),
    "kv_cache.stream.teaser": "保留开头的 token 和一个最近 token 的窗口，模型就能流式生成超过训练长度的序列。保留下来的 Key 用什么位置？滚动缓存保留旧的已旋转 Key 时会坏在哪里？",
    "w.kv_stream": "展开流式缓存：S 个汇聚点 + W 的窗口，正确与错误写法",
    "w.kv_stream_L": "流的长度",
    "w.kv_stream_L.help": "逐个 token 经过流式缓存解码的 token 数。",
    "w.kv_stream_sinks": "汇聚点 token 数 S",
    "w.kv_stream_sinks.help": "前 S 个 token 永不逐出（StreamingLLM 保留 4 个）。0 即单纯的滑动窗口。",
    "w.kv_stream_window": "窗口 W",
    "w.kv_stream_window.help": "最近的 W 个 token，含当前 token。缓存共保存 S + W 个 Key。",
    "w.kv_stream_modes": "比较的流式缓存",
    "w.kv_stream_modes.on_read": "重新编号：读取时旋转（StreamingLLM）",
    "w.kv_stream_modes.shift": "重新编号：滑动时反转（SinkCache）",
    "w.kv_stream_modes.global": "全局位置",
    "w.kv_stream_modes.stale": "错误：保留旧的已旋转 Key",
    "kv_cache.stream.contract.reassigned": "缓存内重新编号",
    "kv_cache.stream.contract.global": "全局（原始）位置",
    "kv_cache.stream.need_mode": "请至少选择一种流式缓存。",
    "kv_cache.fig.stream.title": "逐位置最大 |流式缓存 − 直接重算|",
    "kv_cache.fig.stream.fill": "缓存未满",
    "kv_cache.fig.stream.pos.title": "最后一步（token {t}）使用的位置",
    "kv_cache.stream.offsets": (
        "最后一步（token {t}）缓存中有 {c} 个 Key。重新编号时 Query 看到的位移最多 **{re:g}**；用全局位置则最多 **{gl:g}**："
        "汇聚点在 {gl:g} 个位置之前，这是在 {c} 个 token 的窗口上训练的模型从未见过的距离。"),
    "kv_cache.stream.no_evict": "流的长度不超过 S + W = {c}：没有逐出，两种契约都等于普通的完整前向。",
    "kv_cache.stream.stale": (
        "错误缓存在第 {first} 步（第一次逐出）之前都相等，之后偏离最多 **{wrong:.2g}**：写入已满缓存的每个 Key 都按最后一个槽位 {slot:g} "
        "旋转，滑动时仍停在那里，于是 Query 看到所有窗口 Key 的位移都是 0（位置图中的一条平线）。"),
    "kv_cache.stream.stale_none": "窗口只有一个 Key 时没有滑动，错误缓存在这里不会出错。",
    "kv_cache.stream.lowp": (
        "在 {dtype} 下，SinkCache 的做法每滑动一次就把存储的 Key 再舍入一次：误差随流增长（这里最多 {shift:.2g}），"
        "而读取时旋转只舍入一次（{on_read:.2g}）。"),
    "kv_cache.fig.score.title": "固定 Query 内容下汇聚点 token 0 的分数，逐步",
    "kv_cache.fig.score.x": "解码步 t",
    "kv_cache.fig.score.y": "qᵀR(Δ)k₀/√d",
    "kv_cache.fig.score.evict": "窗口开始滑动",
    "kv_cache.stream.score": (
        "两条线之间只有位置不同（Query 内容固定）。窗口开始滑动后，重新编号的位移停在 {c1}，汇聚点的分数保持在 {re:.3f}；"
        "用全局位移时它在 {gl_lo:.3f} 与 {gl_hi:.3f} 之间游走，经过的都是训练从未见过的位移。"),
    "kv_cache.stream.no_sinks": "S = 0：没有可打分的汇聚点 token（单纯的滑动窗口）。",
    # ---- gpt-oss learned sinks
    "kv_cache.sinks.title": "gpt-oss：每个头一个可学习的汇聚点 logit",
    "kv_cache.sinks.md": (
        "gpt-oss 把汇聚点显式化：每个头 h 有一个可学习的数 σ_h，作为**没有 Value** 的额外一列接在每一行的 logit 之后。"
        "softmax 在所有 Key *和*汇聚点上归一化，再丢掉汇聚点那一份：一行注意力之和可以小于 1，缺的那部分哪里也不去。"
        "（它的滑动窗口层只保留 128 个 token、不保留开头的 token：可学习的汇聚点替代了它们。）"
        "下面每个头都取 σ；公式经测试与 transformers 的 gpt_oss eager attention 相等。"),
    "kv_cache.sinks.teaser": "gpt-oss 在 softmax 中为每个头追加一个可学习的 logit，背后没有 Value：注意力可以哪里也不去。",
    "w.kv_sinks": "展开 gpt-oss 的汇聚点注意力，以及算错它的内核",
    "w.kv_sink": "汇聚点 logit σ",
    "w.kv_sink.help": "每个头的汇聚点的可学习 logit（这里所有头相同）。越大，越多注意力哪里也不去。",
    "kv_cache.fig.sink.title": "每个 Query 哪里也不去的注意力比例",
    "kv_cache.fig.sink.x": "Query 位置 i",
    "kv_cache.fig.sink.y": "1 − Σⱼ pᵢⱼ（分给汇聚点）",
    "kv_cache.fig.sink.head": "头 {h}",
    "kv_cache.fig.sinkerr.title": "逐位置最大 |错误 − 正确的汇聚点注意力|",
    "kv_cache.sinks.mode.ignored": "忽略汇聚点（不支持汇聚点的内核）",
    "kv_cache.sinks.mode.scaled": "汇聚点也除以 √d",
    "kv_cache.sinks.numbers": (
        "σ = {s:g} 时，Query 0——只有一个 Key 与汇聚点竞争——把 **{p0:.0%}** 的注意力分给了“哪里也不去”（头 0）；"
        "最后一个 Query 有 {n} 个 Key，分出 {pl:.0%}。忽略汇聚点的内核（普通 softmax）使输出最多改变 **{ign:.2g}**；"
        "把汇聚点像点积一样除以 √d 的，改变 **{sc:.2g}**。"),
    "kv_cache.scene.stream": "流式缓存：重新编号与全局位置",
    "kv_cache.scene.stream.say": "48 个 token 经过 4 个汇聚点 + 最近 8 个 token 的缓存。两种正确的缓存都等于各自的直接重算。最后一步（token 47）重新编号的 Query 看到的位移最多 11；全局位置最多 47——在 12 个 token 的窗口上训练的模型从未见过这个距离。",
    "kv_cache.scene.stale": "保留旧 Key 的错误",
    "kv_cache.scene.stale.say": "滚动缓存保留按写入时槽位旋转的 Key：在 token 12（第一次逐出）之前都相等，之后出错。位置图中它所有的窗口 Key 都停在位置 11，也就是 Query 自己的位置：位移为 0。",
    "kv_cache.scene.sinks": "gpt-oss：注意力可以哪里也不去",
    "kv_cache.scene.sinks.say": "汇聚点 logit σ = 2，16 个 token：Query 0 只有一个 Key 与汇聚点竞争，把 81% 的注意力分给了“哪里也不去”（头 0）；最后一个 Query 有 16 个 Key，只分出 25%。忽略汇聚点的内核从位置 0 起就错了。",
    # errors of posviz.lab.kv_cache
    "err.kv.same_shape": "q、k、v 的形状必须相同 [N,H,L,d]，收到的是 {shapes}",
    "err.kv.dtype": "q、k、v 必须使用同一个 dtype（{choices} 之一），收到的是 {got}",
    "err.kv.sinks_per_head": "sinks 需要每个头一个 logit（{heads} 个），收到的是 {got} 个",
}
