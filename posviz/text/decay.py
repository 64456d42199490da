"""Strings of the long-term decay page (app_pages/decay.py), English and Chinese."""

EN = {
    "decay.title": "Long-term decay: does attention fade with distance?",
    "decay.intro": (
        "RoFormer argues that RoPE gives attention a *tendency* to weaken as two tokens move apart: "
        "summed over many frequency pairs, the position-dependent part of the query–key score is bounded "
        "by a curve that shrinks with the relative distance r. This page draws that bound, the scores it "
        "bounds, what happens to random and to single query/key pairs, and puts ALiBi (whose penalty "
        "decays by construction) and the sinusoidal dot product on the same axes."),
    "decay.sources": (
        "Sources: Su et al. 2021, RoFormer §3.4.3 and Fig. 2 (arXiv:2104.09864); Press, Smith & Lewis 2021, "
        "ALiBi (arXiv:2108.12409); Vaswani et al. 2017 §3.5; “Position encodings”, section “RoPE: position encoding "
        "as a rotation”, third point."),
    "decay.note": (
        "**Long-term decay is an inductive bias, not a guarantee.** The RoFormer curve bounds a worst case "
        "summed over all frequency pairs. A single query/key pair scores cos(rθ) and oscillates with "
        "distance forever — q = k = (1, 0) at m = 2, n = 5 scores cos 3θ — and the content of the two "
        "tokens dominates the score: a far token with matching content can easily outscore a near one."),
    "decay.no_bases": "Choose at least one RoPE base above to draw the curves.",
    "decay.grid": "Scores exist only at integer distances; the curves are sampled at {p} of the {n} distances 0…{R}.",
    # section 1: bound and q = k = 1
    "decay.s1.title": "1 · RoFormer's bound and the q = k = 1 score",
    "decay.s1.text": (
        "Write each pair (2i, 2i+1) as a complex number. Summation by parts turns the position term of the score, "
        "Σ_i h_i·exp(i·r·θ_i), into −Σ_i (h_(i+1) − h_i)·S_(i+1), so "
        "|s(r)| ≤ max_i |h_(i+1) − h_i| · Σ_j |S_j|, with S_j = Σ_(k<j) exp(i·r·θ_k) the partial sums. "
        "RoFormer plots the *relative upper bound* B(r) = (1/(d/2))·Σ_j |S_j|: d/4 + 1/2 at r = 0 "
        "(32.5 for d = 128), then falling with ripples (solid lines). The dotted lines are real scores: "
        "q = k = (1, …, 1) gives Σ_i 2·cos(r·θ_i), which is d at r = 0. "
        "**Shared axis:** every curve is divided by its value at r = 0; ALiBi is drawn as 1 − m_h·r "
        "(a content score of 1 plus its bias −m_h·r), the sinusoidal dot product Σ_i cos(r·ω_i) divided by D/2."),
    "decay.s1.read": (
        "Read it: both the bound and the q = k = 1 score fall with ripples, and the score eventually swings below "
        "zero (the table's last column gives the first such r once it lies within R: 1707 for d = 128, base 10 000) "
        "— no monotone decay. The "
        "normalised curves are not ordered: the bound caps |score| only after multiplying by max_i |h_(i+1) − h_i|, "
        "so a dotted line may run above its solid one. A larger base turns every pair more slowly, so everything moves right. "
        "With D = d and the same base the sinusoidal curve is *exactly* the q = k = 1 curve: both are "
        "cosine sums over the same frequencies; they differ in where position enters (the input vs. the score)."),
    "decay.table": "Raw numbers (not normalised)",
    "decay.tab.base": "base",
    "decay.tab.bound0": "B(0) = d/4 + 1/2",
    "decay.tab.boundR": "B(R)",
    "decay.tab.ratio": "B(R) / B(0)",
    "decay.tab.wave": "slowest pair's wavelength 2π/θ_{d/2−1} (tokens)",
    "decay.tab.neg": "first r with q=k=1 score < 0",
    "decay.alibi_none": "none",
    "decay.explain.main": (
        "Normalisation: bound ÷ (d/4 + 1/2), q = k = 1 score ÷ d, sinusoidal dot ÷ (D/2), ALiBi as 1 − m_h·r. "
        "θ_i is taken from `rope_inv_freq` (float32, as models store it); every product and sum is float64."),
    # section 2: random content
    "decay.s2.title": "2 · Random queries and keys: the average decays, a pair does not have to",
    "decay.s2.text": (
        "Draw q ~ N(0, I) and k = ρ·q + √(1 − ρ²)·z with z ~ N(0, I) (seeded). Each score is divided by |q||k| "
        "(rotations keep lengths, so it stays within [−1, 1]). With **ρ = 1** (the same content at both ends) "
        "the average is, in expectation, exactly the q = k = 1 curve (÷ d); with **ρ = 0** (unrelated content) the average is 0 "
        "at every distance — there is nothing to decay — and the band (± one standard deviation over the pairs) "
        "is as wide near as far. The thin line is one single pair: even with ρ = 1 it wanders up and down."),
    "decay.explain.random": (
        "Dotted: the expectation ρ × (q = k = 1 curve)/d — exact for ρ = 1 and ρ = 0; for other ρ the exact "
        "factor is E[cos(q, k)] instead of ρ, close to it for large d. The band is mean ± one (population) standard deviation over the n pairs."),
    # section 3: one pair
    "decay.s3.title": "3 · One frequency pair oscillates forever",
    "decay.s3.text": (
        "The smallest example of “Position encodings”: q = k = (1, 0), query at m = 2, key at n = 5. The score is "
        "cos((5 − 2)θ) = cos 3θ: it depends only on the distance, and it swings with it. Pair i turns by "
        "θ_i = base^(−2i/d) per token, so its score cos(rθ_i) runs between +1 and −1 with a period of 2π/θ_i "
        "tokens and never decays. Slow pairs (large i, large base) need thousands of tokens for one swing."),
    "decay.metric.cos3": "cos 3θ_{i}, base {base}",
    "decay.metric.cos3.help": "The score of q = k = (1, 0) in pair i for a key 3 tokens away (m = 2, n = 5).",
    "decay.explain.pair": "The diamond marks r = 3, the example cos 3θ of “Position encodings”.",
    # figures
    "decay.fig.x": "relative distance r (tokens)",
    "decay.fig.main.title": "Score vs distance (d = {d}; the bound at r = 0: d/4 + 1/2 = {b0:g})",
    "decay.fig.main.y": "score ÷ its value at r = 0",
    "decay.fig.bound": "RoFormer bound, base {base}",
    "decay.fig.ones": "q = k = 1, base {base}",
    "decay.fig.ones_key": "dotted: q = k = 1, colour of its base",
    "decay.fig.alibi": "ALiBi head {h}: 1 − {m}·r",
    "decay.fig.sin": "sinusoidal, D = {dim}, base {base}",
    "decay.fig.random.title": "Random q, k (ρ = {rho}): mean ± std",
    "decay.fig.random.y": "s(r) / (|q||k|)",
    "decay.fig.band": "± std, base {base}",
    "decay.fig.band_hi": "mean + std, base {base}",
    "decay.fig.mean": "mean, base {base}",
    "decay.fig.expected": "expectation, base {base}",
    "decay.fig.example": "one pair, base {base}",
    "decay.fig.pair.title": "Pair i = {i}, q = k = (1, 0): cos(r·θᵢ)",
    "decay.fig.pair.y": "cos(r θᵢ)",
    "decay.fig.pair": "cos(r·θ_{i}), base {base}, θ = {theta}",
    "decay.fig.mark": "r = {r}: {v} (base {base})",
    # widgets
    "w.decay_bases": "RoPE bases",
    "w.decay_bases.help": "rope_theta of real models: 10000 (RoFormer, Llama 2), 500000 (Llama 3), 1000000 (Qwen2, Code Llama). Several bases are drawn at once, one colour each.",
    "w.decay_d": "head dimension d",
    "w.decay_d.help": "Rotated dimensions per head (even): d/2 frequency pairs. 128 in Llama, Qwen and Mistral; 2 is the 2-D example of “Position encodings”.",
    "w.decay_R": "max distance R",
    "w.decay_R.help": "Distances 0…R. Beyond 1025 distances the curves are sampled (evenly, or evenly in log r on a log axis).",
    "w.decay_logx": "log r",
    "w.decay_logx.help": "Logarithmic distance axis: short and long range in one view (r = 0 is not shown).",
    "w.decay_ones": "q = k = 1 score",
    "w.decay_alibi": "ALiBi heads h (of 8)",
    "w.decay_alibi.help": "ALiBi with 8 heads has slopes m_h = 2^(−h): head 1 has m = 1/2, head 4 m = 1/16, head 8 m = 1/256.",
    "w.decay_sin": "sinusoidal PE·PE",
    "w.decay_sin.help": "Dot product of two sinusoidal position vectors r apart (base 10 000, width D).",
    "w.decay_sin_dim": "sinusoidal width D",
    "w.decay_rho": "content correlation ρ",
    "w.decay_rho.help": "k = ρ·q + √(1−ρ²)·z: ρ = 1 same content (q = k), ρ = 0 independent q and k.",
    "w.decay_n": "random pairs n",
    "w.decay_seed": "random seed",
    "w.decay_example": "show one single pair",
    "w.decay_pair": "frequency pair i",
    "w.decay_pair.help": "Pair i rotates by θ_i = base^(−2i/d) per token: i = 0 is the fastest.",
    # scenes
    "decay.scene.bound": "RoFormer's curve",
    "decay.scene.bound.say": (
        "RoFormer Fig. 2: d = 128, base 10 000. The bound starts at d/4 + 1/2 = 32.5 (the title) and falls with "
        "ripples — a ceiling on the score, not the score itself."),
    "decay.scene.bases": "Bigger base, slower decay",
    "decay.scene.bases.say": (
        "On a log axis each larger base shifts the curves right: slower decay, but no base stays near 1. For base "
        "10⁶ the q = k = 1 score is down to 0.59 of its start at r = 100 and to 0.31 at r = 10 000 (its bound: "
        "0.42 and 0.17); base 100's score already drops below zero at r = 59. The dotted scores cross zero: no "
        "monotone decay."),
    "decay.scene.same": "Same content, random",
    "decay.scene.same.say": (
        "With q = k random, the average of 64 pairs follows the q = k = 1 curve (its expectation, dotted) to within "
        "0.03 — but the band (± 0.09 on average) and the single pair, up to 0.25 away from the expectation, show how "
        "far one pair strays from the average."),
    "decay.scene.indep": "Independent content",
    "decay.scene.indep.say": (
        "Unrelated q and k average 0 at every distance (never beyond ± 0.03), and the band is about as wide at "
        "r = 1 (± 0.08) as at r = 1000 (± 0.07): content, not distance, decides the score."),
    "decay.scene.pair": "One pair oscillates",
    "decay.scene.pair.say": (
        "The example of “Position encodings”: d = 2, q = k = (1, 0), m = 2, n = 5 scores cos 3θ = cos 3 ≈ −0.99 — the key three "
        "tokens away gets almost the lowest possible score, and it oscillates forever. With a single pair the "
        "RoFormer bound is flat: nothing to sum, nothing decays."),
    "decay.scene.alibi": "ALiBi and sinusoidal",
    "decay.scene.alibi.say": (
        "ALiBi subtracts m_h·r: straight lines that decay for every query and key — a guarantee, by "
        "construction. The sinusoidal dot product is a cosine sum like RoPE's q = k = 1 curve."),
    # errors of posviz.pe.decay
    "err.decay_distances": "distances must be an int max_distance or a non-empty 1-D integer tensor, got {got}",
    "err.decay_distances_range": "distances must hold at most {n} values in [0, {hi}], got {got}",
    "err.decay_qk_shape": "q and k must have the same shape [..., d], got {q} and {k}",
    "err.decay_heads": "heads must name at least one head in [1, {num_heads}]",
}

