r"""Read what a model's config.json says about positions: `read_model_rope(config) -> ModelRope`.

A config is read the way transformers reads that model type: `AutoConfig.for_model(model_type,
**config)`, then its text config. That brings each config class's own defaults (Gemma 3's global
rope_theta 1e6, Llama 4's and Cohere's 5e5 / 8e6 ...), its legacy keys (rotary_pct, rope_pct,
rotary_emb_base, n_embd / n_head, rope_scaling), and its per-layer-type rope parameters and
layer_types. transformers (a pinned runtime dependency) is imported lazily, here only, and only to
read the config: the frequencies are then computed by posviz's own formulas (posviz.pe.scaling);
transformers' rope functions are the reference of the tests and of the page's live check.

What a config says beyond the frequencies, per model type:
  * which layers have no RoPE (Llama 4 / SmolLM3 `no_rope_layers`, Qwen3-Next's linear-attention
    layers, Command R7B's global layers) and Llama 4's query temperature on them;
  * DeepSeek-V2/V3's YaRN mscale, folded into the softmax scale (x m(s, mscale_all_dim)^2), and
    Gemma's query_pre_attn_scalar;
  * partial rotary (rotary_dim < head_dim), M-RoPE sections (Qwen2-VL), the pairing layout.
A model type transformers does not know gets a generic reading (the common keys and legacy
aliases) with a note. Only json.loads touches the text: nothing is executed or rendered.
Unreadable input raises PosvizError naming the field; a valid config with something posviz cannot
draw yet raises RopeNotSupported ("not supported yet: ...").
"""
from __future__ import annotations

import copy
import dataclasses
import json
import math
import threading

import torch

from posviz.pe.scaling import (
    ROPE_PARAMETER_KEYS,
    ROPE_TYPES,
    check_rope_parameters,
    deepseek_softmax_scale,
    rope_frequencies,
    rotary_width,
)
from posviz.validate import MAX_DIM, MAX_POSITION, PosvizError, check_int

MAX_BYTES = 65536
MAX_DEPTH = 20
MAX_LAYERS = 1024
# Pairing of the rotated dims: "half" = (i, i + d/2) like rotate_half; "interleaved" = (2i, 2i+1).
INTERLEAVED = {"gptj", "cohere", "cohere2", "llama4", "llama4_text", "deepseek_v2", "glm", "glm4"}
# Layer kinds without rotary attention (linear attention / state-space blocks of hybrid models).
NO_ATTENTION_KINDS = {"linear_attention", "mamba", "conv", "recurrent", "mlp"}
# Keys that carry sizes: capped before any config class sees them (a layer list of 10**9 ...).
_SIZE_CAPS = {"num_hidden_layers": MAX_LAYERS, "n_layer": MAX_LAYERS, "num_layers": MAX_LAYERS,
              "num_attention_heads": 4096, "n_head": 4096, "hidden_size": 2 ** 20, "n_embd": 2 ** 20,
              "head_dim": MAX_DIM, "qk_rope_head_dim": MAX_DIM, "qk_nope_head_dim": MAX_DIM,
              "rotary_dim": MAX_DIM, "max_position_embeddings": 10 ** 8, "n_positions": 10 ** 8,
              "original_max_position_embeddings": 10 ** 8, "num_key_value_heads": 4096}


class RopeNotSupported(PosvizError):
    """A valid config that posviz cannot show yet: shown as "not supported yet: ...", a warning
    (not "invalid input")."""

    boundary = True

    def __init__(self, what: str) -> None:
        super().__init__("unsupported", what=what)


@dataclasses.dataclass(frozen=True)
class LayerRope:
    """The RoPE of one layer type. rope_parameters: the complete Hugging Face style dict
    (defaults filled in); head_dim: the width transformers' formula starts from (before
    partial_rotary_factor); rotary_dim: the dims rotated."""

    rope_parameters: dict
    head_dim: int
    rotary_dim: int

    def frequencies(self, seq_len: int | None = None) -> tuple[torch.Tensor, float]:
        """(inv_freq Tensor[rotary_dim//2], attention_factor) via posviz.pe.scaling."""
        return rope_frequencies(self.head_dim, self.rope_parameters, seq_len=seq_len)


