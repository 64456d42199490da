"""Strings of positions in today's serving (issue 37): keys evicted from the middle of a KV cache and a tree of
speculative drafts on the KV cache page, RoPE's angles in low precision on the lab page; and the error messages of
posviz.lab.eviction and posviz.lab.speculative."""

EN = {
    # ---------------------------------------------------------------- 6 · evicted caches (/kv-cache)
    "kv_cache.evict.title": "Keys evicted from the middle (H2O, SnapKV): keep the positions or renumber?",
    "kv_cache.evict.teaser": (
        "Cache compression drops keys from the middle of the prompt. The keys that stay were rotated at their original "
        "positions: keep them there, re-rotate them to consecutive slots, or — the bug — let the new token count the "
        "shorter cache?"),
    "w.kv_evict": "Open evicted caches: three position contracts against the full forward",
    "kv_cache.evict.md": (
        "A prompt of P tokens is prefilled, then a set E of its tokens is dropped from the cache (H2O: those with the "
        "least accumulated attention; SnapKV: those an observation window reads least; here also a plain span), and "
        "decoding goes on. RoPE's scores only see the offset between the query's position and each key's, so what "
        "matters is which positions the two sides use:\n\n"
        "- **keep**: every kept key keeps the position it was rotated by, and token t is at position t. The scores "
        "are exactly those of the full forward with E masked out — what dropping E costs, nothing more.\n"
        "- **renumber**: the kept keys are re-rotated to their new slots 0 … C − 1 and token t gets t − |E|. Keys "
        "before the gap now look |E| tokens closer than they are: a second error on top of the eviction's.\n"
        "- **cache_count** (a bug): the keys keep their positions but the new token takes its position from the "
        "cache's length (t − |E|), as a generate loop that counts the cache does. Query and keys count differently.\n\n"
        "Random q, k, v of two heads of width 16, float32; 16 decode steps after the prompt."),
    "w.kv_ev_P": "Prompt length P",
    "w.kv_ev_P.help": "Tokens prefilled before the eviction; 16 are decoded after it.",
    "w.kv_ev_start": "Evict from token",
    "w.kv_ev_start.help": "The first evicted token of the span (the span policy); clamped inside the prompt.",
    "w.kv_ev_count": "Tokens evicted |E|",
    "w.kv_ev_count.help": "How many prompt tokens are dropped; the prompt's last token always stays.",
    "w.kv_ev_policy": "Which tokens",
    "w.kv_ev_policy.help": "A span from the chosen token, or H2O's choice: the lowest accumulated prefill attention.",
    "w.kv_ev_policy.span": "a span",
    "w.kv_ev_policy.h2o": "H2O: least attended",
    "kv_cache.evict.mode.keep": "keep the positions",
    "kv_cache.evict.mode.renumber": "renumber (re-rotate)",
    "kv_cache.evict.mode.cache_count": "bug: query counts the cache",
    "kv_cache.evict.vs_full": "max error vs the full forward",
    "kv_cache.evict.vs_keep": "max error vs E masked (positions alone)",
    "kv_cache.fig.evict.title": "What the positions add: max |decode − full forward with E masked|",
    "kv_cache.fig.evict.itself": "the eviction itself: keep vs the full forward",
    "kv_cache.fig.evict.prompt": "prompt",
    "kv_cache.fig.evict.pos": "Positions the last decode step (token {t}) used",
    "kv_cache.evict.said.span": (
        "{n} of the {P} prompt tokens are evicted (tokens {a} … {last}), {cache} stay. The table's first column "
        "is each contract against the full forward; the second (and the figure), against the full forward with the "
        "same keys masked: **keep** is 0 there (the eviction is all its error, {keep:.2e} at most: the grey line), "
        "**renumber** adds up to {renumber:.2e} and the **cache-count bug** {cache_count:.2e}. At the last step the query of token {t} "
        "sits at position {q_keep} when positions are kept and at {q_moved} otherwise (the positions figure: the kept "
        "keys' positions against their slot)."),
    "kv_cache.evict.said.h2o": (
        "{n} of the {P} prompt tokens are evicted (those H2O scores lowest: {which}), {cache} stay. The table's first "
        "column "
        "is each contract against the full forward; the second (and the figure), against the full forward with the "
        "same keys masked: **keep** is 0 there (the eviction is all its error, {keep:.2e} at most: the grey line), "
        "**renumber** adds up to {renumber:.2e} and the **cache-count bug** {cache_count:.2e}. At the last step the query of token {t} "
        "sits at position {q_keep} when positions are kept and at {q_moved} otherwise (the positions figure: the kept "
        "keys' positions against their slot)."),
    "kv_cache.evict.said.none": (
        "Nothing is evicted ({P} prompt tokens, {cache} stay): every contract computes the full forward, to "
        "{keep:.1e} — renumbering 0 … C − 1 is then the original numbering."),
    "kv_cache.evict.stacks": (
        "**Which stacks do which.** Keep the original positions: SnapKV's reference code (keys compressed after RoPE, "
        "its `kv_seq_len` keeps counting the full length), kvpress's presses (its pipeline passes position ids from the "
        "original context length). Renumber: StreamingLLM (positions within the cache), H2O's llama-recipes "
        "implementation (\"positional rolling\"), kvpress's `KeyRerotationPress` (re-rotates the kept keys and continues "
        "from the cache's length), transformers' former `SinkCache`. The cache-count bug is what a generate loop does "
        "when it derives the next position from the compressed cache's length while the keys keep theirs — the reason "
        "SnapKV and kvpress track the original length themselves."),
    # ---------------------------------------------------------------- 7 · speculative trees (/kv-cache)
    "kv_cache.tree.title": "A tree of drafts in one pass: shared position ids and the tree mask",
    "kv_cache.tree.teaser": (
        "Speculative decoding (Medusa, EAGLE, SpecInfer) checks a whole tree of guessed continuations in one forward "
        "pass. Siblings are alternatives for the same next token: they must share a position id, and must not see "
        "each other."),
    "w.kv_tree": "Open draft trees: position ids, the tree mask and their bugs",
    "kv_cache.tree.md": (
        "After a prefix of P cached tokens, the tree's root is the next token (position P); its children are "
        "alternative guesses for the token after it, their children for the one after that. The nodes are fed "
        "flattened, breadth first. One pass equals decoding each branch on its own only if\n\n"
        "- **position ids** follow the depth: a node at depth t is the (P + t)-th token of its branch, so siblings "
        "**share** P + t (Medusa's `medusa_position_ids`: the depth plus the prefix length);\n"
        "- **the tree mask** lets a node see the prefix, its ancestors and itself — never a sibling or a cousin.\n\n"
        "The bugs: **consecutive ids** P, P + 1, … in flattened order (as if the drafts were one sequence), and the "
        "plain **causal mask** over the flattened nodes. Each node's output is compared with its branch decoded the "
        "slow way (prefix, then root … node, one causal pass). Random q, k, v, two heads of width 16, float32."),
    "w.kv_tree_P": "Prefix length P",
    "w.kv_tree_P.help": "Tokens already in the cache before the tree.",
    "w.kv_tree_shape": "Tree (branching per depth)",
    "w.kv_tree_shape.help": "Children per node at each depth, e.g. 2 × 2: two guesses, two guesses after each.",
    "w.kv_tree_shape.2": "2 (3 nodes)",
    "w.kv_tree_shape.3": "3 (4 nodes)",
    "w.kv_tree_shape.2x2": "2 × 2 (7 nodes)",
    "w.kv_tree_shape.3x2": "3 × 2 (10 nodes)",
    "w.kv_tree_shape.2x2x2": "2 × 2 × 2 (15 nodes)",
    "w.kv_tree_shape.4x2x1": "4 × 2 × 1 (21 nodes)",
    "w.kv_tree_setup": "Mask and ids shown",
    "w.kv_tree_setup.help": "The setup the mask figure and the node labels show; the error figure shows all three.",
    "w.kv_tree_setup.correct": "depth ids + tree mask",
    "w.kv_tree_setup.consecutive": "bug: consecutive ids",
    "w.kv_tree_setup.causal": "bug: causal mask",
    "kv_cache.fig.tree.x": "key (prefix p·, node n·p)",
    "kv_cache.fig.tree.y": "node (its index · position id)",
    "kv_cache.fig.tree.mask.correct": "Tree mask: prefix, ancestors, itself",
    "kv_cache.fig.tree.mask.consecutive": "Tree mask, ids P, P+1, … (bug)",
    "kv_cache.fig.tree.mask.causal": "Causal mask: siblings see each other",
    "kv_cache.fig.tree.errors": "Per-node max |tree pass − its branch decoded alone|",
    "kv_cache.fig.tree.node": "node (breadth first; 0 = root)",
    "kv_cache.tree.said": (
        "{N} nodes, depth {depth}, after a prefix of {P}. Depth ids with the tree mask equal every branch decoded alone "
        "(largest difference {max_ok:.1e}: float rounding). Consecutive ids get **{wrong_ids}** nodes wrong (the first "
        "is node {first_ids}: only the root and its first child have an index equal to their depth), up to {max_ids:.2e}; the causal mask gets {wrong_mask} wrong, up to {max_mask:.2e}."),
    "kv_cache.tree.stacks": (
        "**In real stacks.** Medusa builds `medusa_position_ids` from the depth and a tree attention mask from the "
        "ancestors; EAGLE's `tree_position_ids` and tree mask do the same; SpecInfer calls it a topology-aware causal "
        "mask. Transformers' assisted generation drafts one sequence, not a tree, so consecutive ids are right "
        "there: the bug appears when tree drafts are fed through a code path written for one sequence."),
    # ---------------------------------------------------------------- 8 · angles in low precision (/lab)
    "lab.angles.title": "8 · RoPE's angles in low precision, along the whole context",
    "lab.angles.teaser": (
        "The low-precision switch above rounds the angles at one offset. How large does the phase error get along "
        "positions 0 … offset, and why do real stacks compute m·θ in float32 and round only cos and sin?"),
    "w.lab_angles": "Open angles in low precision: phase error against the position",
    "lab.angles.md": (
        "The rotation of pair i at position m is the angle m·θ_i. **angle in low precision** (the bug): m, θ_i and "
        "their product are all rounded to the dtype chosen above (*Angle dtype*): bfloat16 keeps 8 significant bits, "
        "float16 11, so from a few hundred (bfloat16) or a few thousand (float16) tokens on the angle is rounded to "
        "steps of radians and the fast pairs' phase becomes noise — an error anywhere up to π. **float32 angles, cos "
        "and sin stored low**: what transformers' `LlamaRotaryEmbedding` (`position_ids.float() @ inv_freq.float()`, "
        "then `cos.to(x.dtype)`) and vLLM's `cos_sin_cache` (computed in float32, cast to the model's dtype) do: the "
        "values of cos and sin are off by one rounding, a phase error as small at position 30 000 as at 30 (on top of "
        "float32's own rounding of the angle). **float32** "
        "throughout, for reference. The lines: the largest error over the pairs of the head width chosen above "
        "(*Head dim d*), in blocks of positions up to the offset chosen above."),
    "lab.angles.x": "position m",
    "lab.angles.y": "largest |phase error| (rad)",
    "lab.angles.pi": "π: the phase is noise",
    "lab.angles.name.float32": "float32",
    "lab.angles.name.cos_sin_lowp": "float32 angle, cos/sin stored low",
    "lab.angles.name.angle_lowp": "angle in low precision (bug)",
    "lab.angles.fig": "Phase error of m·θᵢ, {dtype}, d = {d}, m = 0 … {m}",
    "lab.angles.said.noise": (
        "In {dtype}, the angle computed in low precision is off by more than 0.1 rad from position **{first}** on and "
        "by more than π/2 from **{half}** on (largest {lowp:.2f} rad): the fast pairs no longer tell neighbouring "
        "positions apart. Angles in float32 with cos and sin stored in {dtype} stay within {table:.1e} rad at every "
        "position; float32 throughout within {f32:.1e}."),
    "lab.angles.said.drift": (
        "In {dtype}, the angle computed in low precision is off by more than 0.1 rad from position **{first}** on, "
        "largest {lowp:.2f} rad within 0 … {m}: it grows with m and passes π/2 further on. Angles in float32 with cos "
        "and sin stored in {dtype} stay within {table:.1e} rad at every position; float32 throughout within {f32:.1e}."),
    "lab.angles.said.small": (
        "In {dtype}, within 0 … {m} the angle computed in low precision is off by at most {lowp:.2f} rad, and the error "
        "grows with m. Angles in float32 with cos and sin stored in {dtype} stay within "
        "{table:.1e} rad at every position; float32 throughout within {f32:.1e}."),
    "lab.angles.stacks": (
        "**Where real stacks keep it in float32.** transformers computes the angles as `position_ids.float() * "
        "inv_freq.float()` and casts only cos and sin (older versions wrapped this in `torch.autocast(..., "
        "enabled=False)`, commented \"Force float32\"); vLLM and SGLang build their `cos_sin_cache` in float32. The bug "
        "comes back when the `inv_freq` buffer or the position ids are cast with the model (`model.to(torch.bfloat16)`) "
        "or when the angle is computed under autocast."),
    # ---------------------------------------------------------------- scenes
    "kv_cache.scene.evict": "Evicted keys: keep their positions",
    "kv_cache.scene.evict.say": (
        "24 prompt tokens, tokens 8 … 13 evicted, 16 decoded. Keeping the positions equals the full forward with those "
        "6 keys masked (error 0 against it); renumbering puts the last query at 33 instead of 39, and every key "
        "before the gap 6 tokens closer: an error the eviction alone does not make."),
    "kv_cache.scene.tree": "Draft trees: consecutive ids",
    "kv_cache.scene.tree.say": (
        "A 2 × 2 tree (7 nodes) after 6 cached tokens, fed with ids 6, 7, 8, …: node 2 is a sibling of node 1 and must "
        "share its position 7, but gets 8. 5 of the 7 nodes differ from their branch decoded alone; with depth ids "
        "and the tree mask, none."),
    "lab.scene.angles": "Angles in bfloat16 along the context",
    "lab.scene.angles.say": (
        "The bfloat16 switch stays on (at 8192 the sentence's positions collapse), and the deep dive follows the angle "
        "along the whole context, head width 16: computed in bfloat16 it is off by more than 0.1 rad from position "
        "104 on and by more than π/2 from 514 on. Computed in float32 and only cos and sin stored in bfloat16, it "
        "stays under 0.003 rad."),
    # ---------------------------------------------------------------- errors
    "err.evict_scores": "the H2O policy needs the prompt's accumulated attention scores",
    "err.tree_depth": "a draft tree has 1 to 4 levels of branching, got {got}",
}

