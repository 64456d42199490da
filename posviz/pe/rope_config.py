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
    proportional_pairs,
    rope_frequencies,
    rotary_width,
)
from posviz.validate import MAX_DIM, MAX_POSITION, PosvizError, check_float, check_int

MAX_BYTES = 65536
MAX_DEPTH = 20
MAX_LAYERS = 1024
# Pairing of the rotated dims as transformers applies it: "half" = (i, i + d/2) like rotate_half;
# "interleaved" = (2i, 2i+1) (a rotate_half on x[..., 0::2] / 1::2, complex rotation, or interleaved weights
# rearranged before rotate_half). DeepSeek-V3 / Kimi: the config's rope_interleave.
INTERLEAVED = {"gptj", "cohere", "cohere2", "cohere2_moe", "llama4", "llama4_text", "deepseek_v2", "deepseek_v32",
               "deepseek_v4", "glm", "glm4", "ernie4_5", "ernie4_5_moe", "helium", "axk2", "bailing_hybrid",
               "blt_global_transformer", "blt_local_decoder", "blt_patcher", "glm_moe_dsa", "hy_v4_vl_text",
               "longcat_flash", "mistral_large4_text", "moonshine", "moonshine_streaming"}
# Where the rotated dims sit when only part of a head rotates: "leading" (the first rotary_dim dims, as
# GPT-NeoX, Phi, Qwen3-Next), "trailing" (MLA heads [nope | rope], DeepSeek-V4 [nope | rope]).
TRAILING = {"deepseek_v4"}
# DeepSeek-V4 keys its rope parameters by rope kind, not layer type: sliding layers "main", compressed "compress".
ROPE_KIND_OF_LAYER = {"deepseek_v4": lambda kind: "main" if kind == "sliding_attention" else "compress"}
# Models that rotate the attention output back (K = V: the values carry RoPE; V4 applies the inverse rotation).
OUTPUT_ROTATION = {"deepseek_v4"}
# Attention multiplies q.k by 1.0 (their q / k norms carry the scale): the factor on 1/sqrt(d) is sqrt(d).
SCALE_ONE = {"gemma3n_text", "gemma4_text"}
# Query temperature on NoPE layers (attn_temperature_tuning, floor_scale, attn_scale): Llama 4 only.
QUERY_TEMPERATURE = {"llama4_text"}
ATTENTION_MULTIPLIER = {"granite", "granitemoe", "granitemoeshared"}
# Every layer applies the config's sliding_window (no layer_types): Mistral 7B v0.1, Mixtral, Phi-3, DeepSeek-V4.
ALL_LAYER_WINDOW = {"mistral", "mixtral", "phi3", "starcoder2", "deepseek_v4"}
# Layer kinds without rotary attention (linear attention / state-space blocks of hybrid models).
NO_ATTENTION_KINDS = {"linear_attention", "mamba", "conv", "recurrent", "mlp"}
# Layer kinds that attend to a compressed cache beyond their window (DeepSeek-V4's CSA and HCA layers).
COMPRESSED_KINDS = {"compressed_sparse_attention", "heavily_compressed_attention"}
# How position enters a model type that has no RoPE (posviz.text: extrapolation.no_rope.<how>).
NO_ROPE = {"kimi_linear": "linear", "gpt2": "learned", "gpt_bigcode": "learned", "opt": "learned",
           "bloom": "alibi", "mpt": "alibi", "t5": "relative_bias"}
