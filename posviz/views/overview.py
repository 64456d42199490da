r"""Views of the overview page: permutation equivariance of the toy attention layer, the causal
mask's leak, and the bare-integer seat number (cached; plain arguments in, numpy / dicts out)."""
import numpy as np

from posviz.lab import tokens, toy_model
from posviz.pe import position_scores as ps
from posviz.views import cached

POSITION_METHODS = toy_model.POSITION_METHODS   # the toy layer's position methods, in the bar chart's order
HARMLESS = toy_model.HARMLESS            # below this max |difference| the layer is equivariant
MAX_CHARS = tokens.MAX_CHARS             # of a sentence in the text boxes
SEAT_OMEGAS = (0.2, 0.05, 0.0125)        # three sinusoid channels: periods 31, 126, 503 positions
SEAT_TRAIN_LENGTH = 128
WEIGHTS_SHOWN = 5                        # 1/(i+1) weights printed in the causal footnote
SAME_TOKEN = "x"


@cached
def equivariance(sentence_a, sentence_b, method="nope", causal=False, names=toy_model.SENTENCE_NAMES):
    r"""Attn(PX) against P·Attn(X) for X = sentence A and PX = sentence B (a reordering of A), with the
    toy layer of the lab (`names`: how errors call the two sentences) -> dict(tokens_b, out_b [L,D],
    p_out_a [L,D], diff [L,D], max_diff, ...), plus the colour ranges of the three panels: `value_range`,
    one symmetric range shared by Attn(PX) and P·Attn(X) (so they compare colour for colour), and
    `diff_range` for the difference, floored at 1e-6 so an exact zero shows as white, not as amplified
    float noise.

    Formula:
        \operatorname{Attn}(PX)=P\,\operatorname{Attn}(X)
        \operatorname{Attn}(X)=\operatorname{softmax}\!\big(QK^\top/\sqrt d\big)\,V
        Q=XW_Q,\quad K=XW_K,\quad V=XW_V
        \Delta = \max\big|\operatorname{Attn}(PX)-P\operatorname{Attn}(X)\big|
    """
    res = toy_model.equivariance(sentence_a, sentence_b, method=method, causal=causal, names=tuple(names))
    m = float(max(np.abs(res["out_b"]).max(), np.abs(res["p_out_a"]).max())) or 1.0
    d = max(float(np.abs(res["diff"]).max()), 1e-6)
    return {**res, "value_range": (-m, m), "diff_range": (-d, d)}


def other_orders(sentence):
    """The reorderings of a sentence that test "a bag of words": every swap of two neighbouring tokens (they
    generate every reordering) and the reversal, as sentences, without repeats and without the sentence itself."""
    toks = tokens.tokenize(sentence)
    orders = [toks[:i] + [toks[i + 1], toks[i]] + toks[i + 2:] for i in range(len(toks) - 1)] + [toks[::-1]]
    out = []
    for o in orders:
        line = " ".join(o)
        if o != toks and line not in out:
            out.append(line)
    return out


@cached
def bag_of_words(sentence_a, method="nope", causal=False, names=toy_model.SENTENCE_NAMES):
    r"""Whether the layer sees sentence A as a bag of words: equivariant not only to sentence B's order but to
    every other reordering of A tested (other_orders) -> dict(bag: bool, max_diff: the largest difference over
    those reorderings, worst: the reordering with it (a sentence), tried: how many).

    Formula:
        \text{bag} \iff \max_{P\in\mathcal P}\big|\operatorname{Attn}(PX)-P\operatorname{Attn}(X)\big| < \varepsilon
    """
    worst, top = None, 0.0
    orders = other_orders(sentence_a)
    for line in orders:
        d = toy_model.equivariance(sentence_a, line, method=method, causal=causal, names=tuple(names))["max_diff"]
        if d >= top:
            worst, top = line, d
    return {"bag": top < HARMLESS, "max_diff": top, "worst": worst, "tried": len(orders)}


@cached
def equivariance_table(sentence_a, sentence_b, names=toy_model.SENTENCE_NAMES):
    r"""The difference for every method, without and with the causal mask -> numpy [methods, 2].

    Formula:
        \text{bar}(\text{method},\text{mask})=\max\big|\operatorname{Attn}(PX)-P\operatorname{Attn}(X)\big|
    """
    return toy_model.equivariance_table(sentence_a, sentence_b, names=tuple(names))


