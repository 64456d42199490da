"""Text of the "train short, test long" page (app_pages/length.py), English and Chinese.

The numbers quoted in `length.findings`, the intro and the scenes are those of the shipped
posviz/tinylm/weights (results.json, MANIFEST.json) and of posviz.views.length; tests/pages/test_page_length.py
checks each of them. Narration rendered by the page gets its numbers through {placeholders}.
"""

_VARIANTS_EN = {
    "nope": "NoPE (no position)",
    "sinusoidal": "Sinusoidal (absolute)",
    "learned": "Learned table (N/A past 63)",
    "learned_clamp": "Learned, clamped to last row",
    "rope": "RoPE",
    "rope_pi": "RoPE + PI (linear)",
    "rope_ntk": "RoPE + NTK-aware",
    "rope_yarn": "RoPE + YaRN",
    "alibi": "ALiBi",
    "t5": "T5 bias",
}
_VARIANTS_ZH = {
    "nope": "NoPE（不加位置）",
    "sinusoidal": "正弦（绝对）",
    "learned": "学习式表（63 之后 N/A）",
    "learned_clamp": "学习式，越界用最后一行",
    "rope": "RoPE",
    "rope_pi": "RoPE + PI（线性插值）",
    "rope_ntk": "RoPE + NTK-aware",
    "rope_yarn": "RoPE + YaRN",
    "alibi": "ALiBi",
    "t5": "T5 偏置",
}

