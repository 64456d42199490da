"""Text of the sinusoidal & learned absolute positions page (en + zh)."""

EN = {
    # errors of posviz.pe.sinusoidal and posviz.pe.learned
    "err.token_ids_tensor": "{name} must be an integer tensor of token ids with shape [N, L], got {got}",

    "sinusoidal.title": "Sinusoidal and learned absolute positions",
    "sinusoidal.intro": (
        "Absolute methods give every position its own vector and **add** it to the token embedding: "
        "$X_p = E_{token(p)} + PE(p)$. The sinusoidal table is a formula — a set of clock hands turning "
        "at different speeds — while the learned table is a parameter matrix with exactly `max_length` rows. "
        "Move the sliders: the numbers below are computed live by the code shown under each figure."),
    "sinusoidal.sources": (
        "Sources: Vaswani et al. 2017, *Attention Is All You Need*, §3.5 (sinusoidal encoding); "
        "Devlin et al. 2019 (BERT) and Radford et al. 2019 (GPT-2) for learned position tables; "
        "the tensor2tensor library for the sin-then-cos (concat) layout."),
    "sinusoidal.controls": "Table size and base (used by every sinusoidal figure on this page)",
    "w.sin_D": "Model dimension D (even)",
    "w.sin_D.help": "PE has D/2 frequency pairs; pair i uses ω_i = base^(−2i/D).",
    "w.sin_base": "Base",
    "w.sin_base.help": "10000 in the original Transformer. A larger base makes the slowest pairs slower.",
    "w.sin_L": "Sequence length L",
    "w.sin_L.help": "Positions 0 … L−1 in the heatmaps and offsets 0 … L−1 in the dot-product curve.",
    "w.sin_dims": "Dimensions to plot",
    "w.sin_dims.help": "Even dimensions hold sin, odd ones cos (interleaved layout). Small indices turn fast, large ones slowly. Indices ≥ D are skipped.",
    "w.sin_pos": "Fingerprint position p",
    "w.sin_pos.help": "The column of PE values at this position. Positions beyond L still have a value: the formula works for any integer.",
    "w.sin_p": "Start position p",
    "w.sin_delta": "Shift Δ",
    "w.sin_delta.help": "PE(p+Δ) should equal M(Δ)·PE(p), with the same M(Δ) for every p.",
    "w.sin_lin_method": "What carries the position",
    "w.sin_lin_method.sinusoidal": "sinusoidal PE(p), then W_Q, W_K",
    "w.sin_lin_method.rope": "RoPE: R(p) after W_Q, W_K",
    "w.sin_lin_method.help": "Sinusoidal: the layer reads PE(m) and PE(n). RoPE: the layer reads one token x, then q and k are rotated by R(m), R(n).",
    "w.sin_lin_weights": "W_Q, W_K",
    "w.sin_lin_weights.random": "random",
    "w.sin_lin_weights.identity": "identity",
    "w.sin_lin_seed": "Seed of the random W_Q, W_K",
    "sinusoidal.lin.h": "4b · Can a linear layer read the offset? RoPE makes it",
    "sinusoidal.lin.text": (
        "Because a shift by Δ is the same rotation at every p, a linear layer *can* recover offsets from sinusoidal "
        "coordinates — but nothing makes it do so; RoPE constrains the Q–K dot product itself (“Same words, "
        "different order…” §03). Here one layer W_Q, W_K reads the positions and gives the score s(m, n) of a query "
        "at m and a key at n. A score that depends on n − m only is constant along every diagonal of the map and "
        "flat along a fixed offset on the right; r measures the rest."),
    "sinusoidal.lin.fig.sinusoidal": "s(m, n) = PE(m)W_Q · PE(n)W_K",
    "sinusoidal.lin.fig.rope": "s(m, n) = R(m)W_Q x · R(n)W_K x",
    "sinusoidal.lin.sinusoidal.relative": (
        "r = {r}: this layer does read the offset. With W_Q = W_K = I the score is PE(m)·PE(n) = Σᵢ cos((n − m)ωᵢ). "
        "A linear layer *can*; pick random weights to see that it need not."),
    "sinusoidal.lin.sinusoidal.absolute": (
        "r = {r}: with these weights the score depends on where m and n are, not only on n − m: the lines on the "
        "right are not flat. The offset is recoverable from sinusoidal PE, not enforced."),
    "sinusoidal.lin.rope.relative": (
        "r = {r}: whatever W_Q and W_K, RoPE's score is xᵀW_Q R(n − m) W_Kᵀx: it depends on n − m alone (try other "
        "seeds). RoPE forces what sinusoidal PE only allows."),
    "sinusoidal.lin.rope.absolute": "r = {r}: not a function of n − m alone — RoPE's score should be.",
    "w.sin_M": "Table size max_length (M)",
    "w.sin_M.help": "The learned table has rows for positions 0 … M−1 only.",
    "w.sin_learned_L": "Sequence length L fed to the learned table",
    "w.sin_learned_L.help": "Try L = M (works) and L = M + 1 (no row for position M: the module refuses, the hard boundary).",
    "w.sin_by_hand": "Work it out by hand: the table, the unit circle and every dot product",
    "w.sin_column_order": "Show both column orders side by side",

    # 1 waveforms
    "sinusoidal.waves.h": "1 · Clock hands at different speeds",
    "sinusoidal.waves.md": (
        "Pair $i$ of the encoding is $PE_i(p) = [\\sin(p\\,\\omega_i), \\cos(p\\,\\omega_i)]$ with "
        "$\\omega_i = \\text{base}^{-2i/D}$. Low dimensions turn fast (dimension 0 repeats every "
        "$2\\pi \\approx 6.3$ positions) and tell neighbours apart; high dimensions turn so slowly that over a "
        "short sentence they barely move, giving a coarse, large-scale coordinate."),
    "sinusoidal.fig.waves.title": "PE[:, dim] against position",
    "sinusoidal.fig.pos": "position p",
    "sinusoidal.fig.dim": "dimension",
    "sinusoidal.fig.value": "PE value",
    "sinusoidal.fig.waves.dim": "dim {d} ({kind})",
    "sinusoidal.fig.sin": "sin",
    "sinusoidal.fig.cos": "cos",
    "sinusoidal.waves.wavelength": "Wavelength 2π/ω_i: fastest pair {fast:.3g} positions, slowest pair {slow:.3g} positions.",

    # 2 fingerprint
    "sinusoidal.fp.h": "2 · Each position gets a fingerprint",
    "sinusoidal.fp.md": (
        "Stack all the waves and cut vertically at one position: the column of values is that position's "
        "multi-scale phase fingerprint, the vector actually added to the token embedding. Neighbouring "
        "fingerprints differ in the fast dimensions (top rows) and agree in the slow ones (bottom rows)."),
    "sinusoidal.fig.fp.heatmap": "The PE table, one row per dimension",
    "sinusoidal.fig.fp.slice": "fingerprint PE({p})",
    "sinusoidal.barcode.text": (
        "“Position encodings” puts it as a barcode printed on every seat: each seat's barcode must differ from "
        "every other, and two barcodes should tell how many seats lie between them. Below, the rows of the table "
        "as barcodes (black −1, white +1): seats {a} and {a1}, and {later} seats later {b} and {b1}. Every barcode "
        "differs, yet each pair of neighbours has the same dot product, {d}: PE(p)·PE(p+Δ) holds Δ, not p."),
    "sinusoidal.fig.barcode.title": "Every seat a barcode",
    "sinusoidal.fig.barcode.seat": "seat",
    "sinusoidal.fig.barcode.dot": "PE({a})·PE({b}) = {d}",
    "sinusoidal.fp.zero": (
        "Position 0: PE(0) = [{vals}, …] — every sine is 0 and every cosine 1, the check "
        "`position[0, 0::2] == 0`, `position[0, 1::2] == 1` at the end of the code in “Same words, different order…” "
        "§05. The [L, D] table "
        "is added to a batch of token embeddings [N, L, D] as `position[None, :, :]` and the shape stays [N, L, D]."),
    "sinusoidal.fp.beyond": "Position {p} lies beyond this heatmap (L = {L}), yet the formula still gives its fingerprint in the bar chart: sinusoidal PE has a value at every integer position.",

    # 3 similarity
    "sinusoidal.sim.h": "3 · Dot products see only the offset",
    "sinusoidal.sim.md": (
        "Because every pair satisfies $\\sin a \\sin b + \\cos a \\cos b = \\cos(a-b)$, "
        "$PE(m)^\\top PE(n) = \\sum_i \\cos((m-n)\\,\\omega_i)$: the matrix $PE\\,PE^\\top$ is constant along "
        "each diagonal. In the curve plot, the formula (line) and the measured dot products starting from three "
        "different anchors $m$ (markers) lie on one curve."),
    "sinusoidal.fig.sim.title": "PE·PEᵀ: similarity of m and n",
    "sinusoidal.fig.sim.x": "position n",
    "sinusoidal.fig.sim.y": "position m",
    "sinusoidal.fig.dot.title": "PE(m)·PE(m+Δ) against the offset Δ",
    "sinusoidal.fig.dot.x": "offset Δ",
    "sinusoidal.fig.dot.y": "dot product",
    "sinusoidal.fig.dot.formula": "Σᵢ cos(Δ·ωᵢ) (formula)",
    "sinusoidal.fig.dot.anchor": "measured from m = {m}",
    "sinusoidal.sim.warn": (
        "Not a distance ruler. The curve depends only on Δ, but it goes up and down (periodically for a "
        "single frequency): position 0 can be more similar to a far position than to a nearer one. The "
        "frequencies give **multi-scale phases**; a model has to learn how to read distance from them."),
    "sinusoidal.sim.m.start": "Δ = 0 (always D/2)",
    "sinusoidal.sim.m.rise": "First Δ where it rises again",
    "sinusoidal.sim.m.rise.none": "none up to L−1",
    "sinusoidal.sim.m.min": "Minimum over Δ = 0…L−1",
    "sinusoidal.sim.m.min.at": "at Δ = {a}",

    # 4 shift = rotation
    "sinusoidal.shift.h": "4 · A shift by Δ is a fixed rotation",
    "sinusoidal.shift.md": (
        "Why sin **and** cos in each pair? Because moving every position by $\\Delta$ rotates each pair by a "
        "fixed angle $\\Delta\\omega_i$, and the rotation matrix does not contain $p$. Stacking one 2×2 block "
        "per frequency gives a block-diagonal $M(\\Delta)$ with $PE(p+\\Delta) = M(\\Delta)\\,PE(p)$ for every $p$: "
        "a linear layer *can* recover relative offsets from absolute coordinates. It is only an opportunity — "
        "unlike RoPE, nothing forces the Q–K dot product to use it."),
    "sinusoidal.fig.shift.matrix": "M(Δ), top-left {k}×{k}",
    "sinusoidal.fig.shift.vectors": "M(Δ)·PE(p) lands on PE(p+Δ)",
    "sinusoidal.fig.shift.pe_p": "PE(p)",
    "sinusoidal.fig.shift.target": "PE(p+Δ)",
    "sinusoidal.fig.shift.rotated": "M(Δ)·PE(p)",
    "sinusoidal.shift.err": "max |M(Δ)·PE(p) − PE(p+Δ)| (float32)",
    "sinusoidal.shift.err.help": "Zero up to float32 rounding: the identity holds exactly.",
    "sinusoidal.shift.blocks": "The 2×2 blocks of the fastest pair (i = 0) and the slowest pair (i = {i}) for Δ = {delta}:",
    "sinusoidal.shift.nop": "Change p and watch the matrix M(Δ): it does not move. Only Δ changes it.",

    # 5 hand table
    "sinusoidal.hand.h": "5 · One frequency by hand: ω = π/2",
    "sinusoidal.hand.md": (
        "With a single frequency $\\omega = \\pi/2$ each step is a quarter turn, so the coordinates can be "
        "written down by hand, and every dot product is $PE_\\omega(m)^\\top PE_\\omega(n) = \\cos((m-n)\\,\\omega)$."),
    "sinusoidal.hand.col.p": "position p",
    "sinusoidal.hand.col.pe": "[sin(pω), cos(pω)]",
    "sinusoidal.fig.hand.circle": "positions on the unit circle",
    "sinusoidal.fig.hand.dots": "PE(m)·PE(n) = cos((m−n)ω)",
    "sinusoidal.hand.facts": (
        "- (0,1) and (2,3) have different absolute positions but the same offset 1: both dot products are **0**.\n"
        "- (0,2) and (1,3) both have offset 2: both dot products are **−1**.\n"
        "- Real encodings use many frequencies, and each gives the same offset a different phase: the model "
        "reads position relations from the combination of phases, not from one number."),

    # 6 layouts
    "sinusoidal.layout.h": "6 · Interleaved or concatenated: same numbers, different column order",
    "sinusoidal.layout.md": (
        "The original formula interleaves: column $2i$ is $\\sin(p\\,\\omega_i)$ and column $2i+1$ is "
        "$\\cos(p\\,\\omega_i)$. tensor2tensor (and many later libraries) put all sines first, then all cosines. "
        "The two tables are a column permutation of each other, so dot products and similarity are identical — "
        "but a checkpoint trained with one order must not be loaded with the other."),
    "sinusoidal.fig.layout.interleaved": "interleaved: sin, cos, sin, cos, …",
    "sinusoidal.fig.layout.concat": "concat: all sin | all cos",
    "sinusoidal.layout.perm": "concat = interleaved[:, perm] with perm = {perm}",

    # 7 learned
    "sinusoidal.learned.h": "7 · Learned absolute positions: a table with a hard edge",
    "sinusoidal.learned.md": (
        "BERT and GPT-2 learn a parameter table $P \\in \\mathbb{R}^{M\\times D}$ (BERT: $M = 512$, GPT-2: $M = 1024$) "
        "and add row $p$ to the token embedding. The data decide which positions look alike, which is flexible — "
        "but position $p \\ge M$ simply has no row, and enlarging $M$ afterwards only adds rows that were never trained. "
        "The case in “Position encodings”: trained with 512 rows, the model meets the 513th token (position 512) and "
        "has nothing to look up — set M = 512 and L = 513 below. Token table and position table are both `nn.Embedding` lookups "
        "(weight [num_embeddings, D]; token(ids) [N,L] → [N,L,D], position(arange(L)) → [L,D], added with "
        "broadcasting), but their rows mean completely different things."),
    "sinusoidal.learned.ok": "L = {L} ≤ max_length = {M}: LearnedAbsolutePositions returns a tensor of shape {shape} (N, L, D).",
    "sinusoidal.learned.err_why": (
        "This refusal is the correct behaviour: the module stops instead of inventing a coordinate for position {M}. "
        "Enlarging max_length afterwards would only add rows that were never trained, and the tempting modulo “fix” "
        "below hides the problem instead of solving it. The rest of the page keeps working: only this one call "
        "was refused."),
    "sinusoidal.mod.h": "Why not just take `p % max_length`?",
    "sinusoidal.mod.md": (
        "A tempting one-line fix is to wrap positions: `position_ids % max_length`. It never raises, and that is the "
        "problem. Position $M$ then reads row 0, the row trained for the **first** token: a token far "
        "down the sequence wears the coordinates of the sequence start, two tokens $M$ apart become "
        "indistinguishable by position, and neighbours $M-1$ and $M$ look $M-1$ steps apart. Nothing crashes; "
        "the quality just silently drops."),
    "sinusoidal.fig.mod.title": "Table row read by each position",
    "sinusoidal.fig.mod.x": "position p",
    "sinusoidal.fig.mod.y": "row of the position table",
    "sinusoidal.fig.mod.correct": "correct: row p (exists only for p < M)",
    "sinusoidal.fig.mod.modulo": "bug: row p mod M",
    "sinusoidal.fig.mod.no_row": "no row here",
    "sinusoidal.fig.mod.last_row": "last row {r}",
    "sinusoidal.mod.none": "With L ≤ max_length every position has its own row: nothing aliases yet. Raise L above max_length to see the bug.",
    "sinusoidal.mod.count": "With the modulo bug, {n} of the {L} positions read a row that belongs to an earlier position.",
    "sinusoidal.mod.col.row": "table row",
    "sinusoidal.mod.col.positions": "positions that read it (indistinguishable)",
    "sinusoidal.mod.more": "… and {n} more rows.",

    # buffer note
    "sinusoidal.buffer.h": "Parameter or buffer? What gets saved",
    "sinusoidal.buffer.md": (
        "The sinusoidal table needs no gradient. A production module can cache it with "
        "`register_buffer(\"position\", table, persistent=False)`: a buffer is not a trainable parameter, it moves "
        "with `.to(device)`, and `persistent=False` keeps the rebuildable table out of `state_dict()`. The learned "
        "table is a real parameter: it is trained and saved. Below: both input modules, built with the current D and M."),
    "sinusoidal.buffer.col.module": "module",
    "sinusoidal.buffer.col.name": "name",
    "sinusoidal.buffer.col.shape": "shape",
    "sinusoidal.buffer.col.kind": "kind",
    "sinusoidal.buffer.col.saved": "in state_dict?",
    "sinusoidal.kind.parameter": "trainable parameter",
    "sinusoidal.kind.buffer": "buffer (no gradient)",
    "sinusoidal.module.learned": "LearnedAbsolutePositions",
    "sinusoidal.module.sinusoidal": "SinusoidalInput",
    "sinusoidal.yes": "yes",
    "sinusoidal.no": "no",

    # extrapolation note and table
    "sinusoidal.extrap": (
        "**“The function has a value” ≠ “the model extrapolates.”** The sinusoidal formula computes position "
        "100 000 as easily as position 3, while the learned table stops at $M$. But a model trained on 512 positions "
        "has never seen the phase combinations of position 100 000, so in practice sinusoidal extrapolation is "
        "mediocre too. Length extrapolation is a property of the trained model, not of the formula."),
    "sinusoidal.table.h": "Where the absolute methods sit",
    "sinusoidal.table.md": (
        "| method | where position enters | learned position parameters? | what it expresses | strength | limit |\n"
        "|---|---|---|---|---|---|\n"
        "| sinusoidal absolute | added to the input hidden | no (fixed formula) | multi-frequency absolute coordinates of each position | no parameters, any integer position can be computed | the model must learn relative relations indirectly from the hidden state; extrapolation in practice is mediocre |\n"
        "| learned absolute | added to the input hidden | yes (an M × D table) | discrete position vectors shaped by the training data | flexible, fits the position patterns of the data | fixed maximum length; untrained rows have no reliable meaning |\n"
        "| RoPE (next pages) | rotates each head's Q and K | no | relative Q–K geometry produced by absolute angles | the Q–K dot product depends explicitly on the offset | may still fail beyond the training length; angles and cache must agree |\n\n"
        "None of them handles padding or replaces the causal mask: position only provides coordinates, the mask "
        "decides visibility."),

    "sinusoidal.shortcut": (
        "**Any of them can learn a positional shortcut.** If the label is always near the start of the training "
        "examples, a model can learn to trust the absolute position instead of the content — and fail the day the "
        "label moves. Random cropping, random segment offsets or other task-appropriate augmentation reduce this, "
        "but they do not replace an evaluation that moves the answer around (“Same words, different order…” §14)."),

    # explain notes
    "sinusoidal.note.waves": "Each curve is one column of the table returned by sinusoidal_positions.",
    "sinusoidal.note.shift": "M(Δ) is built block by block from shift_rotation_2x2; shift_check multiplies and compares in float32.",
    "sinusoidal.note.learned": "The module refuses L > max_length; modulo_position_ids is the bug, kept only to show it.",

    # scenes
    "sinusoidal.scene.waves": "Fast and slow clock hands",
    "sinusoidal.scene.waves.say": "Dimension 0 repeats every 6.28 positions; dimension 62 hardly moves in 100 positions. Each pair is a clock hand with its own speed.",
    "sinusoidal.scene.fp": "A fingerprint at position 3",
    "sinusoidal.scene.fp.say": "Cut the table vertically at p = 3: that column, drawn as the bar chart PE(3), is exactly what gets added to the embedding of the token at position 3.",
    "sinusoidal.scene.shift": "Shift = rotation",
    "sinusoidal.scene.shift.say": "M(3)·PE(5) lands exactly on PE(8). Now move p: the matrix stays the same — it only knows Δ.",
    "sinusoidal.scene.sim": "Only the offset matters — but no ruler",
    "sinusoidal.scene.sim.say": "Every diagonal of PE·PEᵀ is constant, and the three anchors share one curve. The curve goes up and down: it is not a distance ruler.",
    "sinusoidal.scene.edge": "The learned table's hard edge",
    "sinusoidal.scene.edge.say": "BERT-sized table, max_length = 512, and a 513th token (L = 513): position 512 has no row. The module refuses instead of guessing: the warning under the sliders is the hard boundary the articles warn about, not a fault of the page.",
    "sinusoidal.scene.mod": "Why modulo is a bug",
    "sinusoidal.scene.mod.say": "The module still refuses L = 30 > M = 8. The modulo “fix” never refuses: with p mod 8, positions 0, 8, 16 and 24 read the same row. No error, silently wrong.",
}

