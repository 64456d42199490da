"""Strings of the relative-position page (Shaw, T5 buckets, ALiBi, causal mask / NoPE)."""

EN = {
    "relative.title": "Relative positions: Shaw, T5 buckets, ALiBi",
    "relative.intro": (
        "In *the cat sat on the mat*, **cat** and **sat** belong together because they are neighbours, "
        "not because they sit at positions 1 and 2. Prepend ten words and they become the 12th and 13th "
        "words (positions 11 and 12): both absolute positions change, but the distance between them does not. "
        "It is the difference between asking “what time is it?” and “how long until we leave?”. Relative schemes encode that distance **i − j** "
        "directly: Shaw et al. look up a learned vector per (clipped) distance, T5 adds a learned "
        "scalar per distance *bucket*, ALiBi adds a fixed linear penalty. T5 and ALiBi add their bias to the "
        "score matrix [N,H,L,S]; Shaw adds its vectors inside the key (and value) computation, so a score sees the "
        "distance through k_j + a_ij; RoPE instead rotates Q and K [N,H,L,d]."
    ),
    "relative.sources": (
        "Sources: Shaw, Uszkoreit & Vaswani 2018 (arXiv:1803.02155) · Raffel et al. 2020, T5 "
        "(arXiv:1910.10683) · Press, Smith & Lewis 2021, ALiBi (arXiv:2108.12409) · Haviv et al. 2022, "
        "NoPE (arXiv:2203.16634) · Kazemnejad et al. 2023 (arXiv:2305.19466). T5 buckets are checked "
        "against Hugging Face `T5Attention._relative_position_bucket`, ALiBi slopes against the "
        "paper's `get_slopes`."
    ),
    # ---------------------------------------------------------------- widgets
    "w.rel_L": "Queries L (new tokens)",
    "w.rel_L.help": "Number of query rows. With no cache, keys = queries = L (a square matrix).",
    "w.rel_past": "Cached tokens before them",
    "w.rel_past.help": (
        "Decoding: the keys are the cache plus the new tokens, S = past + L, and the queries are "
        "right-aligned — they are the LAST L positions, exactly like Hugging Face's past_seen_tokens."
    ),
    "w.rel_shift": "Shift the whole sequence by Δ",
    "w.rel_shift.help": "Prepend Δ tokens: every position i and j grows by Δ. Watch the matrix not change.",
    "w.rel_k": "Shaw clipping distance k",
    "w.rel_k.help": "Distances with |i − j| > k share the edge rows of the table (0 or 2k).",
    "w.rel_t5_bidir": "Bidirectional (encoder)",
    "w.rel_t5_bidir.help": (
        "On: T5 encoder, half of the buckets for keys after the query. Off: T5 decoder (causal), all "
        "buckets for the past and every future key in bucket 0."
    ),
    "w.rel_t5_nb": "num_buckets",
    "w.rel_t5_nb.help": "T5 uses 32. Per direction, half of them are exact, half logarithmic.",
    "w.rel_t5_md": "max_distance",
    "w.rel_t5_md.help": "T5 uses 128. Beyond this every distance shares the last bucket (often earlier, see the table).",
    "w.rel_heads": "ALiBi heads H",
    "w.rel_heads.help": "Any head count: non-powers of two use the paper's interleaving rule.",
    "w.rel_head": "Head h to show",
    "w.rel_head.help": "1-based like the paper; if larger than H the last head is shown.",
    # ---------------------------------------------------------------- common
    "relative.ax.key": "key position j",
    "relative.ax.query": "query position i",
    "relative.ax.distance": "d = i − j (> 0: key in the past)",
    "relative.decode.square": "No cache: L = S = {S}, queries and keys are positions {first}…{last}.",
    "relative.decode.rect": (
        "Decoding: {L} new queries over S = {S} keys. Queries are right-aligned — they sit at positions "
        "{first}…{last}, the last {L} of the keys — so a matrix built with the queries at 0…{L_1} would "
        "give every new token the wrong distances."
    ),
    "relative.shift.note": (
        "All positions are shifted by Δ = {shift}: the axes now read {first}… but every cell is the same "
        "— the matrix depends on i − j only (shift invariance)."
    ),
    # ---------------------------------------------------------------- distance
    "relative.h.distance": "1 · The distance matrix i − j",
    "relative.distance.md": (
        "Pair every query with every key and colour the cell by **i − j**. The diagonal is 0 (a token and "
        "itself), cells at the same distance have the same colour — every diagonal is constant (a Toeplitz "
        "matrix) — and shifting the whole sentence changes the axis labels but not one cell. A relative "
        "scheme is a function of this matrix only, which is why it is insensitive to a global shift."
    ),
    "relative.fig.distance": "d = i − j (query minus key)",
    "relative.cb.distance": "i − j",
    # ---------------------------------------------------------------- Shaw
    "relative.h.shaw": "2 · Shaw et al. 2018: a learned vector per clipped distance",
    "relative.shaw.md": (
        "Shaw et al. keep a table of 2k + 1 learned vectors per layer, one for each distance from −k to k, "
        "and add the row **clip(j − i, −k, k) + k** on the key side of every pair: "
        "e_ij = q_i · (k_j + a_ij) / √d (and a second table in the weighted sum of the values). Two tokens 5 or 500 steps "
        "apart look the same once the distance exceeds k: the left panel shows which row each pair reads, "
        "the right panel how many steps of distance the clipping throws away. Shaw's paper indexes the table by "
        "**j − i** (key minus query), the mirror image of the i − j of the articles and of every other panel: a key "
        "3 steps before its query (i − j = 3) reads row k − 3, so these colours run the other way round than in "
        "section 6, which shows clip(i − j, −k, k), the same clipping in the articles' sign. The authors found little "
        "difference in quality for k ≥ 2 — precise long distances were not what their translation model needed."
    ),
    "relative.fig.shaw.index": "table row clip(j − i, −k, k) + k",
    "relative.fig.shaw.lost": "distance lost: max(|i − j| − k, 0)",
    "relative.cb.index": "row",
    "relative.cb.lost": "steps",
    "relative.m.rows": "table rows 2k + 1",
    "relative.m.clipped": "pairs clipped",
    "relative.m.distinct": "distinct distances in this matrix",
    # ---------------------------------------------------------------- T5
    "relative.h.t5": "3 · T5: one learned scalar per distance bucket",
    "relative.t5.md": (
        "T5 adds a learned scalar per bucket and head to the logits (shared by all layers). Per direction "
        "the first half of the buckets are **exact** (distance 0, 1, 2, …), the second half grow "
        "**logarithmically** up to max_distance, and everything farther shares the last bucket. Near tokens "
        "are told apart precisely, far ones only roughly. Note that T5's code measures key − query = j − i: "
        "keys after the query (i − j < 0) take the upper half of the buckets in the encoder; in the causal "
        "decoder they all fall into bucket 0, next to distance 0 — they are masked anyway."
    ),
    "relative.fig.t5.matrix": "T5 bucket of every pair",
    "relative.fig.t5.step": "bucket vs distance",
    "relative.cb.bucket": "bucket",
    "relative.ax.bucket": "bucket",
    "relative.t5.exact": "exact",
    "relative.t5.log": "log buckets",
    "relative.t5.max": "max_distance = {md}",
    "relative.m.exact": "exact distances 0…max_exact − 1",
    "relative.m.last": "last bucket starts at |d| =",
    "relative.m.empty": "empty buckets",
    "relative.t5.table": "Which distances share a bucket (d = i − j; the last bucket of each direction is open-ended)",
    "relative.t5tab.bucket": "bucket",
    "relative.t5tab.range": "distances d",
    "relative.t5tab.count": "how many",
    "relative.t5tab.region": "region",
    "relative.t5tab.side": "key",
    "relative.t5tab.exact": "exact",
    "relative.t5tab.log": "log",
    "relative.t5tab.past": "at or before the query",
    "relative.t5tab.future": "after the query",
    "relative.t5tab.empty": "empty (never used)",
    "relative.t5tab.inf": "∞",
    "relative.t5.empty_note": (
        "Empty buckets are real: in the bidirectional case bucket num_buckets/2 would be 'distance 0 "
        "after the query', which cannot happen; with a small max_distance some log buckets are skipped too."
    ),
    # ---------------------------------------------------------------- ALiBi
    "relative.h.alibi": "4 · ALiBi: a fixed linear penalty per head",
    "relative.alibi.md": (
        "ALiBi adds **−m_h · |i − j|** to the logits of head h and learns nothing. For H a power of two "
        "the slopes are the geometric sequence m_h = 2^(−8h/H): 1/2, 1/4, …, 1/256 for 8 heads. Otherwise "
        "the official `get_slopes` takes the 2^k slopes of the largest power of two below H and fills the "
        "rest with every other slope of 2^(k+1) (orange bars). Steep heads look only at neighbours, flat "
        "heads far away. Because the penalty is defined for any distance, ALiBi was designed to train short "
        "and test long. (The official code adds m·j, the same for every row; with the causal mask that "
        "differs from −m(i − j) by a constant per row, which softmax ignores.)"
    ),
    "relative.fig.alibi.slopes": "slope m_h of every head (log scale)",
    "relative.ax.head": "head h",
    "relative.ax.slope": "slope m_h",
    "relative.alibi.base": "2^(−8h/{n}), h = 1…{n}",
    "relative.alibi.fill": "every other slope of {n2} heads",
    "relative.fig.alibi.bias": "bias of head {h}: −{m} · |i − j|",
    "relative.cb.bias": "bias",
    "relative.alibi.clamped": "Head {asked} does not exist with H = {H}; showing head {h}.",
    "relative.alibi.sorted": (
        "With H = {H}, a power of two, the slopes fall with the head index: head 1 is the steepest "
        "(m = {m_steep}), head {flat} the flattest (m = {m_flat})."),
    "relative.alibi.mixed": (
        "With H = {H} the slopes are **not** in head order: the steepest head is {steep} (m = {m_steep}), "
        "the flattest is head {flat} (m = {m_flat})."),
    "relative.alibi.rank": "Head {h}, whose bias is drawn, has m = {m_h}; {steeper} of the {H} heads are steeper.",
    # ---------------------------------------------------------------- mask / NoPE
    "relative.h.mask": "5 · A causal mask alone (NoPE)",
    "relative.mask.md": (
        "A causal mask says **which edges exist** — query i may read keys j ≤ i — but not **how far** they "
        "are: in a row, a key 1 step back and one 100 steps back look identical. Thinking the mask already "
        "encodes distance is a classic bug. Honest footnote: the mask does leak *some* position. With no "
        "position signal and identical contents, attention is uniform over the i + 1 visible keys, so every "
        "weight is 1/(i + 1) — the query can tell how many tokens precede it. Haviv et al. 2022 found that "
        "causal language models without any positional encoding (NoPE) still learn positional information "
        "this way. The signal is weak and hard to control, so explicit encodings remain the norm."
    ),
    "relative.fig.mask.mask": "causal mask: 1 = edge exists",
    "relative.fig.mask.uniform": "uniform attention: weight per key",
    "relative.ax.weight": "weight 1/(i + 1)",
    "relative.mask.allowed": "allowed",
    "relative.mask.weight": "1/(i+1)",
    # ---------------------------------------------------------------- side by side
    "relative.h.side": "6 · Side by side on one colour scale",
    "w.rel_side": "Show the four matrices side by side, on one colour scale",
    "relative.side.md": (
        "The same L × S pairs, four ways. The three distance panels share **one** diverging scale (tokens, "
        "0 = white): the exact distance, what Shaw's clipped table can still tell apart, and what T5's "
        "buckets can still tell apart (each pair replaced by the distance closest to 0 in its bucket). "
        "Where a panel turns flat, distance information is gone. ALiBi's bias is in logits, not tokens, so "
        "it has its own scale (still 0 = white): it never goes flat, it keeps growing. Relative schemes are "
        "insensitive to a global shift and usually stretch to longer inputs more easily than a learned "
        "absolute table — but 'more easily' is not 'always': whether extrapolation works still depends on "
        "how distances are clipped or bucketed and on the lengths seen in training (Kazemnejad et al. 2023)."
    ),
    "relative.fig.side.distance": "exact distance i − j",
    "relative.fig.side.shaw": "Shaw: clip(i − j, −{k}, {k}) = {k} − table row",
    "relative.fig.side.t5": "T5: distance its bucket still tells apart",
    "relative.fig.side.alibi": "ALiBi head {h}: −m · |i − j| (own scale)",
    "relative.cb.tokens": "tokens",
    "relative.cb.logits": "logit",
    # ---------------------------------------------------------------- tables
    "relative.h.tables": "7 · Where each method enters attention",
    "relative.tables.md": (
        "A relative bias modifies the score matrix [N,H,L,S]; RoPE modifies Q/K [N,H,L,d] before the scores "
        "are computed. Both express relative structure, but parameters, memory traffic and extrapolation "
        "differ, so 'both are relative' does not make them the same implementation. The price of the bias "
        "schemes: they reach inside attention — a bias added to every score, or (Shaw) an extra relative table "
        "looked up for every (i, j) pair, an [L,S,d] tensor per layer — which costs computation and memory. That is "
        "the question RoPE answers: keep the clean “act on the vectors” form of absolute encodings, yet make the "
        "position part of the score depend only on the distance."
    ),
    "relative.table.methods": (
        "| Method | Injected where | Extra parameters | Changes attention? | Longer sequences |\n"
        "|---|---|---|---|---|\n"
        "| Shaw RPE | into the K/V computation (a vector per clipped distance) | yes: 2k + 1 vectors for K and for V | yes | distances beyond k are clipped: information lost |\n"
        "| T5 bias | added to the attention logits | yes: num_buckets × H scalars | yes | buckets: far distances only coarsely |\n"
        "| ALiBi | added to the logits (linear slope) | none | yes | designed for extrapolation, more stable |\n"
        "| NoPE | no explicit signal | none | no | implicit, through the causal mask |\n"
        "| RoPE (for contrast) | rotates Q/K | none | no (only rotates Q/K) | needs interpolation/scaling plus fine-tuning |"
    ),
    "relative.table.boundary": (
        "| Method | How it affects attention | Tensor it modifies |\n"
        "|---|---|---|\n"
        "| Shaw relative representations | writes a relative-distance vector into each query–key relation | scores [N,H,L,S] (via an [L,S,d] lookup of a [2k+1,d] table) |\n"
        "| T5 relative bias | adds a bias per distance bucket to the logits | scores [N,H,L,S] |\n"
        "| ALiBi | a linear distance penalty per head | scores [N,H,L,S] |\n"
        "| RoPE | rotates Q/K so the dot product contains the relative offset | Q, K [N,H,L,d] |\n"
        "| Position interpolation / scaling | rewrites RoPE positions or frequencies for longer contexts | Q, K [N,H,L,d] |"
    ),
    "relative.table.methods.title": "The method table (rows of the seven-method comparison)",
    "relative.table.boundary.title": "Boundaries between close relatives",
    # ---------------------------------------------------------------- scenes
    "relative.scene.distance": "Distance, not position",
    "relative.scene.distance.say": (
        "Diagonal 0, equal distances equal colours. Drag the shift Δ: the axes change, not one cell does."
    ),
    "relative.scene.shaw": "Shaw clips at k = 2",
    "relative.scene.shaw.say": (
        "Only five table rows for all 12 × 12 pairs: every pair more than 2 apart reads row 0 or row 4. "
        "The orange panel is what was thrown away."
    ),
    "relative.scene.t5": "T5: exact near, logarithmic far",
    "relative.scene.t5.say": (
        "With 16 buckets and max_distance 32, distances 0–3 have their own bucket, then buckets widen; "
        "from distance 20 on everything shares one bucket."
    ),
    "relative.scene.t5causal": "T5 decoder: causal buckets",
    "relative.scene.t5causal.say": (
        "Causal: all 32 buckets go to the past, and every future key lands in bucket 0 with distance 0."
    ),
    "relative.scene.alibi": "ALiBi with 12 heads",
    "relative.scene.alibi.say": (
        "12 is not a power of two: heads 1–8 take 2^(−h) = 1/2 … 1/256, heads 9–12 every other slope of 16 "
        "heads: 0.707, 0.354, 0.177, 0.0884. So steepness no longer follows the head index: head 9 (m = 0.707) "
        "is the steepest and barely looks beyond its neighbours, head 8 (m = 0.00391) is the flattest, and "
        "head 12, whose bias is drawn, is middling (m = 0.0884; 6 of the 12 heads are steeper)."
    ),
    "relative.scene.decode": "Decoding with a cache",
    "relative.scene.decode.say": (
        "4 new queries over 32 keys: the rows are positions 28–31, right-aligned. Every scheme must use "
        "these global positions, or distances are wrong."
    ),
    # errors of posviz.pe.relative
    "err.rel_query_length": (
        "query_length must be <= key_length ({key_length}): the queries are the last query_length keys, got {got}"),
    "err.rel_t5_max_distance": (
        "max_distance must be > {max_exact} (the exact-bucket range max_exact for num_buckets={num_buckets}, "
        "bidirectional={bidirectional}), got {got}"),
    "err.rel_positions": "query_pos and key_pos must be non-empty 1-D position lists, got shapes {query_shape} and {key_shape}",
}

