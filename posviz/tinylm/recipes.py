"""What `python -m posviz.tinylm.train --all` trains: every recipe with every seed of SEEDS.

A recipe is a model (TinyConfig fields), a task and the training settings; everything not named
takes BASE. One run = one recipe with one seed, saved as `weights/<recipe>-s<seed>.pt`.

    the six position methods      2 layers, d_model 64, 800 steps at length 64 (copy with offset 2)
    today's RoPE variants         the same task and settings:
      rope_l4                     plain RoPE with 4 layers (what the NoPE hybrids are compared with)
      rope_nope2, rope_nope4      4 layers, no RoPE in every 2nd / every 4th layer, counted as
                                  transformers counts them: layer l has none when (l + 1) % k == 0
      rope_partial                25 % of the pairs rotated, theta_i = b^(-2i/d_r) over the rotated width
      rope_prop                   proportional RoPE: the same 25 %, the full width d in the exponent
      rope_qknorm                 RMSNorm on q and k per head before RoPE
    RoPE scaled to 256 with a short fine-tune (from the "rope" run of the same seed):
      ft_none, ft_pi, ft_ntk, ft_yarn   300 steps at length 256 (batch 8, lr 3e-3), no scaling / PI /
                                  NTK-aware / YaRN at s = 4
    the positional shortcut (the marker task, posviz.tinylm.task.make_marker_batch):
      short_learned, short_rope   the marker always at position MARKER_AT during training
      shift_learned, shift_rope   the marker anywhere in 1..56 (the data augmentation that removes it)
"""
from posviz.pe.scaling import ntk_aware_base

SEEDS = (0, 1, 2, 3, 4)
BASE = dict(method="rope", steps=800, batch_size=32, length=64, lr=6e-3, warmup=50, vocab_size=32, offset=2,
            d_model=64, n_layers=2, n_heads=4, task="copy")
SCALE_LENGTH = 256                     # the fine-tune's length: s = 256 / 64 = 4
SCALE = SCALE_LENGTH / BASE["length"]
MARKER_AT = 4                          # the shortcut's fixed marker position (answer at 5)
THETA = 10000.0

SCALED = {   # Hugging Face style rope parameters of the scalings at s = 4 (posviz.pe.scaling.rope_frequencies)
    "none": None,
    "pi": {"rope_type": "linear", "rope_theta": THETA, "factor": SCALE},
    "ntk": {"rope_type": "default", "rope_theta": ntk_aware_base(THETA, SCALE, BASE["d_model"] // BASE["n_heads"])},
    "yarn": {"rope_type": "yarn", "rope_theta": THETA, "factor": SCALE,
             "original_max_position_embeddings": BASE["length"]},
}
FINE_TUNE = dict(init="rope", length=SCALE_LENGTH, steps=300, batch_size=8, lr=3e-3, warmup=30)
SHORTCUT = dict(task="marker")

RECIPES = {
    "nope": dict(method="nope"),
    "sinusoidal": dict(method="sinusoidal"),
    "learned": dict(method="learned"),
    "rope": dict(method="rope"),
    "alibi": dict(method="alibi"),
    "t5": dict(method="t5"),
    "rope_l4": dict(n_layers=4),
    "rope_nope2": dict(n_layers=4, nope_layers=(1, 3)),
    "rope_nope4": dict(n_layers=4, nope_layers=(3,)),
    "rope_partial": dict(rope_parameters={"rope_type": "default", "rope_theta": THETA, "partial_rotary_factor": 0.25}),
    "rope_prop": dict(rope_parameters={"rope_type": "proportional", "rope_theta": THETA,
                                       "partial_rotary_factor": 0.25}),
    "rope_qknorm": dict(qk_norm=True),
    **{f"ft_{k}": dict(FINE_TUNE, rope_parameters=p) for k, p in SCALED.items()},
    "short_learned": dict(SHORTCUT, method="learned", marker_at=MARKER_AT),
    "short_rope": dict(SHORTCUT, marker_at=MARKER_AT),
    "shift_learned": dict(SHORTCUT, method="learned", marker_at=None),
    "shift_rope": dict(SHORTCUT, marker_at=None),
}
# the runs to train first: a fine-tune starts from the finished "rope" run of its seed
STAGES = (tuple(r for r in RECIPES if "init" not in RECIPES[r]), tuple(r for r in RECIPES if "init" in RECIPES[r]))


def settings(recipe):
    """BASE with the recipe's own settings -> a new dict."""
    return {**BASE, **RECIPES[recipe]}


def run_name(recipe, seed):
    """File stem of one run: "rope-s3"."""
    return f"{recipe}-s{seed}"
