r"""Relative position schemes that act on the score matrix [L,S] (“Same words, different order…” §15,
“Position encodings”).

Every formula lives in the `Formula:` section of the function that implements it (the page's
"Formula and code" box reads it from there). Bad input raises posviz.validate.PosvizError.

Queries are right-aligned: with L < S the queries are the last L key positions
(decoding with a cache of S - L tokens), so query row r sits at position i = S - L + r
and key column j at position j.

Conventions (each function says which one it uses):
    distance   d = i - j        (query minus key; > 0 means the key is in the past)
    T5         rel = j - i      (key minus query, "memory_position - context_position")
    Shaw index clamp(j - i, -k, k) + k   (row of the [2k+1, d] embedding table)

Where each scheme enters attention (“Same words, different order…” §15): Shaw looks up a learned vector per
(clipped) distance and adds q_i . a_ij to the score; T5 and ALiBi add a scalar bias to
the scores [N,H,L,S]; RoPE instead rotates Q and K [N,H,L,d]. A causal mask alone (NoPE)
only says which edges exist.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import torch

from posviz.validate import MAX_HEADS, MAX_LENGTH, PosvizError, as_tensor, check_choice, check_int

MAX_BUCKETS = 1024
MAX_T5_DISTANCE = 10**6


def _lengths(query_length, key_length):
    query_length = check_int("query_length", query_length, 1, MAX_LENGTH)
    key_length = query_length if key_length is None else check_int("key_length", key_length, 1, MAX_LENGTH)
    if query_length > key_length:
        raise PosvizError("rel_query_length", key_length=key_length, got=query_length)
    return query_length, key_length


def query_positions(query_length: int, key_length: int | None = None) -> torch.Tensor:
    """Absolute positions of the (right-aligned) queries: i = S - L + r -> LongTensor[L]."""
    lq, lk = _lengths(query_length, key_length)
    return torch.arange(lk - lq, lk)                                # [L]


def relative_distance(query_length: int, key_length: int | None = None) -> torch.Tensor:
    r"""D[r, j] = i - j with i = S - L + r the query position -> LongTensor[L,S].

    Formula:
        D_{ij} = i - j,\qquad i = S - L + r\ \ (\text{right-aligned queries})

    Diagonal (i = j) is 0, the past (j < i) is positive; D depends on i - j only, so
    shifting every position by the same amount leaves it unchanged (shift invariance).
    """
    lq, lk = _lengths(query_length, key_length)
    i = torch.arange(lk - lq, lk)                                   # [L] query positions
    j = torch.arange(lk)                                            # [S] key positions
    return i[:, None] - j[None, :]                                  # [L,S]


def causal_mask(query_length: int, key_length: int | None = None) -> torch.Tensor:
    r"""M[r, j] = (j <= i): True where query i may attend to key j -> BoolTensor[L,S].

    Formula:
        M_{ij} = [\,j \le i\,]

    The mask says WHICH edges exist (no future keys), not how far apart two visible
    tokens are: the row is all True for j = 0..i, whether j is 1 or 100 steps back.
    """
    return relative_distance(query_length, key_length) >= 0        # [L,S]


def nope_uniform_attention(query_length: int, key_length: int | None = None) -> torch.Tensor:
    r"""Attention without any position signal and identical contents: uniform over the
    visible keys, A[r, j] = M[r, j] / (i + 1) -> Tensor[L,S] float32.

    Formula:
        A_{ij} = \frac{M_{ij}}{\sum_{j'} M_{ij'}} = \frac{[\,j\le i\,]}{i+1}

    Even so the weight on any visible key, 1/(i+1), reveals how many tokens precede the
    query: the causal mask leaks absolute position (Haviv et al. 2022, NoPE).
    """
    mask = causal_mask(query_length, key_length).to(torch.float32)  # [L,S]
    return mask / mask.sum(dim=-1, keepdim=True)                   # [L,S]


# ---------------------------------------------------------------- Shaw et al. 2018
def _shaw_k(max_distance):
    return check_int("max_distance", max_distance, 0, MAX_LENGTH)


def shaw_relative_index(query_length: int, key_length: int | None = None, *, max_distance: int) -> torch.Tensor:
    r"""Row of Shaw's relative embedding table used by each pair -> LongTensor[L,S] in [0, 2k].

    Formula:
        a^K_{ij} = w^K_{\mathrm{clip}(j-i,\,k)},\quad \mathrm{clip}(x,k)=\max(-k,\min(k,x))
        e_{ij} = \frac{q_i\,(k_j + a^K_{ij})^\top}{\sqrt{d}},\qquad z_i=\sum_j \alpha_{ij}(v_j + a^V_{ij})

    index_{ij} = clip(j - i, -k, k) + k        (Shaw, Uszkoreit & Vaswani 2018, eq. 5)

    Every distance beyond k shares the edge rows 0 (far past) or 2k (far future).
    """
    k = _shaw_k(max_distance)
    rel = -relative_distance(query_length, key_length)              # [L,S] j - i
    return rel.clamp(-k, k) + k                                     # [L,S]


def shaw_clipped_distance(query_length: int, key_length: int | None = None, *, max_distance: int) -> torch.Tensor:
    r"""The distance Shaw's table can still tell apart: clamp(i - j, -k, k) -> LongTensor[L,S].

    Formula:
        \mathrm{clip}(i-j,\,-k,\,k)
    """
    k = _shaw_k(max_distance)
    return relative_distance(query_length, key_length).clamp(-k, k)  # [L,S]


def shaw_lost_distance(query_length: int, key_length: int | None = None, *, max_distance: int) -> torch.Tensor:
    r"""How many steps of distance the clipping throws away: max(|i - j| - k, 0) -> LongTensor[L,S].

    Formula:
        \text{lost}_{ij} = \max(|i-j|-k,\ 0)
    """
    k = _shaw_k(max_distance)
    return (relative_distance(query_length, key_length).abs() - k).clamp_min(0)  # [L,S]


# ---------------------------------------------------------------- T5 (Raffel et al. 2020)
def _t5_args(bidirectional, num_buckets, max_distance):
    bidirectional = check_choice("bidirectional", bidirectional, (True, False))
    lo = 4 if bidirectional else 2
    num_buckets = check_int("num_buckets", num_buckets, lo, MAX_BUCKETS)
    max_exact = (num_buckets // 2 if bidirectional else num_buckets) // 2
    max_distance = check_int("max_distance", max_distance, 1, MAX_T5_DISTANCE)
    if max_distance <= max_exact:
        raise PosvizError("rel_t5_max_distance", max_exact=max_exact, num_buckets=num_buckets,
                          bidirectional=bidirectional, got=max_distance)
    return bool(bidirectional), num_buckets, max_distance


def t5_max_exact(*, bidirectional: bool = True, num_buckets: int = 32) -> int:
    """Distances below this get a bucket each: (num_buckets // 2 if bidirectional) // 2."""
    bidirectional = check_choice("bidirectional", bidirectional, (True, False))
    num_buckets = check_int("num_buckets", num_buckets, 4 if bidirectional else 2, MAX_BUCKETS)
    return (num_buckets // 2 if bidirectional else num_buckets) // 2


def t5_relative_position_bucket(relative_position: torch.Tensor, *, bidirectional: bool = True, num_buckets: int = 32,
                                max_distance: int = 128) -> torch.Tensor:
    r"""T5's bucket of relative_position = key - query (elementwise, LongTensor in and out).

    Formula:
        n = |j - i|\ (\text{bidirectional}),\qquad n=\max(i-j,\,0)\ (\text{causal})
        \text{bucket}(n)=\begin{cases} n & n < m_e \\ \min\!\Big(m_e + \Big\lfloor
            \frac{\ln(n/m_e)}{\ln(\text{max\_distance}/m_e)}\,(n_b-m_e)\Big\rfloor,\ n_b-1\Big) & n\ge m_e
            \end{cases},\quad m_e=\lfloor n_b/2\rfloor

    Bidirectional: half the buckets for keys after the query (rel > 0), half for the rest.
    Causal: future keys (rel > 0) all fall in bucket 0 (they are masked anyway).
    Of the nb buckets of one direction, n = |rel| below max_exact = nb // 2 gets its own
    bucket; larger n are spaced logarithmically up to max_distance, and everything
    farther shares the last bucket:
        n <  max_exact:  bucket = n
        n >= max_exact:  bucket = min(max_exact + floor(log(n/max_exact) / log(max_distance/max_exact)
                                                         * (nb - max_exact)),  nb - 1)
    """
    bidirectional, num_buckets, max_distance = _t5_args(bidirectional, num_buckets, max_distance)
    rel = as_tensor("relative_position", relative_position).long()  # [...]
    ret = torch.zeros_like(rel)                                     # [...]
    if bidirectional:
        num_buckets //= 2
        ret = ret + (rel > 0).long() * num_buckets                  # [...] keys after the query
        n = rel.abs()                                               # [...]
    else:
        n = (-rel).clamp_min(0)                                     # [...] future keys -> 0
    max_exact = num_buckets // 2
    is_small = n < max_exact                                        # [...]
    large = max_exact + (
        torch.log(n.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()                                                        # [...] (n = 0 gives -inf: unused)
    large = large.clamp_max(num_buckets - 1)                        # [...]
    return ret + torch.where(is_small, n, large)                    # [...]


def t5_bucket_matrix(query_length: int, key_length: int | None = None, *, bidirectional: bool = True,
                     num_buckets: int = 32, max_distance: int = 128) -> torch.Tensor:
    """Bucket of (key - query) for every query/key pair -> LongTensor[L,S] in [0, num_buckets)."""
    rel = -relative_distance(query_length, key_length)             # [L,S] key - query
    return t5_relative_position_bucket(rel, bidirectional=bidirectional, num_buckets=num_buckets,
                                       max_distance=max_distance)  # [L,S]


def t5_bucket_ranges(*, bidirectional: bool = True, num_buckets: int = 32,
                     max_distance: int = 128) -> list[dict[str, int | str | None]]:
    """For every bucket, the distances d = i - j it covers, read off the bucket function itself.

    Returns a list of num_buckets dicts {"bucket", "lo", "hi", "count", "region", "side"}:
    lo <= d <= hi (None = unbounded: the last bucket of a direction takes every distance
    beyond); count = number of distances (None when unbounded, 0 for an empty bucket,
    whose lo/hi are None); region "exact" (one distance) or "log"; side "past" (key at or
    before the query, d >= 0) or "future" (d < 0).
    """
    bidirectional, num_buckets, max_distance = _t5_args(bidirectional, num_buckets, max_distance)
    n = torch.arange(0, max_distance + 1)                           # [M+1] |distance|, M = max_distance
    kw = dict(bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    d = torch.cat([n, -n[1:]]) if bidirectional else n              # [D] every distance up to M, both sides
    b = t5_relative_position_bucket(-d, **kw)                       # [D] (T5 takes j - i = -d)
    big = MAX_T5_DISTANCE + 1
    lo_t = torch.full((num_buckets,), big).scatter_reduce(0, b, d, "amin")   # [nb]
    hi_t = torch.full((num_buckets,), -big).scatter_reduce(0, b, d, "amax")  # [nb]
    used = torch.bincount(b, minlength=num_buckets) > 0             # [nb]
    max_exact = t5_max_exact(bidirectional=bidirectional, num_buckets=num_buckets)
    spans = {bk: (lo_t[bk].item(), hi_t[bk].item()) for bk in range(num_buckets) if used[bk]}
    half = num_buckets // 2 if bidirectional else num_buckets
    rows = []
    for bk in range(num_buckets):
        side = "future" if bidirectional and bk >= half else "past"
        local = bk - half if side == "future" else bk
        region = "exact" if local < max_exact else "log"
        if bk not in spans:
            rows.append(dict(bucket=bk, lo=None, hi=None, count=0, region=region, side=side))
            continue
        lo, hi = spans[bk]
        if side == "past" and hi == max_distance:
            hi = None                                               # shares everything farther
        if side == "future" and lo == -max_distance:
            lo = None
        if not bidirectional and bk == 0:
            lo = None                                               # causal: every future key too
        count = None if lo is None or hi is None else hi - lo + 1
        rows.append(dict(bucket=bk, lo=lo, hi=hi, count=count, region=region, side=side))
    return rows


def t5_representative_distance(query_length: int, key_length: int | None = None, *, bidirectional: bool = True,
                               num_buckets: int = 32, max_distance: int = 128) -> torch.Tensor:
    r"""The distance the bias can still tell apart: each pair's d = i - j replaced by the
    distance closest to 0 in its bucket -> LongTensor[L,S] (what T5's learned bias 'sees').

    Formula:
        \arg\min_{d\,\in\,\text{bucket}(i-j)} |d|
    """
    rows = t5_bucket_ranges(bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    rep = []
    for r in rows:
        lo, hi = r["lo"], r["hi"]
        if r["count"] == 0:
            rep.append(0)                                           # empty bucket: never looked up
        elif (lo is None or lo <= 0) and (hi is None or hi >= 0):
            rep.append(0)
        elif lo is not None and lo > 0:
            rep.append(lo)
        else:
            rep.append(hi)
    table = torch.tensor(rep, dtype=torch.long)                     # [num_buckets]
    buckets = t5_bucket_matrix(query_length, key_length, bidirectional=bidirectional,
                               num_buckets=num_buckets, max_distance=max_distance)  # [L,S]
    return table[buckets]                                           # [L,S]


# ---------------------------------------------------------------- ALiBi (Press et al. 2021)
def _power_of_two_slopes(n):
    """Geometric sequence starting at 2^(-8/n) with the same ratio (Press et al.)."""
    start = 2.0 ** (-(2.0 ** -(math.log2(n) - 3)))
    return [start * start**i for i in range(n)]


def alibi_base_heads(num_heads: int) -> int:
    """Largest power of two <= num_heads: these heads take the plain geometric slopes."""
    num_heads = check_int("num_heads", num_heads, 1, MAX_HEADS)
    return 2 ** math.floor(math.log2(num_heads))


def alibi_slopes(num_heads: int) -> torch.Tensor:
    r"""ALiBi head slopes m_h, exactly the official get_slopes -> Tensor[H] float32.

    Formula:
        m_h = 2^{-8h/H},\quad h = 1,\ldots,H\qquad (H = 2^a)
        H \ne 2^a:\ \ m = \mathrm{slopes}(2^{\lfloor\log_2 H\rfloor})\ \Vert\
            \mathrm{slopes}(2^{\lfloor\log_2 H\rfloor+1})[0::2][:H-2^{\lfloor\log_2 H\rfloor}]

    H a power of two: m_h = 2^(-8h/H), h = 1..H.  Otherwise take the slopes of the
    closest smaller power of two 2^k and fill with every other slope of 2^(k+1)
    (its 1st, 3rd, 5th, ...), as many as are missing.
    """
    num_heads = check_int("num_heads", num_heads, 1, MAX_HEADS)
    if math.log2(num_heads).is_integer():
        slopes = _power_of_two_slopes(num_heads)
    else:
        closest = alibi_base_heads(num_heads)
        slopes = _power_of_two_slopes(closest) + _power_of_two_slopes(2 * closest)[0::2][: num_heads - closest]
    return torch.tensor(slopes, dtype=torch.float32)               # [H]


def alibi_bias(num_heads: int, query_length: int, key_length: int | None = None) -> torch.Tensor:
    r"""b[h, r, j] = -m_h * |i - j| -> Tensor[H,L,S] (add to the scores before softmax).

    Formula:
        b_{hij} = -m_h\,|i-j|
    """
    slopes = alibi_slopes(num_heads)                               # [H]
    dist = relative_distance(query_length, key_length).abs()       # [L,S]
    return 0.0 - slopes[:, None, None] * dist[None].to(torch.float32)  # [H,L,S] (0 - x: no -0.0)


def alibi_head_bias(num_heads: int, head: int, query_length: int, key_length: int | None = None) -> torch.Tensor:
    r"""Bias of one head (1-based, like the paper's h = 1..H): -m_head * |i - j| -> Tensor[L,S].

    Formula:
        b_{hij} = -m_h\,|i-j|
    """
    num_heads = check_int("num_heads", num_heads, 1, MAX_HEADS)
    head = check_int("head", head, 1, num_heads)
    slope = alibi_slopes(num_heads)[head - 1]                      # []
    dist = relative_distance(query_length, key_length).abs()       # [L,S]
    return 0.0 - slope * dist.to(torch.float32)                    # [L,S]


# ---------------------------------------------------------------- shift invariance
def shifted_positions(query_length: int, key_length: int | None = None, *,
                      shift: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Absolute positions after moving the whole sequence right by `shift` tokens
    (e.g. ten words prepended): (query positions LongTensor[L], key positions LongTensor[S])."""
    lq, lk = _lengths(query_length, key_length)
    shift = check_int("shift", shift, 0, MAX_LENGTH)
    i = torch.arange(lk - lq, lk) + shift                          # [L]
    j = torch.arange(lk) + shift                                    # [S]
    return i, j


def distance_from_positions(query_pos: torch.Tensor | Sequence[int],
                            key_pos: torch.Tensor | Sequence[int]) -> torch.Tensor:
    r"""d = i - j for explicit positions -> LongTensor[L,S]; equal to relative_distance for any
    common shift of i and j (the matrix depends on i - j only).

    Formula:
        D_{(i+\Delta)(j+\Delta)} = (i+\Delta)-(j+\Delta) = D_{ij}
    """
    i = as_tensor("query_pos", query_pos).long()                    # [L]
    j = as_tensor("key_pos", key_pos).long()                        # [S]
    if i.ndim != 1 or j.ndim != 1 or i.numel() < 1 or j.numel() < 1:
        raise PosvizError("rel_positions", query_shape=list(i.shape), key_shape=list(j.shape))
    return i[:, None] - j[None, :]                                  # [L,S]


def shaw_summary(query_length: int, key_length: int | None = None, *, max_distance: int) -> dict[str, int]:
    """Counts for the Shaw panel: table rows 2k+1, pairs L*S, pairs with |i-j| > k, distinct
    distances in the matrix (L+S-1) and how many table rows the matrix actually reads."""
    k = _shaw_k(max_distance)
    idx = shaw_relative_index(query_length, key_length, max_distance=k)  # [L,S]
    lost = shaw_lost_distance(query_length, key_length, max_distance=k)  # [L,S]
    lq, lk = idx.shape
    return dict(rows=2 * k + 1, pairs=lq * lk, clipped=int((lost > 0).sum()),
                distinct=lq + lk - 1, rows_used=int(idx.unique().numel()))


def t5_bucket_curve(*, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128,
                    extent: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """Bucket as a function of the distance d = i - j for d in [-extent, extent]
    (default: 1.25 * max_distance) -> (d LongTensor[2E+1], bucket LongTensor[2E+1])."""
    bidirectional, num_buckets, max_distance = _t5_args(bidirectional, num_buckets, max_distance)
    extent = math.ceil(1.25 * max_distance) if extent is None else extent
    extent = check_int("extent", extent, 1, MAX_T5_DISTANCE)
    d = torch.arange(-extent, extent + 1)                           # [2E+1] i - j
    return d, t5_relative_position_bucket(-d, bidirectional=bidirectional, num_buckets=num_buckets,
                                          max_distance=max_distance)  # [2E+1] (T5 takes j - i)
