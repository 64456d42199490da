"""Strings of the debugging checklist page (seed 000 §12, the exercises of §17 and the generated problems)."""

EN = {
    "checks.title": "Debugging checklist: nine checks, run live",
    "checks.intro": (
        "\"The shapes are right but the positions are wrong\" is the typical position bug: nothing crashes. "
        "This page runs the nine-step debugging path of “Same words, different order: how does attention tell positions apart? From sinusoidal encodings to RoPE” §12 against posviz itself, with the numbers each "
        "check produces and a pass/fail verdict. Every step has a **break it** switch that plants the matching bug "
        "from §13, so you see what a failing check looks like. At the end: the exercises of §17 and new problems "
        "of the same kind — predict the number first, then reveal the worked answer."),
    "checks.sources": (
        "Sources: “Same words, different order…” §08, §11–§13 and §17; Su et al. 2021, *RoFormer*; Vaswani et al. 2017 (permutation "
        "equivariance of attention without positions)."),
    "checks.summary": "Summary",
    "checks.col.step": "step",
    "checks.col.check": "check",
    "checks.col.status": "verdict",
    "checks.pass": "PASS",
    "checks.fail": "FAIL",
    "checks.numbers": "what is measured",
    "checks.value": "value",
    "checks.break_on": "Bug planted: {bug}",
    # step titles, explanations, bugs, what a failure means
    "checks.step1.title": "No-position control: permutation equivariance",
    "checks.step1.what": (
        "Switch off every position encoding (and dropout), reorder the input rows and check "
        "Attn(PX) = P·Attn(X). Here X = “{a}” and PX = “{b}” (the sentence of the overview page) through the toy "
        "attention model. If this fails, the experiment is not what you think it is."),
    "checks.step1.fail": "The \"control\" still carries position (RoPE was left on), so reordering the words changes the outputs, not just their order.",
    "checks.step2.title": "Print token ids, valid mask and position ids",
    "checks.step2.what": (
        "Check the three tensors separately; equal shapes do not mean equal meaning. The batch of §11 of the article, "
        "left-padded: the contract here is that each row's first real token has position 0 "
        "(position_ids = cumsum(mask) − 1, clamped at 0)."),
    "checks.step2.fail": "A shared arange(L) gives the left-padded row positions 2, 3, 4: its first real token is not at 0.",
    "checks.step3.title": "Common shift test on RoPE scores",
    "checks.step3.what": (
        "Fix content vectors q, k (d = 8), score the query at p = 3 with the key at s = 7, then shift both by Δ = 100. "
        "Since R(p+Δ)ᵀR(s+Δ) = R(s−p), the score must stay the same within rounding."),
    "checks.step3.fail": "Only Q was rotated: the score becomes qᵀR(−p)k, which depends on p itself, so the common shift changes it.",
    "checks.step4.title": "Relative shift test: moving only the key",
    "checks.step4.what": (
        "Move only the key, s = 7 → 8. The score must change: otherwise RoPE never reaches the attention "
        "(the function exists but is not wired in)."),
    "checks.step4.fail": "RoPE was never applied: the score is the plain qᵀk and ignores every position — the shift test of step 3 would pass trivially.",
    "checks.step5.title": "Even/odd pairing",
    "checks.step5.what": (
        "RoFormer pairs dimensions (0,1), (2,3), …; Llama's rotate_half pairs (i, i+d/2). The same weights give a "
        "different rotation under the two layouts; the scores agree only after permuting the dimensions "
        "[0,2,4,…,1,3,5,…]. Reference: interleaved. Under test: a half-layout implementation loading those weights."),
    "checks.step5.fail": "The half layout used the interleaved weights without the permutation: a different rotation, different scores.",
    "checks.step6.title": "Full forward vs KV cache, every position",
    "checks.step6.what": (
        "Prefill 4 of 8 tokens, decode the rest one by one, compare with the full causal forward at every position "
        "(assert_close). Check past_length, the new position ids and the axis the rotated key is appended on."),
    "checks.step6.fail": "The cache restarts at position 0 for each new token (wrong version A of §10 of the article): the decoded positions 4..7 differ.",
    "checks.step7.title": "Left vs right padding",
    "checks.step7.what": (
        "Run the same batch padded on the left and on the right through a toy model with absolute (sinusoidal) "
        "positions. With position ids from the mask, the real tokens get the same positions and the same outputs."),
    "checks.step7.fail": (
        "A shared arange(L) puts the left-padded sentence at positions 2, 3, 4 instead of 0, 1, 2; with absolute "
        "positions its outputs change. (With RoPE alone a common shift would be invisible — that is step 3.)"),
    "checks.step8.title": "Learned absolute table at the boundary",
    "checks.step8.what": (
        "A learned table with max_length M = 8 must work at L = M and raise a clear error at L = M + 1 — "
        "find this before production does."),
    "checks.step8.fail": "The position was wrapped modulo M: no error, position 8 silently reads row 0, identical to position 0.",
    "checks.step9.title": "Angles in float32 at long positions",
    "checks.step9.what": (
        "Compute the angles p·θᵢ in float32 and compare cos/sin with exact float64 angles at long positions. "
        "If an error grows with the position, suspect low-precision angles, wrong scaling or a re-rotated cache "
        "before suspecting the attention kernel. The table shows all three dtypes."),
    "checks.step9.fail": (
        "The angles were computed in bfloat16: it keeps about 3 significant digits, so above position 256 not "
        "every integer p is representable (257 rounds to 256, and the gaps grow: 2, then 4, 8, … positions) and "
        "cos/sin of the angles are off by O(1)."),
    "w.chk_break1": "Break it: leave RoPE on in the control",
    "w.chk_break2": "Break it: one shared arange(L)",
    "w.chk_break3": "Break it: rotate only Q",
    "w.chk_break4": "Break it: RoPE not wired in",
    "w.chk_break5": "Break it: half layout on interleaved weights",
    "w.chk_break6": "Break it: cache restarts at 0",
    "w.chk_break7": "Break it: shared arange with left padding",
    "w.chk_break8": "Break it: modulo instead of an error",
    "w.chk_break9": "Break it: angles in bfloat16",
    "chk.n.method": "position method in the control",
    "chk.n.perm": "permutation P (row i of PX = row P[i] of X)",
    "chk.n.equiv_diff": "max |Attn(PX) − P·Attn(X)|",
    "chk.n.tol": "tolerance",
    "chk.n.scheme": "position ids",
    "chk.n.first_real": "position of each row's first real token",
    "chk.n.score_ps": "score at (p, s)",
    "chk.n.score_shift": "score at (p+Δ, s+Δ)",
    "chk.n.abs_diff": "|difference|",
    "chk.n.score_key_moved": "score at (p, s+1)",
    "chk.n.min_change": "must change by more than",
    "chk.n.score_interleaved": "score, interleaved (reference)",
    "chk.n.score_half_raw": "score, half layout, weights as is",
    "chk.n.score_half_perm": "score, half layout, permuted weights",
    "chk.n.mode": "cache mode",
    "chk.n.prefill": "prefill length",
    "chk.n.max_err": "max |decode − full| over all positions",
    "chk.n.lr_diff": "max |left-padded − right-padded| over real tokens",
    "chk.n.shape_at_M": "output shape at L = M",
    "chk.n.at_M1": "at L = M + 1",
    "chk.n.row_of_M": "table row read by position M",
    "chk.n.alias_diff": "max |P[row of M] − P[0]|",
    "chk.n.angle_dtype": "angle dtype",
    "chk.n.max_angle_err": "max cos/sin error up to p = 30000",
    # exercises
    "w.chk_more_ex": "Exercises (“Same words, different order…” §17): predict, then reveal",
    "checks.ex.intro": "Type your prediction; the app checks it within a tolerance. The worked answer opens with the switch below each exercise (or once you are right).",
    "checks.ex.right": "Right (within {tol:g}).",
    "checks.ex.wrong": "Not yet: you entered {got:g}. Try again, or reveal the answer.",
    "checks.ex.wait": "Enter a number to check it.",
    "checks.ex1.title": "Exercise 1: a 2-D RoPE score by hand",
    "checks.ex1.q": (
        "q = [1, 2], k = [3, 4], one pair of dimensions with θ = π/3. Compute the RoPE score (R(p)q)ᵀ(R(s)k) = "
        "qᵀR(s−p)k for (p=1, s=2), (p=5, s=6) and (p=5, s=7)."),
    "w.chk_ex1_a": "score at (p=1, s=2)",
    "w.chk_ex1_b": "score at (p=5, s=6)",
    "w.chk_ex1_c": "score at (p=5, s=7)",
    "w.chk_reveal1": "Reveal the worked answer",
    "checks.ex1.answer": (
        "For one pair, qᵀR(φ)k = (q·k) cos φ + (q₂k₁ − q₁k₂) sin φ with q·k = 11 and q₂k₁ − q₁k₂ = 6 − 4 = 2.\n\n"
        "- (1, 2) and (5, 6): φ = (s−p)θ = π/3: 11·½ + 2·(√3/2) = 5.5 + √3 = **{a:.4f}**. The common shift by 4 "
        "leaves it unchanged.\n"
        "- (5, 7): φ = 2π/3: 11·(−½) + 2·(√3/2) = −5.5 + √3 = **{c:.4f}**: the relative offset changed, so the score changed.\n\n"
        "The rotated vectors, computed by posviz.pe.rope.apply_rope:"),
    "checks.ex2.title": "Exercise 2: rotate only Q",
    "checks.ex2.q": (
        "Now apply_rope rotates only the query, not the key. With the q, k, θ of exercise 1, what are the scores at "
        "(p=1, s=2) and at the shifted (p=5, s=6)? Does the common shift test pass?"),
    "w.chk_ex2_a": "score at (p=1, s=2), only Q rotated",
    "w.chk_ex2_b": "score at (p=5, s=6), only Q rotated",
    "w.chk_reveal2": "Reveal the worked answer",
    "checks.ex2.answer": (
        "The score is (R(p)q)ᵀk = qᵀR(−p)k = 11 cos(pθ) − 2 sin(pθ): it depends on the query's absolute position p, "
        "not on s − p.\n\n"
        "- p = 1: 11·½ − 2·(√3/2) = 5.5 − √3 = **{a:.4f}**\n"
        "- p = 5: cos(5π/3) = ½, sin(5π/3) = −√3/2: 5.5 + √3 = **{b:.4f}**\n\n"
        "Same offset s − p = 1, different scores: the common shift test fails (step 3's break switch shows it live). "
        "The identity R(p)ᵀR(s) = R(s−p) needs both sides rotated."),
    "checks.ex3.title": "Exercise 3: KV cache equivalence, correct vs restart",
    "checks.ex3.q": (
        "Length 4: the full causal forward vs prefill of 2 tokens + decode of 2 tokens. In the wrong version every "
        "decoded token uses position 0. At which position does the max abs error first exceed the tolerance?"),
    "w.chk_ex3": "first failing position (0..3)",
    "w.chk_reveal3": "Reveal the worked answer",
    "checks.ex3.answer": (
        "Positions 0 and 1 are the prefill and are computed identically (error 0 in both versions). Token 2 is the "
        "first decoded token: with restart its query is rotated by R(0) instead of R(2), so its offsets to keys 0 "
        "and 1 become 0 and 1 instead of −2 and −1 — **position 2** fails first, and position 3 fails too. "
        "Max abs error per position (random q, k, v, one head, d = 4):"),
    "checks.ex3.col.pos": "position",
    "checks.scene.pass": "Everything passes",
    "checks.scene.pass.say": "All nine checks pass on posviz: the summary lists them. In each step's box below, read the numbers: 'equal' means within a stated tolerance, 'changed' means by more than one.",
    "checks.scene.shift": "Rotate only Q",
    "checks.scene.shift.say": "Step 3 fails: the common shift changes the score because qᵀR(−p)k depends on p. Exercise 2 works the same numbers by hand.",
    "checks.scene.cache": "A cache that restarts at 0",
    "checks.scene.cache.say": "Step 6 fails from the first decoded position; the prefill positions stay exact.",
    "checks.scene.padding": "Left padding with a shared arange",
    "checks.scene.padding.say": "Steps 2 and 7 fail together (the summary): step 2's printed position ids already show the bug, step 7's outputs confirm it.",
    "checks.scene.boundary": "Modulo instead of an error",
    "checks.scene.boundary.say": "Step 8 fails silently: no error at L = M + 1, position 8 reads the same row as position 0.",
    "checks.scene.angles": "Angles in bfloat16",
    "checks.scene.angles.say": "Step 9: the bfloat16 column of the table grows to O(1) with the position; float32 stays below 10⁻³.",
    "checks.boundary": "Raises `PositionOutOfRangeError`, as it must. {msg}",
    "chk.v.no_error": "no error",
    "chk.c.tensor": "tensor",
    "chk.c.row": "row",
    # generated problems
    "w.chk_more_gen": "New problems: predict, then reveal",
    "checks.gen.intro": (
        "Every problem number makes a new problem in the style of §08 and §17: 2-D content vectors q and k, one "
        "angle θ, a query at p and a key at s, and now and then the bug “only Q is rotated”. The number is part of "
        "the page's link, so a lecturer can hand one problem to a whole hall: share the link, let everyone "
        "predict, then reveal the worked answer."),
    "w.chk_gen_seed": "Problem number (random seed)",
    "w.chk_gen_seed.help": "The same number gives the same problem on every device.",
    "checks.gen.new": "New problem",
    "checks.gen.q": (
        "q = {q}, k = {k}, one pair of dimensions with θ = {theta}. The query is at p = {p}, the key at s = {s}. "
        "Predict the two components of R(pθ)q and of R(sθ)k, and the score (R(pθ)q)ᵀR(sθ)k."),
    "checks.gen.q_only": (
        "q = {q}, k = {k}, one pair of dimensions with θ = {theta}, the query at p = {p}, the key at s = {s}. "
        "**Bug planted:** apply_rope rotates only the query, the key stays k. Predict R(pθ)q, the key as used "
        "(that is, k) and the score (R(pθ)q)ᵀk."),
    "w.chk_gen_q1": "[R(pθ)q]₁",
    "w.chk_gen_q2": "[R(pθ)q]₂",
    "w.chk_gen_k1": "[R(sθ)k]₁ or k₁",
    "w.chk_gen_k2": "[R(sθ)k]₂ or k₂",
    "w.chk_gen_score": "score",
    "w.chk_gen_reveal": "Reveal the worked answer",
    "checks.gen.col.what": "number",
    "checks.gen.col.exact": "exact",
    "checks.gen.col.decimal": "decimal",
    "checks.gen.shift_same": (
        "Shift both positions by Δ = {d}: at (p, s) = ({p}, {s}) the score is again {score}, because only s − p "
        "enters. posviz.pe.rope.apply_rope (float32) agrees with the exact answer to within {diff}."),
    "checks.gen.shift_changed": (
        "Shift both positions by Δ = {d}: at (p, s) = ({p}, {s}) the score becomes {score}. Only Q is rotated, so "
        "the score depends on p itself and the common shift test fails. posviz.pe.rope.apply_rope (float32) "
        "agrees with the exact answer to within {diff}."),
    "checks.gen.shift_coincide": (
        "Shift both positions by Δ = {d}: at (p, s) = ({p}, {s}) the score happens to be {score} again for these "
        "vectors, yet with only Q rotated it depends on p itself: other shifts change it. "
        "posviz.pe.rope.apply_rope (float32) agrees with the exact answer to within {diff}."),
    "checks.scene.generator": "One problem for the whole hall",
    "checks.scene.generator.say": (
        "Problem 22: q = [−2, −3], k = [1, 0], θ = π/3, p = 2, s = 1. Share the link and every phone shows the "
        "same problem; predict the five numbers, then reveal: the score is −1 + 3√3/2."),
}

