r"""Rotary position embedding (RoPE), seed 000 §07-§09 and seed 001 "RoPE".

Each pair i of a head's d dimensions is rotated by the angle p * theta_i:

    theta_i = base^{-2i/d},  i = 0 .. d/2-1
    R_i(p) = [[cos p theta_i, -sin p theta_i],
              [sin p theta_i,  cos p theta_i]]
    (R(p) q)^T (R(s) k) = q^T R(s - p) k          (only s - p survives)

Two pairings exist in real code:
    "interleaved": pairs (0,1), (2,3), ...           RoFormer, seed 000 §09
    "half":        pairs (i, i + d/2)                Hugging Face Llama `rotate_half`
"""
import torch

from posviz.checks_args import MAX_POSITION, check_base, check_choice, check_even, check_float

LAYOUTS = ("interleaved", "half")


def rope_inv_freq(head_dim, base=10000.0):
    """theta_i = base^{-2i/d}, i = 0..d/2-1 -> Tensor[d/2] float32 (computed in float64)."""
    head_dim = check_even("head_dim", head_dim)
    base = check_base(base)
    i = torch.arange(0, head_dim, 2, dtype=torch.float64)          # [d/2] = 2i
    return (base ** (-i / head_dim)).to(torch.float32)              # [d/2]


def _check_positions(position_ids, n, length):
    """position_ids [L] or [N,L] (integer or float) -> float32 [N,L]."""
    if not isinstance(position_ids, torch.Tensor):
        position_ids = torch.as_tensor(position_ids)
    if position_ids.ndim == 1:
        if position_ids.shape[0] != length:
            raise ValueError(f"position_ids must have shape [L]={length} or [N,L], got {tuple(position_ids.shape)}")
        position_ids = position_ids[None, :].expand(n, length)       # [N,L]
    elif position_ids.ndim != 2 or tuple(position_ids.shape) != (n, length):
        raise ValueError(f"position_ids must have shape [{length}] or [{n},{length}], got {tuple(position_ids.shape)}")
    pos = position_ids.to(torch.float32)                             # [N,L]
    if not torch.isfinite(pos).all() or pos.abs().max() > MAX_POSITION:
        raise ValueError(f"position_ids must be finite with |p| <= {MAX_POSITION}")
    return pos


def rope_cos_sin(position_ids, inv_freq, attention_factor=1.0):
    """Angles p * theta_i in float32 -> (cos, sin), each [N, L, d/2]."""
    angles = position_ids.to(torch.float32)[..., None] * inv_freq.to(torch.float32)  # [N,L,d/2]
    return angles.cos() * attention_factor, angles.sin() * attention_factor           # [N,L,d/2] x2


def apply_rope(x, position_ids, *, base=10000.0, inv_freq=None, attention_factor=1.0,
               layout="interleaved"):
    """Rotate x [N,H,L,d] by R(p) for the positions p in position_ids ([L] or [N,L]).

    x'_{2i}   = x_{2i} cos(p theta_i) - x_{2i+1} sin(p theta_i)      (interleaved)
    x'_{2i+1} = x_{2i} sin(p theta_i) + x_{2i+1} cos(p theta_i)
    "half" pairs x_i with x_{i+d/2} instead. Angles are computed in float32 and only
    cos/sin are cast to x.dtype (seed 000 §09). cos and sin are multiplied by
    attention_factor, as Hugging Face does for YaRN.
    """
    if not isinstance(x, torch.Tensor) or x.ndim != 4:
        raise ValueError(f"x must be a tensor [N,H,L,d], got shape {getattr(x, 'shape', None)}")
    n, _, length, d = x.shape
    check_even("head_dim (x.shape[-1])", d)
    check_choice("layout", layout, LAYOUTS)
    attention_factor = check_float("attention_factor", attention_factor, 0.0, 100.0, lo_open=True)
    if inv_freq is None:
        inv_freq = rope_inv_freq(d, base)                            # [d/2]
    elif tuple(inv_freq.shape) != (d // 2,):
        raise ValueError(f"inv_freq must have shape [{d // 2}] (head_dim/2), got {tuple(inv_freq.shape)}")
    pos = _check_positions(position_ids, n, length)                  # [N,L]
    cos, sin = rope_cos_sin(pos, inv_freq, attention_factor)         # [N,L,d/2]
    cos = cos.to(x.dtype)[:, None]                                   # [N,1,L,d/2]
    sin = sin.to(x.dtype)[:, None]                                   # [N,1,L,d/2]
    if layout == "interleaved":
        x1, x2 = x[..., 0::2], x[..., 1::2]                          # [N,H,L,d/2] x2
        out = torch.empty_like(x)                                    # [N,H,L,d]
        out[..., 0::2] = x1 * cos - x2 * sin
        out[..., 1::2] = x1 * sin + x2 * cos
        return out
    x1, x2 = x[..., : d // 2], x[..., d // 2:]                       # [N,H,L,d/2] x2
    return torch.cat((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)  # [N,H,L,d]
