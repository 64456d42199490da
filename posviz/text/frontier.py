"""Strings of the page of today's mechanisms (app_pages/frontier.py): interleaved M-RoPE with 3-D position ids
and MLA's decoupled RoPE, English and Chinese; errors of posviz.pe's M-RoPE functions and posviz.pe.mla."""

EN = {
    # errors of posviz.pe.position_ids.mrope_position_ids, posviz.pe.rope.mrope_angles, posviz.pe.mla
    "err.mrope_segments": "segments must be a list of 1 to {hi} (kind, size) pairs, got {got}",
    "err.mrope_segment": "each segment must be (\"text\", n), (\"image\", (t, h, w)) or (\"video\", (t, h, w)), got {got}",
    "err.mrope_grid": "a vision segment's size must be its patch grid (t, h, w), got {got}",
    "err.mrope_merge": "h and w of a patch grid must be multiples of spatial_merge_size {merge}, got h={h}, w={w}",
    "err.mrope_per_video": "{name} must be one number, or one per video ({n}), got {got} values",
    "err.mrope_sections": "mrope_section must be three non-negative integers adding up to the {n} rotated pairs, got {got}",
    "err.mrope_position_shape": "position_ids must be [3, L] (temporal, height, width) with L <= {hi}, got shape {shape}",
    "err.mla_field": "an MLA config needs {name}",
    "err.mla_shapes": "MLA pieces must be q_nope [H, L, d_C], q_rope [H, L, d_R], latent [S, d_c], k_rope [S, d_R], w_uk [H, d_C, d_c] (L, S <= 8192), got {shapes}",
}

ZH = {
    "err.mrope_segments": "segments 必须是 1 到 {hi} 个（类型, 大小）对组成的列表，收到的是 {got}",
    "err.mrope_segment": "每一段必须是 (\"text\", n)、(\"image\", (t, h, w)) 或 (\"video\", (t, h, w))，收到的是 {got}",
    "err.mrope_grid": "视觉段的大小必须是它的图块网格 (t, h, w)，收到的是 {got}",
    "err.mrope_merge": "图块网格的 h 和 w 必须是 spatial_merge_size {merge} 的倍数，收到的是 h={h}，w={w}",
    "err.mrope_per_video": "{name} 必须是一个数，或每个视频一个（共 {n} 个），收到的是 {got} 个值",
    "err.mrope_sections": "mrope_section 必须是三个非负整数，且和为旋转的频率对数 {n}，收到的是 {got}",
    "err.mrope_position_shape": "position_ids 必须是 [3, L]（时间、高度、宽度），且 L ≤ {hi}，收到的形状是 {shape}",
    "err.mla_field": "MLA 配置需要 {name}",
    "err.mla_shapes": "MLA 的各部分必须是 q_nope [H, L, d_C]、q_rope [H, L, d_R]、latent [S, d_c]、k_rope [S, d_R]、w_uk [H, d_C, d_c]（L、S ≤ 8192），收到的是 {shapes}",
}
