"""Views of the gallery and of a pasted config: what a model's config says about positions, as
plain numbers / arrays / dicts (cached), and the live check against transformers.

Used by app_pages/models.py and app_pages/extrapolation.py.
"""
import importlib
import json
import math

import numpy as np
import torch

from posviz.pe import models as gallery
from posviz.pe import rope_config, scaling
from posviz.validate import MAX_POSITION, PosvizError
from posviz.views import cached

# Strip categories of a layer (figures/models.py colours them) and the marks drawn on a cell.
STRIP = ("rope", "local", "global", "nope", "linear", "compressed", "unknown")
MARKS = ("partial", "proportional")
LOCAL_KINDS = ("sliding_attention", "chunked_attention")
DEFAULT_PICK = ("llama31_8b", "gemma3_27b", "deepseek_v3")


def layer_strip(model):
    """Per layer: "rope" (all layers alike, full attention), "local" (a sliding / chunked window with RoPE:
    Mistral 7B's every layer, Gemma's local ones), "global" (full attention beside local layers),
    "compressed" (DeepSeek-V4: a window plus a compressed cache of everything older), "nope" (attention without
    RoPE), "linear" (no attention scores: linear attention, state-space layers), "unknown" (what the layer does
    with positions is not one posviz's formulas reproduce, or could not be measured)."""
    kinds = model.layer_kinds or ["full_attention"] * len(model.layer_rope)
    windows = model.windows or [None] * len(kinds)
    attention = model.layer_attention or [True] * len(kinds)
    mixed = any(k in LOCAL_KINDS for k in kinds) or any(windows) or len(set(model.layer_rope) - {"nope"}) > 1
    out = []
    for kind, rope, window, attends in zip(kinds, model.layer_rope, windows, attention):
        if not attends:
            out.append("linear")
        elif rope == "unknown":
            out.append("unknown")
        elif rope == "nope":
            out.append("nope")
        elif kind in rope_config.COMPRESSED_KINDS:
            out.append("compressed")
        elif kind in LOCAL_KINDS or window:
            out.append("local")
        else:
            out.append("global" if mixed else "rope")
    return out


def layer_marks(model):
    r"""Per layer, what its RoPE covers: "proportional" (proportional RoPE: a few pairs turn at the whole head's
    frequencies, the others at 0), "partial" (RoPE on part of the head), or "" (the whole head, or no RoPE).

    Formula:
        \text{partial} \iff r < d_{\mathrm{head}},\qquad
            \text{proportional} \iff \text{rope\_type} = \text{proportional}
    """
    out = []
    for key in model.layer_rope:
        lr = model.rope.get(key)
        if lr is None:
            out.append("")
        elif lr.rope_parameters["rope_type"] == "proportional":
            out.append("proportional")
        else:
            out.append("partial" if lr.rotary_dim < (lr.attn_dim or model.head_dim) else "")
    return out


def _plain_params(p):
    return {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in p.items()}


def describe(model):
    """A ModelRope as plain data: per layer type its parameters, frequencies (short and, for
    LongRoPE, long), attention factor; the strip; lengths; notes."""
    types = {}
    for key, lr in model.rope.items():
        inv, a = lr.frequencies()                                                     # [r/2]
        p = lr.rope_parameters
        windows = sorted({w for w, k in zip(model.windows, model.layer_rope) if k == key}, key=lambda w: w or 0)
        t = {"params": _plain_params(p), "rotary_dim": lr.rotary_dim, "inv_freq": inv.numpy(),
             "attention": a, "layers": model.layer_rope.count(key), "attn_dim": lr.attn_dim or model.head_dim,
             "softmax": lr.softmax_scale, "pairs": lr.rotated_pairs,
             "window": windows[0] if len(windows) == 1 else None, "windows": windows}
        if p["rope_type"] == "longrope":
            inv_l, a_l = lr.frequencies(seq_len=p["original_max_position_embeddings"] + 1)   # [r/2]
            t.update(inv_long=inv_l.numpy(), attention_long=a_l)
        types[key] = t
    return {"model_type": model.model_type, "head_dim": model.head_dim, "rotary_dim": model.rotary_dim,
            "trained": model.trained_length, "max_length": model.max_length, "layer_rope": list(model.layer_rope),
            "strip": layer_strip(model), "marks": layer_marks(model), "windows": list(model.windows),
            "kinds": list(model.layer_kinds),
            "softmax_scale": model.softmax_scale, "mrope_section": model.mrope_section,
            "mrope_interleaved": model.mrope_interleaved, "mrope_axes": list(model.mrope_axes or []),
            "layout": model.layout, "placement": model.placement, "temperature": model.query_temperature,
            "query_scaling": model.query_scaling and {**model.query_scaling, "params_json": json.dumps(
                model.query_scaling["params"], sort_keys=True)}, "mrope_scheme": model.mrope_scheme,
            "mrope_rows": [list(r) for r in model.mrope_rows or []], "attention": list(model.layer_attention),
            "unverified": [list(n) for n in model.unverified],
            "notes": [list(n) for n in model.notes], "no_rope": model.no_rope,
            "main": rope_config.main_layer_type(model) if model.rope else None, "types": types}