@cached
def causal_weights(length):
    r"""What the causal mask alone tells a token: the NoPE layer's attention on `length` identical
    tokens with the mask. Row i is uniform over the i + 1 visible keys 0..i, so token i can count
    its prefix -> dict(length, weights = [w_0, w_1, ...] (the weight of every visible key of row i),
    shown = the first WEIGHTS_SHOWN as text).

    Formula:
        A_{ij} = \frac{1}{i+1}\ \ (j \le i),\qquad A_{ij} = 0\ \ (j > i)
    """
    length = max(1, min(int(length), tokens.MAX_TOKENS))
    same = " ".join([SAME_TOKEN] * length)
    attn = toy_model.equivariance(same, same, method="nope", causal=True)["attn_b"]   # [L,L] head average
    weights = [float(attn[i, 0]) for i in range(length)]
    shown = ", ".join(f"{w:.3g}" for w in weights[:WEIGHTS_SHOWN]) + (", …" if length > WEIGHTS_SHOWN else "")
    return {"length": length, "weights": weights, "shown": shown}


@cached
def seat_numbers(length, train_length=SEAT_TRAIN_LENGTH):
    r"""A bare integer seat number p, p / L_train, and three sinusoid channels sin(p ω) for
    p = 1..length -> dict(p, integer, normalised, sinusoids [3, length], omegas, train_length).

    Formula:
        x_p = p\quad\text{or}\quad x_p = p/L_{\text{train}}
        PE_{2i}(p)=\sin(p\,\omega_i),\quad \omega\in\{0.2,\ 0.05,\ 0.0125\}
    """
    p = np.arange(1, int(length) + 1, dtype=np.float64)
    return {"p": p, "integer": p, "normalised": p / train_length,
            "sinusoids": np.stack([np.sin(p * w) for w in SEAT_OMEGAS]), "omegas": SEAT_OMEGAS,
            "train_length": train_length}


@cached
def markdown_table(markdown):
    """Split a text with a markdown table into the table's columns (for st.table, which wraps its cells
    and scrolls on a phone, where a markdown table is cut) and the rest of the text.

    -> dict(columns = {header: [cell per row]} (empty without a table), text = the lines outside it).
    """
    lines = markdown.splitlines()
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines if line.lstrip().startswith("|")]
    rows = [r for r in rows if not all(set(c) <= set("-: ") for c in r)]          # drop the |---|---| line
    text = "\n".join(line for line in lines if not line.lstrip().startswith("|")).strip()
    if not rows:
        return {"columns": {}, "text": text}
    head, body = rows[0], rows[1:]
    return {"columns": {h: [r[i] if i < len(r) else "" for r in body] for i, h in enumerate(head)}, "text": text}


OFFSET_LENGTH = 48                     # positions 0..47 of the score maps (claims of issue 33 items 14, 15)
OFFSETS = (0, 4, 16)                   # the diagonals n − m drawn as lines
INTEGER_DIM = 16                       # the bare-integer layer's width


@cached
def offset_scores(method, weights="random", seed=0, dim=INTEGER_DIM, base=10000.0, length=OFFSET_LENGTH):
    """The score of every query position m against every key position n of one token (posviz.pe.position_scores)
    and how far it depends on n − m alone -> dict(scores float32 [L, L], residual, offsets (OFFSETS), lines
    [len(OFFSETS)][L] (s(m, m + Δ), NaN past the end), relative float32 [L, L] (its n − m part), grows: the
    last over the first finite value of the widest offset's line)."""
    s = ps.position_scores(method, length, dim, weights=weights, seed=seed, base=float(base))   # [L,L]
    lines = np.full((len(OFFSETS), length), np.nan, dtype=np.float32)
    for r, d in enumerate(OFFSETS):
        lines[r, :length - d] = np.diagonal(s.numpy(), offset=d)
    return {"scores": s.numpy(), "residual": ps.relative_residual(s), "offsets": OFFSETS, "lines": lines,
            "relative": ps.relative_part(s).numpy().astype(np.float32)}
