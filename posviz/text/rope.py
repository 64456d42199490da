"""Strings of the RoPE clock page (pages/rope.py), English and Chinese, and its scenes."""

EN = {
    "rope.title": "RoPE: position as a clock",
    "rope.intro": (
        "Rotary position embedding does not *add* a position vector: it **turns** the query and the key. "
        "Each pair of dimensions is a clock hand; the query at position m is turned by m·θᵢ, the key at "
        "position n by n·θᵢ. Their dot product only sees the angle between the hands, (n−m)·θᵢ — "
        "absolute rotations, relative scores."
    ),
    "rope.sources": (
        "Sources: Su et al. 2021, *RoFormer: Enhanced Transformer with Rotary Position Embedding* "
        "(arXiv:2104.09864); Hugging Face transformers, Llama `rotate_half` / `apply_rotary_pos_emb`; "
        "seed 000 §07–§09, §12, §17 and seed 001 (RoPE)."
    ),
    # where the rotation happens
    "rope.where.title": "Where the rotation happens",
    "rope.where.body": (
        "- RoPE rotates **Q and K of every head in every layer**, right after the Q/K projection and "
        "before the dot product — not the token embedding, and not once at the input.\n"
        "- **V is not rotated**: RoPE changes *which* keys a query finds similar, not the content that "
        "is read back. Rotating V too is a different design (seed 000 §13).\n"
        "- Seed 001's three points: (1) it is position *inside* attention, not added to the input; "
        "(2) absolute form, relative effect — each vector is turned by its own position, but the "
        "score only depends on n−m; (3) summed over many frequencies the score tends to shrink with "
        "distance (long-term decay), an inductive bias, not a guarantee: one pair simply oscillates.\n"
        "- It adds no parameters and keeps the tensor shapes [N,H,L,d], so fast attention kernels "
        "work unchanged — but `F.scaled_dot_product_attention` never applies RoPE for you: rotate "
        "Q and K before calling it.\n"
        "- Compute the angles p·θᵢ in **float32** and only then cast cos/sin to the input dtype: "
        "bfloat16 angles at position 10⁴ are off by whole radians (see the lab and the checklist). "
        "Production code caches the cos/sin table up to some length and extends it when longer "
        "positions arrive.\n"
        "- This is why open decoder-only families such as Llama, Qwen and Mistral all use RoPE; "
        "T5 uses a relative bias, and ALiBi or no explicit position (NoPE) exist too."
    ),
    "rope.where.diagram": (
        "hidden ─► W_Q ─► q ─► R(m) ─┐\n"
        "                            ├─► q·k/√d ─► softmax ─► weights × V\n"
        "hidden ─► W_K ─► k ─► R(n) ─┘                                  ▲\n"
        "hidden ─► W_V ─► v ───────────── (not rotated) ────────────────┘"
    ),
    # controls
    "rope.controls": "Positions and frequencies",
    # clocks
    "rope.clock.title": "One clock per frequency pair",
    "rope.clock.caption": (
        "Up to four pairs, from the fastest (θ₀ = 1 rad per token) to the slowest (θ ≈ 1/base). "
        "Blue: the query hand turned by m·θᵢ; orange: the key hand turned by n·θᵢ; the arc is the angle "
        "between them. Fast hands wrap around many times; slow hands barely move. With random content "
        "the hands start at different angles and lengths; the rotation adds (n−m)θᵢ (the title) to the "
        "angle between them."
    ),
    "rope.clock.pair": "pair {i}: θ={theta:.3g}",
    "rope.clock.angle": "(n−m)θ = {deg:.0f}°",
    "rope.clock.q": "q hand (m={m})",
    "rope.clock.k": "k hand (n={n})",
    "rope.clock.arc": "angle between",
    "rope.clock.formula_note": (
        "Pair i turns by m·θᵢ for the query and n·θᵢ for the key; the dot product of the two hands is "
        "|q||k|·cos(angle between). For the unit hands (1,0) that is cos((n−m)θᵢ)."
    ),
    # scores
    "rope.score.title": "The shift test and the key-move test",
    "rope.score.caption": (
        "Full score (R(m)q)·(R(n)k) over all pairs, computed by `apply_rope`. Shifting both positions by "
        "Δ leaves it unchanged; moving only the key changes it (seed 000 §12, steps 3 and 4)."
    ),
    "rope.score.base": "score at (m, n) = ({m}, {n})",
    "rope.score.shift": "both shifted: ({m}, {n})",
    "rope.score.key": "only the key moved: ({m}, {n})",
    "rope.score.equal": "equal: only n−m matters",
    "rope.score.bug": (
        "Bug switched on: only Q is rotated. Now the common shift changes the score — the relative "
        "identity R(m)ᵀR(n) = R(n−m) needs both sides rotated (seed 000 §17, exercise 2)."
    ),
    "rope.score.note": (
        "With the unit content q = k = (1,0) in every pair the score is Σᵢ cos((n−m)θᵢ); with random "
        "content it still depends on q and k — RoPE only makes the *position part* relative."
    ),
    # animation
    "rope.anim.title": "Watch it move",
    "rope.anim.caption": (
        "Press ▶ inside the figure: position t advances step by step in your browser. With “shift both” "
        "the hands turn together and the score line is flat; with “move only the key” the angle grows "
        "and the score oscillates."
    ),
    "rope.anim.play": "▶ play",
    "rope.anim.pause": "❚❚ pause",
    "rope.anim.step": "t = {t}: q at {m}, k at {n}, score {score:.3f}",
    "rope.anim.x": "step t",
    "rope.anim.y": "score",
    "rope.anim.score": "score",
    "rope.anim.q": "q hand",
    "rope.anim.k": "k hand",
    "rope.anim.now": "now",
    # distance
    "rope.dist.title": "Score against the distance n−m",
    "rope.dist.caption": (
        "Each pair alone gives cos((n−m)θᵢ): a wave, not a decay (seed 001: cos 3θ oscillates). The mean "
        "over all pairs tends to fall with distance but still wiggles — an inductive bias, not a rule."
    ),
    "rope.dist.x": "relative distance n − m",
    "rope.dist.y": "score (unit hands)",
    "rope.dist.pair": "pair {i}",
    "rope.dist.mean": "mean over all {h} pairs",
    "rope.dist.now": "current n − m",
    # hand examples
    "rope.hand.title": "The worked examples, by hand",
    "rope.hand.caption": (
        "One pair, small numbers, checkable with pencil and paper. The clock shows the chosen example: "
        "faint arrows are the unrotated q and k, solid arrows are R(p)q and R(s)k."
    ),
    "rope.hand.col.example": "example",
    "rope.hand.col.q": "q",
    "rope.hand.col.k": "k",
    "rope.hand.col.theta": "θ",
    "rope.hand.col.p": "p",
    "rope.hand.col.s": "s",
    "rope.hand.col.rq": "R(p)q",
    "rope.hand.col.rk": "R(s)k",
    "rope.hand.col.score": "score",
    "rope.hand.col.relative": "qᵀR(s−p)k",
    "rope.hand.q0": "q (unrotated)",
    "rope.hand.k0": "k (unrotated)",
    "rope.hand.rq": "R(p)q, p={p}",
    "rope.hand.rk": "R(s)k, s={s}",
    "rope.hand.clock_title": "θ={theta}, p={p}, s={s}: score {score:.4f}",
    "rope.hand.s08": "seed 000 §08",
    "rope.hand.s08_shift": "seed 000 §08, shifted by 4",
    "rope.hand.s001": "seed 001, cos 3θ (θ=1)",
    "rope.hand.s17_a": "seed 000 §17 ex. 1 (1,2)",
    "rope.hand.s17_b": "seed 000 §17 ex. 1 (5,6)",
    "rope.hand.s17_c": "seed 000 §17 ex. 1 (5,7)",
    "rope.hand.explain.s08": (
        "q = k = [1,0], θ = π/2. R(1)q = [cos π/2, sin π/2] = [0, 1] and R(3)k = [cos 3π/2, sin 3π/2] = "
        "[0, −1], so the score is −1. Relative form: [1,0]ᵀR(2)[1,0] = cos π = −1."
    ),
    "rope.hand.explain.s08_shift": (
        "Shift both by 4: p = 5, s = 7. The hands are in new places, but s−p is still 2, so the score is "
        "still −1."
    ),
    "rope.hand.explain.s001": (
        "q = k = (1,0), m = 2, n = 5: the score is cos((5−2)θ) = cos 3θ. It depends only on the distance "
        "3, and as a function of distance it oscillates — it does not simply shrink."
    ),
    "rope.hand.explain.s17_a": (
        "q = [1,2], k = [3,4], θ = π/3. qᵀR(φ)k = cos φ·(q·k) + sin φ·(q₂k₁ − q₁k₂) = 11 cos φ + 2 sin φ. "
        "For (p,s) = (1,2): φ = π/3, score = 5.5 + √3 ≈ 7.232."
    ),
    "rope.hand.explain.s17_b": (
        "(p,s) = (5,6): the same distance 1, so the same φ = π/3 and the same score 5.5 + √3 ≈ 7.232."
    ),
    "rope.hand.explain.s17_c": (
        "(p,s) = (5,7): distance 2, φ = 2π/3, score = −5.5 + √3 ≈ −3.768 — a different number, because "
        "only the key moved."
    ),
    # layouts
    "rope.layout.title": "Two ways to pair the dimensions",
    "rope.layout.caption": (
        "Cells with the same number (and colour) are rotated together by the same θᵢ. Interleaved pairs "
        "(0,1), (2,3), … as in RoFormer and seed 000 §09; half-split pairs (i, i+d/2) as Llama's "
        "`rotate_half` in Hugging Face transformers."
    ),
    "rope.layout.row.interleaved": "interleaved",
    "rope.layout.row.half": "half-split",
    "rope.layout.x": "dimension",
    "rope.layout.z": "pair i",
    "rope.layout.m_interleaved": "interleaved, q and k",
    "rope.layout.m_half": "half-split, P·q and P·k",
    "rope.layout.m_mixed": "half-split code, interleaved weights",
    "rope.layout.same": "identical",
    "rope.layout.wrong": "wrong",
    "rope.layout.warning": (
        "Both pairings are the same rotation up to a permutation P of the dimensions, so with P applied "
        "the scores are identical. But **weights cannot be mixed**: a checkpoint trained with one pairing "
        "and run by code with the other rotates the wrong coordinates together — the shapes fit, nothing "
        "crashes, and the attention is silently wrong. Permute the Q/K projection rows when converting "
        "(seed 000 §12, step 5)."
    ),
    "rope.layout.formula_note": (
        "P = [0, 2, 4, …, d−2, 1, 3, …, d−1] maps interleaved to half-split: "
        "interleaved(x) = P⁻¹ · half(P·x), and (P·q)·(P·k) = q·k."
    ),
    # widgets
    "w.rope_m": "query position m",
    "w.rope_m.help": "The query hand turns by m·θᵢ in every pair.",
    "w.rope_n": "key position n",
    "w.rope_n.help": "The key hand turns by n·θᵢ in every pair.",
    "w.rope_shift": "common shift Δ",
    "w.rope_shift.help": "Added to both m and n for the shift test (and to n alone for the key-move test).",
    "w.rope_dim": "head_dim d",
    "w.rope_dim.help": "Width of one attention head; it must be even, giving d/2 rotating pairs.",
    "w.rope_base": "base",
    "w.rope_base.help": "θᵢ = base^(−2i/d). 10000 in RoFormer and Llama 2; 500000 in Llama 3.",
    "w.rope_content": "content of q and k",
    "w.rope_content.unit": "unit hands (1,0)",
    "w.rope_content.random": "random q, k",
    "w.rope_content.help": "Unit hands show the pure position part; random vectors add content.",
    "w.rope_only_q": "bug: rotate only Q",
    "w.rope_only_q.help": "Seed 000 §13: rotating Q but not K breaks the relative identity.",
    "w.rope_anim": "animation",
    "w.rope_anim.both": "shift both",
    "w.rope_anim.key": "move only the key",
    "w.rope_example": "worked example",
    "w.rope_example.s08": "seed 000 §08: q=k=[1,0], θ=π/2, p=1, s=3",
    "w.rope_example.s08_shift": "seed 000 §08: shifted, p=5, s=7",
    "w.rope_example.s001": "seed 001: q=k=(1,0), m=2, n=5",
    "w.rope_example.s17_a": "seed 000 §17: q=[1,2], k=[3,4], θ=π/3, (1,2)",
    "w.rope_example.s17_b": "seed 000 §17: (5,6)",
    "w.rope_example.s17_c": "seed 000 §17: (5,7)",
    # scenes
    "rope.scene.pair": "One pair, one position",
    "rope.scene.pair.say": (
        "With d = 2 there is a single clock. The query at 1 and the key at 3 are turned by 1·θ and 3·θ; "
        "below, seed 000 §08 does the same by hand with θ = π/2 and gets the score −1."
    ),
    "rope.scene.angle": "The angle between q and k",
    "rope.scene.angle.say": (
        "Each hand turns by its own position, but the score only sees the angle between them, "
        "(n−m)θᵢ = 3θᵢ. For unit hands the pair's score is cos 3θᵢ (seed 001)."
    ),
    "rope.scene.shift": "Shift both: nothing changes",
    "rope.scene.shift.say": (
        "Moving query and key by the same Δ turns both hands by Δθᵢ: the arcs and the score stay the "
        "same. Press ▶ in the animation and watch the flat score line."
    ),
    "rope.scene.key": "Move only k",
    "rope.scene.key.say": (
        "Now only the key moves: the angle grows by θᵢ per step and the score changes — it oscillates "
        "instead of simply falling (seed 000 §17: (5,7) differs from (5,6))."
    ),
    "rope.scene.many": "Many frequencies",
    "rope.scene.many.say": (
        "A real head has d/2 pairs, from θ₀ = 1 rad per token down to about 1/base. Fast hands wrap "
        "around, slow hands barely move; the score is the sum over all of them, with random content."
    ),
    "rope.scene.layouts": "Two pairings, one rotation",
    "rope.scene.layouts.say": (
        "Interleaved or half-split: after the permutation P the scores are identical, but weights "
        "trained with one pairing give wrong scores with the other (scroll to the last section)."
    ),
}

