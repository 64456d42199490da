r"""Sinusoidal absolute positions (Vaswani et al. 2017 §3.5; seed 000 §03-§05).

    w_i = base^{-2i/D},  i = 0 .. D/2-1
    PE_i(p) = [sin(p w_i), cos(p w_i)]
    X_p = E_token(p) + PE(p)
"""
import torch

from posviz.checks_args import MAX_LENGTH, MAX_POSITION, check_base, check_choice, check_even, check_int

LAYOUTS = ("interleaved", "concat")


def sinusoidal_frequencies(dim, base=10000.0):
    """w_i = base^{-2i/D} -> Tensor[D/2] float32 (computed in float64)."""
    dim = check_even("dim", dim)
    base = check_base(base)
    i2 = torch.arange(0, dim, 2, dtype=torch.float64)               # [D/2]
    return (base ** (-i2 / dim)).to(torch.float32)                  # [D/2]


def sinusoidal_positions(length, dim, *, base=10000.0, layout="interleaved", offset=0,
                         dtype=torch.float32):
    """PE for positions offset .. offset+length-1 -> Tensor[length, dim].

    "interleaved": [:, 0::2] = sin(p w), [:, 1::2] = cos(p w)     (seed 000 §05)
    "concat":      [:, :D/2] = sin(p w), [:, D/2:] = cos(p w)     (tensor2tensor)
    """
    length = check_int("length", length, 1, MAX_LENGTH)
    dim = check_even("dim", dim)
    offset = check_int("offset", offset, 0, MAX_POSITION)
    check_choice("layout", layout, LAYOUTS)
    w = sinusoidal_frequencies(dim, base).to(torch.float64)         # [D/2]
    p = torch.arange(offset, offset + length, dtype=torch.float64)  # [L]
    angles = p[:, None] * w[None, :]                                # [L,D/2]
    out = torch.empty(length, dim, dtype=torch.float64)             # [L,D]
    if layout == "interleaved":
        out[:, 0::2], out[:, 1::2] = angles.sin(), angles.cos()
    else:
        out[:, : dim // 2], out[:, dim // 2:] = angles.sin(), angles.cos()
    return out.to(dtype)                                            # [L,D]
