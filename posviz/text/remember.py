"""Text of the "What to remember" page (app_pages/remember.py): the six points of the first article's §16
and the closing of the second, in English and Chinese."""

EN = {
    "nav.remember": "What to remember",
    "remember.title": "What to remember",
    "remember.intro": (
        "Where a lecture ends: the six points that “Same words, different order…” §16 asks you to keep, and the "
        "closing of “Position encodings”. Every point links to the scenes that show it live — a link opens that "
        "page with the scene applied, in the current language."),
    "remember.sources": (
        "Sources: “Same words, different order: how does attention tell positions apart? From sinusoidal "
        "encodings to RoPE” §16 “What really needs remembering today?”, and the last section of “Position "
        "encodings”, “From ‘which position’ to ‘how far apart’: one problem left open”."),
    "remember.link": "Scene {n}: {title}",
    "remember.look": "What to look at:",

    "remember.s16.h": "Six points to remember",
    "remember.s16.source": "“Same words, different order…” §16",
    "remember.s16.1.title": "Attention alone sees a bag of words",
    "remember.s16.1.text": (
        "Self-attention by itself is **permutation-equivariant** over the tokens; a causal mask only restricts "
        "which edges are visible and cannot, on its own, express full position and distance."),
    "remember.s16.1.look": (
        "Reorder the sentence: with no position and no mask the difference panel is exactly 0; switch the mask on "
        "and it is not. NoPE learns a task from the mask alone, and still fails past its training length."),
    "remember.s16.2.title": "Absolute positions enter the hidden state",
    "remember.s16.2.text": (
        "Sinusoidal and learned absolute positions both enter the **hidden state** first and only then affect "
        "Q/K/V: the former is a fixed multi-frequency coordinate, the latter a parameter table of finite length."),
    "remember.s16.2.look": "Clock hands at different speeds; the learned table has no row for position 512.",
    "remember.s16.3.title": "RoPE: rotate by absolute position, score by relative offset",
    "remember.s16.3.text": (
        "RoPE rotates the Q and K of every layer and every head, pair by pair; R(p)ᵀR(s) = R(s − p) makes the "
        "attention dot product depend **explicitly on the relative offset**."),
    "remember.s16.3.look": "Shift query and key together: the score stays. Move only the key: the score changes.",
    "remember.s16.4.title": "RoPE touches only Q and K, right before the dot product",
    "remember.s16.4.text": (
        "RoPE usually does **not rotate V** and does not change the tensor shapes of scaled dot-product attention; "
        "it happens after the Q/K projection and before the dot product."),
    "remember.s16.4.look": (
        "The input is untouched and yet the order matters; the RoPE page steps through apply_rope and hands the "
        "rotated Q, K to SDPA; rotating Q without K breaks the relative structure."),
    "remember.s16.5.title": "A KV cache keeps global positions",
    "remember.s16.5.text": (
        "With a KV cache, new Q and K are rotated with their **global position ids**, and the cache stores past "
        "keys already rotated by their own positions."),
    "remember.s16.5.look": "Restarting at 0, rotating again, or rotating on read: every wrong mode jumps at the first decoded token.",
    "remember.s16.6.title": "Three contracts: token ids, padding mask, position ids",
    "remember.s16.6.text": (
        "Position ids, the padding mask and token ids are **three different contracts**; with left or right "
        "padding, concatenation and packing they must be defined explicitly."),
    "remember.s16.6.look": "Ids from the mask reproduce each sentence run alone; a shared arange (sinusoidal positions) or token ids as positions do not.",

    "remember.closing.h": "From “which position” to “how far apart”",
    "remember.closing.source": "“Position encodings”, closing section",
    "remember.closing.1.title": "Absolute: a coordinate for every position",
    "remember.closing.1.text": (
        "Position moves from “give each word a number” to “let attention sense how far apart words are”. "
        "Sinusoidal and learned encodings add position to the vectors as **absolute coordinates**."),
    "remember.closing.1.look": "A fingerprint per position; dot products that see only the offset but are no ruler; a wall at the training length.",
    "remember.closing.2.title": "Relative: encode the distance itself",
    "remember.closing.2.text": "Relative position encodings change the question and **encode the distance** directly.",
    "remember.closing.2.look": "Equal distances, equal colours; Shaw clips far distances, T5 puts them into ever wider buckets.",
    "remember.closing.3.title": "RoPE: one rotation, absolute in, relative out",
    "remember.closing.3.text": (
        "RoPE uses **one rotation** so that an absolute operation produces a relative effect — today the most "
        "common position scheme in open large models."),
    "remember.closing.3.look": "Each hand turns by its own position; the score only sees the angle between them.",
    "remember.closing.4.title": "Past the training length: distances and phases never seen",
    "remember.closing.4.text": (
        "Far beyond the training length the model meets relative distances that never occurred and **phase "
        "combinations** of its frequency pairs that never occurred together. The angles are not “too large” — "
        "the fast pairs have turned many times within training — it is these combinations that throw the "
        "attention scores off."),
    "remember.closing.4.look": "The slow pairs reach arcs never seen in training; far offsets whose fast phases repeat a near one draw extra stripes.",
    "remember.closing.5.title": "Remedies: squeeze positions or rescale frequencies — and keep training",
    "remember.closing.5.text": (
        "Position interpolation (PI) squeezes the position indices back into the trained range; NTK-aware scaling "
        "and YaRN rescale the frequency spectrum (YaRN band by band, plus a little attention scaling). They usually "
        "need a round of continued training: stretching the window to 128K and **using** those 128K well are two "
        "different things."),
    "remember.closing.5.look": "PI divides every pair, NTK-aware mostly the slow ones, YaRN keeps the fast pairs; on the tiny models, without fine-tuning.",
}