EN = {
    "length.title": "Train short, test long",
    "length.intro": (
        "Six tiny transformers, one per position method, learned one task at length **64**: *output the token "
        "2 positions back*. We then run them on sequences of length **512** and score every bucket of 64 "
        "positions. A position function that *can be computed* at position 500 is not a model that *works* "
        "there: the honest answer is accuracy per position bucket."),
    "length.sources": (
        "Press, Smith & Lewis 2021 (ALiBi, arXiv:2108.12409) · Kazemnejad et al. 2023 (arXiv:2305.19466) · "
        "Haviv et al. 2022 (arXiv:2203.16634) · Chen et al. 2023 (PI, arXiv:2306.15595) · "
        "bloc97 2023 (NTK-aware) · Peng et al. 2023 (YaRN, arXiv:2309.00071) · “Same words, different order: how "
        "does attention tell positions apart? From sinusoidal encodings to RoPE” §14 · “Position encodings”, "
        "length extrapolation"),
    "w.len_metric": "Score",
    "w.len_metric.acc": "accuracy",
    "w.len_metric.loss": "loss (nats)",
    "w.len_metric.help": ("Accuracy: the share of positions where the model outputs exactly the token 2 back. "
                          "Loss: the mean cross-entropy at those positions."),
    "w.len_show": "Methods shown",
    "w.len_show.help": ("Every line is a model trained by `python -m posviz.tinylm.train --all`. The RoPE scalings reuse "
                        "the RoPE model with new frequencies (no fine-tuning)."),
    "w.len_model": "Model to inspect",
    "w.len_model.help": "Used by the attention maps and by the live recomputation.",
    "w.len_live": "Recompute live",
    "w.len_live.help": ("Run the chosen model now on 8 fresh sequences of length 512 and add the result as a "
                        "dotted grey line (a few seconds, then cached)."),
    "w.len_layer": "Layer",
    "w.len_head": "Head",
    "w.len_long": "Long length",
    "w.len_long.help": "Length of the sequence on the right-hand attention map (the training length was 64).",
    "length.live_trace": "live recomputation",
    "length.live_running": "Running the model on 8 sequences of length 512…",
    "length.live_note": ("Dotted grey line: {model}, recomputed just now on 8 new sequences ({secs} s). "
                         "It should follow the shipped line within sampling noise."),
    "length.chance": "chance (1/31)",
    "length.fig_acc": "Accuracy per position bucket",
    "length.fig_loss": "Loss per position bucket",
    "length.fig_sub": "trained at length 64, tested at 512",
    "length.x_bucket": "position bucket",
    "length.y_acc": "accuracy",
    "length.y_loss": "cross-entropy (nats)",
    "length.trained": " trained: 0–{n} ",
    "length.explain_main": (
        "Every point averages the 64 evaluation sequences over one bucket of positions, counting only positions "
        "i ≥ k = 2 (earlier positions have no answer). The curves are read from `posviz/tinylm/weights/results.json`, "
        "which the training command wrote; no model runs to draw this plot. RoPE + PI / NTK / YaRN reuse the "
        "RoPE weights with the frequencies of `posviz.pe.scaling.rope_frequencies` for s = 512/64 = 8."),
    "length.provenance": (
        "Numbers from models actually trained by `{cmd}` on this shared 2-core machine ({secs} s of training "
        "wall time, {cpu} s of CPU time in total, {date}); each curve: {n} sequences of length 512."),
    "length.findings": (
        "**What our models did** (accuracy in the buckets 0–63 → 64–127 → … → 448–511; chance is 3%):\n\n"
        "- **Sinusoidal** and the **learned table**: 100% inside the training range, chance right after it "
        "(sinusoidal: 6% in 64–127). The learned table cannot even run past position 63 (N/A: it has no row "
        "there); reusing its last row (clamped) gives 3%.\n"
        "- **RoPE**: 100% → 96% → 40% → … → 5%. It survives one extra bucket, then collapses.\n"
        "- **RoPE + PI / NTK-aware / YaRN**, same weights with new frequencies and *no fine-tuning*: PI fails "
        "everywhere, even inside the trained range (4%). NTK-aware holds ≥ 94% up to position 319, then falls "
        "to 15%. YaRN pays a little at short range (95%) and still gets 90% at 448–511.\n"
        "- **ALiBi**: 100% → 99% → 98% → 97% … 97% up to position 511: the clear winner.\n"
        "- **T5 bias**: 100% → 58% → 8%. **NoPE**: 99% → 56% → 5%."),
    "length.maps_title": "Inside one head: the same model at the training length and far beyond it",
    "length.learned_na": (
        "The learned table has rows only for positions 0–{n}. Beyond them the model cannot be computed at all, "
        "so there is no long attention map to show. Pick another model (or \"Learned, clamped\")."),
    "length.map_short": "length {n} (as in training)",
    "length.map_long": "length {n}",
    "length.x_key": "key position j",
    "length.y_query": "query position i",
    "length.explain_maps": (
        "One evaluation sequence: the attention probabilities of one head of {model}. Both maps share the scale "
        "0–1. The dashed lines on the right mark position {n}, where training ended. A head that solves the task "
        "draws a thin diagonal at i − j = 2 (or at 1, and the next layer finishes the job). Watch whether the "
        "diagonal survives after the dashed line or breaks up. Maps longer than {side} positions show the largest "
        "weight in each small block of cells, so a one-cell diagonal stays visible. On the RoPE model's long map, "
        "dotted lines mark the phase aliases of the offset chosen below."),
    "length.entropy_title": "How spread out is attention? Entropy per bucket",
    "length.fig_entropy": "Attention entropy per bucket",
    "length.fig_entropy_sub": "layer {layer}, mean over its heads",
    "length.y_entropy": "entropy (nats)",
    "length.uniform": "uniform causal attention, ln(i+1)",
    "length.explain_entropy": (
        "Entropy 0 means a head looks at a single key; ln(i+1) (grey) means it spreads evenly over the whole "
        "prefix. A head that stays sharp beyond the training length keeps a low entropy. A head that meets "
        "distances or phases it never saw often drifts towards the grey line (its attention is diluted)."),
    "length.literature": (
        "#### What the literature reports, and where our tiny models agree or disagree\n\n"
        "- **Press, Smith & Lewis 2021 (ALiBi, \"Train Short, Test Long\")** trained language models at 512 and "
        "1024 tokens and tested them on longer inputs. Sinusoidal perplexity explodes just past the training "
        "length, rotary holds for some extra tokens, the T5 bias holds further, and ALiBi stays flat to many "
        "times the training length. *Agree:* sinusoidal, RoPE and ALiBi come out in exactly that order here. "
        "*Disagree:* our T5 model collapses almost as fast as RoPE. Our task needs one sharp look-up among up "
        "to 512 keys. T5 puts every distance of {last} or more into the same last bucket, so the number of far "
        "keys sharing that bias grows with the length, and together they soak up the attention (at position "
        "{query} about {share}% of the weight of layer {layer}, head {head} lands {last} or more tokens back; see "
        "its entropy rise). ALiBi's "
        "penalty keeps growing with distance instead. A perplexity averages over many easy local predictions "
        "and can hide this.\n"
        "- **Kazemnejad et al. 2023** found that decoder-only models *without* position encoding (NoPE) "
        "length-generalise better than RoPE, ALiBi or T5 on several synthetic reasoning tasks, and proved that "
        "the causal mask lets NoPE represent absolute and relative positions (Haviv et al. 2022 saw position "
        "information emerge the same way in language models). *Agree:* our NoPE model learns the task to 99% "
        "with no position signal at all, so position does leak through the causal mask. *Disagree:* it does "
        "not extrapolate (56% in the next bucket, chance after that), because its mask-derived position signal "
        "leaves the range it was trained on. Our setting (2 layers, 64 dimensions, 800 steps, one task) is far "
        "smaller than theirs, and length generalisation is known to depend on the task.\n"
        "- **PI** (Chen et al. 2023) and **YaRN** (Peng et al. 2023) are meant to be followed by a short "
        "fine-tuning at the long length; **NTK-aware** scaling (bloc97 2023) was proposed as a fix that needs "
        "no fine-tuning. We applied all three with *no* fine-tuning. PI then breaks even the trained range: an "
        "offset of 2 tokens becomes a rotation of 0.25 positions, a phase the model never saw. NTK-aware and "
        "YaRN keep the fast pairs (and with them the short offset) and stretch only the slow ones; YaRN holds "
        "best. This matches the papers' advice: interpolate the slow frequencies, not the fast ones.\n"
        "- **“Same words, different order…” §14**: being able to *run* at 32K is not *working* at 32K, so report loss and accuracy "
        "per length bucket. Every model here except the learned table runs at 512; only the buckets show which "
        "ones work."),
    "length.s1.title": "Absolute positions hit a wall",
    "length.s1.say": (
        "Both absolute methods are perfect inside the blue region and at chance right after it. The learned "
        "table has no row for position 64 (N/A), and reusing its last row does not help. On the maps, the "
        "sinusoidal model's diagonal at i − j = 2 is lost past the dashed line."),
    "length.s2.title": "Relative biases: ALiBi and T5",
    "length.s2.say": (
        "ALiBi keeps 97% up to position 511. The T5 bias is relative too, yet falls to 58% and then to chance: "
        "every distance of 59 or more shares one bucket, so hundreds of far keys get the same bias and dilute "
        "the attention. Watch its entropy climb."),
    "length.s3.title": "RoPE, and rescuing it without fine-tuning",
    "length.s3.say": (
        "Plain RoPE: 96% in 64–127, then collapse. Same weights, new frequencies, no fine-tuning: PI breaks "
        "even the trained range, NTK-aware holds to about 320, and YaRN holds to 512 (90%)."),
    "length.s4.title": "Look inside: the diagonal after the wall",
    "length.s4.say": (
        "RoPE's second-layer head draws a clean diagonal at i − j = 2 up to about position 128. After that, "
        "extra stripes appear at large offsets (i − j ≈ 120 and more): distances whose phase combinations the "
        "model never saw now score high, pull the attention away, and the answer is lost."),
    "length.s5.title": "NoPE: position from the causal mask alone",
    "length.s5.say": (
        "NoPE learned the task to 99% with no position encoding, from the causal mask alone (Haviv et al. 2022; "
        "Kazemnejad et al. 2023). Here it does not extrapolate: 56% in 64–127, then chance. The loss shows the "
        "same wall."),
    "length.block_max": "largest a in this block",
    # the phase-aliasing finder
    "length.alias_title": "Where do RoPE's extra stripes come from? Offsets whose fast phases repeat",
    "length.alias_intro": (
        "A RoPE head finds the token t positions back through the phases Δ·θᵢ of its pairs. The *fast* pairs, "
        "whose whole turn 2π/θᵢ fits inside the training length, were seen at every phase, so the model can only "
        "read them modulo their period. An offset Δ whose fast-pair phases are nearly those of t therefore looks "
        "like t to these pairs. The finder lists every such Δ up to 512 and draws it as a dotted line on the long "
        "attention map of the RoPE model above."),
    "w.len_alias_target": "Target offset t",
    "w.len_alias_target.help": "The offset i − j the head looks for; the task's answer is 2 tokens back.",
    "w.len_alias_tol": "Tolerance ε (degrees)",
    "w.len_alias_tol.help": ("Δ counts as an alias of t when every fast pair's phase differs from t's by at most ε, "
                             "after wrapping the difference to (−180°, 180°]."),
    "length.alias_result": (
        "Fast pairs (wavelength ≤ {L}): {pairs}, with wavelengths {waves}. Offsets whose fast-pair phases are "
        "all within {tol}° of those of t = {t}: **{offsets}** ({n} offsets, t itself included)."),
    "length.alias_fig": "Phase difference to offset {t}",
    "length.alias_sub": "largest over the fast pairs, wrapped to (−180°, 180°]",
    "length.alias_x": "offset Δ = i − j",
    "length.alias_y": "e(Δ) (°)",
    "length.alias_tol": "tolerance {tol}°",
    "length.alias_marks": "aliases (e ≤ tolerance)",
    "length.alias_lines": "phase aliases of {t}",
    "length.alias_target": "i − j = {t}",
    "length.alias_col.offset": "offset Δ",
    "length.alias_col.error": "e(Δ) (°)",
    "length.alias_col.seen": "seen in training",
    "length.alias_col.weight": "mean attention",
    "length.alias_table_note": (
        "Mean attention: the weight of the RoPE model (length {n}, layer {layer}, head {head}) on the diagonal "
        "i − j = Δ, averaged over the queries past the training range; — where Δ does not fit on the map."),
    "length.alias_seen": "yes",
    "length.alias_unseen": "no",
    "length.alias_rope_only": (
        "The dotted alias lines are drawn on the plain RoPE model's map only: the finder uses its frequencies. "
        "Pick RoPE to see them."),
    "length.explain_alias": (
        "θᵢ comes from `posviz.pe.rope.rope_inv_freq` with the RoPE model's own head width and base. "
        "Not every alias becomes a stripe: the slower pairs and the "
        "content still count. But the strongest extra stripes of the RoPE model sit on aliases."),
    "length.s_alias.title": "Phase aliases: the cause of the extra stripes",
    "length.s_alias.say": (
        "For the offset 2 and a 40° tolerance the finder flags 121–122, 259–260, 322, 379 and 498–499: offsets "
        "beyond training whose fast-pair phases repeat those of offset 2. The strongest extra stripes of this head "
        "sit on 379 (all fast phases within 10°) and 121. Not every alias becomes a stripe: slower pairs and "
        "content still count."),
    # errors of posviz.tinylm
    "err.tinylm_heads": "d_model must be a multiple of 2·n_heads (each head needs an even width), got d_model={d_model}, n_heads={n_heads}",
    "err.tinylm_tokens": "tokens must be integer token ids [N,L], got dtype {dtype}",
    "err.tinylm_bucket_shapes": "values and mask must both be [N,L] of the same shape, got {values} and {mask}",
}