# Text-config model types whose frequencies tests/pe/test_real_models.py checks against transformers' own rotary
# module (inv_freq and attention factor per layer type, on the class's default config; the gallery's models also
# on their published fields, with softmax scale, widths, NoPE layers, windows and pairing): 168 of the 280 configs
# of transformers 5.24 with RoPE (the others: vision / audio encoders, or hybrids posviz does not read exactly yet),
# and Kimi Linear, read as having none. Any other type is read the same way, with a note ("unverified").
VERIFIED = frozenset("""
afmoe apertus apertus1p5_text arcee aria_text axk1 axk2 bailing_hybrid beam bitnet blt_global_transformer
blt_local_decoder blt_patcher chameleon cohere cohere2 cohere2_moe cosmos3_edge_text csm csm_depth_decoder_model
cwm dbrx deepseek_ocr2_text deepseek_v2 deepseek_v3 deepseek_v32 deepseek_v4 dia_decoder diffllama
diffusion_gemma_text doge dory dots1 embedding_gemma2_text emu3_text_model ernie4_5 ernie4_5_moe esmc eurobert
exaone4 exaone_moe falcon flex_olmo flint gemma gemma2 gemma3_text gemma3n_text gemma4_text gemma4_unified_text
glm glm4 glm4_moe glm4_moe_lite glm4v_text glm_image_text glm_moe_dsa glm_ocr_text gpt_neox gpt_neox_japanese
gpt_oss gptj granite granite_docling_text granite_swa granitemoe granitemoe_swa granitemoeshared gte helium
hrm_text hunyuan_v1_dense hunyuan_v1_moe hunyuan_vl_text hy_v3 hy_v4 hy_v4_vl_text hyperclovax idefics jais2
jetmoe jina_embeddings_v3 kimi_linear kolibri1 laguna lara_mini lfm2 lfm2_moe lfm3 llama llama4_text
longcat_flash mellum mimo_v2_flash minicpm3 minimax minimax_m2 minimax_m3_vl_text ministral ministral3 mistral
mistral4 mistral_large4_text mixtral mllama_text_model modernbert modernbert-decoder molmo2_text moonshine
moonshine_streaming moshi muse_glimmer_assistant muse_glimmer_text muse_spark_text nanochat nemotron
nemotron3_5_transcribe_word_timestamp neomme nomic_bert olmo olmo2 olmo3 olmo_hybrid olmoe openai_privacy_filter
paddleocr_vl_text persimmon phi phi3 phi4_multimodal phimoe qwen2 qwen2_5_omni_text qwen2_5_vl_text qwen2_moe
qwen2_vl_text qwen3 qwen3_5_moe_text qwen3_5_text qwen3_moe qwen3_next qwen3_vl_moe_text qwen3_vl_text
qwen4_exp_text recurrent_gemma seed_oss smollm3 solar_open stablelm starcoder2 step3p5 t5_gemma_module
t5gemma2_decoder t5gemma2_text timesfm2_5 ultrabert unlimited_ocr_text vaultgemma voxtral_realtime_text youtu
zamba2 zaya
gradium_phonon_tts kyutai_speech_to_text mimi pocket_tts qwen2_5_omni_talker qwen3_omni_moe_talker_code_predictor
qwen3_omni_moe_talker_text""".split())
# Keys that carry sizes: capped before any config class sees them (a layer list of 10**9 ...).
_SIZE_CAPS = {"num_hidden_layers": MAX_LAYERS, "n_layer": MAX_LAYERS, "num_layers": MAX_LAYERS,
              "num_attention_heads": 4096, "n_head": 4096, "hidden_size": 2 ** 20, "n_embd": 2 ** 20,
              "head_dim": MAX_DIM, "qk_rope_head_dim": MAX_DIM, "qk_nope_head_dim": MAX_DIM,
              "rotary_dim": MAX_DIM, "max_position_embeddings": 10 ** 8, "n_positions": 10 ** 8,
              "original_max_position_embeddings": 10 ** 8, "num_key_value_heads": 4096, "global_head_dim": MAX_DIM}


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
    """Everything a config says about positions (the contract of DESIGN.md, plus what the page
    shows besides: max_length, layer_kinds, layout, query_temperature, notes, ignored, the M-RoPE layout,
    each layer's attention window, where the rotated dims sit, and why a model has no RoPE)."""

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
    mrope_interleaved: bool = False                    # Qwen3-VL / Qwen3.5: pairs alternate t, h, w
    mrope_axes: tuple[int, ...] | None = None          # per pair: 0 time, 1 height, 2 width
    windows: list[int | None] = dataclasses.field(default_factory=list)   # per layer: attention window or None
    placement: str = "leading"                         # where partial rotary's dims sit: "leading" / "trailing"
    no_rope: str | None = None                         # how a model without RoPE gets positions (NO_ROPE)


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
        if k == "mrope_interleaved":   # the M-RoPE layout: read by _mrope, not a frequency parameter
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
    tc = cfg.get("text_config")
    return tc if isinstance(tc, dict) else cfg


