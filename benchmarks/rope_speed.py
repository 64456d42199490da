"""Speed of posviz.pe.rope.apply_rope: does the private fast path (posviz.pe._rope_fast, no cache)
still pay against the transparent formula? And against x.clone() and Hugging Face.

    python -m benchmarks.rope_speed [--reps 21] [--shape 1 32 4096 128] [--threads N]

Prints the median wall time of each variant (ms) and the ratios:
- apply_rope interleaved (what the app runs: the fast path where it applies) against the same
  function's transparent rotation (rotate_pairs: even/odd slices, stack) — the fast path pays if
  this ratio is clearly below 1;
- apply_rope against x.clone() (target <= 1.5x) and against HF's apply_rotary_pos_emb (target >= 3x;
  HF's function rotates q and k together, so its time is reported for the pair and per tensor).
Both apply_rope variants compute their cos/sin table on every call (no cache anywhere): on a loaded
shared host, torch's multi-threaded small ops (the [L, d/2] table) can stall for tens of ms, so
compare with --threads 1 as well. The variants are timed round-robin so that load from other
processes hits all of them alike.
"""
import argparse
import statistics
import time

import torch

from posviz.pe import _rope_fast
from posviz.pe.rope import apply_rope, rope_inv_freq, rotate_pairs


def transparent(x, position_ids, base=10000.0):
    """apply_rope without the fast path: the same float32 angles, cos/sin, then rotate_pairs."""
    angles = position_ids.to(torch.float32)[None, :, None] * rope_inv_freq(x.shape[-1], base)  # [1,L,d/2]
    cos, sin = angles.cos().to(x.dtype)[:, None], angles.sin().to(x.dtype)[:, None]           # [1,1,L,d/2] x2
    return rotate_pairs(x, cos, sin)                                     # [N,H,L,d]


def seed_reference(x, position_ids, base=10000.0):
    """The teaching implementation of seed 000 §09 (stack + flatten), with posviz's inv_freq."""
    inv_freq = rope_inv_freq(x.shape[-1], base)                          # [d/2]
    angles = position_ids.to(torch.float32)[None, :, None] * inv_freq    # [1,L,d/2]
    cos, sin = angles.cos()[:, None], angles.sin()[:, None]              # [1,1,L,d/2] x2
    even, odd = x[..., 0::2], x[..., 1::2]                               # [N,H,L,d/2] x2
    return torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)  # [N,H,L,d]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--reps", type=int, default=21, help="timed calls of each variant (default 21)")
    ap.add_argument("--shape", type=int, nargs=4, default=[1, 32, 4096, 128], metavar=("N", "H", "L", "D"),
                    help="the tensor's shape (default 1 32 4096 128)")
    ap.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's own)")
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    torch.manual_seed(0)
    n, h, length, d = args.shape
    x = torch.randn(n, h, length, d)                                     # [N,H,L,d]
    k = torch.randn(n, h, length, d)                                     # [N,H,L,d]
    pos = torch.arange(length)                                           # [L]
    freqs = pos[None, :, None].float() * rope_inv_freq(d)                # [1,L,d/2]
    emb = torch.cat((freqs, freqs), dim=-1)                              # [1,L,d]
    cos, sin = emb.cos(), emb.sin()                                      # precomputed, as HF caches them

    variants = {
        "x.clone()": lambda: x.clone(),
        "apply_rope interleaved (app)": lambda: apply_rope(x, pos),
        "transparent interleaved": lambda: transparent(x, pos),
        "apply_rope half": lambda: apply_rope(x, pos, layout="half"),
        "seed 000 §09 reference": lambda: seed_reference(x, pos),
        "HF apply_rotary_pos_emb (q,k)": lambda: apply_rotary_pos_emb(x, k, cos, sin),
    }
    fast = _rope_fast.applies(x, "interleaved")
    assert torch.equal(apply_rope(x, pos), transparent(x, pos)), "fast path is not exact"
    assert torch.equal(apply_rope(x, pos), seed_reference(x, pos)), "apply_rope is not the §09 listing"
    times = {name: [] for name in variants}
    for fn in variants.values():                                         # warm-up
        fn()
    for _ in range(args.reps):
        for name, fn in variants.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    med = {name: statistics.median(ts) * 1e3 for name, ts in times.items()}
    print(f"shape {tuple(args.shape)} float32, torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"{args.reps} reps, median ms; fast path taken: {fast}")
    for name, ms in med.items():
        print(f"  {name:32s} {ms:9.2f}")
    hf_pair = med["HF apply_rotary_pos_emb (q,k)"]
    ours = med["apply_rope interleaved (app)"]
    print(f"apply_rope / transparent         {ours / med['transparent interleaved']:.2f}x   (< 1: the fast path pays)")
    print(f"apply_rope / clone               {ours / med['x.clone()']:.2f}x   (target <= 1.5)")
    print(f"HF (q,k) / apply_rope            {hf_pair / ours:.2f}x   (target >= 3)")
    print(f"HF per tensor / apply_rope       {hf_pair / 2 / ours:.2f}x")
    print(f"HF per tensor / apply_rope half  {hf_pair / 2 / med['apply_rope half']:.2f}x")


if __name__ == "__main__":
    main()
