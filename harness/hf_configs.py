"""Small configs with non-default position settings for every language-model type transformers ships: the fixture
of tests/pe/test_model_types.py (written by `python -m harness.hf_configs --write`, read by the tests).

`model_types()` lists the text (decoder) model types of transformers' language-model classes (causal LMs and the
text models of image / audio / video-to-text models). `small_config(model_type, seed)` makes one small enough to
build with real weights on a CPU (a few layers, 4 heads, 4 experts, a vocabulary of 256) and draws its position
settings away from the class defaults: the RoPE base, a scaling type its code accepts, the partial rotary
factor, the sliding window, the layer pattern, the length. The draws are kept together when the model with real
random weights builds from them and runs under posviz.pe.model_probe, else one by one as each runs; a type whose
class defaults do not build in transformers itself gets the few fields it lacks (FIXES). Deterministic per (model
type, seed).

`reference(d)` is what the tests hold posviz's reading to: the measurement of the model with real random weights,
every block running (model_probe.probe(weights="random")), and the inverse frequencies its text rotary modules hold.
The fixture stores it beside each config, so the tests run transformers only for posviz's own reading.
"""
import copy
import functools
import gzip
import hashlib
import json
import multiprocessing
import pathlib
import random
import sys

import torch

from posviz.pe import _probe_build, model_probe

LAYERS = 8
HEADS = 4
FIXTURE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "pe" / "data" / "model_types.json.gz"
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
# Fields a class's own defaults leave unset although its model needs them (transformers' defaults do not build), or
# that its validators tie to the sizes made small; set after shrinking.
UNSET_SIZES = ("num_experts_per_tok", "n_shared_experts", "n_group", "topk_group")   # None in defaults, needed
FIXES = {
    "falcon_h1": {"mamba_d_ssm": None},
    "mamba2": {"num_heads": 8},
    "zaya": {"num_experts_per_tok": 1},
    "dory": {"n_input_layers": 2, "n_recurrent_layers": 4, "n_output_layers": 2},
    "qwen4_exp_text": {"indexer_n_heads": 2, "indexer_kv_heads": 1, "indexer_head_dim": 32, "indexer_budget": 64,
                       "indexer_compress_ratio": 4},
    "hunyuan_v1_dense": {"rope_parameters": {"rope_type": "dynamic", "alpha": 1000.0, "factor": 1.0,
                                             "rope_theta": 10000.0}},
    "hunyuan_v1_moe": {"rope_parameters": {"rope_type": "dynamic", "alpha": 1000.0, "factor": 1.0,
                                           "rope_theta": 10000.0}},
    "hunyuan_vl_text": {"rope_parameters": {"rope_type": "dynamic", "alpha": 1000.0, "factor": 1.0,
                                            "rope_theta": 10000.0, "mrope_section": [8, 8, 8, 8]}},
    "dots1": {"num_local_experts": 4},
    "lfm2_moe": {"layer_types": ["conv", "full_attention"] * 4},
    "deepseek_ocr2_text": {"mlp_layer_types": ["dense"] + ["sparse"] * 7},
    "chameleon": {"vocabulary_map": {"<image>": 1}},
    "step3p5": {"sliding_window": 512},
    "qwen2_vl_text": {"rope_parameters": {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [4, 6, 6]}},
    "qwen2_5_vl_text": {"rope_parameters": {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [4, 6, 6]}},
    "qwen2_5_omni_text": {"rope_parameters": {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [4, 6, 6]}},
    "glm4v_text": {"rope_parameters": {"rope_type": "default", "rope_theta": 1e4, "mrope_section": [2, 3, 3],
                                       "partial_rotary_factor": 0.5}},
    "glm4v_moe_text": {"rope_parameters": {"rope_type": "default", "rope_theta": 1e4, "mrope_section": [2, 3, 3],
                                           "partial_rotary_factor": 0.5}},
    "glm_ocr_text": {"rope_parameters": {"rope_type": "default", "rope_theta": 1e4, "mrope_section": [2, 3, 3],
                                         "partial_rotary_factor": 0.5}},
    "glm_image_text": {"rope_parameters": {"rope_type": "default", "rope_theta": 1e4, "mrope_section": [2, 3, 3],
                                           "partial_rotary_factor": 0.5}},
    "paddleocr_vl_text": {"rope_parameters": {"rope_type": "default", "rope_theta": 5e5, "mrope_section": [4, 6, 6]}},
    "ernie4_5_vl_moe_text": {"rope_parameters": {"rope_type": "default", "rope_theta": 5e5,
                                                 "mrope_section": [6, 6, 4]}},
}
THETAS = (5e3, 2e4, 5e4, 2.5e5, 5e5, 3e6, 1.5e7)
WINDOWS = (64, 512, 4096)
LENGTHS = (2048, 4096, 8192, 32768)
PARTIALS = (0.25, 0.5)
SCALINGS = ("linear", "dynamic", "yarn", "llama3", "longrope", "keep")
# Draws in order; each is kept when the model with real weights builds and runs from it.
DRAWS = ("length", "theta", "partial", "window", "pattern", "scaling")


