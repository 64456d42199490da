"""Sentence -> tokens -> ids for the toy attention model (a teaching tokenizer, not BPE).

Rules (simple enough to predict by eye in a lecture):
- whitespace separates words: "dog bites man" -> [dog, bites, man];
- every CJK character (Han, kana, Hangul, CJK punctuation, full-width forms) is its own
  token, and a run of other characters stays one word: "我爱ML" -> [我, 爱, ML];
- the text is user data, kept verbatim: "<b>x</b>" is one plain-text token, never markup.

Limits: at most MAX_CHARS characters, MAX_TOKENS tokens and MAX_WORD characters per token; an empty or
blank sentence is an error. The vocabulary is built from the batch; id 0 is PAD.
"""
import re
from dataclasses import dataclass

import torch

from posviz.validate import PosvizError, check_choice

MAX_CHARS = 500
MAX_SENTENCES = 8
MAX_TOKENS = 64
MAX_WORD = 50      # characters in one token
PAD_ID = 0
PAD = "<pad>"
SIDES = ("left", "right")

_CJK = ("\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf"
        "\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
        "\U00020000-\U0003134f")
_INVISIBLE = "\u200b-\u200d\u2060\ufeff"   # zero-width characters separate like spaces
_TOKEN = re.compile(f"[{_CJK}]|[^\\s{_INVISIBLE}{_CJK}]+")


def tokenize(sentence, *, name="sentence"):
    """Split one sentence into tokens (list[str]); a PosvizError naming `name` if invalid."""
    if not isinstance(sentence, str):
        raise PosvizError("lab.not_text", name=name, got=type(sentence).__name__)
    if len(sentence) > MAX_CHARS:
        raise PosvizError("lab.too_long", name=name, got=len(sentence), hi=MAX_CHARS)
    tokens = _TOKEN.findall(sentence)
    if not tokens:  # blank, or only invisible characters
        raise PosvizError("lab.empty", name=name)
    longest = max(tokens, key=len)
    if len(longest) > MAX_WORD:
        raise PosvizError("lab.long_word", name=name, got=len(longest), hi=MAX_WORD)
    if len(tokens) > MAX_TOKENS:
        raise PosvizError("lab.too_many_tokens", name=name, got=len(tokens), hi=MAX_TOKENS)
    return tokens


def build_vocab(token_lists):
    """{token: id} in order of first appearance, ids from 1 (0 is PAD)."""
    vocab = {}
    for tokens in token_lists:
        for tok in tokens:
            if tok not in vocab:
                vocab[tok] = len(vocab) + 1
    return vocab


@dataclass(frozen=True)
class Batch:
    """A padded batch: the three tensors “Same words, different order…” §12 step 2 asks to print, and the words."""
    tokens: list            # list[list[str]] padded with "<pad>", N rows of L
    token_ids: torch.Tensor       # [N,L] long, 0 = PAD
    attention_mask: torch.Tensor  # [N,L] long, 1 = real token
    vocab: dict                   # {token: id}
    lengths: tuple                # real length of each row


def encode(sentences, *, padding_side="right", vocab=None, names=None):
    """Tokenize sentences, build a shared vocab, pad to the longest -> Batch.

    token_ids[r] = [PAD]*k + ids (left) or ids + [PAD]*k (right);  mask = (token_ids != PAD).
    """
    check_choice("padding_side", padding_side, SIDES)
    if isinstance(sentences, str) or not hasattr(sentences, "__len__") or not 1 <= len(sentences) <= MAX_SENTENCES:
        raise PosvizError("lab.sentences", name="sentences", hi=MAX_SENTENCES)
    names = names or [f"sentence {i + 1}" for i in range(len(sentences))]
    token_lists = [tokenize(s, name=nm) for s, nm in zip(sentences, names)]
    vocab = build_vocab(token_lists) if vocab is None else vocab
    unknown = [t for toks in token_lists for t in toks if t not in vocab]
    if unknown:
        raise PosvizError("lab.unknown_token", name="vocab", got=repr(unknown[0]))
    length = max(len(t) for t in token_lists)
    ids, mask, padded = [], [], []
    for toks in token_lists:
        k = length - len(toks)
        row = [vocab[t] for t in toks]
        if padding_side == "left":
            ids.append([PAD_ID] * k + row)
            mask.append([0] * k + [1] * len(toks))
            padded.append([PAD] * k + list(toks))
        else:
            ids.append(row + [PAD_ID] * k)
            mask.append([1] * len(toks) + [0] * k)
            padded.append(list(toks) + [PAD] * k)
    return Batch(tokens=padded, token_ids=torch.tensor(ids, dtype=torch.long),  # [N,L]
                 attention_mask=torch.tensor(mask, dtype=torch.long),             # [N,L]
                 vocab=vocab, lengths=tuple(len(t) for t in token_lists))