ZH = {
    "rope.title": "RoPE：把位置变成一只时钟",
    "rope.intro": (
        "旋转位置编码不再往向量上**加**一个位置向量，而是把 query 和 key **转**一个角度。"
        "每一对维度就是一根时钟指针：位置 m 的 query 转过 m·θᵢ，位置 n 的 key 转过 n·θᵢ。"
        "两者的内积只看指针之间的夹角 (n−m)·θᵢ——绝对地转，相对地算。"
    ),
    "rope.sources": (
        "出处：Su 等，2021，《RoFormer: Enhanced Transformer with Rotary Position Embedding》"
        "（arXiv:2104.09864）；Hugging Face transformers 中 Llama 的 `rotate_half` / "
        "`apply_rotary_pos_emb`；种子文章 000 第 07–09、12、17 节与 001（RoPE 部分）。"
    ),
    "rope.where.title": "旋转发生在哪里",
    "rope.where.body": (
        "- RoPE 旋转的是**每一层、每一个注意力头的 Q 和 K**：在 Q/K 投影之后、点积之前——"
        "不是词向量，也不是在输入处只转一次。\n"
        "- **V 不旋转**：RoPE 改变的是 query 觉得“哪个 key 更像”，而不是被加权取回的内容。"
        "连 V 一起转是另一种设计（种子 000 §13）。\n"
        "- 种子 001 的三点：（1）它是“注意力内部的位置”，而不是加在输入上的位置；"
        "（2）绝对的形式、相对的效果——每个向量按自己的位置旋转，打分只依赖 n−m；"
        "（3）把许多频率加在一起，得分大体随距离变弱（远程衰减），但这只是归纳偏置而非保证："
        "单独一对维度的得分只会来回振荡。\n"
        "- 它不增加参数，也不改变 [N,H,L,d] 的张量形状，所以高效注意力内核可以照常使用——"
        "但 `F.scaled_dot_product_attention` 不会替你加 RoPE：要在调用它之前旋转 Q 和 K。\n"
        "- 角度 p·θᵢ 要先用 **float32** 计算，再把 cos/sin 转成输入的 dtype："
        "在位置 10⁴ 处用 bfloat16 算角度会差出整整几个弧度（见注意力实验室与调试清单）。"
        "生产实现通常缓存一定长度的 cos/sin 表，遇到更长的位置时再扩展。\n"
        "- 正因如此，Llama、Qwen、Mistral 等开源 decoder-only 模型家族都用 RoPE；"
        "T5 用的是相对位置偏置，此外还有 ALiBi，以及不加显式位置编码的 NoPE。"
    ),
    "rope.where.diagram": (
        "hidden ─► W_Q ─► q ─► R(m) ─┐\n"
        "                            ├─► q·k/√d ─► softmax ─► 权重 × V\n"
        "hidden ─► W_K ─► k ─► R(n) ─┘                               ▲\n"
        "hidden ─► W_V ─► v ──────────── （不旋转）──────────────────┘"
    ),
    "rope.controls": "位置与频率",
    "rope.clock.title": "每个频率对一只时钟",
    "rope.clock.caption": (
        "从最快（θ₀ = 每个 token 1 弧度）到最慢（θ ≈ 1/base）最多选出四对维度。"
        "蓝色是转过 m·θᵢ 的 query 指针，橙色是转过 n·θᵢ 的 key 指针，圆弧是两者的夹角。"
        "快指针早已转了很多圈，慢指针几乎不动。换成随机内容时，两根指针的起始角度和长度各不相同；"
        "旋转给它们的夹角再加上 (n−m)θᵢ（见小标题）。"
    ),
    "rope.clock.pair": "第 {i} 对：θ={theta:.3g}",
    "rope.clock.angle": "(n−m)θ = {deg:.0f}°",
    "rope.clock.q": "q 指针（m={m}）",
    "rope.clock.k": "k 指针（n={n}）",
    "rope.clock.arc": "夹角",
    "rope.clock.formula_note": (
        "第 i 对维度中，query 转 m·θᵢ，key 转 n·θᵢ；两根指针的内积是 |q||k|·cos(夹角)。"
        "对单位指针 (1,0)，它就是 cos((n−m)θᵢ)。"
    ),
    "rope.score.title": "共同平移测试与只移动 key 的测试",
    "rope.score.caption": (
        "由 `apply_rope` 计算的完整得分 (R(m)q)·(R(n)k)，对所有维度对求和。两个位置同时平移 Δ，"
        "得分不变；只移动 key，得分改变（种子 000 §12 第 3、4 步）。"
    ),
    "rope.score.base": "位置 (m, n) = ({m}, {n}) 的得分",
    "rope.score.shift": "同时平移后：({m}, {n})",
    "rope.score.key": "只移动 key：({m}, {n})",
    "rope.score.equal": "相等：只有 n−m 起作用",
    "rope.score.bug": (
        "已打开错误开关：只旋转 Q。此时共同平移也会改变得分——相对恒等式 R(m)ᵀR(n) = R(n−m) "
        "要求两边都旋转（种子 000 §17 练习 2）。"
    ),
    "rope.score.note": (
        "当每一对的内容都是单位向量 q = k = (1,0) 时，得分等于 Σᵢ cos((n−m)θᵢ)；换成随机内容，"
        "得分仍取决于 q 和 k 本身——RoPE 只是让其中“位置的部分”变成相对的。"
    ),
    "rope.anim.title": "让它动起来",
    "rope.anim.caption": (
        "点击图中的 ▶：位置 t 在浏览器里逐步前进。选“同时平移”时两根指针一起转，得分曲线是平的；"
        "选“只移动 key”时夹角不断变大，得分来回振荡。"
    ),
    "rope.anim.play": "▶ 播放",
    "rope.anim.pause": "❚❚ 暂停",
    "rope.anim.step": "t = {t}：q 在 {m}，k 在 {n}，得分 {score:.3f}",
    "rope.anim.x": "步数 t",
    "rope.anim.y": "得分",
    "rope.anim.score": "得分",
    "rope.anim.q": "q 指针",
    "rope.anim.k": "k 指针",
    "rope.anim.now": "当前",
    "rope.dist.title": "得分随距离 n−m 的变化",
    "rope.dist.caption": (
        "单独一对维度给出 cos((n−m)θᵢ)：是一条波，而不是衰减（种子 001：cos 3θ 会振荡）。"
        "所有维度对的平均大体随距离下降，但仍有起伏——这是归纳偏置，不是铁律。"
    ),
    "rope.dist.x": "相对距离 n − m",
    "rope.dist.y": "得分（单位指针）",
    "rope.dist.pair": "第 {i} 对",
    "rope.dist.mean": "全部 {h} 对的平均",
    "rope.dist.now": "当前 n − m",
    "rope.hand.title": "手算例题",
    "rope.hand.caption": (
        "只取一对维度、用小数字，纸笔就能验算。时钟画出所选例题：浅色箭头是未旋转的 q 和 k，"
        "实色箭头是 R(p)q 与 R(s)k。"
    ),
    "rope.hand.col.example": "例题",
    "rope.hand.col.q": "q",
    "rope.hand.col.k": "k",
    "rope.hand.col.theta": "θ",
    "rope.hand.col.p": "p",
    "rope.hand.col.s": "s",
    "rope.hand.col.rq": "R(p)q",
    "rope.hand.col.rk": "R(s)k",
    "rope.hand.col.score": "得分",
    "rope.hand.col.relative": "qᵀR(s−p)k",
    "rope.hand.q0": "q（未旋转）",
    "rope.hand.k0": "k（未旋转）",
    "rope.hand.rq": "R(p)q，p={p}",
    "rope.hand.rk": "R(s)k，s={s}",
    "rope.hand.clock_title": "θ={theta}，p={p}，s={s}：得分 {score:.4f}",
    "rope.hand.s08": "种子 000 §08",
    "rope.hand.s08_shift": "种子 000 §08，平移 4",
    "rope.hand.s001": "种子 001，cos 3θ（θ=1）",
    "rope.hand.s17_a": "种子 000 §17 练习 1 (1,2)",
    "rope.hand.s17_b": "种子 000 §17 练习 1 (5,6)",
    "rope.hand.s17_c": "种子 000 §17 练习 1 (5,7)",
    "rope.hand.explain.s08": (
        "q = k = [1,0]，θ = π/2。R(1)q = [cos π/2, sin π/2] = [0, 1]，R(3)k = [cos 3π/2, sin 3π/2] = "
        "[0, −1]，所以得分为 −1。相对形式：[1,0]ᵀR(2)[1,0] = cos π = −1。"
    ),
    "rope.hand.explain.s08_shift": (
        "两者都向右平移 4：p = 5，s = 7。指针换了位置，但 s−p 仍是 2，所以得分仍是 −1。"
    ),
    "rope.hand.explain.s001": (
        "q = k = (1,0)，m = 2，n = 5：得分是 cos((5−2)θ) = cos 3θ。它只由距离 3 决定；"
        "而作为距离的函数，它来回振荡，并不是“越远越小”。"
    ),
    "rope.hand.explain.s17_a": (
        "q = [1,2]，k = [3,4]，θ = π/3。qᵀR(φ)k = cos φ·(q·k) + sin φ·(q₂k₁ − q₁k₂) = 11 cos φ + 2 sin φ。"
        "(p,s) = (1,2) 时 φ = π/3，得分 = 5.5 + √3 ≈ 7.232。"
    ),
    "rope.hand.explain.s17_b": (
        "(p,s) = (5,6)：距离同样是 1，φ 同样是 π/3，得分同样是 5.5 + √3 ≈ 7.232。"
    ),
    "rope.hand.explain.s17_c": (
        "(p,s) = (5,7)：距离为 2，φ = 2π/3，得分 = −5.5 + √3 ≈ −3.768——因为只移动了 key，数值不同了。"
    ),
    "rope.layout.title": "两种维度配对方式",
    "rope.layout.caption": (
        "编号（颜色）相同的格子用同一个 θᵢ 一起旋转。交错配对 (0,1)、(2,3)……见 RoFormer 与种子 000 §09；"
        "前后半配对 (i, i+d/2) 见 Hugging Face transformers 中 Llama 的 `rotate_half`。"
    ),
    "rope.layout.row.interleaved": "交错配对",
    "rope.layout.row.half": "前后半配对",
    "rope.layout.x": "维度",
    "rope.layout.z": "第 i 对",
    "rope.layout.m_interleaved": "交错配对：q 与 k",
    "rope.layout.m_half": "前后半配对：P·q 与 P·k",
    "rope.layout.m_mixed": "前后半代码读交错权重",
    "rope.layout.same": "完全相同",
    "rope.layout.wrong": "错误",
    "rope.layout.warning": (
        "两种配对只差一个维度置换 P：作用 P 之后，得分完全相同。但**权重不能混用**：用一种配对训练的"
        "权重，交给另一种配对的代码运行，会把错误的坐标放在一起旋转——形状都对、不会报错，注意力却"
        "悄悄算错了。转换时要同步置换 Q/K 投影的行（种子 000 §12 第 5 步）。"
    ),
    "rope.layout.formula_note": (
        "P = [0, 2, 4, …, d−2, 1, 3, …, d−1] 把交错配对映射为前后半配对："
        "interleaved(x) = P⁻¹ · half(P·x)，且 (P·q)·(P·k) = q·k。"
    ),
    "w.rope_m": "query 位置 m",
    "w.rope_m.help": "每一对维度中，query 指针转过 m·θᵢ。",
    "w.rope_n": "key 位置 n",
    "w.rope_n.help": "每一对维度中，key 指针转过 n·θᵢ。",
    "w.rope_shift": "共同平移 Δ",
    "w.rope_shift.help": "共同平移测试中同时加到 m 和 n 上（只移动 key 的测试中只加到 n 上）。",
    "w.rope_dim": "每头维度 head_dim d",
    "w.rope_dim.help": "一个注意力头的宽度，必须是偶数，共 d/2 对旋转维度。",
    "w.rope_base": "底数 base",
    "w.rope_base.help": "θᵢ = base^(−2i/d)。RoFormer 与 Llama 2 用 10000，Llama 3 用 500000。",
    "w.rope_content": "q 和 k 的内容",
    "w.rope_content.unit": "单位指针 (1,0)",
    "w.rope_content.random": "随机 q、k",
    "w.rope_content.help": "单位指针只显示位置的部分；随机向量再加上内容。",
    "w.rope_only_q": "错误：只旋转 Q",
    "w.rope_only_q.help": "种子 000 §13：只旋转 Q 而不旋转 K，会破坏相对位移恒等式。",
    "w.rope_anim": "动画",
    "w.rope_anim.both": "同时平移",
    "w.rope_anim.key": "只移动 key",
    "w.rope_example": "手算例题",
    "w.rope_example.s08": "种子 000 §08：q=k=[1,0]，θ=π/2，p=1，s=3",
    "w.rope_example.s08_shift": "种子 000 §08：平移后 p=5，s=7",
    "w.rope_example.s001": "种子 001：q=k=(1,0)，m=2，n=5",
    "w.rope_example.s17_a": "种子 000 §17：q=[1,2]，k=[3,4]，θ=π/3，(1,2)",
    "w.rope_example.s17_b": "种子 000 §17：(5,6)",
    "w.rope_example.s17_c": "种子 000 §17：(5,7)",
    "rope.scene.pair": "一对维度，一个位置",
    "rope.scene.pair.say": (
        "d = 2 时只有一只时钟。位置 1 的 query 与位置 3 的 key 分别转过 1·θ 和 3·θ；"
        "下方种子 000 §08 用 θ = π/2 手算了同一件事，得分为 −1。"
    ),
    "rope.scene.angle": "q 与 k 之间的夹角",
    "rope.scene.angle.say": (
        "每根指针按自己的位置旋转，但得分只看两者之间的夹角 (n−m)θᵢ = 3θᵢ。"
        "单位指针时，这一对的得分就是 cos 3θᵢ（种子 001）。"
    ),
    "rope.scene.shift": "同时平移：什么都没变",
    "rope.scene.shift.say": (
        "把 query 和 key 同时移动 Δ，两根指针都多转 Δθᵢ：夹角和得分都不变。"
        "点动画里的 ▶，看那条平直的得分线。"
    ),
    "rope.scene.key": "只移动 k",
    "rope.scene.key.say": (
        "现在只移动 key：夹角每步增加 θᵢ，得分随之改变——而且是来回振荡，而不是单调下降"
        "（种子 000 §17：(5,7) 与 (5,6) 不同）。"
    ),
    "rope.scene.many": "许多频率",
    "rope.scene.many.say": (
        "真实的注意力头有 d/2 对维度，θ 从每 token 1 弧度一直降到约 1/base。快指针转了很多圈，"
        "慢指针几乎不动；得分是所有维度对之和，这里换成了随机内容。"
    ),
    "rope.scene.layouts": "两种配对，同一个旋转",
    "rope.scene.layouts.say": (
        "交错配对还是前后半配对：经过置换 P 后得分完全相同；但用一种配对训练的权重交给另一种代码，"
        "得分就错了（见页面最后一节）。"
    ),
}
