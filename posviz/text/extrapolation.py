"""Strings of the length-extrapolation page (pages/extrapolation.py), English and Chinese."""

# Formulas: the same LaTeX in both languages (used by the page directly, not through ui.t).
TEX = {
    "wave": r"\theta_i = b^{-2i/d},\qquad \lambda_i = \frac{2\pi}{\theta_i}"
                              r"\quad(\text{positions per full turn of pair } i)",
    "phase": r"\text{seen}_i = \min\!\Big(1,\frac{L_{\mathrm{train}}\,\theta_i}{2\pi}\Big),\qquad "
                               r"\text{needed}_i = \min\!\Big(1,\frac{L_{\mathrm{target}}\,\theta'_i}{2\pi}\Big),"
                               r"\qquad \text{never seen} \iff \text{needed}_i > \text{seen}_i",
    "pi": r"\text{PI: } \theta'_i = \theta_i / s \iff p \mapsto p/s,\qquad s = L_{\mathrm{target}}/L_{\mathrm{train}}",
    "ntk": r"\text{NTK-aware: } b' = b\,s^{d/(d-2)}\ \Rightarrow\ \theta'_0 = \theta_0,\ "
                             r"\theta'_{d/2-1} = \theta_{d/2-1}/s;\qquad \text{dynamic: } "
                             r"b' = b\,\big(sL/L_0-(s-1)\big)^{d/(d-2)},\ L=\max(L_{\mathrm{seq}},L_0)",
    "yarn": r"\text{YaRN: } i(\beta) = \frac{d\,\ln\!\big(L_0/(2\pi\beta)\big)}{2\ln b},\ "
                              r"r_i = \mathrm{clip}\Big(\frac{i-i(\beta_{\mathrm{fast}})}{i(\beta_{\mathrm{slow}})-i(\beta_{\mathrm{fast}})},0,1\Big),\ "
                              r"\theta'_i = (1-r_i)\,\theta_i + r_i\,\theta_i/s,\ \ a = 0.1\ln s + 1",
    "llama3": r"\text{Llama 3: } \theta'_i = \begin{cases}\theta_i & \lambda_i < L_0/\mathrm{high}\\"
                                r"\theta_i/s & \lambda_i > L_0/\mathrm{low}\\ (1-g)\,\theta_i/s + g\,\theta_i & \text{else},\ "
                                r"g = \frac{L_0/\lambda_i-\mathrm{low}}{\mathrm{high}-\mathrm{low}}\end{cases}",
    "ratio": r"\rho_i = \theta'_i/\theta_i:\quad \rho_i = 1\ \text{kept},\quad "
                               r"\rho_i = 1/s\ \text{fully interpolated},\quad 1/s<\rho_i<1\ \text{in between}",
    "score": r"q=k=(1,\dots,1):\quad \frac{(R_m q)^\top (R_{m+r} k)}{d} = "
                               r"a^2\,\frac{1}{d/2}\sum_{i=0}^{d/2-1}\cos(r\,\theta'_i)",
}

_PRESET_NAMES = {"llama2_7b": "Llama 2 7B", "mistral_7b": "Mistral 7B v0.1", "llama31_8b": "Llama 3.1 8B",
                 "qwen25_7b": "Qwen2.5 7B Instruct", "qwen25_7b_yarn": "Qwen2.5 7B Instruct + YaRN",
                 "deepseek_v3": "DeepSeek-V3"}