def _nope_layer(model_type, kind, i, no_rope):
    """True where a layer applies no RoPE, per model type."""
    if kind in NO_ATTENTION_KINDS:
        return True
    if no_rope is not None and i < len(no_rope) and not no_rope[i]:   # Llama 4, SmolLM3: 1 = RoPE
        return True
    return model_type in ("cohere2", "cohere2_moe") and kind == "full_attention"   # Command R7B: global NoPE


def _layer_config(tc, i):
    """The config of layer i: transformers' per-layer view of a heterogeneous config (Gemma 4's global
    layers are 512 wide, its local ones 256), else the config itself."""
    if getattr(tc, "is_heterogeneous", False):
        return tc.per_layer_config[i]
    return tc


def _rope_key(model_type, kind, nested):
    """The key of the rope parameters a layer of this kind uses: its kind when the parameters are nested
    by layer type, DeepSeek-V4's rope kind (sliding layers "main", compressed ones "compress"), else "default"."""
    if model_type in ROPE_KIND_OF_LAYER:
        return ROPE_KIND_OF_LAYER[model_type](kind)
    return kind if nested else "default"


def _read_hf(cfg):
    tc = _hf_text_config(cfg)
    model_type, text_type = cfg["model_type"], tc.model_type
    notes, ignored = [("transformers", transformers_version())], set()
    raw = _raw_text_part(cfg)
    notes += _source_notes(cfg, raw)
    max_pos = getattr(tc, "max_position_embeddings", None)   # what the class read, under any of its names
    max_pos = _int("max_position_embeddings", max_pos, 1, 10 ** 8) if max_pos is not None else None
    n_layers = getattr(tc, "num_hidden_layers", None)
    n_layers = _int("num_hidden_layers", n_layers, 1, MAX_LAYERS) if n_layers is not None else 1
    kinds = [str(k) for k in (getattr(tc, "layer_types", None) or ["full_attention"] * n_layers)][:n_layers]
    kinds += ["full_attention"] * (n_layers - len(kinds))
    layer_cfgs = [_layer_config(tc, i) for i in range(n_layers)]
    rp = _hf_rope_parameters(tc, model_type)
    if rp is None:
        return _no_rope_model(tc, model_type, text_type, kinds, layer_cfgs, max_pos, notes)
    nested = tc.nested_rope_parameter_keys(rp) if hasattr(tc, "nested_rope_parameter_keys") else []
    per_type = {k: rp[k] for k in nested} if nested else {"default": rp}
    keys = [_rope_key(text_type, kind, nested) for kind in kinds]
    rope = {}
    for key, params in per_type.items():
        if params is None:
            continue
        lc = layer_cfgs[keys.index(key)] if key in keys else tc
        rope_dim, attn_dim = _hf_head_dims(lc, notes)
        if text_type == "gptj" or (not isinstance(params, dict) or not params) and getattr(lc, "rotary_dim", None):
            rope_dim, params = lc.rotary_dim or attn_dim, {"rope_type": "default", "rope_theta": 10000.0}
            notes.append(("fixed_base", 10000.0))   # GPT-J: rotary_dim of the head's dims, base fixed in the code
        lr = _layer(params, rope_dim, max_pos, ignored)
        rope[key] = dataclasses.replace(lr, attn_dim=attn_dim,
                                        softmax_scale=_softmax_scale(lc, text_type, attn_dim, lr.rope_parameters))
    if not rope:
        return _no_rope_model(tc, model_type, text_type, kinds, layer_cfgs, max_pos, notes)
    no_rope = getattr(tc, "no_rope_layers", None)
    layer_rope = ["nope" if key not in rope or _nope_layer(text_type, kind, i, no_rope) else key
                  for i, (kind, key) in enumerate(zip(kinds, keys))]
    main_key = _main_key(rope, layer_rope)
    main = rope[main_key]
    rope = {main_key: main, **{k: v for k, v in rope.items() if k != main_key}}   # the main layer type first
    temperature = None
    if text_type in QUERY_TEMPERATURE and getattr(tc, "attn_temperature_tuning", False) and "nope" in layer_rope:
        temperature = {"floor_scale": check_float("floor_scale", _number("floor_scale", tc.floor_scale), 1.0,
                                                  MAX_POSITION),   # a number of positions (Llama 4: 8192)
                       "attn_scale": check_float("attn_scale", _number("attn_scale", tc.attn_scale), -10.0, 10.0)}
    interleave = getattr(layer_cfgs[0], "rope_interleave", False)   # DeepSeek-V3 / Kimi's flag
    layout = "interleaved" if {model_type, text_type} & INTERLEAVED or interleave else "half"
    theta_given = "rope_theta" in raw or any(isinstance(v, dict) and ("rope_theta" in v or any(
        isinstance(x, dict) and "rope_theta" in x for x in v.values()))
        for v in (raw.get("rope_parameters"), raw.get("rope_scaling")))
    if not theta_given and "rotary_emb_base" not in raw and text_type != "gptj" \
            and "compress_rope_theta" not in raw:
        notes.append(("theta_class_default", ", ".join(f"{k}: {v.rope_parameters['rope_theta']:g}"
                                                       for k, v in rope.items())))
    if text_type in ROPE_KIND_OF_LAYER:
        notes.append(("rope_kinds", ", ".join(f"{k}: {layer_rope.count(k)}" for k in rope)))
    if text_type in OUTPUT_ROTATION:
        notes.append(("output_rotation", ""))
    if text_type not in VERIFIED:
        notes.append(("unverified", text_type))
    mrope = _mrope({**per_type[main_key], **main.rope_parameters} if main_key in per_type else main.rope_parameters,
                   tc)
    windows = [_window(text_type, kind, lc, max_pos) for kind, lc in zip(kinds, layer_cfgs)]
    main_lc = layer_cfgs[keys.index(main_key)] if main_key in keys else layer_cfgs[0]   # per layer: heterogeneous
    placement = "trailing" if getattr(main_lc, "qk_nope_head_dim", None) or text_type in TRAILING else "leading"
    return _finish(model_type, main.attn_dim, main, max_pos, layer_rope, rope, main.softmax_scale, kinds, layout,
                   temperature, notes, ignored, mrope=mrope, windows=windows, placement=placement)


