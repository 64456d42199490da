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

from posviz.validate import MAX_LENGTH, PosvizError, as_tensor, check_choice, check_float, check_int

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


def cu_seqlens(segment_lengths: Sequence[int]) -> torch.Tensor:
    r"""Cumulative segment lengths of a packed row -> IntTensor[K+1] (int32), flash-attention's varlen
    convention (`cu_seqlens_q`, `cu_seqlens_k`; transformers' DataCollatorWithFlattening's `cu_seq_lens_q`).

    Formula:
        \text{cu}_0=0,\qquad \text{cu}_{k+1}=\text{cu}_k+n_k
            \quad(\text{segment }k\text{ is tokens }\text{cu}_k..\text{cu}_{k+1}-1)
    """
    lengths = _segment_lengths(segment_lengths)
    return torch.tensor([0] + lengths, dtype=torch.int32).cumsum(0, dtype=torch.int32)   # [K+1]


def segment_ids_from_position_ids(position_ids: torch.Tensor) -> torch.Tensor:
    r"""Which document each token of a packed row belongs to, read off its position ids -> LongTensor[N,L]:
    a new document starts wherever the id does not go up by exactly 1 (transformers'
    find_packed_sequence_indices, which builds the block-diagonal mask from it).

    Formula:
        \text{seg}_t=\sum_{u\le t}\,[\,p_u-p_{u-1}\ne 1\,],\qquad p_{-1}=p_0-1

    Ids that run on through the whole row (the "global" contract) therefore read as ONE document:
    the documents are told apart only if the ids restart.
    """
    pos = as_tensor("position_ids", position_ids, ndim=(1, 2))                       # [L] or [N,L]
    if pos.is_floating_point() or pos.is_complex() or pos.dtype == torch.bool:
        raise PosvizError("lab.integer_tensor", name="position_ids", got=str(pos.dtype))
    pos = pos.long().reshape(-1, pos.shape[-1])                                      # [N,L]
    check_int("position_ids length (L)", pos.shape[1], 1, MAX_LENGTH)
    diff = torch.diff(pos, prepend=pos[:, :1] - 1, dim=-1)                           # [N,L]
    return (diff != 1).long().cumsum(-1)                                             # [N,L]


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


# ---------------------------------------------------------------- multimodal RoPE (M-RoPE): 3-D position ids
MROPE_MODELS = ("qwen2_vl", "qwen2_5_vl", "qwen3_vl")
MROPE_KINDS = ("text", "image", "video")
MAX_MROPE_SEGMENTS = 64
MAX_GRID = 1024                 # patches along one side of a grid, or temporal patches of a video
MAX_MERGE = 8
MAX_TOKENS_PER_SECOND = 100
MAX_SECOND_PER_GRID = 100.0
QWEN25_TOKENS_PER_SECOND = 4    # transformers 5.24's Qwen2_5_VLVisionConfig.tokens_per_second default


