"""Learned absolute positions (BERT / GPT-2 style; “Same words, different order…” §06, “Position encodings”).

A parameter table P in R^{M x D} (M = max_length); row p is added to the token embedding
(formula in LearnedAbsolutePositions). Position p >= M has no row. The hard boundary is the point: this module raises
PositionOutOfRangeError instead of wrapping. `modulo_position_ids` shows the bug of
“Same words, different order…” §13 ("学习式 position 表越界后临时取模"): p -> p mod M runs without an error,
but far positions silently reuse the rows of near ones.
"""
from __future__ import annotations

import torch
from torch import nn

from posviz.pe.sinusoidal import MAX_INPUT_VOCAB, SinusoidalInput, check_token_ids
from posviz.validate import MAX_DIM, MAX_LENGTH, PosvizError, check_int


class PositionOutOfRangeError(PosvizError):
    """A sequence is longer than the learned position table (L > max_length): not bad input but
    the hard boundary the articles warn about (`boundary`: the UI shows it as such)."""

    boundary = True

    def __init__(self, length: int, max_length: int) -> None:
        super().__init__("learned_boundary", L=length, M=max_length, last=max_length - 1)


def _check_length(length, max_length):
    if length > max_length:
        raise PositionOutOfRangeError(length, max_length)


class LearnedAbsolutePositions(nn.Module):
    r"""token embedding [V,D] + learned position table [M,D]; forward(token_ids [N,L]) -> [N,L,D].

    Formula:
        X_p = E_{token(p)} + P[p],\qquad P \in \mathbb{R}^{M\times D},\quad 0 \le p < M

    Both tables are nn.Embedding initialised from N(0, 1) with a seeded generator (the
    global RNG is untouched), so the same arguments give the same numbers.
    """

    def __init__(self, vocab_size: int, model_dim: int, max_length: int, *, seed: int = 0) -> None:
        super().__init__()
        vocab_size = check_int("vocab_size", vocab_size, 1, MAX_INPUT_VOCAB)
        model_dim = check_int("model_dim", model_dim, 1, MAX_DIM)
        self.max_length = check_int("max_length", max_length, 1, MAX_LENGTH)
        g = torch.Generator().manual_seed(check_int("seed", seed, 0, 2**31 - 1))
        self.token = nn.Embedding(vocab_size, model_dim,
                                  _weight=torch.randn(vocab_size, model_dim, generator=g))       # [V,D]
        self.position = nn.Embedding(self.max_length, model_dim,
                                     _weight=torch.randn(self.max_length, model_dim, generator=g))  # [M,D]

    def forward(self, token_ids: torch.Tensor) -> torch.Tensor:
        """X = E[token_ids] + P[arange(L)] -> [N,L,D]; L > max_length raises PositionOutOfRangeError."""
        check_token_ids(token_ids, self.token.num_embeddings)
        _, length = token_ids.shape
        _check_length(length, self.max_length)
        position_ids = torch.arange(length, device=token_ids.device)  # [L]
        token = self.token(token_ids)                                 # [N,L,D]
        position = self.position(position_ids)                        # [L,D]
        return token + position[None, :, :]                           # [N,L,D]


def learned_forward_shape(model_dim: int, max_length: int, length: int, *, batch: int = 1, vocab_size: int = 1000,
                          seed: int = 0) -> tuple[int, ...]:
    """Run LearnedAbsolutePositions on seeded token ids [batch, length]; -> output shape tuple.

    Raises PositionOutOfRangeError when length > max_length (what the page shows).
    """
    length = check_int("length", length, 1, 2 * MAX_LENGTH)
    batch = check_int("batch", batch, 1, 64)
    _check_length(length, check_int("max_length", max_length, 1, MAX_LENGTH))  # before building anything
    module = LearnedAbsolutePositions(vocab_size, model_dim, max_length, seed=seed)
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, vocab_size, (batch, length), generator=g)  # [N,L]
    with torch.no_grad():
        return tuple(module(ids).shape)                               # (N,L,D)


def modulo_position_ids(length: int, max_length: int) -> torch.Tensor:
    r"""The bug, not a fix: p -> p mod M for p = 0..L-1 -> LongTensor[L] (“Same words, different order…” §13).

    Formula:
        \text{bug: } P[p \bmod M] \Rightarrow P[M] \equiv P[0],\ P[M+1] \equiv P[1],\ \ldots

    No error is raised, but position M reads row 0, M+1 reads row 1, ...: far tokens
    silently wear the coordinates of the sequence start.
    """
    length = check_int("length", length, 1, 2 * MAX_LENGTH)
    max_length = check_int("max_length", max_length, 1, MAX_LENGTH)
    return torch.arange(length) % max_length                          # [L]


def aliased_positions(length: int, max_length: int) -> list[tuple[int, list[int]]]:
    """Rows of the table that the modulo bug makes several positions share.

    -> list of (row, [positions reading that row]) for rows read by >= 2 positions
    (empty when L <= M: nothing aliases until the table is overrun).
    """
    rows = modulo_position_ids(length, max_length)                    # [L]
    out = []
    for r in range(min(int(max_length), int(length))):
        ps = torch.nonzero(rows == r).flatten().tolist()
        if len(ps) > 1:
            out.append((r, ps))
    return out


def state_dict_summary(vocab_size: int, model_dim: int, max_length: int, *,
                       base: float = 10000.0) -> list[tuple[str, str, tuple[int, ...], str, bool]]:
    """What each input module stores (“Same words, different order…” §05 register_buffer note, §06).

    -> list of (module, name, shape, kind, in_state_dict) with kind "parameter" or "buffer":
    the learned table is a trainable parameter saved in state_dict; the sinusoidal table
    is a non-persistent buffer, rebuilt from the formula and never saved.
    """
    rows = []
    mods = [("learned", LearnedAbsolutePositions(vocab_size, model_dim, max_length)),
            ("sinusoidal", SinusoidalInput(vocab_size, model_dim, cache_length=max_length, base=base))]
    for label, mod in mods:
        saved = set(mod.state_dict().keys())
        for name, p in mod.named_parameters():
            rows.append((label, name, tuple(p.shape), "parameter", name in saved))
        for name, b in mod.named_buffers():
            rows.append((label, name, tuple(b.shape), "buffer", name in saved))
    return rows
