r"""RoPE scaling and length extrapolation: PI, NTK-aware, dynamic NTK, YaRN, Llama 3.

Seed 001 "length extrapolation": beyond the trained length a RoPE model meets relative
distances and, above all, *combinations of phases* it never saw. The angles themselves are
not the problem (a fast pair turns many times inside the trained window). The methods here
change the frequency spectrum theta_i = b^{-2i/d} so that the phases needed at the target
length stay (mostly) inside what training covered:

    linear (PI, Chen et al. 2023)   theta'_i = theta_i / s                   (positions p -> p/s)
    NTK-aware (bloc97 2023)         b' = b * s^{d/(d-2)}                     (theta_0 kept, theta_{d/2-1} / s)
    dynamic NTK (emozilla 2023)     b' = b * (s L/L0 - (s-1))^{d/(d-2)},  L = max(seq_len, L0)
    YaRN (Peng et al. 2023)         ramp between beta_slow and beta_fast turns; attention x (0.1 ln s + 1)
    Llama 3 (Meta 2024)             lambda < L0/high: kept; lambda > L0/low: / s; smooth in between

`rope_frequencies` matches transformers' ROPE_INIT_FUNCTIONS (5.24) for the same parameters
(tests/test_scaling.py builds real LlamaConfig objects and compares). Mapping of our dict onto a
Hugging Face config: `head_dim` -> config.head_dim (partial_rotary_factor = 1);
`original_max_position_embeddings` -> rope_parameters[...] for "yarn" / "llama3" and ->
config.max_position_embeddings for "dynamic" (the length HF's dynamic NTK compares against).
Frequencies are computed in float32 like the reference (see rope_frequencies); the
analysis helpers (wavelengths, phases, scores) work in float64.
"""
import math

import numpy as np
import torch

from posviz.validate import (
    MAX_DIM,
    MAX_POSITION,
    check_choice,
    check_even,
    check_float,
    check_int,
)

ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "llama3")
# Methods the extrapolation page compares; "ntk" is static NTK-aware (a default RoPE with base b').
METHODS = ("default", "linear", "ntk", "dynamic", "yarn", "llama3")
KEYS = ("rope_type", "rope_theta", "factor", "original_max_position_embeddings", "beta_fast",
        "beta_slow", "mscale", "mscale_all_dim", "attention_factor", "truncate",
        "low_freq_factor", "high_freq_factor")
REQUIRED = {
    "default": ("rope_theta",),
    "linear": ("rope_theta", "factor"),
    "dynamic": ("rope_theta", "factor", "original_max_position_embeddings"),
    "yarn": ("rope_theta", "factor", "original_max_position_embeddings"),
    "llama3": ("rope_theta", "factor", "original_max_position_embeddings", "low_freq_factor",
               "high_freq_factor"),
}
MAX_FACTOR = 4096.0   # L_target / L_train up to 2^20 / 2^8
MAX_THETA = 1e12   # NTK-aware / dynamic bases grow past the 1e9 cap of plain RoPE
YARN_BETA_FAST, YARN_BETA_SLOW = 32.0, 1.0   # defaults of the YaRN paper and of HF


def _opt_float(p, key, lo, hi, *, lo_open=False):
    v = p.get(key)
    return None if v is None else check_float(key, v, lo, hi, lo_open=lo_open)


