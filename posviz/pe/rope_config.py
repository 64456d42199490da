"""Read the RoPE settings out of a pasted JSON text (a config.json, or just its rope part).

Accepted shapes (json.loads only -- no eval, nothing is executed or rendered):
  * a whole Hugging Face config.json: rope_theta, head_dim (or qk_rope_head_dim, or
    hidden_size / num_attention_heads), partial_rotary_factor, max_position_embeddings and
    rope_scaling (transformers 4.x) or rope_parameters (transformers 5.x);
    a multimodal config's "text_config" is used when the top level has none of these;
  * a bare rope dict: {"rope_type": "yarn", "factor": 4, ..., "rope_theta": 1e6, "head_dim": 128}.

The rules follow transformers' standardisation: "type" is an old name of "rope_type"; a missing
rope_theta is 10000 (default_theta); yarn / llama3 take original_max_position_embeddings from
max_position_embeddings when it is missing; dynamic NTK compares with max_position_embeddings;
YaRN without factor uses max_position_embeddings / original_max_position_embeddings.
The result goes through posviz.pe.scaling.check_rope_parameters, so every error names its field.
"""
import json
import math

from posviz.pe.scaling import KEYS, ROPE_TYPES, check_rope_parameters

MAX_BYTES = 65536
MAX_DEPTH = 20
NUMBER_KEYS = ("rope_theta", "factor", "original_max_position_embeddings", "beta_fast", "beta_slow",
               "mscale", "mscale_all_dim", "attention_factor", "low_freq_factor", "high_freq_factor")
SHAPE_KEYS = ("head_dim", "qk_rope_head_dim", "hidden_size", "num_attention_heads",
              "partial_rotary_factor", "max_position_embeddings")


def _reject_constant(name):
    raise ValueError(f"config must not contain {name} (only finite numbers)")