EN = {
    **{f"w.ext_preset.{k}": v for k, v in _PRESET_NAMES.items()},
    "extrapolation.title": "Length extrapolation: running RoPE past its training length",
    "extrapolation.intro": (
        "RoPE can compute an angle for any position, but a model was trained on distances 0…L_train only. "
        "Beyond that it meets relative distances — and, above all, *combinations of phases* across its "
        "frequency pairs — that it never saw. Pick a real model, its trained length and a target length: see "
        "which frequency pairs get into trouble, and how position interpolation (PI), NTK-aware scaling, "
        "dynamic NTK, YaRN and Llama 3's scaling change the frequencies to avoid it. The numbers equal what "
        "Hugging Face transformers computes for the same rope parameters."),
    "extrapolation.sources": (
        "Sources: Chen et al. 2023, Position Interpolation (arXiv:2306.15595); bloc97 2023, NTK-aware scaled "
        "RoPE; emozilla 2023, dynamic NTK scaling; Peng et al. 2023, YaRN (arXiv:2309.00071); Meta 2024, "
        "The Llama 3 Herd of Models (arXiv:2407.21783); transformers `modeling_rope_utils` "
        "(ROPE_INIT_FUNCTIONS); seed 001 “length extrapolation”; seed 000 §14, §15, §18."),
    # widgets
    "w.ext_preset": "Model",
    "w.ext_preset.help": "Published RoPE settings of real models (from their config.json), your own (custom), "
                         "or a config you paste below.",
    "w.ext_preset.custom": "Custom (choose d and base)",
    "w.ext_preset.pasted": "Pasted config.json",
    "w.ext_ltrain": "Trained length L_train",
    "w.ext_ltrain.help": "The context the model was trained on (original_max_position_embeddings for scaled models).",
    "w.ext_ltarget": "Target length L_target",
    "w.ext_ltarget.help": "The context you want to run at. The compared methods use the factor s = L_target / L_train.",
    "w.ext_method": "Method in focus",
    "w.ext_method.help": "The method drawn in the ratio, wavelength and phase figures. “Model's own” is the "
                         "model's rope_scaling exactly as configured.",
    "w.ext_method.model": "Model's own config",
    "w.ext_method.default": "No scaling",
    "w.ext_method.linear": "PI (linear)",
    "w.ext_method.ntk": "NTK-aware",
    "w.ext_method.dynamic": "Dynamic NTK",
    "w.ext_method.yarn": "YaRN",
    "w.ext_method.llama3": "Llama 3",
    "w.ext_head_dim": "Head dimension d",
    "w.ext_theta": "Base b (rope_theta)",
    "w.ext_paste": "Paste a config.json, or its rope_scaling / rope_parameters object",
    # metrics
    "extrapolation.metric.s": "s = L_target / L_train",
    "extrapolation.metric.never": "pairs with λ > L_train",
    "extrapolation.metric.never.value": "{n} / {d}",
    "extrapolation.metric.ntk": "NTK-aware base b′",
    "extrapolation.metric.attn": "attention factor a",
    "extrapolation.metric.d": "rotated dimensions d",
    "extrapolation.warn.short": "L_target ≤ L_train: nothing to extrapolate, so the compared methods use s = 1.",
    "extrapolation.preset.line": "**{name}** · `{repo}` · d = {d} · rope_theta = {theta:g} · rope_scaling: {scaling}",
    "extrapolation.preset.source": "Source: {source}\n\nChecked: {checked}",
    "extrapolation.preset.none": "none",
    "extrapolation.custom.line": "Custom RoPE: d = {d}, b = {theta:g}, no scaling of its own.",
    # figures
    "extrapolation.fig.pair": "frequency pair i (0 = fastest)",
    "extrapolation.fig.turns": "λ ≤ L_train: turns fully within training",
    "extrapolation.fig.never_turns": "λ > L_train: never completes a turn in training",
    "extrapolation.fig.l_train": "L_train = {n}",
    "extrapolation.fig.l_target": "L_target = {n}",
    "extrapolation.fig.wavelength.title": "Wavelength λ_i = 2π/θ_i of each pair",
    "extrapolation.fig.wavelength.y": "wavelength λ (positions, log)",
    "extrapolation.fig.scaled": "after {name}",
    "extrapolation.fig.seen": "seen in training (0…L_train)",
    "extrapolation.fig.needed_ok": "needed at L_target: within what was seen",
    "extrapolation.fig.needed_new": "needed at L_target: never seen",
    "extrapolation.fig.phase.title": "Fraction of a full turn per pair — {n} of {d} pairs reach never-seen angles",
    "extrapolation.fig.phase.y": "fraction of a full turn (2π)",
    "extrapolation.fig.freq.title": "θ′_i under each method (log scale)",
    "extrapolation.fig.freq.y": "θ′_i (radians per position, log)",
    "extrapolation.fig.yarn_ramp": "YaRN ramp",
    "extrapolation.fig.band0": "kept (θ′ = θ): {n} pairs",
    "extrapolation.fig.band1": "in between: {n} pairs",
    "extrapolation.fig.band2": "divided by the full factor: {n} pairs",
    "extrapolation.fig.one_over_s": "1/s = 1/{s}",
    "extrapolation.fig.ratio.title": "θ′_i / θ_i per pair — {name}",
    "extrapolation.fig.ratio.y": "θ′ / θ",
    "extrapolation.fig.decay.title": "Score of q = k = 1 vs distance, per method",
    "extrapolation.fig.decay.x": "relative distance r (log)",
    "extrapolation.fig.decay.y": "score / d",
    # sections
    "extrapolation.ratio.title": "What the method in focus changes, pair by pair",
    "extrapolation.ratio.text": (
        "Each bar is θ′_i / θ_i for one frequency pair (pair 0 is the fastest). **Green**: untouched (ratio 1). "
        "**Blue**: divided by the full factor (ratio 1/s). **Orange**: in between. For **Llama 3.1 8B** "
        "(“Model's own config”) the pairs whose wavelength is shorter than 8192/4 = 2048 tokens keep their "
        "frequency, those longer than 8192 tokens are divided by 8, and a few pairs in between are smoothed."),
    "extrapolation.ratio.note": "Bands from θ′/θ: ratio 1 → kept, 1/s → fully interpolated (relative tolerance 1e-4).",
    "extrapolation.wave.title": "1 · Wavelength of each pair against the trained length",
    "extrapolation.wave.text": (
        "Pair i turns once every λ_i = 2π/θ_i positions. **Green** pairs (λ_i ≤ L_train) complete at least one "
        "full turn inside the training window: every angle of their circle was seen, at many distances. **Red** "
        "pairs (λ_i > L_train) never complete a turn: training showed them only an arc. Open circles: the "
        "wavelengths after the method in focus."),
    "extrapolation.phase.title": "2 · Phases seen in training vs. needed at the target length",
    "extrapolation.phase.text": (
        "Bars: the fraction of a full turn pair i sweeps over distances 0…L_train with the trained frequencies. "
        "Markers: the fraction it sweeps over 0…L_target with the method in focus. A red × marks a pair that "
        "reaches angles at L_target that it never saw in training. Without scaling these are exactly the red "
        "pairs above; PI removes them all; NTK-aware and YaRN remove them for the slowest pairs."),
    "extrapolation.freq.title": "3 · The frequency spectrum under every method",
    "extrapolation.freq.text": (
        "θ′_i of every method on one log scale, each with s = L_target / L_train (the model's own curve uses its "
        "config). PI shifts the whole line down by log s. NTK-aware keeps θ_0 and tilts the line so the slowest "
        "pair is divided by s. Dynamic NTK does the same with a base that grows with the current length "
        "(here: at L_target). YaRN keeps the fast pairs, interpolates the slow ones and ramps in between "
        "(shaded). Llama 3 does the same with wavelength bands (dotted lines)."),
    "extrapolation.decay.title": "4 · Score vs. distance out to the target length",
    "extrapolation.decay.text": (
        "q = k = (1, …, 1): the score at distance r, divided by d, is a²·mean_i cos(rθ′_i), a being the attention "
        "factor. Beyond L_train the unscaled curve enters distances it never saw. PI stretches the whole "
        "curve s times to the right — and squeezes neighbouring positions together; NTK-aware and YaRN keep "
        "the short-range shape and stretch the long range. YaRN starts above 1: a² > 1 is its temperature. "
        "Drawn: no scaling, the method in focus and the model's own config; click the legend for the others."),
    "extrapolation.decay.note": "Distances: every r up to 64, then {n} log-spaced integers up to L_target.",
    "extrapolation.why.title": "Why these methods work — and why they are not free",
    "extrapolation.why.angles": (
        "**The angles are not the problem; the phase combinations are.** Rotation is periodic (2π a turn), so a "
        "fast pair has turned hundreds of times inside the training window: a large angle is nothing new to it. "
        "What is new beyond L_train are the slow pairs' arcs that were never swept — and so combinations of "
        "phases across all pairs that never occurred together. That is what pushes the attention scores off "
        "the distribution the model learned (seed 001, length extrapolation)."),
    "extrapolation.why.pi": (
        "**PI (position interpolation)** compresses positions: p → p/s, the same as θ_i → θ_i/s. Every phase "
        "needed at L_target was seen in training — but neighbouring tokens now differ by 1/s of the angle they "
        "used to, so the fast pairs that encode local order lose resolution."),
    "extrapolation.why.ntk": (
        "**NTK-aware scaling** changes the base instead: b′ = b·s^(d/(d−2)). The fastest pair keeps θ_0 = 1, so "
        "local order stays sharp, and the slowest pair is divided by exactly s, like PI; in between the change "
        "grows smoothly. **Dynamic NTK** applies the same formula only once the sequence is longer than the "
        "trained length, with a factor that grows with the length."),
    "extrapolation.why.yarn": (
        "**YaRN** treats frequency bands differently: pairs that turn more than β_fast (32) times within L_train "
        "are kept, pairs that turn fewer than β_slow (1) times are interpolated like PI, and a linear ramp joins "
        "the two. It also multiplies cos and sin by a = 0.1·ln s + 1, which sharpens the softmax that longer "
        "contexts flatten (attention temperature)."),
    "extrapolation.why.llama3": (
        "**Llama 3** uses wavelength bands: λ < L_orig/high_freq_factor → unchanged; λ > L_orig/low_freq_factor "
        "→ divided by factor; a smooth blend in between. Llama 3.1 8B: bands at 8192/4 = 2048 and 8192/1 = 8192 "
        "tokens, factor 8, no attention factor."),
    "extrapolation.why.train": (
        "**These methods usually need continued training.** They make the phases at L_target look familiar, but "
        "the model still has to learn to use the longer context: stretching the window to 128K and really using "
        "128K are two different things (seed 001). Llama 3.1 continued pre-training on long documents, growing "
        "its context from 8K to 128K in stages; note that its factor 8 is smaller than 131072/8192 = 16, so at "
        "128K its slowest pairs still reach angles the 8K pre-training never saw — the long-context training covered them. Qwen2.5 "
        "was pre-trained up to 32K and applies YaRN ×4 beyond that without further training: whether 128K "
        "really works is then a question for long-context evaluation, bucketed by length (seed 000 §14)."),
    "extrapolation.why.eval": (
        "**Running is not working.** Memory that lets the sequence grow from 2K to 32K says nothing about whether "
        "the position encoding, the attention distribution and the training data support those distances. Report "
        "loss, retrieval accuracy and position-sensitive tests **per length bucket**, not just “no OOM” "
        "(seed 000 §14) — the page *Train short, test long* does exactly that for six tiny models."),
    "extrapolation.why.deepseek": (
        "**DeepSeek-V3** sets mscale = mscale_all_dim = 1.0, so the attention factor of transformers' YaRN is "
        "(0.1·ln 40 + 1)/(0.1·ln 40 + 1) = 1; DeepSeek's attention instead multiplies its softmax scale by "
        "(0.1·ln 40 + 1)² ≈ 1.87 — the same YaRN temperature, applied in another place."),
    # paste
    "extrapolation.paste.title": "Paste a config",
    "extrapolation.paste.text": (
        "Paste a model's config.json, or just its rope_scaling / rope_parameters object with rope_theta and "
        "head_dim. It is read with json.loads only (never run, never rendered): at most 64 KB, finite numbers, "
        "one of the rope types default, linear, dynamic, yarn, llama3. Choose “Pasted config.json” as the model "
        "to drive every figure with it."),
    "extrapolation.paste.ok": "Read: d = {d}, rope_type = {t}.",
    "extrapolation.paste.col.param": "parameter",
    "extrapolation.paste.col.value": "value",
    "extrapolation.paste.ignored": "Ignored keys (not used by these rope types): {keys}",
    "extrapolation.paste.ltrain": "This config's trained length: {n} — set L_train to it.",
    "extrapolation.paste.fallback": "Using the Llama 3.1 8B preset until the pasted config is valid.",
    "extrapolation.note.theta_default": "rope_theta missing: using {v:g} (transformers' default_theta).",
    "extrapolation.note.head_dim_from": "head_dim taken from {v}.",
    "extrapolation.note.partial": "partial_rotary_factor {v}: only that fraction of each head is rotated; d is the rotated part.",
    "extrapolation.note.original_from_max": "original_max_position_embeddings taken from max_position_embeddings = {v}.",
    "extrapolation.note.factor_from_max": "factor missing: max_position_embeddings / original_max_position_embeddings = {v:g}.",
    "extrapolation.note.type_alias": "\"type\": \"{v}\" is the old name of rope_type.",
    "extrapolation.note.nested": "rope_parameters per layer type: using \"{v}\".",
    "extrapolation.note.text_config": "Used the text_config part of a multimodal config.",
    # presets table
    "extrapolation.presets.title": "Model presets and their sources",
    "extrapolation.presets.text": (
        "Each preset is the RoPE part of the model's config.json, read by the same parser as a pasted config. "
        "The Hugging Face repos are not reachable from here; every number was checked against copies of the "
        "files in public repositories, as noted."),
    "extrapolation.presets.col.name": "model",
    "extrapolation.presets.col.d": "d",
    "extrapolation.presets.col.theta": "rope_theta",
    "extrapolation.presets.col.scaling": "rope scaling",
    "extrapolation.presets.col.ltrain": "L_train",
    "extrapolation.presets.col.source": "source",
    "extrapolation.presets.col.checked": "checked against",
    "extrapolation.checked.llama2_7b": "full config.json dumps (transformers 4.36–4.39): hidden 4096, 32 heads, "
                                       "max_position_embeddings 4096, rope_theta 10000.0, rope_scaling null",
    "extrapolation.checked.mistral_7b": "full MistralConfig dump: max_position_embeddings 32768, rope_theta 10000.0, "
                                        "sliding_window 4096 (the trained length itself is not in the file)",
    "extrapolation.checked.llama31_8b": "the rope_scaling block (llama3, factor 8, low 1, high 4, 8192) and rope_theta "
                                        "500000 in several copies; hidden 4096, 32 heads, 131072 from model tables",
    "extrapolation.checked.qwen25_7b": "hidden 3584, 28 heads, 32768, rope_theta 1e6 in the Qwen2-7B-Instruct dump and "
                                       "Qwen 7B fixtures — not a verbatim Qwen2.5 file",
    "extrapolation.checked.qwen25_7b_yarn": "the rope_scaling snippet (yarn, factor 4.0, 32768) in Qwen's deployment docs",
    "extrapolation.checked.deepseek_v3": "the rope_scaling block verbatim in several copies (the same as DeepSeek-V2's), "
                                         "qk_rope_head_dim 64, rope_theta 10000, max_position_embeddings 163840",
    # scenes
    "extrapolation.scene.wave": "Which pairs ever complete a turn?",
    "extrapolation.scene.wave.say": "Llama 2 trained on 4096 tokens: the red pairs never complete a full turn in "
                                    "training — only an arc of their circle was ever seen.",
    "extrapolation.scene.naive": "Run 4× longer without scaling",
    "extrapolation.scene.naive.say": "At 16384 tokens the red × pairs reach angles never seen in training; the fast "
                                     "pairs are fine, they have turned many times already.",
    "extrapolation.scene.pi": "PI: squeeze the positions",
    "extrapolation.scene.pi.say": "Every pair is divided by 4: no phase is new any more, but the fast pairs lose "
                                  "resolution between neighbouring tokens.",
    "extrapolation.scene.ntk": "NTK-aware: change the base",
    "extrapolation.scene.ntk.say": "Pair 0 keeps its frequency, the slowest pair is divided by 4, the change grows "
                                   "smoothly in between.",
    "extrapolation.scene.yarn": "YaRN: bands and a temperature",
    "extrapolation.scene.yarn.say": "Qwen2.5 with YaRN ×4: fast pairs kept, slow pairs interpolated, a ramp between; "
                                    "the attention factor is 0.1·ln 4 + 1 ≈ 1.139.",
    "extrapolation.scene.llama3": "Llama 3.1 8B: which pairs change?",
    "extrapolation.scene.llama3.say": "Green bars are untouched, blue ones divided by 8, orange ones smoothed — read "
                                      "it off the first figure.",
}

