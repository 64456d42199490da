"""Speed of posviz.pe.rope.apply_rope vs x.clone() and Hugging Face's apply_rotary_pos_emb.

    python benchmarks/rope_speed.py [--reps 21] [--shape 1 32 4096 128]

Prints the median wall time of each variant (ms) and the ratios the brief asks for:
apply_rope (interleaved, float32) <= 1.5x clone, and >= 3x faster than HF. HF's function
rotates q and k together, so its time is reported for the pair and per tensor (half).
The variants are timed round-robin so that load from other processes hits all of them alike.
"""
import argparse
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from posviz.pe.rope import apply_rope, rope_inv_freq  # noqa: E402


def seed_reference(x, position_ids, base=10000.0):
    """The teaching implementation of seed 000 §09 (stack + flatten), for comparison."""
    d = x.shape[-1]
    inv_freq = rope_inv_freq(d, base)
    angles = position_ids.to(torch.float32)[None, :, None] * inv_freq    # [1,L,d/2]
    cos, sin = angles.cos()[:, None], angles.sin()[:, None]              # [1,1,L,d/2]
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--shape", type=int, nargs=4, default=[1, 32, 4096, 128])
    args = ap.parse_args()
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    torch.manual_seed(0)
    n, h, length, d = args.shape
    x = torch.randn(n, h, length, d)                                     # [N,H,L,d]
    k = torch.randn(n, h, length, d)                                     # [N,H,L,d]
    pos = torch.arange(length)                                           # [L]
    inv_freq = rope_inv_freq(d)
    freqs = pos[None, :, None].float() * inv_freq                        # [1,L,d/2]
    emb = torch.cat((freqs, freqs), dim=-1)                              # [1,L,d]
    cos, sin = emb.cos(), emb.sin()                                      # precomputed, as HF caches them

    variants = {
        "x.clone()": lambda: x.clone(),
        "apply_rope interleaved": lambda: apply_rope(x, pos),
        "apply_rope half": lambda: apply_rope(x, pos, layout="half"),
        "seed 000 §09 reference": lambda: seed_reference(x, pos),
        "HF apply_rotary_pos_emb (q,k)": lambda: apply_rotary_pos_emb(x, k, cos, sin),
    }
    assert torch.equal(apply_rope(x, pos), seed_reference(x, pos)), "fast path is not exact"
    times = {name: [] for name in variants}
    for fn in variants.values():                                         # warm-up (and table cache)
        fn()
    for _ in range(args.reps):
        for name, fn in variants.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    med = {name: statistics.median(ts) * 1e3 for name, ts in times.items()}
    print(f"shape {tuple(args.shape)} float32, torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"{args.reps} reps, median ms")
    for name, ms in med.items():
        print(f"  {name:32s} {ms:9.2f}")
    hf_pair = med["HF apply_rotary_pos_emb (q,k)"]
    ours = med["apply_rope interleaved"]
    print(f"apply_rope / clone               {ours / med['x.clone()']:.2f}x   (target <= 1.5)")
    print(f"HF (q,k) / apply_rope            {hf_pair / ours:.2f}x   (target >= 3)")
    print(f"HF per tensor / apply_rope       {hf_pair / 2 / ours:.2f}x")
    print(f"HF per tensor / apply_rope half  {hf_pair / 2 / med['apply_rope half']:.2f}x")


if __name__ == "__main__":
    main()
