"""Text of the overview page (app_pages/overview.py): why attention needs position."""

EN = {
    "overview.title": "Why does attention need position?",
    "overview.intro": (
        "“dog bites man” and “man bites dog” use the same three words; only the order differs, and the "
        "meaning flips. Self-attention compares every token with every other token by *content*: nothing in "
        "$\\operatorname{softmax}(QK^\\top/\\sqrt d)\\,V$ says which word came first. Positional encoding is the "
        "signal that puts order back in. This page shows the problem live, where the signal can enter, and "
        "the families of solutions."),
    "overview.sources": (
        "Vaswani et al. 2017 (arXiv:1706.03762); Shaw et al. 2018 (arXiv:1803.02155); Raffel et al. 2020 (T5); "
        "Su et al. 2021 (RoFormer, arXiv:2104.09864); Press et al. 2021 (ALiBi, arXiv:2108.12409); "
        "Haviv et al. 2022 (arXiv:2203.16634); the articles “Same words, different order: how does attention tell "
        "positions apart? From sinusoidal encodings to RoPE” §01–§02 and “Position encodings”."),
    "overview.default_a": "dog bites man",
    "overview.default_b": "man bites dog",
    "overview.eq": "1 · Permutation equivariance, live",
    "overview.eq.text": (
        "Reorder the rows of $X$ with a permutation $P$: then $Q, K, V$ are reordered the same way and, "
        "without position and without a mask, the output is just reordered too. Type a sentence and any "
        "reordering of its words: the toy attention layer below (weights from a fixed random seed, the same as in the lab) "
        "gives **Attn(PX)** and **P·Attn(X)**, and their difference."),
    "overview.step1": (
        "This is also the first step of the debugging path (“Same words, different order…” §12): with position and dropout off, reorder the "
        "input and the output together and check that self-attention is (numerically) equivariant — it proves you are "
        "testing the layer you think you are testing."),
    "overview.metric": "max |Attn(PX) − P·Attn(X)|",
    "overview.verdict.equal": "Equivariant: the reordered sentence gets exactly the reordered outputs, and so does every other reordering tried ({n}). Attention sees a bag of words.",
    "overview.verdict.this": "Equivariant to this reordering only: the reordered sentence gets exactly the reordered outputs, but another order of sentence A (“{order}”) changes them by {d}. Not a bag of words: position still counts.",
    "overview.verdict.broken": "Not equivariant: the outputs depend on the order, so the model can tell the two sentences apart.",
    "overview.fig.b": "Attn(PX): sentence B",
    "overview.fig.pa": "P·Attn(X): A reordered",
    "overview.fig.diff": "difference",
    "overview.fig.dim": "output dimension",
    "overview.fig.token": "token of B",
    "overview.fig.value": "O",
    "overview.fig.delta": "ΔO",
    "overview.bars.title": "max |Attn(PX) − P·Attn(X)|, every method",
    "overview.bars.y": "max difference (log)",
    "overview.bars.nomask": "no mask",
    "overview.bars.causal": "causal mask",
    "overview.causal": (
        "**An honest footnote: the causal mask leaks position.** With a causal mask, token $i$ (counted from 0) "
        "averages over the $i + 1$ tokens $0 … i$: give the NoPE layer {n} identical tokens and their weights are "
        "exactly $1/(i + 1)$ = {weights}, so the last token ($i = {last}$) averages over {n}. Each token “knows” how "
        "many came before it, so even NoPE is no longer equivariant (orange bar). "
        "Decoder-only models without any position encoding do learn some position this way (Haviv et al. 2022). "
        "But the mask only says *which* edges exist, not whether two visible tokens are 1 or 100 steps apart; "
        "the signal is weak and hard to control, so explicit position encodings remain the norm."),
    "overview.alibi": (
        "**A surprise worth a minute: ALiBi without a mask.** Its bias $-m_h|i-j|$ is symmetric, so it has "
        "no direction. “man bites dog” is “dog bites man” *reversed*, and reversal keeps every distance "
        "$|i-j|$: bidirectional ALiBi cannot tell them apart (blue ALiBi bar ≈ 0). Any other reordering changes "
        "the distances, and with the causal mask (as in the decoders ALiBi was designed for) direction comes back."),
    "overview.explain.note": "Attn(PX) = P Attn(X) holds row by row because softmax and the weighted sum commute with a reordering of the tokens.",
    "overview.where": "2 · Where can position enter?",
    "overview.where.text": (
        "The methods differ less by name than by **where** position enters the data flow (“Same words, different "
        "order…” §02): "
        "added to the input hidden state (absolute: sinusoidal, learned), as a rotation of each head's Q and K "
        "(RoPE), as a bias added to the score matrix $[N,H,L,S]$ (T5, ALiBi), or as learned relative vectors added "
        "inside the key (and value) computation (Shaw). None of them handles padding "
        "or replaces the causal mask: position gives coordinates, the mask decides visibility."),
    "overview.dot.abs": "Absolute (sinusoidal, learned)",
    "overview.dot.rope": "RoPE",
    "overview.dot.bias": "Relative bias (T5, ALiBi)",
    "overview.dot.tok": "token embedding [N,L,D]",
    "overview.dot.pe": "position [L,D]",
    "overview.dot.hidden": "hidden [N,L,D]",
    "overview.dot.qkv": "Q/K/V projection",
    "overview.dot.softmax": "softmax · V",
    "overview.dot.qk": "Q/K projection",
    "overview.dot.rot": "rotate Q, K by position",
    "overview.dot.v": "V (not rotated)",
    "overview.dot.scores": "QKᵀ [N,H,L,S]",
    "overview.dot.bias_node": "bias(i − j)",
    "overview.table": "3 · Seven ways to add position",
    "overview.table.md": (
        "| method | how position enters | extra parameters | changes attention? | length extension |\n"
        "|---|---|---|---|---|\n"
        "| Sinusoidal APE | added to the input embedding | none (fixed formula) | no | any position can be computed; extrapolates poorly in practice |\n"
        "| Learned APE | added to the input embedding | yes (position table) | no | stuck at the trained maximum length |\n"
        "| Shaw RPE | added inside the K/V computation | yes (relative vectors) | yes | distances clipped; beyond the clip they blur |\n"
        "| T5 bias | added to the attention scores | yes (bucket biases) | yes | buckets; far distances are coarse |\n"
        "| RoPE | rotates Q/K | none | no (only rotates Q/K) | needs interpolation/scaling plus fine-tuning |\n"
        "| ALiBi | added to the attention scores (linear slope) | none | yes | designed to extrapolate; more stable |\n"
        "| NoPE | not injected | none | no | only implicit, through the causal mask |"),
    "overview.table.note": "Not a ladder where new replaces old: each row trades off how to inject position, whether to add parameters, whether to touch attention, and how length extends (“Position encodings”).",
    "overview.links": "Explore each one:",
    "overview.seat": "4 · Why not a bare integer seat number?",
    "overview.seat.text": (
        "The simplest fix — append the integer $p$ (0, 1, 2, …) to each word vector — technically works but "
        "is awkward: a bare integer is sensitive to numeric scale (position 500 dwarfs embedding entries of size ~1), "
        "it has a single scale, and positions beyond the training length are inputs the model never saw; "
        "normalising by the training length just moves the problem past 1. A dot product can hardly read "
        "“how far apart” from one scalar either. We want a signal that is **bounded, continuous, distinct for "
        "every position, multi-scale, and lets relative distance show through** — which is exactly what the "
        "sinusoids in the second figure provide."),
    "overview.seat.left": "a bare integer is unbounded",
    "overview.seat.right": "sinusoids: bounded, several scales",
    "overview.seat.x": "position p",
    "w.ov_int_weights": "W_Q, W_K",
    "w.ov_int_weights.random": "random",
    "w.ov_int_weights.identity": "identity",
    "w.ov_int_seed": "Seed of the random W_Q, W_K",
    "overview.int.text": (
        "And what attention makes of it: one linear layer reads X_p = (1, p) at every position, the score of a query "
        "at m and a key at n is s(m, n) = X_m W_Q · X_n W_K. It holds the term m·n: the score grows with both "
        "positions, not with the distance n − m — the lines of fixed offset on the right are not flat."),
    "overview.int.fig": "s(m, n) with a bare integer position",
    "overview.int.result": (
        "Along Δ = 0 the score goes from {first} at m = 0 to {last} at m = {m}; r = {r} of it is not explained by "
        "n − m. A bare integer gives the layer m·n, not m − n."),
    "overview.fig.score.x": "key position n",
    "overview.fig.score.y": "query position m",
    "overview.fig.score.value": "score",
    "overview.fig.score.residual": "r: what n − m does not explain",
    "overview.fig.score.residual.help": "r = ‖s − T(s)‖ / ‖s − mean(s)‖, T(s): every entry replaced by the mean of its diagonal n − m. 0: the score depends on n − m only.",
    "overview.fig.lines.title": "The score along fixed offsets",
    "overview.fig.lines.x": "query position m",
    "overview.fig.lines.y": "s(m, m + Δ)",
    "overview.fig.lines.offset": "Δ = {d}",
    "overview.seat.int": "p (seat number)",
    "overview.seat.norm": "p / L_train",
    "overview.seat.train": "training length",
    "overview.seat.emb": "size of an embedding entry",
    "overview.seat.explain": "Left: p and p/L_train on a log axis. Right: sin(p·ω) for ω = 0.2, 0.05, 0.0125 (periods 31, 126, 503), the multi-scale channels of a sinusoidal encoding.",
    "w.ov_a": "Sentence X",
    "w.ov_a.help": "Words are split at spaces; Chinese text one character per token (at most 64 tokens, 50 characters per word).",
    "w.ov_b": "Sentence PX (a reordering of X)",
    "w.ov_b.help": "Use exactly the same tokens as X, in another order.",
    "w.ov_method": "Position method",
    "w.ov_method.nope": "none (NoPE)",
    "w.ov_method.sinusoidal": "sinusoidal",
    "w.ov_method.learned": "learned absolute",
    "w.ov_method.rope": "RoPE",
    "w.ov_method.alibi": "ALiBi",
    "w.ov_method.t5": "T5 bias",
    "w.ov_causal": "Causal mask",
    "w.ov_causal.help": "Each token sees only itself and the tokens before it.",
    "w.ov_len": "Positions shown",
    "overview.scene.bag": "A bag of words",
    "overview.scene.bag.say": "No position, no mask: the reordered sentence gets the reordered outputs, difference 0.",
    "overview.scene.mask": "The mask leaks position",
    "overview.scene.mask.say": "Same NoPE model, causal mask on: token i averages over its prefix 0 … i, i + 1 tokens, so order starts to matter.",
    "overview.scene.sin": "Add a sinusoid to the input",
    "overview.scene.sin.say": "Absolute position enters the hidden state: the two sentences now differ.",
    "overview.scene.rope": "Rotate Q and K",
    "overview.scene.rope.say": "RoPE: no input change, but the scores depend on n − m, and equivariance breaks.",
    "overview.scene.alibi": "Bias the scores",
    "overview.scene.alibi.say": "ALiBi adds −m_h·|i − j| to the scores — but the distances are symmetric: the reversed sentence is invisible again, and only it: swapping two neighbours changes the outputs, so this is no bag of words. Turn on the causal mask to restore direction.",
}