ZH = {
    "relative.title": "相对位置：Shaw、T5 分桶、ALiBi",
    "relative.intro": (
        "在 *the cat sat on the mat* 里，**cat** 和 **sat** 关系紧密，是因为它们紧挨着，而不是因为它们在位置 1 和 2。"
        "在前面加十个词，它们就成了第 12、13 个词（位置 11 和 12）：两者的绝对位置全变了，它们之间的距离却没变。这就像问“现在几点”和问“离出发还有多久”的区别。相对位置方案直接编码这个距离 **i − j**："
        "Shaw 等人按（截断后的）距离查一个可学习向量，T5 按距离**分桶**加一个可学习标量，ALiBi 加一个固定的线性惩罚。"
        "T5 与 ALiBi 把偏置加到打分矩阵 [N,H,L,S] 上；Shaw 把相对向量加到 K（以及 V）的计算里，分数经由 k_j + a_ij 看到距离；"
        "RoPE 则旋转 Q 和 K [N,H,L,d]。"
    ),
    "relative.sources": (
        "参考：Shaw, Uszkoreit & Vaswani 2018（arXiv:1803.02155）· Raffel et al. 2020，T5（arXiv:1910.10683）· "
        "Press, Smith & Lewis 2021，ALiBi（arXiv:2108.12409）· Haviv et al. 2022，NoPE（arXiv:2203.16634）· "
        "Kazemnejad et al. 2023（arXiv:2305.19466）。T5 分桶与 Hugging Face 的 "
        "`T5Attention._relative_position_bucket` 逐值核对，ALiBi 斜率与论文官方 `get_slopes` 逐值核对。"
    ),
    "w.rel_L": "Query 数 L（新 token）",
    "w.rel_L.help": "Query 的行数。没有缓存时，Key 数 = Query 数 = L（方阵）。",
    "w.rel_past": "它们之前已缓存的 token 数",
    "w.rel_past.help": (
        "增量解码：Key = 缓存 + 新 token，S = past + L；Query 右对齐——它们是最后 L 个位置，"
        "与 Hugging Face 的 past_seen_tokens 完全一致。"
    ),
    "w.rel_shift": "整体平移 Δ",
    "w.rel_shift.help": "在句首加 Δ 个词：每个 i 和 j 都加 Δ。看矩阵一格都不变。",
    "w.rel_k": "Shaw 截断距离 k",
    "w.rel_k.help": "|i − j| > k 的距离共用表的边缘行（第 0 行或第 2k 行）。",
    "w.rel_t5_bidir": "双向（编码器）",
    "w.rel_t5_bidir.help": (
        "开：T5 编码器，一半的桶留给 Query 之后的 Key。关：T5 解码器（因果），所有桶都给过去，未来的 Key 全部落入 0 号桶。"
    ),
    "w.rel_t5_nb": "桶数 num_buckets",
    "w.rel_t5_nb.help": "T5 用 32。每个方向上一半是精确桶，一半是对数桶。",
    "w.rel_t5_md": "最大距离 max_distance",
    "w.rel_t5_md.help": "T5 用 128。超过它的距离全部共用最后一个桶（实际往往更早，见下表）。",
    "w.rel_heads": "ALiBi 头数 H",
    "w.rel_heads.help": "任意头数：非 2 的幂时按论文的交错规则补足。",
    "w.rel_head": "显示第 h 个头",
    "w.rel_head.help": "与论文一样从 1 开始编号；超过 H 时显示最后一个头。",
    "relative.ax.key": "Key 位置 j",
    "relative.ax.query": "Query 位置 i",
    "relative.ax.distance": "d = i − j（> 0：Key 在过去）",
    "relative.decode.square": "无缓存：L = S = {S}，Query 和 Key 都是位置 {first}…{last}。",
    "relative.decode.rect": (
        "增量解码：{L} 个新 Query 对 S = {S} 个 Key。Query 右对齐——位于位置 {first}…{last}，即 Key 的最后 {L} 个；"
        "若把 Query 当成 0…{L_1} 来建矩阵，每个新 token 的距离都会算错。"
    ),
    "relative.shift.note": (
        "所有位置整体平移了 Δ = {shift}：坐标轴从 {first} 起，但每一格都没变——矩阵只取决于 i − j（平移不变）。"
    ),
    "relative.h.distance": "1 · 距离矩阵 i − j",
    "relative.distance.md": (
        "把每个 Query 和每个 Key 两两配对，按 **i − j** 给格子着色。对角线为 0（词和它自己），距离相同的格子颜色相同——"
        "每条对角线都是常数（Toeplitz 矩阵）；整句平移只改坐标轴的标签，不改任何一格。"
        "相对位置方案只是这张矩阵的函数，所以天然对整体平移不敏感。"
    ),
    "relative.fig.distance": "d = i − j（Query 减 Key）",
    "relative.cb.distance": "i − j",
    "relative.h.shaw": "2 · Shaw 等人 2018：每个截断距离一个可学习向量",
    "relative.shaw.md": (
        "Shaw 等人在每层保存一张 2k + 1 行的可学习向量表，对应距离 −k…k，并在每一对的 Key 一侧加上第 "
        "**clip(j − i, −k, k) + k** 行：e_ij = q_i · (k_j + a_ij) / √d（计算 Value 的加权和时还有第二张表）。"
        "距离一旦超过 k，相隔 5 步和相隔 500 步看起来一模一样：左图是每一对读哪一行，右图是截断丢掉了多少步距离。"
        "Shaw 的论文按 **j − i**（Key 减 Query）给表编号，正好是文章和其他各图所用 i − j 的镜像：在 Query 之前 3 步的 Key"
        "（i − j = 3）读第 k − 3 行，所以这里的颜色与第 6 节方向相反——第 6 节画的是 clip(i − j, −k, k)，同一种截断，用文章的符号。"
        "作者发现 k ≥ 2 之后效果差别很小——他们的翻译模型并不需要精确的远距离。"
    ),
    "relative.fig.shaw.index": "表的行号 clip(j − i, −k, k) + k",
    "relative.fig.shaw.lost": "丢失的距离：max(|i − j| − k, 0)",
    "relative.cb.index": "行号",
    "relative.cb.lost": "步数",
    "relative.m.rows": "表行数 2k + 1",
    "relative.m.clipped": "被截断的配对",
    "relative.m.distinct": "本矩阵中不同的距离数",
    "relative.h.t5": "3 · T5：每个距离桶一个可学习标量",
    "relative.t5.md": (
        "T5 为每个桶、每个头学习一个标量，加到 logits 上（所有层共用）。每个方向上，前一半桶是**精确**的"
        "（距离 0、1、2……各占一个桶），后一半按**对数**变宽直到 max_distance，更远的距离全部共用最后一个桶。"
        "近处分得清，远处只分个大概。注意 T5 代码里的相对位置是 Key 减 Query = j − i：在编码器中，Query 之后的 Key"
        "（i − j < 0）用上半部分的桶；在因果解码器中它们全部落入 0 号桶，与距离 0 同桶——反正会被掩码挡掉。"
    ),
    "relative.fig.t5.matrix": "每一对的 T5 桶号",
    "relative.fig.t5.step": "桶号随距离的阶梯",
    "relative.cb.bucket": "桶号",
    "relative.ax.bucket": "桶号",
    "relative.t5.exact": "精确",
    "relative.t5.log": "对数桶",
    "relative.t5.max": "max_distance = {md}",
    "relative.m.exact": "精确距离 0…max_exact − 1",
    "relative.m.last": "最后一个桶起始于 |d| =",
    "relative.m.empty": "空桶数",
    "relative.t5.table": "哪些距离共用一个桶（d = i − j；每个方向最后一个桶没有上界）",
    "relative.t5tab.bucket": "桶号",
    "relative.t5tab.range": "距离 d",
    "relative.t5tab.count": "个数",
    "relative.t5tab.region": "区域",
    "relative.t5tab.side": "Key",
    "relative.t5tab.exact": "精确",
    "relative.t5tab.log": "对数",
    "relative.t5tab.past": "在 Query 处或之前",
    "relative.t5tab.future": "在 Query 之后",
    "relative.t5tab.empty": "空（从不使用）",
    "relative.t5tab.inf": "∞",
    "relative.t5.empty_note": (
        "空桶是真实存在的：双向时第 num_buckets/2 号桶对应“Query 之后、距离 0”，这不可能出现；"
        "max_distance 较小时，一些对数桶也会被跳过。"
    ),
    "relative.h.alibi": "4 · ALiBi：每个头一个固定的线性惩罚",
    "relative.alibi.md": (
        "ALiBi 给第 h 个头的 logits 加上 **−m_h · |i − j|**，不学习任何参数。H 是 2 的幂时，斜率是等比数列 "
        "m_h = 2^(−8h/H)：8 个头就是 1/2、1/4、…、1/256。否则官方 `get_slopes` 先取不超过 H 的最大 2 的幂 2^k "
        "的斜率，再从 2^(k+1) 的斜率中隔一个取一个补足（橙色柱）。斜率大的头只看近邻，斜率小的头看得远。"
        "惩罚对任意距离都有定义，所以 ALiBi 为“短训长测”而设计。（官方代码加的是 m·j，每一行都一样；"
        "在因果掩码下它与 −m(i − j) 每行只差一个常数，softmax 对此不敏感。）"
    ),
    "relative.fig.alibi.slopes": "每个头的斜率 m_h（对数坐标）",
    "relative.ax.head": "头 h",
    "relative.ax.slope": "斜率 m_h",
    "relative.alibi.base": "2^(−8h/{n})，h = 1…{n}",
    "relative.alibi.fill": "{n2} 个头的斜率隔一取一",
    "relative.fig.alibi.bias": "第 {h} 个头的偏置：−{m} · |i − j|",
    "relative.cb.bias": "偏置",
    "relative.alibi.clamped": "H = {H} 时没有第 {asked} 个头；显示第 {h} 个头。",
    "relative.alibi.sorted": "H = {H} 是 2 的幂，斜率随头的编号递减：第 1 个头最陡（m = {m_steep}），第 {flat} 个头最平（m = {m_flat}）。",
    "relative.alibi.mixed": (
        "H = {H} 时斜率**不**按头的编号排列：最陡的是第 {steep} 个头（m = {m_steep}），"
        "最平的是第 {flat} 个头（m = {m_flat}）。"),
    "relative.alibi.rank": "画出偏置的第 {h} 个头 m = {m_h}；{H} 个头中有 {steeper} 个比它陡。",
    "relative.h.mask": "5 · 只有因果掩码（NoPE）",
    "relative.mask.md": (
        "因果掩码只规定**能连哪条边**——Query i 只能读 j ≤ i 的 Key——却不告诉模型两个可见 token **相隔多远**："
        "同一行里，隔 1 步的 Key 和隔 100 步的 Key 看起来完全一样。以为掩码已经编码了距离，是一个经典错误。"
        "诚实的注脚：掩码确实漏了*一点*位置信息。没有任何位置信号、内容又都相同时，注意力在 i + 1 个可见 Key 上均匀分布，"
        "每个权重都是 1/(i + 1)——Query 能由此知道自己前面有几个词。Haviv 等人 2022 发现，完全不加位置编码（NoPE）"
        "的因果语言模型仍能这样学到位置信息。但这个信号又弱又不好控，显式的位置编码仍是主流。"
    ),
    "relative.fig.mask.mask": "因果掩码：1 = 边存在",
    "relative.fig.mask.uniform": "均匀注意力：每个可见 Key 上的权重",
    "relative.ax.weight": "权重 1/(i + 1)",
    "relative.mask.allowed": "允许",
    "relative.mask.weight": "1/(i+1)",
    "relative.h.side": "6 · 同一色标并排比较",
    "w.rel_side": "并排显示这四个矩阵（同一色标）",
    "relative.side.md": (
        "同样的 L × S 个配对，四种看法。三张距离图共用**同一个**发散色标（单位：token，0 = 白色）："
        "精确距离、Shaw 截断表还能分辨的距离、T5 分桶还能分辨的距离（每一对换成它所在桶里最接近 0 的距离）。"
        "哪里变成一片平色，哪里的距离信息就没了。ALiBi 的偏置单位是 logit 而不是 token，所以用自己的色标"
        "（仍然 0 = 白色）：它从不变平，而是一直增长。相对位置编码对整体平移天然不敏感，通常也比学习式绝对位置表"
        "更容易伸到长序列——但“更容易”不等于“一定行”：真外推到底行不行，还得看距离怎么截断、怎么分桶、"
        "训练时见过多长（Kazemnejad 等人 2023）。"
    ),
    "relative.fig.side.distance": "精确距离 i − j",
    "relative.fig.side.shaw": "Shaw：clip(i − j, −{k}, {k}) = {k} − 表的行号",
    "relative.fig.side.t5": "T5：桶还能分辨的距离",
    "relative.fig.side.alibi": "ALiBi 第 {h} 头：−m · |i − j|（独立色标）",
    "relative.cb.tokens": "token",
    "relative.cb.logits": "logit",
    "relative.h.tables": "7 · 各方法从哪里进入注意力",
    "relative.tables.md": (
        "相对偏置直接修改 [N,H,L,S] 的分数矩阵；RoPE 修改 [N,H,L,d] 的 Q/K 后再计算分数。两者都能表达相对结构，"
        "但参数化、内存访问与外推行为不同，不能只因都含“相对位置”就视为同一种实现。偏置类方案的代价是要动 attention 的内部：给每个分数加偏置，或者（Shaw）为每一对 (i, j) 额外查一张相对位置表——每层一个 [L,S,d] 的张量——带来额外的计算和存储。"
        "RoPE 回答的正是这个“既要又要”：保留绝对编码那种“作用在向量上”的干净形式，又让打分里与位置有关的部分只取决于距离。"
    ),
    "relative.table.methods": (
        "| 方案 | 注入方式 | 额外参数 | 是否改 attention | 长度扩展 |\n"
        "|---|---|---|---|---|\n"
        "| Shaw RPE | 加到 K/V 计算（每个截断距离一个向量） | 有（K、V 各 2k + 1 个相对向量） | 是 | 距离截断，超出即失真 |\n"
        "| T5 bias | 加到 attention 打分 | 有（num_buckets × H 个分桶偏置） | 是 | 分桶，远距离粗糙 |\n"
        "| ALiBi | 加到 attention 打分（线性斜率） | 无 | 是 | 为外推设计，天然更稳 |\n"
        "| NoPE | 不显式注入 | 无 | 否 | 靠因果掩码隐式感知 |\n"
        "| RoPE（对照） | 旋转 Q/K | 无 | 否（只转 Q/K） | 需插值/缩放，配合续训 |"
    ),
    "relative.table.boundary": (
        "| 方法 | 如何影响注意力 | 修改哪个张量 |\n"
        "|---|---|---|\n"
        "| Shaw 相对位置表示 | 将相对距离向量写进注意力关系 | 分数 [N,H,L,S]（经由 [2k+1,d] 表查出的 [L,S,d]） |\n"
        "| T5 相对位置偏置 | 按距离桶给 attention logits 加偏置 | 分数 [N,H,L,S] |\n"
        "| ALiBi | 按头给距离施加线性惩罚 | 分数 [N,H,L,S] |\n"
        "| RoPE | 旋转 Q/K，使点积含相对位移 | Q、K [N,H,L,d] |\n"
        "| Position Interpolation/Scaling | 改写 RoPE 位置或频率以适配更长上下文 | Q、K [N,H,L,d] |"
    ),
    "relative.table.methods.title": "方法对照表（七种方案比较中的相关行）",
    "relative.table.boundary.title": "与相近方法的边界",
    "relative.scene.distance": "距离，而不是位置",
    "relative.scene.distance.say": "对角线为 0，距离相同颜色相同。拖动平移 Δ：坐标轴变了，没有一格变。",
    "relative.scene.shaw": "Shaw 在 k = 2 处截断",
    "relative.scene.shaw.say": "12 × 12 个配对只用 5 行表：相隔超过 2 的配对都读第 0 行或第 4 行。橙色图就是被丢掉的部分。",
    "relative.scene.t5": "T5：近处精确，远处取对数",
    "relative.scene.t5.say": "16 个桶、max_distance 32：距离 0–3 各占一个桶，之后桶越来越宽；从距离 20 起全部共用一个桶。",
    "relative.scene.t5causal": "T5 解码器：因果分桶",
    "relative.scene.t5causal.say": "因果时 32 个桶全部给过去，所有未来的 Key 都和距离 0 一起落入 0 号桶。",
    "relative.scene.alibi": "12 个头的 ALiBi",
    "relative.scene.alibi.say": (
        "12 不是 2 的幂：第 1–8 个头取 2^(−h) = 1/2 … 1/256，第 9–12 个头取 16 头斜率的隔一取一：0.707、0.354、"
        "0.177、0.0884。于是陡峭程度不再按头的编号排列：第 9 个头（m = 0.707）最陡，几乎只看近邻；"
        "第 8 个头（m = 0.00391）最平；画出偏置的第 12 个头居中（m = 0.0884；12 个头中有 6 个比它陡）。"
    ),
    "relative.scene.decode": "带缓存的增量解码",
    "relative.scene.decode.say": "4 个新 Query 对 32 个 Key：行是位置 28–31，右对齐。每种方案都必须用这些全局位置，否则距离就错了。",
    # errors of posviz.pe.relative
    "err.rel_query_length": "query_length 必须 ≤ key_length（{key_length}）：Query 是 Key 中的最后 query_length 个，收到的是 {got}",
    "err.rel_t5_max_distance": (
        "max_distance 必须 > {max_exact}（num_buckets={num_buckets}、bidirectional={bidirectional} 时精确桶的范围 "
        "max_exact），收到的是 {got}"),
    "err.rel_positions": "query_pos 和 key_pos 必须是非空的一维位置列表，收到的形状是 {query_shape} 和 {key_shape}",
}
