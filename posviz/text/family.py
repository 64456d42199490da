"""Strings of the relative page's deep dives on the rest of the family (issue 37): Transformer-XL, DeBERTa, FIRE and
KERPLE, xPos, CoPE; and the error messages of their compute modules (posviz.pe.transformer_xl, deberta, cope)."""

EN = {
    # ---------------------------------------------------------------- 8 · Transformer-XL
    "relative.h.xl": "8 · Transformer-XL: four terms and the relative shift",
    "relative.xl.teaser": (
        "Dai et al. 2019 split the score into content-content, content-position and two global biases u and v, with the "
        "sinusoid of the distance i − j in place of any absolute position; and computed the position term with a "
        "pad-and-reshape trick that has a price."),
    "w.rel_xl": "Open Transformer-XL: the four terms, the relative shift and what it costs",
    "relative.xl.md": (
        "A segment of L new tokens attends to its own tokens and to a **memory** of the previous segment's tokens "
        "(the slider *Cached tokens before them* at the top of the page sets its length M). Positions would be ambiguous across segments, so no "
        "absolute position enters: the key side carries the sinusoid $R_{i-j}$ of the distance instead "
        "(sines then cosines, projected by its own $W_{k,R}$), and the query's position is replaced by two learned "
        "vectors $u$, $v$ shared by every query:\n\n"
        "$$A_{ij} = \\underbrace{q_i^\\top k_j}_{(a)} + \\underbrace{q_i^\\top W_{k,R}R_{i-j}}_{(b)} "
        "+ \\underbrace{u^\\top k_j}_{(c)} + \\underbrace{v^\\top W_{k,R}R_{i-j}}_{(d)}$$\n\n"
        "(a) what the two contents say, (b) how far query i likes to look, (c) which keys are worth reading whoever "
        "asks, (d) which distances are worth reading whoever asks. (d) depends on i − j alone: keep only it and "
        "every diagonal is constant. XLNet kept this attention (and added a segment term); posviz's numbers "
        "equal transformers' `XLNetRelativeAttention` on random weights. Toy weights here: contents of width 32, "
        "one head of 16, the future masked (a language model)."),
    "w.rel_xl_terms": "Terms kept in the score",
    "w.rel_xl_terms.help": "Drop a term and see what the others do alone. (d) alone is a function of i − j only.",
    "w.rel_xl_terms.cc": "(a) content–content q·k",
    "w.rel_xl_terms.cp": "(b) content–position q·W R",
    "w.rel_xl_terms.gc": "(c) global content bias u·k",
    "w.rel_xl_terms.gp": "(d) global position bias v·W R",
    "relative.xl.title": "Score: the terms kept ÷ √d",
    "relative.xl.colorbar": "score",
    "relative.cb.score": "score",
    "relative.xl.shift.title": "The relative shift: term (b) without a [L, S, d] tensor",
    "relative.ax.xl_raw": "column c (distance S − 1 − c)",
    "relative.ax.xl_shifted": "key position j",
    "relative.fig.xl.raw": "Before the shift: column = distance",
    "relative.fig.xl.shifted": "After rel_shift: column = key j",
    "relative.xl.costs": (
        "Pair by pair, (b) + (d) gathers a position key for every pair: L·S·d = **{gather_keys}** numbers "
        "(L = {L}, S = {S}, d = {d}). The shift projects each distance once, S·d = **{shift_keys}** numbers, multiplies "
        "every query by every distance (the left panel, its columns in order of distance), then pads one zero column, "
        "re-reads the block as [S + 1, L], drops the first row and reads it back: row r slides L − 1 − r places and its "
        "columns become keys (the right panel). Both do L·S·d = {madds} multiply-adds; the shift copies L·(S + 1) = "
        "{shift_copy} numbers. **The price**: the {junk} cells above the diagonal hold the pad and numbers of the next "
        "row, not scores — only the causal mask makes the trick exact (XLNet's bidirectional attention projects "
        "(S + L)·d = {bidir_keys} numbers instead and has no such cells). On every causal cell the shift equals the "
        "pair-by-pair (b) + (d) to {err:.1e}."),
    # ---------------------------------------------------------------- 9 · DeBERTa
    "relative.h.deberta": "9 · DeBERTa: content and position, disentangled",
    "relative.deberta.teaser": (
        "He et al. 2021 give every token two vectors, content and relative position, and add three products: "
        "content→content, content→position and position→content; distances beyond k/2 share log-spaced buckets."),
    "w.rel_deberta": "Open DeBERTa: log buckets and the three terms of the score",
    "relative.deberta.md": (
        "DeBERTa keeps a table P of 2k relative-position embeddings, projected by the same W_q and W_k as the "
        "contents (DeBERTa-v3), and scores\n\n"
        "$$\\tilde A_{ij} = \\frac{Q^c_i \\cdot K^c_j + Q^c_i \\cdot K^r_{\\delta(i,j)} + K^c_j \\cdot Q^r_{\\delta(i,j)}}{\\sqrt{3d}}$$\n\n"
        "content→position: does query i's content like a key at this distance; position→content: does key j's "
        "content like being read from this distance. δ(i, j) is the bucket of i − j: exact while |i − j| ≤ k/2, "
        "then logarithmically wider buckets up to max_relative_positions, and the row of P read is δ + k (clipped to "
        "0 … 2k − 1). posviz's three terms equal the scores of transformers' DebertaV2 `DisentangledSelfAttention` "
        "on random weights (transformers indexes the position→content term by δ(i, j) as well, where the paper "
        "writes δ(j, i)). The sequence is the page's L queries (an encoder: no cache, no mask); toy weights of "
        "width 32, two heads, head 0 shown."),
    "w.rel_deb_k": "position_buckets k",
    "w.rel_deb_k.help": "DeBERTa-v3 uses 256. Distances up to k/2 keep a bucket each; the table P has 2k rows.",
    "w.rel_deb_max": "max_relative_positions",
    "w.rel_deb_max.help": "Where the log buckets reach the last row (DeBERTa-v3: 512, its max_position_embeddings).",
    "relative.deb.title": "Row of P read: δ(i − j) + k",
    "relative.deb.x": "d = i − j",
    "relative.deb.y": "row of P",
    "relative.deb.trace": "row of P",
    "relative.deb.exact": "exact: |d| ≤ k/2",
    "relative.deb.log": "log buckets",
    "relative.deb.max": "± max_relative_positions = {md}",
    "relative.fig.deb.c2c": "content→content",
    "relative.fig.deb.c2p": "content→position",
    "relative.fig.deb.p2c": "position→content",
    "relative.deb.counts": (
        "{L} tokens make {distinct} distinct distances i − j; with k = {k} they read **{used}** of the {rows} rows of P: "
        "every distance up to {exact} has its own row, farther ones share log-spaced rows, and from "
        "max_relative_positions = {top} on they all read the last one. The two position terms change along the "
        "diagonals only where their content factor (Q^c_i, K^c_j) changes; content→content has no position in it at "
        "all."),
    # ---------------------------------------------------------------- 10 · FIRE and KERPLE
    "relative.h.fire": "10 · FIRE and KERPLE: a learned function of the distance",
    "relative.fire.teaser": (
        "Chi et al. 2022 (KERPLE) learn a kernel of the distance, Li et al. 2024 (FIRE) a small MLP of the distance "
        "divided by the query's position. Fitted at the training length, what do they do beyond it, next to ALiBi and T5?"),
    "w.rel_fire": "Open FIRE and KERPLE: beyond the training length, against ALiBi and T5",
    "relative.fire.md": (
        "Four biases of one query i against the keys d = i − j tokens back:\n\n"
        "- **ALiBi** −m·d: fixed, the head chosen in section 4;\n"
        "- **T5** t[bucket(d)]: a learned number per bucket (its decoder's 32 buckets up to distance 128);\n"
        "- **KERPLE** (log variant) −r₁·log(1 + r₂·d): two learned numbers;\n"
        "- **FIRE** f(ψ(d) / ψ(max(L, i))), ψ(x) = log(c·x + 1), f an MLP: the distance **divided by the query's own "
        "position**, so its input stays in [0, 1] at any length.\n\n"
        "No weights are trained here: the learnable parts (T5's table, r₁ and r₂, FIRE's output layer; FIRE's threshold "
        "L = the training length, c = 1) are fitted by least squares to ALiBi's bias of the last training query. Up "
        "to the training length all four agree; move the query beyond it."),
    "w.rel_fire_train": "Training length N",
    "w.rel_fire_train.help": "The learnable parts are fitted to the bias of query N − 1 (distances 0 … N − 1).",
    "w.rel_fire_mult": "Query at × the training length",
    "w.rel_fire_mult.help": "The query's position is this multiple of N, minus one: its keys reach that far back.",
    "relative.fig.fire": "Bias of query i = {i} against a key d tokens back (ALiBi head {h})",
    "relative.ax.back": "d = i − j (tokens back)",
    "relative.ax.bias": "bias added to the score",
    "relative.fire.train": "training length {n}",
    "relative.fire.name.alibi": "ALiBi (fixed)",
    "relative.fire.name.t5": "T5 buckets",
    "relative.fire.name.kerple": "KERPLE-log",
    "relative.fire.name.fire": "FIRE",
    "relative.fire.name.fire_train": "FIRE, last training query",
    "relative.fire.numbers": (
        "At the farthest key of query {i}: ALiBi **{alibi_far}**, KERPLE {kerple_far}, T5 **{t5_far}**, FIRE "
        "**{fire_far}**, each fitted to ALiBi's slope m = {m} at the training length {n} (KERPLE's r₁ = {r1}, r₂ = "
        "{r2}). T5's distances past the training length fall into buckets no training pair filled, and past 128 all "
        "into one. FIRE's is about what the last training query gave its farthest key ({fire_n0}): FIRE's input "
        "ψ(d)/ψ(i) never leaves [0, 1], so a long query's row is its training row stretched. The price: a key {n} "
        "tokens back now gets {fire_n}, not {fire_n0} (a progressive interpolation, like PI for RoPE)."),
    # ---------------------------------------------------------------- 11 · xPos
    "relative.h.xpos": "11 · xPos: RoPE with an explicit decay",
    "relative.xpos.teaser": (
        "Sun et al. 2023 multiply each RoPE pair of the query by ζ^(n/B) and of the key by ζ^(−m/B): the score of a pair "
        "decays as ζ^((n−m)/B), fastest for the fast pairs. Plain RoPE's decay is only an oscillation's average."),
    "w.rel_xpos": "Open xPos: its decay against plain RoPE's",
    "relative.xpos.md": (
        "RoPE's long-term decay (the /decay page) is a property of the sum of many rotating pairs: on average the "
        "score of q = k falls with the distance, but it oscillates and comes back. xPos makes the decay explicit: pair "
        "i of the query at n is scaled by $\\zeta_i^{n/B}$, of the key at m by $\\zeta_i^{-m/B}$, with "
        "$\\zeta_i = (2i/d + \\gamma)/(1 + \\gamma)$, γ = 0.4, B the scale base (512). In the score only "
        "$\\zeta_i^{(n-m)/B}$ remains: still "
        "relative, and below 1 for every pair, smallest (fastest decay) for the fast pairs, whose rotation is also "
        "the one that varies most. The curves: the score of q = k = (1, …, 1), head width 64, divided by d, and xPos's "
        "envelope (its score with the rotation left out)."),
    "w.rel_xpos_base": "Scale base B",
    "w.rel_xpos_base.help": "xPos uses 512. A larger B decays more slowly.",
    "w.rel_xpos_range": "Largest distance",
    "w.rel_xpos_range.help": "How far to draw the curves.",
    "relative.fig.xpos": "Score of q = k = 1 ÷ d against the distance (d = {d}, B = {B})",
    "relative.ax.r": "distance r = n − m",
    "relative.ax.score_d": "score ÷ d",
    "relative.xpos.name.rope": "RoPE",
    "relative.xpos.name.xpos": "xPos",
    "relative.xpos.name.envelope": "xPos envelope (2/d)·Σ ζ_i^(r/B)",
    "relative.xpos.half": (
        "ζ runs from {z0} (pair 0, the fastest) to {z1} (the slowest pair). With B = {B} the envelope has halved at "
        "r = **{half}** and is {end} at r = {r_max}: the far tokens are damped whatever RoPE's oscillation does, while "
        "plain RoPE's curve keeps swinging."),
    "relative.xpos.nohalf": (
        "ζ runs from {z0} (pair 0, the fastest) to {z1} (the slowest pair). With B = {B} the envelope is still {end} at "
        "r = {r_max}: it has not halved within this range; a smaller B decays faster."),
    # ---------------------------------------------------------------- 12 · CoPE
    "relative.h.cope": "12 · CoPE: count only what matters",
    "relative.cope.teaser": (
        "Golovneva et al. 2024 let the query decide which tokens count: a position is the sum of gates σ(q·k) from the "
        "key to the query. Count sentences, or one word, on a sentence you type."),
    "w.rel_cope": "Open CoPE: positions counted on your sentence",
    "relative.cope.md": (
        "Every other scheme counts tokens. CoPE counts what the query wants: each key t gets a gate $g_{it} = \\sigma(q_i^\\top k_t)$ "
        "in (0, 1), and key j's position seen from query i is $p_{ij} = \\sum_{t=j}^{i} g_{it}$, the gates from j to "
        "i. All gates 1: $p_{ij} = i - j + 1$, the plain relative position. A head whose gate opens only on full stops counts "
        "**sentences**: \"the second sentence back\" becomes one position for every token of it. The positions are "
        "fractional, so CoPE interpolates the embeddings of the integers around them. The gates here are set as a "
        "trained head would have them: q·k = ±sharpness on the counted / other tokens."),
    "w.rel_cope_text": "Your sentence",
    "w.rel_cope_text.help": "Words are split at spaces; every Chinese character is a token.",
    "w.rel_cope_count": "The head counts",
    "w.rel_cope_count.help": "Which tokens open the gate.",
    "w.rel_cope_count.tokens": "every token",
    "w.rel_cope_count.sentences": "sentence ends (. ! ? 。)",
    "w.rel_cope_count.word": "one word",
    "w.rel_cope_word": "The word",
    "w.rel_cope_word.help": (
        "Counted wherever it occurs (case, and the punctuation after it, ignored). In Chinese a token is one "
        "character: count one character."),
    "w.rel_cope_sharp": "Gate sharpness",
    "w.rel_cope_sharp.help": "q·k = ± this value: at 0 every gate is 1/2, at 8 they are 0.9997 and 0.0003.",
    "relative.cope.default": "The cat sat. The dog ran! Then the cat slept.",
    "relative.cope.default_word": "cat",
    "relative.cope.title": "CoPE position p_ij of key j seen from query i",
    "relative.cope.colorbar": "p_ij",
    "relative.cope.said": (
        "Seen from the last token, the first token is at position **{first}** and the last token itself at {last}; "
        "plain relative positions would say {L} and 1. The head counts **{n}** of the {L} tokens (gates {gate_on} on "
        "them, {gate_off} elsewhere). Every row of the matrix is its own count: a token's position depends on the "
        "query that looks at it."),
    "relative.cope.no_word": (
        "The word is none of the sentence's {L} tokens, so the head marks no token: every gate is {gate_off}, and "
        "seen from the last token the first token is at **{first}** ({L} × {gate_off}). "
        "A token is a word with the punctuation after it (\"sat.\" counts as \"sat\"); in Chinese a token is one "
        "character, so count one character."),
    # ---------------------------------------------------------------- scenes
    "relative.scene.xl": "Transformer-XL: one term at a time",
    "relative.scene.xl.say": (
        "8 new tokens with a memory of 4. Only the global position bias (d) is kept: $v^\\top W_{k,R}R_{i-j}$ depends on i − j "
        "alone, so every diagonal of the score is one colour, a learned function of the distance. Add (a) and the "
        "contents take over. Below: the shift's 28 cells above the diagonal are the trick's price."),
    "relative.scene.deberta": "DeBERTa's log buckets",
    "relative.scene.deberta.say": (
        "64 tokens, k = 16, max_relative_positions 64: the 127 distances read only 31 rows of P. Up to 8 every "
        "distance has its own row; farther, log-spaced rows shared by more and more distances."),
    "relative.scene.fire": "FIRE stretches, ALiBi goes on, T5 forgets",
    "relative.scene.fire.say": (
        "Fitted at 64 tokens to ALiBi's head 3 (slope 0.125), then a query at 256. ALiBi gives its farthest key −31.88, "
        "KERPLE −31.55, T5 0.00 (untrained buckets), FIRE −8.00: its row is the training row stretched over four times "
        "the length."),
    "relative.scene.xpos": "xPos decays, RoPE oscillates",
    "relative.scene.xpos.say": (
        "B = 512, head width 64: xPos's envelope halves at r = 832 and is down to 0.14 at 4096, while plain RoPE's "
        "score of q = k keeps swinging around its slow decay."),
    "relative.scene.cope": "CoPE counts sentences",
    "relative.scene.cope.say": (
        "The head's gate opens on sentence ends only. Seen from the last token, every token of the first sentence is "
        "at position 3 (≈ 3.0), of the second at 2, of the last at 1: the query addresses sentences, not tokens."),
    # ---------------------------------------------------------------- errors
    "err.xl_shapes": "Transformer-XL weights must be h [S,D], W_q, W_kE, W_kR [D,H,d], u, v [H,d]; got h {h}, W {w}, u {u}, v {v}",
    "err.xl_shift_shape": "rel_shift needs a matrix [..., L, S] with S >= L, got shape {shape}",
    "err.deberta_shapes": "DeBERTa needs h [L,D], P [2k,D] with k = {k} and D divisible by {heads} heads; got h {h}, P {p}",
    "err.cope_shape": "CoPE's gate logits must be [..., L, S] with L <= S <= 8192, got shape {shape}",
}

