r"""RoPE scaling and length extrapolation: PI, NTK-aware, dynamic NTK, YaRN, Llama 3, LongRoPE.

“Position encodings”, "length extrapolation": beyond the trained length a RoPE model meets relative
distances and, above all, *combinations of phases* it never saw. The angles themselves are
not the problem (a fast pair turns many times inside the trained window). The methods here
change the frequency spectrum theta_i = b^{-2i/d} so that the phases needed at the target
length stay (mostly) inside what training covered.

`rope_frequencies` equals transformers' ROPE_INIT_FUNCTIONS (5.24) for the same parameters
(tests/pe/test_scaling.py builds real config objects and compares; tests/pe/test_real_models.py
does it for every model of the gallery). These are posviz's own formulas: transformers is only
the reference. Mapping of the dict onto a Hugging Face config: `head_dim` -> config.head_dim,
`partial_rotary_factor` as in transformers (the rotary width is int(head_dim * factor));
`original_max_position_embeddings` -> rope_parameters[...] for "yarn" / "llama3" / "longrope" and
-> config.max_position_embeddings for "dynamic" (the length HF's dynamic NTK compares against);
"longrope" needs its `factor` (transformers derives a missing one as max_position_embeddings /
original_max_position_embeddings; posviz.pe.rope_config fills it in the same way).
Frequencies are computed in float32 with the reference's order of operations; the analysis
helpers (wavelengths, phases, scores) work in float64.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import torch

from posviz.pe.rope import rope_inv_freq
from posviz.validate import (
    MAX_BASE,
    MAX_DIM,
    MAX_POSITION,
    PosvizError,
    check_choice,
    check_even,
    check_float,
    check_int,
)

ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "llama3", "longrope", "proportional", "ntk_alpha")
# Methods the extrapolation page compares; "ntk" is static NTK-aware (a default RoPE with base b').
SCALING_METHODS = ("default", "linear", "ntk", "dynamic", "yarn", "llama3")
ROPE_PARAMETER_KEYS = (
    "rope_type", "rope_theta", "factor", "original_max_position_embeddings", "beta_fast",
    "beta_slow", "mscale", "mscale_all_dim", "attention_factor", "truncate", "low_freq_factor",
    "high_freq_factor", "short_factor", "long_factor", "partial_rotary_factor", "mrope_section", "alpha")
REQUIRED = {
    "default": ("rope_theta",),
    "linear": ("rope_theta", "factor"),
    "dynamic": ("rope_theta", "factor", "original_max_position_embeddings"),
    "yarn": ("rope_theta", "factor", "original_max_position_embeddings"),
    "llama3": ("rope_theta", "factor", "original_max_position_embeddings", "low_freq_factor",
               "high_freq_factor"),
    "longrope": ("rope_theta", "factor", "original_max_position_embeddings", "short_factor", "long_factor"),
    "proportional": ("rope_theta",),
    "ntk_alpha": ("rope_theta", "alpha"),
}
MAX_FACTOR = 4096.0   # L_target / L_train up to 2^20 / 2^8
MAX_THETA = 1e12   # NTK-aware / dynamic bases grow past the 1e9 cap of plain RoPE
YARN_BETA_FAST, YARN_BETA_SLOW = 32.0, 1.0   # defaults of the YaRN paper and of HF


def _opt_float(p, key, lo, hi, *, lo_open=False):
    v = p.get(key)
    return None if v is None else check_float(key, v, lo, hi, lo_open=lo_open)


def _factor_list(name, values, n):
    """LongRoPE's per-pair factors: a list of n positive finite numbers -> list[float]."""
    if not isinstance(values, (list, tuple)):
        raise PosvizError("rope_list", name=name, n=n, got=type(values).__name__)
    if len(values) != n:
        raise PosvizError("rope_list", name=name, n=n, got=f"{len(values)} values")
    return [check_float(f"{name}[{i}]", v, 0.0, 1e6, lo_open=True) for i, v in enumerate(values)]


def rotary_width(head_dim: int, rope_parameters: dict) -> int:
    """The dims the rotation is applied to: int(head_dim * partial_rotary_factor) as transformers computes
    it (head_dim when there is no partial_rotary_factor). Must be even. rope_type "proportional" covers the
    whole head (its unrotated pairs turn at frequency 0): head_dim, whatever the factor."""
    prf = rope_parameters.get("partial_rotary_factor") if isinstance(rope_parameters, dict) else None
    if prf is None:
        return head_dim
    prf = check_float("partial_rotary_factor", prf, 0.0, 1.0, lo_open=True)
    if rope_parameters.get("rope_type") == "proportional":
        if proportional_pairs(head_dim, prf) < 1:
            raise PosvizError("rotary_odd", head_dim=head_dim, factor=prf, got=0)
        return head_dim
    dim = int(head_dim * prf)
    if dim < 2 or dim % 2:
        raise PosvizError("rotary_odd", head_dim=head_dim, factor=prf, got=dim)
    return dim