def _hf():
    return model_probe.transformers_module()


@functools.cache
def model_types() -> tuple[str, ...]:
    """The decoder text model types posviz reads: those of transformers' language-model auto classes."""
    hf = _hf()
    auto = hf.models.auto.modeling_auto
    maps = ("MODEL_FOR_CAUSAL_LM_MAPPING_NAMES", "MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES",
            "MODEL_FOR_VISION_2_SEQ_MAPPING_NAMES", "MODEL_FOR_MULTIMODAL_LM_MAPPING_NAMES")
    out = set()
    for t in sorted({t for m in maps for t in getattr(auto, m, {})}):
        try:
            tc = hf.CONFIG_MAPPING[t]().get_text_config(decoder=True)
        except Exception:   # a class whose own defaults do not validate: its text type is listed by the others
            continue
        if tc.model_type in hf.CONFIG_MAPPING and isinstance(getattr(tc, "num_hidden_layers", None), int):
            out.add(tc.model_type)
    return tuple(sorted(out))


def _rng(model_type, seed):
    return random.Random(int(hashlib.sha256(f"{model_type}:{seed}".encode()).hexdigest()[:12], 16))


def _rope_dicts(d):
    """The rope dicts of a config dict: the flat one, or those nested by layer type."""
    rp = d.get("rope_parameters")
    if not isinstance(rp, dict):
        return []
    nested = [v for v in rp.values() if isinstance(v, dict)]
    return nested or [rp]


def _shrink_sizes(d):
    for key, value in SIZE_KEYS.items():
        if isinstance(d.get(key), int) and not isinstance(d.get(key), bool):
            d[key] = min(d[key], value) if key.startswith(("n_group", "topk")) else value
        elif key in UNSET_SIZES and key in d and d[key] is None:
            d[key] = value
    kv = d.get("num_key_value_heads")
    if isinstance(d.get("num_attention_heads"), int):
        same = kv == d["num_attention_heads"]
        d["num_attention_heads"] = HEADS
        if isinstance(kv, int):
            d["num_key_value_heads"] = HEADS if same else (1 if kv == 1 else 2)
        elif "num_key_value_heads" in d:           # None: as many as the heads, as the class means
            d["num_key_value_heads"] = HEADS


def _shrink_width(d, width):
    """Head width `width` (MLA: 16 + 16), hidden size heads x width."""
    explicit = isinstance(d.get("head_dim"), int) or ("head_dim" in d and d["head_dim"] is None)
    whole = d.get("head_dim") == (d.get("qk_rope_head_dim") or 0) + (d.get("qk_nope_head_dim") or 0)  # MLA q·k
    if explicit:
        d["head_dim"] = width
    if isinstance(d.get("rotary_dim"), int):       # GPT-J, CodeGen: the rotated dims of a head
        d["rotary_dim"] = width // 2
    if isinstance(d.get("global_head_dim"), int):
        d["global_head_dim"] = 2 * width
    if isinstance(d.get("qk_rope_head_dim"), int) and d["qk_rope_head_dim"] > 0:   # 0: MLA without RoPE
        d["qk_rope_head_dim"], d["qk_nope_head_dim"] = 16, 16
        for rp in _rope_dicts(d):                  # the class derives it from the new widths
            rp.pop("partial_rotary_factor", None)
        if isinstance(d.get("v_head_dim"), int):
            d["v_head_dim"] = 16
        if explicit:
            d["head_dim"] = 32 if whole else 16
    if isinstance(d.get("hidden_size"), int):
        d["hidden_size"] = HEADS * width
        if all(isinstance(d.get(k), int) for k in ("mamba_expand", "mamba_n_heads", "mamba_d_head")):
            d["mamba_d_head"] = d["mamba_expand"] * d["hidden_size"] // d["mamba_n_heads"]
    vocab = d.get("vocab_size")
    for key, value in list(d.items()):              # special tokens inside the small vocabulary
        if key.endswith("_token_id") and isinstance(value, int) and isinstance(vocab, int) and value >= vocab:
            d[key] = 0