ZH = {
    # ---------------------------------------------------------------- 8 · Transformer-XL
    "relative.h.xl": "8 · Transformer-XL：四项打分与相对移位",
    "relative.xl.teaser": (
        "Dai 等人 2019 把打分拆成内容–内容、内容–位置以及两个全局偏置 u 和 v，用距离 i − j 的正弦编码代替任何绝对位置；"
        "位置项用一个“补零再改形状”的技巧来算——这个技巧是有代价的。"),
    "w.rel_xl": "展开 Transformer-XL：四项、相对移位及其代价",
    "relative.xl.md": (
        "一段 L 个新 token 既关注自己，也关注上一段留下的**记忆**（本页顶部“它们之前已缓存的 token 数”滑块设定它的长度 M）。"
        "跨段之后绝对位置会含混不清，所以不引入任何绝对位置：Key 一侧改用距离的正弦编码 $R_{i-j}$（先正弦后余弦，"
        "用它自己的 $W_{k,R}$ 投影），Query 的位置则换成所有 Query 共用的两个可学习向量 $u$、$v$：\n\n"
        "$$A_{ij} = \\underbrace{q_i^\\top k_j}_{(a)} + \\underbrace{q_i^\\top W_{k,R}R_{i-j}}_{(b)} "
        "+ \\underbrace{u^\\top k_j}_{(c)} + \\underbrace{v^\\top W_{k,R}R_{i-j}}_{(d)}$$\n\n"
        "(a) 两个内容说了什么，(b) Query i 喜欢看多远，(c) 无论谁问都值得读的 Key，(d) 无论谁问都值得读的距离。"
        "(d) 只依赖 i − j：只保留它，每条对角线都是同一个值。XLNet 沿用了这种注意力（另加一个分段项）；"
        "posviz 的数值在随机权重上与 transformers 的 `XLNetRelativeAttention` 相等。"
        "这里是玩具权重：内容宽 32，一个宽 16 的头，未来位置被掩码（语言模型）。"),
    "w.rel_xl_terms": "打分中保留的项",
    "w.rel_xl_terms.help": "去掉某一项，看其余各项单独的样子。只剩 (d) 时它只是 i − j 的函数。",
    "w.rel_xl_terms.cc": "(a) 内容–内容 q·k",
    "w.rel_xl_terms.cp": "(b) 内容–位置 q·W R",
    "w.rel_xl_terms.gc": "(c) 全局内容偏置 u·k",
    "w.rel_xl_terms.gp": "(d) 全局位置偏置 v·W R",
    "relative.xl.title": "打分：保留各项之和 ÷ √d",
    "relative.xl.colorbar": "打分",
    "relative.cb.score": "打分",
    "relative.xl.shift.title": "相对移位：不构造 [L, S, d] 张量就算出 (b)",
    "relative.ax.xl_raw": "第 c 列（距离 S − 1 − c）",
    "relative.ax.xl_shifted": "Key 位置 j",
    "relative.fig.xl.raw": "移位前：列 = 距离",
    "relative.fig.xl.shifted": "rel_shift 之后：列 = Key j",
    "relative.xl.costs": (
        "逐对计算时，(b) + (d) 要为每一对取一个位置 Key：L·S·d = **{gather_keys}** 个数（L = {L}，S = {S}，d = {d}）。"
        "移位技巧则把每个距离只投影一次，S·d = **{shift_keys}** 个数，让每个 Query 乘上每个距离（左图，列按距离排列），"
        "然后补一列零、把这块数据按 [S + 1, L] 重新读取、去掉第一行、再读回来：第 r 行向左滑动 L − 1 − r 格，"
        "列就变成了 Key（右图）。两种做法都做 L·S·d = {madds} 次乘加；移位要复制 L·(S + 1) = {shift_copy} 个数。"
        "**代价**：对角线以上的 {junk} 个格子装的是补上的零和下一行的数，不是打分——只有因果掩码才让这个技巧严格成立"
        "（XLNet 的双向注意力改为投影 (S + L)·d = {bidir_keys} 个数，就没有这样的格子）。在每个因果格子上，"
        "移位结果与逐对计算的 (b) + (d) 相差不超过 {err:.1e}。"),
    # ---------------------------------------------------------------- 9 · DeBERTa
    "relative.h.deberta": "9 · DeBERTa：内容与位置解耦",
    "relative.deberta.teaser": (
        "He 等人 2021 给每个 token 两个向量——内容和相对位置——并把三个乘积相加：内容→内容、内容→位置、位置→内容；"
        "超过 k/2 的距离共用按对数间隔的桶。"),
    "w.rel_deberta": "展开 DeBERTa：对数桶与打分的三项",
    "relative.deberta.md": (
        "DeBERTa 保存一张含 2k 个相对位置嵌入的表 P，用与内容相同的 W_q、W_k 投影（DeBERTa-v3），打分为\n\n"
        "$$\\tilde A_{ij} = \\frac{Q^c_i \\cdot K^c_j + Q^c_i \\cdot K^r_{\\delta(i,j)} + K^c_j \\cdot Q^r_{\\delta(i,j)}}{\\sqrt{3d}}$$\n\n"
        "内容→位置：Query i 的内容是否喜欢这个距离上的 Key；位置→内容：Key j 的内容是否喜欢从这个距离被读取。"
        "δ(i, j) 是 i − j 所在的桶：|i − j| ≤ k/2 时精确，之后桶按对数变宽，直到 max_relative_positions；读取的是 P 的"
        "第 δ + k 行（截断到 0 … 2k − 1）。posviz 的三项在随机权重上等于 transformers 中 DebertaV2 "
        "`DisentangledSelfAttention` 的打分（transformers 的位置→内容项同样用 δ(i, j) 取行，论文写的是 δ(j, i)）。"
        "序列取本页的 L 个 Query（编码器：没有缓存，没有掩码）；玩具权重宽 32，两个头，图中为头 0。"),
    "w.rel_deb_k": "position_buckets k",
    "w.rel_deb_k.help": "DeBERTa-v3 用 256。k/2 以内的每个距离各占一个桶；表 P 有 2k 行。",
    "w.rel_deb_max": "max_relative_positions",
    "w.rel_deb_max.help": "对数桶到达最后一行的距离（DeBERTa-v3：512，即它的 max_position_embeddings）。",
    "relative.deb.title": "读取 P 的行：δ(i − j) + k",
    "relative.deb.x": "d = i − j",
    "relative.deb.y": "P 的行",
    "relative.deb.trace": "P 的行",
    "relative.deb.exact": "精确区：|d| ≤ k/2",
    "relative.deb.log": "对数桶",
    "relative.deb.max": "± max_relative_positions = {md}",
    "relative.fig.deb.c2c": "内容→内容",
    "relative.fig.deb.c2p": "内容→位置",
    "relative.fig.deb.p2c": "位置→内容",
    "relative.deb.counts": (
        "{L} 个 token 产生 {distinct} 种不同的距离 i − j；k = {k} 时它们只读取 P 的 {rows} 行中的 **{used}** 行："
        "{exact} 以内的每个距离各有一行，更远的共用按对数间隔的行，从 max_relative_positions = {top} 起全都读最后一行。"
        "两个位置项只在其内容因子（Q^c_i、K^c_j）变化的地方沿对角线变化；内容→内容里根本没有位置。"),
    # ---------------------------------------------------------------- 10 · FIRE and KERPLE
    "relative.h.fire": "10 · FIRE 与 KERPLE：距离的可学习函数",
    "relative.fire.teaser": (
        "Chi 等人 2022（KERPLE）学习距离的核函数，Li 等人 2024（FIRE）学习一个小 MLP，输入是距离除以 Query 自身的位置。"
        "在训练长度上拟合之后，超出训练长度时它们会怎样？与 ALiBi 和 T5 放在同一坐标轴上比较。"),
    "w.rel_fire": "展开 FIRE 与 KERPLE：超出训练长度，与 ALiBi、T5 对比",
    "relative.fire.md": (
        "同一个 Query i 对往回 d = i − j 个 token 的 Key 的四种偏置：\n\n"
        "- **ALiBi** −m·d：固定的，即第 4 节所选的头；\n"
        "- **T5** t[bucket(d)]：每个桶一个可学习的数（其解码器的 32 个桶，到距离 128 为止）；\n"
        "- **KERPLE**（对数形式）−r₁·log(1 + r₂·d)：两个可学习的数；\n"
        "- **FIRE** f(ψ(d) / ψ(max(L, i)))，ψ(x) = log(c·x + 1)，f 是一个 MLP：距离**除以 Query 自己的位置**，"
        "所以无论多长，它的输入都在 [0, 1] 之内。\n\n"
        "这里没有训练任何权重：可学习的部分（T5 的表、r₁ 和 r₂、FIRE 的输出层；FIRE 的阈值 L = 训练长度，c = 1）"
        "用最小二乘拟合到 ALiBi 对最后一个训练 Query 的偏置。在训练长度以内四者一致；把 Query 移到训练长度之外看看。"),
    "w.rel_fire_train": "训练长度 N",
    "w.rel_fire_train.help": "可学习部分拟合的是 Query N − 1 的偏置（距离 0 … N − 1）。",
    "w.rel_fire_mult": "Query 位于训练长度的几倍处",
    "w.rel_fire_mult.help": "Query 的位置是 N 的这个倍数减一：它的 Key 一直延伸到那么远。",
    "relative.fig.fire": "Query i = {i} 对往回 d 个 token 的 Key 的偏置（ALiBi 头 {h}）",
    "relative.ax.back": "d = i − j（往回的 token 数）",
    "relative.ax.bias": "加到打分上的偏置",
    "relative.fire.train": "训练长度 {n}",
    "relative.fire.name.alibi": "ALiBi（固定）",
    "relative.fire.name.t5": "T5 桶",
    "relative.fire.name.kerple": "KERPLE-log",
    "relative.fire.name.fire": "FIRE",
    "relative.fire.name.fire_train": "FIRE，最后一个训练 Query",
    "relative.fire.numbers": (
        "在 Query {i} 最远的 Key 上：ALiBi **{alibi_far}**，KERPLE {kerple_far}，T5 **{t5_far}**，FIRE **{fire_far}**；"
        "都在训练长度 {n} 上拟合 ALiBi 的斜率 m = {m}（KERPLE 的 r₁ = {r1}，r₂ = {r2}）。T5 超出训练长度的距离落进训练时"
        "没有任何一对填过的桶，超过 128 的全落进同一个桶。FIRE 的值与最后一个训练 Query 给它最远的 Key 的偏置（{fire_n0}）"
        "差不多：FIRE 的输入 ψ(d)/ψ(i) 永远不离开 [0, 1]，所以长 Query 的那一行就是训练时那一行被拉伸。代价是：往回 {n} "
        "个 token 的 Key 现在得到 {fire_n}，而不是 {fire_n0}（一种渐进的插值，就像 RoPE 的 PI）。"),
    # ---------------------------------------------------------------- 11 · xPos
    "relative.h.xpos": "11 · xPos：带显式衰减的 RoPE",
    "relative.xpos.teaser": (
        "Sun 等人 2023 把 Query 的每一对 RoPE 维度乘以 ζ^(n/B)，把 Key 的乘以 ζ^(−m/B)：一对维度对打分的贡献按 "
        "ζ^((n−m)/B) 衰减，快速旋转的维度对衰减最快。普通 RoPE 的衰减只是振荡的平均。"),
    "w.rel_xpos": "展开 xPos：它的衰减与普通 RoPE 对比",
    "relative.xpos.md": (
        "RoPE 的远程衰减（见 /decay 页）是许多旋转维度对之和的性质：平均而言 q = k 的打分随距离下降，但它会振荡、会回升。"
        "xPos 让衰减显式化：位置 n 的 Query 的第 i 对乘以 $\\zeta_i^{n/B}$，位置 m 的 Key 的乘以 $\\zeta_i^{-m/B}$，"
        "其中 $\\zeta_i = (2i/d + \\gamma)/(1 + \\gamma)$，γ = 0.4，B 是尺度基数（512）。打分里只剩下 $\\zeta_i^{(n-m)/B}$：仍然是相对的，"
        "对每一对都小于 1；快速旋转的维度对 ζ 最小（衰减最快），而它们的旋转也变化最剧烈。曲线是 q = k = (1, …, 1) 的打分，"
        "头宽 64，再除以 d，以及 xPos 的包络（不计旋转时它的打分）。"),
    "w.rel_xpos_base": "尺度基数 B",
    "w.rel_xpos_base.help": "xPos 用 512。B 越大衰减越慢。",
    "w.rel_xpos_range": "最大距离",
    "w.rel_xpos_range.help": "曲线画到多远。",
    "relative.fig.xpos": "q = k = 1 的打分 ÷ d 随距离的变化（d = {d}，B = {B}）",
    "relative.ax.r": "距离 r = n − m",
    "relative.ax.score_d": "打分 ÷ d",
    "relative.xpos.name.rope": "RoPE",
    "relative.xpos.name.xpos": "xPos",
    "relative.xpos.name.envelope": "xPos 包络 (2/d)·Σ ζ_i^(r/B)",
    "relative.xpos.half": (
        "ζ 从 {z0}（第 0 对，最快）到 {z1}（最慢的一对）。B = {B} 时，包络在 r = **{half}** 处减半，到 r = {r_max} 时是 "
        "{end}：无论 RoPE 怎样振荡，远处的 token 都被压低了；而普通 RoPE 的曲线一直在摆动。"),
    "relative.xpos.nohalf": (
        "ζ 从 {z0}（第 0 对，最快）到 {z1}（最慢的一对）。B = {B} 时，包络在 r = {r_max} 处仍为 {end}："
        "在这个范围内还没有减半；B 越小衰减越快。"),
    # ---------------------------------------------------------------- 12 · CoPE
    "relative.h.cope": "12 · CoPE：只数重要的东西",
    "relative.cope.teaser": (
        "Golovneva 等人 2024 让 Query 决定哪些 token 算数：位置是从 Key 到 Query 的门控 σ(q·k) 之和。"
        "在你输入的句子上数句子，或者只数一个词。"),
    "w.rel_cope": "展开 CoPE：在你的句子上数出位置",
    "relative.cope.md": (
        "其他方法都在数 token。CoPE 数的是 Query 想数的东西：每个 Key t 得到一个门控 $g_{it} = \\sigma(q_i^\\top k_t)$ ∈ (0, 1)，"
        "从 Query i 看 Key j 的位置是 $p_{ij} = \\sum_{t=j}^{i} g_{it}$，即从 j 到 i 的门控之和。门控全为 1 时 $p_{ij} = i - j + 1$，"
        "就是普通的相对位置。只在句号处开门的头数的是**句子**：“往回第二个句子”对其中每个 token 都是同一个位置。"
        "位置是小数，所以 CoPE 在相邻的整数位置嵌入之间插值。这里的门控按训练好的头会有的样子设定："
        "被计数的 token 上 q·k = +锐度，其余为 −锐度。"),
    "w.rel_cope_text": "你的句子",
    "w.rel_cope_text.help": "单词按空格切分；每个汉字是一个 token。",
    "w.rel_cope_count": "这个头数的是",
    "w.rel_cope_count.help": "哪些 token 会打开门控。",
    "w.rel_cope_count.tokens": "每个 token",
    "w.rel_cope_count.sentences": "句末（. ! ? 。）",
    "w.rel_cope_count.word": "一个词",
    "w.rel_cope_word": "这个词",
    "w.rel_cope_word.help": "无论出现在哪里都计数（不区分大小写，也不管其后的标点）。中文里一个 token 是一个字：请数一个字。",
    "w.rel_cope_sharp": "门控锐度",
    "w.rel_cope_sharp.help": "q·k = ± 这个值：为 0 时每个门控都是 1/2，为 8 时分别是 0.9997 和 0.0003。",
    "relative.cope.default": "猫坐下了。狗跑了！然后猫睡了。",
    "relative.cope.default_word": "猫",
    "relative.cope.title": "从 Query i 看 Key j 的 CoPE 位置 p_ij",
    "relative.cope.colorbar": "p_ij",
    "relative.cope.said": (
        "从最后一个 token 看，第一个 token 在位置 **{first}**，最后一个 token 自己在 {last}；普通的相对位置会说 {L} 和 1。"
        "这个头数了 {L} 个 token 中的 **{n}** 个（门控在它们上是 {gate_on}，其余是 {gate_off}）。矩阵的每一行都是"
        "各自的计数：一个 token 的位置取决于是哪个 Query 在看它。"),
    "relative.cope.no_word": (
        "这个词不是句子 {L} 个 token 中的任何一个，所以这个头不标记任何 token：每个门控都是 {gate_off}，"
        "从最后一个 token 看，第一个 token 在位置 **{first}**（{L} × {gate_off}）。"
        "一个 token 是一个词连同其后的标点（“sat.” 算作 “sat”）；中文里一个 token 是一个字，所以请数一个字。"),
    # ---------------------------------------------------------------- scenes
    "relative.scene.xl": "Transformer-XL：一次看一项",
    "relative.scene.xl.say": (
        "8 个新 token，记忆长 4。只保留全局位置偏置 (d)：$v^\\top W_{k,R}R_{i-j}$ 只依赖 i − j，所以打分的每条对角线都是同一种颜色，"
        "是距离的一个可学习函数。加上 (a)，内容就占了上风。下方：移位后对角线以上的 28 个格子就是这个技巧的代价。"),
    "relative.scene.deberta": "DeBERTa 的对数桶",
    "relative.scene.deberta.say": (
        "64 个 token，k = 16，max_relative_positions 为 64：127 种距离只读取 P 的 31 行。8 以内每个距离各有一行；"
        "更远的按对数间隔共用一行，共用的距离越来越多。"),
    "relative.scene.fire": "FIRE 拉伸，ALiBi 延续，T5 遗忘",
    "relative.scene.fire.say": (
        "在 64 个 token 上拟合 ALiBi 的头 3（斜率 0.125），再看位于 256 的 Query。ALiBi 给它最远的 Key −31.88，"
        "KERPLE −31.55，T5 0.00（没训练过的桶），FIRE −8.00：它的那一行是训练时那一行拉伸到四倍长度。"),
    "relative.scene.xpos": "xPos 衰减，RoPE 振荡",
    "relative.scene.xpos.say": (
        "B = 512，头宽 64：xPos 的包络在 r = 832 处减半，到 4096 时降到 0.14；而普通 RoPE 中 q = k 的打分"
        "一直围绕着缓慢的衰减摆动。"),
    "relative.scene.cope": "CoPE 数句子",
    "relative.scene.cope.say": (
        "这个头的门控只在句末打开。从最后一个 token 看，第一个句子的每个 token 都在位置 3（≈ 3.0），第二个句子的在 2，"
        "最后一个句子的在 1：Query 寻址的是句子，而不是 token。"),
    # ---------------------------------------------------------------- errors
    "err.xl_shapes": "Transformer-XL 的权重必须是 h [S,D]，W_q、W_kE、W_kR [D,H,d]，u、v [H,d]；收到的是 h {h}，W {w}，u {u}，v {v}",
    "err.xl_shift_shape": "rel_shift 需要形状为 [..., L, S] 且 S >= L 的矩阵，收到的形状是 {shape}",
    "err.deberta_shapes": "DeBERTa 需要 h [L,D]、P [2k,D]（k = {k}），且 D 能被 {heads} 个头整除；收到的是 h {h}，P {p}",
    "err.cope_shape": "CoPE 的门控 logits 必须是 [..., L, S] 且 L <= S <= 8192，收到的形状是 {shape}",
}
