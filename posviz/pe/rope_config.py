r"""Read what a model does with positions: `read_model_rope(config) -> ModelRope`.

Three sources, each for what it knows:
  * the model type's own config class (transformers' AutoConfig, then its text config) reads the file: its
    defaults, legacy keys (rotary_pct, rope_pct, rotary_emb_base, n_embd / n_head, rope_scaling), rope parameters
    nested by layer type or by RoPE kind, layer_types, per-layer widths;
  * posviz's formulas (posviz.pe.scaling, posviz.pe.rope) turn each rope dict into frequencies, an attention
    factor, a query scaling and M-RoPE position rows: every number a page shows;
  * the model transformers builds from that config (posviz.pe.model_probe: meta device, no weights) is what those
    numbers are held to, layer by layer: whether a layer rotates q and k, at which frequencies (at the trained
    length and beyond it), paired how, along which position rows, with which softmax scale, query scaling and
    window, whether its values turn too.
Nothing here names a model type. Where the config leaves a choice to the model's code (HunYuan's `alpha` on a
"dynamic" dict, a base the code fixes), each formula posviz has for it is tried and the model's layers pick.
A layer no formula reproduces is "unknown" in `layer_rope` and named in `unverified`: the page says so in words
and never draws it as plain RoPE. A model type transformers does not know gets a generic reading of the common
keys, unverified. Only json.loads touches the text; unreadable input raises PosvizError naming the field; a
valid config with a rope type posviz has no formula for raises RopeNotSupported.
"""
from __future__ import annotations

import collections
import copy
import dataclasses
import json
import math

import numpy as np
import torch

from posviz.pe import model_probe
from posviz.pe.model_probe import HF_LOCK
from posviz.pe.rope import MROPE_SCHEMES, mrope_axes
from posviz.pe.scaling import (
    QUERY_SCALINGS,
    ROPE_PARAMETER_KEYS,
    ROPE_TYPES,
    check_rope_parameters,
    deepseek_softmax_scale,
    proportional_pairs,
    query_scale,
    rope_frequencies,
    rotary_width,
)
from posviz.validate import MAX_DIM, MAX_POSITION, PosvizError, check_int, shown

MAX_BYTES = 65536
MAX_DEPTH = 20
MAX_LAYERS = 512
# Layer kinds that attend to a compressed cache beyond their window (DeepSeek-V4's CSA and HCA layers): a name
# the layer strip draws apart; what these layers do with positions is measured like any other.
COMPRESSED_KINDS = {"compressed_sparse_attention", "heavily_compressed_attention"}
# Keys that carry sizes: capped before any config class sees them (a layer list of 10**9 ...).
_SIZE_CAPS = {"num_hidden_layers": MAX_LAYERS, "n_layer": MAX_LAYERS, "num_layers": MAX_LAYERS,
              "num_attention_heads": 4096, "n_head": 4096, "hidden_size": 2 ** 20, "n_embd": 2 ** 20,
              "head_dim": MAX_DIM, "qk_rope_head_dim": MAX_DIM, "qk_nope_head_dim": MAX_DIM,
              "rotary_dim": MAX_DIM, "max_position_embeddings": 10 ** 8, "n_positions": 10 ** 8,
              "original_max_position_embeddings": 10 ** 8, "num_key_value_heads": 4096, "global_head_dim": MAX_DIM,
              "num_experts": 65536, "n_routed_experts": 65536, "num_local_experts": 65536, "moe_num_experts": 65536,
              "vocab_size": 2 ** 24}
_MAY_BE_ZERO = {"num_experts", "n_routed_experts", "num_local_experts", "moe_num_experts",   # 0: a dense MLP
                "qk_rope_head_dim"}                                                          # 0: MLA without RoPE
