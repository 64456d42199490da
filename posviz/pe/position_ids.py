r"""Position ids for a padded batch (“Same words, different order…” §11, §13).

A batch carries three different contracts that must be checked separately
(“Same words, different order…” §12 step 2): token ids, the valid (attention) mask, and position ids.

The correct ids count only real tokens:

    position_ids = clamp(cumsum(mask) - 1, min=0)

    mask = [[0,0,1,1,1],          position_ids = [[0,0,0,1,2],
            [1,1,1,1,1]]                          [0,1,2,3,4]]

Padding gets position 0 only to keep indices legal; the attention mask (not the
position id) is what makes a pad invisible.

The wrong schemes of “Same words, different order…” §13 are here too, so the lab can apply them:
    "arange"    one shared arange(L) for every row (wrong with left padding)
    "token_ids" the token ids used as positions (repeated words share a position)
    "zeros"     every position 0 (no order at all)
    "modulo"    p mod M: a learned table of M rows "extended" by wrapping around
"""
from __future__ import annotations

from collections.abc import Sequence

import torch

from posviz.validate import MAX_LENGTH, PosvizError, as_tensor, check_choice, check_int

SCHEMES = ("mask", "arange", "token_ids", "zeros", "modulo")
PACK_CONTRACTS = ("global", "reset", "source")
MAX_SEGMENTS = 64


def _check_mask(attention_mask, name="attention_mask"):
    """attention_mask [N,L] of 0/1 (bool or integer) -> LongTensor[N,L]."""
    m = as_tensor(name, attention_mask, ndim=2)                      # [N,L]
    if m.shape[0] < 1:
        raise PosvizError("at_least", name=f"{name} rows (N)", lo=1, got=m.shape[0])
    check_int(f"{name} length (L)", m.shape[1], 1, MAX_LENGTH)
    if m.is_floating_point() or m.is_complex():
        raise PosvizError("lab.integer_tensor", name=name, got=str(m.dtype))
    m = m.long()                                                     # [N,L]
    if ((m != 0) & (m != 1)).any():
        raise PosvizError("lab.binary", name=name)
    return m


def position_ids_from_mask(attention_mask: torch.Tensor) -> torch.Tensor:
    r"""clamp(cumsum(mask, -1) - 1, min=0) -> LongTensor[N,L]  (“Same words, different order…” §11).

    Formula:
        \text{position\_ids}=\max\big(\operatorname{cumsum}(\text{mask})-1,\ 0\big)

    Works for left and right padding: every row's first real token gets 0.
    """
    m = _check_mask(attention_mask)                                  # [N,L]
    return (m.cumsum(dim=-1) - 1).clamp_min(0)                       # [N,L]


def shared_arange(attention_mask: torch.Tensor) -> torch.Tensor:
    """The bug: arange(L) for every row, whatever the padding -> LongTensor[N,L]."""
    m = _check_mask(attention_mask)                                  # [N,L]
    n, length = m.shape
    return torch.arange(length)[None, :].expand(n, length).clone()   # [N,L]


def token_ids_as_positions(token_ids: torch.Tensor) -> torch.Tensor:
    """The bug: position_ids = token_ids (a repeated word repeats its 'position')."""
    ids = _check_token_ids(token_ids)                                # [N,L]
    return ids.clone()                                               # [N,L]


def zero_positions(attention_mask: torch.Tensor) -> torch.Tensor:
    """The bug: every token at position 0 -> LongTensor[N,L] of zeros."""
    m = _check_mask(attention_mask)                                  # [N,L]
    return torch.zeros_like(m)                                       # [N,L]


def modulo_positions(attention_mask: torch.Tensor, table_size: int) -> torch.Tensor:
    """The bug: p mod M, a table of M rows silently wrapped around -> LongTensor[N,L].

    Positions p >= M land on old rows p - M, p - 2M, ... without an error.
    """
    table_size = check_int("table_size", table_size, 1, MAX_LENGTH)
    return position_ids_from_mask(attention_mask) % table_size       # [N,L]


def _check_token_ids(token_ids, name="token_ids"):
    """token ids [N,L] of integers >= 0 -> LongTensor[N,L]."""
    ids = as_tensor(name, token_ids, ndim=2)                         # [N,L]
    if ids.is_floating_point() or ids.is_complex() or ids.dtype == torch.bool:
        raise PosvizError("lab.integer_tensor", name=name, got=str(ids.dtype))
    if ids.numel() and ids.min() < 0:
        raise PosvizError("at_least", name=name, lo=0, got=int(ids.min()))
    return ids.long()                                                # [N,L]