def check_rope_parameters(head_dim, rope_parameters):
    """Validate (head_dim, rope_parameters) -> (head_dim, normalised dict with defaults filled).

    Raises ValueError naming the parameter: head_dim odd / out of range, unknown rope_type or key,
    missing required key, rope_theta <= 1, factor < 1, high_freq_factor <= low_freq_factor,
    beta_fast < beta_slow, truncate not a bool.
    """
    head_dim = check_even("head_dim", head_dim, 2, MAX_DIM)
    if not isinstance(rope_parameters, dict):
        raise ValueError(f"rope_parameters must be a dict, got {type(rope_parameters).__name__}")
    unknown = sorted(set(rope_parameters) - set(KEYS))
    if unknown:
        raise ValueError(f"rope_parameters has unknown key(s) {unknown}; allowed: {list(KEYS)}")
    p = dict(rope_parameters)
    if "rope_type" not in p:
        raise ValueError(f"rope_parameters is missing required key 'rope_type' (one of {list(ROPE_TYPES)})")
    rope_type = check_choice("rope_type", p["rope_type"], ROPE_TYPES)
    missing = [k for k in REQUIRED[rope_type] if p.get(k) is None]
    if missing:
        raise ValueError(f"rope_parameters for rope_type={rope_type!r} is missing required key(s) {missing}")
    out = {"rope_type": rope_type,
           "rope_theta": check_float("rope_theta", p["rope_theta"], 1.0, MAX_THETA, lo_open=True)}
    if rope_type == "dynamic" and head_dim < 4:
        raise ValueError(f"head_dim must be >= 4 for rope_type='dynamic' (exponent d/(d-2)), got {head_dim}")
    if rope_type != "default":
        out["factor"] = check_float("factor", p["factor"], 1.0, MAX_FACTOR)
    if rope_type in ("dynamic", "yarn", "llama3"):
        out["original_max_position_embeddings"] = check_int(
            "original_max_position_embeddings", p["original_max_position_embeddings"], 1, MAX_POSITION)
    if rope_type == "yarn":
        # HF: `beta_fast or 32`, `beta_slow or 1` -- a 0 or a missing value means the default.
        bf = _opt_float(p, "beta_fast", 0.0, 1e4) or YARN_BETA_FAST
        bs = _opt_float(p, "beta_slow", 0.0, 1e4) or YARN_BETA_SLOW
        if bf < bs:
            raise ValueError(f"beta_fast must be >= beta_slow, got beta_fast={bf}, beta_slow={bs}")
        out.update(beta_fast=bf, beta_slow=bs,
                   mscale=_opt_float(p, "mscale", 0.0, 100.0),
                   mscale_all_dim=_opt_float(p, "mscale_all_dim", 0.0, 100.0),
                   attention_factor=_opt_float(p, "attention_factor", 0.0, 100.0, lo_open=True))
        truncate = p.get("truncate", True)
        if truncate is None:
            truncate = True
        if not isinstance(truncate, bool):
            raise ValueError(f"truncate must be true or false, got {truncate!r}")
        out["truncate"] = truncate
    if rope_type == "llama3":
        lo = check_float("low_freq_factor", p["low_freq_factor"], 0.0, 1e4, lo_open=True)
        hi = check_float("high_freq_factor", p["high_freq_factor"], 0.0, 1e4, lo_open=True)
        if hi <= lo:
            raise ValueError(f"high_freq_factor must be > low_freq_factor, got {hi} <= {lo}")
        out.update(low_freq_factor=lo, high_freq_factor=hi)
    return head_dim, out


def _inv_freq32(head_dim, base):
    """theta_i = 1 / base^{2i/d} evaluated in float32 -> Tensor[d/2] (the precision models run)."""
    i2 = torch.arange(0, head_dim, 2, dtype=torch.float32)           # [d/2] = 2i
    return 1.0 / (base ** (i2 / head_dim))                             # [d/2]


def ntk_aware_base(base, factor, head_dim):
    r"""Static NTK-aware base change: b' = b \cdot s^{d/(d-2)}.

    With theta_i = b'^{-2i/d}: theta_0 = 1 is kept (high frequencies stay) and the lowest
    frequency theta_{d/2-1} = b'^{-(d-2)/d} = b^{-(d-2)/d} / s is divided by s.
    """
    head_dim = check_even("head_dim", head_dim, 4, MAX_DIM)
    base = check_float("base", base, 1.0, MAX_THETA, lo_open=True)
    factor = check_float("factor", factor, 1.0, MAX_FACTOR)
    return base * factor ** (head_dim / (head_dim - 2))


def yarn_get_mscale(scale, mscale=1.0):
    """YaRN attention temperature: 0.1 * mscale * ln(s) + 1 for s > 1, else 1."""
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


def yarn_attention_factor(p):
    """attention_factor given -> it; mscale and mscale_all_dim both non-zero ->
    get_mscale(s, mscale) / get_mscale(s, mscale_all_dim); else 0.1 ln s + 1."""
    if p.get("attention_factor") is not None:
        return float(p["attention_factor"])
    s = p["factor"]
    if p.get("mscale") and p.get("mscale_all_dim"):
        return float(yarn_get_mscale(s, p["mscale"]) / yarn_get_mscale(s, p["mscale_all_dim"]))
    return float(yarn_get_mscale(s))


