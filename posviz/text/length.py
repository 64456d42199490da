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
    "learned": "学习式表（位置 63 之后没有行）",
    "learned_clamp": "学习式，越界用最后一行",
    "rope": "RoPE",
    "rope_pi": "RoPE + PI（线性插值）",
    "rope_ntk": "RoPE + NTK-aware",
    "rope_yarn": "RoPE + YaRN",
    "alibi": "ALiBi",
    "t5": "T5 偏置",
}

_NAMES_EN = {
    "nope": "NoPE", "sinusoidal": "Sinusoidal", "learned": "Learned table (N/A past 63)",
    "learned_clamp": "Learned, clamped to the last row", "learned_mod": "Learned, row p mod 64",
    "learned_grow": "Learned, enlarged to 256 rows", "rope": "RoPE (2 layers)", "rope_pi": "RoPE + PI (s = 8)",
    "rope_ntk": "RoPE + NTK-aware (s = 8)", "rope_yarn": "RoPE + YaRN (s = 8)", "alibi": "ALiBi", "t5": "T5 bias",
    "rope_l4": "RoPE, 4 layers", "rope_nope4": "4 layers, NoPE in layer 4", "rope_nope2": "4 layers, NoPE in layers 2, 4",
    "rope_partial": "Partial RoPE (25 % of pairs)", "rope_prop": "Proportional RoPE (25 %)",
    "rope_qknorm": "RoPE + QK-norm",
    "rope_pi4": "PI, no fine-tune", "rope_ntk4": "NTK-aware, no fine-tune", "rope_yarn4": "YaRN, no fine-tune",
    "ft_none": "RoPE, fine-tuned at 256", "ft_pi": "PI, fine-tuned", "ft_ntk": "NTK-aware, fine-tuned",
    "ft_yarn": "YaRN, fine-tuned",
    "short_learned": "Learned, marker always at 4", "shift_learned": "Learned, marker anywhere",
    "short_rope": "RoPE, marker always at 4", "shift_rope": "RoPE, marker anywhere",
}
_NAMES_ZH = {
    "nope": "NoPE", "sinusoidal": "正弦", "learned": "学习式表（位置 63 之后没有行）",
    "learned_clamp": "学习式，越界用最后一行", "learned_mod": "学习式，取第 p mod 64 行",
    "learned_grow": "学习式，表扩到 256 行", "rope": "RoPE（2 层）", "rope_pi": "RoPE + PI（s = 8）",
    "rope_ntk": "RoPE + NTK-aware（s = 8）", "rope_yarn": "RoPE + YaRN（s = 8）", "alibi": "ALiBi", "t5": "T5 偏置",
    "rope_l4": "RoPE，4 层", "rope_nope4": "4 层，第 4 层 NoPE", "rope_nope2": "4 层，第 2、4 层 NoPE",
    "rope_partial": "部分 RoPE（25% 的维度对）", "rope_prop": "比例 RoPE（25%）",
    "rope_qknorm": "RoPE + QK-norm",
    "rope_pi4": "PI，不续训", "rope_ntk4": "NTK-aware，不续训", "rope_yarn4": "YaRN，不续训",
    "ft_none": "RoPE，在 256 上续训", "ft_pi": "PI，续训", "ft_ntk": "NTK-aware，续训", "ft_yarn": "YaRN，续训",
    "short_learned": "学习式，标记总在 4", "shift_learned": "学习式，标记位置随机",
    "short_rope": "RoPE，标记总在 4", "shift_rope": "RoPE，标记位置随机",
}

