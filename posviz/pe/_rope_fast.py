"""Private fast path of posviz.pe.rope.apply_rope for the interleaved pairing: one complex multiply.

Pair (x_{2i}, x_{2i+1}) is the complex number a + ib, and rotating it by (cos, sin) is one complex
multiply (a + ib)(c + is) = (ac - bs) + i(as + bc): the same products and the same sums as the
transparent formula, in one pass over x instead of slices, two products per half and a stack.
apply_rope computes cos and sin itself (the same float32 angles) and hands them over; nothing is
cached here (posviz caches only in posviz.views). tests/pe/test_rope.py asserts torch.equal with
the transparent formula on every shape, dtype and thread count where `applies` is True;
benchmarks/rope_speed.py measures what it saves.
"""
from __future__ import annotations

import torch

VECTOR_BLOCK = 64   # complex numbers per block of PyTorch's vectorised CPU complex multiply


def applies(x: torch.Tensor, layout: str) -> bool:
    """True when the one-pass complex multiply gives bit for bit the separate products and sums.

    PyTorch's vectorised complex multiply computes ac - bs and as + bc with separate roundings,
    like the formula; its scalar remainder loop may fuse them (FMA, 1 ulp apart). So the fast
    path is taken only for the interleaved pairing of a contiguous float32/float64 CPU tensor
    whose rows and per-thread chunks are whole numbers of vector blocks; other shapes (small
    demos) and dtypes (float16, bfloat16) take the formula.
    """
    if layout != "interleaved" or x.dtype not in (torch.float32, torch.float64):
        return False
    if not x.is_contiguous() or x.device.type != "cpu" or x.ndim != 4:
        return False
    n, h, length, d = x.shape
    row, total, threads = length * (d // 2), x.numel() // 2, max(1, torch.get_num_threads())
    if total == 0 or row % VECTOR_BLOCK:
        return False
    return threads == 1 or (total % threads == 0 and (total // threads) % VECTOR_BLOCK == 0)


def rotate_interleaved(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """x [N,H,L,d] (contiguous) rotated pair by pair by cos, sin [B,1,L,d/2] (x.dtype) -> [N,H,L,d]."""
    n, h, length, d = x.shape
    rot = torch.complex(cos, sin)                                    # [B,1,L,d/2] complex
    xc = torch.view_as_complex(x.view(n, h, length, d // 2, 2))      # [N,H,L,d/2] complex (a view)
    return torch.view_as_real(xc * rot).view(n, h, length, d)        # [N,H,L,d]
