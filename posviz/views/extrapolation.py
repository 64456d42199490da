r"""Views of the extrapolation page: one model's spectrum against the compared scaling methods, and
what a (pasted or gallery) config says per layer type. Plain arguments in; numpy arrays, floats
and dicts out (cached).
"""
import json

import numpy as np
import torch

from posviz.pe import scaling
from posviz.pe.rope_config import COMPRESSED_KINDS
from posviz.validate import MAX_POSITION, PosvizError, check_choice, check_float, check_int
from posviz.views import cached

HEAD_DIMS = (16, 32, 64, 80, 96, 128, 160, 192, 256)
THETAS = (10000.0, 50000.0, 100000.0, 500000.0, 1000000.0, 10000000.0)
FALLBACK = "llama31_8b"
# Layer types with a name in posviz.text (others are shown as they are spelled in the config).
LAYER_TYPES = ("default", "full_attention", "sliding_attention", "chunked_attention")
# Notes of posviz.pe.rope_config the page turns into sentences (text key extrapolation.note.<code>).
NOTE_CODES = ("transformers", "generic", "text_config", "legacy", "head_dim_from", "base_measured", "theta_default",
              "theta_class_default", "ntk_alpha", "partial", "proportional", "rearranged", "reversed", "nope",
              "no_attention", "softmax", "per_type", "window", "mrope_interleaved", "mrope_blocks", "mrope_hw_t",
              "mrope_halves", "query_temperature", "query_beta", "query_power", "values_rotate", "output_rotation",
              "long_limit", "full_run", "ignored", "su")
# What posviz could not follow in a model's code (ModelRope.unverified): text key extrapolation.unverified.<code>.
UNVERIFIED_CODES = ("probe_failed", "unknown_layers", "layouts", "placement", "query_scaling", "mrope_rows",
                    "attention_factor", "attention_unseen", "generic")


def _np(t):
    return t.numpy() if hasattr(t, "numpy") else t


def _ones_scores(curves, distances):
    """scaling.ones_score of several spectra on the same distances -> {name: [R] float64}, bit for bit
    equal to it (tested): each cosine column cos(r theta'_i) is computed once for all spectra, since
    they share many pairs (theta_0 = 1 in every method; YaRN and Llama 3 keep the fast pairs; "model"
    repeats one of the methods). curves: {name: (inv_freq [d/2], attention factor)}."""
    r = torch.as_tensor(distances, dtype=torch.float64).numpy()                      # [R]
    invs = [torch.as_tensor(inv, dtype=torch.float64).numpy() for inv, _ in curves.values()]   # [d/2] each
    values, where = np.unique(np.concatenate(invs), return_inverse=True)             # [U], [sum d/2]
    cos = np.cos(np.multiply.outer(r, values))                                       # [R,U]
    out, start = {}, 0
    for (name, (_, a)), inv in zip(curves.items(), invs):
        a = check_float("attention_factor", a, 0.0, 100.0, lo_open=True)
        cols = where[start:start + inv.size]
        start += inv.size
        block = np.ascontiguousarray(cos[:, cols])                                    # [R,d/2] as ones_score lays it
        out[name] = (a * a * torch.from_numpy(block.mean(axis=1))).numpy()          # [R]: the same sums, same order
    return out


@cached
def spectra(rotary_dim, params_json, train_length, target_length, n_distances=1200):
    """What `analysis` draws that does not depend on its focus method: the trained spectrum theta, each
    compared method's (and the model's own) frequencies and attention factor, and their decay curves.
    -> dict(model (checked parameters), d, theta, curves {method: (inv_freq, attention)}, distances,
    scores {method: [R]})."""
    params = {k: v for k, v in json.loads(params_json).items() if k not in ("partial_rotary_factor", "mrope_section")}
    d, model = scaling.check_rope_parameters(rotary_dim, params)
    train_length = check_int("train_length", train_length, 1, MAX_POSITION)
    target_length = check_int("target_length", target_length, 1, MAX_POSITION)
    base = model["rope_theta"]
    theta, _ = scaling.rope_frequencies(d, {"rope_type": "default", "rope_theta": base})    # [d/2]
    curves = {}
    yarn_like = model if model["rope_type"] == "yarn" else None
    llama_like = model if model["rope_type"] == "llama3" else None
    for m in scaling.SCALING_METHODS:
        if m in ("ntk", "dynamic") and d < 4:
            continue
        p, seq = scaling.method_parameters(m, d, base, train_length, target_length, yarn=yarn_like, llama3=llama_like)
        curves[m] = scaling.rope_frequencies(d, p, seq_len=seq)                      # ([d/2], a)
    seq = target_length if model["rope_type"] in ("dynamic", "longrope") else None
    curves["model"] = scaling.rope_frequencies(d, model, seq_len=seq)               # ([d/2], a)
    r = scaling.log_distances(target_length, n_distances)                           # [R]
    return {"model": model, "d": d, "theta": theta.numpy(), "distances": r.numpy(),
            "curves": {m: (inv.numpy(), a) for m, (inv, a) in curves.items()}, "scores": _ones_scores(curves, r)}