EN = {
    "length.title": "Train short, test long",
    "length.intro": (
        "Six tiny transformers, one per position method, learned one task at length **64**: *output the token "
        "2 positions back*. Each was trained **five times** (five runs: each its own random initialisation and "
        "order of training data), so that luck and method can be told apart. We then run them on sequences of "
        "length **512** and score every bucket of 64 positions. A position function that *can be computed* at "
        "position 500 is not a model that *works* there: the honest answer is accuracy per position bucket, "
        "over several runs."),
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
    "w.len_show.help": ("Every line is the mean of five runs trained by `python -m posviz.tinylm.train --all`, its band "
                        "the lowest to the highest run. The RoPE scalings reuse the RoPE runs with new frequencies "
                        "(no fine-tuning)."),
    "w.len_model": "Model to inspect",
    "w.len_model.help": "Used by the attention maps and by the live recomputation (of its run 0).",
    "w.len_run": "Run",
    "w.len_run.help": ("Which of the five training runs (0–4: each its own random initialisation and data order) the "
                       "attention maps and the alias table show."),
    "w.len_live": "Recompute live",
    "w.len_live.help": ("Run the chosen model (run 0) now on 8 fresh sequences of length 512 and add the result as a "
                        "dotted grey line (a few seconds, then cached)."),
    "w.len_layer": "Layer",
    "w.len_head": "Head",
    "w.len_long": "Long length",
    "w.len_long.help": "Length of the sequence on the right-hand attention map (the training length was 64).",
    "length.live_trace": "live recomputation",
    "length.live_running": "Running the model on 8 sequences of length 512…",
    "length.live_note": ("Dotted grey line: {model} (run 0), recomputed just now on 8 new sequences ({secs} s). "
                         "It should stay near the band of the shipped runs, within sampling noise."),
    "length.chance": "chance (1/31)",
    "length.fig_acc": "Accuracy per position bucket",
    "length.fig_loss": "Loss per position bucket",
    "length.fig_sub": "mean and range of {n} runs · trained at 64, tested at 512",
    "length.x_bucket": "position bucket",
    "length.y_acc": "accuracy",
    "length.y_loss": "cross-entropy (nats)",
    "length.trained": " trained: 0–{n} ",
    "length.explain_main": (
        "Every point averages the 64 evaluation sequences over one bucket of positions, counting only positions "
        "i ≥ k = 2 (earlier positions have no answer). Each method was trained five times; the line is the mean "
        "of the five runs and the shaded band runs from the lowest to the highest run in that bucket (a min–max "
        "band, not a confidence interval: five runs are too few for one). The curves are read from "
        "`posviz/tinylm/weights/results.json`, which the training command wrote; no model runs to draw this plot. "
        "RoPE + PI / NTK / YaRN reuse the RoPE runs' weights with the frequencies of "
        "`posviz.pe.scaling.rope_frequencies` for s = 512/64 = 8."),
    "length.provenance": (
        "Numbers from {runs} models actually trained by `{cmd}` ({per} runs of every recipe) on this shared "
        "2-core machine: {secs} s of wall time for training and evaluation, {cpu} s of CPU time for the {timed} runs it trained (the other {kept} kept, bit for bit the same, from an earlier run of the command), "
        "load average {load} at the start / end ({date}). Every run is scored on {n} sequences of length 512."),
    "length.findings": (
        "**What our models did**: the mean accuracy (%) of the {n} runs in each bucket, 0–63 → 64–127 → … → "
        "448–511; chance is 1/31 ≈ 3 %. The words are read off the runs: *chance* only where the band of the runs "
        "reaches the chance line within sampling noise (two standard errors of a bucket's ~4,000 answers, ±0.6 "
        "points), *holds* only where every run is at least 90 %. A band (lowest–highest run) is rounded outwards, "
        "so that 89.6 % shows as 89, never as a 90 beside a run below 90 %."),
    "length.table_method": "method",
    "length.f.seq": "{seq}",
    "length.f.line": "- **{name}**: {parts}.",
    "length.f.sep": "; ",
    "length.f.hold": "every run at least 90 % up to position {pos}",
    "length.f.nohold": "some run is below 90 % even inside the training range",
    "length.f.chance": "its band reaches chance from {bucket} on",
    "length.f.above": "above chance in every run and bucket (lowest run: {lo} % in {bucket})",
    "length.f.touch": "its band reaches chance in {buckets}, yet not from there to the end",
    "length.f.below": "below chance in every run in {buckets}",
    "length.f.na": "N/A past position {pos} (the table has no row there)",
    "length.f.spread": "the runs differ most in {bucket}: {lo}–{hi} %",
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
        "#### What the literature reports, and what our runs show\n\n"
        "- **Press, Smith & Lewis 2021 (ALiBi, \"Train Short, Test Long\")** trained language models at 512 and "
        "1024 tokens and tested them on longer inputs. Sinusoidal perplexity explodes just past the training "
        "length, rotary holds for some extra tokens, the T5 bias holds further, and ALiBi stays flat to many "
        "times the training length. *Our runs:* {press}. T5 against RoPE: {t5}. Our task needs one sharp "
        "look-up among up to 512 keys. T5 puts every distance of {last} or more into the same last bucket, so "
        "the number of far keys sharing that bias grows with the length, and together they soak up the attention "
        "(run 0: at position {query} about {share}% of the weight of layer {layer}, head {head} lands {last} or "
        "more tokens back; its entropy is in the chart above). ALiBi's penalty keeps growing with distance instead. A "
        "perplexity averages over many easy local predictions and can hide this.\n"
        "- **Kazemnejad et al. 2023** found that decoder-only models *without* position encoding (NoPE) "
        "length-generalise better than RoPE, ALiBi or T5 on several synthetic reasoning tasks, and proved that "
        "the causal mask lets NoPE represent absolute and relative positions (Haviv et al. 2022 saw position "
        "information emerge the same way in language models). *Agree:* our NoPE runs learn the task with no "
        "position signal at all (see their first bucket), so position does leak through the causal mask. "
        "*Disagree:* they do not extrapolate: {nope}. Our setting (2 layers, 64 dimensions, 800 steps, one task) is far smaller than theirs, and "
        "length generalisation is known to depend on the task.\n"
        "- **PI** (Chen et al. 2023) and **YaRN** (Peng et al. 2023) are meant to be followed by a short "
        "fine-tuning at the long length; **NTK-aware** scaling (bloc97 2023) was proposed as a fix that needs "
        "no fine-tuning. Here all three are applied with *no* fine-tuning (the page “Today's RoPE, trained” adds "
        "the fine-tuning). *Our runs:* PI {pi}; NTK-aware {ntk}; YaRN {yarn}. {scaled} NTK-aware keeps "
        "{ntk_kept} at its trained speed, YaRN {yarn_kept}.\n"
        "- **“Same words, different order…” §14**: being able to *run* at 32K is not *working* at 32K, so report "
        "loss and accuracy per length bucket. Every model here except the learned table runs at 512; only the "
        "buckets show which ones work."),
    "length.lit.scaled": (
        "PI at s = {s} turns an offset of 2 tokens into a rotation of {pi_offset} positions, a phase the model never "
        "saw. NTK-aware and YaRN are said to keep the fast pairs and stretch only the slow ones; our model has only "
        "{pairs} pairs, and at s = {s} pairs 0, 1, 2 turn at {ntk_first} (NTK-aware) and {yarn_first} (YaRN) times "
        "their trained speed, the slowest at {slowest}:"),
    "length.lit.kept_none": "no pair",
    "length.lit.kept_one": "only pair 0",
    "length.lit.kept_some": "pairs 0–{last}",
    "length.lit.order_all": ("sinusoidal, RoPE and ALiBi come out in exactly that order in every bucket past "
                             "training, with the runs' bands apart"),
    "length.lit.order_some": ("sinusoidal, RoPE and ALiBi come out in that order with the runs' bands apart in "
                              "{buckets}; elsewhere two of the bands overlap, so there the order is not shown"),
    "length.lit.order_none": ("in no bucket past training are the bands of sinusoidal, RoPE and ALiBi apart in "
                              "that order"),
    "length.lit.t5_slower": ("every T5 run stays above every RoPE run in every bucket past training: it "
                             "collapses more slowly, yet it does collapse ({last} % in 448–511)"),
    "length.lit.t5_faster": "every T5 run stays below every RoPE run in every bucket past training",
    "length.lit.t5_overlap": ("the bands of T5 and RoPE overlap in every bucket past training: five runs do not "
                              "order them"),
    "length.lit.t5_mixed": ("every T5 run is above every RoPE run in {above}, below in {below}, and the bands "
                            "overlap in {overlap}"),
    "length.lit.nope_chance": ("{next} % in 64–127 (runs {lo}–{hi} %), and the band reaches chance from {bucket} "
                               "on"),
    "length.lit.nope_above": ("{next} % in 64–127 (runs {lo}–{hi} %), {last} % in 448–511, where even the "
                              "lowest run ({last_lo} %) stays above chance"),
    "length.s1.title": "Absolute positions hit a wall",
    "length.s2.title": "Relative biases: ALiBi and T5",
    "length.s3.title": "RoPE, and rescuing it without fine-tuning",
    "length.s4.title": "Look inside: the diagonal after the wall",
    "length.s5.title": "NoPE: position from the causal mask alone",
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
        "Not every alias becomes a stripe, and not every stripe is an alias: the slower pairs and the "
        "content still count (the line under the table names this head's strongest offsets)."),
    "length.alias_strongest": "**The strongest stripes past {n} on this map** (mean attention): {offsets}.",
    "length.alias_hit": "{d} ({w}, an alias)",
    "length.alias_miss": "{d} ({w}, no alias)",
    "length.alias_sep": "; ",
    "length.s_alias.title": "Phase aliases: the cause of the extra stripes",
    # errors of posviz.tinylm
    "err.tinylm_heads": "d_model must be a multiple of 2·n_heads (each head needs an even width), got d_model={d_model}, n_heads={n_heads}",
    "err.tinylm_tokens": "tokens must be integer token ids [N,L], got dtype {dtype}",
    "err.tinylm_bucket_shapes": "values and mask must both be [N,L] of the same shape, got {values} and {mask}",
}