def check_rope_parameters(head_dim: int, rope_parameters: dict) -> tuple[int, dict]:
    """Validate (head_dim, rope_parameters) -> (head_dim, normalised dict with defaults filled).

    Raises PosvizError naming the parameter: head_dim odd / out of range, unknown rope_type or key,
    missing required key, rope_theta <= 1, factor < 1, high_freq_factor < low_freq_factor,
    beta_fast < beta_slow, truncate not a bool, LongRoPE factor lists of the wrong length.
    """
    head_dim = check_even("head_dim", head_dim, 2, MAX_DIM)
    p, rope_type = _known_keys(rope_parameters)
    out = {"rope_type": rope_type,
           "rope_theta": check_float("rope_theta", p["rope_theta"], 1.0, MAX_THETA, lo_open=True)}
    dim = rotary_width(head_dim, p)
    if p.get("partial_rotary_factor") is not None:
        out["partial_rotary_factor"] = float(p["partial_rotary_factor"])
    if rope_type == "dynamic" and dim < 4:
        raise PosvizError("at_least", name="head_dim (rope_type 'dynamic': exponent d/(d-2))", lo=4, got=dim)
    if rope_type not in ("default", "proportional", "ntk_alpha") or p.get("factor") is not None:
        out["factor"] = check_float("factor", p["factor"], 1.0, MAX_FACTOR)
    if rope_type == "ntk_alpha":
        if dim < 4:
            raise PosvizError("at_least", name="head_dim (rope_type 'ntk_alpha': exponent d/(d-2))", lo=4, got=dim)
        out["alpha"] = check_float("alpha", p["alpha"], 1.0, MAX_FACTOR)
    if rope_type in ("dynamic", "yarn", "llama3", "longrope"):
        out["original_max_position_embeddings"] = check_int(
            "original_max_position_embeddings", p["original_max_position_embeddings"], 1, MAX_POSITION)
    if rope_type == "yarn":
        out.update(_yarn_parameters(p))
    elif rope_type == "llama3":
        out.update(_llama3_parameters(p))
    elif rope_type == "longrope":
        out.update(_longrope_parameters(p, dim))
    if p.get("mrope_section") is not None:
        out["mrope_section"] = _mrope_section(p["mrope_section"], dim)
    return head_dim, out


def _known_keys(rope_parameters):
    """rope_parameters: a dict of known keys with a known rope_type and its required keys -> (a copy, rope_type)."""
    if not isinstance(rope_parameters, dict):
        raise PosvizError("rope_dict", name="rope_parameters", got=type(rope_parameters).__name__)
    unknown = sorted(set(rope_parameters) - set(ROPE_PARAMETER_KEYS))
    if unknown:
        raise PosvizError("rope_keys", keys=", ".join(map(str, unknown)), allowed=", ".join(ROPE_PARAMETER_KEYS))
    p = dict(rope_parameters)
    if "rope_type" not in p:
        raise PosvizError("rope_missing", rope_type="?", keys="rope_type")
    rope_type = check_choice("rope_type", p["rope_type"], ROPE_TYPES)
    missing = [k for k in REQUIRED[rope_type] if p.get(k) is None]
    if missing:
        raise PosvizError("rope_missing", rope_type=rope_type, keys=", ".join(missing))
    return p, rope_type


def _yarn_parameters(p):
    """YaRN's own keys, checked, with HF's defaults: `beta_fast or 32`, `beta_slow or 1` (a 0 or a missing
    value means the default), truncate True unless given."""
    bf = _opt_float(p, "beta_fast", 0.0, 1e4) or YARN_BETA_FAST
    bs = _opt_float(p, "beta_slow", 0.0, 1e4) or YARN_BETA_SLOW
    if bf < bs:
        raise PosvizError("yarn_beta", fast=bf, slow=bs)
    out = dict(beta_fast=bf, beta_slow=bs,
               mscale=_opt_float(p, "mscale", 0.0, 100.0),
               mscale_all_dim=_opt_float(p, "mscale_all_dim", 0.0, 100.0),
               attention_factor=_opt_float(p, "attention_factor", 0.0, 100.0, lo_open=True))
    truncate = p.get("truncate", True)
    if truncate is None:
        truncate = True
    if not isinstance(truncate, bool):
        raise PosvizError("boolean", name="truncate", got=repr(truncate))
    out["truncate"] = truncate
    return out


def _llama3_parameters(p):
    """Llama 3's band factors, checked: low_freq_factor <= high_freq_factor."""
    lo = check_float("low_freq_factor", p["low_freq_factor"], 0.0, 1e4, lo_open=True)
    hi = check_float("high_freq_factor", p["high_freq_factor"], 0.0, 1e4, lo_open=True)
    if hi < lo:   # equal factors (Llama 4) are accepted, as transformers does: no smoothed band
        raise PosvizError("llama3_order", hi=hi, lo=lo)
    return dict(low_freq_factor=lo, high_freq_factor=hi)


