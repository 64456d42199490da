"""Text of the attention lab page (app_pages/lab.py)."""

EN = {
    "lab.title": "Attention lab: break position on purpose",
    "lab.intro": (
        "Two sentences of different length go through one toy attention layer as a padded batch. "
        "**Correct** means each sentence run *alone*, unpadded, with position ids 0..n−1. "
        "**Chosen** is the padded batch with the padding side, position-id scheme and bugs you pick. "
        "If padding and positions are handled right, the real tokens of the batch get exactly the "
        "correct outputs; every bug below either changes them (and you see where) or — honestly — does not."),
    "lab.sources": (
        "Bugs and debugging path: “Same words, different order: how does attention tell positions apart? From sinusoidal encodings to RoPE” §11–§13. Methods: Vaswani et al. 2017 (sinusoidal), "
        "Su et al. 2021 (RoPE, arXiv:2104.09864), Press et al. 2021 (ALiBi, arXiv:2108.12409), "
        "Raffel et al. 2020 (T5 bias), Haviv et al. 2022 (NoPE, arXiv:2203.16634)."),
    "lab.default_a": "I love ML",
    "lab.default_b": "do you love ML too",
    "lab.setup": "1 · The batch and the model",
    "lab.bugs": "2 · Position ids and bugs",
    "lab.bugs.rope_only": "The switches marked RoPE only act when the method is RoPE.",
    "lab.weights.title": "What are the toy model's weights?",
    "lab.weights": (
        "Nothing is trained. The weights are drawn from a fixed random seed and then **structured so that "
        "position visibly shapes attention**, the way trained heads often look:\n\n"
        "- **head 0 · previous token**, **head 1 · same/nearby token**, heads 2–3 · content "
        "(random W_Q, W_K, they only follow the words).\n"
        "- **RoPE**: a positional head has a constant query u and key R(1)u, so "
        "(R(m)u)ᵀ R(n) R(1)u = Σᵢ |uᵢ|² cos((n + 1 − m)θᵢ) — largest when n = m − 1. "
        "The energy of u sits in the fast frequency pairs.\n"
        "- **Sinusoidal / learned**: a positional head reads the first d dimensions of X "
        "(token embeddings are kept small there: a position channel), and W_K applies the "
        "per-pair rotation T(ωᵢ) with T·PE(n) = PE(n + 1), so q_m · k_n ≈ Σᵢ cos((m − n − 1)ωᵢ). "
        "The learned table is sinusoid + noise with M rows and a hard boundary.\n"
        "- **ALiBi**: the head slopes m_h do it; **T5**: the bucket bias table favours offset −1 (head 0) and 0 (head 1).\n"
        "- **NoPE**: the positional heads have nothing to read and attend almost uniformly."),
    "lab.compare": "3 · Correct vs chosen attention",
    "lab.compare.note": (
        "Rows are queries, columns keys. Correct attention is placed into the padded grid "
        "(a real query gives 0 to pads); pad query rows are blank because they are not real tokens. "
        "Both attention maps share one colour scale; the difference is chosen − correct on a "
        "diverging scale centred at 0."),
    "lab.fig.correct": "correct (alone, unpadded)",
    "lab.fig.chosen": "chosen (padded batch)",
    "lab.fig.diff": "chosen − correct",
    "lab.fig.key": "key",
    "lab.fig.query": "query",
    "lab.fig.prob": "A",
    "lab.fig.delta": "ΔA",
    "lab.err.title": "Per-token output error max |O_chosen − O_correct| (real tokens)",
    "lab.err.y": "max |ΔO| (log)",
    "lab.err.harmless": "{v:.0e}: float rounding (harmless)",
    "lab.err.harmful": "{v:.0e}: clearly wrong",
    "lab.metric": "max error over real tokens",
    "lab.verdict.harmless": "harmless: identical up to float rounding",
    "lab.verdict.harmful": "harmful: the real tokens get different outputs",
    "lab.verdict.small": "small but real difference",
    "lab.tensors": "4 · Print the three tensors (“Same words, different order…” §12 step 2)",
    "lab.tensors.note": (
        "Token ids, valid mask and position ids are three different contracts: check each one; "
        "never infer from equal shapes that the meaning is equal."),
    "lab.tensors.correct": "Correct: each sentence alone",
    "lab.tensors.chosen": "Chosen: the padded batch",
    "lab.t.token": "token",
    "lab.t.id": "token id",
    "lab.t.mask": "valid mask",
    "lab.t.pos": "position id",
    "lab.name.a": "A",
    "lab.name.b": "B",
    "lab.effects": "What the chosen switches do",
    "lab.effect.mask": (
        "**Position ids from the mask** — clamp(cumsum(mask) − 1, 0): every sentence's first real "
        "token is 0, pads get 0 only to keep the index legal and are hidden by the mask. This is the "
        "reference contract: the error should be at float-rounding level."),
    "lab.effect.arange": (
        "**Shared arange(L)** — every row gets 0..L−1. With **right** padding the real tokens still get "
        "0..n−1: harmless. With **left** padding the short sentence starts at k (its number of pads): "
        "sinusoidal and learned see other position vectors — harmful; RoPE, ALiBi and T5 only use "
        "pᵢ − pⱼ, so a uniform shift of all real tokens is harmless as long as the pads are masked; NoPE "
        "ignores positions. Training with right padding and serving with left padding breaks absolute methods."),
    "lab.effect.token_ids": (
        "**Token ids as positions** — a repeated word repeats its 'position' and order disappears: "
        "“ML” gets the same position in both sentences wherever it stands. Harmful for every method "
        "that uses positions; NoPE is unaffected (it has none). Large ids can even fall off a learned table."),
    "lab.effect.zeros": (
        "**All positions 0** — every token sits at the same place: absolute methods add one constant "
        "vector, RoPE rotates nothing, ALiBi/T5 see distance 0 everywhere. The model is back to a bag "
        "of words (harmful), except NoPE, which never had positions."),
    "lab.effect.modulo": (
        "**Learned table, modulo M** — when the sequence outgrows the table of M rows, p ↦ p mod M "
        "runs without an error but far positions silently reuse near rows. Harmless while every "
        "position < M (then p mod M = p); set M below the sentence length to see it bite. A correct "
        "learned table raises instead (the hard boundary)."),
    "lab.effect.no_position": (
        "**No position at all** (only token embeddings) — attention still runs, but it has no order: "
        "the positional heads lose their diagonal. Harmful for every method except NoPE, which is exactly this."),
    "lab.effect.rotate_q_only": (
        "**Rotate only Q** — (R(m)q)ᵀk = qᵀR(−m)k depends on the query's absolute position, not on "
        "n − m: the shift identity fails, the previous-token head is lost, and the shifted short sentence differs."),
    "lab.effect.rotate_v": (
        "**Rotate V too** — scores are unchanged, but the retrieved content is rotated into each key's "
        "own frame: outputs change although the attention map does not. A different design, not standard RoPE."),
    "lab.effect.rope_on_hidden": (
        "**RoPE once on the hidden state** — rotating X before the projections does not give "
        "R(m)q · R(n)k: W_Q, W_K scramble the pairs, so the score no longer depends on n − m "
        "alone, and the constant positional queries are not rotated at all."),
    "lab.effect.pads_unmasked": (
        "**Pads not masked** — the short sentence's real tokens also attend to pad keys, so their "
        "outputs mix in pad values (look at the pad columns). Harmful for every method, including NoPE; "
        "the longer sentence has no pads and is unaffected. A position id of 0 does not make a pad invisible."),
    "lab.effect.layout_mismatch": (
        "**Layout mismatch** — weights built for one pairing ((0,1),(2,3),… interleaved, or (i, i+d/2) half) "
        "rotated with the other: each head still gets *a* rotation, but of the wrong pairs, so the "
        "structured previous-token head is lost. Checkpoints cannot be mixed across layouts."),
    "lab.effect.low_precision": (
        "**Low-precision angles at a large position** — every position is shifted by {offset} and "
        "p·θᵢ is computed in {dtype}. {dtype} keeps {bits} significant bits: from {first:g} on, neighbouring "
        "numbers it can store are **{spacing:g} apart**. {stored}"),
    "lab.lowp.collapse": (
        "The real tokens' positions {lo:g}…{hi:g} are stored as **{values}**: tokens that stood apart now share "
        "one angle, and the fastest pair's angle p·θ₀ = p rad (θ₀ = 1) jumps in steps of {spacing:g} rad — "
        "its phase is noise. In float32 the same offset only costs about {f32:.1e} (RoPE is shift invariant)."),
    "lab.lowp.exact": (
        "The positions {lo:g}…{hi:g} themselves are still exact, but the angle p·θ₀ = p rad of the fastest pair "
        "is stored to the nearest {spacing:g} rad, and θᵢ and the product are rounded too: a phase error. "
        "In float32 the same offset only costs about {f32:.1e} (RoPE is shift invariant)."),
    "lab.summary": "5 · Which encoding is hurt by which bug?",
    "lab.summary.teaser": (
        "Every encoding under every position-id scheme and every bug at once: which ones break, and which shrug."),
    "w.lab_matrix": "Open the matrix: every encoding under every setup, on this batch",
    "lab.summary.md": (
        "Each cell runs the padded batch with one scheme or one bug (with ids from the mask) for one "
        "method and reports the largest output error max |ΔO| over real tokens vs the sentences run alone "
        "(log colour). One run of the layer per cell, done again whenever the batch or a size above changes."),
    "lab.summary.note": (
        "The honest zeros matter as much as the failures: a uniform shift of RoPE/ALiBi/T5 "
        "with pads masked, shared arange with right padding, NoPE under any position-id bug, "
        "modulo while the table is long enough. Grey = not applicable (a RoPE-only bug); "
        "“no row” = a sentence is longer than the learned table of M rows, which raises instead of wrapping. "
        "The outlined cell is your current choice."),
    "lab.summary.title.schemes": "Position-id schemes · max |ΔO|",
    "lab.summary.title.bugs": "Bugs (ids from the mask) · max |ΔO|",
    "lab.summary.na": "n/a",
    "lab.summary.oor": "no row",
    "lab.col.mask": "ids from mask ✓",
    "lab.col.arange": "shared arange",
    "lab.col.token_ids": "token ids",
    "lab.col.zeros": "all zeros",
    "lab.col.modulo": "p mod M",
    "lab.col.no_position": "no position",
    "lab.col.rotate_q_only": "rotate Q only",
    "lab.col.rotate_v": "rotate V too",
    "lab.col.rope_on_hidden": "RoPE on hidden",
    "lab.col.pads_unmasked": "pads unmasked",
    "lab.col.layout_mismatch": "layout mismatch",
    "lab.col.low_precision": "low-precision angles",
    "lab.row.nope": "NoPE",
    "lab.row.sinusoidal": "sinusoidal",
    "lab.row.learned": "learned",
    "lab.row.rope.interleaved": "RoPE interleaved",
    "lab.row.rope.half": "RoPE half",
    "lab.row.alibi": "ALiBi",
    "lab.row.t5": "T5 bias",
    "lab.explain.note": "One layer, no training: the formula of the forward pass and the code of the whole experiment.",
    "lab.summary.explain": "Each cell: max over real tokens of max over channels of |O_setup − O_alone|.",
    "lab.pads.loss": (
        "Making a pad harmless takes two things, and its position id 0 is neither: the attention mask must forbid "
        "it as a **key**, and the loss must **ignore its label** (e.g. label −100 in `cross_entropy`)."),
    "lab.loss": "7 · Pad labels in the loss",
    "lab.loss.teaser": (
        "Pads masked as keys: is the loss now the sentence's own? Only if the pad labels are ignored as well."),
    "w.lab_pads": "Open pad labels in the loss: the loss against the number of pads",
    "lab.loss.md": (
        "Masking pads as keys is half the job: the loss must also ignore their labels (“Same words, different "
        "order…” §11). The layer above becomes a next-token model (its output read through the token embedding, "
        "with the causal mask: a next-token loss must not see the answer), sentence A is padded with k pads on the "
        "side chosen above, and each position's label is the next token. With `ignore_index = −100` on every label "
        "that is a pad or is read off a pad, the loss is the sentence's own; without it, the pads are scored like "
        "words."),
    "w.lab_ignore": "Pad labels set to ignore_index (−100)",
    "lab.fig.loss.title": "Next-token loss of sentence A against the number of pads",
    "lab.fig.loss.x": "pads added",
    "lab.fig.loss.y": "cross-entropy (nats)",
    "lab.fig.loss.ignored": "pad labels ignored (−100)",
    "lab.fig.loss.kept": "pad labels kept",
    "lab.fig.loss.now": "k = {k}",
    "lab.loss.ignored.flat": (
        "With {k} pads {side} the loss is {now}, as with none ({base}): ignored, the pad labels drop out of the "
        "mean, and with the pads masked as keys and positions from the mask nothing else changes."),
    "lab.loss.ignored.moves": (
        "With {k} pads {side} the loss is {now}, with none {base}: it moves ({lo}–{hi}) although the pad labels "
        "are ignored — the pads still reach the words here."),
    "lab.loss.kept.moves": (
        "With {k} pads {side} the loss is {now}, with none {base}: between {lo} and {hi} as the pads are added, "
        "though the sentence is the same. The pads' labels are scored like words."),
    "lab.loss.kept.flat": "With {k} pads {side} the loss is {now}, as with none ({base}).",
    "lab.loss.col.token": "token",
    "lab.loss.col.label": "label (next token)",
    "lab.loss.side.left": "on the left",
    "lab.loss.side.right": "on the right",
    "lab.pack": "6 · Packing and concatenation: which coordinate does each segment get?",
    "lab.pack.md": (
        "Instead of padding, training pipelines often **pack** several documents into one row; retrieval "
        "concatenates passages; sliding windows cut a long text. Position ids then need an explicit contract, and "
        "a shared `arange(L)` silently picks one of them:\n\n"
        "- **global**: one continuous coordinate over the whole row (B continues after A);\n"
        "- **reset**: every segment restarts at 0;\n"
        "- **source**: every segment keeps its coordinates in its source document (B was cut out at some offset).\n\n"
        "There is no single right answer. What matters is that training, the KV cache, the attention mask (may B "
        "attend to A?) and the serving code all use **the same** contract. RoPE, ALiBi and T5 only feel the offsets "
        "*within* a segment, which are the same in all three columns; absolute methods see different vectors; "
        "and any attention *across* segments sees different distances."),
    "lab.pack.col.token": "token",
    "lab.pack.col.segment": "segment",
    "lab.pack.col.global": "global",
    "lab.pack.col.reset": "reset",
    "lab.pack.col.source": "source",
    "lab.pack.off": "Sentence B was cut out of its source document at position {o}.",
    "lab.pack.live": (
        "**Run it.** The packed row goes through the toy layer (the method and model above, causal) and every token is "
        "compared with its document run *alone*, positions from the model's first id. Choose the ids the pipeline feeds, "
        "the mask, and how many context-parallel ranks share the row."),
    "lab.pack.col.fed": "ids fed to the model",
    "lab.pack.col.rank": "rank",
    "lab.pack.ids.reset": "**Ids restart per document**: each document sees exactly the positions it would alone.",
    "lab.pack.ids.global": "**Ids run on over the row**: B starts where A ends. Relative methods (RoPE, ALiBi, T5) only feel offsets inside a document and do not notice; absolute ones (sinusoidal, learned) read other position vectors — or rows beyond the learned table.",
    "lab.pack.ids.source": "**Source coordinates**: B keeps its offset in its source document. Same story as running on: harmless for relative methods, other vectors (or no row) for absolute ones.",
    "lab.pack.ids.from0": "**0-based ids on a model that counts from 2**: RoBERTa-like models (RoBERTa, XLM-R, ESM, …) number real tokens from padding_idx + 1 = 2; a flattening collator that restarts at 0 (transformers' DataCollatorWithFlattening by default) shifts every token two rows down its learned table, silently. Relative methods do not notice a uniform shift; absolute ones do.",
    "lab.pack.mask.block": "**Block-diagonal causal mask**: a query sees the earlier tokens of its own document only (flash-attention's varlen kernels get it from `cu_seqlens`; transformers builds it when the ids restart).",
    "lab.pack.mask.causal": "**One causal mask over the whole row**: B's queries also see A's keys — the documents leak into each other, whatever the method, NoPE included. Restarting the ids does not hide a key: only the mask does.",
    "lab.pack.cp.sliced": "**{r} context-parallel ranks, ids sliced from the row**: each rank rotates its shard with the ids its tokens have in the row and gathers the others' keys and values — the same numbers as one device.",
    "lab.pack.cp.restart": "**{r} context-parallel ranks, each restarting at 0**: a rank that numbers its own shard 0, 1, … gives its tokens positions they do not have; every score between them and the rest changes (RoPE, T5, ALiBi and absolute methods alike; NoPE has nothing to get wrong).",
    "lab.pack.oor": "A position this setup needs ({hi}) has no row in the learned table of M = {m} rows: the model refuses instead of wrapping — the hard boundary. Raise M or change the ids.",
    "lab.pack.metric": "max error over the packed tokens",
    "lab.pack.fig.correct": "each document alone",
    "lab.pack.fig.chosen": "packed row (chosen)",
    "lab.pack.maps.note": "Correct: each document run alone, placed on the block diagonal (nothing between documents). The head is the one chosen in section 3.",
    "lab.pack.err.title": "Per-token error of the packed row vs each document alone",
    "lab.pack.setup.0": "reset + block ✓",
    "lab.pack.setup.1": "run on + block",
    "lab.pack.setup.2": "source + block",
    "lab.pack.setup.3": "reset + causal",
    "lab.pack.setup.4": "run on + causal",
    "lab.pack.setup.5": "from 0, model from 2",
    "lab.pack.setup.6": "2 ranks restart",
    "w.lab_pack_all": "Every method under every packing setup",
    "lab.pack.summary.title": "Packing setups · max |ΔO| of any token vs its document alone",
    "lab.pack.summary.note": (
        "Each cell packs A and B for one method and one setup (causal) and reports the largest output error of any "
        "token against its document run alone (log colour). Restarting ids with a block-diagonal mask is exact for "
        "every method; a mask over the whole row leaks for every method; ids that run on, source coordinates and "
        "0-based ids hurt only the absolute methods (“no row”: beyond the learned table); ranks that restart at 0 "
        "hurt everything that uses positions. The outlined cell is your current choice."),
    "w.lab_pack_ids": "Position ids of the packed row",
    "w.lab_pack_ids.help": "What the packing pipeline feeds the model. The table above shows each contract.",
    "w.lab_pack_ids.reset": "restart per document ✓",
    "w.lab_pack_ids.global": "run on over the row",
    "w.lab_pack_ids.source": "keep source coordinates",
    "w.lab_pack_ids.from0": "restart at 0, model counts from 2",
    "w.lab_pack_mask": "Attention mask",
    "w.lab_pack_mask.help": "Block-diagonal causal: each document sees only itself. One causal mask: documents see earlier documents.",
    "w.lab_pack_mask.block": "block-diagonal causal ✓",
    "w.lab_pack_mask.causal": "one causal mask",
    "w.lab_pack_ranks": "Context-parallel ranks",
    "w.lab_pack_ranks.help": "The row is split into contiguous shards, one per rank; each rank gathers the others' keys and values.",
    "w.lab_pack_restart": "Each rank restarts its ids at 0",
    "w.lab_pack_restart.help": "The bug: a rank computes arange(len(shard)) instead of slicing the row's position ids.",
    # widgets
    "w.lab_a": "Sentence A",
    "w.lab_a.help": "Words are split at spaces; Chinese/Japanese/Korean text one character per token. At most 64 tokens, 500 characters, 50 characters per word.",
    "w.lab_b": "Sentence B",
    "w.lab_b.help": "Give it a different length from A so that one of them is padded.",
    "w.lab_side": "Padding side",
    "w.lab_side.left": "left (decoder serving)",
    "w.lab_side.right": "right (typical training)",
    "w.lab_method": "Position method",
    "w.lab_method.nope": "NoPE (none)",
    "w.lab_method.sinusoidal": "sinusoidal (added to input)",
    "w.lab_method.learned": "learned absolute (table)",
    "w.lab_method.rope": "RoPE (rotate Q, K)",
    "w.lab_method.alibi": "ALiBi (linear bias)",
    "w.lab_method.t5": "T5 (bucket bias)",
    "w.lab_layout": "RoPE pairing",
    "w.lab_layout.interleaved": "interleaved (0,1),(2,3),…",
    "w.lab_layout.half": "half (i, i+d/2)",
    "w.lab_heads": "Heads H",
    "w.lab_dim": "Head dim d",
    "w.lab_causal": "Causal mask",
    "w.lab_causal.help": "Queries see only keys at or before them (decoder). T5 then uses its causal buckets.",
    "w.lab_maxlen": "Learned table rows M",
    "w.lab_maxlen.help": "max_length of the learned absolute table; also the M of the p mod M scheme.",
    "w.lab_scheme": "Position-id scheme",
    "w.lab_scheme.mask": "from the mask ✓ (cumsum − 1)",
    "w.lab_scheme.arange": "shared arange(L)",
    "w.lab_scheme.token_ids": "token ids as positions",
    "w.lab_scheme.zeros": "all zeros",
    "w.lab_scheme.modulo": "learned table modulo (p mod M)",
    "w.lab_nopos": "No position at all",
    "w.lab_qonly": "Rotate only Q (RoPE only)",
    "w.lab_rotv": "Rotate V too (RoPE only)",
    "w.lab_hidden": "RoPE once on the hidden state (RoPE only)",
    "w.lab_unmasked": "Pad keys not masked",
    "w.lab_layoutbug": "Layout mismatch: weights vs rotation (RoPE only)",
    "w.lab_lowp": "Low-precision angles at a large position (RoPE only)",
    "w.lab_dtype": "Angle dtype",
    "w.lab_dtype.bfloat16": "bfloat16",
    "w.lab_dtype.float16": "float16",
    "w.lab_offset": "Position offset",
    "w.lab_row": "Show sentence",
    "w.lab_row.0": "A",
    "w.lab_row.1": "B",
    "w.lab_head": "Head",
    "w.lab_head.0": "0 · previous token",
    "w.lab_head.1": "1 · nearby",
    "w.lab_head.2": "2 · content",
    "w.lab_head.3": "3 · content",
    "w.lab_tensors": "Show the three tensors of both setups",
    "w.lab_pack": "Pack A and B into one row",
    "w.lab_pack.help": "Show the position ids of the packed row A + B under the three contracts.",
    "w.lab_pack_off": "Offset of B in its source document",
    "w.lab_pack_off.help": "Used by the 'source' contract: B's first token keeps this coordinate.",
    # scenes
    "lab.scene.right": "Padding done right",
    "lab.scene.right.say": "Left padding, ids from the mask, pads masked: the padded batch reproduces each sentence run alone (the only error left is float rounding).",
    "lab.scene.arange": "Shared arange, left padding",
    "lab.scene.arange.say": "Sinusoidal: the short sentence A now starts at its number of pads (position 2 with the default sentences) and its outputs change. Look at the summary: RoPE, ALiBi and T5 shrug — a uniform shift is harmless for them.",
    "lab.scene.tokid": "Token ids as positions",
    "lab.scene.tokid.say": "Sentence B's positions are now its token ids (4, 5, 2, 3, 6 with the default sentences): the words it shares with A keep A's ids, the order is gone, and RoPE's previous-token head breaks.",
    "lab.scene.qonly": "Rotate only Q",
    "lab.scene.qonly.say": "Without rotating K the score depends on the absolute query position: the previous-token diagonal fades.",
    "lab.scene.pads": "Pads not masked",
    "lab.scene.pads.say": "The short sentence's real tokens pour attention into the pad columns (red in the difference).",
    "lab.scene.lowp": "bfloat16 angles at 8192",
    "lab.scene.pack_leak": "Packed: ids restart, the mask does not",
    "lab.scene.pack_leak.say": "A and B packed into one row, ids restarting per document, but one causal mask over the whole row: B's queries see A's keys and B's outputs are off by up to 0.77 (A, first in the row, is untouched). In the summary's \"reset + causal\" column every method leaks, NoPE included (0.61). Two columns on, 0-based ids on a model that counts from 2 hurt only the absolute methods: sinusoidal 0.75, learned 1.15; RoPE, ALiBi and T5 do not notice a uniform shift.",
    "lab.scene.pack_cp": "Context parallelism: a rank restarts at 0",
    "lab.scene.pack_cp.say": "The same packed row on 2 context-parallel ranks (block mask, ids restarting per document). Rank 1 holds B's last 4 tokens and numbers them 0…3 instead of 1…4: their errors reach 0.57, while every token on rank 0 is exact. Slicing the row's ids (switch the restart off) gives the numbers of one device.",
    "lab.scene.lowp.say": "From 8192 on, bfloat16 stores only every 64th number: every position from 8192 to 8223 becomes 8192, so all tokens of a short sentence share one angle and RoPE loses their order. float32 angles at the same offset are fine (see the effect box).",
    # errors of posviz.pe.position_ids, posviz.lab.tokens and posviz.lab.toy_model
    "err.lab.integer_tensor": "{name} must hold integers (or booleans), got dtype {got}",
    "err.lab.binary": "{name} must contain only 0 and 1",
    "err.lab.needs": "{name} must be given for scheme '{scheme}'",
    "err.lab.same_shape": "{names} must have the same shape [N,L], got {shapes}",
    "err.lab.one_per_segment": "{name} must give one offset per segment ({n} segments) for contract 'source'",
    "err.lab.int_list": "{name} must be a list of 1 to {hi} positive integers, got {got}",
    "err.lab.not_text": "{name} must be text, got {got}",
    "err.lab.too_long": "{name} is too long: {got} characters, at most {hi} allowed",
    "err.lab.empty": "{name} is empty: type at least one word",
    "err.lab.long_word": "{name} has a word of {got} characters, at most {hi} allowed per word",
    "err.lab.too_many_tokens": "{name} has too many tokens: {got}, at most {hi} allowed",
    "err.lab.sentences": "{name} must be a list of 1 to {hi} sentences",
    "err.lab.unknown_token": "{name} has no id for the token {got}",
    "err.lab.position_span": "{name} must span at most {hi} positions, got {got}",
    "err.lab.permutation": "{name} must use exactly the same tokens as {other}, in another order (a permutation of it)",
}