ZH = {
    **{f"w.ext_preset.{k}": v for k, v in _PRESET_NAMES.items()},
    "extrapolation.title": "长度外推：让 RoPE 跑过训练长度",
    "extrapolation.intro": (
        "RoPE 能为任意位置算出角度，但模型只在 0…L_train 的距离上训练过。超出之后，它会遇到没见过的相对距离，"
        "更要紧的是各个频率维度凑在一起、从没一起出现过的**相位组合**。选一个真实模型、它的训练长度和目标长度："
        "看看哪些频率对会出问题，以及位置插值（PI）、NTK-aware、动态 NTK、YaRN 和 Llama 3 的缩放如何改写频率来避开它。"
        "这里的数值与 Hugging Face transformers 对同一组 rope 参数的计算结果一致。"),
    "extrapolation.sources": (
        "来源：Chen 等 2023，Position Interpolation（arXiv:2306.15595）；bloc97 2023，NTK-aware scaled RoPE；"
        "emozilla 2023，动态 NTK；Peng 等 2023，YaRN（arXiv:2309.00071）；Meta 2024，The Llama 3 Herd of Models"
        "（arXiv:2407.21783）；transformers `modeling_rope_utils`（ROPE_INIT_FUNCTIONS）；种子文章 001「长度外推」；"
        "种子文章 000 §14、§15、§18。"),
    "w.ext_preset": "模型",
    "w.ext_preset.help": "真实模型公开的 RoPE 设置（取自其 config.json），或自定义，或下方粘贴的配置。",
    "w.ext_preset.custom": "自定义（选择 d 和底数）",
    "w.ext_preset.pasted": "粘贴的 config.json",
    "w.ext_ltrain": "训练长度 L_train",
    "w.ext_ltrain.help": "模型训练时的上下文长度（做过缩放的模型即 original_max_position_embeddings）。",
    "w.ext_ltarget": "目标长度 L_target",
    "w.ext_ltarget.help": "想要运行的上下文长度。参与比较的方法都用缩放因子 s = L_target / L_train。",
    "w.ext_method": "重点方法",
    "w.ext_method.help": "比值图、波长图和相位图画的是这个方法。“模型自带配置”严格按模型的 rope_scaling 计算。",
    "w.ext_method.model": "模型自带配置",
    "w.ext_method.default": "不缩放",
    "w.ext_method.linear": "PI（线性）",
    "w.ext_method.ntk": "NTK-aware",
    "w.ext_method.dynamic": "动态 NTK",
    "w.ext_method.yarn": "YaRN",
    "w.ext_method.llama3": "Llama 3",
    "w.ext_head_dim": "头维度 d",
    "w.ext_theta": "底数 b（rope_theta）",
    "w.ext_paste": "粘贴 config.json，或其中的 rope_scaling / rope_parameters 对象",
    "extrapolation.metric.s": "s = L_target / L_train",
    "extrapolation.metric.never": "λ > L_train 的频率对",
    "extrapolation.metric.never.value": "{n} / {d}",
    "extrapolation.metric.ntk": "NTK-aware 底数 b′",
    "extrapolation.metric.attn": "注意力因子 a",
    "extrapolation.metric.d": "旋转维度 d",
    "extrapolation.warn.short": "L_target ≤ L_train：无须外推，参与比较的方法取 s = 1。",
    "extrapolation.preset.line": "**{name}** · `{repo}` · d = {d} · rope_theta = {theta:g} · 缩放（rope_scaling）：{scaling}",
    "extrapolation.preset.source": "来源：{source}\n\n核对依据：{checked}",
    "extrapolation.preset.none": "无",
    "extrapolation.custom.line": "自定义 RoPE：d = {d}，b = {theta:g}，本身不做缩放。",
    "extrapolation.fig.pair": "频率对 i（0 = 最快）",
    "extrapolation.fig.turns": "λ ≤ L_train：训练内能转满一圈",
    "extrapolation.fig.never_turns": "λ > L_train：训练中从没转满一圈",
    "extrapolation.fig.l_train": "L_train = {n}",
    "extrapolation.fig.l_target": "L_target = {n}",
    "extrapolation.fig.wavelength.title": "各频率对的波长 λ_i = 2π/θ_i",
    "extrapolation.fig.wavelength.y": "波长 λ（位置数，对数）",
    "extrapolation.fig.scaled": "{name} 之后",
    "extrapolation.fig.seen": "训练中见过（0…L_train）",
    "extrapolation.fig.needed_ok": "L_target 处需要：在见过的范围内",
    "extrapolation.fig.needed_new": "L_target 处需要：从没见过",
    "extrapolation.fig.phase.title": "每个频率对覆盖一圈的比例——{d} 对中有 {n} 对会转到没见过的角度",
    "extrapolation.fig.phase.y": "占整圈（2π）的比例",
    "extrapolation.fig.freq.title": "各方法下的 θ′_i（对数坐标）",
    "extrapolation.fig.freq.y": "θ′_i（每个位置转过的弧度，对数）",
    "extrapolation.fig.yarn_ramp": "YaRN 过渡带",
    "extrapolation.fig.band0": "保持不变（θ′ = θ）：{n} 对",
    "extrapolation.fig.band1": "介于两者之间：{n} 对",
    "extrapolation.fig.band2": "整体除以因子：{n} 对",
    "extrapolation.fig.one_over_s": "1/s = 1/{s}",
    "extrapolation.fig.ratio.title": "每个频率对的 θ′_i / θ_i——{name}",
    "extrapolation.fig.ratio.y": "θ′ / θ",
    "extrapolation.fig.decay.title": "q = k = 1 的打分随距离的变化（各方法）",
    "extrapolation.fig.decay.x": "相对距离 r（对数）",
    "extrapolation.fig.decay.y": "打分 / d",
    "extrapolation.ratio.title": "重点方法逐个频率对改了什么",
    "extrapolation.ratio.text": (
        "每根柱子是一个频率对的 θ′_i / θ_i（第 0 对转得最快）。**绿色**：不变（比值 1）。**蓝色**：整体除以因子"
        "（比值 1/s）。**橙色**：介于两者之间。以 **Llama 3.1 8B**（“模型自带配置”）为例：波长短于 8192/4 = 2048 "
        "个 token 的频率对保持原频率，波长超过 8192 的除以 8，中间少数几对做平滑过渡。"),
    "extrapolation.ratio.note": "按 θ′/θ 分段：比值为 1 → 不变，为 1/s → 完全插值（相对容差 1e-4）。",
    "extrapolation.wave.title": "1 · 各频率对的波长与训练长度",
    "extrapolation.wave.text": (
        "第 i 对每走 λ_i = 2π/θ_i 个位置转一整圈。**绿色**的对（λ_i ≤ L_train）在训练窗口内至少转满一圈：整个圆上的"
        "每个角度都在许多距离上见过。**红色**的对（λ_i > L_train）从没转满一圈：训练只让它们看到一段圆弧。空心圆是重点"
        "方法处理后的波长。"),
    "extrapolation.phase.title": "2 · 训练中见过的相位与目标长度需要的相位",
    "extrapolation.phase.text": (
        "柱子：用训练时的频率，在距离 0…L_train 上第 i 对扫过一圈的比例。标记：用重点方法，在 0…L_target 上扫过的"
        "比例。红色 × 表示这一对在 L_target 处会转到训练中从没见过的角度。不缩放时，它们正是上图的红色频率对；"
        "PI 把它们全部消除；NTK-aware 和 YaRN 消除了最慢的那些。"),
    "extrapolation.freq.title": "3 · 各方法下的频率谱",
    "extrapolation.freq.text": (
        "所有方法的 θ′_i 画在同一条对数坐标上，都取 s = L_target / L_train（模型自带的曲线按其配置）。PI 把整条线"
        "往下平移 log s。NTK-aware 保住 θ_0，把线压斜，让最慢的一对恰好除以 s。动态 NTK 做同样的事，只是底数随当前"
        "长度增长（这里取 L_target）。YaRN 保留快的对、插值慢的对、中间线性过渡（阴影）。Llama 3 思路相同，用的是"
        "按波长划分的频段（虚线）。"),
    "extrapolation.decay.title": "4 · 打分随距离的变化，一直到目标长度",
    "extrapolation.decay.text": (
        "q = k = (1, …, 1)：距离 r 处的打分除以 d 等于 a²·mean_i cos(rθ′_i)，a 是注意力缩放因子。超过 L_train 后，"
        "不缩放的曲线进入从没见过的距离。PI 把整条曲线向右拉长 s 倍——也把相邻位置挤到了一起；NTK-aware 和 YaRN "
        "保住近距离的形状，只拉长远距离部分。YaRN 的起点高于 1：a² > 1 就是它的温度。"
        "图中先画出不缩放、重点方法和模型自带配置，其余方法点图例即可显示。"),
    "extrapolation.decay.note": "距离取样：64 以内每个整数都取，之后取 {n} 个按对数间隔的整数，直到 L_target。",
    "extrapolation.why.title": "这些方法为什么有效——又为什么不是免费的",
    "extrapolation.why.angles": (
        "**问题不在角度太大，而在相位组合。** 旋转本来就是 2π 一圈，高频的对在训练长度内早就转过几百圈，角度再大"
        "对它也不新鲜。超出 L_train 后真正新的，是慢速频率对从没扫过的那段圆弧，于是出现了各频率对从没一起出现"
        "过的相位组合——正是这些组合让 attention 的打分分布整个跑偏（种子文章 001「长度外推」）。"),
    "extrapolation.why.pi": (
        "**PI（位置插值）** 把位置线性压回训练范围：p → p/s，等价于 θ_i → θ_i/s。L_target 需要的每个相位都在训练中"
        "见过——代价是相邻 token 之间的角度差只剩原来的 1/s，负责局部顺序的高频对分辨率下降。"),
    "extrapolation.why.ntk": (
        "**NTK-aware** 改的是底数：b′ = b·s^(d/(d−2))。最快的一对保持 θ_0 = 1，局部顺序依旧清晰；最慢的一对恰好除以 s，"
        "与 PI 相同；中间的变化平滑递增。**动态 NTK** 只在序列超过训练长度时才套用这个公式，因子随长度增长。"),
    "extrapolation.why.yarn": (
        "**YaRN** 分频段处理：在 L_train 内转过 β_fast（32）圈以上的对保持不变，转不到 β_slow（1）圈的对像 PI 一样插值，"
        "中间用线性过渡连接。它还把 cos 和 sin 乘上 a = 0.1·ln s + 1，让被长上下文摊平的 softmax 重新变尖"
        "（注意力温度）。"),
    "extrapolation.why.llama3": (
        "**Llama 3** 按波长划分频段：λ < L_orig/high_freq_factor 不变；λ > L_orig/low_freq_factor 除以 factor；中间平滑"
        "混合。Llama 3.1 8B：分界在 8192/4 = 2048 和 8192/1 = 8192 个 token，factor 为 8，没有注意力缩放。"),
    "extrapolation.why.train": (
        "**这些手法通常还得配一轮继续训练。** 它们让 L_target 处的相位看起来眼熟，但模型仍要学会真正利用更长的上下文："
        "「把窗口撑到 128K」和「真的用好这 128K」是两码事（种子文章 001）。Llama 3.1 在长文档上继续预训练，"
        "分阶段把上下文从 8K 扩到 128K；注意它的 factor 8 小于 131072/8192 = 16，所以在 128K 时最慢的几对仍会转到 8K "
        "预训练没见过的角度——靠的是后续的长上下文训练。Qwen2.5 预训练到 32K，超出部分用 YaRN ×4 且不再训练："
        "128K 到底好不好用，要靠按长度分桶的长上下文评估来回答（种子文章 000 §14）。"),
    "extrapolation.why.eval": (
        "**能运行不等于能用好。** 显存允许把序列从 2K 扩到 32K，并不说明位置表示、注意力分布和训练数据支持这样的距离。"
        "应按长度分桶报告损失、检索准确率和位置敏感测试，而不是只验证没有 OOM（种子文章 000 §14）——"
        "「短训长测」页面就对六个小模型做了这件事。"),
    "extrapolation.why.deepseek": (
        "**DeepSeek-V3** 设 mscale = mscale_all_dim = 1.0，所以 transformers 的 YaRN 注意力因子是 "
        "(0.1·ln 40 + 1)/(0.1·ln 40 + 1) = 1；DeepSeek 的注意力改为把 softmax 缩放乘上 (0.1·ln 40 + 1)² ≈ 1.87——"
        "同一个 YaRN 温度，只是放在了别处。"),
    "extrapolation.paste.title": "粘贴配置",
    "extrapolation.paste.text": (
        "粘贴模型的 config.json，或只粘贴其中的 rope_scaling / rope_parameters 对象（附上 rope_theta 和 head_dim）。"
        "只用 json.loads 读取（不执行、不渲染）：最多 64 KB，数值必须有限，rope 类型限 default、linear、dynamic、yarn、"
        "llama3。把模型选为“粘贴的 config.json”，所有图就按它来画。"),
    "extrapolation.paste.ok": "已读取：d = {d}，rope_type = {t}。",
    "extrapolation.paste.col.param": "参数",
    "extrapolation.paste.col.value": "取值",
    "extrapolation.paste.ignored": "已忽略的键（这些 rope 类型用不到）：{keys}",
    "extrapolation.paste.ltrain": "该配置的训练长度是 {n}——请把 L_train 设成它。",
    "extrapolation.paste.fallback": "粘贴的配置有效之前，先用 Llama 3.1 8B 预设。",
    "extrapolation.note.theta_default": "缺少 rope_theta：使用 {v:g}（transformers 的 default_theta）。",
    "extrapolation.note.head_dim_from": "head_dim 取自 {v}。",
    "extrapolation.note.partial": "partial_rotary_factor 为 {v}：每个头只旋转这一部分维度，d 指被旋转的部分。",
    "extrapolation.note.original_from_max": "original_max_position_embeddings 取自 max_position_embeddings = {v}。",
    "extrapolation.note.factor_from_max": "缺少 factor：取 max_position_embeddings / original_max_position_embeddings = {v:g}。",
    "extrapolation.note.type_alias": "\"type\": \"{v}\" 是 rope_type 的旧名字。",
    "extrapolation.note.nested": "rope_parameters 按层类型分组：使用 \"{v}\"。",
    "extrapolation.note.text_config": "使用了多模态配置中的 text_config 部分。",
    "extrapolation.presets.title": "模型预设及其来源",
    "extrapolation.presets.text": (
        "每个预设都是模型 config.json 中与 RoPE 有关的部分，与粘贴的配置走同一个解析器。这里连不上 Hugging Face，"
        "每个数值都对照公开仓库中这些文件的副本核对过，见下表。"),
    "extrapolation.presets.col.name": "模型",
    "extrapolation.presets.col.d": "d",
    "extrapolation.presets.col.theta": "rope_theta",
    "extrapolation.presets.col.scaling": "rope 缩放",
    "extrapolation.presets.col.ltrain": "L_train",
    "extrapolation.presets.col.source": "来源",
    "extrapolation.presets.col.checked": "核对依据",
    "extrapolation.checked.llama2_7b": "完整 config.json 输出（transformers 4.36–4.39）：hidden 4096，32 个头，"
                                       "max_position_embeddings 4096，rope_theta 10000.0，rope_scaling 为 null",
    "extrapolation.checked.mistral_7b": "完整 MistralConfig 输出：max_position_embeddings 32768，rope_theta 10000.0，"
                                        "sliding_window 4096（文件里没有实际训练长度）",
    "extrapolation.checked.llama31_8b": "rope_scaling 块（llama3，factor 8，low 1，high 4，8192）和 rope_theta 500000 "
                                        "见于多份副本；hidden 4096、32 个头、131072 来自模型参数表",
    "extrapolation.checked.qwen25_7b": "hidden 3584、28 个头、32768、rope_theta 1e6 见于 Qwen2-7B-Instruct 的配置输出和 "
                                       "Qwen 7B 测试数据——不是 Qwen2.5 文件原文",
    "extrapolation.checked.qwen25_7b_yarn": "Qwen 部署文档中的 rope_scaling 片段（yarn，factor 4.0，32768）",
    "extrapolation.checked.deepseek_v3": "rope_scaling 块原文见于多份副本（与 DeepSeek-V2 相同），qk_rope_head_dim 64，"
                                         "rope_theta 10000，max_position_embeddings 163840",
    "extrapolation.scene.wave": "哪些频率对能转满一圈？",
    "extrapolation.scene.wave.say": "Llama 2 在 4096 个 token 上训练：红色的对在训练中从没转满一圈——只见过圆上的一段弧。",
    "extrapolation.scene.naive": "不缩放，直接跑 4 倍长",
    "extrapolation.scene.naive.say": "到 16384 个 token，红色 × 的对会转到训练中没见过的角度；快的对没问题，它们早已转过很多圈。",
    "extrapolation.scene.pi": "PI：把位置压缩",
    "extrapolation.scene.pi.say": "每一对都除以 4：不再有新相位，但快的对在相邻 token 之间的分辨率下降了。",
    "extrapolation.scene.ntk": "NTK-aware：改底数",
    "extrapolation.scene.ntk.say": "第 0 对频率不变，最慢的一对除以 4，中间平滑过渡。",
    "extrapolation.scene.yarn": "YaRN：分频段，再加温度",
    "extrapolation.scene.yarn.say": "Qwen2.5 配 YaRN ×4：快的对保留，慢的对插值，中间线性过渡；注意力因子为 0.1·ln 4 + 1 ≈ 1.139。",
    "extrapolation.scene.llama3": "Llama 3.1 8B：哪些频率对被改了？",
    "extrapolation.scene.llama3.say": "绿色柱子不变，蓝色除以 8，橙色平滑过渡——在第一张图上一眼就能读出来。",
}