def _check_finite(value, path="config", depth=0):
    """Every number in the JSON must be finite (1e999 parses as inf); nesting is capped."""
    if depth > MAX_DEPTH:
        raise ValueError(f"config is nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{path} must be a finite number, got {value}")
    if isinstance(value, dict):
        for k, v in value.items():
            _check_finite(v, f"{path}.{k}", depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_finite(v, f"{path}[{i}]", depth + 1)


def load_json(text):
    """json.loads with the size cap (64 KB), no NaN / Infinity, a JSON object at the top."""
    if not isinstance(text, str):
        raise ValueError(f"config must be text, got {type(text).__name__}")
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise ValueError(f"config is {size} bytes; at most {MAX_BYTES} bytes (64 KB) are read")
    if not text.strip():
        raise ValueError("config is empty: paste a config.json or its rope_scaling part")
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise ValueError(f"config is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise ValueError(f"config is nested deeper than {MAX_DEPTH} levels") from None
    if not isinstance(data, dict):
        raise ValueError(f"config must be a JSON object {{...}}, got a JSON {type(data).__name__}")
    _check_finite(data)
    return data


def _number(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    return value


def _int(name, value):
    _number(name, value)
    if isinstance(value, float) and value != int(value):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    return int(value)


def _rope_dict(cfg, notes):
    """The rope part of a config (rope_parameters, rope_scaling or the object itself)."""
    for key in ("rope_parameters", "rope_scaling"):
        if key in cfg:
            rp = cfg[key]
            if rp is None:
                return {}
            if not isinstance(rp, dict):
                raise ValueError(f"{key} must be an object or null, got {rp!r}")
            nested = [k for k, v in rp.items() if isinstance(v, dict)]
            if nested and len(nested) == len(rp):       # per layer type (transformers 5)
                pick = "full_attention" if "full_attention" in rp else nested[0]
                notes.append(("nested", pick))
                return rp[pick]
            return rp
    if "rope_type" in cfg or "type" in cfg or "factor" in cfg:
        return cfg
    return {}


def read_config(cfg):
    """A config dict -> {"head_dim", "rope_parameters", "ignored": [keys], "notes": [(code, value)]}.

    notes are (code, value) pairs the page turns into sentences: theta_default, head_dim_from,
    partial, original_from_max, factor_from_max, type_alias, nested.
    """
    if not isinstance(cfg, dict):
        raise ValueError(f"config must be a JSON object, got {type(cfg).__name__}")
    notes = []
    has_rope = any(k in cfg for k in ("rope_parameters", "rope_scaling", "rope_theta", "rope_type", "type"))
    if not has_rope and isinstance(cfg.get("text_config"), dict):
        cfg = cfg["text_config"]
        notes.append(("text_config", ""))
    rp = _rope_dict(cfg, notes)

    rope_type = rp.get("rope_type", rp.get("type", "default"))
    if "rope_type" not in rp and "type" in rp:
        notes.append(("type_alias", rope_type))
    if not isinstance(rope_type, str) or rope_type not in ROPE_TYPES:
        raise ValueError(f"rope_type must be one of {list(ROPE_TYPES)}, got {rope_type!r}")

    # head_dim: MLA models rotate only qk_rope_head_dim dimensions
    if cfg.get("qk_rope_head_dim") is not None:
        head_dim = _int("qk_rope_head_dim", cfg["qk_rope_head_dim"])
        notes.append(("head_dim_from", "qk_rope_head_dim"))
    elif cfg.get("head_dim") is not None:
        head_dim = _int("head_dim", cfg["head_dim"])
    elif cfg.get("hidden_size") is not None and cfg.get("num_attention_heads") is not None:
        hidden = _int("hidden_size", cfg["hidden_size"])
        heads = _int("num_attention_heads", cfg["num_attention_heads"])
        if heads < 1:
            raise ValueError(f"num_attention_heads must be >= 1, got {heads}")
        head_dim = hidden // heads
        notes.append(("head_dim_from", "hidden_size / num_attention_heads"))
    else:
        raise ValueError("head_dim is missing: give head_dim, or hidden_size and num_attention_heads")
    prf = rp.get("partial_rotary_factor", cfg.get("partial_rotary_factor"))
    if prf is not None:
        prf = _number("partial_rotary_factor", prf)
        if not 0 < prf <= 1:
            raise ValueError(f"partial_rotary_factor must be in (0, 1], got {prf}")
        if prf != 1:
            head_dim = int(head_dim * prf)
            notes.append(("partial", prf))

    theta = rp.get("rope_theta", cfg.get("rope_theta"))
    if theta is None:
        theta = 10000.0
        notes.append(("theta_default", 10000.0))
    params = {"rope_type": rope_type, "rope_theta": _number("rope_theta", theta)}
    ignored = []
    for k, v in rp.items():
        if k in ("rope_type", "type", "rope_theta") or k in SHAPE_KEYS:
            continue
        if k not in KEYS:
            ignored.append(k)
            continue
        if v is None:
            continue
        if k == "truncate":
            if not isinstance(v, bool):
                raise ValueError(f"truncate must be true or false, got {v!r}")
            params[k] = v
        elif k == "original_max_position_embeddings":
            params[k] = _int(k, v)
        else:
            params[k] = _number(k, v)

    max_pos = cfg.get("max_position_embeddings")
    if max_pos is not None:
        max_pos = _int("max_position_embeddings", max_pos)
    if rope_type == "dynamic" and max_pos is not None:
        params["original_max_position_embeddings"] = max_pos   # HF's dynamic NTK reads this one
        notes.append(("original_from_max", max_pos))
    elif rope_type in ("yarn", "llama3"):
        top = cfg.get("original_max_position_embeddings")
        if top is not None and rp is not cfg:                   # Phi-3 style: top level wins
            params["original_max_position_embeddings"] = _int("original_max_position_embeddings", top)
        elif "original_max_position_embeddings" not in params and max_pos is not None:
            params["original_max_position_embeddings"] = max_pos
            notes.append(("original_from_max", max_pos))
        if rope_type == "yarn" and "factor" not in params and max_pos is not None \
                and "original_max_position_embeddings" in params:
            params["factor"] = max_pos / params["original_max_position_embeddings"]
            notes.append(("factor_from_max", params["factor"]))
    head_dim, params = check_rope_parameters(head_dim, params)
    # keep only what the user gave (plus filled-in requirements), without None defaults
    params = {k: v for k, v in params.items() if v is not None}
    return {"head_dim": head_dim, "rope_parameters": params, "ignored": sorted(set(ignored)),
            "notes": notes, "max_position_embeddings": max_pos}


def read_rope_config(text):
    """Pasted JSON text -> the report of read_config (head_dim, rope_parameters, ignored, notes)."""
    return read_config(load_json(text))


def parse_rope_config(text):
    """Pasted JSON text -> (head_dim, rope_parameters) ready for scaling.rope_frequencies.

    Raises ValueError for > 64 KB, malformed JSON, non-object JSON, NaN / Infinity, unknown
    rope_type, wrong types (a string where a number belongs, truncate not a bool), and every
    range error of check_rope_parameters (factor < 1, rope_theta <= 1, odd head_dim, ...).
    """
    r = read_rope_config(text)
    return r["head_dim"], r["rope_parameters"]