@cached(max_entries=256)
def read(config_text):
    """A pasted config.json (text) -> describe(read_model_rope(...)). Errors propagate (PosvizError)."""
    return describe(rope_config.read_model_rope(config_text))


@cached(max_entries=256)
def read_pasted(config_text):
    """read() for the paste box: {"model": ...} or {"code", "params", "boundary"} of the error (so
    the page shows it in the user's language; cached like a success)."""
    try:
        return {"model": read(config_text)}
    except PosvizError as e:
        return {"code": e.code, "params": {k: str(v)[:300] for k, v in e.params.items()}, "boundary": e.boundary}
    except Exception as e:   # read_model_rope turns every failure into a PosvizError; this is the last guard
        return {"code": "config_unreadable", "params": {"reason": type(e).__name__}, "boundary": False}


@cached(max_entries=64)
def entry(key):
    """One gallery model: its data-file fields and describe() of its reading."""
    m = gallery.model(key)
    out = {k: m[k] for k in ("key", "name", "repo", "source", "released", "check", "l_train", "l_target")}
    out["note"] = m.get("note", "")
    out["config_json"] = gallery.config_json(key)
    return {**out, **describe(m["rope"])}


@cached(max_entries=1)
def all_strips():
    """Every gallery model's layer strip and name, in gallery order -> {"strips": [[category]], "names": [str],
    "marks": [[mark]], "windows": [[window]]} (one cache hit instead of one per model)."""
    return strips(gallery.KEYS)


def own_entry(config_text, name):
    """A pasted config as a gallery entry named `name` (None when it reads no model): joins a comparison."""
    model = read_pasted(config_text).get("model")
    if model is None:
        return None
    return {**model, "key": "pasted", "name": name, "l_target": model["max_length"] or model["trained"],
            "config_json": config_text}


def chosen(keys, own=None):
    """Gallery entries of keys, then the pasted config's when own = (config text, name) reads a model."""
    pasted = own_entry(*own) if own else None
    return [entry(k) for k in keys] + ([pasted] if pasted else [])


def strips(keys, own=None):
    """The layer strips of some gallery models (and of a pasted config, own = (text, name)) -> {"strips", "names",
    "marks", "windows"} (lists per model)."""
    entries = chosen(keys, own)
    return {"strips": [e["strip"] for e in entries], "names": [e["name"] for e in entries],
            "marks": [e["marks"] for e in entries], "windows": [e["windows"] for e in entries]}


def _pattern(strip):
    """Layer pattern as counts, e.g. {"local": 52, "global": 10}."""
    return {c: strip.count(c) for c in STRIP if c in strip}


SORT_KEYS = ("released", "name", "head_dim", "rotary_dim", "theta", "trained", "max_length")


@cached(max_entries=16)
def table_rows(order="released"):
    """One row per gallery model, sorted by `order` (one of SORT_KEYS): the table of app_pages/models.py
    (plain values; the page labels them)."""
    rows = []
    for key in gallery.KEYS:
        e = entry(key)
        main = e["types"][e["main"]]["params"] if e["main"] else {"rope_type": "—"}
        thetas = sorted({t["params"]["rope_theta"] for t in e["types"].values()}) or [0]
        pairs = e["types"][e["main"]]["pairs"] if e["main"] else 0
        rows.append({"key": key, "name": e["name"], "released": e["released"], "head_dim": e["head_dim"],
                     "rotary_dim": 2 * pairs, "proportional": main["rope_type"] == "proportional",
                     "theta": " / ".join(f"{x:g}" for x in thetas) if e["main"] else "—",
                     "theta_max": thetas[-1], "windows": sorted({w for w in e["windows"] if w}),
                     "scaling": main["rope_type"], "factor": main.get("factor"),
                     "trained": e["trained"], "max_length": e["max_length"], "pattern": _pattern(e["strip"]),
                     "layers": len(e["strip"]), "softmax": e["softmax_scale"], "source": e["source"],
                     "repo": e["repo"]})
    order = order if order in SORT_KEYS else "released"
    sort = "theta_max" if order == "theta" else order
    return sorted(rows, key=lambda r: (r[sort], r["name"]), reverse=order not in ("released", "name"))