def yarn_correction_range(head_dim, p):
    r"""Pair indices where YaRN's ramp starts and ends.

    The pair that turns r times over the trained length L0 has index
    i(r) = d \ln(L0 / (2\pi r)) / (2 \ln b). low = i(beta_fast) (fast pairs below it are kept),
    high = i(beta_slow) (slow pairs above it are divided by s). truncate -> floor / ceil;
    clamped to [0, d-1] like the reference code.
    """
    b, L0 = p["rope_theta"], p["original_max_position_embeddings"]

    def dim_of(rot):
        return head_dim * math.log(L0 / (rot * 2 * math.pi)) / (2 * math.log(b))

    low, high = dim_of(p["beta_fast"]), dim_of(p["beta_slow"])
    if p.get("truncate", True):
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, head_dim - 1)


def yarn_ramp(head_dim, rope_parameters):
    r"""YaRN's ramp per pair -> (ramp Tensor[d/2] in [0,1], low, high).

    ramp_i = clip((i - low) / (high - low), 0, 1): 0 = keep theta_i (extrapolate),
    1 = theta_i / s (interpolate). theta'_i = (theta_i / s) ramp_i + theta_i (1 - ramp_i).
    """
    head_dim, p = check_rope_parameters(head_dim, rope_parameters)
    if p["rope_type"] != "yarn":
        raise ValueError(f"rope_type must be 'yarn' for yarn_ramp, got {p['rope_type']!r}")
    low, high = yarn_correction_range(head_dim, p)
    span = (high - low) if high != low else 0.001                      # reference: avoid 0/0
    i = torch.arange(head_dim // 2, dtype=torch.float32)              # [d/2]
    return ((i - low) / span).clamp(0.0, 1.0), low, high              # [d/2] float32


def llama3_bands(head_dim, rope_parameters):
    r"""Llama 3 band of each pair -> LongTensor[d/2]: 0 = high frequency (kept),
    1 = medium (smoothed), 2 = low frequency (divided by factor).

    lambda_i = 2\pi / theta_i; high if lambda_i < L0 / high_freq_factor,
    low if lambda_i > L0 / low_freq_factor, medium otherwise.
    """
    head_dim, p = check_rope_parameters(head_dim, rope_parameters)
    if p["rope_type"] != "llama3":
        raise ValueError(f"rope_type must be 'llama3' for llama3_bands, got {p['rope_type']!r}")
    lam = 2 * math.pi / _inv_freq32(head_dim, p["rope_theta"])       # [d/2]
    L0 = p["original_max_position_embeddings"]
    bands = torch.ones(head_dim // 2, dtype=torch.long)               # [d/2] medium
    bands[lam < L0 / p["high_freq_factor"]] = 0
    bands[lam > L0 / p["low_freq_factor"]] = 2
    return bands


def rope_frequencies(head_dim, rope_parameters, *, seq_len=None):
    r"""(inv_freq Tensor[head_dim//2] float32, attention_factor float) for a HF-style dict.

    theta_i = b^{-2i/d}, s = factor, L0 = original_max_position_embeddings
      default  theta_i                                       attention 1
      linear   theta_i / s                                   attention 1
      dynamic  b' = b (s L / L0 - (s - 1))^{d/(d-2)}, L = max(seq_len or L0, L0)
      yarn     theta_i (1 - r_i) + theta_i / s * r_i,  r = yarn_ramp;  attention
               = attention_factor, or mscale ratio, or 0.1 ln s + 1
      llama3   lambda < L0/high: theta_i;  lambda > L0/low: theta_i / s;
               else (1 - g) theta_i / s + g theta_i,  g = (L0/lambda - low) / (high - low)
    seq_len only matters for "dynamic" (as in transformers).
    """
    head_dim, p = check_rope_parameters(head_dim, rope_parameters)
    if seq_len is not None:
        seq_len = check_int("seq_len", seq_len, 1, MAX_POSITION)
    rt, b = p["rope_type"], p["rope_theta"]
    attention = 1.0
    # float32 throughout, as the reference implementations compute it: the YaRN / Llama 3 blend
    # weights carry float32 rounding that the factor s amplifies (up to ~s * 1e-7), so only the
    # same precision reproduces the numbers a real model runs to 1e-6.
    theta = _inv_freq32(head_dim, b)                                   # [d/2]
    if rt == "default":
        inv = theta                                                    # [d/2]
    elif rt == "linear":
        inv = theta / p["factor"]                                      # [d/2]
    elif rt == "dynamic":
        s, L0 = p["factor"], p["original_max_position_embeddings"]
        L = L0 if seq_len is None else max(seq_len, L0)
        b_dyn = b * (s * L / L0 - (s - 1)) ** (head_dim / (head_dim - 2))
        inv = _inv_freq32(head_dim, b_dyn)                             # [d/2]
    elif rt == "yarn":
        ramp, _, _ = yarn_ramp(head_dim, p)                            # [d/2] float32
        keep = 1 - ramp                                                # [d/2] weight of theta_i
        inv = theta / p["factor"] * (1 - keep) + theta * keep          # [d/2]
        attention = yarn_attention_factor(p)
    else:  # llama3
        s, L0 = p["factor"], p["original_max_position_embeddings"]
        lo, hi = p["low_freq_factor"], p["high_freq_factor"]
        lam = 2 * math.pi / theta                                      # [d/2]
        g = (L0 / lam - lo) / (hi - lo)                                # [d/2] 1 = keep, 0 = / s
        smooth = (1 - g) * theta / s + g * theta                       # [d/2]
        inv = torch.where(lam > L0 / lo, theta / s, theta)             # [d/2]
        medium = ~(lam < L0 / hi) & ~(lam > L0 / lo)                   # [d/2]
        inv = torch.where(medium, smooth, inv)                         # [d/2]
    return inv.to(torch.float32), float(attention)


def wavelengths(inv_freq):
    r"""lambda_i = 2\pi / theta_i: how many positions pair i needs for one full turn."""
    inv = torch.as_tensor(inv_freq, dtype=torch.float64)              # [d/2]
    if inv.ndim != 1 or not bool((inv > 0).all()):
        raise ValueError("inv_freq must be a 1-d tensor of positive frequencies")
    return 2 * math.pi / inv                                           # [d/2]


def phase_coverage(inv_freq_train, inv_freq_target, train_length, target_length):
    r"""Fraction of a full turn each pair covers -> (seen [d/2], needed [d/2], never_seen bool [d/2]).

    seen_i   = min(1, L_train  theta_i  / 2\pi)   angles met in training (distances 0..L_train)
    needed_i = min(1, L_target theta'_i / 2\pi)   angles met at the target length with the
                                                    (possibly scaled) frequencies theta'
    never_seen_i = needed_i > seen_i (1 + 1e-6): pair i reaches angles it never saw in training. With
    theta' = theta these are exactly the pairs with lambda_i > L_train (they never complete
    a turn in training).
    """
    train_length = check_int("train_length", train_length, 1, MAX_POSITION)
    target_length = check_int("target_length", target_length, 1, MAX_POSITION)
    a = torch.as_tensor(inv_freq_train, dtype=torch.float64)          # [d/2]
    b = torch.as_tensor(inv_freq_target, dtype=torch.float64)         # [d/2]
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"inv_freq_train and inv_freq_target must have the same 1-d shape, "
                         f"got {tuple(a.shape)} and {tuple(b.shape)}")
    seen = (train_length * a / (2 * math.pi)).clamp(max=1.0)          # [d/2]
    needed = (target_length * b / (2 * math.pi)).clamp(max=1.0)      # [d/2]
    return seen, needed, needed > seen * (1 + 1e-6)   # 1e-6: float32 frequencies


def log_distances(max_distance, n=1200):
    """Integer distances 0..max_distance: every one up to 64, then about n log-spaced ones."""
    max_distance = check_int("max_distance", max_distance, 1, MAX_POSITION)
    n = check_int("n", n, 2, 20000)
    dense = torch.arange(0, min(max_distance, 64) + 1, dtype=torch.float64)          # [<=65]
    sparse = torch.logspace(math.log10(64), math.log10(max_distance), n, dtype=torch.float64)  # [n]
    r = torch.cat([dense, sparse.round()]) if max_distance > 64 else dense           # [R]
    return torch.unique(r.clamp(0, max_distance)).to(torch.long)                     # [R]


def rope_score(inv_freq, distances, attention_factor=1.0):
    r"""Score of q = k = (1,...,1) at relative distance r, divided by d:

        s(r) = a^2 * (1/(d/2)) * \sum_i cos(r theta_i)        (a = attention_factor)

    (R(m) q)^T (R(m+r) k) with both rotated by apply_rope gives d * s(r); s(0) = a^2.
    The RoFormer-style long-term decay curve, computed in float64.
    """
    inv = torch.as_tensor(inv_freq, dtype=torch.float64)              # [d/2]
    r = torch.as_tensor(distances, dtype=torch.float64)               # [R]
    a = check_float("attention_factor", attention_factor, 0.0, 100.0, lo_open=True)
    if r.ndim != 1 or r.numel() > 200_000 or (r.numel() and r.abs().max() > MAX_POSITION):
        raise ValueError(f"distances must be 1-d, at most 200000 values, |r| <= {MAX_POSITION}")
    # numpy for the cosines: on the shared 2-core host torch's multi-threaded cos is ~20x slower
    # for these sizes (thread contention); same float64 values.
    out = torch.from_numpy(np.cos(np.multiply.outer(r.numpy(), inv.numpy())).mean(axis=1))  # [R]
    return a * a * out                                                 # [R]


def comparison_factor(train_length, target_length):
    """s = L_target / L_train, at least 1 (no scaling when the target fits in training)."""
    train_length = check_int("train_length", train_length, 1, MAX_POSITION)
    target_length = check_int("target_length", target_length, 1, MAX_POSITION)
    return max(1.0, target_length / train_length)


def method_parameters(method, head_dim, base, train_length, target_length, *, yarn=None, llama3=None):
    """The rope_parameters (and seq_len) of one comparison method with s = L_target / L_train.

    "ntk" is a default RoPE with the NTK-aware base b' = b s^{d/(d-2)}; "dynamic" is evaluated
    at seq_len = L_target; YaRN uses beta_fast/beta_slow (and mscale...) from `yarn` (default
    32 / 1), Llama 3 uses low/high_freq_factor from `llama3` (default 1 / 4).
    Returns (rope_parameters, seq_len or None).
    """
    method = check_choice("method", method, METHODS)
    head_dim = check_even("head_dim", head_dim, 4, MAX_DIM)
    base = check_float("rope_theta", base, 1.0, MAX_THETA, lo_open=True)
    s = comparison_factor(train_length, target_length)
    L0 = int(train_length)
    if method == "default":
        return {"rope_type": "default", "rope_theta": base}, None
    if method == "linear":
        return {"rope_type": "linear", "rope_theta": base, "factor": s}, None
    if method == "ntk":
        return {"rope_type": "default", "rope_theta": ntk_aware_base(base, s, head_dim)}, None
    if method == "dynamic":
        return ({"rope_type": "dynamic", "rope_theta": base, "factor": s,
                 "original_max_position_embeddings": L0}, int(target_length))
    if method == "yarn":
        extra = {k: v for k, v in (yarn or {}).items()
                 if k in ("beta_fast", "beta_slow", "mscale", "mscale_all_dim", "truncate")}
        return {"rope_type": "yarn", "rope_theta": base, "factor": s,
                "original_max_position_embeddings": L0, **extra}, None
    extra = {"low_freq_factor": 1.0, "high_freq_factor": 4.0}
    extra.update({k: v for k, v in (llama3 or {}).items() if k in ("low_freq_factor", "high_freq_factor")})
    return {"rope_type": "llama3", "rope_theta": base, "factor": s,
            "original_max_position_embeddings": L0, **extra}, None


def frequency_ratio(inv_freq_new, inv_freq_old):
    """theta'_i / theta_i per pair -> Tensor[d/2] float64 (1 = untouched, 1/s = fully interpolated)."""
    a = torch.as_tensor(inv_freq_new, dtype=torch.float64)            # [d/2]
    b = torch.as_tensor(inv_freq_old, dtype=torch.float64)            # [d/2]
    if a.shape != b.shape or a.ndim != 1 or not bool((b > 0).all()):
        raise ValueError("inv_freq_new and inv_freq_old must be positive 1-d tensors of one shape")
    return a / b                                                       # [d/2]


def band_of_ratio(ratio, factor, rtol=1e-4):
    """Band of each pair from theta'/theta -> LongTensor[d/2]: 0 = kept (ratio 1),
    2 = divided by the full factor (ratio 1/s), 1 = in between (smoothed / partly scaled).
    For Llama 3 this reproduces llama3_bands; for PI every pair is 2."""
    factor = check_float("factor", factor, 1.0, MAX_FACTOR)
    r = torch.as_tensor(ratio, dtype=torch.float64)                   # [d/2]
    bands = torch.ones(r.shape, dtype=torch.long)                     # [d/2]
    bands[(r - 1).abs() <= rtol] = 0
    if factor > 1:
        bands[(r * factor - 1).abs() <= rtol] = 2
    return bands


def extrapolation_view(head_dim, rope_parameters, train_length, target_length, method="model",
                       n_distances=1200):
    """Everything the extrapolation page draws, for one model and one selected method.

    The trained spectrum is the default RoPE theta_i = b^{-2i/d} of the model's rope_theta.
    Every method of METHODS is evaluated with s = L_target / L_train (YaRN / Llama 3 borrow the
    model's own beta / band settings when the model uses them); "model" is the model's own
    rope_parameters (dynamic evaluated at seq_len = L_target). Returns a dict of tensors and
    floats: theta, curves {method: (inv_freq, attention_factor)}, selected, ratio, bands, factor,
    wavelengths, wavelengths_selected, n_long (pairs with lambda > L_train), seen, needed, never_seen, distances, scores {method: [R]},
    yarn_range, llama3_edges, ntk_base.
    """
    head_dim, model = check_rope_parameters(head_dim, rope_parameters)
    train_length = check_int("train_length", train_length, 1, MAX_POSITION)
    target_length = check_int("target_length", target_length, 1, MAX_POSITION)
    method = check_choice("method", method, METHODS + ("model",))
    base = model["rope_theta"]
    theta, _ = rope_frequencies(head_dim, {"rope_type": "default", "rope_theta": base})   # [d/2]
    curves = {}
    yarn_like = model if model["rope_type"] == "yarn" else None
    llama_like = model if model["rope_type"] == "llama3" else None
    for m in METHODS:
        if m in ("ntk", "dynamic") and head_dim < 4:
            continue
        params, seq = method_parameters(m, head_dim, base, train_length, target_length,
                                        yarn=yarn_like, llama3=llama_like)
        curves[m] = rope_frequencies(head_dim, params, seq_len=seq)                  # ([d/2], a)
    seq = target_length if model["rope_type"] == "dynamic" else None
    curves["model"] = rope_frequencies(head_dim, model, seq_len=seq)                 # ([d/2], a)
    if method not in curves:
        raise ValueError(f"method {method!r} needs head_dim >= 4, got {head_dim}")
    s = comparison_factor(train_length, target_length)
    factor = model.get("factor", 1.0) if method == "model" else s
    if method == "model" and model["rope_type"] == "dynamic":
        factor = float(theta[-1] / curves["model"][0][-1])       # effective factor on the slowest pair
    sel, _ = curves[method]                                                          # [d/2]
    ratio = frequency_ratio(sel, theta)                                              # [d/2]
    seen, needed, never = phase_coverage(theta, sel, train_length, target_length)   # [d/2] x3
    r = log_distances(target_length, n_distances)                                   # [R]
    scores = {m: rope_score(inv, r, a) for m, (inv, a) in curves.items()}           # {m: [R]}
    yarn_p = yarn_like or method_parameters("yarn", max(head_dim, 4), base, train_length, target_length)[0]
    yarn_range = yarn_correction_range(head_dim, check_rope_parameters(head_dim, yarn_p)[1])
    llama_p = llama_like or method_parameters("llama3", max(head_dim, 4), base, train_length, target_length)[0]
    lb = llama3_bands(head_dim, llama_p)                                             # [d/2]
    edges = [i + 0.5 for i in range(head_dim // 2 - 1) if lb[i] != lb[i + 1]]
    return {"theta": theta, "curves": curves, "selected": sel, "ratio": ratio,
            "bands": band_of_ratio(ratio, max(1.0, factor)), "factor": float(factor), "s": s,
            "wavelengths": wavelengths(theta), "wavelengths_selected": wavelengths(sel),
            "n_long": int((wavelengths(theta) > train_length).sum()),
            "seen": seen, "needed": needed, "never_seen": never, "distances": r, "scores": scores,
            "yarn_range": yarn_range, "llama3_edges": edges,
            "ntk_base": ntk_aware_base(base, s, head_dim) if head_dim >= 4 else base}