ZH = {
    "checks.title": "调试清单：九项检查，现场运行",
    "checks.intro": (
        "“形状正确，位置却错了”是位置 bug 的典型样子：什么都不会崩。本页把《词相同但顺序不同，注意力怎样辨别位置？从正弦编码到 RoPE》§12 的九步调试路径直接跑在 posviz 上，"
        "给出每项检查算出的数字和通过/失败结论。每一步都有一个**弄坏它**开关，植入 §13 中对应的 bug，让你看到失败的检查长什么样。"
        "最后是 §17 的练习以及同类的新题：先预测数字，再揭晓推导过程。"),
    "checks.sources": "来源：《词相同但顺序不同…》§08、§11–§13 与 §17；Su 等 2021《RoFormer》；Vaswani 等 2017（无位置时注意力的置换等变）。",
    "checks.summary": "汇总",
    "checks.col.step": "步骤",
    "checks.col.check": "检查",
    "checks.col.status": "结论",
    "checks.pass": "通过",
    "checks.fail": "失败",
    "checks.numbers": "测量项",
    "checks.value": "数值",
    "checks.break_on": "已植入 bug：{bug}",
    "checks.step1.title": "无位置对照：置换等变",
    "checks.step1.what": (
        "关闭所有位置表示（以及 dropout），重排输入行，验证 Attn(PX) = P·Attn(X)。这里 X = “{a}”，"
        "PX = “{b}”（与概览页同一个句子），经过玩具注意力模型。若此项失败，说明实验对象并不是你以为的那样。"),
    "checks.step1.fail": "“对照组”里仍有位置（RoPE 没关），所以重排词序改变的不只是输出的顺序，而是输出本身。",
    "checks.step2.title": "打印 token ids、valid mask 与 position ids",
    "checks.step2.what": (
        "三份张量要分别检查；形状相同不代表语义相同。使用文章 §11 的左 padding 批次，这里的契约是："
        "每行第一个真实 token 的位置为 0（position_ids = cumsum(mask) − 1，再在 0 处截断）。"),
    "checks.step2.fail": "共享的 arange(L) 让左 padding 的那一行位置变成 2、3、4：第一个真实 token 不在 0。",
    "checks.step3.title": "RoPE 分数的共同平移测试",
    "checks.step3.what": (
        "固定内容向量 q、k（d = 8），计算 Query 在 p = 3、Key 在 s = 7 的分数，再把二者同时平移 Δ = 100。"
        "由于 R(p+Δ)ᵀR(s+Δ) = R(s−p)，分数应在舍入误差内保持不变。"),
    "checks.step3.fail": "只旋转了 Q：分数变成 qᵀR(−p)k，依赖 p 本身，所以共同平移会改变它。",
    "checks.step4.title": "相对位移测试：只移动 Key",
    "checks.step4.what": "只移动 Key，s = 7 → 8。分数必须改变；否则说明 RoPE 根本没接到注意力上（函数存在，却没被调用）。",
    "checks.step4.fail": "RoPE 从未被应用：分数就是普通的 qᵀk，与所有位置无关——第 3 步的平移测试反而会“平凡地”通过。",
    "checks.step5.title": "验证偶奇配对",
    "checks.step5.what": (
        "RoFormer 按 (0,1)、(2,3)… 配对；Llama 的 rotate_half 按 (i, i+d/2) 配对。同一组权重在两种布局下得到不同的旋转；"
        "只有把维度按 [0,2,4,…,1,3,5,…] 重排后分数才一致。参照：交错配对。被测：加载这组权重的前后半配对实现。"),
    "checks.step5.fail": "前后半配对的实现直接使用了交错配对的权重、没有重排：旋转不同，分数也不同。",
    "checks.step6.title": "完整前向与 KV Cache，逐位置比较",
    "checks.step6.what": (
        "8 个 token 中 prefill 4 个，其余逐个解码，与完整因果前向逐位置比较（assert_close）。"
        "检查 past_length、新的 position id，以及已旋转 Key 追加的轴。"),
    "checks.step6.fail": "每个新 token 的缓存位置都从 0 开始（文章 §10 的错误做法 A）：解码位置 4..7 全部不等。",
    "checks.step7.title": "左右 padding 对比",
    "checks.step7.what": (
        "把同一批句子分别左 padding、右 padding，送入使用绝对（正弦）位置的玩具模型。position ids 由 mask 生成时，"
        "真实 token 得到相同的位置和相同的输出。"),
    "checks.step7.fail": (
        "共享 arange(L) 把左 padding 的句子放在位置 2、3、4 而不是 0、1、2；在绝对位置模型里，其输出随之改变。"
        "（若只用 RoPE，共同平移是看不出来的——那正是第 3 步。）"),
    "checks.step8.title": "学习式绝对位置表的边界",
    "checks.step8.what": "max_length M = 8 的学习式位置表在 L = M 时应正常工作，在 L = M + 1 时应明确报错——不要等线上才遇到越界。",
    "checks.step8.fail": "位置被按 M 取模：没有报错，位置 8 悄悄读取第 0 行，与位置 0 完全相同。",
    "checks.step9.title": "用 float32 计算长位置角度",
    "checks.step9.what": (
        "用 float32 计算角度 p·θᵢ，在长位置上与精确的 float64 角度比较 cos/sin。若误差随位置增长，"
        "先排查低精度角度、错误缩放和缓存重复旋转，再怀疑注意力内核。表格同时给出三种 dtype。"),
    "checks.step9.fail": "角度用 bfloat16 计算：它只有约 3 位有效数字，位置超过 256 后并非每个整数 p 都能精确表示（257 被舍入成 256，间隔还会变大：2、4、8……个位置），角度的 cos/sin 误差达到 O(1)。",
    "w.chk_break1": "弄坏它：对照组里没关 RoPE",
    "w.chk_break2": "弄坏它：所有行共享 arange(L)",
    "w.chk_break3": "弄坏它：只旋转 Q",
    "w.chk_break4": "弄坏它：RoPE 没接上",
    "w.chk_break5": "弄坏它：前后半配对直接用交错权重",
    "w.chk_break6": "弄坏它：缓存从 0 重新开始",
    "w.chk_break7": "弄坏它：左 padding 仍共享 arange",
    "w.chk_break8": "弄坏它：越界取模而不报错",
    "w.chk_break9": "弄坏它：用 bfloat16 算角度",
    "chk.n.method": "对照组的位置方法",
    "chk.n.perm": "置换 P（PX 的第 i 行 = X 的第 P[i] 行）",
    "chk.n.equiv_diff": "max |Attn(PX) − P·Attn(X)|",
    "chk.n.tol": "容差",
    "chk.n.scheme": "position ids 来源",
    "chk.n.first_real": "每行第一个真实 token 的位置",
    "chk.n.score_ps": "(p, s) 处的分数",
    "chk.n.score_shift": "(p+Δ, s+Δ) 处的分数",
    "chk.n.abs_diff": "|差|",
    "chk.n.score_key_moved": "(p, s+1) 处的分数",
    "chk.n.min_change": "至少应改变",
    "chk.n.score_interleaved": "分数，交错配对（参照）",
    "chk.n.score_half_raw": "分数，前后半配对，权重未重排",
    "chk.n.score_half_perm": "分数，前后半配对，权重已重排",
    "chk.n.mode": "缓存方式",
    "chk.n.prefill": "prefill 长度",
    "chk.n.max_err": "所有位置上的 max |解码 − 完整|",
    "chk.n.lr_diff": "真实 token 上 max |左 padding − 右 padding|",
    "chk.n.shape_at_M": "L = M 时的输出形状",
    "chk.n.at_M1": "L = M + 1 时",
    "chk.n.row_of_M": "位置 M 读取的表行",
    "chk.n.alias_diff": "max |P[M 所读行] − P[0]|",
    "chk.n.angle_dtype": "角度 dtype",
    "chk.n.max_angle_err": "p ≤ 30000 内 cos/sin 最大误差",
    "w.chk_more_ex": "练习（《词相同但顺序不同…》§17）：先预测，再揭晓",
    "checks.ex.intro": "输入你的预测，应用会在容差内检查。每道题下方的开关可以揭晓推导（答对后也会自动显示）。",
    "checks.ex.right": "正确（误差在 {tol:g} 以内）。",
    "checks.ex.wrong": "还不对：你输入的是 {got:g}。再试一次，或揭晓答案。",
    "checks.ex.wait": "输入一个数字来检查。",
    "checks.ex1.title": "练习 1：手算二维 RoPE 分数",
    "checks.ex1.q": "q = [1, 2]，k = [3, 4]，只有一对维度，θ = π/3。计算 (p=1, s=2)、(p=5, s=6) 与 (p=5, s=7) 的 RoPE 分数 (R(p)q)ᵀ(R(s)k) = qᵀR(s−p)k。",
    "w.chk_ex1_a": "(p=1, s=2) 的分数",
    "w.chk_ex1_b": "(p=5, s=6) 的分数",
    "w.chk_ex1_c": "(p=5, s=7) 的分数",
    "w.chk_reveal1": "揭晓推导",
    "checks.ex1.answer": (
        "对一对维度，qᵀR(φ)k = (q·k) cos φ + (q₂k₁ − q₁k₂) sin φ，其中 q·k = 11，q₂k₁ − q₁k₂ = 6 − 4 = 2。\n\n"
        "- (1, 2) 与 (5, 6)：φ = (s−p)θ = π/3：11·½ + 2·(√3/2) = 5.5 + √3 = **{a:.4f}**。共同平移 4 不改变它。\n"
        "- (5, 7)：φ = 2π/3：11·(−½) + 2·(√3/2) = −5.5 + √3 = **{c:.4f}**：相对位移变了，分数也变了。\n\n"
        "由 posviz.pe.rope.apply_rope 算出的旋转后向量："),
    "checks.ex2.title": "练习 2：只旋转 Q",
    "checks.ex2.q": "现在 apply_rope 只旋转 Query、不旋转 Key。沿用练习 1 的 q、k、θ，(p=1, s=2) 与平移后的 (p=5, s=6) 的分数各是多少？共同平移测试能通过吗？",
    "w.chk_ex2_a": "(p=1, s=2) 的分数，只旋转 Q",
    "w.chk_ex2_b": "(p=5, s=6) 的分数，只旋转 Q",
    "w.chk_reveal2": "揭晓推导",
    "checks.ex2.answer": (
        "分数为 (R(p)q)ᵀk = qᵀR(−p)k = 11 cos(pθ) − 2 sin(pθ)：它依赖 Query 的绝对位置 p，而不是 s − p。\n\n"
        "- p = 1：11·½ − 2·(√3/2) = 5.5 − √3 = **{a:.4f}**\n"
        "- p = 5：cos(5π/3) = ½，sin(5π/3) = −√3/2：5.5 + √3 = **{b:.4f}**\n\n"
        "相对位移都是 1，分数却不同：共同平移测试失败（第 3 步的“弄坏它”开关现场演示）。恒等式 R(p)ᵀR(s) = R(s−p) 需要两边都旋转。"),
    "checks.ex3.title": "练习 3：KV Cache 等价性，正确与从 0 开始",
    "checks.ex3.q": "长度 4：完整因果前向 vs 前 2 个 token prefill + 后 2 个 token 逐步解码。错误版本中每个解码 token 都使用位置 0。最大绝对误差从哪个位置开始超过容差？",
    "w.chk_ex3": "首个失败位置（0..3）",
    "w.chk_reveal3": "揭晓推导",
    "checks.ex3.answer": (
        "位置 0 和 1 是 prefill，两种版本的计算完全相同（误差为 0）。token 2 是第一个解码 token：从 0 开始时它的 Query 用 R(0) "
        "而不是 R(2) 旋转，它到 Key 0、1 的位移变成 0、1 而不是 −2、−1——所以**位置 2** 最先失败，位置 3 也失败。"
        "逐位置最大绝对误差（随机 q、k、v，一个头，d = 4）："),
    "checks.ex3.col.pos": "位置",
    "checks.scene.pass": "全部通过",
    "checks.scene.pass.say": "九项检查在 posviz 上全部通过，汇总表列出了它们。在下方每一步的框里读一读数字：“相等”指在给定容差内，“改变”指超过某个量。",
    "checks.scene.shift": "只旋转 Q",
    "checks.scene.shift.say": "第 3 步失败：qᵀR(−p)k 依赖 p，共同平移改变了分数。练习 2 用同样的数字手算。",
    "checks.scene.cache": "从 0 重新开始的缓存",
    "checks.scene.cache.say": "第 6 步从第一个解码位置起失败；prefill 的位置仍然精确。",
    "checks.scene.padding": "左 padding 仍共享 arange",
    "checks.scene.padding.say": "第 2 步与第 7 步一起失败（见汇总表）：第 2 步打印出的 position ids 已经暴露问题，第 7 步的输出再次确认。",
    "checks.scene.boundary": "取模而不报错",
    "checks.scene.boundary.say": "第 8 步悄悄失败：L = M + 1 时不报错，位置 8 读到与位置 0 相同的表行。",
    "checks.scene.angles": "用 bfloat16 算角度",
    "checks.scene.angles.say": "第 9 步：表中 bfloat16 一列随位置增长到 O(1)；float32 保持在 10⁻³ 以下。",
    "checks.boundary": "抛出 `PositionOutOfRangeError`，理应如此。{msg}",
    "chk.v.no_error": "没有报错",
    "chk.c.tensor": "张量",
    "chk.c.row": "行",
    "w.chk_more_gen": "新题：先预测，再揭晓",
    "checks.gen.intro": (
        "每个题号生成一道 §08、§17 风格的新题：二维内容向量 q 和 k、一个角度 θ、位于 p 的 Query 和位于 s 的 Key，"
        "偶尔还会植入“只旋转 Q”的 bug。题号就在本页链接里，讲课时可以把同一道题发给全场：分享链接，大家先预测，再揭晓推导。"),
    "w.chk_gen_seed": "题号（随机种子）",
    "w.chk_gen_seed.help": "同一个题号在每台设备上给出同一道题。",
    "checks.gen.new": "换一道题",
    "checks.gen.q": (
        "q = {q}，k = {k}，只有一对维度，θ = {theta}。Query 在 p = {p}，Key 在 s = {s}。"
        "预测 R(pθ)q 与 R(sθ)k 的两个分量，以及分数 (R(pθ)q)ᵀR(sθ)k。"),
    "checks.gen.q_only": (
        "q = {q}，k = {k}，只有一对维度，θ = {theta}，Query 在 p = {p}，Key 在 s = {s}。"
        "**已植入 bug**：apply_rope 只旋转 Query，Key 保持为 k。预测 R(pθ)q、实际使用的 Key（也就是 k）以及分数 (R(pθ)q)ᵀk。"),
    "w.chk_gen_q1": "[R(pθ)q]₁",
    "w.chk_gen_q2": "[R(pθ)q]₂",
    "w.chk_gen_k1": "[R(sθ)k]₁ 或 k₁",
    "w.chk_gen_k2": "[R(sθ)k]₂ 或 k₂",
    "w.chk_gen_score": "分数",
    "w.chk_gen_reveal": "揭晓推导",
    "checks.gen.col.what": "所求的数",
    "checks.gen.col.exact": "精确值",
    "checks.gen.col.decimal": "小数",
    "checks.gen.shift_same": (
        "把两个位置同时平移 Δ = {d}：在 (p, s) = ({p}, {s}) 处分数仍是 {score}，因为只有 s − p 起作用。"
        "posviz.pe.rope.apply_rope（float32）与精确答案之差不超过 {diff}。"),
    "checks.gen.shift_changed": (
        "把两个位置同时平移 Δ = {d}：在 (p, s) = ({p}, {s}) 处分数变成 {score}。只旋转了 Q，分数依赖 p 本身，"
        "共同平移测试失败。posviz.pe.rope.apply_rope（float32）与精确答案之差不超过 {diff}。"),
    "checks.gen.shift_coincide": (
        "把两个位置同时平移 Δ = {d}：对这组向量，在 (p, s) = ({p}, {s}) 处分数碰巧仍是 {score}；但只旋转 Q 时分数依赖 p 本身，"
        "换一个平移量就会变。posviz.pe.rope.apply_rope（float32）与精确答案之差不超过 {diff}。"),
    "checks.scene.generator": "给全场的一道题",
    "checks.scene.generator.say": (
        "第 22 题：q = [−2, −3]，k = [1, 0]，θ = π/3，p = 2，s = 1。分享链接，每台手机都显示同一道题；"
        "先预测五个数，再揭晓：分数是 −1 + 3√3/2。"),
}
