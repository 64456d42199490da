EN = {
    "relative.title": "Relative positions: Shaw, T5 buckets, ALiBi",
    "relative.intro": "What matters is often *how far apart* two tokens are, not where each one sits.",
    "w.relative_L": "Sequence length L",
}
ZH = {
    "relative.title": "相对位置：Shaw、T5 分桶、ALiBi",
    "relative.intro": "真正重要的往往是两个词“隔多远”，而不是各自“在第几个”。",
    "w.relative_L": "序列长度 L",
}
SCENES = {"relative": [
    {"title": "relative.scene.small", "say": "relative.scene.small.say", "values": {"relative_L": 8}},
    {"title": "relative.scene.big", "say": "relative.scene.big.say", "values": {"relative_L": 64}},
]}
EN.update({"relative.scene.small": "Small", "relative.scene.small.say": "eight tokens",
           "relative.scene.big": "Big", "relative.scene.big.say": "sixty-four tokens"})
ZH.update({"relative.scene.small": "小", "relative.scene.small.say": "八个词",
           "relative.scene.big": "大", "relative.scene.big.say": "六十四个词"})