ZH = {
    "overview.title": "注意力为什么需要位置？",
    "overview.intro": (
        "“猫追狗”和“狗追猫”用的是同样三个字，只是顺序不同，意思就反了过来。自注意力按*内容*让每个词与所有词两两比较："
        "$\\operatorname{softmax}(QK^\\top/\\sqrt d)\\,V$ 中没有任何一处说明哪个词在前。位置编码就是补上词序的那束信号。"
        "本页现场演示这个问题、信号可以从哪里进入，以及各类解决方案。"),
    "overview.sources": (
        "Vaswani 等 2017（arXiv:1706.03762）；Shaw 等 2018（arXiv:1803.02155）；Raffel 等 2020（T5）；"
        "Su 等 2021（RoFormer, arXiv:2104.09864）；Press 等 2021（ALiBi, arXiv:2108.12409）；"
        "Haviv 等 2022（arXiv:2203.16634）；文章《词相同但顺序不同，注意力怎样辨别位置？从正弦编码到 RoPE》§01–§02 与《位置编码》。"),
    "overview.default_a": "猫追狗",
    "overview.default_b": "狗追猫",
    "overview.eq": "1 · 现场验证置换等变",
    "overview.eq.text": (
        "用置换矩阵 $P$ 重排 $X$ 的行：$Q, K, V$ 也被同样重排；在没有位置、没有掩码时，输出也只是跟着重排。"
        "输入一句话和它的任意一种重排：下面的玩具注意力层（权重由固定的随机种子生成，与实验室页相同）给出 "
        "**Attn(PX)**、**P·Attn(X)** 以及两者之差。"),
    "overview.step1": (
        "这也是调试路径的第一步（《词相同但顺序不同…》§12）：关闭位置表示和 dropout，同时重排输入与输出，验证自注意力在数值上满足置换等变——"
        "先确认实验对象就是你以为的那一层。"),
    "overview.metric": "max |Attn(PX) − P·Attn(X)|",
    "overview.verdict.equal": "置换等变：重排后的句子恰好得到重排后的输出，试过的其他每种重排（{n} 种）也一样。注意力眼里只有一袋词。",
    "overview.verdict.this": "只对这一种重排等变：重排后的句子恰好得到重排后的输出，但句子 A 的另一种顺序（“{order}”）让输出变了 {d}。不是一袋词：位置仍然起作用。",
    "overview.verdict.broken": "不再等变：输出依赖顺序，模型能区分这两句话。",
    "overview.fig.b": "Attn(PX)：句子 B",
    "overview.fig.pa": "P·Attn(X)：A 的行重排",
    "overview.fig.diff": "差值",
    "overview.fig.dim": "输出维度",
    "overview.fig.token": "B 的 token",
    "overview.fig.value": "O",
    "overview.fig.delta": "ΔO",
    "overview.bars.title": "各方法的 max |Attn(PX) − P·Attn(X)|",
    "overview.bars.y": "最大差值（对数）",
    "overview.bars.nomask": "无掩码",
    "overview.bars.causal": "因果掩码",
    "overview.causal": (
        "**一个诚实的注脚：因果掩码会泄漏位置。** 有了因果掩码，第 $i$ 个 token（从 0 数起）在 $0 … i$ 这 $i + 1$ 个 token 上"
        "取平均：给 NoPE 层 {n} 个相同的 token，权重恰好是 $1/(i + 1)$ = {weights}，最后一个 token（$i = {last}$）在 {n} 个 "
        "token 上取平均。每个 token 都“知道”前面有几个词，所以即使是 NoPE 也不再等变（橙色柱）。完全不加位置编码的 decoder-only 模型确实能借此学到一些位置感"
        "（Haviv 等 2022）。但掩码只规定“能连哪条边”，不告诉模型两个可见 token 相隔 1 步还是 100 步；这点隐式信号又弱又不好控，"
        "显式位置编码仍是主流。"),
    "overview.alibi": (
        "**值得停一分钟的意外：不带掩码的 ALiBi。** 它的偏置 $-m_h|i-j|$ 是对称的，没有方向。“狗追猫”正是“猫追狗”的*倒序*，"
        "而倒序保持每个距离 $|i-j|$ 不变：双向 ALiBi 分不清这两句（蓝色 ALiBi 柱 ≈ 0）。换成其他重排，距离就会改变；"
        "加上因果掩码（ALiBi 本就是为 decoder 设计的），方向也就回来了。"),
    "overview.explain.note": "Attn(PX) = P Attn(X) 逐行成立，因为 softmax 与加权求和都与 token 的重排可交换。",
    "overview.where": "2 · 位置信息可以从哪里进入？",
    "overview.where.text": (
        "各方法的关键差异不在名字，而在位置进入数据流的**地方**（《词相同但顺序不同…》§02）：加到输入 hidden（绝对位置：正弦、学习式），"
        "旋转每个头的 Q 与 K（RoPE），作为偏置加到分数矩阵 $[N,H,L,S]$ 上（T5、ALiBi），或者把可学习的相对向量加到 K/V 的计算里（Shaw）。"
        "它们都不自动处理 padding，也不替代因果掩码：位置只提供坐标，可见性仍由掩码决定。"),
    "overview.dot.abs": "绝对位置（正弦、学习式）",
    "overview.dot.rope": "RoPE",
    "overview.dot.bias": "相对偏置（T5、ALiBi）",
    "overview.dot.tok": "token embedding [N,L,D]",
    "overview.dot.pe": "位置 [L,D]",
    "overview.dot.hidden": "hidden [N,L,D]",
    "overview.dot.qkv": "Q/K/V 投影",
    "overview.dot.softmax": "softmax · V",
    "overview.dot.qk": "Q/K 投影",
    "overview.dot.rot": "按位置旋转 Q、K",
    "overview.dot.v": "V（通常不旋转）",
    "overview.dot.scores": "QKᵀ [N,H,L,S]",
    "overview.dot.bias_node": "bias(i − j)",
    "overview.table": "3 · 注入位置的七种方式",
    "overview.table.md": (
        "| 方案 | 注入方式 | 额外参数 | 是否改 attention | 长度扩展 |\n"
        "|---|---|---|---|---|\n"
        "| Sinusoidal APE | 加到输入 embedding | 无（公式固定） | 否 | 理论可算任意位置，实测外推一般 |\n"
        "| Learned APE | 加到输入 embedding | 有（位置表） | 否 | 卡在最大训练长度 |\n"
        "| Shaw RPE | 加到 K/V 计算 | 有（相对向量） | 是 | 距离截断，超出即失真 |\n"
        "| T5 bias | 加到 attention 打分 | 有（分桶偏置） | 是 | 分桶，远距离粗糙 |\n"
        "| RoPE | 旋转 Q/K | 无 | 否（只转 Q/K） | 需插值/缩放，配合续训 |\n"
        "| ALiBi | 加到 attention 打分（线性斜率） | 无 | 是 | 为外推设计，天然更稳 |\n"
        "| NoPE | 不显式注入 | 无 | 否 | 靠因果掩码隐式感知 |"),
    "overview.table.note": "这不是“新的淘汰旧的”：各方案在怎么注入位置、要不要加参数、动不动 attention、长度怎么扩上各有取舍（《位置编码》）。",
    "overview.links": "逐一探索：",
    "overview.seat": "4 · 为什么不直接用整数座位号？",
    "overview.seat.text": (
        "最笨的补法——给每个词贴个座位号 $p$（0、1、2……）拼到词向量上——不是完全不能用，但很别扭：裸整数对数值尺度很敏感"
        "（位置 500 远大于量级约为 1 的 embedding 分量），表达只有单一尺度；句子一长，测试时的位置远超训练见过的范围，"
        "成了模型没见过的输入；除以训练长度归一化，也只是把问题挪到 1 之外。点积注意力也很难从一个裸标量里读出“两个词隔多远”。"
        "我们想要的是**有界、连续、每个位置都能区分、多尺度、还能自然透出相对距离**的位置信号——第二张图里的正弦波正是如此。"),
    "overview.seat.left": "裸整数无界",
    "overview.seat.right": "正弦：有界、多尺度",
    "overview.seat.x": "位置 p",
    "w.ov_int_weights": "W_Q、W_K",
    "w.ov_int_weights.random": "随机",
    "w.ov_int_weights.identity": "单位矩阵",
    "w.ov_int_seed": "随机 W_Q、W_K 的种子",
    "overview.int.text": (
        "再看注意力会把它变成什么：一层线性层在每个位置读 X_p = (1, p)，位置 m 的 Query 与位置 n 的 Key 的分数是 "
        "s(m, n) = X_m W_Q · X_n W_K。里面有 m·n 这一项：分数随两个位置一起增大，而不是随距离 n − m 变化——右图中固定位移的线都不是平的。"),
    "overview.int.fig": "裸整数位置下的 s(m, n)",
    "overview.int.result": (
        "沿 Δ = 0，分数从 m = 0 处的 {first} 变到 m = {m} 处的 {last}；其中有 r = {r} 是 n − m 解释不了的。"
        "裸整数交给这一层的是 m·n，而不是 m − n。"),
    "overview.fig.score.x": "Key 位置 n",
    "overview.fig.score.y": "Query 位置 m",
    "overview.fig.score.value": "分数",
    "overview.fig.score.residual": "r：n − m 解释不了的部分",
    "overview.fig.score.residual.help": "r = ‖s − T(s)‖ / ‖s − mean(s)‖，T(s)：每个元素换成它所在对角线 n − m 的平均值。0 表示分数只依赖 n − m。",
    "overview.fig.lines.title": "固定位移上的分数",
    "overview.fig.lines.x": "Query 位置 m",
    "overview.fig.lines.y": "s(m, m + Δ)",
    "overview.fig.lines.offset": "Δ = {d}",
    "overview.seat.int": "p（座位号）",
    "overview.seat.norm": "p / L_train",
    "overview.seat.train": "训练长度",
    "overview.seat.emb": "embedding 分量的量级",
    "overview.seat.explain": "左：p 与 p/L_train（对数纵轴）。右：ω = 0.2、0.05、0.0125（周期 31、126、503）时的 sin(p·ω)，即正弦编码的多尺度通道。",
    "w.ov_a": "句子 X",
    "w.ov_a.help": "按空格分词；中文每个字一个 token（最多 64 个 token，每个词最多 50 个字符）。",
    "w.ov_b": "句子 PX（X 的一种重排）",
    "w.ov_b.help": "使用与 X 完全相同的 token，只换顺序。",
    "w.ov_method": "位置方法",
    "w.ov_method.nope": "无（NoPE）",
    "w.ov_method.sinusoidal": "正弦",
    "w.ov_method.learned": "学习式绝对位置",
    "w.ov_method.rope": "RoPE",
    "w.ov_method.alibi": "ALiBi",
    "w.ov_method.t5": "T5 偏置",
    "w.ov_causal": "因果掩码",
    "w.ov_causal.help": "每个 token 只能看到自己和之前的 token。",
    "w.ov_len": "显示的位置数",
    "overview.scene.bag": "一袋词",
    "overview.scene.bag.say": "没有位置、没有掩码：重排后的句子得到重排后的输出，差值为 0。",
    "overview.scene.mask": "掩码泄漏了位置",
    "overview.scene.mask.say": "同一个 NoPE 模型，打开因果掩码：第 i 个 token 在前缀 0 … i 这 i + 1 个 token 上取平均，顺序开始起作用。",
    "overview.scene.sin": "在输入上加正弦位置",
    "overview.scene.sin.say": "绝对位置进入 hidden：两句话的输出不再只是重排。",
    "overview.scene.rope": "旋转 Q 与 K",
    "overview.scene.rope.say": "RoPE 不改输入，但分数依赖 n − m，等变性被打破。",
    "overview.scene.alibi": "给分数加偏置",
    "overview.scene.alibi.say": "ALiBi 在分数上加 −m_h·|i − j|——但距离是对称的：倒序的句子又看不出区别了，而且只有它看不出：交换两个相邻的词输出就变了，所以这不是一袋词。打开因果掩码，方向就回来了。",
}