ZH = {
    "length.title": "短训长测",
    "length.intro": (
        "六个极小的 Transformer（每种位置方法一个）都在长度 **64** 上学同一个任务：*输出往前数第 2 个 token*。"
        "随后让它们处理长度 **512** 的序列，每 64 个位置为一个桶分别打分。"
        "位置函数在第 500 个位置“能算出来”，不等于模型在那里“真的好用”：诚实的答案是按位置分桶的准确率。"),
    "length.sources": (
        "Press, Smith & Lewis 2021（ALiBi，arXiv:2108.12409）· Kazemnejad 等 2023（arXiv:2305.19466）· "
        "Haviv 等 2022（arXiv:2203.16634）· Chen 等 2023（PI，arXiv:2306.15595）· "
        "bloc97 2023（NTK-aware）· Peng 等 2023（YaRN，arXiv:2309.00071）· 《词相同但顺序不同，注意力怎样辨别位置？从正弦编码到 RoPE》§14 · "
        "《位置编码》「长度外推」"),
    "w.len_metric": "指标",
    "w.len_metric.acc": "准确率",
    "w.len_metric.loss": "损失（nats）",
    "w.len_metric.help": "准确率：模型恰好输出往前第 2 个 token 的位置所占比例。损失：这些位置上的平均交叉熵。",
    "w.len_show": "显示的方法",
    "w.len_show.help": "每条线都是 `python -m posviz.tinylm.train --all` 实际训练出的模型；RoPE 的各种缩放沿用同一个 RoPE 模型，只换频率（不续训）。",
    "w.len_model": "要查看的模型",
    "w.len_model.help": "用于注意力图和现场重算。",
    "w.len_live": "现场重算",
    "w.len_live.help": "立即在 8 条新的长度 512 序列上运行所选模型，并把结果画成灰色点线（几秒钟，之后会缓存）。",
    "w.len_layer": "层",
    "w.len_head": "头",
    "w.len_long": "长序列长度",
    "w.len_long.help": "右侧注意力图所用的序列长度（训练长度是 64）。",
    "length.live_trace": "现场重算",
    "length.live_running": "正在用 8 条长度 512 的序列运行模型……",
    "length.live_note": "灰色点线：{model}，刚刚在 8 条新序列上重算（{secs} 秒）。它应当在抽样误差范围内与预存曲线重合。",
    "length.chance": "随机猜（1/31）",
    "length.fig_acc": "按位置分桶的准确率",
    "length.fig_loss": "按位置分桶的损失",
    "length.fig_sub": "长度 64 训练，长度 512 测试",
    "length.x_bucket": "位置桶",
    "length.y_acc": "准确率",
    "length.y_loss": "交叉熵（nats）",
    "length.trained": " 训练范围：0–{n} ",
    "length.explain_main": (
        "每个点是 64 条评测序列在一个位置桶上的平均，只统计 i ≥ k = 2 的位置（更早的位置没有答案）。"
        "曲线读自训练命令写出的 `posviz/tinylm/weights/results.json`，画这张图时不运行任何模型。"
        "RoPE + PI / NTK / YaRN 沿用 RoPE 的权重，只把频率换成 `posviz.pe.scaling.rope_frequencies` 在 s = 512/64 = 8 时给出的值。"),
    "length.provenance": (
        "数字来自在这台多人共用的 2 核机器上由 `{cmd}` 实际训练出的模型（训练共用墙钟时间 {secs} 秒、CPU 时间 {cpu} 秒，{date}）；"
        "每条曲线：{n} 条长度 512 的序列。"),
    "length.findings": (
        "**我们的模型实际表现**（各桶准确率 0–63 → 64–127 → … → 448–511；随机猜为 3%）：\n\n"
        "- **正弦**与**学习式位置表**：训练范围内 100%，一出范围就跌到随机水平（正弦在 64–127 为 6%）。"
        "学习式表在位置 63 之后根本无法运行（N/A：没有对应的行）；越界时重复使用最后一行（截断）只有 3%。\n"
        "- **RoPE**：100% → 96% → 40% → … → 5%。多撑了一个桶，然后崩溃。\n"
        "- **RoPE + PI / NTK-aware / YaRN**：同一套权重，只换频率，*不续训*：PI 处处失败，连训练范围内也只有 4%；"
        "NTK-aware 到位置 319 都保持 ≥ 94%，之后跌到 15%；YaRN 在短距离上付出一点代价（95%），到 448–511 仍有 90%。\n"
        "- **ALiBi**：100% → 99% → 98% → 97% …… 一直到位置 511 都是 97%，明显胜出。\n"
        "- **T5 偏置**：100% → 58% → 8%。**NoPE**：99% → 56% → 5%。"),
    "length.maps_title": "看进一个头里：同一个模型在训练长度和远超训练长度时",
    "length.learned_na": (
        "学习式表只有位置 0–{n} 的行：超过之后模型根本无法计算，所以没有长序列注意力图可画。"
        "请换一个模型（或“学习式，越界用最后一行”）。"),
    "length.map_short": "长度 {n}（与训练相同）",
    "length.map_long": "长度 {n}",
    "length.x_key": "Key 位置 j",
    "length.y_query": "Query 位置 i",
    "length.explain_maps": (
        "一条评测序列上 {model} 某一个头的注意力概率；两张图共用 0–1 的色标。右图的虚线标出训练结束的位置 {n}。"
        "解出任务的头会画出 i − j = 2 的细对角线（或 i − j = 1，再由下一层补完）；看这条对角线在虚线之后是否还在，还是碎掉。"
        "长于 {side} 的图每格显示一小块单元里的最大权重，这样单格宽的对角线也不会被抽样丢掉。"
        "在 RoPE 模型的长图上，点线标出下方所选位移的相位混叠。"),
    "length.entropy_title": "注意力有多分散？按桶的熵",
    "length.fig_entropy": "按桶的注意力熵",
    "length.fig_entropy_sub": "第 {layer} 层，各头平均",
    "length.y_entropy": "熵（nats）",
    "length.uniform": "均匀因果注意力 ln(i+1)",
    "length.explain_entropy": (
        "熵为 0 表示只看一个 Key；ln(i+1)（灰线）表示在整个前缀上平均分配。超过训练长度后仍保持尖锐的头，熵依旧很低；"
        "遇到没见过的距离或相位组合的头，熵常常向灰线漂移（注意力被稀释）。"),
    "length.literature": (
        "#### 文献怎么说，我们的小模型哪里一致、哪里不一致\n\n"
        "- **Press、Smith 与 Lewis 2021**（ALiBi，“Train Short, Test Long”）在 512 和 1024 长度上训练语言模型，再测更长的输入："
        "正弦编码一过训练长度困惑度就暴涨，旋转编码能多撑一些 token，T5 偏置撑得更远，"
        "ALiBi 则在训练长度的许多倍处依然平稳。*一致*：正弦、RoPE、ALiBi 在这里的先后顺序完全相同。"
        "*不一致*：我们的 T5 模型几乎和 RoPE 崩得一样快。我们的任务要在多达 512 个 Key 中精确找到一个；"
        "T5 把 {last} 及以上的所有距离都放进同一个最后的桶，于是共享这个偏置的远处 Key 随长度增多，合起来把注意力吸走"
        "（在位置 {query}，第 {layer} 层第 {head} 个头约 {share}% 的权重落在 {last} 个 token 及更远处；看它的熵上升），而 ALiBi 的惩罚随距离持续增大。"
        "困惑度是在大量容易的局部预测上取平均，可能把这种现象掩盖掉。\n"
        "- **Kazemnejad 等 2023** 发现，在若干合成推理任务上，*不加*位置编码（NoPE）的 decoder-only 模型"
        "比 RoPE、ALiBi、T5 的长度泛化更好，并证明因果掩码让 NoPE 能表示绝对与相对位置"
        "（Haviv 等 2022 在语言模型中也观察到位置信息以同样方式出现）。*一致*：我们的 NoPE 模型在没有任何位置信号的情况下"
        "把任务学到了 99%，位置确实从因果掩码中泄漏出来。*不一致*：它没有外推能力（下一个桶 56%，之后接近随机），"
        "因为它从掩码推出的位置信号离开了训练覆盖的范围。我们的设置（2 层、64 维、800 步、单一任务）比他们小得多，"
        "而长度泛化本来就随任务而变。\n"
        "- **PI**（Chen 等 2023）和 **YaRN**（Peng 等 2023）原本都要在长长度上再做一小段续训；"
        "**NTK-aware** 缩放（bloc97 2023）则是作为免续训的办法提出的。我们三种都*不*续训直接用。"
        "结果 PI 连训练范围内都坏了：2 个 token 的位移变成了 0.25 个位置的旋转，是模型从未见过的相位。"
        "NTK-aware 和 YaRN 保留高频对（也就保住了短位移），只拉伸低频对，其中 YaRN 最稳。"
        "这与论文的建议一致：插值慢频率，别动快频率。\n"
        "- **《词相同但顺序不同…》§14**：能在 32K 上*运行*不等于在 32K 上*好用*，应按长度分桶报告损失和准确率。"
        "这里除学习式表以外的每个模型都能在 512 上运行，只有分桶结果才说明哪些真正好用。"),
    "length.s1.title": "绝对位置撞墙",
    "length.s1.say": (
        "两种绝对位置在蓝色区域内都是满分，一出区域就只剩随机水平。学习式表没有位置 64 的行（N/A），"
        "重复使用最后一行也无济于事。注意力图上，正弦模型 i − j = 2 的对角线在虚线之后消失。"),
    "length.s2.title": "相对偏置：ALiBi 与 T5",
    "length.s2.say": (
        "ALiBi 一直到位置 511 都保持 97%。T5 偏置同样是相对位置，却先跌到 58%、再到随机水平："
        "59 及以上的距离共用一个桶，几百个远处 Key 拿到相同的偏置，把注意力稀释掉。看它的熵一路上升。"),
    "length.s3.title": "RoPE，以及不续训能否救回来",
    "length.s3.say": (
        "原始 RoPE：64–127 为 96%，之后崩溃。同一套权重、只换频率、不续训：PI 连训练范围内都坏了，"
        "NTK-aware 撑到约 320，YaRN 撑到 512（90%）。"),
    "length.s4.title": "看进去：墙后的对角线",
    "length.s4.say": (
        "RoPE 第二层的头在约位置 128 之前都画出 i − j = 2 的干净对角线；之后在很大的位移处（i − j ≈ 120 及更远）"
        "出现额外的条纹：这些距离的相位组合模型从未见过，却得到很高的分数，把注意力拉走，答案随之丢失。"),
    "length.s5.title": "NoPE：只靠因果掩码感知位置",
    "length.s5.say": (
        "NoPE 不用任何位置编码、只靠因果掩码就把任务学到 99%（Haviv 等 2022；Kazemnejad 等 2023）。"
        "但在这里它不能外推：64–127 为 56%，之后接近随机。损失曲线显示同一堵墙。"),
    "length.block_max": "该块内最大的 a",
    "length.alias_title": "RoPE 多出的条纹从哪来？快频率相位重复的位移",
    "length.alias_intro": (
        "RoPE 的头靠各对维度的相位 Δ·θᵢ 找到往前第 t 个 token。*快*频率对的一整圈 2π/θᵢ 落在训练长度之内，"
        "模型见过它们的每一种相位，所以只能按周期取模来读它们。若某个位移 Δ 在快频率对上的相位与 t 几乎相同，"
        "这些维度对就会把它当成 t。查找器列出 512 以内所有这样的 Δ，并在上方 RoPE 模型的长注意力图上画成点线。"),
    "w.len_alias_target": "目标位移 t",
    "w.len_alias_target.help": "注意力头要找的位移 i − j；任务的答案在往前第 2 个 token。",
    "w.len_alias_tol": "容差 ε（度）",
    "w.len_alias_tol.help": "把相位差折回到 (−180°, 180°] 之后，若每个快频率对与 t 的相位差都不超过 ε，就认为 Δ 是 t 的混叠。",
    "length.alias_result": (
        "快频率对（波长 ≤ {L}）：{pairs} 对，波长分别为 {waves}。快频率相位全部落在 t = {t} 的 {tol}° 以内的位移："
        "**{offsets}**（共 {n} 个，含 t 本身）。"),
    "length.alias_fig": "与位移 {t} 的相位差",
    "length.alias_sub": "取各快频率对中的最大值，折回到 (−180°, 180°]",
    "length.alias_x": "位移 Δ = i − j",
    "length.alias_y": "e(Δ)（°）",
    "length.alias_tol": "容差 {tol}°",
    "length.alias_marks": "混叠位移（e ≤ 容差）",
    "length.alias_lines": "{t} 的相位混叠",
    "length.alias_target": "i − j = {t}",
    "length.alias_col.offset": "位移 Δ",
    "length.alias_col.error": "e(Δ)（°）",
    "length.alias_col.seen": "训练中见过",
    "length.alias_col.weight": "平均注意力",
    "length.alias_table_note": (
        "平均注意力：RoPE 模型（长度 {n}，第 {layer} 层，第 {head} 个头）在对角线 i − j = Δ 上的权重，"
        "对训练范围之后的各个 Query 取平均；Δ 超出图的范围时记为 —。"),
    "length.alias_seen": "是",
    "length.alias_unseen": "否",
    "length.alias_rope_only": "混叠点线只画在原始 RoPE 模型的图上：查找器用的是它的频率。选择 RoPE 即可看到。",
    "length.explain_alias": (
        "θᵢ 由 `posviz.pe.rope.rope_inv_freq` 按 RoPE 模型自己的头宽和 base 算出。"
        "并不是每个混叠位移都会变成条纹：慢频率对和内容仍然起作用；"
        "但 RoPE 模型最强的额外条纹都落在混叠位移上。"),
    "length.s_alias.title": "相位混叠：额外条纹的成因",
    "length.s_alias.say": (
        "目标位移 2、容差 40° 时，查找器标出 121–122、259–260、322、379 和 498–499：这些位移超出训练范围，"
        "快频率对上的相位却与位移 2 重复。这个头最强的额外条纹落在 379（所有快频率相位都在 10° 以内）和 121 上。"
        "并不是每个混叠位移都会变成条纹：慢频率对和内容仍然起作用。"),
    # errors of posviz.tinylm
    "err.tinylm_heads": "d_model 必须是 2·n_heads 的倍数（每个头的宽度必须是偶数），收到的是 d_model={d_model}、n_heads={n_heads}",
    "err.tinylm_tokens": "tokens 必须是整数 token id [N,L]，收到的 dtype 是 {dtype}",
    "err.tinylm_bucket_shapes": "values 与 mask 必须是形状相同的 [N,L]，收到的是 {values} 和 {mask}",
}

for _k, _v in _VARIANTS_EN.items():
    EN[f"w.len_model.{_k}"] = _v
    EN[f"w.len_show.{_k}"] = _v
for _k, _v in _VARIANTS_ZH.items():
    ZH[f"w.len_model.{_k}"] = _v
    ZH[f"w.len_show.{_k}"] = _v