def _shrink_layers(d):
    n_layers = d.get("num_hidden_layers")
    if not isinstance(n_layers, int):
        return
    layers = min(n_layers, LAYERS)
    for key, v in list(d.items()):
        if isinstance(v, list) and len(v) == n_layers and key != "mrope_section":
            d[key] = v[:layers]
    if isinstance(d.get("per_layer_config"), dict):   # settings by layer index: the class derives them again
        del d["per_layer_config"]
    d["num_hidden_layers"] = layers


def _sections(sec, pairs):
    """M-RoPE sections rescaled to `pairs` pairs (the last takes the rest)."""
    total = sum(sec)
    out = [max(1, round(s * pairs / total)) for s in sec[:-1]]
    return out + [pairs - sum(out)]


def _rotary_pairs(d, width, rp):
    if isinstance(d.get("qk_rope_head_dim"), int) and d["qk_rope_head_dim"] > 0:   # MLA: the rotated part
        return d["qk_rope_head_dim"] // 2
    prf = rp.get("partial_rotary_factor", d.get("partial_rotary_factor", 1.0)) or 1.0
    return int(width * prf) // 2


def _fit_sections(d, width):
    for rp in _rope_dicts(d):
        if isinstance(rp.get("mrope_section"), list):
            rp["mrope_section"] = _sections(rp["mrope_section"], _rotary_pairs(d, width, rp))


def _draw(d, rng, width, kind):
    """Draw the position settings of kind (one of DRAWS)."""
    for rp in _rope_dicts(d):
        if kind == "theta" and "rope_theta" in rp:
            rp["rope_theta"] = rng.choice(THETAS)
        if kind == "partial" and rp.get("partial_rotary_factor") not in (None, 1.0):
            rp["partial_rotary_factor"] = rng.choice(PARTIALS)
        if kind == "scaling":
            _draw_scaling(d, rp, rng, width)
    if kind == "partial" and isinstance(d.get("partial_rotary_factor"), float) and d["partial_rotary_factor"] < 1:
        d["partial_rotary_factor"] = rng.choice(PARTIALS)
    if kind == "window" and isinstance(d.get("sliding_window"), int):
        d["sliding_window"] = rng.choice(WINDOWS)
    if kind == "length" and isinstance(d.get("max_position_embeddings"), int):
        d["max_position_embeddings"] = rng.choice(LENGTHS)
    if kind == "pattern":
        _draw_pattern(d, rng)
    _fit_sections(d, width)


def _draw_pattern(d, rng):
    """Another layer pattern: layer_types shuffled (each kind kept), sliding_window_pattern, no_rope_layers."""
    kinds = d.get("layer_types")
    if isinstance(kinds, list) and len(set(kinds)) > 1:
        d["layer_types"] = rng.sample(kinds, len(kinds))
    if isinstance(d.get("sliding_window_pattern"), int):
        d["sliding_window_pattern"] = rng.choice((2, 3))
    nope = d.get("no_rope_layers")
    if isinstance(nope, list) and nope:
        d["no_rope_layers"] = [int(rng.random() < 0.7) for _ in nope]


