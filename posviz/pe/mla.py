r"""Multi-head latent attention (MLA) and its decoupled RoPE: DeepSeek-V2 / V3 / V3.2, Kimi K2.

MLA caches one compressed latent c_n (kv_lora_rank = 512 numbers) per token instead of every head's
key and value; each head's key and value are up-projections of it (k^C = W_UK c, v = W_UV c). At
inference the up-projection is *absorbed* into the query: q^T (W_UK c_n) = (W_UK^T q)^T c_n, so the
keys are never rebuilt. RoPE would sit between the two matrices, R(n - m) being different for every
pair of positions, and the product would no longer be one fixed matrix:

    (R_m q)^T (R_n W_UK c_n) = q^T R_{n-m} W_UK c_n

So MLA leaves the latent part unrotated and adds a separate, narrow rotated part (qk_rope_head_dim =
64): a rotated query per head and one rotated key shared by all heads, cached beside the latent:

    s_{mn} = (W_UK^T q^C_m)^T c_n + (R_m q^R_m)^T (R_n k^R_n)

The functions take the pieces of one layer as tensors (per head: q^C [H, L, d_C], q^R [H, L, d_R]; per
token: c [S, d_c], k^R [S, d_R]; W_UK [H, d_C, d_c]) and compute the scores both ways.
"""
from __future__ import annotations

import math

import torch

from posviz.pe import models as gallery
from posviz.pe.rope import apply_rope, rope_inv_freq
from posviz.pe.scaling import deepseek_softmax_scale
from posviz.validate import MAX_DIM, MAX_HEADS, MAX_LENGTH, PosvizError, as_tensor, check_choice, check_int

ROPE_MODES = ("none", "whole", "decoupled")
MLA_FIELDS = ("num_attention_heads", "num_hidden_layers", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim",
              "v_head_dim")
MAX_LATENT = 4096
MAX_LAYERS = 256