ZH = {
    "lab.title": "注意力实验室：故意把位置弄坏",
    "lab.intro": (
        "两句长度不同的句子组成一个 padding 后的 batch，经过一层玩具注意力。"
        "**正确**指每句话*单独*运行、不做 padding、position id 为 0..n−1；"
        "**所选**是 padding 后的 batch，采用你选的 padding 方向、position id 方案和 bug。"
        "只要 padding 与位置处理正确，batch 中真实 token 的输出应与正确结果完全一致；"
        "下面每个 bug 要么改变结果（并显示改在哪里），要么——如实地说——并不改变。"),
    "lab.sources": (
        "bug 与调试路径：《词相同但顺序不同，注意力怎样辨别位置？从正弦编码到 RoPE》 §11–§13。方法：Vaswani 等 2017（正弦）、Su 等 2021（RoPE, arXiv:2104.09864）、"
        "Press 等 2021（ALiBi, arXiv:2108.12409）、Raffel 等 2020（T5 偏置）、Haviv 等 2022（NoPE, arXiv:2203.16634）。"),
    "lab.default_a": "我爱ML",
    "lab.default_b": "你也爱ML吗",
    "lab.setup": "1 · batch 与模型",
    "lab.bugs": "2 · position id 与 bug",
    "lab.bugs.rope_only": "标注“仅 RoPE”的开关只在方法为 RoPE 时起作用。",
    "lab.weights.title": "玩具模型的权重是什么？",
    "lab.weights": (
        "没有任何训练。权重由固定随机种子生成，再**刻意构造成让位置明显影响注意力**，"
        "类似训练后常见的注意力头：\n\n"
        "- **头 0 · 看前一个词**，**头 1 · 看自己/邻近词**，头 2–3 · 看内容"
        "（随机 W_Q、W_K，只跟随词本身）。\n"
        "- **RoPE**：位置头的 Query 是常向量 u，Key 是 R(1)u，于是 "
        "(R(m)u)ᵀ R(n) R(1)u = Σᵢ |uᵢ|² cos((n + 1 − m)θᵢ)，在 n = m − 1 处最大；"
        "u 的能量集中在高频维度对上。\n"
        "- **正弦 / 学习式**：位置头读取 X 的前 d 维（词向量在这些维度上很小，相当于一条“位置通道”），"
        "W_K 对每一维度对施加旋转 T(ωᵢ)，满足 T·PE(n) = PE(n + 1)，于是 "
        "q_m · k_n ≈ Σᵢ cos((m − n − 1)ωᵢ)。学习式位置表取“正弦 + 噪声”，共 M 行，越界即报错。\n"
        "- **ALiBi**：靠每个头的斜率 m_h；**T5**：分桶偏置表偏好位移 −1（头 0）和 0（头 1）。\n"
        "- **NoPE**：位置头无位置可读，注意力几乎均匀。"),
    "lab.compare": "3 · 正确与所选的注意力",
    "lab.compare.note": (
        "行是 Query，列是 Key。正确的注意力被放进 padding 后的网格（真实 Query 给 pad 的权重为 0）；"
        "pad 对应的 Query 行留白，因为它们不是真实 token。两张注意力图共用一个色标；"
        "差值为“所选 − 正确”，用以 0 为中心的发散色标。"),
    "lab.fig.correct": "正确（单独、不做 padding）",
    "lab.fig.chosen": "所选（padding 后的 batch）",
    "lab.fig.diff": "所选 − 正确",
    "lab.fig.key": "Key",
    "lab.fig.query": "Query",
    "lab.fig.prob": "A",
    "lab.fig.delta": "ΔA",
    "lab.err.title": "每个真实 token 的输出误差 max |O_所选 − O_正确|",
    "lab.err.y": "max |ΔO|（对数）",
    "lab.err.harmless": "{v:.0e}：浮点舍入（无害）",
    "lab.err.harmful": "{v:.0e}：明显出错",
    "lab.metric": "真实 token 上的最大误差",
    "lab.verdict.harmless": "无害：仅有浮点舍入差异",
    "lab.verdict.harmful": "有害：真实 token 的输出变了",
    "lab.verdict.small": "差异小但真实存在",
    "lab.tensors": "4 · 打印三份张量（《词相同但顺序不同…》§12 第 2 步）",
    "lab.tensors.note": "token ids、有效 mask、position ids 是三份不同的契约：逐一检查，不要从形状相同推断语义相同。",
    "lab.tensors.correct": "正确：每句单独运行",
    "lab.tensors.chosen": "所选：padding 后的 batch",
    "lab.t.token": "token",
    "lab.t.id": "token id",
    "lab.t.mask": "有效 mask",
    "lab.t.pos": "position id",
    "lab.name.a": "A",
    "lab.name.b": "B",
    "lab.effects": "所选开关的作用",
    "lab.effect.mask": (
        "**由 mask 生成 position id**——clamp(cumsum(mask) − 1, 0)：每句第一个真实 token 的位置都是 0；"
        "pad 的位置暂设 0 只为避免非法索引，真正让它失效的是 mask。这是参照契约，误差应只在浮点舍入量级。"),
    "lab.effect.arange": (
        "**共享 arange(L)**——每行都用 0..L−1。**右** padding 时真实 token 仍是 0..n−1：无害。"
        "**左** padding 时短句从 k（它的 pad 数）开始：正弦与学习式位置看到另一组位置向量——有害；"
        "RoPE、ALiBi、T5 只用 pᵢ − pⱼ，只要 pad 被屏蔽，真实 token 的整体平移无害；NoPE 不用位置。"
        "训练右 padding、推理左 padding，会弄坏绝对位置方法。"),
    "lab.effect.token_ids": (
        "**把 token id 当位置**——重复的词得到重复的“位置”，顺序消失：无论站在哪里，“ML”在两句中的位置都一样。"
        "对所有使用位置的方法都有害；NoPE 不受影响（它本来就没有位置）。较大的 id 甚至会超出学习式位置表。"),
    "lab.effect.zeros": (
        "**位置全为 0**——所有 token 站在同一处：绝对位置只加了同一个常向量，RoPE 什么都不转，ALiBi/T5 处处看到距离 0。"
        "模型退回词袋（有害）；NoPE 例外，它本来就没有位置。"),
    "lab.effect.modulo": (
        "**学习式位置表取模 M**——序列长度超过 M 行的表时，p ↦ p mod M 不报错，但远处位置悄悄复用近处的行。"
        "只要所有位置 < M 就无害（此时 p mod M = p）；把 M 调到句长以下就能看到它出错。正确的学习式位置表会直接报错（硬边界）。"),
    "lab.effect.no_position": (
        "**完全不加位置**（只有 token embedding）——注意力照样能算，但没有顺序：位置头失去对角线。"
        "除 NoPE（它本就如此）外，对所有方法都有害。"),
    "lab.effect.rotate_q_only": (
        "**只旋转 Q**——(R(m)q)ᵀk = qᵀR(−m)k 取决于 Query 的绝对位置，而不是 n − m："
        "平移恒等式失效，看前一个词的头失效，平移后的短句结果也不同。"),
    "lab.effect.rotate_v": (
        "**连 V 一起旋转**——分数不变，但取回的内容被转进了各个 Key 自己的坐标系："
        "注意力图不变，输出却变了。这是另一种设计，不是标准 RoPE。"),
    "lab.effect.rope_on_hidden": (
        "**只在 hidden 上旋转一次**——先旋转 X 再投影，得不到 R(m)q · R(n)k："
        "W_Q、W_K 会打乱维度对，分数不再只依赖 n − m，常向量的位置 Query 更是完全没被旋转。"),
    "lab.effect.pads_unmasked": (
        "**pad 没有被屏蔽**——短句的真实 token 也去关注 pad Key，输出混入 pad 的 value（看 pad 所在的列）。"
        "对所有方法都有害，包括 NoPE；较长的句子没有 pad，不受影响。pad 的 position id 设为 0 并不能让它不可见。"),
    "lab.effect.layout_mismatch": (
        "**布局不匹配**——权重按一种配对构造（交错配对 (0,1),(2,3),… 或前后半配对 (i, i+d/2)），却用另一种配对旋转："
        "每个头仍然做了“某种”旋转，但转错了维度对，构造好的“看前一个词”的头因此失效。不同布局的权重不能混用。"),
    "lab.effect.low_precision": (
        "**在大位置上用低精度算角度**——所有位置都加上偏移量 {offset}，p·θᵢ 用 {dtype} 计算。"
        "{dtype} 只有 {bits} 个有效二进制位：从 {first:g} 起，它能存下的相邻数相差 **{spacing:g}**。{stored}"),
    "lab.lowp.collapse": (
        "真实 token 的位置 {lo:g}…{hi:g} 被存成 **{values}**：原本分开的 token 现在共用同一个角度；"
        "最快一对维度的角度 p·θ₀ = p 弧度（θ₀ = 1）以 {spacing:g} 弧度为一步跳动——它的相位成了噪声。"
        "同样的偏移用 float32 计算只带来约 {f32:.1e} 的误差（RoPE 对平移不变）。"),
    "lab.lowp.exact": (
        "位置 {lo:g}…{hi:g} 本身仍然精确，但最快一对维度的角度 p·θ₀ = p 弧度只能存到最接近的 {spacing:g} 弧度，"
        "θᵢ 与乘积也被舍入：相位有误差。同样的偏移用 float32 计算只带来约 {f32:.1e} 的误差（RoPE 对平移不变）。"),
    "lab.summary": "5 · 哪种编码会被哪个 bug 伤到？",
    "lab.summary.teaser": "每种编码在每种 position id 方案、每个 bug 下的结果一览：哪些会坏，哪些不受影响。",
    "w.lab_matrix": "展开矩阵：每种编码在每种设置下，作用于这个 batch",
    "lab.summary.md": (
        "每个格子对一种方法、用一种 position id 方案或一个 bug（其余 position id 由 mask 生成）运行 padding 后的 batch，"
        "报告真实 token 上相对“单句单独运行”的最大输出误差 max |ΔO|（对数色标）。每个格子运行一次这一层，"
        "batch 或上面的任一尺寸改变时重新计算。"),
    "lab.summary.note": (
        "如实的“零”与失败同样重要："
        "pad 被屏蔽时 RoPE/ALiBi/T5 的整体平移、右 padding 时的共享 arange、任何 position id bug 下的 NoPE、"
        "表足够长时的取模。灰色“—”= 不适用（仅 RoPE 的 bug）；"
        "“越界”= 句子比 M 行的学习式位置表更长，此时直接报错而不是取模。描边的格子是你当前的选择。"),
    "lab.summary.title.schemes": "position id 方案 · max |ΔO|",
    "lab.summary.title.bugs": "bug（position id 由 mask 生成）· max |ΔO|",
    "lab.summary.na": "—",
    "lab.summary.oor": "越界",
    "lab.col.mask": "由 mask 生成 ✓",
    "lab.col.arange": "共享 arange",
    "lab.col.token_ids": "token id 当位置",
    "lab.col.zeros": "全为 0",
    "lab.col.modulo": "p mod M",
    "lab.col.no_position": "不加位置",
    "lab.col.rotate_q_only": "只转 Q",
    "lab.col.rotate_v": "连 V 一起转",
    "lab.col.rope_on_hidden": "在 hidden 上转",
    "lab.col.pads_unmasked": "pad 未屏蔽",
    "lab.col.layout_mismatch": "布局不匹配",
    "lab.col.low_precision": "低精度角度",
    "lab.row.nope": "NoPE",
    "lab.row.sinusoidal": "正弦",
    "lab.row.learned": "学习式",
    "lab.row.rope.interleaved": "RoPE 交错配对",
    "lab.row.rope.half": "RoPE 前后半配对",
    "lab.row.alibi": "ALiBi",
    "lab.row.t5": "T5 偏置",
    "lab.explain.note": "单层、无训练：前向计算的公式与整个实验的代码。",
    "lab.summary.explain": "每个格子：真实 token 上、各通道上 |O_设置 − O_单独| 的最大值。",
    "lab.pads.loss": (
        "让 pad 无害需要两件事，而它的 position id 设为 0 哪件都不是：attention mask 必须禁止它作为 **Key**，"
        "损失也必须**忽略它的标签**（例如在 `cross_entropy` 里把标签设为 −100）。"),
    "lab.loss": "7 · 损失里的 padding 标签",
    "lab.loss.teaser": "padding 已作为 Key 屏蔽：损失就只属于句子本身了吗？只有 padding 的标签也被忽略时才是。",
    "w.lab_pads": "展开损失里的 padding 标签：损失随 padding 数的变化",
    "lab.loss.md": (
        "把 padding 作为 Key 屏蔽掉只做了一半：损失还必须忽略它们的标签（《词相同但顺序不同…》§11）。上面这一层在这里当作下一个 token "
        "的预测模型（输出经 token embedding 读出，并带因果掩码：下一个 token 的损失不能看到答案），句子 A 在上面选定的一侧补 k 个 "
        "padding，每个位置的标签是下一个 token。凡是标签是 padding、或由 padding 位置来预测的，都设为 `ignore_index = −100`，"
        "损失就只属于句子本身；不这样做，padding 就会像词一样被计分。"),
    "w.lab_ignore": "padding 标签设为 ignore_index（−100）",
    "lab.fig.loss.title": "句子 A 的下一个 token 损失与 padding 数",
    "lab.fig.loss.x": "补的 padding 数",
    "lab.fig.loss.y": "交叉熵（nats）",
    "lab.fig.loss.ignored": "忽略 padding 标签（−100）",
    "lab.fig.loss.kept": "保留 padding 标签",
    "lab.fig.loss.now": "k = {k}",
    "lab.loss.ignored.flat": (
        "{side}补 {k} 个 padding 时损失为 {now}，与不补时（{base}）相同：被忽略的 padding 标签不进入平均，"
        "padding 又作为 Key 被屏蔽、位置由掩码得出，其余什么都没变。"),
    "lab.loss.ignored.moves": (
        "{side}补 {k} 个 padding 时损失为 {now}，不补时为 {base}：虽然忽略了 padding 标签，损失仍在变（{lo}–{hi}）"
        "——这里 padding 仍然影响到了词。"),
    "lab.loss.kept.moves": (
        "{side}补 {k} 个 padding 时损失为 {now}，不补时为 {base}：句子没变，损失却随 padding 数在 {lo} 到 {hi} 之间变化。"
        "padding 的标签像词一样被计了分。"),
    "lab.loss.kept.flat": "{side}补 {k} 个 padding 时损失为 {now}，与不补时（{base}）相同。",
    "lab.loss.col.token": "token",
    "lab.loss.col.label": "标签（下一个 token）",
    "lab.loss.side.left": "在左侧",
    "lab.loss.side.right": "在右侧",
    "lab.pack": "6 · 打包与拼接：每一段拿到什么坐标？",
    "lab.pack.md": (
        "训练流水线常常不做 padding，而是把多篇文档**打包**进同一行；检索会把多个片段拼接起来；滑动窗口会把长文切成几段。"
        "这时 position id 必须有一份明确的契约，而共享的 `arange(L)` 会悄悄替你选定其中一种：\n\n"
        "- **全局连续**：整行一条连续坐标（B 紧接在 A 之后）；\n"
        "- **每段重置**：每一段都从 0 重新开始；\n"
        "- **保留原文坐标**：每一段保留它在原文档中的坐标（B 是从某个偏移处截出来的）。\n\n"
        "没有唯一正确的答案。要紧的是训练、KV Cache、attention mask（B 能不能看到 A？）和推理服务用的是**同一份**契约。"
        "RoPE、ALiBi、T5 只感受到段*内*的位移，而它在三列里完全相同；绝对位置方法看到的则是不同的向量；"
        "任何*跨段*的注意力看到的距离也都不同。"),
    "lab.pack.col.token": "token",
    "lab.pack.col.segment": "段",
    "lab.pack.col.global": "全局连续",
    "lab.pack.col.reset": "每段重置",
    "lab.pack.col.source": "保留原文坐标",
    "lab.pack.off": "句子 B 是从原文档的位置 {o} 处截出来的。",
    "lab.pack.live": (
        "**动手试。** 打包后的一行经过玩具注意力层（上面选的方法和模型，因果），每个 token 都与它所在文档*单独*运行的结果比较，"
        "位置从模型自己的第一个 id 开始。选择流水线喂给模型的 id、mask，以及这一行由几个上下文并行（context parallel）rank 分担。"),
    "lab.pack.col.fed": "喂给模型的 id",
    "lab.pack.col.rank": "rank",
    "lab.pack.ids.reset": "**每段重置**：每篇文档看到的位置与它单独运行时完全相同。",
    "lab.pack.ids.global": "**全局连续**：B 接着 A 往下数。相对方法（RoPE、ALiBi、T5）只感受到文档内的位移，察觉不到；绝对方法（正弦、可学习）读到的是别的位置向量——或者可学习表之外的行。",
    "lab.pack.ids.source": "**保留原文坐标**：B 保留它在原文档中的偏移。与全局连续同理：对相对方法无害，绝对方法读到别的向量（或没有这一行）。",
    "lab.pack.ids.from0": "**从 0 开始的 id，模型却从 2 数起**：类 RoBERTa 模型（RoBERTa、XLM-R、ESM……）从 padding_idx + 1 = 2 开始给真实 token 编号；从 0 重置的展平 collator（transformers 的 DataCollatorWithFlattening 默认如此）让每个 token 在可学习表里悄悄下移两行。相对方法察觉不到整体平移；绝对方法会受影响。",
    "lab.pack.mask.block": "**块对角因果掩码**：Query 只看到本文档中更早的 token（flash-attention 的 varlen 内核从 `cu_seqlens` 得到它；id 重置时 transformers 会自动构造它）。",
    "lab.pack.mask.causal": "**整行一个因果掩码**：B 的 Query 也看得到 A 的 Key——文档互相泄漏，无论哪种方法，NoPE 也不例外。重置 id 并不能遮住 Key，只有 mask 能。",
    "lab.pack.cp.sliced": "**{r} 个上下文并行 rank，id 从整行切片**：每个 rank 用自己那段 token 在整行中的 id 旋转，再收集其他 rank 的 Key 和 Value——与单卡的数值相同。",
    "lab.pack.cp.restart": "**{r} 个上下文并行 rank，各自从 0 开始**：把自己那段编号为 0、1、……的 rank 给了 token 并不属于它们的位置；它们与其余 token 之间的每个分数都变了（RoPE、T5、ALiBi 与绝对方法都一样；NoPE 没有可错的位置）。",
    "lab.pack.oor": "这种设置需要的位置（{hi}）在 M = {m} 行的学习式位置表中没有对应的行：模型拒绝计算而不是回绕——这就是硬边界。增大 M 或换一种 id。",
    "lab.pack.metric": "打包 token 上的最大误差",
    "lab.pack.fig.correct": "每篇文档单独运行",
    "lab.pack.fig.chosen": "打包后的一行（所选）",
    "lab.pack.maps.note": "正确结果：每篇文档单独运行，放在块对角线上（文档之间为 0）。所示的头即第 3 节中选的头。",
    "lab.pack.err.title": "打包后每个 token 与其文档单独运行的误差",
    "lab.pack.setup.0": "每段重置 + 块对角 ✓",
    "lab.pack.setup.1": "全局连续 + 块对角",
    "lab.pack.setup.2": "原文坐标 + 块对角",
    "lab.pack.setup.3": "每段重置 + 因果",
    "lab.pack.setup.4": "全局连续 + 因果",
    "lab.pack.setup.5": "从 0 起，模型从 2 起",
    "lab.pack.setup.6": "2 个 rank 各自重置",
    "w.lab_pack_all": "每种方法在每种打包设置下",
    "lab.pack.summary.title": "打包设置 · 任一 token 与其文档单独运行的 max |ΔO|",
    "lab.pack.summary.note": (
        "每个格子对一种方法、一种设置把 A 和 B 打包（因果），报告任一 token 与其文档单独运行相比的最大输出误差（对数着色）。"
        "每段重置配块对角因果掩码对每种方法都精确；整行一个因果掩码对每种方法都泄漏；全局连续、原文坐标和从 0 开始的 id 只伤害绝对方法"
        "（“越界”：超出学习式位置表）；从 0 重置的 rank 伤害所有用到位置的方法。描边的格子是你当前的选择。"),
    "w.lab_pack_ids": "打包行的 position id",
    "w.lab_pack_ids.help": "打包流水线喂给模型的 id。上表列出了每种契约。",
    "w.lab_pack_ids.reset": "每段重置 ✓",
    "w.lab_pack_ids.global": "全局连续",
    "w.lab_pack_ids.source": "保留原文坐标",
    "w.lab_pack_ids.from0": "从 0 重置，模型从 2 数起",
    "w.lab_pack_mask": "attention mask",
    "w.lab_pack_mask.help": "块对角因果：每篇文档只看自己。整行一个因果掩码：文档能看到前面的文档。",
    "w.lab_pack_mask.block": "块对角因果 ✓",
    "w.lab_pack_mask.causal": "整行一个因果掩码",
    "w.lab_pack_ranks": "上下文并行 rank 数",
    "w.lab_pack_ranks.help": "这一行被切成连续的几段，每个 rank 一段；每个 rank 收集其他 rank 的 Key 和 Value。",
    "w.lab_pack_restart": "每个 rank 的 id 从 0 开始",
    "w.lab_pack_restart.help": "错误写法：rank 计算 arange(len(shard))，而不是从整行的 position id 中切片。",
    "w.lab_a": "句子 A",
    "w.lab_a.help": "按空格分词；中日韩文字每个字一个 token。最多 64 个 token、500 个字符，每个词最多 50 个字符。",
    "w.lab_b": "句子 B",
    "w.lab_b.help": "长度与 A 不同，其中一句才会被加上 padding。",
    "w.lab_side": "padding 方向",
    "w.lab_side.left": "左（decoder 推理）",
    "w.lab_side.right": "右（常见于训练）",
    "w.lab_method": "位置方法",
    "w.lab_method.nope": "NoPE（无）",
    "w.lab_method.sinusoidal": "正弦（加到输入）",
    "w.lab_method.learned": "学习式绝对位置（查表）",
    "w.lab_method.rope": "RoPE（旋转 Q、K）",
    "w.lab_method.alibi": "ALiBi（线性偏置）",
    "w.lab_method.t5": "T5（分桶偏置）",
    "w.lab_layout": "RoPE 配对方式",
    "w.lab_layout.interleaved": "交错配对 (0,1),(2,3),…",
    "w.lab_layout.half": "前后半配对 (i, i+d/2)",
    "w.lab_heads": "头数 H",
    "w.lab_dim": "每头维度 d",
    "w.lab_causal": "因果掩码",
    "w.lab_causal.help": "Query 只能看到自己及之前的 Key（decoder）。此时 T5 使用单向分桶。",
    "w.lab_maxlen": "学习式位置表行数 M",
    "w.lab_maxlen.help": "学习式绝对位置表的 max_length；也是 p mod M 方案中的 M。",
    "w.lab_scheme": "position id 方案",
    "w.lab_scheme.mask": "由 mask 生成 ✓（cumsum − 1）",
    "w.lab_scheme.arange": "共享 arange(L)",
    "w.lab_scheme.token_ids": "把 token id 当位置",
    "w.lab_scheme.zeros": "全为 0",
    "w.lab_scheme.modulo": "学习式位置表取模（p mod M）",
    "w.lab_nopos": "完全不加位置",
    "w.lab_qonly": "只旋转 Q（仅 RoPE）",
    "w.lab_rotv": "连 V 一起旋转（仅 RoPE）",
    "w.lab_hidden": "只在 hidden 上旋转一次（仅 RoPE）",
    "w.lab_unmasked": "pad Key 未被屏蔽",
    "w.lab_layoutbug": "权重与旋转的布局不匹配（仅 RoPE）",
    "w.lab_lowp": "在大位置上用低精度算角度（仅 RoPE）",
    "w.lab_dtype": "角度精度",
    "w.lab_dtype.bfloat16": "bfloat16",
    "w.lab_dtype.float16": "float16",
    "w.lab_offset": "位置偏移量",
    "w.lab_row": "显示句子",
    "w.lab_row.0": "A",
    "w.lab_row.1": "B",
    "w.lab_head": "注意力头",
    "w.lab_head.0": "0 · 前一个词",
    "w.lab_head.1": "1 · 邻近",
    "w.lab_head.2": "2 · 内容",
    "w.lab_head.3": "3 · 内容",
    "w.lab_tensors": "显示两种设置的三份张量",
    "w.lab_pack": "把 A 和 B 打包进同一行",
    "w.lab_pack.help": "显示打包后的一行 A + B 在三种契约下的 position id。",
    "w.lab_pack_off": "B 在原文档中的偏移",
    "w.lab_pack_off.help": "供“保留原文坐标”契约使用：B 的第一个 token 保留这个坐标。",
    "lab.scene.right": "正确的 padding",
    "lab.scene.right.say": "左 padding、由 mask 生成 position id、pad 被屏蔽：padding 后的 batch 复现了每句单独运行的结果（剩下的误差只是浮点舍入）。",
    "lab.scene.arange": "共享 arange，左 padding",
    "lab.scene.arange.say": "正弦位置：短句 A 现在从它的 pad 数开始（默认句子下是位置 2），输出随之改变。看总结矩阵：RoPE、ALiBi、T5 不受影响——整体平移对它们无害。",
    "lab.scene.tokid": "把 token id 当位置",
    "lab.scene.tokid.say": "句子 B 的位置现在就是它的 token id（默认句子下为 4, 5, 2, 3, 6）：与 A 共有的词沿用 A 的 id，顺序消失，RoPE 看前一个词的头坏掉了。",
    "lab.scene.qonly": "只旋转 Q",
    "lab.scene.qonly.say": "不旋转 K，分数就依赖 Query 的绝对位置：看前一个词的对角线变淡了。",
    "lab.scene.pads": "pad 未被屏蔽",
    "lab.scene.pads.say": "短句的真实 token 把注意力倒进 pad 列（差值图中的红色）。",
    "lab.scene.lowp": "8192 处的 bfloat16 角度",
    "lab.scene.pack_leak": "打包：id 重置了，mask 却没有",
    "lab.scene.pack_leak.say": "A 和 B 打包进同一行，id 每段重置，但整行只有一个因果掩码：B 的 Query 看到了 A 的 Key，B 的输出最多偏离 0.77（A 在行首，不受影响）。汇总图“每段重置 + 因果”一列中每种方法都泄漏，NoPE 也不例外（0.61）。再往右两列，从 0 开始的 id 配上从 2 数起的模型，只伤害绝对方法：正弦 0.75，可学习 1.15；RoPE、ALiBi 和 T5 察觉不到整体平移。",
    "lab.scene.pack_cp": "上下文并行：某个 rank 从 0 开始",
    "lab.scene.pack_cp.say": "同一打包行放在 2 个上下文并行 rank 上（块对角因果掩码，id 每段重置）。rank 1 持有 B 的最后 4 个 token，却把它们编号为 0…3 而不是 1…4：它们的误差达到 0.57，而 rank 0 上的每个 token 都精确。改为从整行切片 id（关掉重置）就得到单卡的数值。",
    "lab.scene.lowp.say": "从 8192 起，bfloat16 只能存下每隔 64 的数：8192 到 8223 的每个位置都变成 8192，短句的所有 token 共用同一个角度，RoPE 失去了它们的顺序。同样偏移用 float32 计算则没问题（见“所选开关的作用”）。",
    # errors of posviz.pe.position_ids, posviz.lab.tokens and posviz.lab.toy_model
    "err.lab.integer_tensor": "{name} 必须是整数（或布尔）张量，收到的 dtype 是 {got}",
    "err.lab.binary": "{name} 只能包含 0 和 1",
    "err.lab.needs": "方案 '{scheme}' 需要给出 {name}",
    "err.lab.same_shape": "{names} 的形状必须相同 [N,L]，收到的是 {shapes}",
    "err.lab.one_per_segment": "契约 'source' 要求 {name} 为每一段给出一个偏移（共 {n} 段）",
    "err.lab.int_list": "{name} 必须是 1 到 {hi} 个正整数组成的列表，收到的是 {got}",
    "err.lab.not_text": "{name} 必须是文本，收到的是 {got}",
    "err.lab.too_long": "{name} 太长：{got} 个字符，最多允许 {hi} 个",
    "err.lab.empty": "{name} 为空：请至少输入一个词",
    "err.lab.long_word": "{name} 中有一个词长 {got} 个字符，每个词最多 {hi} 个字符",
    "err.lab.too_many_tokens": "{name} 的 token 太多：{got} 个，最多允许 {hi} 个",
    "err.lab.sentences": "{name} 必须是 1 到 {hi} 个句子组成的列表",
    "err.lab.unknown_token": "{name} 中没有 token {got} 的 id",
    "err.lab.position_span": "{name} 最多只能跨越 {hi} 个位置，收到的跨度是 {got}",
    "err.lab.permutation": "{name} 必须与 {other} 使用完全相同的 token，只是顺序不同（即它的一个排列）",
}