@cached(max_entries=32)
def compare(keys, n_distances=600, own=None):
    """Several gallery models (and a pasted config, own = (text, name)) on one axis: wavelengths of the main layer
    type's pairs (x = pair index / number of pairs), trained and maximum lengths, and the q = k = 1 score
    (ones_score) out to the longest maximum length."""
    models = [e for e in chosen(keys, own) if e["main"]]                          # a model without RoPE has no spectrum
    if not models:
        return {"distances": np.zeros(0), "models": []}
    longest = min(MAX_POSITION, max(max(m["max_length"] or 1, m["l_target"]) for m in models))
    r = scaling.log_distances(longest, n_distances)                                   # [R]
    out = []
    for m in models:
        t = m["types"][m["main"]]
        inv = torch.as_tensor(t["inv_freq"])                                          # [r/2]
        lam = scaling.pair_wavelengths(inv[inv > 0]).numpy()                          # [pairs] the pairs that turn
        out.append({"key": m["key"], "name": m["name"], "wavelengths": lam,
                    "x": (np.arange(lam.size) + 0.5) / inv.numel(), "trained": m["trained"],
                    "max_length": min(m["max_length"] or m["trained"], MAX_POSITION),
                    "score": scaling.ones_score(inv, r, t["attention"]).numpy()})
    return {"distances": r.numpy(), "models": out}


# ---------------------------------------------------------------- the live check
def _hf_modules(tc):
    """transformers' modeling module of a text config and its text rotary-embedding class."""
    name = type(tc).__module__.replace(".configuration_", ".modeling_")
    module = importlib.import_module(name)
    classes = [c for n, c in vars(module).items() if isinstance(c, type) and n.endswith("RotaryEmbedding")
               and "Vision" not in n and "Audio" not in n and c.__module__ == module.__name__]
    if not classes:
        return module, None
    return module, next((c for c in classes if "Text" in c.__name__), classes[0])


def _rel(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300))) if a.shape == b.shape else math.inf


def reference_frequencies(config):
    """transformers' own numbers for a config dict: {layer type: (inv_freq, attention_scaling)}
    (+ "<type>:long" for LongRoPE above its original length), from the model's rotary-embedding
    module built on the config (no weights, no download). The reference only: posviz's numbers
    never come from here."""
    hf = rope_config._transformers()
    with rope_config.HF_LOCK:
        tc = hf.AutoConfig.for_model(config["model_type"], **{k: v for k, v in config.items() if k != "model_type"}
                                     ).get_text_config(decoder=True)
        _, cls = _hf_modules(tc)
        if cls is None:
            return {}
        emb = cls(tc)
    out = {}
    if hasattr(emb, "embed_positions"):                       # GPT-J: a sin / cos table
        table = emb.embed_positions[1]                                                # [r]
        half = table.shape[0] // 2
        out["default"] = (torch.atan2(table[:half].double(), table[half:].double()).numpy(), 1.0)
        return out
    if hasattr(emb, "inv_freq"):
        out["default"] = (emb.inv_freq.numpy(), float(emb.attention_scaling))
    for lt in getattr(emb, "layer_types", []) or []:   # per layer type (DeepSeek-V4: per rope kind)
        if hasattr(emb, f"{lt}_inv_freq"):
            out[lt] = (getattr(emb, f"{lt}_inv_freq").numpy(), float(getattr(emb, f"{lt}_attention_scaling")))
    rp = tc.rope_parameters
    if isinstance(rp, dict) and rp.get("rope_type") == "longrope":
        inv, a = hf.modeling_rope_utils.ROPE_INIT_FUNCTIONS["longrope"](
            tc, None, seq_len=rp["original_max_position_embeddings"] + 1)
        out["default:long"] = (inv.numpy(), float(a))
    return out