@cached
def analysis(rotary_dim, params_json, train_length, target_length, method="model", n_distances=1200):
    r"""Everything the page's five figures draw, for one spectrum and one focus method.

    Formula:
        \theta_i = b^{-2i/d}\ \text{(trained)},\qquad
            s = L_{\mathrm{target}} / L_{\mathrm{train}}\ \text{(every compared method)}
        \rho_i = \theta'_i / \theta_i,\qquad \text{factor} = \text{the model's own factor (focus "model") or } s

    The trained spectrum is the default RoPE of the model's rope_theta. Every method of
    SCALING_METHODS is evaluated with s; "model" is the model's own rope_parameters (dynamic and
    LongRoPE evaluated at seq_len = L_target). Returns numpy arrays and floats: theta, curves
    {method: (inv_freq, attention)}, ratio, bands, factor (the one the ratio chart divides by),
    s, wavelengths, wavelengths_selected, n_long, seen, needed, never_seen, distances, scores,
    yarn_range, llama3_edges, ntk_base.
    """
    method = check_choice("method", method, scaling.SCALING_METHODS + ("model",))
    sp = spectra(rotary_dim, params_json, train_length, target_length, n_distances)
    d, model, curves = sp["d"], sp["model"], sp["curves"]
    train_length, target_length = int(train_length), int(target_length)
    base = model["rope_theta"]
    theta = torch.from_numpy(sp["theta"])                                            # [d/2]
    if method not in curves:
        raise PosvizError("at_least", name="head_dim", lo=4, got=d)
    s = scaling.comparison_factor(train_length, target_length)
    factor = model.get("factor", 1.0) if method == "model" else s
    if method == "model" and model["rope_type"] in ("dynamic", "longrope"):
        factor = float(theta[-1] / torch.from_numpy(curves["model"][0])[-1])   # effective factor on the slowest pair
    sel = torch.from_numpy(curves[method][0])                                        # [d/2]
    ratio = scaling.frequency_ratio(sel, theta)                                      # [d/2]
    seen, needed, never = scaling.phase_coverage(theta, sel, train_length, target_length)   # [d/2] x3
    yarn_like = model if model["rope_type"] == "yarn" else None
    llama_like = model if model["rope_type"] == "llama3" else None
    yarn_p = yarn_like or scaling.method_parameters("yarn", max(d, 4), base, train_length, target_length)[0]
    yarn_range = scaling.yarn_correction_range(d, scaling.check_rope_parameters(d, yarn_p)[1])
    llama_p = llama_like or scaling.method_parameters("llama3", max(d, 4), base, train_length, target_length)[0]
    lb = scaling.llama3_bands(d, llama_p)                                           # [d/2]
    edges = [i + 0.5 for i in range(d // 2 - 1) if lb[i] != lb[i + 1]]
    lam = scaling.pair_wavelengths(theta)                                            # [d/2]
    bands = scaling.band_of_ratio(ratio, max(1.0, factor))                          # [d/2]
    return {"theta": sp["theta"], "curves": curves,
            "ratio": ratio.numpy(), "bands": bands.numpy(), "band_counts": [int((bands == b).sum()) for b in (0, 1, 2)],
            "factor": float(factor), "s": s, "wavelengths": lam.numpy(),
            "wavelengths_selected": scaling.pair_wavelengths(sel).numpy(), "n_long": int((lam > train_length).sum()),
            "seen": seen.numpy(), "needed": needed.numpy(), "never_seen": never.numpy(), "distances": sp["distances"],
            "scores": sp["scores"], "yarn_range": tuple(float(x) for x in yarn_range), "llama3_edges": edges,
            "ntk_base": scaling.ntk_aware_base(base, s, d) if d >= 4 else base}


@cached
def layer_curves(types_json, target_length, n_distances=900):
    r"""Each layer type's own spectrum and decay on shared axes (Gemma 3's local and global layers,
    LongRoPE's short and long factor sets) -> {"distances", "curves": [[name, inv_freq, score]], "switch"}.

    Formula:
        \frac{(R_m q)^\top (R_{m+r} k)}{d} = a^2\,\frac{1}{d/2}\sum_i \cos(r\,\theta'_i),\qquad r \le w - 1

    types_json: {name: [inv_freq list, attention factor, switch, window]} (from posviz.views.models.read); a
    layer type with a window w meets no distance beyond w − 1: its score stops there (nan after).
    """
    target_length = check_int("target_length", target_length, 1, MAX_POSITION)
    types = json.loads(types_json)
    r = scaling.log_distances(target_length, n_distances)                           # [R]
    out = []
    for name, (inv, a, _, window) in types.items():
        inv = torch.tensor(inv, dtype=torch.float32)                                 # [d/2]
        score = scaling.ones_score(inv, r, a).numpy()                                # [R]
        if window:
            score = np.where(r.numpy() <= window - 1, score, np.nan)                 # [R] beyond the window: unmet
        out.append([name, inv.numpy(), score])
    switch = next((s for _, _, s, _ in types.values() if s), None)
    return {"distances": r.numpy(), "curves": out, "switch": switch}


def has_layer_curves(model):
    """Whether a described model has more than one spectrum to compare (several layer types, or
    LongRoPE's short and long factor sets): the curves of layer_curves(curve_inputs(model))."""
    return len(model["types"]) > 1 or any("inv_long" in t for t in model["types"].values())


def curve_inputs(model):
    """The layer-type curves of a described model (views.models.read / entry) as JSON for
    layer_curves: "<type>", or for LongRoPE "<type>:short" and "<type>:long"."""
    out = {}
    order = [k for k in model["types"] if k != model["main"]] + [model["main"]] * bool(model["main"])   # global last
    for key in order:
        t = model["types"][key]
        switch = t["params"].get("original_max_position_embeddings") if "inv_long" in t else None
        window = t["window"]                                                  # one window for all its layers, or None
        out[key + (":short" if switch else "")] = [np.asarray(t["inv_freq"], dtype=np.float64).tolist(),
                                                  t["attention"], switch, window]
        if "inv_long" in t:
            out[key + ":long"] = [np.asarray(t["inv_long"], dtype=np.float64).tolist(), t["attention_long"], switch,
                                  window]
    return json.dumps(out)


def header_widths(model):
    """What the header says of each layer type's head: (type, q/k width, dims that really turn) -> list; [] for a
    model without RoPE."""
    return [(key, t["attn_dim"], 2 * t["pairs"]) for key, t in model["types"].items()]


def type_rows(model):
    """One row per layer type of a described model: type, layers, rope_type, theta, factor,
    rotated dims (the dims that really turn, of the layer's q/k width), attention factor (short -> long for
    LongRoPE), the layer's attention window ("—" for full attention) -- the page names the columns."""
    rows = []
    for key, t in model["types"].items():
        p = t["params"]
        att = " → ".join(f"{a:.4f}" for a in (t["attention"], t.get("attention_long")) if a is not None)
        rows.append({"type": key, "layers": t["layers"] or "—", "rope_type": p["rope_type"],
                     "theta": f"{p['rope_theta']:g}",
                     "factor": f"{p.get('factor', 1):g}", "rotary": f"{2 * t['pairs']} / {t['attn_dim']}",
                     "attention": att,
                     "window": " / ".join(f"{w:,}" if w else "—" for w in t.get("windows") or [None])})
    return rows


@cached
def window_phases(types_json):
    r"""What an attention window means for the phases a layer meets: per windowed layer type, the distances
    it sees (0 .. w - 1), how many of its pairs complete a turn within them, and the fraction of a turn its
    slowest pair sweeps -> [{"type", "window", "turn", "pairs", "slowest"}].

    Formula:
        r \le w - 1 \;\Rightarrow\; \phi_i \le (w-1)\,\theta_i,\qquad
            \text{a full turn} \iff \lambda_i = 2\pi/\theta_i \le w - 1

    Beyond the window the layer meets no longer distance, so no new phase, however long the sequence.
    types_json: {layer kind: [inv_freq list, window, layers]} (pairs at frequency 0 do not turn, left out).
    """
    out = []
    for key, (inv, window, layers) in json.loads(types_json).items():
        inv = np.asarray(inv, dtype=np.float64)
        inv = inv[inv > 0]
        if not window or inv.size == 0:
            continue
        swept = (window - 1) * inv / (2 * np.pi)                                       # [d/2] turns over 0..w-1
        out.append({"type": key, "window": int(window), "turn": int((swept >= 1).sum()), "pairs": int(inv.size),
                    "slowest": float(min(swept.min(), 1.0)), "layers": int(layers)})
    return out


def window_inputs(model):
    """The windowed layers of a described model, grouped by attention kind (gpt-oss: its sliding layers;
    Mistral 7B: every layer), with their RoPE's frequencies, as JSON for window_phases."""
    groups = {}
    for kind, key, w in zip(model["kinds"], model["layer_rope"], model["windows"]):
        if w and key in model["types"] and kind not in COMPRESSED_KINDS:   # compressed layers see older tokens too
            g = groups.setdefault(kind, [np.asarray(model["types"][key]["inv_freq"], dtype=np.float64).tolist(), w, 0])
            g[2] += 1
    return json.dumps(groups, sort_keys=True)


def custom_params(theta):
    """The custom model's parameters (plain RoPE of base theta) as JSON for `analysis`."""
    return json.dumps({"rope_type": "default", "rope_theta": float(theta)})


def spectrum_inputs(model, layer_type=None):
    r"""(rotary_dim, params_json) of one layer type of a described model for `analysis`.

    Formula:
        \text{proportional } (D, p, b, s):\quad \theta_i = b^{-2i/D}/s = \big(b^{2k/D}\big)^{-2i/(2k)}/s,
            \quad i < k = pD/2

    A proportional layer is analysed over its k turning pairs: exactly an ordinary RoPE of width 2k with
    the base b^{2k/D} (Gemma 4: 10^6^(1/4) ≈ 31.6), linear-scaled by its factor s."""
    t = model["types"][layer_type if layer_type in model["types"] else model["main"]]
    params = {k: v for k, v in t["params"].items() if k not in ("partial_rotary_factor", "mrope_section")}
    if params["rope_type"] == "proportional":
        k, width = t["pairs"], t["rotary_dim"]
        params = {"rope_type": "linear" if params.get("factor", 1) > 1 else "default",
                  "rope_theta": params["rope_theta"] ** (2 * k / width), **({"factor": params["factor"]}
                                                                          if params.get("factor", 1) > 1 else {})}
        return 2 * k, json.dumps(params, sort_keys=True)
    return t["rotary_dim"], json.dumps(params, sort_keys=True)


def proportional_equivalent(model, layer_type):
    """(k turning pairs, their width 2k, base b^(2k/D)) of a proportional layer type (see spectrum_inputs),
    else None."""
    t = model["types"][layer_type]
    if t["params"]["rope_type"] != "proportional":
        return None
    return t["pairs"], 2 * t["pairs"], t["params"]["rope_theta"] ** (2 * t["pairs"] / t["rotary_dim"])


def mrope_sections(section, scheme="blocks"):
    """M-RoPE's pairs per axis as consecutive blocks -> [(first pair, last pair + 1, axis index)]: temporal,
    height, width. Only the "blocks" scheme has blocks (the others alternate pair by pair, or split a pair): []."""
    out, start = [], 0
    for i, n in enumerate(section or [] if scheme == "blocks" else []):
        out.append((start, start + n, i))
        start += n
    return out


def _runs(idx):
    """Indices compactly: arithmetic runs of three or more written "a–b" (step 1) or "a, a+s, …, b"."""
    parts, j = [], 0
    while j < len(idx):
        step = idx[j + 1] - idx[j] if j + 1 < len(idx) else 1
        k = j
        while k + 1 < len(idx) and idx[k + 1] - idx[k] == step:
            k += 1
        if k - j >= 2:
            parts.append(f"{idx[j]}–{idx[k]}" if step == 1 else f"{idx[j]}, {idx[j] + step}, …, {idx[k]}")
        else:
            parts.extend(str(x) for x in idx[j:k + 1])
        j = k + 1
    return "; ".join(parts)


def mrope_axis_pairs(axes):
    """The pairs each M-RoPE axis drives, compactly -> [str, str, str] for time, height, width."""
    return [_runs([i for i, a in enumerate(axes or []) if a == axis]) for axis in (0, 1, 2)]


def mrope_half_rows(rows):
    """XD-RoPE's position rows per pair, compactly: consecutive pairs whose two halves follow the same two rows ->
    [(pairs "a–b", row of the first half, row of the second half)]."""
    out, j = [], 0
    while j < len(rows):
        k = j
        while k + 1 < len(rows) and tuple(rows[k + 1]) == tuple(rows[j]):
            k += 1
        out.append((_runs(list(range(j, k + 1))), int(rows[j][0]), int(rows[j][1])))
        j = k + 1
    return out


def query_curve(kind, params_json, max_position, n=400):
    """The factor a model multiplies its queries by, per position (scaling.query_scale) -> (positions, factor).

    params_json: the query scaling's parameters (ModelRope.query_scaling["params"]) as JSON."""
    max_position = check_int("max_position", max_position, 2, MAX_POSITION)
    p = np.unique(np.round(np.logspace(0, np.log10(max_position), n))).astype(np.int64)   # [P]
    return p, scaling.query_scale(p, kind, json.loads(params_json))
