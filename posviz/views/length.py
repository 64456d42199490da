r"""Views of the "train short, test long" page (app_pages/length.py): the shipped per-bucket results, attention
maps of the shipped tiny models, the T5 last bucket and the RoPE phase-aliasing finder.

Plain arguments in; plain numbers, lists, dicts and numpy arrays out (cached). The page calls one view
per group of controls (`shipped`, `main_plot`, `maps`, `alias_finder`, `entropy_curves`, `t5_far`):
every cache hit costs a fraction of a millisecond, so they bundle the smaller views below them.
"""
import math

import numpy as np
import torch

from posviz.pe.relative import t5_bucket_ranges
from posviz.pe.rope import rope_inv_freq
from posviz.tinylm import evaluate
from posviz.tinylm import model as tiny
from posviz.tinylm.task import make_batch
from posviz.validate import check_int
from posviz.views import cached

VARIANTS = evaluate.VARIANTS
LONG = (128, 256, 512)                 # lengths of the long attention map
ROPE_VARIANTS = ("rope", "rope_pi", "rope_ntk", "rope_yarn")
T5_EXAMPLE = dict(layer=2, head=3, query=500)   # the head the page's T5 narration reads (1-based)


@cached
def shipped():
    """What the page prints from the shipped results.json and MANIFEST.json (no model runs).

    -> dict(buckets, train_length, length, num_sequences, variants (those in results.json), offset,
            config (of the RoPE model: vocab_size, n_layers, n_heads, d_model, rope_base, ...),
            provenance dict(cmd, secs, cpu, n, date)).
    """
    res, man = evaluate.load_results(), tiny.load_manifest()
    runs = man["models"].values()
    return dict(buckets=res["buckets"], train_length=res["train_length"], length=res["length"],
                num_sequences=res["num_sequences"], variants=[v for v in VARIANTS if v in res["variants"]],
                offset=man["models"]["rope"]["offset"], config=man["models"]["rope"]["config"],
                provenance=dict(cmd=man.get("last_command", ""), n=res["num_sequences"], date=man.get("date", ""),
                                secs=f"{sum(r['wall_time_s'] for r in runs):.0f}",
                                cpu=f"{sum(r['cpu_time_s'] for r in runs):.0f}"))


@cached(max_entries=16)
def live(variant):
    """The per-bucket numbers of one variant recomputed now (8 fresh sequences of length 512)."""
    return evaluate.live_evaluate(variant)


@cached
def curves(metric, shown, live_variant=None):
    """{variant: [accuracy or loss per bucket, None = N/A]} for the variants `shown` (a tuple), plus
    "live" (the live recomputation of `live_variant`) if one is given."""
    res = evaluate.load_results()["variants"]
    out = {v: res[v][metric] for v in shown if v in res}
    if live_variant is not None:
        out["live"] = live(live_variant)[metric]
    return out


def chance_level(vocab_size):
    r"""Accuracy of guessing uniformly among the content tokens (token 0 is BOS).

    Formula:
        \mathrm{acc}_\text{chance}=\frac{1}{V-1}
    """
    return 1.0 / max(1, vocab_size - 1)


@cached
def main_plot(metric, shown, live_variant=None):
    """The main plot's numbers: dict(series = curves(metric, shown, live_variant), reference, y_range =
    reference(metric, series))."""
    series = curves(metric, shown, live_variant)
    ref = reference(metric, series)
    return dict(series=series, reference=ref["values"], y_range=ref["y_range"])


@cached
def reference(metric, series):
    """The grey reference line and the y range of the main plot: chance for accuracy; for loss no
    line and 0 .. a little above the largest finite value of `series` ({variant: [value or None]})."""
    if metric == "acc":
        n = len(shipped()["buckets"])
        return dict(values=[chance_level(shipped()["config"]["vocab_size"])] * n, y_range=[-0.02, 1.02])
    vals = [v for ys in series.values() for v in ys if v is not None and math.isfinite(v)]
    top = max(vals) if vals else 1.0
    return dict(values=None, y_range=[0.0, top * 1.05 + 1e-6])


def uniform_entropy(buckets):
    r"""Entropy of uniform causal attention, averaged over each bucket [a, b) of query positions.

    Formula:
        \bar H_b^\text{uniform}=\frac{1}{b-a}\sum_{i=a}^{b-1}\ln(i+1)
    """
    return [float(np.mean(np.log(np.arange(a, b) + 1.0))) for a, b in buckets]


@cached
def entropy_curves(layer, shown):
    """{variant: [attention entropy per bucket, mean over the heads of `layer` (1-based); None = N/A]}
    and "uniform": the entropy of uniform causal attention per bucket."""
    res = evaluate.load_results()
    out = {}
    for v in shown:
        if v not in res["variants"]:
            continue
        heads = res["variants"][v]["entropy"][layer - 1]
        out[v] = [None if any(h[b] is None for h in heads) else sum(h[b] for h in heads) / len(heads)
                  for b in range(len(res["buckets"]))]
    return dict(series=out, uniform=uniform_entropy(res["buckets"]))