def _mrope_grid(value, merge):
    """(t, h, w) of a vision segment -> tuple of ints, h and w multiples of the merge size."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 3:
        raise PosvizError("mrope_grid", got=repr(value)[:80])
    t, h, w = (check_int(name, v, 1, MAX_GRID) for name, v in zip(("t", "h", "w"), value))
    if h % merge or w % merge:
        raise PosvizError("mrope_merge", h=h, w=w, merge=merge)
    return t, h, w


def _mrope_segments(segments, merge):
    """segments -> [(kind, n or (t, h, w))], each checked, their tokens adding up to at most MAX_LENGTH."""
    if isinstance(segments, (str, bytes, dict)) or not hasattr(segments, "__len__"):
        raise PosvizError("mrope_segments", hi=MAX_MROPE_SEGMENTS, got=type(segments).__name__)
    check_int("len(segments)", len(segments), 1, MAX_MROPE_SEGMENTS)
    out, tokens = [], 0
    for seg in segments:
        if isinstance(seg, (str, bytes)) or not hasattr(seg, "__len__") or len(seg) != 2 \
                or seg[0] not in MROPE_KINDS:
            raise PosvizError("mrope_segment", got=repr(seg)[:80])
        kind, value = seg
        if kind == "text":
            value = check_int("text tokens", value, 1, MAX_LENGTH)
            tokens += value
        else:
            value = _mrope_grid(value, merge)
            tokens += value[0] * value[1] * value[2] // (merge * merge)
        out.append((kind, value))
    if tokens > MAX_LENGTH:
        raise PosvizError("at_most", name="tokens (L)", hi=MAX_LENGTH, got=tokens)
    return out


def _seconds_per_video(second_per_grid, videos):
    """second_per_grid (None, one number, or one per video) -> [float | None] per video."""
    if second_per_grid is None:
        return [None] * videos
    if isinstance(second_per_grid, (list, tuple)):
        if len(second_per_grid) != videos:
            raise PosvizError("mrope_per_video", name="second_per_grid", n=videos, got=len(second_per_grid))
        values = second_per_grid
    else:
        values = [second_per_grid] * videos
    return [check_float("second_per_grid", v, 0.0, MAX_SECOND_PER_GRID, lo_open=True) for v in values]


def _time_interval(kind, model, tokens_per_second, second_per_grid):
    """The temporal stride of a vision block: 1, or for Qwen2.5-VL's videos tokens_per_second x
    second_per_grid (an int when second_per_grid is None, as transformers' default 1; else float32)."""
    if kind != "video" or model != "qwen2_5_vl":
        return 1
    if second_per_grid is None:
        return tokens_per_second
    return tokens_per_second * torch.tensor(second_per_grid, dtype=torch.float32)   # [] float32


def vision_block_ids(start: int, t: int, h: int, w: int, time_interval=1) -> torch.Tensor:
    r"""The 3-D ids of one vision block of t x h x w tokens (after merging) placed at position s -> LongTensor[3, thw].

    Formula:
        (p_t, p_h, p_w)_{k,r,c} = \big(s + \lfloor k\,\Delta \rfloor,\ s + r,\ s + c\big)

    k, r, c: the token's frame, row and column; Delta the temporal stride (1, or Qwen2.5-VL's
    tokens_per_second x seconds per temporal patch, multiplied in float32 as transformers does).
    """
    temporal = (torch.arange(t) * time_interval).long()             # [t]
    height = torch.arange(h) + start                                 # [h]
    width = torch.arange(w) + start                                  # [w]
    tt, hh, ww = torch.meshgrid(temporal, height, width, indexing="ij")  # [t,h,w] x3
    ids = torch.stack((tt, hh, ww), dim=0).reshape(3, -1)            # [3,thw]
    ids[0] += start
    return ids                                                       # [3,thw]


def mrope_position_ids(segments, *, model: str = "qwen2_vl", spatial_merge_size: int = 2,
                       tokens_per_second: int | None = None, second_per_grid=None) -> tuple[torch.Tensor, int]:
    r"""M-RoPE's 3-D position ids (temporal, height, width) of a text + image + video sequence, exactly as
    `get_rope_index` of the model in transformers 5.24 -> (LongTensor[3, L], next text position).

    Formula:
        \text{text token } j \text{ of a run starting at } s:\quad p_t = p_h = p_w = s + j, \qquad s \leftarrow s + n
        \text{block of } t \times h' \times w' \text{ tokens at } s:\ (s + \lfloor k\Delta \rfloor,\ s + r,\ s + c),
            \qquad s \leftarrow s + \max(h', w')
        \text{next generated token: } \max(\text{all ids}) + 1

    segments: [("text", n) | ("image", (t, h, w)) | ("video", (t, h, w))], (t, h, w) the patch grid as
    image_grid_thw / video_grid_thw give it; a block holds t*h*w / merge^2 tokens, h' = h / merge,
    w' = w / merge. Delta = 1, except Qwen2.5-VL's videos: tokens_per_second x second_per_grid (None:
    transformers' defaults, 4 and 1; second_per_grid is one number or one per video). Qwen3-VL positions
    each frame of a video like an image of its own (one block of 1 x h' x w' per frame; its processor
    writes a timestamp as text between frames). Text resumes at s + max(h', w') after a block, whatever
    its temporal ids reached (transformers 4.x and the original Qwen code resumed at the block's
    largest id + 1); the next generated token is at the largest id + 1 (rope_deltas).
    """
    check_choice("model", model, MROPE_MODELS)
    merge = check_int("spatial_merge_size", spatial_merge_size, 1, MAX_MERGE)
    segs = _mrope_segments(segments, merge)
    tps = QWEN25_TOKENS_PER_SECOND if tokens_per_second is None else \
        check_int("tokens_per_second", tokens_per_second, 1, MAX_TOKENS_PER_SECOND)
    seconds = iter(_seconds_per_video(second_per_grid, sum(kind == "video" for kind, _ in segs)))
    pos, blocks = 0, []
    for kind, value in segs:
        if kind == "text":
            blocks.append(torch.arange(value).view(1, -1).expand(3, -1) + pos)   # [3,n]
            pos += value
            continue
        t, h, w = value[0], value[1] // merge, value[2] // merge
        interval = _time_interval(kind, model, tps, next(seconds) if kind == "video" else None)
        n_blocks, block_t = (t, 1) if kind == "video" and model == "qwen3_vl" else (1, t)   # Qwen3-VL: frame by frame
        for _ in range(n_blocks):
            blocks.append(vision_block_ids(pos, block_t, h, w, interval))      # [3,thw]
            pos += max(h, w)
    ids = torch.cat(blocks, dim=1)                                   # [3,L]
    return ids, int(ids.max()) + 1
