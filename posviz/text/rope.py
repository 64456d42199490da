"""Strings of the RoPE page (app_pages/rope.py), English and Chinese; the errors of posviz.pe.rope."""

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
        "“Same words, different order: how does attention tell positions apart? From sinusoidal encodings "
        "to RoPE” §07–§09, §12, §17; “Position encodings” (RoPE)."
    ),
    # where the rotation happens
    "rope.where.title": "Where the rotation happens",
    "rope.where.body": (
        "- RoPE rotates **Q and K of every head in every layer**, right after the Q/K projection and "
        "before the dot product — not the token embedding, and not once at the input.\n"
        "- **V is not rotated**: RoPE changes *which* keys a query finds similar, not the content that "
        "is read back. Rotating V too is a different design (“Same words, different order…” §13).\n"
        "- The three points of “Position encodings”: (1) it is position *inside* attention, not added to "
        "the input; (2) absolute form, relative effect — each vector is turned by its own position, but "
        "the score only depends on n−m; (3) summed over many frequencies the score tends to shrink with "
        "distance (long-term decay), an inductive bias, not a guarantee: one pair simply oscillates.\n"
        "- It adds no parameters and keeps the tensor shapes [N,H,L,d], so fast attention kernels "
        "work unchanged — but `F.scaled_dot_product_attention` never applies RoPE for you: rotate "
        "Q and K before calling it (the SDPA section above shows it).\n"
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
        "Up to four pairs, from the fastest (pair 0: θ = 1 rad per token) to the slowest (pair {last}: "
        "θ = base^(−(d−2)/d) = {base}^(−{exponent}) ≈ {slowest} rad per token). "
        "Blue: the query hand turned by m·θᵢ; orange: the key hand turned by n·θᵢ; the arc is the angle "
        "from q to k. Fast hands wrap around many times; slow hands barely move. With random content "
        "the hands start at different angles and lengths: each title then gives the angle drawn (q→k) "
        "and what the rotation added to it, (n−m)θᵢ."
    ),
    "rope.clock.caption.one": (
        "With d = 2 there is one pair only, pair 0: θ = base⁰ = 1 rad per token. "
        "Blue: the query hand turned by m·θ; orange: the key hand turned by n·θ; the arc is the angle "
        "from q to k. With random content the hands start at different angles and lengths: the title then "
        "gives the angle drawn (q→k) and what the rotation added to it, (n−m)θ."
    ),
    "rope.clock.pair": "pair {i}: θ={theta:.3g}",
    "rope.clock.angle": "(n−m)θ = {deg:.0f}°",
    "rope.clock.between": "angle q→k = {deg:.0f}°",
    "rope.clock.added": "rotation (n−m)θ = {deg:.0f}°",
    "rope.clock.q": "q hand (m={m})",
    "rope.clock.k": "k hand (n={n})",
    "rope.clock.arc": "angle from q to k",
    "rope.clock.formula_note": (
        "Pair i turns by m·θᵢ for the query and n·θᵢ for the key; the dot product of the two hands is "
        "|q||k|·cos(angle between). For the unit hands (1,0) that is cos((n−m)θᵢ)."
    ),
    # scores
    "rope.score.title": "The shift test and the key-move test",
    "rope.score.caption": (
        "Full score (R(m)q)·(R(n)k) over all pairs, computed by `apply_rope`. Shifting both positions by "
        "Δ leaves it unchanged; moving only the key changes it (“Same words, different order…” §12, "
        "steps 3 and 4)."
    ),
    "rope.score.base": "score at (m, n) = ({m}, {n})",
    "rope.score.shift": "both shifted: ({m}, {n})",
    "rope.score.key": "only the key moved: ({m}, {n})",
    "rope.score.equal": "equal: only n−m matters",
    "rope.score.bug": (
        "Bug switched on: only Q is rotated. Now the common shift changes the score — the relative "
        "identity R(m)ᵀR(n) = R(n−m) needs both sides rotated (“Same words, different order…” §17, "
        "exercise 2)."
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
        "Each pair alone gives cos((n−m)θᵢ): a wave, not a decay (“Position encodings”: cos 3θ "
        "oscillates). The mean over all pairs tends to fall with distance but still wiggles — an "
        "inductive bias, not a rule."
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
    "rope.hand.s08": "“Same words…” §08",
    "rope.hand.s08_shift": "“Same words…” §08, shifted by 4",
    "rope.hand.s001": "“Position encodings”, cos 3θ (θ=1)",
    "rope.hand.s17_a": "“Same words…” §17 ex. 1 (1,2)",
    "rope.hand.s17_b": "“Same words…” §17 ex. 1 (5,6)",
    "rope.hand.s17_c": "“Same words…” §17 ex. 1 (5,7)",
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
    # the free calculator
    "rope.calc.title": "Your own pair: a calculator",
    "rope.calc.caption": (
        "Any q and k in 2-D, any θ, any positions p and s: R(p)q, R(s)k, their dot product and the same "
        "number from the closed form of “Same words, different order…” §08 and §17. Switch on "
        "“rotate only Q” to see the bug of exercise 2."
    ),
    "rope.calc.clock_title": "θ={theta:.4g}, p={p}, s={s}",
    "rope.calc.k_only": "k (not rotated)",
    "rope.calc.score": "(R(p)q)·(R(s)k)",
    "rope.calc.relative": (
        "Both rotated: φ = (s−p)θ. Add the same number to p and s and the score does not change."
    ),
    "rope.calc.only_q": (
        "Only q rotated: the score is (R(p)q)·k = qᵀR(−p)k, φ = −pθ. It depends on p itself: adding the "
        "same number to p and s now changes it."
    ),
    # apply_rope step by step
    "rope.steps.title": "apply_rope step by step",
    "rope.steps.caption": (
        "The listing of “Same words, different order…” §09, line by line, with its values: one head, "
        "d = 8, the same vector x = {x} at three positions p, p+1, p+2. Each line below is copied from "
        "posviz's own `apply_rope`, the function every figure of this page uses; move p to large "
        "positions and watch the float32 angles."
    ),
    "rope.steps.theta": "**1. θᵢ = base^(−2i/d)**: one speed per pair i = 0…3 (the columns), in float32.",
    "rope.steps.angles": "**2. The angles p·θᵢ**, computed in float32: one row per position, one column per pair i.",
    "rope.steps.cos_sin": "**3. cos and sin of the angles**, only now cast to the dtype of x.",
    "rope.steps.even_odd": "**4. The even and odd halves** of x: dimensions 0, 2, 4, 6 and 1, 3, 5, 7.",
    "rope.steps.rotated_even": "**5. The rotated even half**: even·cos − odd·sin.",
    "rope.steps.rotated_odd": "**6. The rotated odd half**: even·sin + odd·cos.",
    "rope.steps.out": "**7. Re-stacked**: each pair back side by side, [N,H,L,d] again (columns: the 8 dimensions).",
    "rope.steps.check": "max |step-by-step result − apply_rope(x)| = {diff}: the steps are the function.",
    "rope.steps.fast_note": (
        "Where it gives the same bits (interleaved, contiguous float32/float64, rows of whole blocks of "
        "64 pairs) the app runs the rotation as one complex multiply in `posviz.pe._rope_fast`; "
        "`torch.equal` with this code is tested on every such shape."
    ),
    # rope_attention and SDPA
    "rope.sdpa.title": "rope_attention: RoPE, then PyTorch's fused attention",
    "rope.sdpa.caption": (
        "“Same words, different order…” §09 ends with `rope_attention`: rotate Q and K with `apply_rope`, "
        "then call `F.scaled_dot_product_attention(q, k, v, is_causal=True)`. Here on its own example, "
        "q, k, v = torch.randn(2, 4, 6, 8), positions 0…5; Δ is the common shift above. Each number is a "
        "max |difference|; its ? shows the formula."
    ),
    "rope.sdpa.sdpa_vs_own": "SDPA vs posviz's own attention",
    "rope.sdpa.sdpa_vs_own.help": "max |SDPA(R q, R k, v) − softmax(R q (R k)ᵀ/√d + causal mask) v|",
    "rope.sdpa.shift": "all positions shifted by Δ = {delta}",
    "rope.sdpa.shift.help": "max |rope_attention at positions p + Δ − rope_attention at positions p|",
    "rope.sdpa.plain_shuffle": "tokens reversed, SDPA without RoPE",
    "rope.sdpa.plain_shuffle.help": "max |SDPA(Pq, Pk, Pv) − P·SDPA(q, k, v)|, no mask, P reverses the tokens",
    "rope.sdpa.rope_shuffle": "tokens reversed, with RoPE",
    "rope.sdpa.rope_shuffle.help": "max |rope_attention(Pq, Pk, Pv) − P·rope_attention(q, k, v)|, no mask",
    "rope.sdpa.gqa": "grouped heads: H_q = {hq} queries, H = {h} K/V",
    "rope.sdpa.gqa.help": "max |SDPA(R q, R k, v, enable_gqa=True) − own attention with each K/V head copied to its group|",
    "rope.sdpa.gqa.text": (
        "§09's shapes allow fewer key/value heads than query heads: Query [N,…,H_q,L,E], Key [N,…,H,S,E]. "
        "SDPA accepts H_q ≠ H only with `enable_gqa=True` and H_q a multiple of H (else it raises): each group of "
        "H_q/H = {g} consecutive query heads reads one K/V head, here query heads 0…{hq_last} read K/V heads "
        "{group}. RoPE rotates the {h} key heads once; the cache stores only them."),
    "rope.sdpa.proof": (
        "What proves that SDPA adds no position: P reverses the six tokens. Without RoPE (and without the "
        "causal mask) SDPA's output is just reversed too — a difference of ~0: SDPA cannot tell the two "
        "orders apart. With RoPE the same shuffle changes the output: the order information came from "
        "the rotation, applied before SDPA. SDPA itself equals posviz's own written-out attention to "
        "float rounding, and a common shift of all positions changes nothing (only n−m enters)."
    ),
    # layouts
    "rope.layout.title": "Two ways to pair the dimensions",
    "rope.layout.caption": (
        "Cells with the same number (and colour) are rotated together by the same θᵢ. Interleaved pairs "
        "(0,1), (2,3), … as in RoFormer and “Same words, different order…” §09; half-split pairs "
        "(i, i+d/2) as Llama's `rotate_half` in Hugging Face transformers."
    ),
    "rope.layout.row.interleaved": "interleaved",
    "rope.layout.row.half": "half-split",
    "rope.layout.x": "dimension",
    "rope.layout.z": "pair i",
    "rope.layout.m_interleaved": "interleaved, q and k",
    "rope.layout.m_half": "half-split, P·q and P·k",
    "rope.layout.m_mixed": "half code, interleaved weights",
    "rope.layout.same": "identical",
    "rope.layout.wrong": "wrong",
    "rope.layout.one": "the same: at d = {d} the two pairings are one",
    "rope.layout.warning": (
        "Both pairings are the same rotation up to a permutation P of the dimensions, so with P applied "
        "the scores are identical. But **weights cannot be mixed**: a checkpoint trained with one pairing "
        "and run by code with the other rotates the wrong coordinates together — the shapes fit, nothing "
        "crashes, and the attention is silently wrong. Permute the Q/K projection rows when converting "
        "(“Same words, different order…” §12, step 5)."
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
    "w.rope_only_q.help": "“Same words, different order…” §13: rotating Q but not K breaks the relative identity.",
    "w.rope_anim": "animation",
    "w.rope_anim.both": "shift both",
    "w.rope_anim.key": "move only the key",
    "w.rope_example": "worked example",
    "w.rope_example.s08": "§08: q=k=[1,0], θ=π/2, p=1, s=3",
    "w.rope_example.s08_shift": "§08: shifted, p=5, s=7",
    "w.rope_example.s001": "“Position encodings”: q=k=(1,0), m=2, n=5",
    "w.rope_example.s17_a": "§17: q=[1,2], k=[3,4], θ=π/3, (1,2)",
    "w.rope_example.s17_b": "§17: (5,6)",
    "w.rope_example.s17_c": "§17: (5,7)",
    "w.rope_example.help": "§08 and §17 are sections of “Same words, different order…”.",
    "w.rope_calc_q1": "q₁",
    "w.rope_calc_q2": "q₂",
    "w.rope_calc_k1": "k₁",
    "w.rope_calc_k2": "k₂",
    "w.rope_calc_theta": "θ",
    "w.rope_calc_theta.pi2": "π/2",
    "w.rope_calc_theta.pi3": "π/3",
    "w.rope_calc_theta.other": "other",
    "w.rope_calc_theta_x": "θ (rad per token, for “other”)",
    "w.rope_calc_p": "query position p",
    "w.rope_calc_s": "key position s",
    "w.rope_calc_only_q": "rotate only Q",
    "w.rope_calc_only_q.help": "The bug of exercise 2: the key is used unrotated.",
    "w.rope_steps": "Show the seven steps with their values",
    "w.rope_step_p": "first position p",
    "w.rope_step_p.help": "The three positions of the step-by-step case are p, p+1 and p+2.",
    # scenes
    "rope.scene.pair": "One pair, one position",
    "rope.scene.pair.say": (
        "With d = 2 there is a single clock, and it turns θ₀ = base⁰ = 1 rad per token. The query at 1 and the "
        "key at 3 are turned by 1 rad and 3 rad: the angle between them is 2 rad, so the score is cos 2 = −0.4161 "
        "(the first score here; the clock is just above). “Same words, different order…” §08, worked by hand further down, "
        "takes θ = π/2 instead: cos(2 · π/2) = −1."
    ),
    "rope.scene.angle": "The angle between q and k",
    "rope.scene.angle.say": (
        "Each hand turns by its own position, but the score only sees the angle between them, "
        "(n−m)θᵢ = 3θᵢ. For unit hands the pair's score is cos 3θᵢ (“Position encodings”)."
    ),
    "rope.scene.shift": "Shift both: nothing changes",
    "rope.scene.shift.say": (
        "Moving query and key by the same Δ turns both hands by Δθᵢ: the arcs and the score stay the "
        "same. Press ▶ in the animation and watch the flat score line."
    ),
    "rope.scene.key": "Move only k",
    "rope.scene.key.say": (
        "Now only the key moves: the angle grows by θᵢ per step and the score changes — it oscillates "
        "instead of simply falling (“Same words, different order…” §17: (5,7) differs from (5,6))."
    ),
    "rope.scene.many": "Many frequencies",
    "rope.scene.many.say": (
        "A real head has d/2 pairs, from θ₀ = 1 rad per token down to base^(−(d−2)/d). Fast hands wrap "
        "around, slow hands barely move; the score is the sum over all of them, with random content."
    ),
    "rope.scene.layouts": "Two pairings, one rotation",
    "rope.scene.layouts.say": (
        "Interleaved or half-split: after the permutation P the scores are identical, but weights "
        "trained with one pairing give wrong scores with the other."
    ),
    # errors of posviz.pe.rope
    "err.rope_inv_freq_shape": "inv_freq must be a real tensor of shape [{half}] (head_dim/2), got shape {shape}",
    "err.rope_real": "{name} must be real numbers, got dtype {dtype}",
    "err.rope_positions": "{name} must be finite positions with |p| <= {hi}",
    "err.rope_scalar_or_1d": "{name} must be a number or a 1-D tensor, got shape {shape}",
    "err.rope_position_shape": "position_ids must have shape [L]=[{L}] or [N,L]=[{N},{L}], got {shape}",
    "err.rope_x": "x must be a floating point tensor [N,H,L,d], got {got}",
    "err.rope_pair": "{name} must be a finite 2-vector (one pair), got {got}",
    "err.rope_vector": "{name} must be a vector [{want}], got shape {shape}",
    "err.rope_qkv": "{name} must be floating point tensors q [N,H_q,L,d], k [N,H,S,d], v [N,H,S,dv], got {shape}",
    "err.gqa_heads": ("the number of query heads H_q = {hq} must be a multiple of the K/V heads H = {h} "
                      "(each group of H_q/H query heads shares one K/V head)"),
    "err.rope_causal_lengths": (
        "is_causal needs as many queries as keys (L = S) in rope_attention (SDPA aligns its causal mask "
        "top-left), got L={L}, S={S}"),
}

ZH = {
    "rope.title": "RoPE：把位置变成一只时钟",
    "rope.intro": (
        "旋转位置编码不再往向量上**加**一个位置向量，而是把 Query 和 Key **转**一个角度。"
        "每一对维度就是一根时钟指针：位置 m 的 Query 转过 m·θᵢ，位置 n 的 Key 转过 n·θᵢ。"
        "两者的内积只看指针之间的夹角 (n−m)·θᵢ——绝对地转，相对地算。"
    ),
    "rope.sources": (
        "出处：Su 等，2021，《RoFormer: Enhanced Transformer with Rotary Position Embedding》"
        "（arXiv:2104.09864）；Hugging Face transformers 中 Llama 的 `rotate_half` / "
        "`apply_rotary_pos_emb`；《词相同但顺序不同，注意力怎样辨别位置？从正弦编码到 RoPE》"
        "§07–§09、§12、§17；《位置编码》（RoPE 部分）。"
    ),
    "rope.where.title": "旋转发生在哪里",
    "rope.where.body": (
        "- RoPE 旋转的是**每一层、每一个注意力头的 Q 和 K**：在 Q/K 投影之后、点积之前——"
        "不是词向量，也不是在输入处只转一次。\n"
        "- **V 不旋转**：RoPE 改变的是 Query 觉得“哪个 Key 更像”，而不是被加权取回的内容。"
        "连 V 一起转是另一种设计（《词相同但顺序不同…》§13）。\n"
        "- 《位置编码》的三点：（1）它是“注意力内部的位置”，而不是加在输入上的位置；"
        "（2）绝对的形式、相对的效果——每个向量按自己的位置旋转，打分只依赖 n−m；"
        "（3）把许多频率加在一起，得分大体随距离变弱（远程衰减），但这只是归纳偏置而非保证："
        "单独一对维度的得分只会来回振荡。\n"
        "- 它不增加参数，也不改变 [N,H,L,d] 的张量形状，所以高效注意力内核可以照常使用——"
        "但 `F.scaled_dot_product_attention` 不会替你加 RoPE：要在调用它之前旋转 Q 和 K"
        "（上面的 SDPA 一节演示了这一点）。\n"
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
    "rope.clock.title": "每个频率对配一只钟",
    "rope.clock.caption": (
        "从最快（第 0 对：θ = 每个 token 1 弧度）到最慢（第 {last} 对：θ = base^(−(d−2)/d) = "
        "{base}^(−{exponent}) ≈ 每个 token {slowest} 弧度）最多选出四对维度。"
        "蓝色是转过 m·θᵢ 的 Query 指针，橙色是转过 n·θᵢ 的 Key 指针，圆弧是从 q 到 k 的夹角。"
        "快指针早已转了很多圈，慢指针几乎不动。换成随机内容时，两根指针的起始角度和长度各不相同："
        "这时每个小标题同时给出所画的夹角（q→k）和旋转给它加上的 (n−m)θᵢ。"
    ),
    "rope.clock.caption.one": (
        "d = 2 时只有一对维度，即第 0 对：θ = base⁰ = 每个 token 1 弧度。"
        "蓝色是转过 m·θ 的 Query 指针，橙色是转过 n·θ 的 Key 指针，圆弧是从 q 到 k 的夹角。"
        "换成随机内容时，两根指针的起始角度和长度各不相同：这时小标题同时给出所画的夹角（q→k）和旋转给它加上的 (n−m)θ。"
    ),
    "rope.clock.pair": "第 {i} 对：θ={theta:.3g}",
    "rope.clock.angle": "(n−m)θ = {deg:.0f}°",
    "rope.clock.between": "夹角 q→k = {deg:.0f}°",
    "rope.clock.added": "旋转 (n−m)θ = {deg:.0f}°",
    "rope.clock.q": "q 指针（m={m}）",
    "rope.clock.k": "k 指针（n={n}）",
    "rope.clock.arc": "从 q 到 k 的夹角",
    "rope.clock.formula_note": (
        "第 i 对维度中，Query 转 m·θᵢ，Key 转 n·θᵢ；两根指针的内积是 |q||k|·cos(夹角)。"
        "对单位指针 (1,0)，它就是 cos((n−m)θᵢ)。"
    ),
    "rope.score.title": "共同平移测试与只移动 Key 的测试",
    "rope.score.caption": (
        "由 `apply_rope` 计算的完整得分 (R(m)q)·(R(n)k)，对所有维度对求和。两个位置同时平移 Δ，"
        "得分不变；只移动 Key，得分改变（《词相同但顺序不同…》§12 第 3、4 步）。"
    ),
    "rope.score.base": "位置 (m, n) = ({m}, {n}) 的得分",
    "rope.score.shift": "同时平移后：({m}, {n})",
    "rope.score.key": "只移动 Key：({m}, {n})",
    "rope.score.equal": "相等：只有 n−m 起作用",
    "rope.score.bug": (
        "已打开错误开关：只旋转 Q。此时共同平移也会改变得分——相对恒等式 R(m)ᵀR(n) = R(n−m) "
        "要求两边都旋转（《词相同但顺序不同…》§17 练习 2）。"
    ),
    "rope.score.note": (
        "当每一对的内容都是单位向量 q = k = (1,0) 时，得分等于 Σᵢ cos((n−m)θᵢ)；换成随机内容，"
        "得分仍取决于 q 和 k 本身——RoPE 只是让其中“位置的部分”变成相对的。"
    ),
    "rope.anim.title": "让它动起来",
    "rope.anim.caption": (
        "点击图中的 ▶：位置 t 在浏览器里逐步前进。选“同时平移”时两根指针一起转，得分曲线是平的；"
        "选“只移动 Key”时夹角不断变大，得分来回振荡。"
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
        "单独一对维度给出 cos((n−m)θᵢ)：是一条波，而不是衰减（《位置编码》：cos 3θ 会振荡）。"
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
    "rope.hand.s08": "《词相同…》§08",
    "rope.hand.s08_shift": "《词相同…》§08，平移 4",
    "rope.hand.s001": "《位置编码》，cos 3θ（θ=1）",
    "rope.hand.s17_a": "《词相同…》§17 练习 1 (1,2)",
    "rope.hand.s17_b": "《词相同…》§17 练习 1 (5,6)",
    "rope.hand.s17_c": "《词相同…》§17 练习 1 (5,7)",
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
        "(p,s) = (5,7)：距离为 2，φ = 2π/3，得分 = −5.5 + √3 ≈ −3.768——因为只移动了 Key，数值不同了。"
    ),
    "rope.calc.title": "自己的一对维度：计算器",
    "rope.calc.caption": (
        "任意二维的 q 和 k、任意 θ、任意位置 p 和 s：算出 R(p)q、R(s)k、它们的点积，以及用"
        "《词相同但顺序不同…》§08 与 §17 的闭式得到的同一个数。打开“只旋转 Q”，看练习 2 的错误。"
    ),
    "rope.calc.clock_title": "θ={theta:.4g}，p={p}，s={s}",
    "rope.calc.k_only": "k（未旋转）",
    "rope.calc.score": "(R(p)q)·(R(s)k)",
    "rope.calc.relative": "两边都旋转：φ = (s−p)θ。给 p 和 s 加上同一个数，得分不变。",
    "rope.calc.only_q": (
        "只旋转 q：得分是 (R(p)q)·k = qᵀR(−p)k，φ = −pθ。它依赖 p 本身：给 p 和 s 加上同一个数，"
        "得分就变了。"
    ),
    "rope.steps.title": "逐步执行 apply_rope",
    "rope.steps.caption": (
        "把《词相同但顺序不同…》§09 的代码逐行执行并给出每一步的数值：一个注意力头，d = 8，"
        "同一个向量 x = {x} 放在三个位置 p、p+1、p+2。下面每一行都摘自 posviz 自己的 `apply_rope`，"
        "也就是本页所有图用的那个函数；把 p 拖到很大的位置，看看 float32 角度的样子。"
    ),
    "rope.steps.theta": "**1. θᵢ = base^(−2i/d)**：每一对 i = 0…3（各列）一个转速，用 float32 计算。",
    "rope.steps.angles": "**2. 角度 p·θᵢ**，用 float32 计算：每个位置一行，每一对 i 一列。",
    "rope.steps.cos_sin": "**3. 角度的 cos 与 sin**，直到这时才转成 x 的 dtype。",
    "rope.steps.even_odd": "**4. x 的偶数位与奇数位**：第 0、2、4、6 维与第 1、3、5、7 维。",
    "rope.steps.rotated_even": "**5. 旋转后的偶数位**：even·cos − odd·sin。",
    "rope.steps.rotated_odd": "**6. 旋转后的奇数位**：even·sin + odd·cos。",
    "rope.steps.out": "**7. 重新拼接**：把每一对放回相邻位置，重新得到 [N,H,L,d]（各列：8 个维度）。",
    "rope.steps.check": "max |逐步结果 − apply_rope(x)| = {diff}：这些步骤就是那个函数本身。",
    "rope.steps.fast_note": (
        "在结果逐位相同的情形（交错配对、连续存储的 float32/float64、每行是 64 对的整数倍），"
        "应用把这次旋转改为 `posviz.pe._rope_fast` 中的一次复数乘法；测试在每一种这样的形状上"
        "都用 `torch.equal` 核对它与这段代码完全相同。"
    ),
    "rope.sdpa.title": "rope_attention：先做 RoPE，再调用 PyTorch 的融合注意力",
    "rope.sdpa.caption": (
        "《词相同但顺序不同…》§09 最后给出 `rope_attention`：先用 `apply_rope` 旋转 Q 和 K，"
        "再调用 `F.scaled_dot_product_attention(q, k, v, is_causal=True)`。这里就用文中的例子："
        "q、k、v = torch.randn(2, 4, 6, 8)，位置 0…5；Δ 是上面的共同平移。每个数都是最大绝对差"
        "（点 ? 可看公式）。"
    ),
    "rope.sdpa.sdpa_vs_own": "SDPA 与 posviz 自己的注意力",
    "rope.sdpa.sdpa_vs_own.help": "max |SDPA(R q, R k, v) − softmax(R q (R k)ᵀ/√d + 因果掩码) v|",
    "rope.sdpa.shift": "所有位置平移 Δ = {delta}",
    "rope.sdpa.shift.help": "max |位置 p + Δ 处的 rope_attention − 位置 p 处的 rope_attention|",
    "rope.sdpa.plain_shuffle": "token 倒序，不加 RoPE 的 SDPA",
    "rope.sdpa.plain_shuffle.help": "max |SDPA(Pq, Pk, Pv) − P·SDPA(q, k, v)|，不加掩码，P 把 token 倒序",
    "rope.sdpa.rope_shuffle": "token 倒序，加 RoPE",
    "rope.sdpa.rope_shuffle.help": "max |rope_attention(Pq, Pk, Pv) − P·rope_attention(q, k, v)|，不加掩码",
    "rope.sdpa.gqa": "分组的头：H_q = {hq} 个 Query 头，H = {h} 个 K/V 头",
    "rope.sdpa.gqa.help": "max |SDPA(R q, R k, v, enable_gqa=True) − 把每个 K/V 头复制给它那一组的自写注意力|",
    "rope.sdpa.gqa.text": (
        "§09 的形状允许 Key/Value 的头比 Query 少：Query [N,…,H_q,L,E]，Key [N,…,H,S,E]。"
        "SDPA 只有在 `enable_gqa=True` 且 H_q 是 H 的整数倍时才接受 H_q ≠ H（否则报错）：每 H_q/H = {g} 个相邻的 Query 头"
        "读同一个 K/V 头，这里 Query 头 0…{hq_last} 依次读 K/V 头 {group}。RoPE 只旋转这 {h} 个 Key 头一次，缓存里也只存它们。"),
    "rope.sdpa.proof": (
        "怎样证明 SDPA 本身不加位置：P 把六个 token 倒序。不加 RoPE（也不加因果掩码）时，"
        "SDPA 的输出只是跟着倒序——差约为 0：SDPA 分不出这两种顺序。加上 RoPE 后，同样的打乱会改变输出："
        "顺序信息来自在 SDPA 之前做的旋转。SDPA 本身与 posviz 逐项写出的注意力只差浮点舍入；"
        "把所有位置共同平移也不改变任何结果（只有 n−m 起作用）。"
    ),
    "rope.layout.title": "两种维度配对方式",
    "rope.layout.caption": (
        "编号（颜色）相同的格子用同一个 θᵢ 一起旋转。交错配对 (0,1)、(2,3)……见 RoFormer 与"
        "《词相同但顺序不同…》§09；前后半配对 (i, i+d/2) 见 Hugging Face transformers 中 Llama 的 "
        "`rotate_half`。"
    ),
    "rope.layout.row.interleaved": "交错配对",
    "rope.layout.row.half": "前后半配对",
    "rope.layout.x": "维度",
    "rope.layout.z": "第 i 对",
    "rope.layout.m_interleaved": "交错配对：q 与 k",
    "rope.layout.m_half": "前后半配对：P·q 与 P·k",
    "rope.layout.m_mixed": "权重交错，代码前后半",
    "rope.layout.same": "完全相同",
    "rope.layout.wrong": "错误",
    "rope.layout.one": "相同：d = {d} 时两种配对是同一种",
    "rope.layout.warning": (
        "两种配对只差一个维度置换 P：作用 P 之后，得分完全相同。但**权重不能混用**：用一种配对训练的"
        "权重，交给另一种配对的代码运行，会把错误的坐标放在一起旋转——形状都对、不会报错，注意力却"
        "悄悄算错了。转换时要同步置换 Q/K 投影的行（《词相同但顺序不同…》§12 第 5 步）。"
    ),
    "rope.layout.formula_note": (
        "P = [0, 2, 4, …, d−2, 1, 3, …, d−1] 把交错配对映射为前后半配对："
        "interleaved(x) = P⁻¹ · half(P·x)，且 (P·q)·(P·k) = q·k。"
    ),
    "w.rope_m": "Query 位置 m",
    "w.rope_m.help": "每一对维度中，Query 指针转过 m·θᵢ。",
    "w.rope_n": "Key 位置 n",
    "w.rope_n.help": "每一对维度中，Key 指针转过 n·θᵢ。",
    "w.rope_shift": "共同平移 Δ",
    "w.rope_shift.help": "共同平移测试中同时加到 m 和 n 上（只移动 Key 的测试中只加到 n 上）。",
    "w.rope_dim": "每头维度 head_dim d",
    "w.rope_dim.help": "一个注意力头的宽度，必须是偶数，共 d/2 对旋转维度。",
    "w.rope_base": "底数 base",
    "w.rope_base.help": "θᵢ = base^(−2i/d)。RoFormer 与 Llama 2 用 10000，Llama 3 用 500000。",
    "w.rope_content": "q 和 k 的内容",
    "w.rope_content.unit": "单位指针 (1,0)",
    "w.rope_content.random": "随机 q、k",
    "w.rope_content.help": "单位指针只显示位置的部分；随机向量再加上内容。",
    "w.rope_only_q": "错误：只旋转 Q",
    "w.rope_only_q.help": "《词相同但顺序不同…》§13：只旋转 Q 而不旋转 K，会破坏相对位移恒等式。",
    "w.rope_anim": "动画",
    "w.rope_anim.both": "同时平移",
    "w.rope_anim.key": "只移动 Key",
    "w.rope_example": "手算例题",
    "w.rope_example.s08": "§08：q=k=[1,0]，θ=π/2，p=1，s=3",
    "w.rope_example.s08_shift": "§08：平移后 p=5，s=7",
    "w.rope_example.s001": "《位置编码》：q=k=(1,0)，m=2，n=5",
    "w.rope_example.s17_a": "§17：q=[1,2]，k=[3,4]，θ=π/3，(1,2)",
    "w.rope_example.s17_b": "§17：(5,6)",
    "w.rope_example.s17_c": "§17：(5,7)",
    "w.rope_example.help": "§08 与 §17 是《词相同但顺序不同…》的小节。",
    "w.rope_calc_q1": "q₁",
    "w.rope_calc_q2": "q₂",
    "w.rope_calc_k1": "k₁",
    "w.rope_calc_k2": "k₂",
    "w.rope_calc_theta": "θ",
    "w.rope_calc_theta.pi2": "π/2",
    "w.rope_calc_theta.pi3": "π/3",
    "w.rope_calc_theta.other": "其他",
    "w.rope_calc_theta_x": "θ（每个 token 的弧度，选“其他”时用）",
    "w.rope_calc_p": "Query 位置 p",
    "w.rope_calc_s": "Key 位置 s",
    "w.rope_calc_only_q": "只旋转 Q",
    "w.rope_calc_only_q.help": "练习 2 的错误：Key 不旋转，直接参与点积。",
    "w.rope_steps": "展开七个步骤及其数值",
    "w.rope_step_p": "起始位置 p",
    "w.rope_step_p.help": "逐步示例的三个位置是 p、p+1 和 p+2。",
    "rope.scene.pair": "一对维度，一个位置",
    "rope.scene.pair.say": (
        "d = 2 时只有一只钟，每个 token 转 θ₀ = base⁰ = 1 弧度。位置 1 的 Query 与位置 3 的 Key 分别转过 1 弧度和 3 弧度："
        "夹角 2 弧度，得分 cos 2 = −0.4161（这里的第一个得分；时钟就在上方）。页面更下方手算的《词相同但顺序不同…》§08 "
        "取的是 θ = π/2：cos(2 · π/2) = −1。"
    ),
    "rope.scene.angle": "q 与 k 之间的夹角",
    "rope.scene.angle.say": (
        "每根指针按自己的位置旋转，但得分只看两者之间的夹角 (n−m)θᵢ = 3θᵢ。"
        "单位指针时，这一对的得分就是 cos 3θᵢ（《位置编码》）。"
    ),
    "rope.scene.shift": "同时平移：什么都没变",
    "rope.scene.shift.say": (
        "把 Query 和 Key 同时移动 Δ，两根指针都多转 Δθᵢ：夹角和得分都不变。"
        "点动画里的 ▶，看那条平直的得分线。"
    ),
    "rope.scene.key": "只移动 k",
    "rope.scene.key.say": (
        "现在只移动 Key：夹角每步增加 θᵢ，得分随之改变——而且是来回振荡，而不是单调下降"
        "（《词相同但顺序不同…》§17：(5,7) 与 (5,6) 不同）。"
    ),
    "rope.scene.many": "许多频率",
    "rope.scene.many.say": (
        "真实的注意力头有 d/2 对维度，θ 从每 token 1 弧度一直降到 base^(−(d−2)/d)。快指针转了很多圈，"
        "慢指针几乎不动；得分是所有维度对之和，这里换成了随机内容。"
    ),
    "rope.scene.layouts": "两种配对，同一个旋转",
    "rope.scene.layouts.say": (
        "交错配对还是前后半配对：经过置换 P 后得分完全相同；但用一种配对训练的权重交给另一种代码，"
        "得分就错了。"
    ),
    # errors of posviz.pe.rope
    "err.rope_inv_freq_shape": "inv_freq 必须是形状为 [{half}]（head_dim/2）的实数张量，收到的形状是 {shape}",
    "err.rope_real": "{name} 必须是实数，收到的 dtype 是 {dtype}",
    "err.rope_positions": "{name} 必须是有限的位置，且 |p| ≤ {hi}",
    "err.rope_scalar_or_1d": "{name} 必须是一个数或一维张量，收到的形状是 {shape}",
    "err.rope_position_shape": "position_ids 的形状必须是 [L]=[{L}] 或 [N,L]=[{N},{L}]，收到的是 {shape}",
    "err.rope_x": "x 必须是形状为 [N,H,L,d] 的浮点张量，收到的是 {got}",
    "err.rope_pair": "{name} 必须是有限的二维向量（一对维度），收到的是 {got}",
    "err.rope_vector": "{name} 必须是向量 [{want}]，收到的形状是 {shape}",
    "err.rope_qkv": "{name} 必须是浮点张量 q [N,H_q,L,d]、k [N,H,S,d]、v [N,H,S,dv]，收到的是 {shape}",
    "err.gqa_heads": "Query 头数 H_q = {hq} 必须是 K/V 头数 H = {h} 的整数倍（每 H_q/H 个 Query 头共用一个 K/V 头）",
    "err.rope_causal_lengths": (
        "rope_attention 的 is_causal 要求 Query 与 Key 一样多（L = S；SDPA 的因果掩码按左上角对齐），"
        "收到 L={L}，S={S}"),
}
