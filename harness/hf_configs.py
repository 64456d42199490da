"""Small configs with non-default position settings for every language-model type transformers ships.

`model_types()` lists the text (decoder) model types of transformers' language-model classes (causal LMs and
the text models of image / audio / video-to-text models) and of the text rotary modules posviz checked before;
`small_config(model_type, seed)` makes one of them small enough to build with real weights on a CPU (a few
layers, 4 heads, 4 experts, a vocabulary of 256) and draws its position settings away from the class defaults:
the RoPE base, a scaling type its code accepts, the partial rotary factor, the sliding window, the layer pattern.
Each draw is checked by building the config class and the model on the meta device; a draw the model rejects is
replaced by a simpler one (the order is in `_DRAWS`). Deterministic per (model type, seed).
"""
import copy
import functools
import hashlib
import math
import random

import torch

from posviz.pe import model_probe

LAYERS = 8
SIZE_KEYS = {   # key -> small value (set only where the class has the key and a value)
    "vocab_size": 256, "intermediate_size": 64, "moe_intermediate_size": 32, "shared_expert_intermediate_size": 64,
    "ffn_hidden_size": 64, "expert_intermediate_size": 32, "dense_intermediate_size": 64,
    "num_experts": 4, "n_routed_experts": 4, "num_local_experts": 4, "moe_num_experts": 4, "num_experts_per_tok": 2,
    "moe_topk": 2, "top_k": 2, "n_group": 1, "topk_group": 1, "n_shared_experts": 1, "num_shared_experts": 1,
    "q_lora_rank": 32, "kv_lora_rank": 32, "o_lora_rank": 32, "index_head_dim": 32, "index_n_heads": 2,
    "index_topk": 16, "mamba_d_state": 16, "mamba_n_heads": 4, "mamba_d_head": 16, "mamba_n_groups": 1,
    "ssm_state_size": 16, "state_size": 16, "mamba_expand": 2, "linear_num_key_heads": 2,
    "linear_num_value_heads": 4, "linear_key_head_dim": 16, "linear_value_head_dim": 16, "num_kv_shared_layers": 2,
    "hidden_size_per_layer_input": 16, "laurel_rank": 8, "altup_num_inputs": 4, "vocab_size_per_layer_input": 256,
}
THETAS = (5e3, 2e4, 5e4, 2.5e5, 5e5, 3e6, 1.5e7)
WINDOWS = (64, 512, 4096)
LENGTHS = (2048, 4096, 8192, 32768)
PARTIALS = (0.25, 0.5)


def _hf():
    return model_probe.transformers_module()


@functools.cache
def model_types() -> tuple[str, ...]:
    """The decoder text model types posviz reads: those of transformers' language-model auto classes."""
    hf = _hf()
    auto = hf.models.auto.modeling_auto
    maps = ("MODEL_FOR_CAUSAL_LM_MAPPING_NAMES", "MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES",
            "MODEL_FOR_VISION_2_SEQ_MAPPING_NAMES", "MODEL_FOR_MULTIMODAL_LM_MAPPING_NAMES")
    outer = sorted({t for m in maps for t in getattr(auto, m, {})})
    out = set()
    for t in outer:
        try:
            tc = hf.CONFIG_MAPPING[t]().get_text_config(decoder=True)
        except Exception:   # a class whose own defaults do not validate: its text type is listed by the others
            continue
        if tc.model_type in hf.CONFIG_MAPPING and isinstance(getattr(tc, "num_hidden_layers", None), int):
            out.add(tc.model_type)
    return tuple(sorted(out))


def _rng(model_type, seed):
    return random.Random(int(hashlib.sha256(f"{model_type}:{seed}".encode()).hexdigest()[:12], 16))


def _defaults(model_type):
    return _hf().CONFIG_MAPPING[model_type]().to_dict()


def _rope_dicts(d):
    """The rope dicts of a config dict: the flat one, or those nested by layer type."""
    rp = d.get("rope_parameters")
    if not isinstance(rp, dict):
        return []
    nested = [v for v in rp.values() if isinstance(v, dict)]
    return nested or [rp]


def _shrink(d, rng):
    n_layers = d.get("num_hidden_layers")
    for key, value in SIZE_KEYS.items():
        if isinstance(d.get(key), int) and not isinstance(d.get(key), bool):
            d[key] = min(d[key], value) if key.startswith(("num_kv", "n_group", "topk")) else value
    heads = 4
    kv = d.get("num_key_value_heads")
    if isinstance(d.get("num_attention_heads"), int):
        same = kv == d["num_attention_heads"]
        d["num_attention_heads"] = heads
        if isinstance(kv, int):
            d["num_key_value_heads"] = heads if same else (1 if kv == 1 else 2)
    head_dim = d.get("head_dim") if isinstance(d.get("head_dim"), int) else None
    width = rng.choice((32, 64))
    if head_dim is not None:
        d["head_dim"] = width
    for key in ("global_head_dim",):
        if isinstance(d.get(key), int):
            d[key] = 2 * width
    if isinstance(d.get("qk_rope_head_dim"), int):
        d["qk_rope_head_dim"], d["qk_nope_head_dim"] = 16, 16
        d["v_head_dim"] = 16 if isinstance(d.get("v_head_dim"), int) else d.get("v_head_dim")
        if head_dim is not None:
            d["head_dim"] = 16
    if isinstance(d.get("hidden_size"), int):
        d["hidden_size"] = heads * width
    if isinstance(n_layers, int):
        layers = min(n_layers, LAYERS)
        for key, v in list(d.items()):
            if isinstance(v, list) and len(v) == n_layers and key not in ("mrope_section",):
                d[key] = v[:layers]
        d["num_hidden_layers"] = layers
    return width


