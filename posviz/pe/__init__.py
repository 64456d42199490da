"""The public position-encoding library: sinusoidal, learned, rope, relative, scaling, decay,
position_ids, rope_config, models. Torch only; imports nothing of posviz but posviz.validate.

Docstrings (which the app's "Formula and code" boxes show) cite the two articles the app is built on by their
titles, short: “Same words, different order…” §NN is 《词相同但顺序不同，注意力怎样辨别位置？从正弦编码到 RoPE》
and its section NN; “Position encodings” is 《位置编码》."""