ZH = {
    # errors of posviz.pe.sinusoidal and posviz.pe.learned
    "err.token_ids_tensor": "{name} 必须是形状为 [N, L] 的整数 token id 张量，收到的是 {got}",

    "sinusoidal.title": "正弦位置编码与学习式绝对位置",
    "sinusoidal.intro": (
        "绝对位置方法给每个位置一个专属向量，并把它**加**到 token embedding 上：$X_p = E_{token(p)} + PE(p)$。"
        "正弦表是一个公式——一组转速各不相同的时钟指针；学习式表则是一张恰好只有 `max_length` 行的参数矩阵。"
        "拖动滑块：下面的数字都由每张图下方展示的代码实时算出。"),
    "sinusoidal.sources": (
        "来源：Vaswani 等 2017，*Attention Is All You Need*，3.5 节（正弦位置编码）；"
        "学习式位置表见 Devlin 等 2019（BERT）与 Radford 等 2019（GPT-2）；"
        "“先全部 sin、再全部 cos”（concat）的排列来自 tensor2tensor 库。"),
    "sinusoidal.controls": "表的大小与 base（本页所有正弦图共用）",
    "w.sin_D": "模型维度 D（偶数）",
    "w.sin_D.help": "PE 有 D/2 个频率对，第 i 对使用 ω_i = base^(−2i/D)。",
    "w.sin_base": "底数 base",
    "w.sin_base.help": "原始 Transformer 取 10000。base 越大，最慢的那几对转得越慢。",
    "w.sin_L": "序列长度 L",
    "w.sin_L.help": "热力图显示位置 0 … L−1，点积曲线显示位移 0 … L−1。",
    "w.sin_dims": "要画的维度",
    "w.sin_dims.help": "交错排列下偶数维是 sin、奇数维是 cos。下标小的转得快，下标大的转得慢。≥ D 的下标会被略过。",
    "w.sin_pos": "指纹位置 p",
    "w.sin_pos.help": "取该位置上的一列 PE 值。超过 L 的位置照样有值：公式对任意整数都能算。",
    "w.sin_p": "起始位置 p",
    "w.sin_delta": "平移 Δ",
    "w.sin_delta.help": "应有 PE(p+Δ) = M(Δ)·PE(p)，且对所有 p 用的是同一个 M(Δ)。",
    "w.sin_lin_method": "位置由什么带进来",
    "w.sin_lin_method.sinusoidal": "正弦 PE(p)，再乘 W_Q、W_K",
    "w.sin_lin_method.rope": "RoPE：W_Q、W_K 之后旋转 R(p)",
    "w.sin_lin_method.help": "正弦：这一层读 PE(m) 和 PE(n)。RoPE：这一层读同一个 token x，再把 q、k 分别旋转 R(m)、R(n)。",
    "w.sin_lin_weights": "W_Q、W_K",
    "w.sin_lin_weights.random": "随机",
    "w.sin_lin_weights.identity": "单位矩阵",
    "w.sin_lin_seed": "随机 W_Q、W_K 的种子",
    "sinusoidal.lin.h": "4b · 线性层能读出位移吗？RoPE 逼它读出",
    "sinusoidal.lin.text": (
        "平移 Δ 在每个 p 上都是同一个旋转，所以线性层*有机会*从正弦坐标里恢复相对位移——但没有什么逼它这样做；"
        "RoPE 则直接约束 Q–K 点积（《词相同但顺序不同…》§03）。这里用一层 W_Q、W_K 读位置，得到位置 m 的 Query 与位置 n 的 Key "
        "的分数 s(m, n)。只依赖 n − m 的分数在图上沿每条对角线都不变，在右图中固定位移的线是平的；r 度量剩下的部分。"),
    "sinusoidal.lin.fig.sinusoidal": "s(m, n) = PE(m)W_Q · PE(n)W_K",
    "sinusoidal.lin.fig.rope": "s(m, n) = R(m)W_Q x · R(n)W_K x",
    "sinusoidal.lin.sinusoidal.relative": (
        "r = {r}：这一层确实读出了位移。W_Q = W_K = I 时分数是 PE(m)·PE(n) = Σᵢ cos((n − m)ωᵢ)。"
        "线性层*能*做到；换成随机权重，就会看到它不一定这样做。"),
    "sinusoidal.lin.sinusoidal.absolute": (
        "r = {r}：用这组权重，分数取决于 m 和 n 各在哪里，而不只取决于 n − m：右图的线不是平的。"
        "位移可以从正弦 PE 里恢复，但并没有被强制。"),
    "sinusoidal.lin.rope.relative": (
        "r = {r}：不管 W_Q、W_K 是什么，RoPE 的分数都是 xᵀW_Q R(n − m) W_Kᵀx：只依赖 n − m（换几个种子试试）。"
        "正弦 PE 只是允许的事，RoPE 把它变成了必然。"),
    "sinusoidal.lin.rope.absolute": "r = {r}：不只是 n − m 的函数——RoPE 的分数本不该这样。",
    "w.sin_M": "位置表大小 max_length（M）",
    "w.sin_M.help": "学习式位置表只有位置 0 … M−1 这些行。",
    "w.sin_learned_L": "输入学习式位置表的序列长度 L",
    "w.sin_learned_L.help": "试试 L = M（正常）和 L = M + 1（位置 M 没有对应行：模块拒绝执行，这就是硬边界）。",
    "w.sin_by_hand": "动手算一遍：表格、单位圆和全部点积",
    "w.sin_column_order": "并排显示两种列顺序",

    "sinusoidal.waves.h": "1 · 转速不同的时钟指针",
    "sinusoidal.waves.md": (
        "编码的第 $i$ 对坐标是 $PE_i(p) = [\\sin(p\\,\\omega_i), \\cos(p\\,\\omega_i)]$，其中 "
        "$\\omega_i = \\text{base}^{-2i/D}$。低维转得快（第 0 维每隔 $2\\pi \\approx 6.3$ 个位置就重复一次），"
        "擅长区分近邻；高维转得极慢，在一句短话里几乎不动，提供粗粒度、大尺度的坐标。"),
    "sinusoidal.fig.waves.title": "PE[:, dim] 随位置的变化",
    "sinusoidal.fig.pos": "位置 p",
    "sinusoidal.fig.dim": "维度",
    "sinusoidal.fig.value": "PE 值",
    "sinusoidal.fig.waves.dim": "第 {d} 维（{kind}）",
    "sinusoidal.fig.sin": "sin",
    "sinusoidal.fig.cos": "cos",
    "sinusoidal.waves.wavelength": "波长 2π/ω_i：最快的一对每 {fast:.3g} 个位置转一圈，最慢的一对要 {slow:.3g} 个位置。",

    "sinusoidal.fp.h": "2 · 每个位置一张指纹",
    "sinusoidal.fp.md": (
        "把所有波叠在一起，在某个位置处竖着切一刀：切到的那一列值，就是这个位置的多尺度相位指纹，"
        "也正是被加到 token embedding 上的那个向量。相邻位置的指纹在快维（上方几行）不同，在慢维（下方几行）几乎一样。"),
    "sinusoidal.fig.fp.heatmap": "PE 表：每行一个维度",
    "sinusoidal.fig.fp.slice": "指纹 PE({p})",
    "sinusoidal.barcode.text": (
        "《位置编码》把它比作给每个座位印一张条码：每个座位的条码都要和别的不同，而且从两张条码的关系里要能读出它们隔了几个座位。"
        "下面把表的行画成条码（黑 −1，白 +1）：座位 {a} 和 {a1}，以及 {later} 个座位之后的 {b} 和 {b1}。每张条码都不一样，"
        "但每对相邻座位的点积都相同，都是 {d}：PE(p)·PE(p+Δ) 里只有 Δ，没有 p。"),
    "sinusoidal.fig.barcode.title": "每个座位一张条码",
    "sinusoidal.fig.barcode.seat": "座位",
    "sinusoidal.fig.barcode.dot": "PE({a})·PE({b}) = {d}",
    "sinusoidal.fp.zero": (
        "位置 0：PE(0) = [{vals}, …]——所有 sin 都是 0、所有 cos 都是 1，正是《词相同但顺序不同…》§05 代码末尾的检查 "
        "`position[0, 0::2] == 0`、`position[0, 1::2] == 1`。[L, D] 的位置表以 `position[None, :, :]` 的形式加到一批 "
        "token embedding [N, L, D] 上，形状仍是 [N, L, D]。"),
    "sinusoidal.fp.beyond": "位置 {p} 已超出这张热力图（L = {L}），但公式照样在条形图里给出了它的指纹：正弦编码在任意整数位置都有值。",

    "sinusoidal.sim.h": "3 · 点积只看位移",
    "sinusoidal.sim.md": (
        "每一对坐标都满足 $\\sin a \\sin b + \\cos a \\cos b = \\cos(a-b)$，所以 "
        "$PE(m)^\\top PE(n) = \\sum_i \\cos((m-n)\\,\\omega_i)$：矩阵 $PE\\,PE^\\top$ 沿每条对角线都是常数。"
        "在曲线图中，公式（实线）与从三个不同起点 $m$ 实测的点积（标记）落在同一条曲线上。"),
    "sinusoidal.fig.sim.title": "PE·PEᵀ：位置 m 与 n 的相似度",
    "sinusoidal.fig.sim.x": "位置 n",
    "sinusoidal.fig.sim.y": "位置 m",
    "sinusoidal.fig.dot.title": "PE(m)·PE(m+Δ) 随位移 Δ 的变化",
    "sinusoidal.fig.dot.x": "位移 Δ",
    "sinusoidal.fig.dot.y": "点积",
    "sinusoidal.fig.dot.formula": "Σᵢ cos(Δ·ωᵢ)（公式）",
    "sinusoidal.fig.dot.anchor": "从 m = {m} 实测",
    "sinusoidal.sim.warn": (
        "它不是一把“距离尺”。曲线只由 Δ 决定，却会上下起伏（单一频率时严格周期性）：位置 0 与某个远处位置的相似度，"
        "可能比与一个更近的位置还高。不同频率给的是**多尺度的相位**，模型得自己学会怎样从中读出距离。"),
    "sinusoidal.sim.m.start": "Δ = 0（恒为 D/2）",
    "sinusoidal.sim.m.rise": "第一次回升的 Δ",
    "sinusoidal.sim.m.rise.none": "到 L−1 为止没有",
    "sinusoidal.sim.m.min": "Δ = 0…L−1 上的最小值",
    "sinusoidal.sim.m.min.at": "在 Δ = {a}",

    "sinusoidal.shift.h": "4 · 平移 Δ 就是一次固定的旋转",
    "sinusoidal.shift.md": (
        "为什么每个频率要成对使用 sin **和** cos？因为把所有位置平移 $\\Delta$，相当于把每一对坐标旋转一个固定角度 "
        "$\\Delta\\omega_i$，而旋转矩阵里不含 $p$。每个频率一个 2×2 块，拼成分块对角的 $M(\\Delta)$，"
        "对所有 $p$ 都有 $PE(p+\\Delta) = M(\\Delta)\\,PE(p)$：线性层因此*有机会*从绝对坐标中恢复相对偏移。"
        "但这只是“可被利用”——不像 RoPE，没有什么强制 Q–K 点积去用它。"),
    "sinusoidal.fig.shift.matrix": "M(Δ) 左上角 {k}×{k}",
    "sinusoidal.fig.shift.vectors": "M(Δ)·PE(p) 正好落在 PE(p+Δ) 上",
    "sinusoidal.fig.shift.pe_p": "PE(p)",
    "sinusoidal.fig.shift.target": "PE(p+Δ)",
    "sinusoidal.fig.shift.rotated": "M(Δ)·PE(p)",
    "sinusoidal.shift.err": "max |M(Δ)·PE(p) − PE(p+Δ)|（float32）",
    "sinusoidal.shift.err.help": "除 float32 舍入误差外为零：恒等式严格成立。",
    "sinusoidal.shift.blocks": "Δ = {delta} 时，最快一对（i = 0）与最慢一对（i = {i}）的 2×2 块：",
    "sinusoidal.shift.nop": "改变 p，看矩阵 M(Δ)：它纹丝不动。只有 Δ 会改变它。",

    "sinusoidal.hand.h": "5 · 用一个频率手算：ω = π/2",
    "sinusoidal.hand.md": (
        "只取一个频率 $\\omega = \\pi/2$，每前进一步恰好转四分之一圈，坐标可以直接手写；任意两个位置的点积为 "
        "$PE_\\omega(m)^\\top PE_\\omega(n) = \\cos((m-n)\\,\\omega)$。"),
    "sinusoidal.hand.col.p": "位置 p",
    "sinusoidal.hand.col.pe": "[sin(pω), cos(pω)]",
    "sinusoidal.fig.hand.circle": "单位圆上的各个位置",
    "sinusoidal.fig.hand.dots": "PE(m)·PE(n) = cos((m−n)ω)",
    "sinusoidal.hand.facts": (
        "- (0,1) 与 (2,3) 的绝对编号不同，但位移都为 1：点积都等于 **0**。\n"
        "- (0,2) 与 (1,3) 的位移都为 2：点积都等于 **−1**。\n"
        "- 真实编码使用许多频率，不同频率会给同一位移不同的相位：模型不是从单个数字读出“距离”，"
        "而是从多尺度相位的组合中学习位置关系。"),

    "sinusoidal.layout.h": "6 · 交错还是拼接：数值相同，列序不同",
    "sinusoidal.layout.md": (
        "原始公式是交错排列：第 $2i$ 列为 $\\sin(p\\,\\omega_i)$，第 $2i+1$ 列为 $\\cos(p\\,\\omega_i)$。"
        "tensor2tensor（以及后来的许多库）把所有 sin 放在前半、所有 cos 放在后半。两张表只差一个列置换，"
        "所以点积与相似度完全相同——但用一种排列训练的权重，不能按另一种排列加载。"),
    "sinusoidal.fig.layout.interleaved": "交错：sin, cos, sin, cos, …",
    "sinusoidal.fig.layout.concat": "拼接：全部 sin | 全部 cos",
    "sinusoidal.layout.perm": "concat = interleaved[:, perm]，其中 perm = {perm}",

    "sinusoidal.learned.h": "7 · 学习式绝对位置：一张有硬边界的表",
    "sinusoidal.learned.md": (
        "BERT 与 GPT-2 学习一张参数表 $P \\in \\mathbb{R}^{M\\times D}$（BERT：$M = 512$，GPT-2：$M = 1024$），"
        "把第 $p$ 行加到 token embedding 上。哪些位置该相似由数据决定，十分灵活——"
        "但位置 $p \\ge M$ 根本没有参数行；事后直接增大 $M$，新添的行也从未被训练过。"
        "《位置编码》里的例子：训练时表里只有 512 行，推理时来了第 513 个 token（位置 512），根本没有对应的编码可查——"
        "在下方把 M 设为 512、L 设为 513 试试。token 表和位置表都是 `nn.Embedding` 查表"
        "（权重形状 [num_embeddings, D]；token(ids) 由 [N,L] 得到 [N,L,D]，position(arange(L)) 得到 [L,D]，靠广播相加），"
        "但两张表里“一行”的含义完全不同。"),
    "sinusoidal.learned.ok": "L = {L} ≤ max_length = {M}：LearnedAbsolutePositions 返回形状为 {shape} 的张量 (N, L, D)。",
    "sinusoidal.learned.err_why": (
        "拒绝执行才是正确行为：模块停下来，而不是给位置 {M} 凭空编造一个坐标。事后增大 max_length 只会添上从未训练过的行；"
        "下面那个诱人的取模“修复”只是把问题藏了起来，并没有解决它。页面其余部分照常工作——被拒绝的只是这一次调用。"),
    "sinusoidal.mod.h": "为什么不能直接取 `p % max_length`？",
    "sinusoidal.mod.md": (
        "一个诱人的“一行修复”是把位置取模：`position_ids % max_length`。它永远不报错，而这正是问题所在："
        "位置 $M$ 读到第 0 行——那一行是为**第一个** token 训练的。序列远处的 token 于是戴上了句首的坐标；"
        "相隔 $M$ 的两个 token 在位置上无法区分；相邻的 $M-1$ 与 $M$ 看起来隔了 $M-1$ 步。程序不会崩溃，"
        "只是质量悄悄下降。"),
    "sinusoidal.fig.mod.title": "每个位置读取的是表中哪一行",
    "sinusoidal.fig.mod.x": "位置 p",
    "sinusoidal.fig.mod.y": "位置表的行号",
    "sinusoidal.fig.mod.correct": "正确：第 p 行（只在 p < M 时存在）",
    "sinusoidal.fig.mod.modulo": "错误：第 p mod M 行",
    "sinusoidal.fig.mod.no_row": "这里没有对应行",
    "sinusoidal.fig.mod.last_row": "最后一行 {r}",
    "sinusoidal.mod.none": "L ≤ max_length 时每个位置都有自己的一行，还没有发生混叠。把 L 调到 max_length 以上就能看到这个 bug。",
    "sinusoidal.mod.count": "在取模 bug 下，{L} 个位置中有 {n} 个读到的是某个更早位置的行。",
    "sinusoidal.mod.col.row": "表中的行",
    "sinusoidal.mod.col.positions": "读取这一行的位置（彼此无法区分）",
    "sinusoidal.mod.more": "……另有 {n} 行未列出。",

    "sinusoidal.buffer.h": "参数还是 buffer？哪些会被保存",
    "sinusoidal.buffer.md": (
        "正弦表不需要梯度。生产模块可以用 `register_buffer(\"position\", table, persistent=False)` 缓存它："
        "buffer 不是可训练参数，但会随 `.to(device)` 迁移设备；`persistent=False` 还能避免把这张可重建的大表写进 "
        "`state_dict()`。学习式位置表则是真正的参数：要训练，也要保存。下表是按当前 D 与 M 构建的两个输入模块。"),
    "sinusoidal.buffer.col.module": "模块",
    "sinusoidal.buffer.col.name": "名称",
    "sinusoidal.buffer.col.shape": "形状",
    "sinusoidal.buffer.col.kind": "类型",
    "sinusoidal.buffer.col.saved": "在 state_dict 中？",
    "sinusoidal.kind.parameter": "可训练参数",
    "sinusoidal.kind.buffer": "buffer（无梯度）",
    "sinusoidal.module.learned": "LearnedAbsolutePositions",
    "sinusoidal.module.sinusoidal": "SinusoidalInput",
    "sinusoidal.yes": "是",
    "sinusoidal.no": "否",

    "sinusoidal.extrap": (
        "**“函数有值”不等于“模型能外推”。** 正弦公式算位置 100000 和算位置 3 一样轻松，而学习式表到 $M$ 就到头了。"
        "但一个只在 512 个位置上训练过的模型，从未见过位置 100000 的相位组合，所以实践中正弦编码的外推同样一般。"
        "长度外推是训练出来的模型的性质，而不是公式的性质。"),
    "sinusoidal.table.h": "绝对位置方法与 RoPE 的取舍",
    "sinusoidal.table.md": (
        "| 方法 | 位置进入哪里 | 是否学习位置参数 | 直接表达什么 | 主要优点 | 主要边界 |\n"
        "|---|---|---|---|---|---|\n"
        "| 正弦绝对位置 | 加到输入 hidden | 否（公式固定） | 每个位置的多频率绝对坐标 | 无位置参数，可生成任意整数位置 | 间接要求模型从 hidden 中学习相对关系；实测外推一般 |\n"
        "| 学习式绝对位置 | 加到输入 hidden | 是（M × D 的表） | 训练数据自行塑造的离散位置向量 | 灵活，能拟合训练数据的位置模式 | 最大表长固定，未训练行没有可靠语义 |\n"
        "| RoPE（见后续页面） | 旋转每个头的 Q 与 K | 否 | 绝对角度产生的相对 Q–K 几何关系 | Q–K 点积显式依赖相对位移 | 超训练长度仍可能外推失效，角度与缓存要一致 |\n\n"
        "三者都不自动处理 padding，也不替代因果掩码：位置只提供坐标，可见性仍由掩码决定。"),

    "sinusoidal.shortcut": (
        "**三者都可能学到位置捷径。** 如果训练样本里的标签总出现在开头，模型可能学会依赖绝对位置而不是内容——"
        "等标签换了位置就失效。随机裁剪、随机片段偏移或适合任务的数据增强能缓解一部分，"
        "但不能取代“把答案挪到不同位置”的正确评估（《词相同但顺序不同…》§14）。"),
    "sinusoidal.note.waves": "每条曲线都是 sinusoidal_positions 返回的表中的一列。",
    "sinusoidal.note.shift": "M(Δ) 由 shift_rotation_2x2 逐块拼成；shift_check 在 float32 下相乘并比较。",
    "sinusoidal.note.learned": "模块拒绝 L > max_length；modulo_position_ids 就是那个 bug，保留它只为演示。",

    "sinusoidal.scene.waves": "快慢不同的时钟指针",
    "sinusoidal.scene.waves.say": "第 0 维每 6.28 个位置重复一次；第 62 维在 100 个位置内几乎不动。每一对都是一根转速不同的指针。",
    "sinusoidal.scene.fp": "位置 3 的指纹",
    "sinusoidal.scene.fp.say": "在 p = 3 处竖切这张表：切下的那一列（条形图 PE(3)），就是加到第 4 个 token（位置 3）embedding 上的向量。",
    "sinusoidal.scene.shift": "平移 = 旋转",
    "sinusoidal.scene.shift.say": "M(3)·PE(5) 精确落在 PE(8) 上。再拖动 p：矩阵不变——它只认 Δ。",
    "sinusoidal.scene.sim": "只看位移——但不是尺子",
    "sinusoidal.scene.sim.say": "PE·PEᵀ 的每条对角线都是常数，三个起点共享同一条曲线。曲线上下起伏：它不是距离尺。",
    "sinusoidal.scene.edge": "学习式位置表的硬边界",
    "sinusoidal.scene.edge.say": "BERT 规模的表 max_length = 512，来了第 513 个 token（L = 513）：位置 512 没有对应行。模块拒绝执行而不是瞎猜：滑块下方的警告正是文章提醒的硬边界，不是页面出了故障。",
    "sinusoidal.scene.mod": "为什么取模是 bug",
    "sinusoidal.scene.mod.say": "模块照样拒绝 L = 30 > M = 8。取模“修复”却从不拒绝：用 p mod 8 取模后，位置 0、8、16、24 读的是同一行。不报错，却悄悄错了。",
}