def _sections(sec, pairs):
    """M-RoPE sections rescaled to `pairs` pairs (the last takes the rest)."""
    total = sum(sec)
    out = [max(1, round(s * pairs / total)) for s in sec[:-1]]
    return out + [pairs - sum(out)]


def _rotary_pairs(d, width, rp):
    prf = rp.get("partial_rotary_factor", d.get("partial_rotary_factor", 1.0)) or 1.0
    return int(width * prf) // 2


def _draw_rope(d, rng, width, kind):
    """Draw the position settings of kind: "theta", "scaling", "partial", "window", "length"."""
    for rp in _rope_dicts(d):
        if kind == "theta" and "rope_theta" in rp:
            rp["rope_theta"] = rng.choice(THETAS)
        if kind == "partial" and "partial_rotary_factor" in rp and rp["partial_rotary_factor"] not in (None, 1.0):
            rp["partial_rotary_factor"] = rng.choice(PARTIALS)
        if kind == "scaling":
            _draw_scaling(d, rp, rng, width)
        if isinstance(rp.get("mrope_section"), list):
            rp["mrope_section"] = _sections(rp["mrope_section"], _rotary_pairs(d, width, rp))
    if kind == "partial" and isinstance(d.get("partial_rotary_factor"), float) and d["partial_rotary_factor"] < 1:
        d["partial_rotary_factor"] = rng.choice(PARTIALS)
    if kind == "window" and isinstance(d.get("sliding_window"), int):
        d["sliding_window"] = rng.choice(WINDOWS)
    if kind == "length" and isinstance(d.get("max_position_embeddings"), int):
        d["max_position_embeddings"] = rng.choice(LENGTHS)


def _draw_scaling(d, rp, rng, width):
    kind = rng.choice(("linear", "dynamic", "yarn", "llama3", "longrope", "keep"))
    rt = rp.get("rope_type", "default")
    if kind == "keep" or rt not in ("default",):
        if isinstance(rp.get("factor"), (int, float)) and rp["factor"] > 1:
            rp["factor"] = float(rng.choice((2, 4, 8, 16)))
        return
    orig = d.get("max_position_embeddings") or 4096
    pairs = _rotary_pairs(d, width, rp)
    factor = float(rng.choice((2, 4, 8)))
    extra = {"linear": {"factor": factor}, "dynamic": {"factor": factor},
             "yarn": {"factor": factor, "original_max_position_embeddings": max(256, orig // int(factor))},
             "llama3": {"factor": factor, "original_max_position_embeddings": max(256, orig // int(factor)),
                        "low_freq_factor": 1.0, "high_freq_factor": 4.0},
             "longrope": {"factor": factor, "original_max_position_embeddings": max(256, orig // int(factor)),
                          "short_factor": [round(1 + 0.1 * rng.random(), 3) for _ in range(pairs)],
                          "long_factor": [round(1 + i / pairs * factor, 3) for i in range(pairs)]}}[kind]
    rp.update(rope_type=kind, **extra)


# Draws in order; each is kept when the config class and the model on the meta device accept it.
_DRAWS = ("length", "theta", "partial", "window", "scaling")


def _accepts(model_type, d):
    hf = _hf()
    try:
        tc = hf.CONFIG_MAPPING[model_type](**{k: v for k, v in d.items() if k != "model_type"})
        cls = model_probe.model_class(hf, tc)
        with torch.device("meta"):
            cls(tc)
        return True
    except Exception:
        return False


@functools.cache
def _small(model_type, seed):
    rng = _rng(model_type, seed)
    d = _defaults(model_type)
    base = copy.deepcopy(d)
    width = _shrink(d, rng)
    for rp in _rope_dicts(d):
        if isinstance(rp.get("mrope_section"), list):
            rp["mrope_section"] = _sections(rp["mrope_section"], _rotary_pairs(d, width, rp))
    if not _accepts(model_type, d):
        d = base            # a class whose sizes are tied together in ways the shrink does not know: full size
    for kind in _DRAWS:
        trial = copy.deepcopy(d)
        _draw_rope(trial, rng, width, kind)
        if _accepts(model_type, trial):
            d = trial
    d["model_type"] = model_type
    return d


def small_config(model_type: str, seed: int = 0) -> dict:
    """A config dict of `model_type`, small, with position settings drawn away from its defaults (a copy)."""
    return copy.deepcopy(_small(model_type, seed))


def is_finite_config(d) -> bool:
    """No NaN / Infinity anywhere (what json.dumps would write as a non-standard constant)."""
    if isinstance(d, float):
        return math.isfinite(d)
    if isinstance(d, dict):
        return all(is_finite_config(v) for v in d.values())
    if isinstance(d, list):
        return all(is_finite_config(v) for v in d)
    return True