def _main_key(rope, layer_rope):
    """The layer type the page draws first: the global layers ("full_attention"), else the only type, else
    the rope kind most layers use (DeepSeek-V4's "compress")."""
    for key in ("full_attention", "default"):
        if key in rope:
            return key
    return max(rope, key=layer_rope.count)


def _window(text_type, kind, lc, max_pos=None):
    """The attention window of a layer (the distances 0 .. w-1 it can see), or None for full attention:
    sliding layers' sliding_window, chunked layers' attention_chunk_size, and sliding_window on every layer
    of the model types whose attention applies it everywhere (Mistral, Mixtral, Phi-3, DeepSeek-V4). A window
    at least max_position_embeddings long never binds (Phi-3.5's 262,144 of 131,072 positions): None."""
    if kind in NO_ATTENTION_KINDS:
        return None
    if kind == "chunked_attention":
        w = getattr(lc, "attention_chunk_size", None)
    elif kind == "sliding_attention" or text_type in ALL_LAYER_WINDOW:
        w = getattr(lc, "sliding_window", None)
    else:
        w = None
    if not isinstance(w, (int, float)) or isinstance(w, bool) or w <= 0 or (max_pos and w >= max_pos):
        return None
    return int(w)


def _mrope(params, tc):
    """(mrope_section, interleaved, axis of each pair) of M-RoPE parameters, or (None, False, None).

    Consecutive blocks (Qwen2-VL, Qwen2.5-VL): the first s_t pairs follow time, the next s_h height, the
    last s_w width. Interleaved (Qwen3-VL, Qwen3.5): pair i follows height when i % 3 == 1 and
    i < 3 s_h, width when i % 3 == 2 and i < 3 s_w, time otherwise (as transformers' recomposition)."""
    sec = params.get("mrope_section")
    if not sec:
        return None, False, None
    inter = params.get("mrope_interleaved", getattr(tc, "mrope_interleaved", False))
    if not isinstance(inter, bool):
        raise PosvizError("boolean", name="mrope_interleaved", got=repr(inter)[:40])
    return list(sec), inter, mrope_pair_axes(sec, inter)