def _draw_scaling(d, rp, rng, width):
    kind = rng.choice(SCALINGS)
    if kind == "keep" or rp.get("rope_type", "default") != "default":
        if isinstance(rp.get("factor"), (int, float)) and rp["factor"] > 1:
            rp["factor"] = float(rng.choice((2, 4, 8, 16)))
        return
    orig = d.get("max_position_embeddings") or 4096
    pairs = _rotary_pairs(d, width, rp)
    factor = float(rng.choice((2, 4, 8)))
    short = max(256, orig // int(factor))
    extra = {"linear": {"factor": factor}, "dynamic": {"factor": factor},
             "yarn": {"factor": factor, "original_max_position_embeddings": short},
             "llama3": {"factor": factor, "original_max_position_embeddings": short, "low_freq_factor": 1.0,
                        "high_freq_factor": 4.0},
             "longrope": {"factor": factor, "original_max_position_embeddings": short,
                          "short_factor": [round(1 + 0.1 * rng.random(), 3) for _ in range(pairs)],
                          "long_factor": [round(1 + i / pairs * factor, 3) for i in range(pairs)]}}[kind]
    rp.update(rope_type=kind, **extra)


MAX_PARAMETERS = 15 * 10 ** 7   # a fixture model with real weights stays small (600 MB in float32)


def problem(model_type, d):
    """Why a config dict of model_type cannot serve as a fixture (None: it can): its class must accept it, the
    model must be small, and it must build and run both with real random weights and with the probe's stand-ins."""
    hf = _hf()
    try:
        tc = hf.CONFIG_MAPPING[model_type](**{k: v for k, v in d.items() if k != "model_type"})
        with torch.device("meta"):
            model = _probe_build.model_class(hf, tc)(copy.deepcopy(tc))
        size = sum(p.numel() for p in model.parameters()) + sum(b.numel() for b in model.buffers())
        if size > MAX_PARAMETERS:   # a causal-mask buffer of n_positions² (GPT) counts too
            return f"too big to build with real weights ({size:,} parameters and buffer elements)"
        for weights in ("random", "stand-in"):
            found = model_probe.probe(tc, weights=weights)
            if found.error:
                return f"{weights}: {found.error}"
    except Exception as e:
        return f"{type(e).__name__}: {str(e).splitlines()[0][:150] if str(e).strip() else ''}"
    return None


def small_config(model_type: str, seed: int = 0) -> tuple[dict, str | None]:
    """(config dict of `model_type`, small, position settings drawn away from its defaults; None when it cannot be
    made to build and run small -- then the reason)."""
    rng = _rng(model_type, seed)
    cls = _hf().CONFIG_MAPPING[model_type]
    d = cls().to_dict()
    for canonical, alias in getattr(cls, "attribute_map", {}).items():   # n_embd -> hidden_size, ...
        if alias in d and canonical not in d:
            d[canonical] = d.pop(alias)
    width = rng.choice((32, 64))
    _shrink_sizes(d)
    _shrink_width(d, width)
    _shrink_layers(d)
    for key, value in FIXES.get(model_type, {}).items():
        d[key] = copy.deepcopy(value)
    _fit_sections(d, width)
    d["model_type"] = model_type
    why = problem(model_type, d)
    if why:
        return None, why
    together = copy.deepcopy(d)
    for kind in DRAWS:                   # each kind draws from its own stream: the same draw together or alone
        _draw(together, _rng(model_type, f"{seed}:{kind}"), width, kind)
    if problem(model_type, together) is None:
        return together, None
    for kind in DRAWS:
        trial = copy.deepcopy(d)
        _draw(trial, _rng(model_type, f"{seed}:{kind}"), width, kind)
        if problem(model_type, trial) is None:
            d = trial
    return d, None


def rotary_buffers(tc) -> dict[str, list[float]]:
    """The inverse frequencies every text rotary module of the model holds (sorted values), by buffer name."""
    model = _probe_build.build(tc, implementation="eager", weights="random")
    out = {}
    for name, m in model.named_modules():
        if "RotaryEmbedding" not in type(m).__name__ or "Vision" in type(m).__name__:
            continue
        for b, value in m.named_buffers(recurse=False):
            if b.endswith("inv_freq") and not b.startswith("original"):
                out[f"{name}.{b}"] = sorted(value.double().tolist())
    return out


def text_config(d):
    return _hf().CONFIG_MAPPING[d["model_type"]](**{k: v for k, v in d.items() if k != "model_type"})


def reference(d) -> dict:
    """What the model of config dict d does with real random weights: the probe's measurement and the rotary
    modules' inverse frequencies."""
    found = model_probe.probe(text_config(copy.deepcopy(d)), weights="random")
    return {"probe": model_probe.to_dict(found), "inv_freq": rotary_buffers(text_config(copy.deepcopy(d)))}


def _entry(model_type):
    try:
        d, why = small_config(model_type)
        return model_type, d, why, (reference(d) if d is not None else None)
    except Exception as e:    # a type that breaks the harness itself is left out with its reason, not the run
        return model_type, None, f"{type(e).__name__}: {str(e)[:150]}", None


def write(path=FIXTURE, workers=2):
    """Every model type's small config and its reference (or why it has none) into the fixture file."""
    configs, refs, left_out = {}, {}, {}
    with multiprocessing.get_context("spawn").Pool(workers, maxtasksperchild=8) as pool:
        for t, d, why, ref in pool.imap_unordered(_entry, model_types()):
            if d is None:
                left_out[t] = why
            else:
                configs[t], refs[t] = d, ref
            print(t, "ok" if d else why, flush=True)
    data = {"transformers": _hf().__version__, "configs": configs, "reference": refs, "left_out": left_out}
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=0, sort_keys=True, default=str, allow_nan=True) + "\n"
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    return len(configs), len(left_out)


def read(path=FIXTURE) -> dict:
    return json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m harness.hf_configs --write")
    print(write())