# Published configs of MLA models outside the gallery (posviz/pe/model_configs): the fields MLA reads,
# exactly as published. A gallery entry of the same key takes precedence.
EXTRA_CONFIGS = {
    "deepseek_v32": {
        "name": "DeepSeek-V3.2-Exp", "source": "https://huggingface.co/deepseek-ai/DeepSeek-V3.2-Exp/blob/main/config.json",
        "config": {"model_type": "deepseek_v32", "num_attention_heads": 128, "num_hidden_layers": 61,
                   "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
                   "v_head_dim": 128, "max_position_embeddings": 163840, "rope_theta": 10000,
                   "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0, "mscale_all_dim": 1.0,
                                    "original_max_position_embeddings": 4096, "type": "yarn"}}},
    "kimi_k2": {
        "name": "Kimi K2 Instruct (0905)", "source": "https://huggingface.co/moonshotai/Kimi-K2-Instruct-0905/blob/main/config.json",
        "config": {"model_type": "kimi_k2", "num_attention_heads": 64, "num_hidden_layers": 61, "q_lora_rank": 1536,
                   "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
                   "max_position_embeddings": 262144, "rope_theta": 50000.0,
                   "rope_scaling": {"beta_fast": 1.0, "beta_slow": 1.0, "factor": 64.0, "mscale": 1.0,
                                    "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096, "type": "yarn"}}},
}
MLA_MODELS = ("deepseek_v2_lite", "deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2")


def mla_config(key: str) -> dict:
    """A model's published config fields (gallery first, then EXTRA_CONFIGS) with its name and source."""
    check_choice("model", key, MLA_MODELS)
    if key in gallery.GALLERY:
        entry = gallery.GALLERY[key]
        return {"name": entry["name"], "source": entry["source"], "config": dict(entry["config"])}
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in EXTRA_CONFIGS[key].items()}


def mla_dims(config: dict) -> dict:
    """The MLA widths of a config dict, checked: heads, layers, latent d_c, per-head d_C (unrotated),
    d_R (rotated), d_V, and the rope parameters (rope_scaling or rope_parameters, rope_type spelled out)."""
    if not isinstance(config, dict):
        raise PosvizError("config_type", got=type(config).__name__)
    caps = {"num_attention_heads": MAX_HEADS, "num_hidden_layers": MAX_LAYERS, "kv_lora_rank": MAX_LATENT}
    out = {}
    for field in MLA_FIELDS:
        if field not in config:
            raise PosvizError("mla_field", name=field)
        out[field] = check_int(field, config[field], 1, caps.get(field, MAX_DIM))
    if out["qk_rope_head_dim"] % 2:
        raise PosvizError("even", name="qk_rope_head_dim", got=out["qk_rope_head_dim"])
    params = dict(config.get("rope_parameters") or config.get("rope_scaling") or {})
    params["rope_type"] = params.get("rope_type", params.get("type", "default"))
    out["rope_parameters"] = params
    return out


def mla_cache_per_token(config: dict) -> dict:
    r"""What one token leaves in the KV cache of one layer, in numbers: MLA's latent and shared rotated key
    against multi-head attention's keys and values with the same heads.

    Formula:
        \text{MLA: } d_c + d^R_h \qquad \text{MHA: } 2\,n_h\,d_h \ (d_h = d^C_h)
        \text{keys and values as attention computes with them: } n_h\,(d^C_h + d^R_h) + n_h\,d^V_h

    -> {"latent", "rope", "mla", "mha", "expanded", "heads", "layers", "ratio" (mha / mla)}.
    """
    d = mla_dims(config)
    h, dc, dr = d["num_attention_heads"], d["kv_lora_rank"], d["qk_rope_head_dim"]
    mla = dc + dr
    mha = 2 * h * d["qk_nope_head_dim"]
    expanded = h * (d["qk_nope_head_dim"] + dr) + h * d["v_head_dim"]
    return {"latent": dc, "rope": dr, "mla": mla, "mha": mha, "expanded": expanded, "heads": h,
            "layers": d["num_hidden_layers"], "ratio": mha / mla}


def mla_softmax_scale(config: dict) -> dict:
    r"""The softmax scale of an MLA layer: 1/sqrt(d^C_h + d^R_h), times YaRN's mscale squared when the rope
    parameters scale the context (DeepSeek's yarn_get_mscale on mscale_all_dim).

    Formula:
        \text{scale} = \frac{m^2}{\sqrt{d^C_h + d^R_h}}, \qquad m = 0.1\,\mu_{\mathrm{all}} \ln s + 1

    -> {"qk_head_dim", "plain" (1/sqrt), "factor" (m^2), "scale"}.
    """
    d = mla_dims(config)
    qk = d["qk_nope_head_dim"] + d["qk_rope_head_dim"]
    factor = deepseek_softmax_scale(d["rope_parameters"])
    return {"qk_head_dim": qk, "plain": qk ** -0.5, "factor": factor, "scale": qk ** -0.5 * factor}


# ---------------------------------------------------------------- scores: decompressed keys vs absorbed query
def _pieces(q_nope, q_rope, latent, k_rope, w_uk):
    """Shapes of one layer's MLA pieces, checked -> (H, L, S)."""
    q_nope = as_tensor("q_nope", q_nope, ndim=3)
    q_rope, latent, k_rope = as_tensor("q_rope", q_rope, ndim=3), as_tensor("latent", latent, ndim=2), \
        as_tensor("k_rope", k_rope, ndim=2)
    w_uk = as_tensor("w_uk", w_uk, ndim=3)
    for name, t in (("q_nope", q_nope), ("q_rope", q_rope), ("latent", latent), ("k_rope", k_rope), ("w_uk", w_uk)):
        if not t.is_floating_point() or t.dtype != q_nope.dtype:
            raise PosvizError("tensor", name=name, got=str(t.dtype))
    h, length, dn = q_nope.shape
    s, dc = latent.shape
    if q_rope.shape[:2] != (h, length) or k_rope.shape[0] != s or k_rope.shape[1] != q_rope.shape[2] \
            or tuple(w_uk.shape) != (h, dn, dc) or length > MAX_LENGTH or s > MAX_LENGTH:
        raise PosvizError("mla_shapes", shapes=str([list(t.shape) for t in (q_nope, q_rope, latent, k_rope, w_uk)]))
    return h, length, s


def _rotate(x, positions, inv_freq):
    """RoPE on [H, L, d] (DeepSeek's interleaved pairs) at positions [L]."""
    return apply_rope(x[None], positions, inv_freq=inv_freq)[0]      # [H,L,d]


def expanded_scores(q_nope, q_rope, latent, k_rope, w_uk, *, q_positions, k_positions, rope="decoupled",
                    base=10000.0, inv_freq=None):
    r"""Attention scores with every head's key rebuilt from the cache (k^C_n = W_UK c_n), then RoPE as `rope`
    says: "none" (no rotation), "whole" (the rebuilt key and the query rotated: what folding RoPE into the
    compressed cache would need), "decoupled" (MLA: only the separate narrow parts rotate) -> [H, L, S].

    Formula:
        \text{none: } s_{mn} = q^{C\top}_m W_{UK} c_n \qquad \text{whole: } (R_m q^C_m)^\top (R_n W_{UK} c_n)
        \text{decoupled: } s_{mn} = q^{C\top}_m W_{UK} c_n + (R_m q^R_m)^\top (R_n k^R_n)

    inv_freq: the frequencies of the rotated part (default base^{-2i/d_R}); "whole" rotates the d_C-wide
    part at base^{-2i/d_C}. Unscaled (the softmax scale multiplies both ways alike).
    """
    check_choice("rope", rope, ROPE_MODES)
    _pieces(q_nope, q_rope, latent, k_rope, w_uk)
    k_nope = torch.einsum("hdc,sc->hsd", w_uk, latent)              # [H,S,d_C]
    if rope == "whole":
        inv_c = rope_inv_freq(q_nope.shape[-1], base).to(q_nope.dtype)   # [d_C/2]
        return _rotate(q_nope, q_positions, inv_c) @ _rotate(k_nope, k_positions, inv_c).transpose(-1, -2)  # [H,L,S]
    scores = q_nope @ k_nope.transpose(-1, -2)                       # [H,L,S]
    if rope == "decoupled":
        inv = rope_inv_freq(q_rope.shape[-1], base) if inv_freq is None else inv_freq   # [d_R/2]
        k_r = _rotate(k_rope[None], k_positions, inv)                # [1,S,d_R]: one key for every head
        scores = scores + _rotate(q_rope, q_positions, inv) @ k_r.transpose(-1, -2)   # [H,L,S]
    return scores


def absorbed_scores(q_nope, q_rope, latent, k_rope, w_uk, *, q_positions, k_positions, rope="decoupled",
                    base=10000.0, inv_freq=None):
    r"""The same scores from the cache as it is (c_n and k^R_n only): W_UK absorbed into the query once,
    no key rebuilt. "none" and "whole" absorb the one position-free product W_UK^T q^C (for "whole" there
    is no fixed matrix to absorb: R_{n-m} would have to sit inside it) -> [H, L, S].

    Formula:
        \tilde q_m = W_{UK}^\top q^C_m, \qquad s_{mn} = \tilde q_m^\top c_n + (R_m q^R_m)^\top (R_n k^R_n)
        (R_m q)^\top R_n W_{UK} c_n = q^\top R_{n-m} W_{UK} c_n \ne (W_{UK}^\top q)^\top c_n

    """
    check_choice("rope", rope, ROPE_MODES)
    _pieces(q_nope, q_rope, latent, k_rope, w_uk)
    q_absorbed = torch.einsum("hld,hdc->hlc", q_nope, w_uk)          # [H,L,d_c]
    scores = q_absorbed @ latent.T                                   # [H,L,S]
    if rope == "decoupled":
        inv = rope_inv_freq(q_rope.shape[-1], base) if inv_freq is None else inv_freq   # [d_R/2]
        k_r = _rotate(k_rope[None], k_positions, inv)                # [1,S,d_R]
        scores = scores + _rotate(q_rope, q_positions, inv) @ k_r.transpose(-1, -2)   # [H,L,S]
    return scores


def absorption_errors(length: int = 48, *, heads: int = 2, latent_dim: int = 512, nope_dim: int = 128,
                      rope_dim: int = 64, base: float = 10000.0, seed: int = 0) -> dict:
    r"""Absorbing W_UK with and without RoPE, measured: random pieces of one MLA layer (float64, the widths of
    DeepSeek-V3 by default), tokens at positions 0..L-1, causal pairs m >= n; for each mode the error of the
    absorbed scores against the rebuilt keys', per distance m - n.

    Formula:
        e(\delta) = \max_{m - n = \delta} \frac{|s^{\text{absorbed}}_{mn} - s^{\text{rebuilt}}_{mn}|}
            {\mathrm{rms}(s^{\text{rebuilt}})}

    -> {"distance": [L], mode: {"error": [L] per distance, "max": float}} for each of ROPE_MODES.
    """
    length = check_int("length", length, 2, 512)
    heads = check_int("heads", heads, 1, 16)
    latent_dim = check_int("latent_dim", latent_dim, 2, MAX_LATENT)
    nope_dim = check_int("nope_dim", nope_dim, 2, MAX_DIM)
    rope_dim = check_int("rope_dim", rope_dim, 2, MAX_DIM)
    g = torch.Generator().manual_seed(check_int("seed", seed, 0, 2**31))
    f64 = torch.float64
    q_nope = torch.randn(heads, length, nope_dim, generator=g, dtype=f64)            # [H,L,d_C]
    q_rope = torch.randn(heads, length, rope_dim, generator=g, dtype=f64)            # [H,L,d_R]
    latent = torch.randn(length, latent_dim, generator=g, dtype=f64)                 # [S,d_c]
    k_rope = torch.randn(length, rope_dim, generator=g, dtype=f64)                   # [S,d_R]
    w_uk = torch.randn(heads, nope_dim, latent_dim, generator=g, dtype=f64) / math.sqrt(latent_dim)   # [H,d_C,d_c]
    pos = torch.arange(length)                                                        # [L]
    delta = pos[:, None] - pos[None, :]                                               # [L,S]
    out = {"distance": torch.arange(length).numpy()}
    for mode in ROPE_MODES:
        kw = dict(q_positions=pos, k_positions=pos, rope=mode, base=base)
        ref = expanded_scores(q_nope, q_rope, latent, k_rope, w_uk, **kw)            # [H,L,S]
        got = absorbed_scores(q_nope, q_rope, latent, k_rope, w_uk, **kw)            # [H,L,S]
        err = ((got - ref).abs() / ref.pow(2).mean().sqrt()).amax(0)                 # [L,S]
        per = torch.stack([err[delta == d].max() for d in range(length)])            # [L]
        out[mode] = {"error": per.numpy(), "max": float(per.max())}
    return out
