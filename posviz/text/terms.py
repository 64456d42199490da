"""The Chinese terms of the app: one term per concept, the articles' (《词相同但顺序不同，注意力怎样辨别位置？
从正弦编码到 RoPE》 writes Query, Key, padding, position id and 偶奇配对). Each row: the concept, the term every
zh string uses, and a pattern of the variants it replaces (tests/app/test_text.py finds none in any zh string,
outside `code` and $math$). Strings only: imports nothing.
"""

_ZH_TERMS = (
    # concept, the term, the variants no zh string may use
    ("the query of attention", "Query", r"查询|(?<![A-Za-z_{])query(?![A-Za-z_}])"),
    # 键 alone is the attention key: a config.json field is 字段, a keyboard key 按键 / 快捷键, "key" 关键
    ("the key of attention", "Key", r"(?<![关按捷盘])键(?!盘)|(?<![A-Za-z_{])key(?![A-Za-z_}])"),
    ("padding (the tokens that fill a batch)", "padding", r"补齐|填充"),
    ("position id(s)", "position id", r"位置\s*[iI][dD]"),
    ("the pairing of dimensions (0,1), (2,3), …", "偶奇配对", r"奇偶配对"),
)