ZH = {
    "decay.title": "远程衰减：注意力会随距离变弱吗？",
    "decay.intro": (
        "RoFormer 论证了 RoPE 让注意力带上一种*倾向*：两个词隔得越远，越容易变弱——把所有频率对加起来，"
        "Query–Key 打分里与位置有关的部分被一条随相对距离 r 下降的曲线所约束。本页画出这条上界、它所约束的"
        "打分、随机与单个 Query/Key 对的真实表现，并把 ALiBi（按构造线性衰减）与正弦位置编码的点积放在同一坐标轴上。"),
    "decay.sources": (
        "出处：Su 等 2021，RoFormer §3.4.3 与图 2（arXiv:2104.09864）；Press、Smith & Lewis 2021，"
        "ALiBi（arXiv:2108.12409）；Vaswani 等 2017 §3.5；《位置编码》「RoPE：把位置编码变成一次旋转」一节第三点。"),
    "decay.note": (
        "**远程衰减是一种归纳偏置，不是保证。** RoFormer 的曲线约束的是对所有频率对求和后的最坏情况。"
        "单看某一对 Query/Key，打分是 cos(rθ)，会随距离一直振荡——q = k = (1, 0)、m = 2、n = 5 时打分就是 cos 3θ；"
        "而且打分始终被两个词的内容牵着走：内容匹配的远处词，完全可以比近处词得分更高。"),
    "decay.no_bases": "请在上方至少选一个 RoPE 底数（base）来画曲线。",
    "decay.grid": "打分只在整数距离上有定义；曲线在 0…{R} 的 {n} 个距离中采样了 {p} 个。",
    "decay.s1.title": "1 · RoFormer 的上界与 q = k = 1 的打分",
    "decay.s1.text": (
        "把每一对维度 (2i, 2i+1) 看成一个复数。分部求和（Abel 变换）把打分中的位置项 Σ_i h_i·exp(i·r·θ_i) 改写成 "
        "−Σ_i (h_(i+1) − h_i)·S_(i+1)，于是 |s(r)| ≤ max_i |h_(i+1) − h_i| · Σ_j |S_j|，"
        "其中 S_j = Σ_(k<j) exp(i·r·θ_k) 是部分和。RoFormer 画的是*相对上界* B(r) = (1/(d/2))·Σ_j |S_j|："
        "r = 0 时为 d/4 + 1/2（d = 128 时是 32.5），之后带着波纹下降（实线）。虚线是真实的打分："
        "q = k = (1, …, 1) 时打分为 Σ_i 2·cos(r·θ_i)，r = 0 时等于 d。"
        "**共用坐标轴：** 每条曲线都除以它在 r = 0 处的值；ALiBi 画成 1 − m_h·r（内容打分 1 加上偏置 −m_h·r），"
        "正弦编码的点积 Σ_i cos(r·ω_i) 除以 D/2。"),
    "decay.s1.read": (
        "怎么读：上界和 q = k = 1 的打分都带着波纹下降，而打分迟早会摆到零以下（只要它落在 R 之内，表的最后一列就给出第一次出现的 r："
        "d = 128、底数 10 000 时为 1707）——并不是单调衰减。归一化后的曲线没有大小顺序：上界要乘上 "
        "max_i |h_(i+1) − h_i| 才约束 |打分|，所以虚线可以跑到同色实线上方。"
        "底数越大，每一对转得越慢，所有曲线整体右移。当 D = d 且底数相同时，正弦曲线与 q = k = 1 曲线*完全重合*："
        "两者都是同一组频率上的余弦和，区别只在位置从哪里进入（输入端还是打分里）。"),
    "decay.table": "原始数值（未归一化）",
    "decay.tab.base": "底数 base",
    "decay.tab.bound0": "B(0) = d/4 + 1/2",
    "decay.tab.boundR": "B(R)",
    "decay.tab.ratio": "B(R) / B(0)",
    "decay.tab.wave": "最慢一对的波长 2π/θ_{d/2−1}（词数）",
    "decay.tab.neg": "q=k=1 打分首次 < 0 的 r",
    "decay.alibi_none": "不显示",
    "decay.explain.main": (
        "归一化：上界 ÷ (d/4 + 1/2)，q = k = 1 打分 ÷ d，正弦点积 ÷ (D/2)，ALiBi 画成 1 − m_h·r。"
        "θ_i 取自 `rope_inv_freq`（与模型一样存为 float32），之后所有乘法与求和都用 float64。"),
    "decay.s2.title": "2 · 随机的 Query 与 Key：平均会衰减，单个对不一定",
    "decay.s2.text": (
        "抽取 q ~ N(0, I)，令 k = ρ·q + √(1 − ρ²)·z，z ~ N(0, I)（固定随机种子）。每个打分都除以 |q||k|"
        "（旋转不改变长度，所以结果落在 [−1, 1] 内）。**ρ = 1**（两端内容相同）时，平均值在期望意义下恰好等于 q = k = 1 曲线（÷ d）；"
        "**ρ = 0**（内容无关）时，平均值在每个距离上都是 0——根本没有可衰减的东西——而色带（各对之间 ± 一个标准差）"
        "远近一样宽。细线是单独一对：即使 ρ = 1，它也会上下起伏。"),
    "decay.explain.random": (
        "点线：期望 ρ × (q = k = 1 曲线)/d——ρ = 1 与 ρ = 0 时精确；其他 ρ 时精确的系数是 E[cos(q, k)] 而不是 ρ，d 较大时两者很接近。"
        "色带为 n 对上的均值 ± 一个（总体）标准差。"),
    "decay.s3.title": "3 · 单个频率对永远在振荡",
    "decay.s3.text": (
        "《位置编码》里最小的例子：q = k = (1, 0)，Query 在 m = 2，Key 在 n = 5。打分是 cos((5 − 2)θ) = cos 3θ："
        "它只取决于距离，而且随距离来回摆动。第 i 对每个词转 θ_i = base^(−2i/d)，所以它的打分 cos(rθ_i) "
        "以 2π/θ_i 个词为周期在 +1 与 −1 之间往复，永不衰减。慢的频率对（i 大、底数大）要几千个词才摆动一次。"),
    "decay.metric.cos3": "cos 3θ_{i}，底数 {base}",
    "decay.metric.cos3.help": "第 i 对中 q = k = (1, 0)、Key 相距 3 个词（m = 2，n = 5）时的打分。",
    "decay.explain.pair": "菱形标出 r = 3，即《位置编码》中的例子 cos 3θ。",
    "decay.fig.x": "相对距离 r（词数）",
    "decay.fig.main.title": "打分随距离的变化（d = {d}；r = 0 处的上界：d/4 + 1/2 = {b0:g}）",
    "decay.fig.main.y": "打分 ÷ r = 0 处的值",
    "decay.fig.bound": "RoFormer 上界，底数 {base}",
    "decay.fig.ones": "q = k = 1，底数 {base}",
    "decay.fig.ones_key": "虚线：q = k = 1，颜色同其底数",
    "decay.fig.alibi": "ALiBi 第 {h} 头：1 − {m}·r",
    "decay.fig.sin": "正弦，D = {dim}，底数 {base}",
    "decay.fig.random.title": "随机 q、k（ρ = {rho}）：均值 ± 标准差",
    "decay.fig.random.y": "s(r) / (|q||k|)",
    "decay.fig.band": "± 标准差，底数 {base}",
    "decay.fig.band_hi": "均值 + 标准差，底数 {base}",
    "decay.fig.mean": "均值，底数 {base}",
    "decay.fig.expected": "期望，底数 {base}",
    "decay.fig.example": "单独一对，底数 {base}",
    "decay.fig.pair.title": "第 i = {i} 对，q = k = (1, 0)：cos(r·θᵢ)",
    "decay.fig.pair.y": "cos(r θᵢ)",
    "decay.fig.pair": "cos(r·θ_{i})，底数 {base}，θ = {theta}",
    "decay.fig.mark": "r = {r}：{v}（底数 {base}）",
    "w.decay_bases": "RoPE 底数（base）",
    "w.decay_bases.help": "真实模型的 rope_theta：10000（RoFormer、Llama 2）、500000（Llama 3）、1000000（Qwen2、Code Llama）。可同时选多个底数，每个一种颜色。",
    "w.decay_d": "每头维度 d",
    "w.decay_d.help": "每个头参与旋转的维度（偶数），共 d/2 个频率对。Llama、Qwen、Mistral 为 128；2 即《位置编码》中的二维例子。",
    "w.decay_R": "最大距离 R",
    "w.decay_R.help": "距离 0…R。超过 1025 个距离时对曲线采样（线性轴均匀采样，对数轴按 log r 均匀采样）。",
    "w.decay_logx": "对数 r 轴",
    "w.decay_logx.help": "距离取对数坐标：近距离与远距离一图看清（r = 0 不显示）。",
    "w.decay_ones": "q = k = 1 打分",
    "w.decay_alibi": "ALiBi 头 h（共 8 头）",
    "w.decay_alibi.help": "8 头 ALiBi 的斜率 m_h = 2^(−h)：第 1 头 m = 1/2，第 4 头 m = 1/16，第 8 头 m = 1/256。",
    "w.decay_sin": "正弦 PE·PE",
    "w.decay_sin.help": "相距 r 的两个正弦位置向量的点积（底数 10 000，宽度 D）。",
    "w.decay_sin_dim": "正弦编码宽度 D",
    "w.decay_rho": "内容相关度 ρ",
    "w.decay_rho.help": "k = ρ·q + √(1−ρ²)·z：ρ = 1 内容相同（q = k），ρ = 0 q 与 k 相互独立。",
    "w.decay_n": "随机对数 n",
    "w.decay_seed": "随机种子",
    "w.decay_example": "显示单独一对",
    "w.decay_pair": "频率对 i",
    "w.decay_pair.help": "第 i 对每个词旋转 θ_i = base^(−2i/d)：i = 0 转得最快。",
    "decay.scene.bound": "RoFormer 的曲线",
    "decay.scene.bound.say": (
        "RoFormer 图 2：d = 128，底数 10 000。上界从 d/4 + 1/2 = 32.5（见图标题）开始带着波纹下降——"
        "它是打分的天花板，而不是打分本身。"),
    "decay.scene.bases": "底数越大，衰减越慢",
    "decay.scene.bases.say": (
        "在对数横轴上，底数越大曲线越往右移：衰减更慢，但没有哪个底数能一直接近 1。底数 10⁶ 的 q = k = 1 打分"
        "在 r = 100 处已降到起点的 0.59，在 r = 10 000 处降到 0.31（上界：0.42 与 0.17）；底数 100 的打分在 "
        "r = 59 处就已跌破零。q = k = 1 的虚线会穿过零：不是单调衰减。"),
    "decay.scene.same": "内容相同的随机向量",
    "decay.scene.same.say": (
        "q = k 随机时，64 对的平均值贴着 q = k = 1 曲线（即它的期望，点线）走，相差不超过 0.03——但色带"
        "（平均 ± 0.09）和单独一对（与期望最多相差 0.25）显示，单个对会偏离平均值很远。"),
    "decay.scene.indep": "内容相互独立",
    "decay.scene.indep.say": (
        "无关的 q 与 k 在每个距离上平均都是 0（从不超出 ± 0.03），色带在 r = 1（± 0.08）与 r = 1000（± 0.07）处"
        "差不多一样宽：决定打分的是内容，不是距离。"),
    "decay.scene.pair": "单个频率对在振荡",
    "decay.scene.pair.say": (
        "《位置编码》中的例子：d = 2，q = k = (1, 0)，m = 2，n = 5，打分 cos 3θ = cos 3 ≈ −0.99——相距 3 个词的 Key "
        "几乎拿到最低分，而且会一直振荡下去。只有一对时 RoFormer 上界是一条水平线：没有可求和的项，也就没有衰减。"),
    "decay.scene.alibi": "ALiBi 与正弦编码",
    "decay.scene.alibi.say": (
        "ALiBi 直接减去 m_h·r：对每一对 Query 和 Key 都线性衰减的直线——这是构造出来的保证。"
        "正弦编码的点积与 RoPE 的 q = k = 1 曲线一样，也是余弦和。"),
    # errors of posviz.pe.decay
    "err.decay_distances": "distances 必须是整数 max_distance，或非空的一维整数张量，收到的是 {got}",
    "err.decay_distances_range": "distances 最多只能有 {n} 个值，且都在 [0, {hi}] 内，收到的是 {got}",
    "err.decay_qk_shape": "q 和 k 的形状必须相同 [..., d]，收到的是 {q} 和 {k}",
    "err.decay_heads": "heads 必须至少指定一个 [1, {num_heads}] 内的头",
}