# Measured frequencies equal a formula's within this (relative, plus an angle of THETA_ANGLE rad at the largest
# probed position): float32 noise is ~1e-7, a different formula differs by far more.
THETA_REL, THETA_ANGLE = 1e-4, 1e-3
GAIN_REL = 1e-4


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
    partial_rotary_factor); rotary_dim: the dims the rotation covers; attn_dim: the q/k width per head
    of these layers; softmax_scale: the factor on 1/sqrt(attn_dim) their attention uses."""

    rope_parameters: dict
    head_dim: int
    rotary_dim: int
    attn_dim: int | None = None
    softmax_scale: float = 1.0

    def frequencies(self, seq_len: int | None = None) -> tuple[torch.Tensor, float]:
        """(inv_freq Tensor[rotary_dim//2], attention_factor) via posviz.pe.scaling."""
        return rope_frequencies(self.head_dim, self.rope_parameters, seq_len=seq_len)

    @property
    def rotated_pairs(self) -> int:
        """The pairs that really turn (proportional RoPE pads the others with frequency 0)."""
        p = self.rope_parameters
        if p["rope_type"] == "proportional":
            return proportional_pairs(self.head_dim, p.get("partial_rotary_factor", 1.0))
        return self.rotary_dim // 2


@dataclasses.dataclass(frozen=True)
class ModelRope:
    """Everything a config says about positions (the contract of DESIGN.md), held to the model's code, plus what
    the page shows besides: max_length, layer_kinds, layout, query scaling, notes, ignored keys, the M-RoPE rows,
    each layer's attention window, where the rotated dims sit, why a model has no RoPE, what posviz could not
    follow (unverified)."""

    model_type: str | None
    head_dim: int
    rotary_dim: int
    trained_length: int | None
    layer_rope: list[str]                    # per layer: a key of `rope`, "nope", or "unknown"
    rope: dict[str, LayerRope]
    softmax_scale: float = 1.0
    mrope_section: list[int] | None = None
    max_length: int | None = None
    layer_kinds: list[str] = dataclasses.field(default_factory=list)   # attention kind per layer (the config's)
    layout: str = "half"                               # pairing: "half" (i, i + r/2) or "interleaved" (2i, 2i+1)
    query_scaling: dict | None = None                  # {"kind": temperature | beta, "params", "layers"}
    notes: tuple[tuple[str, object], ...] = ()         # (code, value) pairs the page turns into sentences
    ignored: tuple[str, ...] = ()
    mrope_interleaved: bool = False                    # Qwen3-VL / Qwen3.5: pairs alternate t, h, w
    mrope_axes: tuple[int, ...] | None = None          # per pair: 0 time, 1 height, 2 width (one row per pair)
    windows: list[int | None] = dataclasses.field(default_factory=list)   # per layer: attention window or None
    placement: str = "leading"                         # where partial rotary's dims sit: "leading" / "trailing"
    no_rope: str | None = None                         # how a model without RoPE gets positions
    mrope_scheme: str | None = None                    # posviz.pe.rope.MROPE_SCHEMES, as the model's layers do
    mrope_rows: tuple[tuple[int, int], ...] | None = None   # per pair: the rows of its two dims (XD-RoPE: differ)
    layer_attention: list[bool] = dataclasses.field(default_factory=list)   # per layer: softmax attention or not
    unverified: tuple[tuple[str, object], ...] = ()    # what the model's code does that posviz cannot follow

    @property
    def verified(self) -> bool:
        """Every layer's positions held to the model transformers builds, and equal."""
        return not self.unverified

    @property
    def query_temperature(self) -> dict | None:
        """Llama 4's query temperature parameters on its NoPE layers ({"floor_scale", "attn_scale"}), else None."""
        q = self.query_scaling
        return dict(q["params"]) if q and q["kind"] == "temperature" else None


# ---------------------------------------------------------------- JSON
def _check_depth(value, depth=0):
    if depth > MAX_DEPTH:
        raise PosvizError("config_depth", n=MAX_DEPTH)
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for v in items:
        _check_depth(v, depth + 1)


def load_json(text: str) -> dict:
    """json.loads with the size cap (64 KB), nesting capped, a JSON object at the top. NaN and Infinity are read
    (Falcon-H1 writes Infinity in fields about its state-space layers): a field posviz reads must be finite, and
    says so by name."""
    if not isinstance(text, str):
        raise PosvizError("config_text", got=type(text).__name__)
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise PosvizError("config_size", size=f"{size:,}", n=f"{MAX_BYTES:,}")
    if not text.strip():
        raise PosvizError("config_empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PosvizError("config_json", line=e.lineno, col=e.colno, msg=e.msg) from None
    except RecursionError:
        raise PosvizError("config_depth", n=MAX_DEPTH) from None
    except ValueError:   # an integer of more than 4300 digits (Python's int parsing limit)
        raise PosvizError("config_huge") from None
    if not isinstance(data, dict):
        raise PosvizError("config_type", got=f"JSON {type(data).__name__}")
    _check_depth(data)
    return data


def short(value) -> str:
    """A value for a message: numbers in a short form (1e308, not 309 digits), anything else cut at 60 chars."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int) and abs(value) >= 10 ** 12:
        return str(shown(value))
    if isinstance(value, float):
        return f"{value:.6g}"
    return repr(value)[:60]


def _number(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PosvizError("number", name=name, got=short(value))
    if isinstance(value, float) and not math.isfinite(value):
        raise PosvizError("config_finite", path=name)
    return value


def _int(name, value, lo=1, hi=MAX_POSITION):
    _number(name, value)
    if isinstance(value, float) and value != int(value):
        raise PosvizError("integer", name=name, got=short(value))
    if not lo <= value <= hi:
        raise PosvizError("range", name=name, lo=lo, hi=f"{hi:,}", got=short(value))
    return check_int(name, int(value), lo, hi)


NO_LIMIT = -1   # max_position_embeddings of a model without a length limit (XLNet's class default)


def _check_sizes(cfg, where=""):
    """The size fields of a config (and of its text_config) are numbers in range."""
    for key, hi in _SIZE_CAPS.items():
        if cfg.get(key) is not None and not (key == "max_position_embeddings" and cfg[key] == NO_LIMIT):
            _int(where + key, cfg[key], 0 if key in _MAY_BE_ZERO else 1, hi)
    for nest in ("text_config", "thinker_config"):
        if isinstance(cfg.get(nest), dict) and where.count(".") < 2:
            _check_sizes(cfg[nest], f"{where}{nest}.")
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
        raise PosvizError("config_field", name="rope_type", got=short(rt))
    if rt not in ROPE_TYPES:
        raise RopeNotSupported(f"rope_type '{rt[:40]}'")
    return rt


# Keys of a rope dict that are not frequency parameters but that posviz reads elsewhere (the M-RoPE layout, the
# query scaling).
_READ_ELSEWHERE = ("mrope_interleaved", "llama_4_scaling_beta")


def _complete(params, head_dim, max_pos, ignored, rope_type=None):
    """A (standardised) HF rope dict -> posviz's complete dict for pe.scaling, as rope_type (default: its own).

    Adds what transformers takes from the config object: dynamic's reference length
    (max_position_embeddings) and YaRN / LongRoPE's missing factor (max / original)."""
    if not isinstance(params, dict):
        raise PosvizError("rope_dict", name="rope_parameters", got=type(params).__name__)
    rt = rope_type or _rope_type(params)
    p = {}
    for k, v in params.items():
        if k in ("type", "rope_type") or v is None or k in _READ_ELSEWHERE:
            continue
        if k not in ROPE_PARAMETER_KEYS or (k == "alpha" and rt != "ntk_alpha"):
            ignored.add(k)
            continue
        p[k] = v
    p["rope_type"] = rt
    _check_numbers(p)
    _fill_lengths(p, rt, max_pos)
    _, full = check_rope_parameters(head_dim, p)
    return {k: v for k, v in full.items() if v is not None}


def _check_numbers(p):
    """The numeric fields of a rope dict are finite numbers (original_max_position_embeddings an integer)."""
    if "original_max_position_embeddings" in p:
        p["original_max_position_embeddings"] = _int("original_max_position_embeddings",
                                                     p["original_max_position_embeddings"])
    for k in ("rope_theta", "factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "alpha",
              "attention_factor", "low_freq_factor", "high_freq_factor", "partial_rotary_factor"):
        if k in p:
            _number(f"rope_parameters.{k}", p[k])


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


def _layer(params, rope_dim, max_pos, ignored, rope_type=None):
    """The LayerRope of one layer type's rope dict (completed and checked)."""
    full = _complete(params, rope_dim, max_pos, ignored, rope_type)
    return LayerRope(full, rope_dim, rotary_width(rope_dim, full))


def _readings(params, rope_dim, max_pos):
    """Every reading posviz has of one rope dict, each with the keys it leaves unused: as its rope_type says, and,
    where the dict leaves the choice to the model's code, the other (a "dynamic" dict with an `alpha`: dynamic
    NTK, or a fixed NTK-alpha base). -> [(LayerRope, ignored keys)]"""
    ignored = set()
    out = [(_layer(params, rope_dim, max_pos, ignored), ignored)]
    if out[0][0].rope_parameters["rope_type"] == "dynamic" and params.get("alpha") is not None:
        _number("rope_parameters.alpha", params["alpha"])
        ignored = set()
        out.append((_layer(params, rope_dim, max_pos, ignored, rope_type="ntk_alpha"), ignored))
    return out


def _lengths(main, max_pos):
    """(trained length, maximum length) from the main layer type's parameters."""
    orig = main.get("original_max_position_embeddings") if main["rope_type"] in ("yarn", "llama3", "longrope") \
        else None
    trained = orig or max_pos
    longest = max_pos
    if orig and main["rope_type"] == "yarn":   # YaRN's factor is the extension: Qwen2.5 x4 reaches 131072
        longest = max(max_pos or 0, int(round(orig * main["factor"])))
    return trained, longest


# ---------------------------------------------------------------- transformers
def _transformers():
    return model_probe.transformers_module()


def transformers_version() -> str:
    return _transformers().__version__


def known_model_type(model_type: object) -> bool:
    with HF_LOCK:
        return isinstance(model_type, str) and model_type in _transformers().CONFIG_MAPPING


def text_config(cfg):
    """The text (decoder) config object transformers' config class makes of a config dict with a model_type."""
    return _hf_text_config(cfg)


def _hf_text_config(cfg):
    model_type = cfg["model_type"]
    kwargs = {k: v for k, v in copy.deepcopy(cfg).items() if k != "model_type"}
    try:
        with HF_LOCK:
            conf = _transformers().AutoConfig.for_model(model_type, **kwargs)
            tc = conf.get_text_config(decoder=True)
    except PosvizError:
        raise
    except Exception as e:    # transformers' own validation (a strict dataclass, a KeyError, ...)
        raise PosvizError("config_rejected", model_type=model_type, reason=_reason(e)) from None
    if not isinstance(getattr(tc, "model_type", None), str):   # a text_config a config class keeps as a plain dict
        raise PosvizError("config_foreign_text", model_type=model_type)
    return tc


def _reason(e):
    """An exception as one short line: its type and the first line of its message."""
    msg = str(e).splitlines()[0][:300] if str(e).strip() else ""
    return f"{type(e).__name__}: {msg}" if msg else type(e).__name__


def _raw_text_part(cfg):
    """The part of a raw config that holds the text model's fields (text_config, a thinker's text_config, or the
    config itself)."""
    for path in (("thinker_config", "text_config"), ("text_config",)):
        part = cfg
        for key in path:
            part = part.get(key) if isinstance(part, dict) else None
        if isinstance(part, dict):
            return part
    return cfg


def _layer_config(tc, i):
    """The config of layer i: transformers' per-layer view of a heterogeneous config (Gemma 4's global
    layers are 512 wide, its local ones 256), else the config itself."""
    if getattr(tc, "is_heterogeneous", False):
        return tc.per_layer_config[i]
    return tc


def _hf_head_dims(tc, notes):
    """(the width RoPE's formula starts from, the q/k width per head) of a transformers (layer) config, as
    transformers' rope functions read it: config.head_dim, else hidden_size / num_attention_heads (MLA classes
    set head_dim to their rotated width)."""
    hidden, heads = getattr(tc, "hidden_size", None), getattr(tc, "num_attention_heads", None)
    if getattr(tc, "qk_nope_head_dim", None) and getattr(tc, "qk_rope_head_dim", None):     # MLA
        if ("head_dim_from", "qk_nope_head_dim + qk_rope_head_dim") not in notes:
            notes.append(("head_dim_from", "qk_nope_head_dim + qk_rope_head_dim"))
        return getattr(tc, "head_dim", None) or tc.qk_rope_head_dim, tc.qk_nope_head_dim + tc.qk_rope_head_dim
    head_dim = getattr(tc, "head_dim", None)
    if not (head_dim or (hidden and heads)):
        raise PosvizError("config_missing", name="head_dim", why="hidden_size + num_attention_heads")
    if not head_dim:
        _int("hidden_size", hidden, 1, 2 ** 20)
        _int("num_attention_heads", heads, 1, 4096)
    attn_dim = head_dim or hidden // heads
    _int("head_dim", attn_dim, 1, MAX_DIM)
    return attn_dim, attn_dim


def _rope_dicts(tc):
    """{key: rope dict} of a transformers config: per layer type or RoPE kind when nested, else {"default": d};
    {} when the config has none."""
    rp = copy.deepcopy(getattr(tc, "rope_parameters", None))
    if not rp:
        return {}
    if not isinstance(rp, dict):
        raise PosvizError("rope_dict", name="rope_parameters", got=type(rp).__name__)
    nested = [k for k, v in rp.items() if isinstance(v, dict)]
    if nested:
        return {k: rp[k] for k in nested}
    return {"default": rp}


# ---------------------------------------------------------------- the model's layers against the formulas
@dataclasses.dataclass(frozen=True)
class _Pairing:
    """A measured pairing on one contiguous block: layout, first dim, the indices of the turning pairs."""

    layout: str
    start: int
    step: int            # rotate_half: the partner offset r/2; interleaved: 1
    pairs: tuple[int, ...]


def _pairing(turn) -> _Pairing | None:
    """The pairing of a measured query: rotate_half's (i, i + r/2) or interleaved (2i, 2i+1) on one block."""
    return _pairing_of(turn.pairs)


def _pairing_of(pairs) -> _Pairing | None:
    gaps = {j - i for i, j in pairs}
    if len(gaps) != 1:
        return None
    gap, start = gaps.pop(), pairs[0][0]
    if gap == 1:
        index = [(i - start) / 2 for i, _ in pairs]
        if any(k != int(k) for k in index):
            return None
        return _Pairing("interleaved", start, 1, tuple(int(k) for k in index))
    return _Pairing("half", start, gap, tuple(i - start for i, _ in pairs))


def _expected(lr, seq_len=None):
    inv, att = lr.frequencies(seq_len)                                               # [r/2]
    return inv.double().numpy(), att


def _theta_matches(measured, predicted, p_max):
    """Measured θ (nan: a pair did not turn) against a formula's, at probed positions up to p_max."""
    m = np.asarray(measured, dtype=np.float64)
    tol = THETA_REL * predicted + THETA_ANGLE / max(p_max, 1)
    still = ~np.isfinite(m)
    if np.any(still & (predicted * p_max > THETA_ANGLE * 100)):     # a pair that should have turned visibly
        return False
    return bool(np.all(np.abs(m[~still] - predicted[~still]) <= tol[~still]))


def _matches(turn, pairing, lr, probe):
    """Whether a layer's measured rotation is this LayerRope's: the same rotated width, the same pairs turning,
    the same θ at the trained length and beyond it (dynamic NTK, LongRoPE)."""
    if pairing is None:
        return False
    r = lr.rotary_dim
    if pairing.layout == "half" and 2 * pairing.step != r:
        return False
    if pairing.start + r > turn.width:
        return False
    inv, _ = _expected(lr)                                                            # [r/2]
    turning = tuple(int(k) for k in np.nonzero(inv > 0)[0])
    shown = tuple(k for k in turning if inv[k] * max(probe.positions) > STILL_ANGLE)
    if not set(shown) <= set(pairing.pairs) <= set(turning):
        return False
    idx = np.asarray(pairing.pairs)
    if not _theta_matches(turn.theta, inv[idx], max(probe.positions)):
        return False
    if probe.positions_long and max(probe.positions_long) > max(probe.positions):
        inv_long, _ = _expected(lr, max(probe.positions_long) + 1)                     # [r/2]
        return _theta_matches(turn.theta_long, inv_long[idx], max(probe.positions_long))
    return True


STILL_ANGLE = 1e-3    # a pair turning less than this over the probed positions may be measured as still


def _mismatch(turn, pairing, candidates, probe):
    """One sentence's worth of how a layer differs from posviz's formulas (for `unverified`)."""
    if pairing is None:
        return f"pairs {', '.join(f'({i}, {j})' for i, j in turn.pairs[:3])}, …"
    lr = candidates[0]
    inv, _ = _expected(lr)
    k = len(turn.theta) - 1
    if k < 0:
        return "no pair turns"
    idx = pairing.pairs[k]
    want = inv[idx] if idx < inv.size else float("nan")
    return f"pair {idx} turns by {turn.theta[k]:.4g} per position; the formula gives {want:.4g}"


def _base_from(turn, pairing):
    """The base b of θ_k = b^(-2k/r) a measured rotation follows, when its config names none (GPT-J's code fixes
    it): from the slowest measured pair."""
    thetas = [(k, t) for k, t in zip(pairing.pairs, turn.theta) if math.isfinite(t) and t > 0 and k > 0]
    if not thetas:
        return None
    k, t = thetas[-1]
    width = 2 * pairing.step if pairing.layout == "half" else 2 * (max(pairing.pairs) + 1)
    return float(f"{t ** (-width / (2 * k)):.6g}")


def _gains(turn):
    return [(p, g) for p, g in (*turn.gain, *turn.gain_long)]


def _query_scaling(turn, sources):
    """Which of posviz's query scalings a measured query follows -> (kind, params), None (no scaling), or
    "unknown"."""
    gains = _gains(turn)
    if all(abs(g - 1) <= GAIN_REL for _, g in gains):
        return None
    p = np.array([x for x, _ in gains], dtype=np.float64)
    g = np.array([y for _, y in gains], dtype=np.float64)
    power = _power_law(p, g)
    for kind, params in sources + ([("power", power)] if power else []):
        try:
            want = query_scale(p, kind, params) / query_scale([0], kind, params)   # as measured: against position 0
        except PosvizError:
            continue
        if np.all(np.abs(want - g) <= GAIN_REL * np.abs(want)):
            return kind, params
    return "unknown"


def _power_law(p, g):
    """The constants of a power-law query scaling τ(p) = (1 + (p+1)/L)^a that measured gains follow (a gain is
    τ(p)/τ(0): the probe compares each position with position 0), from the first clearly scaled and the last position
    (L by bisection on the ratio of their logs, to 6 significant digits), else None. The caller checks every gain
    against it."""
    keep = (g > 1 + GAIN_REL) & (p > 0)
    if keep.sum() < 2:
        return None
    pts = sorted(zip(p[keep], g[keep]))
    clear = [pt for pt in pts if pt[1] > 1.01] or pts      # a gain well above 1: its log is measured to ~1e-5
    (p1, g1), (p2, g2) = clear[0], pts[-1]
    if p1 == p2:
        return None

    def f(x, length):
        return math.log1p((x + 1) / length) - math.log1p(1 / length)

    want = math.log(g1) / math.log(g2)
    lo, hi = 1e-3, 1e9
    for _ in range(200):                  # f(p1)/f(p2) falls from ~1 towards p1/p2 as L grows: bisect on log L
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if f(p1, mid) / f(p2, mid) < want else (mid, hi)
    length = float(f"{math.sqrt(lo * hi):.6g}")
    return {"length": length, "exponent": float(f"{math.log(g2) / f(p2, length):.6g}")}


def _scaling_sources(tc, dicts):
    """The parameters of posviz's query scalings a config sets: Llama 4's temperature (floor_scale, attn_scale)
    and the beta scaling (llama_4_scaling_beta with its original length)."""
    out = []
    if getattr(tc, "floor_scale", None) is not None and getattr(tc, "attn_scale", None) is not None:
        out.append(("temperature", {"floor_scale": _number("floor_scale", tc.floor_scale),
                                    "attn_scale": _number("attn_scale", tc.attn_scale)}))
    for d in dicts.values():
        if isinstance(d, dict) and d.get("llama_4_scaling_beta") is not None:
            length = d.get("original_max_position_embeddings") or getattr(tc, "original_max_position_embeddings",
                                                                          None)
            if length is not None:
                out.append(("beta", {"llama_4_scaling_beta": _number("llama_4_scaling_beta",
                                                                      d["llama_4_scaling_beta"]),
                                     "original_max_position_embeddings": _int("original_max_position_embeddings",
                                                                              length)}))
    for kind, params in out:
        query_scale([0], kind, params)                   # each checked: a field out of range is named
    return [(kind, params) for kind, params in out if kind in QUERY_SCALINGS]


def _window(kind, lc, max_pos=None):
    """The attention window of a layer the config names (when its attention does not pass one): sliding layers'
    sliding_window, chunked layers' attention_chunk_size. A window at least max_position_embeddings long never
    binds (Phi-3.5's 262,144 of 131,072 positions): None."""
    if kind == "chunked_attention":
        w = getattr(lc, "attention_chunk_size", None)
    elif kind == "sliding_attention":
        w = getattr(lc, "sliding_window", None)
    else:
        w = None
    return _binding(w, max_pos)


def _binding(w, max_pos):
    if not isinstance(w, (int, float)) or isinstance(w, bool) or not math.isfinite(w) or w <= 0 \
            or (max_pos and w >= max_pos):
        return None
    return int(w)


def _mrope(params, turn, rows, interleaved_flag):
    """(sections, scheme, per-pair rows) of a layer type's M-RoPE: the scheme of posviz.pe.rope whose rows equal
    the model's measured ones. -> (None, None, None) without sections; scheme None when no scheme matches."""
    sec = params.get("mrope_section")
    if not sec:
        return None, None, None
    measured = turn.axes if turn is not None else None
    if measured is None:   # the rows could not be measured: the config's own flag names the scheme
        scheme = "interleaved" if interleaved_flag else "blocks"
        return list(sec), (scheme if len(sec) == 3 and rows == 0 else None), None
    for scheme in MROPE_SCHEMES:
        try:
            want = mrope_axes(sec, scheme, pairs=len(measured)).tolist()               # [d/2, 2]
        except PosvizError:
            continue
        if all(m in (w, -1) for pw, pm in zip(want, measured) for w, m in zip(pw, pm)):
            return list(sec), scheme, tuple(map(tuple, want))
    return list(sec), None, tuple(measured)


# ---------------------------------------------------------------- reading through transformers
@dataclasses.dataclass
class _Reading:
    """What a config's layers turn out to be, gathered layer by layer."""

    layer_rope: list = dataclasses.field(default_factory=list)
    attention: list = dataclasses.field(default_factory=list)
    windows: list = dataclasses.field(default_factory=list)
    chosen: dict = dataclasses.field(default_factory=dict)       # key -> the LayerRope the layers follow
    widths: dict = dataclasses.field(default_factory=dict)       # key -> q/k width measured
    scales: dict = dataclasses.field(default_factory=dict)       # key -> softmax factor measured
    turns: dict = dataclasses.field(default_factory=dict)        # key -> a measured query turn
    pairings: dict = dataclasses.field(default_factory=dict)     # key -> _Pairing
    unknown: dict = dataclasses.field(default_factory=lambda: collections.defaultdict(list))   # detail -> layers
    scaled: dict = dataclasses.field(default_factory=lambda: collections.defaultdict(list))    # scaling -> layers
    values_turn: bool = False
    output_turns: bool = False
    rearranged: bool = False                 # the model rearranges a checkpoint's dims before rotating them
    reversed: bool = False                   # every pair turns by −θ
    ignored: set = dataclasses.field(default_factory=set)   # keys of the chosen readings' dicts posviz leaves unused
    layer_scales: dict = dataclasses.field(default_factory=dict)   # layer -> softmax factor measured


def _read_layer(i, lp, kind, lc, max_pos, candidates, probe, sources, out):
    """Layer i of the probe against posviz's readings: appends its key, attention flag and window to `out`."""
    call = lp.calls[0] if lp.calls else None
    out.attention.append(call is not None)
    if call is None:
        out.layer_rope.append("nope")
        out.windows.append(None)
        return
    out.windows.append(_binding(call.window, max_pos) if call.window is not None else _window(kind, lc, max_pos))
    turn = call.query
    _scales(i, call, out)
    if probe.input_turns and not candidates:   # positions added to the input, no rope parameters: q/k change
        out.layer_rope.append("nope")           # with position through the input, not by a rotation
        return
    scaling = _query_scaling(turn, sources) if not turn.problem else None
    if scaling is not None:
        out.scaled[scaling if scaling == "unknown" else (scaling[0], json.dumps(scaling[1], sort_keys=True))] \
            .append(i)
    if turn.problem or not turn.rotates:
        out.layer_rope.append("unknown" if turn.problem and not probe.input_turns else "nope")
        if turn.problem and not probe.input_turns:
            out.unknown[f"q/k change with position, but not by a rotation ({turn.problem})"].append(i)
        return
    turn = _forward(turn, out)
    pairing = _pairing(turn)
    key = next((k for k, lrs in candidates.items() for lr, unused in lrs if _matches(turn, pairing, lr, probe)
                and _adopt(out, k, lr, unused)), None)
    if key is None:
        out.layer_rope.append("unknown")
        first = next(iter(candidates.values()), None)
        out.unknown[_mismatch(turn, pairing, [lr for lr, _ in first], probe) if first else "no rope parameters"] \
            .append(i)
        return
    out.layer_rope.append(key)
    out.widths.setdefault(key, turn.width)
    out.turns.setdefault(key, turn)
    out.pairings.setdefault(key, _pairing_of(turn.weight_pairs) if turn.weight_pairs else pairing)
    if turn.weight_pairs:
        out.rearranged = True
    if call.scaling is not None:
        out.scales.setdefault(key, _factor(call.scaling, turn.width))


def _scales(i, call, out):
    """A layer's measured softmax factor (a scale that is not a positive number: a coded error), and whether its
    values or its output turn with position."""
    if call.scaling is not None:
        if not (math.isfinite(call.scaling) and call.scaling > 0):   # the config's fields make no softmax scale
            raise PosvizError("softmax_scale", layer=i, got=short(call.scaling))
        out.layer_scales[i] = _factor(call.scaling, call.query.width)
    out.values_turn |= call.values_turn
    out.output_turns |= call.output_turns


def _forward(turn, out):
    """A rotation the other way round (NanoChat's rotate_half with flipped signs: every pair turns by −θ) is read
    as θ, and said (out.reversed): the scores' cos terms are the same, the sine terms change sign."""
    theta = np.asarray(turn.theta, dtype=np.float64)
    if not (np.isfinite(theta).any() and np.all(theta[np.isfinite(theta)] < 0)):
        return turn
    out.reversed = True
    return dataclasses.replace(turn, theta=tuple(-theta), theta_long=tuple(-np.asarray(turn.theta_long)))


def _factor(scaling, width):
    """The factor on 1/sqrt(width) of a measured softmax scale (exactly 1.0 for the plain 1/sqrt(width))."""
    f = scaling * math.sqrt(width)
    return 1.0 if abs(f - 1.0) < 1e-9 else f


def _adopt(out, key, lr, unused):
    """A key keeps the first reading its layers matched (HunYuan's layers all pick NTK-alpha), and the keys that
    reading leaves unused."""
    if out.chosen.setdefault(key, lr) is not lr:
        return False
    out.ignored |= unused
    return True


def _candidates(tc, dicts, keys, layer_cfgs, max_pos, notes):
    """{key: [(LayerRope, ignored keys)]} of every rope dict, each read at the width of the layers it names."""
    out = {}
    for key, params in dicts.items():
        lc = layer_cfgs[keys.index(key)] if key in keys else tc
        rope_dim, _ = _hf_head_dims(lc, notes)
        out[key] = _readings(params, rope_dim, max_pos)
    return out


def _fitted(probe, notes, max_pos):
    """A reading for a model whose config names no rope parameters but whose layers rotate (GPT-J's code fixes
    the base): the default formula at the base the measured rotation follows."""
    turn = next((c.query for lp in probe.layers for c in lp.calls if c.query.rotates and not c.query.problem), None)
    pairing = _pairing(turn) if turn else None
    base = _base_from(turn, pairing) if pairing else None
    if base is None or base <= 1:
        return {}
    width = 2 * pairing.step if pairing.layout == "half" else 2 * (max(pairing.pairs) + 1)
    notes.append(("base_measured", base))
    return {"default": [(_layer({"rope_type": "default", "rope_theta": base}, width, max_pos, set()), set())]}


def _probe(tc):
    return model_probe.probe_cached(tc)


def _read_hf(cfg):
    tc = _hf_text_config(cfg)
    model_type = cfg["model_type"]
    notes, ignored = [("transformers", transformers_version())], set()
    raw = _raw_text_part(cfg)
    notes += _source_notes(cfg, raw)
    max_pos = getattr(tc, "max_position_embeddings", None)   # what the class read, under any of its names
    max_pos = _int("max_position_embeddings", max_pos, 1, 10 ** 8) if max_pos not in (None, NO_LIMIT) else None
    n_layers = getattr(tc, "num_hidden_layers", None)
    n_layers = _int("num_hidden_layers", n_layers, 1, MAX_LAYERS) if n_layers is not None else 1
    kinds = [str(k) for k in (getattr(tc, "layer_types", None) or ["full_attention"] * n_layers)][:n_layers]
    kinds += ["full_attention"] * (n_layers - len(kinds))
    layer_cfgs = [_layer_config(tc, i) for i in range(n_layers)]
    dicts = _rope_dicts(tc)
    candidates = _candidates(tc, dicts, kinds, layer_cfgs, max_pos, notes)
    probe = _probe(tc)
    if probe.error:
        ignored = set().union(*(lrs[0][1] for lrs in candidates.values()))
        return _config_only(model_type, kinds, layer_cfgs, candidates, max_pos, notes, ignored,
                            [("probe_failed", probe.error)])
    if not candidates and not probe.input_turns:
        candidates = _fitted(probe, notes, max_pos)
    sources = _scaling_sources(tc, dicts)
    out = _Reading()
    for i in range(n_layers):
        lp = probe.layers[i] if i < len(probe.layers) else model_probe.LayerProbe(i)
        _read_layer(i, lp, kinds[i], layer_cfgs[i], max_pos, candidates, probe, sources, out)
    ignored |= out.ignored
    return _assemble(model_type, tc, raw, kinds, layer_cfgs, dicts, candidates, probe, out, max_pos, notes, ignored,
                     sources)


def _source_notes(cfg, raw):
    """Notes on where the fields came from: a text_config, legacy keys."""
    notes = [("text_config", "")] if raw is not cfg else []
    for legacy in ("rotary_pct", "rope_pct", "rotary_dim", "rotary_emb_base", "n_embd", "n_head"):
        if legacy in raw:
            notes.append(("legacy", legacy))
    return notes


def _theta_in_file(value, raw):
    """Whether the file names this base anywhere (rope_theta, a legacy key, inside a rope dict)."""
    if isinstance(raw, dict):
        for k, v in raw.items():
            if k in ("rope_theta", "rotary_emb_base", "rope_embedding_base", "compress_rope_theta") and v == value:
                return True
            if _theta_in_file(value, v):
                return True
    if isinstance(raw, list):
        return any(_theta_in_file(value, v) for v in raw)
    return False


def _assemble(model_type, tc, raw, kinds, layer_cfgs, dicts, candidates, probe, out, max_pos, notes, ignored,
              sources):
    """The ModelRope of a probed config."""
    unverified = [("unknown_layers", f"{_ranges(layers)}: {detail}") for detail, layers in out.unknown.items()]
    rope = {}
    for key, lr in out.chosen.items():
        rope[key] = dataclasses.replace(lr, attn_dim=out.widths.get(key), softmax_scale=float(out.scales.get(key, 1.0)))
        if lr.rope_parameters["rope_type"] == "ntk_alpha":
            notes.append(("ntk_alpha", f"{lr.rope_parameters['alpha']:g}"))
    if not rope and out.unknown:      # layers rotate, but as no formula of posviz does: the config, flagged
        return _config_only(model_type, kinds, layer_cfgs, candidates, max_pos, notes, ignored, unverified, out)
    if not rope:
        return _no_rope(model_type, kinds, layer_cfgs, probe, out, max_pos, notes, ignored, unverified)
    main_key = _main_key(rope, out.layer_rope)
    rope = {main_key: rope[main_key], **{k: v for k, v in rope.items() if k != main_key}}   # the main type first
    main = rope[main_key]
    layout, placement = _pairing_summary(out, main_key, main, unverified)
    query = _query_summary(out, unverified) or _index_temperature(tc, out, sources)
    own = dicts.get(main_key, {})
    mrope = _mrope(own | main.rope_parameters, out.turns.get(main_key), probe.axes_rows,
                   bool(own.get("mrope_interleaved", getattr(tc, "mrope_interleaved", False))))
    if mrope[0] and mrope[1] is None:
        unverified.append(("mrope_rows", str(list(mrope[2] or ()))[:200]))
    if factor := _attention_factor_check(rope, probe):
        unverified.append(("attention_factor", factor))
    theta = {k: v.rope_parameters["rope_theta"] for k, v in rope.items() if v.rope_parameters.get("rope_theta")}
    if theta and "base_measured" not in dict(notes) and not all(_theta_in_file(t, raw) for t in theta.values()):
        notes.append(("theta_class_default", ", ".join(f"{k}: {v:g}" for k, v in theta.items())))
    notes += _probe_notes(out, probe, layout)
    return _finish(model_type, main, max_pos, out, rope, kinds, layout, query, notes, ignored, mrope, placement,
                   unverified, main.softmax_scale)


def _pairing_summary(out, main_key, main, unverified):
    """(layout, placement) of the main layer type's measured pairing; layer types that pair differently, or rotated
    dims neither first nor last in the head, go to `unverified`."""
    pairing = out.pairings[main_key]
    if len({p.layout for p in out.pairings.values()}) > 1:
        unverified.append(("layouts", ", ".join(f"{k}: {p.layout}" for k, p in out.pairings.items())))
    placement = "leading" if pairing.start == 0 else \
        "trailing" if pairing.start + main.rotary_dim == out.widths[main_key] else "offset"
    if placement == "offset":
        unverified.append(("placement", pairing.start))
    return pairing.layout, placement


def _probe_notes(out, probe, layout):
    """What the model's code does besides the frequencies, as notes."""
    notes = [("rearranged", layout)] if out.rearranged else []
    notes += [("reversed", "")] if out.reversed else []
    notes += [("values_rotate", "")] if out.values_turn else []
    notes += [("output_rotation", "")] if out.output_turns else []
    notes += [("long_limit", f"{max(probe.positions):,}")] if probe.long_error else []
    return notes + ([("full_run", "")] if probe.full_run else [])


def _query_summary(out, unverified):
    """The query scaling of the layers: {"kind", "params", "layers"} (all attention layers, or the NoPE ones)."""
    if not out.scaled:
        return None
    if "unknown" in out.scaled:
        unverified.append(("query_scaling", _ranges(out.scaled["unknown"])))
    known = [(k, v) for k, v in out.scaled.items() if k != "unknown"]
    if not known:
        return None
    if len(known) > 1:
        unverified.append(("query_scaling", "; ".join(f"{k[0]}: {_ranges(v)}" for k, v in known)))
    (kind, params), layers = known[0]
    nope = [i for i, r in enumerate(out.layer_rope) if r == "nope" and out.attention[i]]
    where = "nope" if layers == nope else "all" if len(layers) == sum(out.attention) else _ranges(layers)
    return {"kind": kind, "params": json.loads(params), "layers": where, "measured": True}


def _index_temperature(tc, out, sources):
    """Llama 4's query temperature, read from its config: it grows with a token's index in the KV cache, which
    the probe (short sequences, position ids varied) does not reach, so it is the one scaling posviz takes from
    the config (attn_temperature_tuning) rather than from the model; it applies to the layers without RoPE."""
    temperature = dict(sources).get("temperature")
    nope = [i for i, r in enumerate(out.layer_rope) if r == "nope" and out.attention[i]]
    if not (getattr(tc, "attn_temperature_tuning", False) and temperature and nope):
        return None
    return {"kind": "temperature", "params": temperature, "layers": "nope", "measured": False}


def _attention_factor_check(rope, probe):
    """posviz's attention factor of each layer type against the model's rotary modules (by layer type, else the
    only one) -> a sentence when one differs, else ""."""
    measured = dict(probe.attention_factors)
    out = []
    for key, lr in rope.items():
        got = measured.get(key, measured.get("default") if len(measured) == 1 else None)
        if got is None and len(measured) == 1:
            got = next(iter(measured.values()))
        if got is None:
            continue
        want = lr.frequencies()[1]
        if abs(got - want) > 1e-6 * max(1.0, abs(want)):
            out.append(f"{key}: model {got:.6g}, posviz {want:.6g}")
    return "; ".join(out)


def _ranges(idx):
    """Layer indices compactly: "0–15, 20"."""
    idx = sorted(idx)
    parts, j = [], 0
    while j < len(idx):
        k = j
        while k + 1 < len(idx) and idx[k + 1] == idx[k] + 1:
            k += 1
        parts.append(f"{idx[j]}–{idx[k]}" if k > j else str(idx[j]))
        j = k + 1
    return ", ".join(parts)


def _main_key(rope, layer_rope):
    """The layer type the page draws first: the global layers ("full_attention"), else the only type, else
    the rope kind most layers use (DeepSeek-V4's "compress")."""
    for key in ("full_attention", "default"):
        if key in rope:
            return key
    return max(rope, key=layer_rope.count)


def _finish(model_type, main, max_pos, out, rope, kinds, layout, query, notes, ignored, mrope, placement,
            unverified, softmax):
    trained, longest = _lengths(main.rope_parameters, max_pos)
    attn_dim = main.attn_dim or main.head_dim
    layer_rope = out.layer_rope
    if main.rope_parameters["rope_type"] == "proportional":
        notes.append(("proportional", f"{main.rotated_pairs}/{main.rotary_dim // 2}"))
    elif main.rotary_dim < attn_dim:
        notes.append(("partial", f"{main.rotary_dim}/{attn_dim}"))
    nope = sum(1 for r, a in zip(layer_rope, out.attention) if r == "nope" and a)
    if nope:
        notes.append(("nope", nope))
    if not all(out.attention):
        notes.append(("no_attention", out.attention.count(False)))
    if abs(softmax - 1.0) > 1e-6:
        notes.append(("softmax", round(softmax, 4)))
    if len({round(lr.softmax_scale, 6) for lr in rope.values()}) > 1 or len({lr.attn_dim for lr in rope.values()}) > 1:
        notes.append(("per_type", "; ".join(f"{k}: {lr.attn_dim}, ×{lr.softmax_scale:.4g}" for k, lr in rope.items())))
    win = sorted({w for w in out.windows if w})
    if win:
        notes.append(("window", ", ".join(f"{w:,}" for w in win)))
    if ignored:
        notes.append(("ignored", ", ".join(sorted(ignored))))
    section, scheme, rows = mrope
    if section and scheme:
        notes.append((f"mrope_{scheme}", "/".join(map(str, section))))
    axes = tuple(a for a, _ in rows) if rows and scheme != "halves" else (
        tuple(mrope_axes(section, scheme)[:, 0].tolist()) if section and scheme and scheme != "halves" else None)
    if query:
        notes.append((f"query_{query['kind']}", query["layers"]))
    return ModelRope(model_type=model_type, head_dim=int(attn_dim), rotary_dim=int(main.rotary_dim),
                     trained_length=trained, layer_rope=layer_rope, rope=rope, softmax_scale=float(softmax),
                     mrope_section=section, max_length=longest, layer_kinds=kinds, layout=layout,
                     query_scaling=query, notes=tuple(notes), ignored=tuple(sorted(ignored)),
                     mrope_interleaved=scheme == "interleaved", mrope_axes=axes, windows=list(out.windows),
                     placement=placement, mrope_scheme=scheme if section else None,
                     mrope_rows=rows if scheme == "halves" else None, layer_attention=list(out.attention),
                     unverified=tuple(unverified))


def _no_rope(model_type, kinds, layer_cfgs, probe, out, max_pos, notes, ignored, unverified):
    """A model none of whose layers rotates: how positions reach it instead -- added to the input ("absolute"),
    carried by its linear-attention / state-space layers ("linear"), or nothing but the causal mask ("none")."""
    if not any(out.attention) and (probe.attention_modules or not probe.layers):   # attention posviz cannot see
        # (computed inline), or layers it cannot find (XLNet's)
        unverified.append(("attention_unseen", ""))
        how = "unknown"
    elif not any(out.attention):                             # state-space layers only (Mamba)
        how = "linear"
    elif probe.input_turns:
        how = "absolute"
    elif not all(out.attention):
        how = "linear"
    else:
        how = "none"
    notes.append(("no_rope", how))
    try:
        _, attn_dim = _hf_head_dims(layer_cfgs[0], [])
    except PosvizError:          # no attention heads at all (Mamba)
        attn_dim = 0
    query = _query_summary(out, unverified)
    softmax = next(iter(out.layer_scales.values()), 1.0)
    if abs(softmax - 1.0) > 1e-6:
        notes.append(("softmax", round(softmax, 4)))
    return ModelRope(model_type=model_type, head_dim=int(attn_dim), rotary_dim=0, trained_length=max_pos,
                     layer_rope=list(out.layer_rope), rope={}, softmax_scale=float(softmax), max_length=max_pos,
                     layer_kinds=kinds, notes=tuple(notes), ignored=tuple(sorted(ignored)), windows=list(out.windows),
                     no_rope=how, query_scaling=query, layer_attention=list(out.attention),
                     unverified=tuple(unverified))


def _config_only(model_type, kinds, layer_cfgs, candidates, max_pos, notes, ignored, unverified, out=None):
    """What the config says when the model's layers cannot be held to it (the model could not run, or no layer
    rotates as a formula of posviz does): the config's own reading, the unfollowed layers "unknown", the pairing
    "unknown" -- the page says so above all of it."""
    if out is None:
        windows = [_window(kind, lc, max_pos) for kind, lc in zip(kinds, layer_cfgs)]
        out = _Reading(layer_rope=["unknown"] * len(kinds), attention=[True] * len(kinds), windows=windows)
    rope = {k: lrs[0][0] for k, lrs in candidates.items()}
    if not rope:
        return dataclasses.replace(_no_rope(model_type, kinds, layer_cfgs, model_probe.ModelProbe(
            "", (), (), ()), out, max_pos, notes, ignored, unverified), no_rope="unknown")
    _, attn_dim = _hf_head_dims(layer_cfgs[0], [])
    rope = {k: dataclasses.replace(v, attn_dim=attn_dim) for k, v in rope.items()}
    return _finish(model_type, rope[_main_key(rope, [])], max_pos, out, rope, kinds, "unknown", None, notes,
                   ignored, (None, None, None), "leading", unverified, 1.0)


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
    legacy aliases (n_embd, n_head, n_positions, rotary_pct, rope_pct, rotary_dim, rotary_emb_base). Nothing
    can be held to a model's code: unverified."""
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
    layer_rope = []
    for i, kind in enumerate(kinds):
        key = kind if nested else "default"
        nope = key not in rope or (no_rope is not None and i < len(no_rope) and not no_rope[i])
        layer_rope.append("nope" if nope else key)
    main_key = _main_key(rope, layer_rope)
    softmax = deepseek_softmax_scale(rope[main_key].rope_parameters) if raw.get("qk_nope_head_dim") else 1.0
    rope = {k: dataclasses.replace(lr, attn_dim=attn_dim, softmax_scale=softmax) for k, lr in rope.items()}
    rope = {main_key: rope[main_key], **{k: v for k, v in rope.items() if k != main_key}}
    sec = ({**per_type.get(main_key, {}), **rope[main_key].rope_parameters}).get("mrope_section")
    inter = bool(per_type.get(main_key, {}).get("mrope_interleaved", False))
    mrope = (list(sec), ("interleaved" if inter else "blocks") if len(sec) == 3 else None, None) if sec else (
        None, None, None)
    windows = [_window(kind, _Attrs(raw), max_pos) for kind in kinds]
    out = _Reading(layer_rope=layer_rope, attention=[True] * len(kinds), windows=windows)
    return _finish(model_type, rope[main_key], max_pos, out, rope, kinds, "half", None, notes, ignored, mrope,
                   "leading", [("generic", str(model_type)[:60] if model_type else "")], softmax)


class _Attrs:
    """A raw config dict read like a config object (only the window fields, checked as integers)."""

    def __init__(self, raw):
        self.sliding_window = _int("sliding_window", raw["sliding_window"]) \
            if raw.get("sliding_window") is not None else None
        self.attention_chunk_size = _int("attention_chunk_size", raw["attention_chunk_size"]) \
            if raw.get("attention_chunk_size") is not None else None


def _first(raw, *keys):
    """The value of the first of `keys` that raw sets (not None), else None."""
    return next((raw[k] for k in keys if raw.get(k) is not None), None)


def _generic_head_dims(raw, notes):
    """(the width RoPE's formula starts from, the q/k width per head), from MLA's widths, head_dim, or
    hidden_size / num_attention_heads (and their legacy aliases)."""
    if raw.get("qk_rope_head_dim") and raw.get("qk_nope_head_dim") is not None:     # 0: MLA without RoPE
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
    """config.json text (or a dict) -> ModelRope, read as transformers reads that model type and held to the
    model it builds.

    Also accepted: a bare rope dict ({"rope_type": "yarn", "factor": 4, ..., "head_dim": 128}),
    read generically. Raises PosvizError naming the field for unreadable input (> 64 KB,
    malformed JSON, a non-finite number where posviz reads one, wrong types, out-of-range sizes, what the config
    class rejects) and RopeNotSupported for a valid config posviz cannot show yet.
    """
    try:
        return _read(config)
    except PosvizError:
        raise
    except RecursionError:
        raise PosvizError("config_depth", n=MAX_DEPTH) from None
    except Exception as e:   # whatever transformers or a malformed field raises: a message, never a crash
        raise PosvizError("config_unreadable", reason=_reason(e)) from None


def _read(config):
    if not isinstance(config, (str, dict)):
        raise PosvizError("config_text", got=type(config).__name__)
    cfg = load_json(config) if isinstance(config, str) else config
    _check_depth(cfg)
    _check_sizes(cfg)
    model_type = cfg.get("model_type")
    if model_type is not None and not isinstance(model_type, str):
        raise PosvizError("config_field", name="model_type", got=short(model_type))
    tc = cfg.get("text_config")
    if tc is not None and not isinstance(tc, dict):
        raise PosvizError("rope_dict", name="text_config", got=type(tc).__name__)
    if tc and tc.get("model_type") is not None and not isinstance(tc["model_type"], str):
        raise PosvizError("config_field", name="text_config.model_type", got=short(tc["model_type"]))
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
