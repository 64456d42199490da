r"""Relative position schemes that act on the score matrix [L,S] (seed 000 §15, seed 001).

Queries are right-aligned: with L < S the queries are the last L key positions
(decoding), so query row r sits at position S - L + r.
"""
import math

import torch

from posviz.checks_args import MAX_HEADS, MAX_LENGTH, check_int


def _lengths(query_length, key_length):
    query_length = check_int("query_length", query_length, 1, MAX_LENGTH)
    key_length = query_length if key_length is None else check_int("key_length", key_length, 1, MAX_LENGTH)
    if query_length > key_length:
        raise ValueError(f"query_length must be <= key_length ({key_length}), got {query_length}")
    return query_length, key_length


def relative_distance(query_length, key_length=None):
    """D[r, j] = i - j with i = S - L + r the query position -> LongTensor[L,S]."""
    lq, lk = _lengths(query_length, key_length)
    i = torch.arange(lk - lq, lk)                                   # [L] query positions
    j = torch.arange(lk)                                            # [S] key positions
    return i[:, None] - j[None, :]                                  # [L,S]


def t5_relative_position_bucket(relative_position, *, bidirectional=True, num_buckets=32, max_distance=128):
    r"""T5's bucket of relative_position = key - query (elementwise, LongTensor in and out).

    Half the buckets (per direction) hold exact small distances; the rest cover
    max_exact .. max_distance logarithmically; farther distances share the last bucket:
        n < max_exact:  bucket = n
        else:           bucket = max_exact + log(n/max_exact)/log(max_distance/max_exact) * (nb - max_exact)
    """
    num_buckets = check_int("num_buckets", num_buckets, 2, 1024)
    max_distance = check_int("max_distance", max_distance, 1, 10**6)
    rel = torch.as_tensor(relative_position).long()                 # [...]
    ret = torch.zeros_like(rel)                                     # [...]
    n = -rel                                                        # [...] query - key
    if bidirectional:
        num_buckets //= 2
        ret = ret + (n < 0).long() * num_buckets                    # keys after the query
        n = n.abs()
    else:
        n = n.clamp_min(0)                                          # future keys -> bucket 0
    max_exact = num_buckets // 2
    if max_exact < 1:
        raise ValueError(f"num_buckets must be >= {4 if bidirectional else 2}, got too few to split")
    if max_distance <= max_exact:
        raise ValueError(f"max_distance must be > num_buckets/{4 if bidirectional else 2} ({max_exact}), got {max_distance}")
    is_small = n < max_exact
    large = max_exact + (
        torch.log(n.float().clamp_min(1) / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()                                                        # [...]
    large = large.clamp_max(num_buckets - 1)
    return ret + torch.where(is_small, n, large)                    # [...]


def t5_bucket_matrix(query_length, key_length=None, *, bidirectional=True, num_buckets=32, max_distance=128):
    """Bucket of (key - query) for every query/key pair -> LongTensor[L,S] in [0, num_buckets)."""
    rel = -relative_distance(query_length, key_length)             # [L,S] key - query
    return t5_relative_position_bucket(rel, bidirectional=bidirectional, num_buckets=num_buckets,
                                       max_distance=max_distance)  # [L,S]


def _power_of_two_slopes(n):
    """Geometric sequence starting at 2^(-8/n) with the same ratio (Press et al.)."""
    start = 2.0 ** (-(2.0 ** -(math.log2(n) - 3)))
    return [start * start**i for i in range(n)]


def alibi_slopes(num_heads):
    """ALiBi head slopes m_h, exactly the official get_slopes -> Tensor[H] float32.

    H a power of two: m_h = 2^(-8h/H), h = 1..H.  Otherwise take the slopes of the
    closest smaller power of two 2^k and fill with every other slope of 2^(k+1).
    """
    num_heads = check_int("num_heads", num_heads, 1, MAX_HEADS)
    if math.log2(num_heads).is_integer():
        slopes = _power_of_two_slopes(num_heads)
    else:
        closest = 2 ** math.floor(math.log2(num_heads))
        slopes = _power_of_two_slopes(closest) + _power_of_two_slopes(2 * closest)[0::2][: num_heads - closest]
    return torch.tensor(slopes, dtype=torch.float32)               # [H]


def alibi_bias(num_heads, query_length, key_length=None):
    """b[h, r, j] = -m_h * |i - j| -> Tensor[H,L,S] (add to the scores before softmax)."""
    slopes = alibi_slopes(num_heads)                               # [H]
    dist = relative_distance(query_length, key_length).abs()       # [L,S]
    return -slopes[:, None, None] * dist[None].to(torch.float32)   # [H,L,S]