def mrope_pair_axes(section, interleaved=False):
    r"""The axis each frequency pair takes its position from, 0 = time, 1 = height, 2 = width -> tuple[int].

    Formula:
        \text{blocks: } a_i = 0\ (i < s_t),\ 1\ (s_t \le i < s_t + s_h),\ 2\ \text{else}
        \text{interleaved: } a_i = 1\ (i \bmod 3 = 1,\ i < 3 s_h),\ 2\ (i \bmod 3 = 2,\ i < 3 s_w),\ 0\ \text{else}
    """
    n = sum(section)
    if not interleaved:
        return tuple(a for a, s in enumerate(section) for _ in range(s))
    axes = [0] * n
    for axis in (1, 2):
        for i in range(axis, min(3 * section[axis], n), 3):
            axes[i] = axis
    return tuple(axes)


def _softmax_scale(lc, text_type, attn_dim, params):
    """The factor on 1/sqrt(head_dim) the attention of this layer type uses, per model type's rule:
    MLA (DeepSeek-V2/V3, Kimi): YaRN's m(s, mscale_all_dim)^2; Gemma 3n / Gemma 4: scaling 1 (q/k norms
    carry the scale), so sqrt(head_dim); Gemma 2/3: query_pre_attn_scalar^-1/2; Granite: attention_multiplier."""
    if getattr(lc, "qk_nope_head_dim", None) and getattr(lc, "qk_rope_head_dim", None):
        return deepseek_softmax_scale(params)
    if text_type in SCALE_ONE:
        return math.sqrt(attn_dim)
    q = getattr(lc, "query_pre_attn_scalar", None)
    if q is not None:
        q = _number("query_pre_attn_scalar", q)
        if q <= 0:
            raise PosvizError("above", name="query_pre_attn_scalar", lo=0, got=q)
        return math.sqrt(attn_dim / q)
    mult = getattr(lc, "attention_multiplier", None)
    if text_type in ATTENTION_MULTIPLIER and mult is not None:
        mult = _number("attention_multiplier", mult)
        if mult <= 0:
            raise PosvizError("above", name="attention_multiplier", lo=0, got=mult)
        return mult * math.sqrt(attn_dim)
    return 1.0


def _no_rope_model(tc, model_type, text_type, kinds, layer_cfgs, max_pos, notes):
    """A config without rotary parameters: described as such (Kimi Linear: position from its linear-attention
    layers; its global layers attend without RoPE), with its layers, widths and lengths."""
    _, attn_dim = _hf_head_dims(layer_cfgs[0], [])
    how = NO_ROPE.get(text_type, "none")
    notes.append(("no_rope", how))
    windows = [_window(text_type, kind, lc, max_pos) for kind, lc in zip(kinds, layer_cfgs)]
    return ModelRope(model_type=model_type, head_dim=int(attn_dim), rotary_dim=0, trained_length=max_pos,
                     layer_rope=["nope"] * len(kinds), rope={}, softmax_scale=1.0, max_length=max_pos,
                     layer_kinds=kinds, notes=tuple(notes), windows=windows, no_rope=how)


def _source_notes(cfg, raw):
    """Notes on where the fields came from: a text_config, legacy keys."""
    notes = [("text_config", "")] if raw is not cfg else []
    for legacy in ("rotary_pct", "rope_pct", "rotary_dim", "rotary_emb_base", "n_embd", "n_head"):
        if legacy in raw:
            notes.append(("legacy", legacy))
    return notes


def _hf_head_dims(tc, notes):
    """(the width RoPE's formula starts from, the q/k width per head) of a transformers (layer) config."""
    hidden, heads = getattr(tc, "hidden_size", None), getattr(tc, "num_attention_heads", None)
    if getattr(tc, "qk_nope_head_dim", None) and getattr(tc, "qk_rope_head_dim", None):     # MLA
        if ("head_dim_from", "qk_nope_head_dim + qk_rope_head_dim") not in notes:
            notes.append(("head_dim_from", "qk_nope_head_dim + qk_rope_head_dim"))
        # transformers' rope functions start from config.head_dim (= qk_rope_head_dim in DeepSeek's classes;
        # Mistral 4 sets the whole width there with partial_rotary_factor qk_rope / qk_head)
        return getattr(tc, "head_dim", None) or tc.qk_rope_head_dim, tc.qk_nope_head_dim + tc.qk_rope_head_dim
    if not (getattr(tc, "head_dim", None) or (hidden and heads)):
        raise PosvizError("config_missing", name="head_dim", why="hidden_size + num_attention_heads")
    attn_dim = getattr(tc, "head_dim", None) or hidden // heads
    return attn_dim, attn_dim