ZH = {
    "length.title": "短训长测",
    "length.intro": (
        "六个极小的 Transformer（每种位置方法一个）都在长度 **64** 上学同一个任务：*输出往前数第 2 个 token*。"
        "每种方法都**训练了五次**（五次训练各有自己的随机初始化和训练数据顺序），这样才分得清是方法还是运气。"
        "随后让它们处理长度 **512** 的序列，每 64 个位置为一个桶分别打分。"
        "位置函数在第 500 个位置“能算出来”，不等于模型在那里“真的好用”：诚实的答案是多次训练、按位置分桶的准确率。"),
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
    "w.len_show.help": ("每条线是 `python -m posviz.tinylm.train --all` 实际训练出的五次训练的平均，色带从最低的一次到最高的一次；"
                        "RoPE 的各种缩放沿用 RoPE 的各次训练，只换频率（不续训）。"),
    "w.len_model": "要查看的模型",
    "w.len_model.help": "用于注意力图和现场重算（重算其第 0 次训练）。",
    "w.len_run": "训练",
    "w.len_run.help": "注意力图和混叠表显示五次训练（0–4，各有自己的随机初始化和数据顺序）中的哪一次。",
    "w.len_live": "现场重算",
    "w.len_live.help": "立即在 8 条新的长度 512 序列上运行所选模型（第 0 次训练），并把结果画成灰色点线（几秒钟，之后会缓存）。",
    "w.len_layer": "层",
    "w.len_head": "头",
    "w.len_long": "长序列长度",
    "w.len_long.help": "右侧注意力图所用的序列长度（训练长度是 64）。",
    "length.live_trace": "现场重算",
    "length.live_running": "正在用 8 条长度 512 的序列运行模型……",
    "length.live_note": "灰色点线：{model}（第 0 次训练），刚刚在 8 条新序列上重算（{secs} 秒）。它应当在抽样误差范围内落在预存各次训练的色带附近。",
    "length.chance": "随机猜（1/31）",
    "length.fig_acc": "按位置分桶的准确率",
    "length.fig_loss": "按位置分桶的损失",
    "length.fig_sub": "{n} 次训练的平均与最低到最高 · 训练 64，测试 512",
    "length.x_bucket": "位置桶",
    "length.y_acc": "准确率",
    "length.y_loss": "交叉熵（nats）",
    "length.trained": " 训练范围：0–{n} ",
    "length.explain_main": (
        "每个点是 64 条评测序列在一个位置桶上的平均，只统计 i ≥ k = 2 的位置（更早的位置没有答案）。"
        "每种方法训练了五次：线是五次的平均，阴影色带从该桶里最低的一次到最高的一次（最小–最大色带，不是置信区间：五次训练太少，算不出可靠的区间）。"
        "曲线读自训练命令写出的 `posviz/tinylm/weights/results.json`，画这张图时不运行任何模型。"
        "RoPE + PI / NTK / YaRN 沿用 RoPE 各次训练的权重，只把频率换成 `posviz.pe.scaling.rope_frequencies` 在 s = 512/64 = 8 时给出的值。"),
    "length.provenance": (
        "数字来自在这台多人共用的 2 核机器上由 `{cmd}` 实际训练出的 {runs} 个模型（每个配方训练 {per} 次）："
        "训练加评测共用墙钟时间 {secs} 秒，它训练的 {timed} 次用 CPU 时间 {cpu} 秒（其余 {kept} 次沿用同一命令先前逐位相同的结果），开始 / 结束时的平均负载 {load}（{date}）。"
        "每次训练都在 {n} 条长度 512 的序列上打分。"),
    "length.findings": (
        "**我们的模型实际表现**：各桶里 {n} 次训练的平均准确率（%），0–63 → 64–127 → … → 448–511；随机猜为 1/31 ≈ 3%。"
        "用词都读自各次训练：只有各次训练的色带在抽样误差之内碰到随机猜的线（一个桶约 4000 个答案的两个标准误，±0.6 个百分点）"
        "才说“随机水平”，只有每次训练都不低于 90% 才说“保持”。色带（最低–最高的一次）向外取整："
        "89.6% 显示为 89，不会在某次训练低于 90% 时显示成 90。"),
    "length.table_method": "方法",
    "length.f.seq": "{seq}",
    "length.f.line": "- **{name}**：{parts}。",
    "length.f.sep": "；",
    "length.f.hold": "到位置 {pos} 为止每次训练都保持至少 90%",
    "length.f.nohold": "即使在训练范围内也有某次训练低于 90%",
    "length.f.chance": "从 {bucket} 起色带碰到随机水平",
    "length.f.above": "每次训练、每个桶都高于随机水平（最低的一次：{bucket} 为 {lo}%）",
    "length.f.touch": "它的色带在 {buckets} 碰到随机水平，但并非从那里一直到最后",
    "length.f.below": "在 {buckets} 每次训练都低于随机水平",
    "length.f.na": "位置 {pos} 之后为 N/A（表里没有那一行）",
    "length.f.spread": "各次训练差别最大的是 {bucket}：{lo}–{hi}%",
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
        "#### 文献怎么说，我们的各次训练又显示了什么\n\n"
        "- **Press、Smith 与 Lewis 2021**（ALiBi，“Train Short, Test Long”）在 512 和 1024 长度上训练语言模型，再测更长的输入："
        "正弦编码一过训练长度困惑度就暴涨，旋转编码能多撑一些 token，T5 偏置撑得更远，"
        "ALiBi 则在训练长度的许多倍处依然平稳。*我们的训练*：{press}。T5 与 RoPE 相比：{t5}。"
        "我们的任务要在多达 512 个 Key 中精确找到一个；"
        "T5 把 {last} 及以上的所有距离都放进同一个最后的桶，于是共享这个偏置的远处 Key 随长度增多，合起来把注意力吸走"
        "（第 0 次训练：在位置 {query}，第 {layer} 层第 {head} 个头约 {share}% 的权重落在 {last} 个 token 及更远处；它的熵见上图），"
        "而 ALiBi 的惩罚随距离持续增大。困惑度是在大量容易的局部预测上取平均，可能把这种现象掩盖掉。\n"
        "- **Kazemnejad 等 2023** 发现，在若干合成推理任务上，*不加*位置编码（NoPE）的 decoder-only 模型"
        "比 RoPE、ALiBi、T5 的长度泛化更好，并证明因果掩码让 NoPE 能表示绝对与相对位置"
        "（Haviv 等 2022 在语言模型中也观察到位置信息以同样方式出现）。*一致*：我们的 NoPE 各次训练在没有任何位置信号的情况下"
        "学会了任务（看第一个桶），位置确实从因果掩码中泄漏出来。*不一致*：它们不能外推：{nope}。"
        "我们的设置（2 层、64 维、800 步、单一任务）比他们小得多，"
        "而长度泛化本来就随任务而变。\n"
        "- **PI**（Chen 等 2023）和 **YaRN**（Peng 等 2023）原本都要在长长度上再做一小段续训；"
        "**NTK-aware** 缩放（bloc97 2023）则是作为免续训的办法提出的。这里三种都*不*续训直接用（“今天的 RoPE，实际训练”一页加上了续训）。"
        "*我们的各次训练*：PI {pi}；NTK-aware {ntk}；YaRN {yarn}。{scaled}NTK-aware 保持原速的{ntk_kept}，YaRN {yarn_kept}。\n"
        "- **《词相同但顺序不同…》§14**：能在 32K 上*运行*不等于在 32K 上*好用*，应按长度分桶报告损失和准确率。"
        "这里除学习式表以外的每个模型都能在 512 上运行，只有分桶结果才说明哪些真正好用。"),
    "length.lit.scaled": (
        "s = {s} 时 PI 把 2 个 token 的位移变成 {pi_offset} 个位置的旋转，是模型从未见过的相位。"
        "人们说 NTK-aware 和 YaRN 保留快频率对、只拉伸慢频率对；可我们的模型只有 {pairs} 个频率对，s = {s} 时"
        "第 0、1、2 对的转速变为训练时的 {ntk_first} 倍（NTK-aware）和 {yarn_first} 倍（YaRN），最慢的一对为 {slowest}："),
    "length.lit.kept_none": "没有一对",
    "length.lit.kept_one": "只有第 0 对",
    "length.lit.kept_some": "第 0–{last} 对",
    "length.lit.order_all": "在训练范围之后的每个桶里，正弦、RoPE、ALiBi 都恰好按这个顺序排列，各次训练的色带互不重叠",
    "length.lit.order_some": "在 {buckets}，正弦、RoPE、ALiBi 按这个顺序排列且色带互不重叠；其余的桶里有两条色带重叠，那里看不出顺序",
    "length.lit.order_none": "训练范围之后没有哪个桶里正弦、RoPE、ALiBi 的色带按这个顺序互相分开",
    "length.lit.t5_slower": "训练范围之后的每个桶里，T5 的每次训练都高于 RoPE 的每次训练：它崩得更慢，但仍然崩了（448–511 为 {last}%）",
    "length.lit.t5_faster": "训练范围之后的每个桶里，T5 的每次训练都低于 RoPE 的每次训练",
    "length.lit.t5_overlap": "训练范围之后的每个桶里，T5 与 RoPE 的色带都重叠：五次训练分不出它们的先后",
    "length.lit.t5_mixed": "T5 的每次训练在 {above} 高于 RoPE 的每次训练，在 {below} 低于它，在 {overlap} 两条色带重叠",
    "length.lit.nope_chance": "64–127 为 {next}%（各次训练 {lo}–{hi}%），从 {bucket} 起色带碰到随机水平",
    "length.lit.nope_above": "64–127 为 {next}%（各次训练 {lo}–{hi}%），448–511 为 {last}%，连最低的一次（{last_lo}%）也高于随机水平",
    "length.s1.title": "绝对位置撞墙",
    "length.s2.title": "相对偏置：ALiBi 与 T5",
    "length.s3.title": "RoPE，以及不续训能否救回来",
    "length.s4.title": "看进去：墙后的对角线",
    "length.s5.title": "NoPE：只靠因果掩码感知位置",
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
        "并不是每个混叠位移都会变成条纹，也不是每条条纹都在混叠位移上：慢频率对和内容仍然起作用"
        "（表格下面一行列出这个头最强的位移）。"),
    "length.alias_strongest": "**这张图上 {n} 之后最强的条纹**（平均注意力）：{offsets}。",
    "length.alias_hit": "{d}（{w}，是混叠位移）",
    "length.alias_miss": "{d}（{w}，不是混叠位移）",
    "length.alias_sep": "；",
    "length.s_alias.title": "相位混叠：额外条纹的成因",
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
for _k, _v in _NAMES_EN.items():
    EN[f"lenf.name.{_k}"] = _v
    EN[f"w.lenf_show.{_k}"] = _v
    EN[f"w.lenf_scale.{_k}"] = _v