ZH = {
    # ---------------------------------------------------------------- 6 · evicted caches (/kv-cache)
    "kv_cache.evict.title": "从中间逐出 Key（H2O、SnapKV）：保留位置还是重新编号？",
    "kv_cache.evict.teaser": (
        "缓存压缩会从 prompt 中间丢掉一些 Key。留下的 Key 是按原位置旋转的：让它们留在原位，把它们重新旋转到连续的槽位，"
        "还是——这个 bug——让新 token 按变短的缓存来数位置？"),
    "w.kv_evict": "展开被逐出的缓存：三种位置约定与完整前向对比",
    "kv_cache.evict.md": (
        "先 prefill 一个 P 个 token 的 prompt，再从缓存中丢掉其中一组 token E（H2O：累计注意力最少的；SnapKV：观察窗口"
        "读得最少的；这里也可以是连续的一段），然后继续解码。RoPE 的打分只看 Query 的位置与每个 Key 的位置之差，"
        "所以关键在于两边各用什么位置：\n\n"
        "- **保留位置**：每个留下的 Key 保持它旋转时的位置，token t 在位置 t。打分恰好等于把 E 掩掉的完整前向——"
        "只付出丢掉 E 的代价，别无其他。\n"
        "- **重新编号**：留下的 Key 被重新旋转到新的槽位 0 … C − 1，token t 得到 t − |E|。空缺之前的 Key 现在看起来"
        "比实际近了 |E| 个 token：在逐出误差之上又多一个误差。\n"
        "- **按缓存长度计数**（bug）：Key 保持原位置，新 token 却按缓存长度（t − |E|）取位置，就像按缓存长度推算下一个"
        "位置的生成循环那样。Query 和 Key 的计数方式不一致。\n\n"
        "随机的 q、k、v，两个宽 16 的头，float32；prompt 之后解码 16 步。"),
    "w.kv_ev_P": "prompt 长度 P",
    "w.kv_ev_P.help": "逐出前 prefill 的 token 数；逐出后再解码 16 个。",
    "w.kv_ev_start": "从第几个 token 起逐出",
    "w.kv_ev_start.help": "连续一段中第一个被逐出的 token（“连续一段”策略）；会被限制在 prompt 之内。",
    "w.kv_ev_count": "逐出的 token 数 |E|",
    "w.kv_ev_count.help": "丢掉多少个 prompt token；prompt 的最后一个 token 总会保留。",
    "w.kv_ev_policy": "逐出哪些",
    "w.kv_ev_policy.help": "从所选 token 开始的一段，或者 H2O 的选择：prefill 时累计注意力最少的。",
    "w.kv_ev_policy.span": "连续一段",
    "w.kv_ev_policy.h2o": "H2O：最少被关注的",
    "kv_cache.evict.mode.keep": "保留位置",
    "kv_cache.evict.mode.renumber": "重新编号（重新旋转）",
    "kv_cache.evict.mode.cache_count": "bug：Query 按缓存长度计数",
    "kv_cache.evict.vs_full": "与完整前向的最大误差",
    "kv_cache.evict.vs_keep": "与掩掉 E 的最大误差（仅位置造成）",
    "kv_cache.fig.evict.title": "位置带来的误差：最大 |解码 − 掩掉 E 的完整前向|",
    "kv_cache.fig.evict.itself": "逐出本身：保留位置与完整前向之差",
    "kv_cache.fig.evict.prompt": "prompt",
    "kv_cache.fig.evict.pos": "最后一步解码（token {t}）使用的位置",
    "kv_cache.evict.said.span": (
        "{P} 个 prompt token 中逐出 {n} 个（token {a} … {last}），留下 {cache} 个。表格第一列是每种约定与完整前向"
        "的误差；第二列（以及图）是与掩掉同样 Key 的完整前向的误差：**保留位置**在那里为 0（误差全部来自逐出，最多 {keep:.2e}："
        "灰线），"
        "**重新编号**再加上最多 {renumber:.2e}，**按缓存长度计数的 bug** 加上 {cache_count:.2e}。最后一步中 token {t} 的 "
        "Query 在保留位置时位于 {q_keep}，否则位于 {q_moved}（位置图：留下的 Key 的位置随槽位的变化）。"),
    "kv_cache.evict.said.h2o": (
        "{P} 个 prompt token 中逐出 {n} 个（H2O 打分最低的：{which}），留下 {cache} 个。表格第一列是每种约定与完整前向"
        "的误差；第二列（以及图）是与掩掉同样 Key 的完整前向的误差：**保留位置**在那里为 0（误差全部来自逐出，最多 {keep:.2e}："
        "灰线），"
        "**重新编号**再加上最多 {renumber:.2e}，**按缓存长度计数的 bug** 加上 {cache_count:.2e}。最后一步中 token {t} 的 "
        "Query 在保留位置时位于 {q_keep}，否则位于 {q_moved}（位置图：留下的 Key 的位置随槽位的变化）。"),
    "kv_cache.evict.said.none": (
        "没有逐出任何 token（{P} 个 prompt token，留下 {cache} 个）：每种约定都在算完整前向，误差不超过 {keep:.1e}——"
        "此时重新编号 0 … C − 1 就是原来的编号。"),
    "kv_cache.evict.stacks": (
        "**哪些系统怎么做。** 保留原位置：SnapKV 的参考代码（Key 在 RoPE 之后被压缩，它的 `kv_seq_len` 继续按完整长度计数）、"
        "kvpress 的各种 press（它的 pipeline 从原上下文长度起传入 position id）。重新编号：StreamingLLM（缓存内的位置）、"
        "H2O 在 llama-recipes 中的实现（“positional rolling”）、kvpress 的 `KeyRerotationPress`（重新旋转留下的 Key，"
        "并从缓存长度接着数）、transformers 以前的 `SinkCache`。按缓存长度计数的 bug，就是生成循环在 Key 保持原位置时"
        "却按压缩后缓存的长度推算下一个位置——这正是 SnapKV 和 kvpress 要自己记录原长度的原因。"),
    # ---------------------------------------------------------------- 7 · speculative trees (/kv-cache)
    "kv_cache.tree.title": "一次前向验证一棵草稿树：共享的 position id 与树形掩码",
    "kv_cache.tree.teaser": (
        "投机解码（Medusa、EAGLE、SpecInfer）在一次前向中检查一整棵猜测出的续写树。兄弟节点是同一个下一 token 的"
        "不同候选：它们必须共享一个 position id，而且彼此不能看见。"),
    "w.kv_tree": "展开草稿树：position id、树形掩码及其 bug",
    "kv_cache.tree.md": (
        "在 P 个已缓存的前缀 token 之后，树根是下一个 token（位置 P）；它的子节点是再下一个 token 的不同猜测，"
        "子节点的子节点又是下一个的猜测。节点按广度优先展平后输入。一次前向等于逐条分支单独解码，当且仅当\n\n"
        "- **position id** 跟随深度：深度为 t 的节点是其分支的第 P + t 个 token，所以兄弟节点**共享** P + t"
        "（Medusa 的 `medusa_position_ids`：深度加上前缀长度）；\n"
        "- **树形掩码**只让节点看到前缀、它的祖先和它自己——绝不看到兄弟或堂兄弟。\n\n"
        "两个 bug：按展平顺序给出的**连续 id** P、P + 1、…（好像草稿是一条序列），以及展平节点上普通的**因果掩码**。"
        "每个节点的输出都与其分支的慢速解码（前缀，再从根到该节点，一次因果前向）对比。随机的 q、k、v，两个宽 16 的头，"
        "float32。"),
    "w.kv_tree_P": "前缀长度 P",
    "w.kv_tree_P.help": "树之前已在缓存中的 token 数。",
    "w.kv_tree_shape": "树（每层的分支数）",
    "w.kv_tree_shape.help": "每层每个节点的子节点数，例如 2 × 2：两个猜测，每个之后再两个猜测。",
    "w.kv_tree_shape.2": "2（3 个节点）",
    "w.kv_tree_shape.3": "3（4 个节点）",
    "w.kv_tree_shape.2x2": "2 × 2（7 个节点）",
    "w.kv_tree_shape.3x2": "3 × 2（10 个节点）",
    "w.kv_tree_shape.2x2x2": "2 × 2 × 2（15 个节点）",
    "w.kv_tree_shape.4x2x1": "4 × 2 × 1（21 个节点）",
    "w.kv_tree_setup": "显示的掩码与 id",
    "w.kv_tree_setup.help": "掩码图与节点标签所显示的设置；误差图显示全部三种。",
    "w.kv_tree_setup.correct": "按深度的 id + 树形掩码",
    "w.kv_tree_setup.consecutive": "bug：连续 id",
    "w.kv_tree_setup.causal": "bug：因果掩码",
    "kv_cache.fig.tree.x": "Key（前缀 p·，然后节点 n·p）",
    "kv_cache.fig.tree.y": "节点（序号 · position id）",
    "kv_cache.fig.tree.mask.correct": "树形掩码：前缀、祖先、自己",
    "kv_cache.fig.tree.mask.consecutive": "树形掩码，id 为 P、P+1、…（bug）",
    "kv_cache.fig.tree.mask.causal": "因果掩码：兄弟节点互相看见",
    "kv_cache.fig.tree.errors": "逐节点最大 |树前向 − 其分支单独解码|",
    "kv_cache.fig.tree.node": "节点（广度优先；0 = 根）",
    "kv_cache.tree.said": (
        "{N} 个节点，深度 {depth}，前缀长 {P}。按深度的 id 加树形掩码等于每条分支单独解码（最大差 {max_ok:.1e}：浮点舍入）。"
        "连续 id 让 **{wrong_ids}** 个节点出错（第一个是节点 {first_ids}：只有根和它的第一个子节点的序号恰好等于深度），最大 {max_ids:.2e}；因果掩码让 {wrong_mask} 个出错，最大 {max_mask:.2e}。"),
    "kv_cache.tree.stacks": (
        "**在真实系统中。** Medusa 由深度构造 `medusa_position_ids`，由祖先构造树形注意力掩码；EAGLE 的 "
        "`tree_position_ids` 与树形掩码做的是同一件事；SpecInfer 把它叫作拓扑感知的因果掩码。transformers 的辅助生成"
        "起草的是一条序列而不是一棵树，所以在那里连续 id 是对的：当树形草稿被送进为单条序列写的代码路径时，bug 就出现了。"),
    # ---------------------------------------------------------------- 8 · angles in low precision (/lab)
    "lab.angles.title": "8 · 低精度下的 RoPE 角度，贯穿整个上下文",
    "lab.angles.teaser": (
        "上面的低精度开关只在一个偏移量处对角度做舍入。沿着位置 0 … 偏移量，相位误差会变得多大？真实系统为什么用 float32 "
        "计算 m·θ，只对 cos 和 sin 做舍入？"),
    "w.lab_angles": "展开低精度角度：相位误差随位置的变化",
    "lab.angles.md": (
        "第 i 对维度在位置 m 的旋转角是 m·θ_i。**低精度计算角度**（bug）：m、θ_i 及其乘积都舍入到上面所选的 dtype"
        "（*角度精度*）：bfloat16 只有 8 个有效二进制位，float16 有 11 个，所以从几百（bfloat16）或几千（float16）个 token 起，"
        "角度被舍入成以弧度计的台阶，快速旋转的维度对的相位变成噪声——误差可以一直到 π。**float32 角度，cos 与 sin 以低精度存储**："
        "transformers 的 `LlamaRotaryEmbedding`（`position_ids.float() @ inv_freq.float()`，再 `cos.to(x.dtype)`）和 vLLM 的 "
        "`cos_sin_cache`（用 float32 计算，再转成模型的 dtype）就是这样做的：cos 和 sin 的值只差一次舍入，相位误差在位置 30 000 与在 30 一样小（另加 float32 对角度本身的舍入）。"
        "**全程 float32** 作为参照。曲线是上面所选头宽（*每头维度 d*）的所有维度对中的最大误差，按位置分块，一直到上面所选的偏移量。"),
    "lab.angles.x": "位置 m",
    "lab.angles.y": "最大 |相位误差|（弧度）",
    "lab.angles.pi": "π：相位已是噪声",
    "lab.angles.name.float32": "float32",
    "lab.angles.name.cos_sin_lowp": "float32 角度，cos/sin 低精度存储",
    "lab.angles.name.angle_lowp": "低精度计算角度（bug）",
    "lab.angles.fig": "m·θᵢ 的相位误差，{dtype}，d = {d}，m = 0 … {m}",
    "lab.angles.said.noise": (
        "在 {dtype} 中，低精度计算的角度从位置 **{first}** 起误差超过 0.1 弧度，从 **{half}** 起超过 π/2（最大 {lowp:.2f} 弧度）："
        "快速旋转的维度对已分不清相邻的位置。float32 计算角度、cos 与 sin 以 {dtype} 存储时，在每个位置都不超过 {table:.1e} 弧度；"
        "全程 float32 不超过 {f32:.1e}。"),
    "lab.angles.said.drift": (
        "在 {dtype} 中，低精度计算的角度从位置 **{first}** 起误差超过 0.1 弧度，在 0 … {m} 内最大 {lowp:.2f} 弧度："
        "它随 m 增长，更远处会超过 π/2。float32 计算角度、cos 与 sin 以 {dtype} 存储时，在每个位置都不超过 {table:.1e} 弧度；"
        "全程 float32 不超过 {f32:.1e}。"),
    "lab.angles.said.small": (
        "在 {dtype} 中，0 … {m} 内低精度计算的角度误差最多 {lowp:.2f} 弧度，而且随 m 增长。"
        "float32 计算角度、cos 与 sin 以 {dtype} 存储时，在每个位置都不超过 {table:.1e} 弧度；全程 float32 不超过 {f32:.1e}。"),
    "lab.angles.stacks": (
        "**真实系统在哪里坚持用 float32。** transformers 把角度算成 `position_ids.float() * inv_freq.float()`，只转换 cos "
        "和 sin（旧版本用 `torch.autocast(..., enabled=False)` 包起来，注释为 \"Force float32\"）；vLLM 和 SGLang 用 float32 "
        "构建 `cos_sin_cache`。当 `inv_freq` 缓冲区或 position id 随模型一起被转换（`model.to(torch.bfloat16)`），"
        "或者角度在 autocast 下计算时，这个 bug 就回来了。"),
    # ---------------------------------------------------------------- scenes
    "kv_cache.scene.evict": "被逐出的 Key：保留它们的位置",
    "kv_cache.scene.evict.say": (
        "24 个 prompt token，逐出 token 8 … 13，再解码 16 个。保留位置等于把这 6 个 Key 掩掉的完整前向（与它的误差为 0）；"
        "重新编号把最后一个 Query 放在 33 而不是 39，空缺之前的每个 Key 都近了 6 个 token：这是单靠逐出不会产生的误差。"),
    "kv_cache.scene.tree": "草稿树：连续 id",
    "kv_cache.scene.tree.say": (
        "6 个已缓存 token 之后的一棵 2 × 2 树（7 个节点），输入的 id 为 6、7、8、…：节点 2 是节点 1 的兄弟，应当共享"
        "它的位置 7，却得到了 8。7 个节点中有 5 个与其分支单独解码不同；用按深度的 id 加树形掩码，一个都不会错。"),
    "lab.scene.angles": "沿上下文的 bfloat16 角度",
    "lab.scene.angles.say": (
        "bfloat16 开关保持打开（在 8192 处句子的位置塌缩到一起），深入部分沿整个上下文追踪这个角度，头宽 16："
        "用 bfloat16 计算时，从位置 104 起误差超过 0.1 弧度，从 514 起超过 π/2。用 float32 计算、只把 cos 和 sin "
        "存成 bfloat16 时，误差始终低于 0.003 弧度。"),
    # ---------------------------------------------------------------- errors
    "err.evict_scores": "H2O 策略需要 prompt 的累计注意力分数",
    "err.tree_depth": "草稿树的分支层数为 1 到 4，收到的是 {got}",
}