ZH = {
    "nav.remember": "需要记住什么",
    "remember.title": "需要记住什么",
    "remember.intro": (
        "讲课在这里收尾：《词相同但顺序不同…》§16 要求记住的六点，以及《位置编码》的结尾总结。每一点都链接到现场演示它的场景——"
        "点开链接，就以当前语言打开那一页，并应用该场景。"),
    "remember.sources": (
        "来源：《词相同但顺序不同，注意力怎样辨别位置？从正弦编码到 RoPE》§16“今天真正需要记住什么？”，"
        "以及《位置编码》的最后一节“从「第几个」到「隔多远」，还有一道没解的题”。"),
    "remember.link": "场景 {n}：{title}",
    "remember.look": "看什么：",

    "remember.s16.h": "需要记住的六点",
    "remember.s16.source": "《词相同但顺序不同…》§16",
    "remember.s16.1.title": "注意力本身只看见一袋词",
    "remember.s16.1.text": "自注意力本身对 token 排列**置换等变**；因果掩码只限制可见边，不能单独表达完整的位置与距离。",
    "remember.s16.1.look": (
        "重排句子：没有位置、没有掩码时，差值图恰好为 0；打开掩码就不再为 0。NoPE 只靠掩码也能学会任务，但超出训练长度照样失败。"),
    "remember.s16.2.title": "绝对位置先进入 hidden",
    "remember.s16.2.text": (
        "正弦与学习式绝对位置都先进入 **hidden**，再影响 Q/K/V；前者是固定的多频率坐标，后者是有限长度的参数表。"),
    "remember.s16.2.look": "转速不同的时钟指针；学习式位置表里没有位置 512 的行。",
    "remember.s16.3.title": "RoPE：按绝对位置旋转，按相对位移打分",
    "remember.s16.3.text": (
        "RoPE 对每层每头的 Q/K 成对旋转，利用 R(p)ᵀR(s) = R(s − p) 让注意力点积**显式依赖相对位移**。"),
    "remember.s16.3.look": "Query 与 Key 一起平移：分数不变。只移动 Key：分数改变。",
    "remember.s16.4.title": "RoPE 只动 Q 和 K，就在点积之前",
    "remember.s16.4.text": (
        "RoPE 通常**不旋转 Value**，也不改变 SDPA 的张量形状；它发生在 Q/K 投影之后、点积之前。"),
    "remember.s16.4.look": (
        "输入没变，顺序却起了作用；RoPE 页逐步演示 apply_rope，并把旋转后的 Q、K 交给 SDPA；只转 Q 不转 K，相对结构就被破坏。"),
    "remember.s16.5.title": "KV Cache 沿用全局位置",
    "remember.s16.5.text": (
        "KV Cache 必须用**全局 position id** 旋转新的 Q/K，并缓存已经按各自位置旋转过的历史 Key。"),
    "remember.s16.5.look": "从 0 重新开始、重复旋转、读取时才旋转：每种错误做法都在第一个解码 token 处跳变。",
    "remember.s16.6.title": "三份契约：token ids、padding 掩码、position ids",
    "remember.s16.6.text": (
        "position ids、padding 掩码与 token ids 是**三份不同的契约**；左右 padding、拼接和打包时必须显式定义。"),
    "remember.s16.6.look": "按掩码生成的位置能复现每句话单独运行的结果；共享 arange（正弦位置）、把 token id 当位置都不行。",

    "remember.closing.h": "从「第几个」到「隔多远」",
    "remember.closing.source": "《位置编码》结尾一节",
    "remember.closing.1.title": "绝对位置：给每个位置一个坐标",
    "remember.closing.1.text": (
        "对位置的理解，从“给每个词贴个序号”挪到了“让 attention 感知词与词之间的距离”。正弦波和学习式编码，"
        "把位置当作**绝对坐标**加进向量。"),
    "remember.closing.1.look": "每个位置一张指纹；点积只看位移却不是距离尺；训练长度处是一堵墙。",
    "remember.closing.2.title": "相对位置：直接编码距离",
    "remember.closing.2.text": "相对位置编码换了个问题，**直接去编码距离**。",
    "remember.closing.2.look": "距离相同，颜色相同；Shaw 截断远距离，T5 把远距离放进越来越宽的桶。",
    "remember.closing.3.title": "RoPE：一次旋转，绝对进、相对出",
    "remember.closing.3.text": (
        "RoPE 用**一次旋转**，让绝对的操作产出相对的效果——这也是今天开源大模型里最常见的位置方案。"),
    "remember.closing.3.look": "每根指针按自己的位置转动；分数只看两根指针之间的夹角。",
    "remember.closing.4.title": "超出训练长度：没见过的距离与相位",
    "remember.closing.4.text": (
        "推理长度远超训练长度时，模型会撞上从没出现过的相对距离，以及各频率对凑在一起、从没一起出现过的**相位组合**。"
        "问题不在“角度太大”——高频对在训练长度内早已转过好多圈；真正让 attention 分数跑偏的，是这些相位组合。"),
    "remember.closing.4.look": "慢频率对转到训练时从没见过的弧段；快频率相位与近处重合的远处位移，画出额外的条纹。",
    "remember.closing.5.title": "补救：压缩位置或缩放频率，再继续训练",
    "remember.closing.5.text": (
        "位置插值（PI）把位置索引线性压回训练见过的范围；NTK-aware 和 YaRN 则重新缩放频率谱（YaRN 还分频段处理，"
        "外加一点 attention 缩放）。这些手法通常还得配一轮继续训练：“把窗口撑到 128K”和“真的**用好**这 128K”是两码事。"),
    "remember.closing.5.look": "PI 把每一对都除以缩放倍数，NTK-aware 主要改慢频率对，YaRN 保留快频率对；小模型上不做微调的效果。",
}