@cached(max_entries=8, shared=True)
def attention_heads(variant, length):
    """Attention probabilities of every head on one evaluation sequence, from ONE forward pass ->
    float32 [n_layers, n_heads, L, L] (at most 8 MB). Head for head what evaluate.attention_map returns
    (the same model, position settings and sequence; a test checks every head), so that moving the
    head or layer slider reads a cached map instead of running the model again. Shared, not copied
    on every hit: its readers (figures, offset_weights, far_weight) never write to it."""
    model = tiny.load_model(evaluate.base_method(variant))
    length = check_int("length", length, 8, evaluate.MAX_EVAL_LENGTH)
    kw = evaluate.prepare(model, variant, length)
    try:
        x, _ = make_batch(1, length, vocab_size=model.cfg.vocab_size, seed=evaluate.EVAL_SEED + 7 * 10**6)  # [1,L]
        with torch.no_grad():
            _, maps = model(x, return_attention=True, **kw)                             # n_layers x [1,H,L,L]
    finally:
        model.rope_override = None
    return torch.cat(maps).numpy().astype(np.float32)                                   # [n_layers,H,L,L]


@cached(max_entries=24, shared=True)
def attention(variant, length, layer, head):
    """Attention probabilities of one head (layer, head 0-based) on one evaluation sequence -> float32 [L,L]
    (a slice of attention_heads, shared)."""
    cfg = tiny.load_manifest()["models"][evaluate.base_method(variant)]["config"]
    layer = check_int("layer", layer, 0, cfg["n_layers"] - 1)
    head = check_int("head", head, 0, cfg["n_heads"] - 1)
    return attention_heads(variant, length)[layer, head]


@cached(shared=True)
def maps(variant, short_length, long_length, layer, head):
    """The two attention maps of one head (layer, head 1-based), at the training length and at a longer
    one -> dict(short [l,l], long [L,L]) (the arrays of `attention`, shared)."""
    return dict(short=attention(variant, short_length, layer - 1, head - 1),
                long=attention(variant, long_length, layer - 1, head - 1))


@cached
def t5_last_bucket():
    """First distance i - j of the T5 model's last (shared) bucket, from pe.relative's bucket function
    with the shipped T5 model's own settings (causal, its num_buckets and max_distance)."""
    cfg = tiny.load_manifest()["models"]["t5"]["config"]
    rows = t5_bucket_ranges(bidirectional=False, num_buckets=cfg["t5_num_buckets"],
                            max_distance=cfg["t5_max_distance"])
    return int(rows[-1]["lo"])


@cached
def t5_far():
    """The numbers of the page's T5 narration: the last bucket's first distance D, and the share of the
    attention of query T5_EXAMPLE["query"] (layer, head of T5_EXAMPLE) on keys at least D back, at length 512.
    -> dict(last, share (percent, rounded), layer, head, query)."""
    d = t5_last_bucket()
    ex = T5_EXAMPLE
    a = attention("t5", max(LONG), ex["layer"] - 1, ex["head"] - 1)
    return dict(last=d, share=round(100 * evaluate.far_weight(a, ex["query"], d)), **ex)


@cached
def aliases(target, tol_deg):
    r"""The phase-aliasing finder for the shipped RoPE model: its head_dim and base from MANIFEST.json,
    θ_i = rope_inv_freq(head_dim, base), the fast pairs of its training length, offsets up to 512.

    -> dict(error: float32 [513] e(Δ) in degrees, aliases: [Δ], pairs, wavelengths, train_length,
            max_offset, tol).
    """
    cfg = tiny.load_manifest()["models"]["rope"]["config"]
    inv = rope_inv_freq(cfg["d_model"] // cfg["n_heads"], cfg["rope_base"])       # [d_h/2]
    r = evaluate.phase_aliases(target, inv, cfg["max_length"], max_offset=max(LONG), tol=math.radians(tol_deg))
    return dict(error=np.degrees(np.asarray(r["error"], dtype=np.float64)).astype(np.float32), aliases=r["aliases"],
                pairs=r["pairs"], wavelengths=[round(w, 1) for w in r["wavelengths"]],
                train_length=cfg["max_length"], max_offset=max(LONG), tol=tol_deg)


@cached
def alias_finder(target, tol_deg, length, layer, head):
    """The phase-alias section in one entry: aliases(target, tol_deg) plus its table for the RoPE head
    (layer, head 1-based) on the map of `length` (`table`: alias_table)."""
    return dict(aliases(target, tol_deg), table=alias_table(target, tol_deg, length, layer, head))


@cached
def alias_table(target, tol_deg, length, layer, head):
    """One row per alias Δ of `target`: e(Δ) in degrees, whether the model saw that offset in training,
    and the mean attention weight of the RoPE head (layer, head 1-based) on the diagonal i - j = Δ of the
    map of `length`, over the queries beyond the training range, as text ("—": Δ not on that map).
    -> dict of columns {"offset", "error", "seen", "weight"}."""
    al = aliases(target, tol_deg)
    w = evaluate.offset_weights(attention("rope", length, layer - 1, head - 1), first_query=al["train_length"])
    cols = dict(offset=[], error=[], seen=[], weight=[])
    for d in al["aliases"]:
        cols["offset"].append(d)
        cols["error"].append(round(float(al["error"][d]), 1))
        cols["seen"].append(d < al["train_length"])
        cols["weight"].append("—" if d >= length or math.isnan(float(w[d])) else f"{float(w[d]):.3f}")
    return cols