def make_position_ids(scheme: str, attention_mask: torch.Tensor, token_ids: torch.Tensor | None = None, *,
                      table_size: int | None = None) -> torch.Tensor:
    """Position ids [N,L] by scheme: "mask" (correct), "arange", "token_ids", "zeros", "modulo"."""
    check_choice("scheme", scheme, SCHEMES)
    if scheme == "mask":
        return position_ids_from_mask(attention_mask)                # [N,L]
    if scheme == "arange":
        return shared_arange(attention_mask)                         # [N,L]
    if scheme == "zeros":
        return zero_positions(attention_mask)                        # [N,L]
    if scheme == "modulo":
        if table_size is None:
            raise PosvizError("lab.needs", name="table_size", scheme="modulo")
        return modulo_positions(attention_mask, table_size)          # [N,L]
    if token_ids is None:
        raise PosvizError("lab.needs", name="token_ids", scheme="token_ids")
    ids = _check_token_ids(token_ids)                                # [N,L]
    m = _check_mask(attention_mask)                                  # [N,L]
    if ids.shape != m.shape:
        raise PosvizError("lab.same_shape", names="token_ids, attention_mask",
                          shapes=f"{list(ids.shape)}, {list(m.shape)}")
    return ids.clone()                                               # [N,L]


def packed_position_ids(segment_lengths: Sequence[int], contract: str, *,
                        source_offsets: Sequence[int] | None = None) -> torch.Tensor:
    r"""Position ids of several segments packed into one row -> LongTensor[T]  (“Same words, different order…” §11).

    Concatenated documents, retrieved passages, sliding windows and packed sequences need an
    explicit contract; there is no single right answer, but training, cache, mask and serving
    must all use the same one.  With segment k of length n_k starting at t_k = sum_{j<k} n_j:

    Formula:
        \text{global: } p=t,\qquad \text{reset: } p=t-t_k,\qquad \text{source: } p=o_k+(t-t_k)

        "global"  p = t                    one continuous coordinate over the whole row
        "reset"   p = t - t_k              every segment restarts at 0
        "source"  p = o_k + (t - t_k)      every segment keeps its coordinates in its source
                                           document (o_k = source_offsets[k])
    """
    check_choice("contract", contract, PACK_CONTRACTS)
    lengths = _segment_lengths(segment_lengths)
    if contract == "source":
        if source_offsets is None or isinstance(source_offsets, (str, bytes)) \
                or not hasattr(source_offsets, "__len__") or len(source_offsets) != len(lengths):
            raise PosvizError("lab.one_per_segment", name="source_offsets", n=len(lengths))
        offsets = [check_int("source_offsets", o, 0, MAX_LENGTH) for o in source_offsets]
    starts = torch.tensor([0] + lengths[:-1]).cumsum(0)              # [K]
    n = torch.tensor(lengths)                                        # [K]
    segment = torch.repeat_interleave(torch.arange(len(lengths)), n)  # [T]
    t = torch.arange(int(n.sum()))                                   # [T]
    if contract == "global":
        return t                                                     # [T]
    local = t - starts[segment]                                      # [T]
    if contract == "reset":
        return local                                                 # [T]
    return torch.tensor(offsets)[segment] + local                    # [T]


def _segment_lengths(segment_lengths):
    """A list of 1..MAX_SEGMENTS positive lengths adding up to at most MAX_LENGTH -> list[int]."""
    if isinstance(segment_lengths, (str, bytes)) or not hasattr(segment_lengths, "__len__"):
        raise PosvizError("lab.int_list", name="segment_lengths", hi=MAX_SEGMENTS, got=type(segment_lengths).__name__)
    check_int("len(segment_lengths)", len(segment_lengths), 1, MAX_SEGMENTS)
    lengths = [check_int("segment_lengths", n, 1, MAX_LENGTH) for n in segment_lengths]
    if sum(lengths) > MAX_LENGTH:
        raise PosvizError("at_most", name="sum(segment_lengths)", hi=MAX_LENGTH, got=sum(lengths))
    return lengths


def packed_segment_ids(segment_lengths: Sequence[int]) -> torch.Tensor:
    """Segment index of every packed token -> LongTensor[T] (0 for the first segment, 1, ...)."""
    lengths = _segment_lengths(segment_lengths)
    return torch.repeat_interleave(torch.arange(len(lengths)), torch.tensor(lengths))  # [T]