@dataclasses.dataclass(frozen=True)
class ModelRope:
    """Everything a config says about positions (the contract of DESIGN.md, plus what the page
    shows besides: max_length, layer_kinds, layout, query_temperature, notes, ignored)."""

    model_type: str | None
    head_dim: int
    rotary_dim: int
    trained_length: int | None
    layer_rope: list[str]                    # per layer: a key of `rope`, or "nope"
    rope: dict[str, LayerRope]
    softmax_scale: float = 1.0
    mrope_section: list[int] | None = None
    max_length: int | None = None
    layer_kinds: list[str] = dataclasses.field(default_factory=list)   # attention kind per layer
    layout: str = "half"
    query_temperature: dict[str, float] | None = None    # Llama 4: {"floor_scale", "attn_scale"} on NoPE layers
    notes: tuple[tuple[str, object], ...] = ()         # (code, value) pairs the page turns into sentences
    ignored: tuple[str, ...] = ()


# ---------------------------------------------------------------- JSON
def _reject_constant(name):
    raise PosvizError("config_finite", path=name)


def _check_finite(value, path="config", depth=0):
    """Every number must be finite (1e999 parses as inf); nesting is capped."""
    if depth > MAX_DEPTH:
        raise PosvizError("config_depth", n=MAX_DEPTH)
    if isinstance(value, float) and not math.isfinite(value):
        raise PosvizError("config_finite", path=path)
    if isinstance(value, dict):
        for k, v in value.items():
            _check_finite(v, f"{path}.{k}", depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_finite(v, f"{path}[{i}]", depth + 1)


def load_json(text: str) -> dict:
    """json.loads with the size cap (64 KB), no NaN / Infinity, a JSON object at the top."""
    if not isinstance(text, str):
        raise PosvizError("config_text", got=type(text).__name__)
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise PosvizError("config_size", size=size, n=MAX_BYTES)
    if not text.strip():
        raise PosvizError("config_empty")
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise PosvizError("config_json", line=e.lineno, col=e.colno, msg=e.msg) from None
    except RecursionError:
        raise PosvizError("config_depth", n=MAX_DEPTH) from None
    except PosvizError:
        raise
    except ValueError:   # an integer of more than 4300 digits (Python's int parsing limit)
        raise PosvizError("config_huge") from None
    if not isinstance(data, dict):
        raise PosvizError("config_type", got=f"JSON {type(data).__name__}")
    _check_finite(data)
    return data


def _number(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PosvizError("number", name=name, got=repr(value)[:80])
    return value


def _int(name, value, lo=1, hi=MAX_POSITION):
    _number(name, value)
    if isinstance(value, float) and value != int(value):
        raise PosvizError("integer", name=name, got=repr(value))
    return check_int(name, int(value), lo, hi)


def _check_sizes(cfg, where=""):
    """The size fields of a config (and of its text_config) are numbers in range."""
    for key, hi in _SIZE_CAPS.items():
        if cfg.get(key) is not None:
            _int(where + key, cfg[key], 1, hi)
    if isinstance(cfg.get("text_config"), dict) and not where:
        _check_sizes(cfg["text_config"], "text_config.")
    for key in ("layer_types", "no_rope_layers"):
        v = cfg.get(key)
        if v is not None and (not isinstance(v, list) or len(v) > MAX_LAYERS):
            raise PosvizError("config_list", name=where + key, n=MAX_LAYERS)


# ---------------------------------------------------------------- rope dicts
def _rope_type(p):
    rt = p.get("rope_type", p.get("type", "default"))
    if rt == "mrope":          # Qwen2-VL's files: M-RoPE sections over plain default frequencies
        rt = "default"
    if rt == "su":             # Phi-3's first files: the old name of longrope
        rt = "longrope"
    if not isinstance(rt, str):
        raise PosvizError("config_field", name="rope_type", got=repr(rt)[:80])
    if rt not in ROPE_TYPES:
        raise RopeNotSupported(f"rope_type '{rt[:40]}'")
    return rt


def _complete(params, head_dim, max_pos, ignored):
    """A (standardised) HF rope dict -> posviz's complete dict for pe.scaling.

    Adds what transformers takes from the config object: dynamic's reference length
    (max_position_embeddings) and YaRN / LongRoPE's missing factor (max / original)."""
    if not isinstance(params, dict):
        raise PosvizError("rope_dict", name="rope_parameters", got=type(params).__name__)
    rt = _rope_type(params)
    p = {}
    for k, v in params.items():
        if k in ("type", "rope_type") or v is None:
            continue
        if k not in ROPE_PARAMETER_KEYS:
            ignored.add(k)
            continue
        p[k] = v
    p["rope_type"] = rt
    _check_numbers(p)
    _fill_lengths(p, rt, max_pos)
    _, full = check_rope_parameters(head_dim, p)
    return {k: v for k, v in full.items() if v is not None}


def _check_numbers(p):
    """The numeric fields of a rope dict are numbers (original_max_position_embeddings an integer, made int)."""
    for k in ("original_max_position_embeddings",):
        if k in p:
            p[k] = _int(k, p[k])
    for k in ("rope_theta", "factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim",
              "attention_factor", "low_freq_factor", "high_freq_factor", "partial_rotary_factor"):
        if k in p:
            _number(k, p[k])


def _fill_lengths(p, rt, max_pos):
    """What transformers reads from max_position_embeddings (max_pos): dynamic's reference length, the
    trained length of YaRN / Llama 3 / LongRoPE when the dict has none, YaRN / LongRoPE's missing factor."""
    if rt == "dynamic":
        if max_pos is None:
            raise PosvizError("config_missing_for", name="max_position_embeddings", rope_type="dynamic")
        p["original_max_position_embeddings"] = max_pos       # HF's dynamic NTK compares with this one
    if rt in ("yarn", "llama3", "longrope") and "original_max_position_embeddings" not in p and max_pos:
        p["original_max_position_embeddings"] = max_pos
    if rt in ("yarn", "longrope") and p.get("factor") is None and max_pos \
            and p.get("original_max_position_embeddings"):
        p["factor"] = max_pos / p["original_max_position_embeddings"]


def _layer(params, rope_dim, max_pos, ignored):
    """The LayerRope of one layer type's rope dict (completed and checked)."""
    full = _complete(params, rope_dim, max_pos, ignored)
    return LayerRope(full, rope_dim, rotary_width(rope_dim, full))


def _layer_rope(model_type, kinds, nested, rope, no_rope):
    """Per layer: its key of `rope` (its kind when the parameters are per kind, else "default"), or "nope"."""
    layer_rope = []
    for i, kind in enumerate(kinds):
        key = kind if nested else "default"
        layer_rope.append("nope" if key not in rope or _nope_layer(model_type, kind, i, no_rope) else key)
    return layer_rope


def _main(rope):
    """The LayerRope of the global layers (else the only one, else the first)."""
    return rope.get("full_attention", rope.get("default", next(iter(rope.values()))))


def _lengths(main, max_pos):
    """(trained length, maximum length) from the main layer type's parameters."""
    orig = main.get("original_max_position_embeddings") if main["rope_type"] in ("yarn", "llama3", "longrope") \
        else None
    trained = orig or max_pos
    longest = max_pos
    if orig and main["rope_type"] == "yarn":   # YaRN's factor is the extension: Qwen2.5 x4 reaches 131072
        longest = max(max_pos or 0, int(round(orig * main["factor"])))
    return trained, longest


# ---------------------------------------------------------------- transformers' reading
# transformers resolves its modules lazily, and that is not thread-safe: sessions arriving together on a
# fresh server saw "module 'transformers' has no attribute 'CONFIG_MAPPING'". Every use goes through
# this lock (reading a config is cached by the views, so it is rarely contended).
HF_LOCK = threading.RLock()


def _transformers():
    """transformers, imported on first use (heavy; only this module reads configs with it)."""
    with HF_LOCK:
        import transformers  # noqa: PLC0415  the one allowed lazy import of a heavy third-party package

        transformers.logging.set_verbosity_error()
        transformers.CONFIG_MAPPING, transformers.AutoConfig  # noqa: B018  resolved once, under the lock
        return transformers


def transformers_version() -> str:
    return _transformers().__version__


def known_model_type(model_type: object) -> bool:
    with HF_LOCK:
        return isinstance(model_type, str) and model_type in _transformers().CONFIG_MAPPING


def _hf_text_config(cfg):
    model_type = cfg["model_type"]
    kwargs = {k: v for k, v in copy.deepcopy(cfg).items() if k != "model_type"}
    try:
        with HF_LOCK:
            conf = _transformers().AutoConfig.for_model(model_type, **kwargs)
            return conf.get_text_config(decoder=True)
    except PosvizError:
        raise
    except Exception as e:    # transformers' own validation (a strict dataclass, a KeyError, ...)
        raise PosvizError("config_rejected", model_type=model_type, reason=str(e).splitlines()[0][:300]) from None


def _raw_text_part(cfg):
    tc = cfg.get("text_config")
    return tc if isinstance(tc, dict) else cfg


def _nope_layer(model_type, kind, i, no_rope):
    """True where a layer applies no RoPE, per model type."""
    if kind in NO_ATTENTION_KINDS:
        return True
    if no_rope is not None and i < len(no_rope) and not no_rope[i]:   # Llama 4, SmolLM3: 1 = RoPE
        return True
    return model_type == "cohere2" and kind == "full_attention"       # Command R7B: global layers NoPE


def _read_hf(cfg):
    tc = _hf_text_config(cfg)
    model_type = cfg["model_type"]
    notes, ignored = [("transformers", transformers_version())], set()
    raw = _raw_text_part(cfg)
    notes += _source_notes(cfg, raw)
    max_pos = getattr(tc, "max_position_embeddings", None)
    n_layers = getattr(tc, "num_hidden_layers", None) or 1
    rope_dim, attn_dim = _hf_head_dims(tc, notes)
    rp, rope_dim = _hf_rope_parameters(tc, model_type, rope_dim, attn_dim, notes)
    nested = tc.nested_rope_parameter_keys(rp) if hasattr(tc, "nested_rope_parameter_keys") else []
    kinds = list(getattr(tc, "layer_types", None) or ["full_attention"] * n_layers)[:n_layers]
    per_type = {k: rp[k] for k in nested} if nested else {"default": rp}
    rope = {key: _layer(params, rope_dim, max_pos, ignored) for key, params in per_type.items() if params is not None}
    if not rope:
        raise RopeNotSupported("a config whose layers all have no RoPE")
    layer_rope = _layer_rope(model_type, kinds, nested, rope, getattr(tc, "no_rope_layers", None))
    softmax = 1.0
    if getattr(tc, "qk_nope_head_dim", None):
        softmax = deepseek_softmax_scale(tc.rope_parameters)
    elif getattr(tc, "query_pre_attn_scalar", None):
        softmax = math.sqrt(attn_dim / tc.query_pre_attn_scalar)
    temperature = None
    if getattr(tc, "attn_temperature_tuning", False) and "nope" in layer_rope:
        temperature = {"floor_scale": float(tc.floor_scale), "attn_scale": float(tc.attn_scale)}
    layout = "interleaved" if model_type in INTERLEAVED or getattr(tc, "rope_interleave", False) else "half"
    theta_given = "rope_theta" in raw or any(isinstance(v, dict) and "rope_theta" in v for v in
                                             (raw.get("rope_parameters"), raw.get("rope_scaling")))
    if not theta_given and "rotary_emb_base" not in raw and model_type != "gptj":
        notes.append(("theta_class_default", ", ".join(f"{k}: {v.rope_parameters['rope_theta']:g}"
                                                       for k, v in rope.items())))
    return _finish(model_type, attn_dim, _main(rope), max_pos, layer_rope, rope, softmax, kinds, layout,
                   temperature, notes, ignored)


def _source_notes(cfg, raw):
    """Notes on where the fields came from: a text_config, legacy keys."""
    notes = [("text_config", "")] if raw is not cfg else []
    for legacy in ("rotary_pct", "rope_pct", "rotary_dim", "rotary_emb_base", "n_embd", "n_head"):
        if legacy in raw:
            notes.append(("legacy", legacy))
    return notes


def _hf_head_dims(tc, notes):
    """(the width RoPE's formula starts from, the q/k width per head) of a transformers config."""
    hidden, heads = getattr(tc, "hidden_size", None), getattr(tc, "num_attention_heads", None)
    if getattr(tc, "qk_nope_head_dim", None) and getattr(tc, "qk_rope_head_dim", None):     # MLA
        notes.append(("head_dim_from", "qk_nope_head_dim + qk_rope_head_dim"))
        return tc.qk_rope_head_dim, tc.qk_nope_head_dim + tc.qk_rope_head_dim
    if not (getattr(tc, "head_dim", None) or (hidden and heads)):
        raise PosvizError("config_missing", name="head_dim", why="hidden_size + num_attention_heads")
    attn_dim = getattr(tc, "head_dim", None) or hidden // heads
    return attn_dim, attn_dim


def _hf_rope_parameters(tc, model_type, rope_dim, attn_dim, notes):
    """(the rope parameters of a transformers config, the width they start from); GPT-J's fixed base."""
    rp = copy.deepcopy(getattr(tc, "rope_parameters", None))
    if model_type == "gptj" or (rp is None and getattr(tc, "rotary_dim", None)):
        # GPT-J: rotary_dim of the head's dims, base fixed at 10000 in the model code
        rope_dim = tc.rotary_dim or attn_dim
        rp = {"rope_type": "default", "rope_theta": 10000.0}
        notes.append(("fixed_base", 10000.0))
    if not rp:
        raise RopeNotSupported(f"model type '{model_type}' without rotary position parameters")
    return rp, rope_dim


def _finish(model_type, attn_dim, main, max_pos, layer_rope, rope, softmax, kinds, layout, temperature,
            notes, ignored):
    trained, longest = _lengths(main.rope_parameters, max_pos)
    if main.rotary_dim < attn_dim:
        notes.append(("partial", f"{main.rotary_dim}/{attn_dim}"))
    if "nope" in layer_rope:
        notes.append(("nope", layer_rope.count("nope")))
    if softmax != 1.0:
        notes.append(("softmax", round(softmax, 4)))
    if ignored:
        notes.append(("ignored", ", ".join(sorted(ignored))))
    return ModelRope(model_type=model_type, head_dim=int(attn_dim), rotary_dim=int(main.rotary_dim),
                     trained_length=trained, layer_rope=layer_rope, rope=rope, softmax_scale=float(softmax),
                     mrope_section=main.rope_parameters.get("mrope_section"), max_length=longest,
                     layer_kinds=kinds, layout=layout, query_temperature=temperature, notes=tuple(notes),
                     ignored=tuple(sorted(ignored)))


# ---------------------------------------------------------------- generic reading
def _generic_rope_dict(cfg):
    for key in ("rope_parameters", "rope_scaling"):
        if key in cfg and cfg[key] is not None:
            if not isinstance(cfg[key], dict):
                raise PosvizError("rope_dict", name=key, got=type(cfg[key]).__name__)
            return dict(cfg[key])
    if "rope_type" in cfg or "type" in cfg or "factor" in cfg:
        return {k: v for k, v in cfg.items() if k in ROPE_PARAMETER_KEYS or k == "type"}
    return {}


def _read_generic(cfg):
    """A model type transformers does not know, or a bare rope dict: the common keys and their
    legacy aliases (n_embd, n_head, n_positions, rotary_pct, rope_pct, rotary_dim, rotary_emb_base)."""
    model_type = cfg.get("model_type")
    notes, ignored = [("generic", str(model_type)[:60] if model_type else "")], set()
    raw = _raw_text_part(cfg)
    if raw is not cfg:
        notes.append(("text_config", ""))
    max_pos = _first(raw, "max_position_embeddings", "n_positions", "seq_length")
    max_pos = _int("max_position_embeddings", max_pos) if max_pos is not None else None
    n_layers = _int("num_hidden_layers", _first(raw, "num_hidden_layers", "n_layer", "num_layers") or 1, 1, MAX_LAYERS)
    rope_dim, attn_dim = _generic_head_dims(raw, notes)
    rp = _generic_rope_dict(raw)
    nested = [k for k, v in rp.items() if isinstance(v, dict)] if rp else []
    if nested and len(nested) != len(rp):
        nested = []
    theta = _first(raw, "rope_theta", "rotary_emb_base", "rope_embedding_base")
    prf = _generic_partial_factor(raw, rope_dim)
    per_type = {k: dict(rp[k]) for k in nested} if nested else {"default": rp}
    if theta is None and any(params.get("rope_theta") is None for params in per_type.values()):
        theta = 10000.0
        notes.append(("theta_default", theta))
    rope = {key: _layer(_generic_params(params, theta, prf, raw), rope_dim, max_pos, ignored)
            for key, params in per_type.items()}
    kinds = raw.get("layer_types") if isinstance(raw.get("layer_types"), list) else None
    kinds = [str(k) for k in kinds] if kinds else ["full_attention"] * n_layers
    no_rope = raw.get("no_rope_layers") if isinstance(raw.get("no_rope_layers"), list) else None
    layer_rope = _layer_rope(model_type, kinds, nested, rope, no_rope)
    main = _main(rope)
    softmax = deepseek_softmax_scale(main.rope_parameters) if raw.get("qk_nope_head_dim") else 1.0
    return _finish(model_type, attn_dim, main, max_pos, layer_rope, rope, softmax, kinds, "half", None,
                   notes, ignored)


def _first(raw, *keys):
    """The value of the first of `keys` that raw sets (not None), else None."""
    return next((raw[k] for k in keys if raw.get(k) is not None), None)


def _generic_head_dims(raw, notes):
    """(the width RoPE's formula starts from, the q/k width per head), from MLA's widths, head_dim, or
    hidden_size / num_attention_heads (and their legacy aliases)."""
    if raw.get("qk_rope_head_dim") is not None and raw.get("qk_nope_head_dim") is not None:
        rope_dim = _int("qk_rope_head_dim", raw["qk_rope_head_dim"], 2, MAX_DIM)
        return rope_dim, _int("qk_nope_head_dim", raw["qk_nope_head_dim"], 1, MAX_DIM) + rope_dim
    if raw.get("head_dim") is not None:
        attn_dim = _int("head_dim", raw["head_dim"], 1, MAX_DIM)
        return attn_dim, attn_dim
    hidden = _first(raw, "hidden_size", "n_embd", "d_model")
    heads = _first(raw, "num_attention_heads", "n_head", "num_heads")
    if hidden is None or heads is None:
        raise PosvizError("config_missing", name="head_dim", why="hidden_size + num_attention_heads")
    attn_dim = _int("hidden_size", hidden, 1, 2 ** 20) // _int("num_attention_heads", heads, 1, 4096)
    notes.append(("head_dim_from", "hidden_size / num_attention_heads"))
    return attn_dim, attn_dim


def _generic_partial_factor(raw, rope_dim):
    """partial_rotary_factor or its legacy aliases, or rotary_dim / rope_dim; None when every dim rotates."""
    prf = _first(raw, "partial_rotary_factor", "rotary_pct", "rope_pct")
    if raw.get("rotary_dim") is not None and prf is None:
        rd = _int("rotary_dim", raw["rotary_dim"], 2, MAX_DIM)
        prf = rd / rope_dim if rd < rope_dim else None
    return prf


def _generic_params(params, theta, prf, raw):
    """One layer type's rope dict with what the config says beside it: the base, the partial rotary
    factor, and (Phi-3 style) original_max_position_embeddings."""
    params = dict(params)
    if params.get("rope_theta") is None:
        params["rope_theta"] = _number("rope_theta", theta)
    if prf is not None and params.get("partial_rotary_factor") is None:
        params["partial_rotary_factor"] = _number("partial_rotary_factor", prf)
    if raw.get("original_max_position_embeddings") is not None and _rope_type(params) in ("yarn", "longrope",
                                                                                          "llama3"):
        params["original_max_position_embeddings"] = raw["original_max_position_embeddings"]  # Phi-3 style
    return params


# ---------------------------------------------------------------- entry point
def read_model_rope(config: str | dict) -> ModelRope:
    """config.json text (or a dict) -> ModelRope, read as transformers reads that model type.

    Also accepted: a bare rope dict ({"rope_type": "yarn", "factor": 4, ..., "head_dim": 128}),
    read generically. Raises PosvizError naming the field for unreadable input (> 64 KB,
    malformed JSON, NaN, wrong types, out-of-range sizes, what the config class rejects) and
    RopeNotSupported for a valid config posviz cannot show yet.
    """
    if not isinstance(config, (str, dict)):
        raise PosvizError("config_text", got=type(config).__name__)
    cfg = load_json(config) if isinstance(config, str) else config
    _check_finite(cfg)
    _check_sizes(cfg)
    model_type = cfg.get("model_type")
    if model_type is not None and not isinstance(model_type, str):
        raise PosvizError("config_field", name="model_type", got=repr(model_type)[:60])
    cfg, renamed = _rename_su(cfg)
    model = _read_hf(cfg) if model_type and known_model_type(model_type) else _read_generic(cfg)
    return dataclasses.replace(model, notes=model.notes + (("su", "longrope"),)) if renamed else model


def _rename_su(cfg):
    """Phi-3's first files call LongRoPE "su"; transformers 5 no longer reads that name: posviz
    renames it first (with a note), as transformers 4 did."""
    raw = _raw_text_part(cfg)
    rp = raw.get("rope_scaling") if isinstance(raw.get("rope_scaling"), dict) else None
    if not rp or "su" not in (rp.get("type"), rp.get("rope_type")):
        return cfg, False
    cfg = copy.deepcopy(cfg)
    rp = _raw_text_part(cfg)["rope_scaling"]
    rp.pop("type", None)
    rp["rope_type"] = "longrope"
    return cfg, True


def main_layer_type(model: ModelRope) -> str:
    """The key of `model.rope` the page draws first: the global layers, else the only type."""
    for key in ("full_attention", "default"):
        if key in model.rope:
            return key
    return next(iter(model.rope))