for _k, _v in _NAMES_ZH.items():
    ZH[f"lenf.name.{_k}"] = _v
    ZH[f"w.lenf_show.{_k}"] = _v
    ZH[f"w.lenf_scale.{_k}"] = _v

# ---------------------------------------------------------------- the page "Today's RoPE, trained"
_FRONTIER_EN = {
    "length_today.title": "Today's RoPE, trained: hybrids, frequencies, scaling, shortcuts",
    "length_today.intro": (
        "The mechanisms of today's models, trained on the same task as “Train short, test long” (output the token "
        "2 back, trained at length **64**, scored per bucket up to **512**), each **five times**: NoPE in every 2nd "
        "or 4th layer (SmolLM3, Llama 4), partial rotary (Qwen3-Next), proportional RoPE (Gemma 4), QK-norm "
        "(Qwen3, OLMo 2). Then the article's lessons as trained demos: which frequencies a trained RoPE model "
        "uses; PI / NTK / YaRN with and without a short fine-tune (“usually needs continued training”); a learned "
        "table enlarged (“the new rows are untrained”); a positional shortcut (“the label always at the start”)."),
    "length_today.sources": (
        "Barbero et al. 2024, “Round and Round We Go! What makes Rotary Positional Encodings useful?” · "
        "Kazemnejad et al. 2023 (arXiv:2305.19466) · Chen et al. 2023 (PI, arXiv:2306.15595) · bloc97 2023 (NTK-aware) · "
        "Peng et al. 2023 (YaRN, arXiv:2309.00071) · “Same words, different order…” §06, §13, §14 · "
        "“Position encodings”, length extrapolation"),
    "w.lenf_show": "Variants shown",
    "w.lenf_show.help": "Each line: the mean of five runs, its band the lowest to the highest run.",
    "w.lenf_run": "Run",
    "w.lenf_run.help": "Which of the five RoPE runs (0–4) the two maps of frequency shares show.",
    "w.lenf_scale": "Curves shown",
    "w.lenf_scale.help": "Dotted: the RoPE runs with new frequencies only; solid: the same after the fine-tune.",
    "lenf.variants_title": "NoPE layers, partial and proportional RoPE, QK-norm: which extrapolate?",
    "lenf.variants_intro": (
        "Every variant is a RoPE model trained like the six methods (800 steps at length 64, five runs). The NoPE "
        "hybrids need more layers, so they are compared with a 4-layer RoPE model: no RoPE in layer 4 (every 4th "
        "layer, as SmolLM3 and Llama 4 count it: layer l has none when (l + 1) mod 4 = 0), or in layers 2 and 4 "
        "(every 2nd). Partial RoPE rotates 2 of the 8 pairs of each 16-wide head with θᵢ = b^(−2i/4) (the rotated "
        "width in the exponent, as transformers computes partial rotary); proportional RoPE rotates the same "
        "2 pairs with θᵢ = b^(−2i/16) (the full width in the exponent) and gives the other pairs frequency 0 (Gemma 4). "
        "QK-norm RMS-normalises each head's q and k before the rotation."),
    "lenf.fig_variants": "Today's RoPE variants: accuracy per bucket",
    "lenf.explain_variants": (
        "The frequencies of each variant come from `rope_spectrum` (posviz.pe.scaling.rope_frequencies for the "
        "rotated width, rope_inv_freq's first pairs for proportional RoPE); a pair with θᵢ = 0 is not rotated and "
        "carries content only. A NoPE layer is the same attention without the rotation. The verdict below reads "
        "every run: *holds* = every run ≥ 90 % in every bucket up to 511; *partly* = every run ≥ 90 % in 64–127 "
        "but not all the way; *fails* = some run below 90 % already in 64–127."),
    "lenf.col.variant": "variant",
    "lenf.col.word": "verdict",
    "lenf.col.first": "0–63: mean",
    "lenf.col.chance": "band at chance from",
    "lenf.col.next": "64–127: mean (runs)",
    "lenf.col.last": "448–511: mean (runs)",
    "lenf.col.hold_to": "every run ≥ 90 % up to",
    "lenf.word.holds": "holds to 511",
    "lenf.word.partly": "partly",
    "lenf.word.fails": "fails",
    "lenf.list_sep": "; ",          # between the variants' names (a name may hold a comma: "RoPE, 4 layers")
    "lenf.variants_read": (
        "**Extrapolates on the copy task (every run ≥ 90 % up to 511):** {holds}. **Partly (every run ≥ 90 % in "
        "64–127, not all the way):** {partly}. **Does not (some run below 90 % right after training):** {fails}."),
    "lenf.freq_title": "Which frequencies does a trained RoPE model use?",
    "lenf.freq_intro": (
        "After RoPE a head's score is a sum over its 8 frequency pairs: q̃·k̃ = Σᵢ cᵢ, with "
        "cᵢ = |qᵢ||kᵢ| cos((m − n)θᵢ + φᵢ). The maps give, per head of one run of the 2-layer RoPE model, each "
        "pair's share of the size of the score (the mean of |cᵢ| as a percentage of the sum over the pairs), "
        "left at the offsets m − n seen in training (0–63), right at the offsets never seen (64–511), on "
        "sequences of length 512. A row's label names the head, the offset Δ it attends to most and the weight "
        "there: a head with most of its weight on one offset is a *positional head*. Pairs 0–2 are the fast ones "
        "(wavelength 2π/θᵢ ≤ 64: seen at every phase in training)."),
    "lenf.share_seen": "Share of the score per pair, offsets 0–63",
    "lenf.share_unseen": "Share of the score per pair, offsets 64–511",
    "lenf.share_sub": "run {run}; rows: head · its strongest offset Δ · weight there",
    "lenf.share_x": "pair i (top), its wavelength λ = 2π/θᵢ (below)",
    "lenf.share_y": "head",
    "lenf.explain_shares": (
        "cᵢ(m, n) is computed from the rotated q and k the model really uses (the capture of its forward). Its "
        "size |cᵢ| is averaged over every causal (m, n) of the range, 8 sequences of length 512; the shares of "
        "a row add up to 100 %. The diagonal of a head is read on 8 sequences of length 64."),
    "lenf.abl_title": "Accuracy with one pair's rotation removed",
    "lenf.abl_sub": "mean of {n} runs, whiskers: lowest to highest run; dashed: the model as trained",
    "lenf.abl_x": "pair i whose θᵢ is set to 0 (every layer and head)",
    "lenf.abl_y": "accuracy (%)",
    "lenf.abl_b0": "positions 0–63",
    "lenf.abl_b1": "positions 64–127",
    "lenf.explain_ablation": (
        "Removing a pair's rotation (θᵢ = 0) keeps its q and k but stops it from turning with the position: it "
        "can still match content, no longer offsets. 32 sequences of length 128 per run."),
    "lenf.freq_finding": (
        "**What the runs show.** In the {n_pos} positional heads of the {runs} runs (at least half their weight on "
        "one offset; offsets {offsets}), the fast pairs {fast} carry {pos_seen} of the score's size at the offsets "
        "seen in training and {pos_unseen} at the offsets never seen; in the other {n_other} heads, "
        "{other_seen} and {other_unseen}. Removing the rotation of fast pair {worst_fast} drops the accuracy in "
        "0–63 from {base} to {worst_fast_acc}; removing any one slow pair leaves every run at least {slow_min}."),
    "lenf.freq_lit": (
        "**Against the literature.** Barbero et al. 2024 (“Round and Round We Go!”) found in Gemma 7B that the "
        "highest frequencies build positional attention patterns (such as looking at the previous token) and the "
        "lowest frequencies carry semantic content. *Agree:* our positional heads lean on the fast pairs "
        "({pos_seen} of the score's size on {fast}, where an even split over the {n_pairs} pairs would give "
        "{even_fast}), more than the other heads do ({other_seen}), and inside the training range only a fast pair's "
        "rotation is missed when it is removed (a slow pair's removal costs a run at most {slow_cost_seen} points "
        "in 0–63); past it, in 64–127, removing slow pair {far_slow} costs a run up to {far_cost} points. "
        "*Disagree:* our slow pairs carry less than an even share: {other_slow} of the score in the other heads, "
        "every one of them below the even share of {even_slow}. The copy task has no content to match through q·k, so "
        "this toy cannot show slow pairs carrying meaning. Past the training length the shares barely move "
        "({pos_unseen} at the offsets never seen): the heads keep reading the same fast pairs, whose phases "
        "repeat (the phase aliases of “Train short, test long”)."),
    "lenf.scale_title": "PI, NTK-aware, YaRN at 256, with and without a short fine-tune",
    "lenf.scale_intro": (
        "The five RoPE runs trained at 64, their frequencies changed for a target length of {length} (s = 4): "
        "dotted, with no training at all; solid, after {steps} more steps at length {length} with the new "
        "frequencies (batch 8, weights shipped). Plain RoPE fine-tuned at {length} without any scaling is the "
        "control: is it the scaling or the fine-tune that helps?"),
    "lenf.fig_scale": "Scaling to 256: frequencies only vs a short fine-tune",
    "lenf.explain_scale": (
        "The scaled frequencies are posviz.pe.scaling.rope_frequencies with s = 256/64 = 4 (PI: linear; "
        "NTK-aware: base b·s^(d/(d−2)); YaRN: the ramp with original length 64 and its attention factor). The "
        "fine-tune starts from each RoPE run's shipped weights: `python -m posviz.tinylm.train --all` trains "
        "it after the run it starts from."),
    "lenf.scale_read": (
        "**Mean accuracy over 0–255 (the target length), frequencies only → after {steps} steps:** "
        "PI {rope_pi4} → {ft_pi}; NTK-aware {rope_ntk4} → {ft_ntk}; YaRN {rope_yarn4} → {ft_yarn}; plain RoPE "
        "{rope} → {ft_none}. **Beyond the target, 256–511:** PI {rope_pi4_far} → {ft_pi_far}; NTK-aware "
        "{rope_ntk4_far} → {ft_ntk_far}; YaRN {rope_yarn4_far} → {ft_yarn_far}; plain RoPE {rope_far} → "
        "{ft_none_far}. (In brackets: the lowest and the highest run.)"),
    "lenf.table_title": "A learned table past its end: clamped, wrapped, enlarged",
    "lenf.table_intro": (
        "The learned table has rows for positions 0–63 only. Three ways to run it longer, none trained for it: "
        "reuse the last row for every later position (clamped); read row p mod 64 (wrapped, a bug the article "
        "lists); or enlarge the table to {rows} rows, the new rows drawn as a fresh nn.Embedding draws them "
        "(untrained). Past its {rows} rows the enlarged table is N/A again."),
    "lenf.fig_table": "The learned table past position 63",
    "lenf.explain_table": (
        "“Enlarged” copies the 64 trained rows into a table of 256 and fills the rest with N(0, 1) (reproducible random numbers); "
        "nothing is trained after that."),
    "lenf.table_read": (
        "**Mean accuracy over 64–255:** clamped {clamp}, wrapped {mod}, enlarged to {rows} rows {grow} (chance ≈ "
        "3 %), against {train} in the trained range 0–63. Enlarging the table makes the model *run* past 63; the untrained rows "
        "carry no position it has learned."),
    "lenf.short_title": "A positional shortcut: the answer always at the same place",
    "lenf.short_intro": (
        "A second task: one marker token stands somewhere in the sequence, and from two positions after it on the "
        "model must output the token right after the marker. In the shortcut's training data the marker is "
        "**always at position {at}**, so “the token at position {at} + 1” fits every example as well as “the token "
        "after the marker”. Then the marker is moved. The control runs saw the marker anywhere in 1–56."),
    "lenf.fig_short": "The marker moved: accuracy per marker position",
    "lenf.short_x": "marker position p at test time",
    "lenf.short_chance": "chance (1/30)",
    "lenf.short_trained": " trained: marker at {at} ",
    "lenf.explain_short": (
        "Every test puts the marker at one position p in 64 fresh sequences of length 64 and scores every "
        "position from p + 2 on. Both the shortcut and the control runs are trained like the other models "
        "(800 steps, batch 32, five runs)."),
    "lenf.short_read": (
        "**Marker at the trained position → moved elsewhere (mean over the other positions):** learned table "
        "{short_learned_at} → {short_learned_else}; RoPE {short_rope_at} → {short_rope_else}. **Trained with the "
        "marker anywhere:** learned table {shift_learned_else}, RoPE {shift_rope_else} away from position 4."),
    "lenf.provenance": (
        "Every number on this page comes from {runs} models trained by `{cmd}` ({per} runs of every recipe; "
        "{secs} s of wall time for training and evaluation on this shared 2-core machine, {cpu} s of CPU time for "
        "the {timed} runs it trained (the other {kept} kept from an earlier run), load average {load} at the start / end, {date}), read from posviz/tinylm/weights/results.json."),
}
_FRONTIER_ZH = {
    "length_today.title": "今天的 RoPE，实际训练：混合层、频率、缩放与捷径",
    "length_today.intro": (
        "把今天模型里的机制放到和“短训长测”同一个任务上实际训练（输出往前第 2 个 token，长度 **64** 训练，按桶测到 **512**），"
        "每种都**训练五次**：每 2 层或每 4 层一个 NoPE 层（SmolLM3、Llama 4）、部分旋转（Qwen3-Next）、比例 RoPE（Gemma 4）、"
        "QK-norm（Qwen3、OLMo 2）。再把文章里的几条教训做成训练出来的演示：训练好的 RoPE 模型用了哪些频率；"
        "PI / NTK / YaRN 续训与不续训（“通常还得配一轮继续训练”）；学习式表扩大之后（“新行也未受训练”）；"
        "位置捷径（“标签总出现在开头”）。"),
    "length_today.sources": (
        "Barbero 等 2024，“Round and Round We Go! What makes Rotary Positional Encodings useful?” · "
        "Kazemnejad 等 2023（arXiv:2305.19466）· Chen 等 2023（PI，arXiv:2306.15595）· bloc97 2023（NTK-aware）· "
        "Peng 等 2023（YaRN，arXiv:2309.00071）· 《词相同但顺序不同…》§06、§13、§14 · 《位置编码》「长度外推」"),
    "w.lenf_show": "显示的变体",
    "w.lenf_show.help": "每条线：五次训练的平均，色带从最低的一次到最高的一次。",
    "w.lenf_run": "训练",
    "w.lenf_run.help": "两张频率占比图显示 RoPE 五次训练（0–4）中的哪一次。",
    "w.lenf_scale": "显示的曲线",
    "w.lenf_scale.help": "点线：RoPE 各次训练只换频率；实线：同样的频率再续训之后。",
    "lenf.variants_title": "NoPE 层、部分与比例 RoPE、QK-norm：哪些能外推？",
    "lenf.variants_intro": (
        "每个变体都是和六种方法同样训练的 RoPE 模型（长度 64 上 800 步，训练五次）。NoPE 混合层需要更多层，"
        "所以拿来和 4 层的 RoPE 模型比较：第 4 层不用 RoPE（每 4 层一个，按 SmolLM3、Llama 4 的数法：(l + 1) mod 4 = 0 的第 l 层不用），"
        "或第 2、4 层不用（每 2 层一个）。部分 RoPE 只旋转每个 16 维的头 8 个频率对中的 2 个，θᵢ = b^(−2i/4)"
        "（指数里用被旋转的宽度，与 transformers 的 partial rotary 相同）；比例 RoPE 旋转同样 2 个频率对，但 θᵢ = b^(−2i/16)"
        "（指数里用整个头宽），其余频率对的频率为 0（Gemma 4）。QK-norm 在旋转之前对每个头的 q 和 k 做 RMS 归一化。"),
    "lenf.fig_variants": "今天的 RoPE 变体：按桶的准确率",
    "lenf.explain_variants": (
        "每个变体的频率来自 `rope_spectrum`（被旋转宽度上的 posviz.pe.scaling.rope_frequencies；比例 RoPE 取 rope_inv_freq 的前几个频率）；"
        "θᵢ = 0 的频率对不旋转，只携带内容。NoPE 层就是去掉旋转的同一种注意力。下面的判断读的是每次训练："
        "*保持*＝每次训练在到 511 为止的每个桶都 ≥ 90%；*部分*＝每次训练在 64–127 都 ≥ 90%，但没撑到底；"
        "*失败*＝在 64–127 就有某次训练低于 90%。"),
    "lenf.col.variant": "变体",
    "lenf.col.word": "判断",
    "lenf.col.first": "0–63：平均",
    "lenf.col.chance": "色带从此碰到随机水平",
    "lenf.col.next": "64–127：平均（各次训练）",
    "lenf.col.last": "448–511：平均（各次训练）",
    "lenf.col.hold_to": "每次训练 ≥ 90% 直到",
    "lenf.word.holds": "保持到 511",
    "lenf.word.partly": "部分",
    "lenf.word.fails": "失败",
    "lenf.list_sep": "；",
    "lenf.variants_read": (
        "**在复制任务上能外推（每次训练到 511 都 ≥ 90%）：** {holds}。**部分（每次训练在 64–127 都 ≥ 90%，但没撑到底）：** {partly}。"
        "**不能（一出训练范围就有某次训练低于 90%）：** {fails}。"),
    "lenf.freq_title": "训练好的 RoPE 模型用了哪些频率？",
    "lenf.freq_intro": (
        "经过 RoPE 之后，一个头的分数是它 8 个频率对之和：q̃·k̃ = Σᵢ cᵢ，cᵢ = |qᵢ||kᵢ| cos((m − n)θᵢ + φᵢ)。"
        "这两张图给出 2 层 RoPE 模型某一次训练里每个头中各频率对占分数大小的比例（|cᵢ| 的平均占各对之和的百分比），"
        "左图是训练中见过的位移 m − n（0–63），右图是从未见过的位移（64–511），序列长度 512。"
        "每行的标签写出头、它最关注的位移 Δ 以及那里的权重：大部分权重落在一个位移上的头是*位置头*。"
        "频率对 0–2 是快频率对（波长 2π/θᵢ ≤ 64：训练中见过每一种相位）。"),
    "lenf.share_seen": "各频率对占分数的比例，位移 0–63",
    "lenf.share_unseen": "各频率对占分数的比例，位移 64–511",
    "lenf.share_sub": "第 {run} 次训练；行：头 · 最强的位移 Δ · 该处权重",
    "lenf.share_x": "频率对 i（上），其波长 λ = 2π/θᵢ（下）",
    "lenf.share_y": "头",
    "lenf.explain_shares": (
        "cᵢ(m, n) 用模型实际使用的、旋转之后的 q 和 k 计算（从它的前向中取出）。"
        "|cᵢ| 在该范围内所有因果的 (m, n) 上取平均，用 8 条长度 512 的序列；一行的比例加起来是 100%。头的对角线在 8 条长度 64 的序列上读出。"),
    "lenf.abl_title": "去掉一个频率对的旋转之后的准确率",
    "lenf.abl_sub": "{n} 次训练的平均，须线：最低到最高的一次；虚线：训练好的模型本身",
    "lenf.abl_x": "θᵢ 设为 0 的频率对 i（所有层、所有头）",
    "lenf.abl_y": "准确率（%）",
    "lenf.abl_b0": "位置 0–63",
    "lenf.abl_b1": "位置 64–127",
    "lenf.explain_ablation": (
        "去掉一个频率对的旋转（θᵢ = 0）保留它的 q 和 k，只是不再随位置转动：它仍能匹配内容，但不再表示位移。"
        "每次训练用 32 条长度 128 的序列。"),
    "lenf.freq_finding": (
        "**各次训练显示的结果。** 在 {runs} 次训练的 {n_pos} 个位置头里（至少一半权重落在一个位移上；位移 {offsets}），"
        "快频率对 {fast} 在训练中见过的位移上占分数大小的 {pos_seen}，在从未见过的位移上占 {pos_unseen}；"
        "其余 {n_other} 个头里分别是 {other_seen} 和 {other_unseen}。"
        "去掉快频率对 {worst_fast} 的旋转，0–63 的准确率从 {base} 降到 {worst_fast_acc}；去掉任何一个慢频率对，每次训练都至少还有 {slow_min}。"),
    "lenf.freq_lit": (
        "**和文献对照。** Barbero 等 2024（“Round and Round We Go!”）在 Gemma 7B 中发现：最高的频率用来构造位置型注意力模式"
        "（比如看前一个 token），最低的频率携带语义内容。*一致*：我们的位置头倚重快频率对（{fast} 占分数大小的 {pos_seen}，"
        "而在 {n_pairs} 个频率对上平均分配只有 {even_fast}），比其余的头更倚重（{other_seen}）；在训练范围内只有去掉快频率对的旋转才会造成损失（0–63 里去掉一个慢频率对，"
        "任何一次训练至多损失 {slow_cost_seen} 个百分点），超出训练范围，在 64–127 里去掉慢频率对 {far_slow} 会让某次训练损失多达 {far_cost} 个百分点。"
        "*不一致*：我们的慢频率对承担的少于平均分配：在其余的头里占分数的 {other_slow}，每个头都低于平均分配的 {even_slow}。"
        "复制任务没有需要通过 q·k 匹配的内容，所以这个玩具模型无法展示慢频率对携带语义。"
        "超出训练长度后占比几乎不变（从未见过的位移上为 {pos_unseen}）：这些头继续读同样的快频率对，而它们的相位会重复"
        "（即“短训长测”一页的相位混叠）。"),
    "lenf.scale_title": "PI、NTK-aware、YaRN 扩到 256：续训与不续训",
    "lenf.scale_intro": (
        "五次在 64 上训练的 RoPE，把频率换成面向目标长度 {length} 的值（s = 4）：点线是完全不再训练；"
        "实线是在长度 {length} 上用新频率再训练 {steps} 步之后（batch 8，权重随仓库提供）。"
        "不做任何缩放、直接在 {length} 上续训的原始 RoPE 是对照组：起作用的是缩放，还是续训？"),
    "lenf.fig_scale": "扩到 256：只换频率 vs 短暂续训",
    "lenf.explain_scale": (
        "缩放后的频率由 posviz.pe.scaling.rope_frequencies 在 s = 256/64 = 4 时给出（PI：线性；NTK-aware：base 变为 b·s^(d/(d−2))；"
        "YaRN：原始长度 64 的斜坡及其注意力系数）。续训从每次 RoPE 训练随仓库提供的权重开始："
        "`python -m posviz.tinylm.train --all` 在它所依赖的那次训练之后训练它。"),
    "lenf.scale_read": (
        "**0–255（目标长度）上的平均准确率，只换频率 → 续训 {steps} 步之后：** "
        "PI {rope_pi4} → {ft_pi}；NTK-aware {rope_ntk4} → {ft_ntk}；YaRN {rope_yarn4} → {ft_yarn}；原始 RoPE {rope} → {ft_none}。"
        "**超出目标长度，256–511：** PI {rope_pi4_far} → {ft_pi_far}；NTK-aware {rope_ntk4_far} → {ft_ntk_far}；"
        "YaRN {rope_yarn4_far} → {ft_yarn_far}；原始 RoPE {rope_far} → {ft_none_far}。（括号里：最低和最高的一次训练。）"),
    "lenf.table_title": "学习式表越过末尾：截断、取模、扩大",
    "lenf.table_intro": (
        "学习式表只有位置 0–63 的行。让它跑得更长的三种办法，都没有为此训练过：之后的位置都重复用最后一行（截断）；"
        "读第 p mod 64 行（取模，文章列出的错误之一）；或者把表扩大到 {rows} 行，新行像新建的 nn.Embedding 那样随机初始化（未经训练）。"
        "超过 {rows} 行之后，扩大的表又是 N/A。"),
    "lenf.fig_table": "学习式表越过位置 63",
    "lenf.explain_table": "“扩大”把训练好的 64 行复制到 256 行的表里，其余用 N(0, 1) 随机初始化（可复现的随机数）；之后不做任何训练。",
    "lenf.table_read": (
        "**64–255 上的平均准确率：** 截断 {clamp}，取模 {mod}，扩大到 {rows} 行 {grow}（随机猜 ≈ 3%），而训练范围 0–63 内为 {train}。"
        "把表扩大能让模型在 63 之后*运行*；未经训练的新行并不携带它学过的任何位置。"),
    "lenf.short_title": "位置捷径：答案总在同一个地方",
    "lenf.short_intro": (
        "第二个任务：序列中某处有一个标记 token，从它之后第二个位置起，模型要输出紧跟在标记后面的那个 token。"
        "捷径组的训练数据里标记**总在位置 {at}**，于是“位置 {at} + 1 上的 token”和“标记后面的 token”同样符合每个例子。"
        "然后把标记挪走。对照组训练时标记可以在 1–56 的任何位置。"),
    "lenf.fig_short": "挪动标记：按标记位置的准确率",
    "lenf.short_x": "测试时标记的位置 p",
    "lenf.short_chance": "随机猜（1/30）",
    "lenf.short_trained": " 训练：标记在 {at} ",
    "lenf.explain_short": (
        "每次测试把标记放在一个位置 p，用 64 条新的长度 64 序列，从 p + 2 起的每个位置都打分。"
        "捷径组和对照组都和其他模型一样训练（800 步，batch 32，训练五次）。"),
    "lenf.short_read": (
        "**标记在训练时的位置 → 挪到别处（其余位置的平均）：** 学习式表 {short_learned_at} → {short_learned_else}；"
        "RoPE {short_rope_at} → {short_rope_else}。**训练时标记位置随机：** 学习式表 {shift_learned_else}，RoPE {shift_rope_else}（位置 4 以外）。"),
    "lenf.provenance": (
        "本页每个数字都来自 `{cmd}` 训练出的 {runs} 个模型（每个配方训练 {per} 次；在这台多人共用的 2 核机器上训练加评测共用墙钟时间 {secs} 秒，"
        "它训练的 {timed} 次用 CPU 时间 {cpu} 秒（其余 {kept} 次沿用先前的结果），开始 / 结束时的平均负载 {load}，{date}），读自 posviz/tinylm/weights/results.json。"),
}
EN.update(_FRONTIER_EN)
ZH.update(_FRONTIER_ZH)