def _hf_rope_parameters(tc, model_type):
    """The rope parameters of a transformers config (a copy), or None when it has none (GPT-J's fixed base
    is read by the caller from rotary_dim)."""
    rp = copy.deepcopy(getattr(tc, "rope_parameters", None))
    if model_type == "gptj" or (not rp and getattr(tc, "rotary_dim", None)):
        return {"rope_type": "default", "rope_theta": 10000.0} if not rp else rp
    if rp is not None and not isinstance(rp, dict):
        raise PosvizError("rope_dict", name="rope_parameters", got=type(rp).__name__)
    return rp or None


def _finish(model_type, attn_dim, main, max_pos, layer_rope, rope, softmax, kinds, layout, temperature,
            notes, ignored, mrope=(None, False, None), windows=None, placement="leading"):
    trained, longest = _lengths(main.rope_parameters, max_pos)
    if main.rope_parameters["rope_type"] == "proportional":
        notes.append(("proportional", f"{main.rotated_pairs}/{main.rotary_dim // 2}"))
    elif main.rotary_dim < attn_dim:
        notes.append(("partial", f"{main.rotary_dim}/{attn_dim}"))
    if "nope" in layer_rope:
        notes.append(("nope", layer_rope.count("nope")))
    if softmax != 1.0:
        notes.append(("softmax", round(softmax, 4)))
    if len({round(lr.softmax_scale, 6) for lr in rope.values()}) > 1 or len({lr.attn_dim for lr in rope.values()}) > 1:
        notes.append(("per_type", "; ".join(f"{k}: {lr.attn_dim}, ×{lr.softmax_scale:.4g}" for k, lr in rope.items())))
    win = sorted({w for w in (windows or []) if w})
    if win:
        notes.append(("window", ", ".join(f"{w:,}" for w in win)))
    if ignored:
        notes.append(("ignored", ", ".join(sorted(ignored))))
    section, inter, axes = mrope
    if section:
        notes.append(("mrope_interleaved" if inter else "mrope_blocks", "/".join(map(str, section))))
    return ModelRope(model_type=model_type, head_dim=int(attn_dim), rotary_dim=int(main.rotary_dim),
                     trained_length=trained, layer_rope=layer_rope, rope=rope, softmax_scale=float(softmax),
                     mrope_section=section, max_length=longest,
                     layer_kinds=kinds, layout=layout, query_temperature=temperature, notes=tuple(notes),
                     ignored=tuple(sorted(ignored)), mrope_interleaved=inter, mrope_axes=axes,
                     windows=list(windows) if windows else [None] * len(layer_rope), placement=placement)


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
    rope = {k: dataclasses.replace(lr, attn_dim=attn_dim, softmax_scale=softmax) for k, lr in rope.items()}
    main_key = next(k for k, lr in rope.items() if lr.rope_parameters == main.rope_parameters)
    raw_main = per_type.get(main_key) or {}
    mrope = _mrope({**raw_main, **rope[main_key].rope_parameters}, None)
    windows = [_window(None, kind, _Attrs(raw), max_pos) for kind in kinds]
    return _finish(model_type, attn_dim, rope[main_key], max_pos, layer_rope, rope, softmax, kinds, "half", None,
                   notes, ignored, mrope=mrope, windows=windows)


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
    _check_finite(cfg)
    _check_sizes(cfg)
    model_type = cfg.get("model_type")
    if model_type is not None and not isinstance(model_type, str):
        raise PosvizError("config_field", name="model_type", got=repr(model_type)[:60])
    tc = cfg.get("text_config")
    if tc is not None and not isinstance(tc, dict):
        raise PosvizError("rope_dict", name="text_config", got=type(tc).__name__)
    if tc and tc.get("model_type") is not None and not isinstance(tc["model_type"], str):
        raise PosvizError("config_field", name="text_config.model_type", got=repr(tc["model_type"])[:60])
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