@cached(max_entries=128)
def transformers_check(config_text):
    """posviz vs transformers for one config: max relative difference over every layer type's
    inv_freq (compared as sorted sets: which pair turns at which one is held to the model at read time) and
    attention factor -> {"version", "max_rel", "rows": [[type, rel_inv, rel_att]]},
    or {"version", "error": text} when transformers cannot build the module."""
    version = rope_config.transformers_version()
    try:
        model = read(config_text)
        cfg = json.loads(config_text)
        if not model["model_type"] or not rope_config.known_model_type(model["model_type"]):
            return {"version": version, "error": "model type unknown to transformers"}
        ref = reference_frequencies(cfg)
    except Exception as e:   # the check is informative: a failure is reported, never raised
        return {"version": version, "error": str(e).splitlines()[0][:200] if str(e) else type(e).__name__}
    if not model["types"] and not ref:                         # no RoPE here, none in transformers either
        return {"version": version, "none": True}
    rows = []
    for key, (inv, a) in ref.items():
        lt, _, long = key.partition(":")
        t = model["types"].get(lt) or model["types"].get(model["main"])
        ours, att = (t["inv_long"], t["attention_long"]) if long else (t["inv_freq"], t["attention"])
        rows.append([key, _rel(np.sort(ours), np.sort(inv)), _rel([att], [a])])   # as sets: ERNIE's buffer is
                                                                                  # stored permuted
    worst = max((max(r[1], r[2]) for r in rows), default=math.inf)
    return {"version": version, "max_rel": worst, "rows": rows}


# ---------------------------------------------------------------- proportional vs partial RoPE
PROP_DIMS = (128, 256, 512)
PROP_FACTORS = (0.125, 0.25, 0.5)
PROP_BASES = (10000, 500000, 1000000, 10000000)
READINGS = ("proportional", "partial")


@cached(max_entries=32)
def proportional_vs_partial(head_dim, factor, base, train_length, n_distances=600):
    r"""The same head (D, p, b) read as proportional RoPE (transformers' "proportional": Gemma 4) and as
    ordinary partial rotary (the misreading) -> per reading: which of the D dims rotate (mask), the k rotated
    pairs' frequencies and wavelengths on x = (i + 1/2)/k, the slowest rotated frequency and its wavelength,
    how many rotated pairs never complete a turn within L_train, and the q = k = 1 score of the whole head
    (the unrotated pairs add a constant) out to L_train.

    Formula:
        \text{proportional: } \theta_i = b^{-2i/D},\qquad \text{partial: } \theta_i = b^{-2i/(pD)},\qquad i < k = pD/2
        \lambda_i = 2\pi/\theta_i,\qquad \text{never a turn} \iff \lambda_i > L_{\mathrm{train}}
    """
    head_dim, train_length = int(head_dim), int(train_length)
    k = scaling.proportional_pairs(head_dim, float(factor))
    r = scaling.log_distances(train_length, n_distances)                              # [R]
    out = {"k": k, "head_dim": head_dim, "distances": r.numpy(), "train_length": train_length}
    for reading, fn in zip(READINGS, (scaling.proportional_inv_freq, scaling.partial_inv_freq)):
        inv = fn(head_dim, float(factor), float(base))                                # [D/2]
        lam = scaling.pair_wavelengths(inv[:k]).numpy()                               # [k]
        out[reading] = {"inv_freq": inv.numpy(), "wavelengths": lam, "x": (np.arange(k) + 0.5) / k,
                        "slowest": float(inv[k - 1]), "longest": float(lam[-1]),
                        "never": int((lam > train_length).sum()),
                        "mask": scaling.rotated_dims(head_dim, float(factor), reading).numpy(),
                        "score": scaling.ones_score(inv, r).numpy()}
    return out


@cached(max_entries=256)
def paste_lengths(config_text):
    """The lengths a pasted config is analysed at -- its own trained and maximum lengths, exactly as a
    gallery model's (posviz.pe.models.own_lengths) -> (l_train, l_target), or None when it cannot be read."""
    r = read_pasted(config_text)
    if r.get("model") is None:
        return None
    m = r["model"]
    rope = rope_config.ModelRope(model_type=m["model_type"], head_dim=m["head_dim"], rotary_dim=m["rotary_dim"],
                                 trained_length=m["trained"], layer_rope=[], rope={}, max_length=m["max_length"])
    return gallery.own_lengths(rope)