def _longrope_parameters(p, dim):
    """LongRoPE's per-pair factor lists (dim // 2 each) and its optional attention factor, checked."""
    return dict(short_factor=_factor_list("short_factor", p["short_factor"], dim // 2),
                long_factor=_factor_list("long_factor", p["long_factor"], dim // 2),
                attention_factor=_opt_float(p, "attention_factor", 0.0, 100.0))


def _mrope_section(sec, dim):
    """M-RoPE's sections: positive ints that add up to the dim // 2 pairs -> list."""
    if not isinstance(sec, (list, tuple)) or not all(isinstance(s, int) and s > 0 for s in sec) \
            or sum(sec) != dim // 2:
        raise PosvizError("mrope_section", n=dim // 2, got=repr(sec)[:80])
    return list(sec)


def _inv_freq_at(dim, base):
    r"""theta_i = 1 / base^{2i/d} in float32 for a scaled base (NTK / dynamic bases may pass the
    1e9 cap of rope_inv_freq) -> Tensor[d/2], with the reference's order of operations.

    Formula:
        \theta'_i = b'^{-2i/d}
    """
    i2 = torch.arange(0, dim, 2, dtype=torch.int64).to(torch.float32)   # [d/2] = 2i
    return 1.0 / (base ** (i2 / dim))                                     # [d/2]


def _default_inv_freq(dim, base):
    """The unscaled spectrum: posviz.pe.rope.rope_inv_freq (bit-exact with transformers) for
    every base it accepts; the same formula for the larger bases NTK / dynamic produce."""
    return rope_inv_freq(dim, base) if base <= MAX_BASE else _inv_freq_at(dim, base)


def ntk_aware_base(base: float, factor: float, head_dim: int) -> float:
    r"""Static NTK-aware base change (bloc97 2023).

    Formula:
        b' = b \, s^{d/(d-2)}

    With theta_i = b'^{-2i/d}: theta_0 = 1 is kept (high frequencies stay) and the lowest
    frequency theta_{d/2-1} = b'^{-(d-2)/d} = b^{-(d-2)/d} / s is divided by s.
    """
    head_dim = check_even("head_dim", head_dim, 4, MAX_DIM)
    base = check_float("base", base, 1.0, MAX_THETA, lo_open=True)
    factor = check_float("factor", factor, 1.0, MAX_FACTOR)
    return base * factor ** (head_dim / (head_dim - 2))


def ntk_alpha_base(base: float, alpha: float, head_dim: int) -> float:
    r"""A fixed NTK-aware base from a stretch alpha (HunYuan's rope_type "dynamic" with an `alpha`: transformers
    runs it as NTK-alpha, whatever the sequence length).

    Formula:
        b' = b\,\alpha^{d/(d-2)}

    HunYuan (b = 10^4, alpha = 1000, d = 128): b' = 10^4 · 1000^{128/126} ≈ 1.116·10^7, and the slowest pair turns
    at b'^{-126/128} ≈ 1.155·10^{-7} rad per position instead of 1.155·10^{-4}.
    """
    head_dim = check_even("head_dim", head_dim, 4, MAX_DIM)
    return check_float("rope_theta", base, 1.0, MAX_THETA, lo_open=True) * check_float(
        "alpha", alpha, 1.0, MAX_FACTOR) ** (head_dim / (head_dim - 2))


def query_scale(positions, kind: str, params: dict) -> np.ndarray:
    r"""The factor a model multiplies each query by at position p -> float64 array like positions.

    Formula:
        \text{temperature (Llama 4, on its NoPE layers): } \tau(p) = 1 + a\,\ln\!\big(1 + \lfloor (p+1)/F \rfloor\big)
        \text{beta (Ministral 3, Mistral Large 3): } \tau(p) = 1 + \beta\,\ln\!\big(1 + \lfloor p / L_0 \rfloor\big)
        \text{power (scalable softmax, Beam's layers without RoPE): } \tau(p) = \big(1 + (p+1)/L\big)^{a}

    a = attn_scale, F = floor_scale (8192 in Llama 4); beta = llama_4_scaling_beta, L_0 =
    original_max_position_embeddings. Both are 1 inside the first F (or L_0) positions and grow with the log of
    how many such spans lie behind the query: a query far away sharpens its softmax a little. The power law grows
    smoothly from the first token (L and a are constants of the model's code: posviz reads them off the model).
    """
    p = np.asarray(positions, dtype=np.float64)
    kind = check_choice("kind", kind, QUERY_SCALINGS)
    if kind == "power":
        length = check_float("length", params["length"], 1.0, MAX_POSITION)
        a = check_float("exponent", params["exponent"], -10.0, 10.0)
        return (1.0 + (p + 1.0) / length) ** a
    if kind == "temperature":
        a = check_float("attn_scale", params["attn_scale"], -10.0, 10.0)
        floor = check_float("floor_scale", params["floor_scale"], 1.0, MAX_POSITION)
        return 1.0 + a * np.log1p(np.floor((p + 1.0) / floor))
    beta = check_float("llama_4_scaling_beta", params["llama_4_scaling_beta"], -10.0, 10.0)
    length = check_float("original_max_position_embeddings", params["original_max_position_embeddings"], 1.0,
                         MAX_POSITION)
    return 1.0 + beta * np.log1p(np.floor(p / length))


QUERY_SCALINGS = ("temperature", "beta", "power")


def yarn_get_mscale(scale: float, mscale: float = 1.0) -> float:
    r"""YaRN attention temperature (Peng et al. 2023).

    Formula:
        m(s) = 0.1 \, \mu \ln s + 1 \quad (s > 1), \qquad m(s) = 1 \quad (s \le 1)
    """
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


def yarn_attention_factor(p: dict) -> float:
    r"""YaRN's factor on cos and sin: attention_factor if given; with mscale and mscale_all_dim
    both non-zero their ratio; else 0.1 ln s + 1.

    Formula:
        a = m(s, \mu) / m(s, \mu_{\mathrm{all}}) \quad\text{or}\quad a = 0.1 \ln s + 1
    """
    if p.get("attention_factor") is not None:
        return float(p["attention_factor"])
    s = p["factor"]
    if p.get("mscale") and p.get("mscale_all_dim"):
        return float(yarn_get_mscale(s, p["mscale"]) / yarn_get_mscale(s, p["mscale_all_dim"]))
    return float(yarn_get_mscale(s))


def deepseek_softmax_scale(rope_parameters: dict | None) -> float:
    r"""DeepSeek-V2/V3 fold YaRN's temperature into the softmax scale instead of cos/sin: with
    rope scaling and mscale_all_dim, 1/sqrt(d_qk) is multiplied by m(s, mscale_all_dim)^2.

    Formula:
        \text{scale} = \frac{m(s,\mu_{\mathrm{all}})^2}{\sqrt{d_{qk}}}

    Returns the factor on 1/sqrt(d_qk) (1.0 without scaling): x1.5896 for V2 (0.707), x1.8739 for V3.
    """
    p = rope_parameters or {}
    if p.get("rope_type", "default") == "default" or not p.get("mscale_all_dim"):
        return 1.0
    m = yarn_get_mscale(float(p["factor"]), float(p["mscale_all_dim"]))
    return float(m * m)


def longrope_attention_factor(p: dict) -> float:
    r"""LongRoPE's factor on cos and sin: attention_factor if given, else from the context ratio
    s = factor (= max_position_embeddings / L0 in Phi-3's files).

    Formula:
        a = \sqrt{1 + \ln s / \ln L_0} \quad (s > 1), \qquad a = 1 \quad (s \le 1)
    """
    if p.get("attention_factor") is not None:
        return float(p["attention_factor"])
    s, L0 = p["factor"], p["original_max_position_embeddings"]
    return 1.0 if s <= 1.0 else math.sqrt(1 + math.log(s) / math.log(L0))


def yarn_correction_range(head_dim: int, p: dict) -> tuple[float, float]:
    r"""Pair indices where YaRN's ramp starts and ends.

    Formula:
        i(\beta) = \frac{d \ln\big(L_0 / (2\pi\beta)\big)}{2 \ln b}, \quad
            \text{low} = \lfloor i(\beta_{\mathrm{fast}}) \rfloor,\ \text{high} = \lceil i(\beta_{\mathrm{slow}}) \rceil

    The pair that turns beta times over the trained length L0 has index i(beta): fast pairs below
    low are kept, slow pairs above high are divided by s. truncate=False keeps the fractional
    indices; clamped to [0, d-1] like the reference code.
    """
    b, L0 = p["rope_theta"], p["original_max_position_embeddings"]

    def dim_of(rot):
        return head_dim * math.log(L0 / (rot * 2 * math.pi)) / (2 * math.log(b))

    low, high = dim_of(p["beta_fast"]), dim_of(p["beta_slow"])
    if p.get("truncate", True):
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, head_dim - 1)


def yarn_ramp(head_dim: int, rope_parameters: dict) -> tuple[torch.Tensor, float, float]:
    r"""YaRN's ramp per pair -> (ramp Tensor[d/2] in [0,1], low, high).

    Formula:
        r_i = \mathrm{clip}\Big(\frac{i - \text{low}}{\text{high} - \text{low}}, 0, 1\Big)

    0 = keep theta_i (extrapolate), 1 = theta_i / s (interpolate).
    """
    head_dim, p = check_rope_parameters(head_dim, rope_parameters)
    if p["rope_type"] != "yarn":
        raise PosvizError("rope_type_for", fn="yarn_ramp", want="yarn", got=p["rope_type"])
    dim = rotary_width(head_dim, p)
    low, high = yarn_correction_range(dim, p)
    span = (high - low) if high != low else 0.001                      # reference: avoid 0/0
    i = torch.arange(dim // 2, dtype=torch.float32)                   # [d/2]
    return ((i - low) / span).clamp(0.0, 1.0), low, high              # [d/2] float32


def llama3_bands(head_dim: int, rope_parameters: dict) -> torch.Tensor:
    r"""Llama 3 band of each pair -> LongTensor[d/2]: 0 = high frequency (kept),
    1 = medium (smoothed), 2 = low frequency (divided by factor).

    Formula:
        \lambda_i < L_0/\text{high}: \text{kept};\quad \lambda_i > L_0/\text{low}: \theta_i/s;\quad
            \text{else smoothed}

    With low_freq_factor == high_freq_factor (Llama 4) there is no medium band.
    """
    head_dim, p = check_rope_parameters(head_dim, rope_parameters)
    if p["rope_type"] != "llama3":
        raise PosvizError("rope_type_for", fn="llama3_bands", want="llama3", got=p["rope_type"])
    dim = rotary_width(head_dim, p)
    lam = 2 * math.pi / _default_inv_freq(dim, p["rope_theta"])       # [d/2]
    L0 = p["original_max_position_embeddings"]
    bands = torch.ones(dim // 2, dtype=torch.long)                    # [d/2] medium
    bands[lam < L0 / p["high_freq_factor"]] = 0
    bands[lam > L0 / p["low_freq_factor"]] = 2
    if p["high_freq_factor"] == p["low_freq_factor"]:
        bands[bands == 1] = 0                                          # HF's where(): only an exact tie
    return bands


def proportional_pairs(head_dim: int, partial_rotary_factor: float) -> int:
    """How many pairs proportional RoPE rotates: int(p * D // 2), exactly as transformers computes it."""
    return int(partial_rotary_factor * head_dim // 2)


def proportional_inv_freq(head_dim: int, partial_rotary_factor: float, base: float,
                          factor: float = 1.0) -> torch.Tensor:
    r"""Proportional RoPE (rope_type "proportional", Gemma 4's global layers) -> Tensor[D/2] float32.

    Formula:
        k = \lfloor p\,D/2 \rfloor,\qquad
        \theta_i = \frac{b^{-2i/D}}{s}\ \ (i < k),\qquad \theta_i = 0\ \ (k \le i < D/2)

    The first k pairs rotate at the frequencies of the *whole* D-wide head (D in the exponent, not
    pD); the other D/2 - k pairs are padded with frequency 0, so the rotation covers the whole head
    and leaves them unchanged. With rotate_half's pairs (i, i + D/2), dims 0..k-1 and D/2..D/2+k-1
    rotate. Equals transformers' _compute_proportional_rope_parameters (float32, same order).
    Gemma 4 (D = 512, p = 0.25, b = 10^6): k = 64, the slowest rotated pair turns at
    10^6^(-126/512) ≈ 0.033 rad per position.
    """
    head_dim = check_even("head_dim", head_dim, 2, MAX_DIM)
    p = check_float("partial_rotary_factor", partial_rotary_factor, 0.0, 1.0, lo_open=True)
    base = check_float("rope_theta", base, 1.0, MAX_THETA, lo_open=True)
    factor = check_float("factor", factor, 1.0, MAX_FACTOR)
    k = proportional_pairs(head_dim, p)
    i2 = torch.arange(0, 2 * k, 2, dtype=torch.int64).to(torch.float32)   # [k] = 2i
    rotated = 1.0 / (base ** (i2 / head_dim))                            # [k] exponent over the whole head
    zeros = torch.zeros(head_dim // 2 - k, dtype=torch.float32)          # [D/2 - k] unrotated pairs
    return torch.cat([rotated, zeros]) / factor                          # [D/2]


def partial_inv_freq(head_dim: int, partial_rotary_factor: float, base: float,
                     factor: float = 1.0) -> torch.Tensor:
    r"""The same fields read as ordinary partial rotary (the misreading of proportional RoPE)
    -> Tensor[D/2] float32, the pairs that do not rotate given frequency 0 so that both readings have
    the same shape.

    Formula:
        d = \lfloor p\,D \rfloor,\qquad
        \theta_i = \frac{b^{-2i/d}}{s}\ \ (i < d/2),\qquad \theta_i = 0\ \ (d/2 \le i < D/2)

    The first d dims rotate as a d-wide head would (d in the exponent): the slowest rotated pair
    turns at b^{-(d-2)/d}, for Gemma 4's global layers 10^6^(-126/128) ≈ 1.2e-6 rad per position
    instead of ≈ 0.033 -- a wavelength of about 5 million positions instead of 188.
    """
    head_dim = check_even("head_dim", head_dim, 2, MAX_DIM)
    p = check_float("partial_rotary_factor", partial_rotary_factor, 0.0, 1.0, lo_open=True)
    d = rotary_width(head_dim, {"partial_rotary_factor": p})
    inv = rope_frequencies(d, {"rope_type": "default", "rope_theta": base})[0]   # [d/2]
    zeros = torch.zeros(head_dim // 2 - d // 2, dtype=torch.float32)          # [D/2 - d/2]
    return torch.cat([inv, zeros]) / check_float("factor", factor, 1.0, MAX_FACTOR)   # [D/2]


def rotated_dims(head_dim: int, partial_rotary_factor: float, reading: str) -> torch.Tensor:
    r"""Which of the D dims of a head rotate -> BoolTensor[D].

    Formula:
        \text{proportional: } \{0,\dots,k-1\} \cup \{D/2,\dots,D/2+k-1\},\ k = \lfloor pD/2 \rfloor
        \text{partial: } \{0,\dots,d-1\},\ d = \lfloor pD \rfloor

    (rotate_half pairs: proportional pairs dim i with i + D/2 across the whole head; partial rotary
    pairs i with i + d/2 inside its first d dims.)
    """
    reading = check_choice("reading", reading, ("proportional", "partial"))
    head_dim = check_even("head_dim", head_dim, 2, MAX_DIM)
    mask = torch.zeros(head_dim, dtype=torch.bool)                     # [D]
    if reading == "proportional":
        k = proportional_pairs(head_dim, partial_rotary_factor)
        mask[:k] = True
        mask[head_dim // 2:head_dim // 2 + k] = True
    else:
        mask[:rotary_width(head_dim, {"partial_rotary_factor": partial_rotary_factor})] = True
    return mask


def rope_frequencies(head_dim: int, rope_parameters: dict, *,
                     seq_len: int | None = None) -> tuple[torch.Tensor, float]:
    r"""(inv_freq Tensor[rotary_dim//2] float32, attention_factor float) for a HF-style dict.

    Formula:
        \text{default: } \theta_i = b^{-2i/d}
        \text{linear (PI): } \theta'_i = \theta_i / s
        \text{dynamic: } b' = b\,\big(sL/L_0 - (s-1)\big)^{d/(d-2)},\ L = \max(L_{\mathrm{seq}}, L_0)
        \text{YaRN: } \theta'_i = (1-r_i)\,\theta_i + r_i\,\theta_i/s,\quad a = 0.1\ln s + 1
        \text{Llama 3: } \theta'_i = (1-g_i)\,\theta_i/s
            + g_i\,\theta_i,\ g_i = \frac{L_0/\lambda_i-\text{low}}{\text{high}-\text{low}}
        \text{LongRoPE: } \theta'_i = \frac{\theta_i}{f_i},\ f
            = \begin{cases}\text{short\_factor} & L_{\mathrm{seq}} \le L_0\\
            \text{long\_factor} & L_{\mathrm{seq}} > L_0\end{cases},\ a = \sqrt{1+\ln s/\ln L_0}
        \text{proportional: } \theta'_i = b^{-2i/D}/s\ (i < \lfloor pD/2 \rfloor),\quad \theta'_i = 0\ \text{else}
        \text{NTK-}\alpha\text{: } \theta'_i = b'^{-2i/d},\ b' = b\,\alpha^{d/(d-2)}

    d is the rotary width int(head_dim * partial_rotary_factor) (proportional: D = head_dim, p its
    partial_rotary_factor, the unrotated pairs padded with frequency 0); s = factor,
    L0 = original_max_position_embeddings. seq_len matters for "dynamic" and "longrope" (as in
    transformers: the module re-reads it from the largest position id + 1).
    """
    head_dim, p = check_rope_parameters(head_dim, rope_parameters)
    if seq_len is not None:
        seq_len = check_int("seq_len", seq_len, 1, MAX_POSITION)
    rt, b = p["rope_type"], p["rope_theta"]
    d = rotary_width(head_dim, p)
    attention = 1.0
    # float32 throughout, in the reference's order of operations: the YaRN / Llama 3 blend
    # weights carry float32 rounding that the factor s amplifies, so only the same precision
    # reproduces the numbers a real model runs.
    if rt == "default":
        inv = _default_inv_freq(d, b)                                  # [d/2]
    elif rt == "linear":
        inv = _default_inv_freq(d, b) / p["factor"]                    # [d/2]
    elif rt == "dynamic":
        s, L0 = p["factor"], p["original_max_position_embeddings"]
        L = L0 if seq_len is None else max(seq_len, L0)
        b_dyn = b * ((s * L / L0) - (s - 1)) ** (d / (d - 2))
        inv = _inv_freq_at(d, b_dyn)                                   # [d/2]
    elif rt == "yarn":
        pos = b ** (torch.arange(0, d, 2).to(torch.float32) / d)       # [d/2] b^{2i/d}
        ramp, _, _ = yarn_ramp(head_dim, p)                            # [d/2] float32
        keep = 1 - ramp                                                # [d/2] weight of theta_i
        inv = 1.0 / (p["factor"] * pos) * (1 - keep) + 1.0 / pos * keep  # [d/2]
        attention = yarn_attention_factor(p)
    elif rt == "ntk_alpha":
        inv = _inv_freq_at(d, ntk_alpha_base(b, p["alpha"], d))                # [d/2]
    elif rt == "proportional":
        inv = proportional_inv_freq(head_dim, p.get("partial_rotary_factor", 1.0), b, p.get("factor", 1.0))  # [D/2]
    elif rt == "longrope":
        L0 = p["original_max_position_embeddings"]
        f = p["long_factor"] if seq_len and seq_len > L0 else p["short_factor"]
        ext = torch.tensor(f, dtype=torch.float32)                     # [d/2]
        shape = torch.arange(0, d, 2, dtype=torch.int64).float() / d  # [d/2] 2i/d
        inv = 1.0 / (ext * b ** shape)                                 # [d/2]
        attention = longrope_attention_factor(p)
    else:  # llama3
        s, L0 = p["factor"], p["original_max_position_embeddings"]
        lo, hi = p["low_freq_factor"], p["high_freq_factor"]
        theta = _default_inv_freq(d, b)                                # [d/2]
        lam = 2 * math.pi / theta                                      # [d/2]
        inv = torch.where(lam > L0 / lo, theta / s, theta)             # [d/2]
        medium = ~(lam < L0 / hi) & ~(lam > L0 / lo)                   # [d/2]
        if hi > lo:
            g = (L0 / lam - lo) / (hi - lo)                            # [d/2] 1 = keep, 0 = / s
            smooth = (1 - g) * inv / s + g * inv                       # [d/2]
            inv = torch.where(medium, smooth, inv)                     # [d/2]
    return inv.to(torch.float32), float(attention)


def pair_wavelengths(inv_freq: torch.Tensor | Sequence[float]) -> torch.Tensor:
    r"""How many positions pair i needs for one full turn.

    Formula:
        \lambda_i = \frac{2\pi}{\theta_i}
    """
    inv = torch.as_tensor(inv_freq, dtype=torch.float64)              # [d/2]
    if inv.ndim != 1 or not bool((inv > 0).all()):
        raise PosvizError("positive_vector", name="inv_freq")
    return 2 * math.pi / inv                                           # [d/2]


def phase_coverage(inv_freq_train: torch.Tensor | Sequence[float], inv_freq_target: torch.Tensor | Sequence[float],
                   train_length: int, target_length: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    r"""Fraction of a full turn each pair covers -> (seen [d/2], needed [d/2], never_seen bool [d/2]).

    Formula:
        \text{seen}_i = \min\!\Big(1, \frac{L_{\mathrm{train}}\,\theta_i}{2\pi}\Big)
        \text{needed}_i = \min\!\Big(1, \frac{L_{\mathrm{target}}\,\theta'_i}{2\pi}\Big)
        \text{never seen} \iff \text{needed}_i > \text{seen}_i

    With theta' = theta the never-seen pairs are exactly those with lambda_i > L_train (they
    never complete a turn in training). A relative tolerance of 1e-6 absorbs float32 frequencies.
    """
    train_length = check_int("train_length", train_length, 1, MAX_POSITION)
    target_length = check_int("target_length", target_length, 1, MAX_POSITION)
    a = torch.as_tensor(inv_freq_train, dtype=torch.float64)          # [d/2]
    b = torch.as_tensor(inv_freq_target, dtype=torch.float64)         # [d/2]
    if a.shape != b.shape or a.ndim != 1:
        raise PosvizError("same_shape", a="inv_freq_train", b="inv_freq_target",
                          got=f"{tuple(a.shape)} and {tuple(b.shape)}")
    seen = (train_length * a / (2 * math.pi)).clamp(max=1.0)          # [d/2]
    needed = (target_length * b / (2 * math.pi)).clamp(max=1.0)      # [d/2]
    return seen, needed, needed > seen * (1 + 1e-6)


def log_distances(max_distance: int, n: int = 1200) -> torch.Tensor:
    """Integer distances 0..max_distance: every one up to 64, then about n log-spaced ones."""
    max_distance = check_int("max_distance", max_distance, 1, MAX_POSITION)
    n = check_int("n", n, 2, 20000)
    dense = torch.arange(0, min(max_distance, 64) + 1, dtype=torch.float64)          # [<=65]
    sparse = torch.logspace(math.log10(64), math.log10(max_distance), n, dtype=torch.float64)  # [n]
    r = torch.cat([dense, sparse.round()]) if max_distance > 64 else dense           # [R]
    return torch.unique(r.clamp(0, max_distance)).to(torch.long)                     # [R]


def ones_score(inv_freq: torch.Tensor | Sequence[float], distances: torch.Tensor | Sequence[float],
               attention_factor: float = 1.0) -> torch.Tensor:
    r"""Score of q = k = (1,...,1) at relative distance r with the given (scaled) frequencies,
    divided by d: the RoFormer-style decay curve of a scaled spectrum, in float64.

    Formula:
        \frac{(R_m q)^\top (R_{m+r} k)}{d} = a^2\,\frac{1}{d/2}\sum_{i=0}^{d/2-1}\cos(r\,\theta'_i)

    (a = attention_factor: both q and k carry it through cos and sin.) With unscaled frequencies
    this is posviz.pe.decay.ones_score_curve / d.
    """
    inv = torch.as_tensor(inv_freq, dtype=torch.float64)              # [d/2]
    r = torch.as_tensor(distances, dtype=torch.float64)               # [R]
    a = check_float("attention_factor", attention_factor, 0.0, 100.0, lo_open=True)
    if r.ndim != 1 or r.numel() > 200_000 or (r.numel() and r.abs().max() > MAX_POSITION):
        raise PosvizError("distances_cap", n=200_000, hi=MAX_POSITION)
    # numpy for the cosines: on the shared 2-core host torch's multi-threaded cos is ~20x slower
    # for these sizes (thread contention); same float64 values.
    out = torch.from_numpy(np.cos(np.multiply.outer(r.numpy(), inv.numpy())).mean(axis=1))  # [R]
    return a * a * out                                                 # [R]


def comparison_factor(train_length: int, target_length: int) -> float:
    r"""The factor every compared method uses, at least 1 (no scaling when the target fits).

    Formula:
        s = \max(1,\ L_{\mathrm{target}} / L_{\mathrm{train}})
    """
    train_length = check_int("train_length", train_length, 1, MAX_POSITION)
    target_length = check_int("target_length", target_length, 1, MAX_POSITION)
    return max(1.0, target_length / train_length)


def method_parameters(method: str, head_dim: int, base: float, train_length: int, target_length: int, *,
                      yarn: dict | None = None, llama3: dict | None = None) -> tuple[dict, int | None]:
    """The rope_parameters (and seq_len) of one comparison method with s = L_target / L_train.

    "ntk" is a default RoPE with the NTK-aware base b' = b s^{d/(d-2)}; "dynamic" is evaluated
    at seq_len = L_target; YaRN uses beta_fast/beta_slow (and mscale...) from `yarn` (default
    32 / 1), Llama 3 uses low/high_freq_factor from `llama3` (default 1 / 4).
    Returns (rope_parameters, seq_len or None).
    """
    method = check_choice("method", method, SCALING_METHODS)
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


def frequency_ratio(inv_freq_new: torch.Tensor | Sequence[float],
                    inv_freq_old: torch.Tensor | Sequence[float]) -> torch.Tensor:
    r"""Per pair, how much a method changed the frequency -> Tensor[d/2] float64.

    Formula:
        \rho_i = \theta'_i / \theta_i \quad (1 = \text{kept},\ 1/s = \text{fully interpolated})
    """
    a = torch.as_tensor(inv_freq_new, dtype=torch.float64)            # [d/2]
    b = torch.as_tensor(inv_freq_old, dtype=torch.float64)            # [d/2]
    if a.shape != b.shape or a.ndim != 1 or not bool((b > 0).all()):
        raise PosvizError("same_shape", a="inv_freq_new", b="inv_freq_old",
                          got=f"{tuple(a.shape)} and {tuple(b.shape)}")
    return a / b                                                       # [d/2]


def band_of_ratio(ratio: torch.Tensor | Sequence[float], factor: float,
                  rtol: float = 1e-4) -> torch.Tensor:
    """Band of each pair from theta'/theta -> LongTensor[d/2]: 0 = kept (ratio 1),
    2 = divided by the full factor (ratio 1/factor), 1 = in between (smoothed / partly scaled).
    For Llama 3 this reproduces llama3_bands; for PI every pair is 2."""
    factor = check_float("factor", factor, 1.0, MAX_FACTOR)
    r = torch.as_tensor(ratio, dtype=torch.float64)                   # [d/2]
    bands = torch.ones(r.shape, dtype=torch.long)                     # [d/2]
    bands[(r - 1).abs() <= rtol] = 0
    if factor > 1:
        bands[(r * factor - 1).abs() <= rtol] = 2
    return bands
