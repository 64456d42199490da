"""Error messages, English and Chinese: `err.<code>` for every code a posviz.validate.PosvizError carries.

Each message names the parameter (`{name}`) and, where there is one, the allowed range.
"""

EN = {
    "err.integer": "{name} must be an integer, got {got}",
    "err.range": "{name} must be in [{lo}, {hi}], got {got}",
    "err.at_least": "{name} must be >= {lo}, got {got}",
    "err.above": "{name} must be > {lo}, got {got}",
    "err.at_most": "{name} must be <= {hi}, got {got}",
    "err.even": "{name} must be even (dimensions are used in pairs), got {got}",
    "err.number": "{name} must be a number, got {got}",
    "err.finite": "{name} must be finite, got {got}",
    "err.choice": "{name} must be one of {choices}, got {got}",
    "err.tensor": "{name} must be a tensor or a list of numbers, got {got}",
    "err.ndim": "{name} must have {ndim} dimension(s), got shape {shape}",
    "err.learned_boundary": (
        "This is the hard boundary the article warns about: the sequence has L={L} positions but the "
        "learned position table has rows for positions 0..{last} only (max_length={M}), so position {M} "
        "has no embedding. Positions are never wrapped modulo max_length."),
}

ZH = {
    "err.integer": "{name} 必须是整数，收到的是 {got}",
    "err.range": "{name} 必须在 [{lo}, {hi}] 之间，收到的是 {got}",
    "err.at_least": "{name} 必须 ≥ {lo}，收到的是 {got}",
    "err.above": "{name} 必须 > {lo}，收到的是 {got}",
    "err.at_most": "{name} 必须 ≤ {hi}，收到的是 {got}",
    "err.even": "{name} 必须是偶数（维度成对使用），收到的是 {got}",
    "err.number": "{name} 必须是数字，收到的是 {got}",
    "err.finite": "{name} 必须是有限数，收到的是 {got}",
    "err.choice": "{name} 必须是 {choices} 之一，收到的是 {got}",
    "err.tensor": "{name} 必须是张量或数字列表，收到的是 {got}",
    "err.ndim": "{name} 必须有 {ndim} 个维度，收到的形状是 {shape}",
    "err.learned_boundary": (
        "这正是文章提醒的硬边界：序列有 L={L} 个位置，但学习式位置表只有位置 0..{last} 的行"
        "（max_length={M}），位置 {M} 没有对应的嵌入。位置永远不会对 max_length 取模回绕。"),
}