_SCENES_EN = {   # generated narrations: posviz.views.length.scene_say fills the {fields}
    "length.c.raw": "{x}",
    "lenf.pending": "(not trained yet)",
    "lenf.pending_runs": ("Not trained yet: {names}. `python -m posviz.tinylm.train --all --missing --eval` trains "
                          "the missing runs and rewrites results.json."),
    "length.c.na": "{first} % in 0–63, and N/A past position {pos}: the table has no row there",
    "length.c.holds": "{first} % in 0–63 and every run ≥ 90 % up to 511; {last} % in 448–511 (runs {last_lo}–{last_hi} %)",
    "length.c.partly_chance": ("{first} % in 0–63, every run ≥ 90 % up to position {pos}, and from {bucket} on the "
                               "band reaches chance"),
    "length.c.partly_above": ("{first} % in 0–63, every run ≥ 90 % up to position {pos}; {last} % in 448–511 "
                              "(runs {last_lo}–{last_hi} %), every run above chance there"),
    "length.c.partly_below": ("{first} % in 0–63, every run ≥ 90 % up to position {pos}; {last} % in 448–511 "
                              "(runs {last_lo}–{last_hi} %), every run below chance there"),
    "length.c.chance": ("{first} % in 0–63, {next} % in 64–127 (runs {lo}–{hi} %), and from {bucket} on the band "
                        "reaches chance"),
    "length.c.above": ("{first} % in 0–63, {next} % in 64–127 (runs {lo}–{hi} %), {last} % in 448–511 (runs "
                       "{last_lo}–{last_hi} %), every run above chance there"),
    "length.c.below": ("{first} % in 0–63, {next} % in 64–127 (runs {lo}–{hi} %), {last} % in 448–511 (runs "
                       "{last_lo}–{last_hi} %), every run below chance there"),
    "length.c.widest": "{lo}–{hi} % in {bucket}",
    "length.s1.say": (
        "Mean of five runs, band from the lowest to the highest. Sinusoidal: {sinusoidal}. The learned table with "
        "its last row reused past 63: {learned_clamp}. Without that trick the table has no row for position 64 "
        "at all (N/A)."),
    "length.s2.say": (
        "ALiBi: {alibi}. T5: {t5}. T5 against RoPE, run by run: {t5_rope}. In T5 every distance of 59 or more "
        "shares one bucket, one learned bias for hundreds of far keys."),
    "length.s3.say": (
        "Plain RoPE: {rope}. PI: {rope_pi}. NTK-aware: {rope_ntk}. YaRN: {rope_yarn}."),
    "length.s4.say": (
        "Run 0, layer 2, head 1 at length 512: the diagonal i − j = 2, and past the dashed line extra stripes at "
        "large offsets (the finder below tells which of them are phase aliases)."),
    "length.s5.say": (
        "NoPE has no position encoding: only the causal mask tells a token where it is (Haviv et al. 2022; "
        "Kazemnejad et al. 2023). Its runs: {nope}."),
    "length.s_runs.title": "Why five runs: the band",
    "length.s_runs.say": (
        "One run is one draw of initial weights and data order; the band spans the lowest to the highest of five. "
        "NoPE: {nope}. RoPE: {rope}. T5: {t5}. The widest band past training: {widest_name}, {widest}."),
    "length.s_alias.say": (
        "For the offset 2 and a 40° tolerance the finder flags, beyond the training range, {offsets}: offsets "
        "whose fast-pair phases repeat those of offset 2; at 10° only {tight} is left. On the map of run 0 "
        "(layer 2, head 1, length 512) the aliases past 63 with the most attention are {strong}. Not every alias "
        "becomes a stripe: slower pairs and content still count."),
    "lenf.s1.title": "NoPE in every 2nd or 4th layer",
    "lenf.s1.say": (
        "Four layers each, five runs each. RoPE in every layer: {rope_l4}. No RoPE in layer 4 (every 4th, as "
        "SmolLM3 and Llama 4): {rope_nope4}. No RoPE in layers 2 and 4: {rope_nope2}."),
    "lenf.s2.title": "Partial and proportional RoPE, QK-norm",
    "lenf.s2.say": (
        "Two layers, as the six methods; plain RoPE is the blue line. Partial RoPE (2 of 8 pairs rotated): "
        "{rope_partial}. Proportional RoPE: {rope_prop}. QK-norm: {rope_qknorm}."),
    "lenf.s3.title": "Which pairs carry a head's score",
    "lenf.s3.say": (
        "In the {n_pos} positional heads of the {runs} runs the fast pairs {fast} carry {pos_seen} of the score's "
        "size at the offsets seen in training and {pos_unseen} at offsets never seen; in the other heads "
        "{other_seen} and {other_unseen} (in brackets: the lowest and the highest head)."),
    "lenf.s4.title": "One pair's rotation removed",
    "lenf.s4.say": (
        "Removing the rotation of fast pair {worst_fast} takes the mean accuracy in 0–63 from {base} to "
        "{worst_fast_mean} (the whiskers: the lowest and the highest run); removing any one slow pair leaves the "
        "mean at {slow_mean_min} or more."),
    "lenf.s5.title": "PI and YaRN: frequencies only, then a short fine-tune",
    "lenf.s5.say": (
        "Mean accuracy over 0–255, frequencies only → after the fine-tune: PI {rope_pi4} → {ft_pi}; YaRN "
        "{rope_yarn4} → {ft_yarn}. Beyond the target, 256–511, PI: {rope_pi4_far} → {ft_pi_far}."),
    "lenf.s6.title": "The scaling or the fine-tune?",
    "lenf.s6.say": (
        "The control: plain RoPE over 0–255 {rope}, fine-tuned at 256 without any scaling {ft_none}. NTK-aware: "
        "{rope_ntk4} → {ft_ntk}. Beyond 256, plain RoPE: {rope_far} → {ft_none_far}."),
    "lenf.s7.title": "A learned table past its end",
    "lenf.s7.say": (
        "Mean accuracy over 64–255: clamped {clamp}, wrapped {mod}, enlarged to 256 untrained rows {grow}; in "
        "0–63 the table gives {train}."),
    "lenf.s8.title": "The shortcut, exposed",
    "lenf.s8.say": (
        "Marker at the trained position 4: learned table {short_learned_at}, RoPE {short_rope_at}. Marker moved "
        "(mean over the other positions): learned table {short_learned_else}, RoPE {short_rope_else}. Trained "
        "with the marker anywhere: learned table {shift_learned_else}, RoPE {shift_rope_else}."),
}
_SCENES_ZH = {
    "length.c.raw": "{x}",
    "lenf.pending": "（尚未训练）",
    "lenf.pending_runs": "尚未训练：{names}。`python -m posviz.tinylm.train --all --missing --eval` 会训练缺少的部分并重写 results.json。",
    "length.c.na": "0–63 为 {first}%，位置 {pos} 之后为 N/A：表里没有那些行",
    "length.c.holds": "0–63 为 {first}%，每次训练直到 511 都 ≥ 90%；448–511 为 {last}%（各次训练 {last_lo}–{last_hi}%）",
    "length.c.partly_chance": "0–63 为 {first}%，每次训练直到位置 {pos} 都 ≥ 90%，从 {bucket} 起色带碰到随机水平",
    "length.c.partly_above": ("0–63 为 {first}%，每次训练直到位置 {pos} 都 ≥ 90%；448–511 为 {last}%"
                              "（各次训练 {last_lo}–{last_hi}%），那里每次训练都高于随机水平"),
    "length.c.partly_below": ("0–63 为 {first}%，每次训练直到位置 {pos} 都 ≥ 90%；448–511 为 {last}%"
                              "（各次训练 {last_lo}–{last_hi}%），那里每次训练都低于随机水平"),
    "length.c.chance": "0–63 为 {first}%，64–127 为 {next}%（各次训练 {lo}–{hi}%），从 {bucket} 起色带碰到随机水平",
    "length.c.above": ("0–63 为 {first}%，64–127 为 {next}%（各次训练 {lo}–{hi}%），448–511 为 {last}%"
                       "（各次训练 {last_lo}–{last_hi}%），那里每次训练都高于随机水平"),
    "length.c.below": ("0–63 为 {first}%，64–127 为 {next}%（各次训练 {lo}–{hi}%），448–511 为 {last}%"
                       "（各次训练 {last_lo}–{last_hi}%），那里每次训练都低于随机水平"),
    "length.c.widest": "{bucket} 为 {lo}–{hi}%",
    "length.s1.say": (
        "五次训练的平均，色带从最低的一次到最高的一次。正弦：{sinusoidal}。学习式表在 63 之后重复使用最后一行：{learned_clamp}。"
        "不用这个办法，表里根本没有位置 64 的行（N/A）。"),
    "length.s2.say": (
        "ALiBi：{alibi}。T5：{t5}。逐次训练比较 T5 与 RoPE：{t5_rope}。T5 里 59 及以上的距离共用一个桶，"
        "几百个远处的 Key 只有同一个学到的偏置。"),
    "length.s3.say": (
        "原始 RoPE：{rope}。PI：{rope_pi}。NTK-aware：{rope_ntk}。YaRN：{rope_yarn}。"),
    "length.s4.say": (
        "第 0 次训练、第 2 层、第 1 个头，长度 512：i − j = 2 的对角线，以及虚线之后在很大位移处多出的条纹"
        "（下面的查找器说明其中哪些是相位混叠）。"),
    "length.s5.say": (
        "NoPE 没有任何位置编码：只有因果掩码告诉 token 它在哪里（Haviv 等 2022；Kazemnejad 等 2023）。"
        "它的各次训练：{nope}。"),
    "length.s_runs.title": "为什么训练五次：色带",
    "length.s_runs.say": (
        "一次训练就是一次初始权重和数据顺序的抽取；色带覆盖五次中最低到最高的一次。NoPE：{nope}。RoPE：{rope}。"
        "T5：{t5}。训练范围之后最宽的色带：{widest_name}，{widest}。"),
    "length.s_alias.say": (
        "目标位移 2、容差 40° 时，查找器在训练范围之外标出 {offsets}：这些位移在快频率对上的相位与位移 2 重复；"
        "容差 10° 时只剩 {tight}。在第 0 次训练的图上（第 2 层、第 1 个头，长度 512），63 之后注意力最多的混叠位移是 {strong}。"
        "并不是每个混叠位移都会变成条纹：慢频率对和内容仍然起作用。"),
    "lenf.s1.title": "每 2 层或每 4 层一个 NoPE 层",
    "lenf.s1.say": (
        "都是 4 层、各训练五次。每层都用 RoPE：{rope_l4}。第 4 层不用 RoPE（每 4 层一个，同 SmolLM3、Llama 4）：{rope_nope4}。"
        "第 2、4 层不用 RoPE：{rope_nope2}。"),
    "lenf.s2.title": "部分与比例 RoPE、QK-norm",
    "lenf.s2.say": (
        "和六种方法一样是 2 层，原始 RoPE 是蓝线。部分 RoPE（8 个频率对只旋转 2 个）：{rope_partial}。"
        "比例 RoPE：{rope_prop}。QK-norm：{rope_qknorm}。"),
    "lenf.s3.title": "哪些频率对撑起一个头的分数",
    "lenf.s3.say": (
        "{runs} 次训练里的 {n_pos} 个位置头中，快频率对 {fast} 在训练中见过的位移上占分数大小的 {pos_seen}，"
        "在从未见过的位移上占 {pos_unseen}；其余的头分别为 {other_seen} 和 {other_unseen}（括号里：最低和最高的头）。"),
    "lenf.s4.title": "去掉一个频率对的旋转",
    "lenf.s4.say": (
        "去掉快频率对 {worst_fast} 的旋转，0–63 的平均准确率从 {base} 降到 {worst_fast_mean}（误差线：最低和最高的一次训练）；"
        "去掉任何一个慢频率对，平均仍至少有 {slow_mean_min}。"),
    "lenf.s5.title": "PI 与 YaRN：只换频率，再短暂续训",
    "lenf.s5.say": (
        "0–255 的平均准确率，只换频率 → 续训之后：PI {rope_pi4} → {ft_pi}；YaRN {rope_yarn4} → {ft_yarn}。"
        "超出目标长度的 256–511，PI：{rope_pi4_far} → {ft_pi_far}。"),
    "lenf.s6.title": "是缩放，还是续训？",
    "lenf.s6.say": (
        "对照组：原始 RoPE 在 0–255 为 {rope}，不缩放、直接在 256 上续训为 {ft_none}。NTK-aware：{rope_ntk4} → {ft_ntk}。"
        "256 之后，原始 RoPE：{rope_far} → {ft_none_far}。"),
    "lenf.s7.title": "学习式表用到表尾之后",
    "lenf.s7.say": (
        "64–255 的平均准确率：钳位 {clamp}，取模 {mod}，扩大到 256 行（新行未受训练）{grow}；0–63 为 {train}。"),
    "lenf.s8.title": "捷径被揭穿",
    "lenf.s8.say": (
        "标记在训练时的位置 4：学习式表 {short_learned_at}，RoPE {short_rope_at}。标记移走（其余位置的平均）："
        "学习式表 {short_learned_else}，RoPE {short_rope_else}。训练时标记位置随机：学习式表 {shift_learned_else}，"
        "RoPE {shift_rope_else}。"),
}
EN.update(_SCENES_EN)
ZH.update(_SCENES_ZH)
