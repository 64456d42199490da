r"""Views of the "train short, test long" pages (app_pages/length.py, app_pages/length_today.py): the shipped
per-bucket results over every run (mean and min-max band), the facts the narration is generated from, attention
maps of the shipped tiny models, the T5 last bucket, the RoPE phase-aliasing finder, and for "Today's RoPE,
trained" the frequency readings, scaling with fine-tuning, learned-table variants and positional shortcut.

Plain arguments in; plain numbers, lists, dicts and numpy arrays out (cached). The pages call one view
per group of controls: every cache hit costs a fraction of a millisecond, so they bundle the smaller views
below them.
"""
import math

import numpy as np
import torch

from posviz.pe.relative import t5_bucket_ranges
from posviz.pe.rope import rope_inv_freq
from posviz.tinylm import evaluate, recipes
from posviz.tinylm import model as tiny
from posviz.tinylm.task import make_batch
from posviz.validate import check_choice, check_int
from posviz.views import cached

VARIANTS = evaluate.VARIANTS           # the main chart's choices
SHOWN = ("nope", "sinusoidal", "learned_clamp", "rope", "alibi", "t5")   # the main chart's default
LONG = (128, 256, 512)                 # lengths of the long attention map
ROPE_VARIANTS = ("rope", "rope_pi", "rope_ntk", "rope_yarn")
T5_EXAMPLE = dict(layer=2, head=3, query=500)   # the head the page's T5 narration reads (1-based)
HOLD = 0.9                             # "holds": every seed at least 90 % correct
SEEDS = recipes.SEEDS


@cached
def shipped():
    """What the pages print from the shipped results.json and MANIFEST.json (no model runs).

    -> dict(buckets, train_length, length, num_sequences, variants (those in results.json), offset, seeds,
            config (of the RoPE model: vocab_size, n_layers, n_heads, d_model, rope_base, ...),
            provenance dict(cmd, secs, cpu, timed, kept, n, date, per, runs, load): timed, the runs the last
            command trained and timed (cpu: their CPU seconds); kept, those it kept from an earlier command).
    """
    res, man = evaluate.load_results(), tiny.load_manifest()
    runs = [r for m in man["models"].values() for r in m["runs"].values()]
    load = man.get("load_average") or {}
    return dict(buckets=res["buckets"], train_length=res["train_length"], length=res["length"],
                num_sequences=res["num_sequences"], seeds=list(man["seeds"]),
                variants=[v for v in evaluate.ALL_VARIANTS if v in res["variants"]],
                offset=man["models"]["rope"]["offset"], config=man["models"]["rope"]["config"],
                provenance=dict(cmd=man.get("last_command", ""), n=res["num_sequences"], date=man.get("date", ""),
                                secs=f"{man.get('total_wall_time_s', man.get('last_wall_time_s', 0)):.0f}",
                                cpu=f"{sum(r['cpu_time_s'] or 0 for r in runs if not r.get('kept')):.0f}",
                                runs=len(runs), timed=sum(not r.get("kept") for r in runs),
                                kept=sum(bool(r.get("kept")) for r in runs),
                                per=len(man["seeds"]),
                                load=" / ".join(f"{x:.1f}" for x in (load.get("start") or [])[:1]
                                                + (load.get("end") or [])[:1])))


@cached(max_entries=16)
def live(variant):
    """The per-bucket numbers of one variant (its seed-0 run) recomputed now (8 fresh sequences of length 512)."""
    return evaluate.live_evaluate(variant)


def _summary(variant, metric):
    return evaluate.load_results()["variants"][variant][metric]


@cached
def curves(metric, shown, live_variant=None):
    """{variant: [mean over the seeds of accuracy or loss per bucket, None = N/A]} for the variants `shown`
    (a tuple), plus "live" (the live recomputation of `live_variant`'s seed-0 run) if one is given."""
    res = evaluate.load_results()["variants"]
    out = {v: res[v][metric]["mean"] for v in shown if v in res}
    if live_variant is not None:
        out["live"] = live(live_variant)[metric]
    return out


@cached
def bands(metric, shown):
    """{variant: [[min over the seeds per bucket], [max per bucket]]} for the variants `shown`."""
    res = evaluate.load_results()["variants"]
    return {v: [res[v][metric]["min"], res[v][metric]["max"]] for v in shown if v in res}


def chance_level(vocab_size):
    r"""Accuracy of guessing uniformly among the content tokens (token 0 is BOS).

    Formula:
        \mathrm{acc}_\text{chance}=\frac{1}{V-1}
    """
    return 1.0 / max(1, vocab_size - 1)


@cached
def main_plot(metric, shown, live_variant=None):
    """A bucket chart's numbers: dict(series = curves(metric, shown, live_variant) (the means), bands =
    bands(metric, shown), reference, y_range = reference(metric, series and bands))."""
    series = curves(metric, shown, live_variant)
    band = bands(metric, shown)
    ref = reference(metric, {**series, **{f"{v} max": b[1] for v, b in band.items()}})
    return dict(series=series, bands=band, reference=ref["values"], y_range=ref["y_range"])


@cached
def reference(metric, series):
    """The grey reference line and the y range of a bucket chart: chance for accuracy; for loss no
    line and 0 .. a little above the largest finite value of `series` ({variant: [value or None]})."""
    if metric == "acc":
        n = len(shipped()["buckets"])
        return dict(values=[chance_level(shipped()["config"]["vocab_size"])] * n, y_range=[-0.02, 1.02])
    vals = [v for ys in series.values() for v in ys if v is not None and math.isfinite(v)]
    top = max(vals) if vals else 1.0
    return dict(values=None, y_range=[0.0, top * 1.05 + 1e-6])


# ---------------------------------------------------------------- facts the narration is generated from
def pct(x):
    """0.9634 -> 96 (a percentage as the text prints it)."""
    return None if x is None else int(math.floor(100 * x + 0.5))


def pct_lo(x):
    """The low end of a band as the text prints it: rounded down (0.8962 -> 89), so a printed band always holds
    the runs' band and never contradicts a sentence about it ("some run below 90 %" beside "90–96" read wrong)."""
    return None if x is None else int(math.floor(100 * x + 1e-9))


def pct_hi(x):
    """The high end of a band as the text prints it: rounded up (0.9601 -> 97; 0.96 stays 96)."""
    return None if x is None else int(math.ceil(100 * x - 1e-9))


def band_text(mean, lo, hi):
    """"mean (lo–hi)" in percent: the mean rounded, the band's ends rounded outwards (pct_lo, pct_hi)."""
    return f"{pct(mean)} ({pct_lo(lo)}–{pct_hi(hi)})"


def touches(lo, hi, level, noise=0.0):
    """The band [lo, hi] reaches `level` within `noise` (the only case the text may call "chance")."""
    return lo is not None and lo <= level + noise and hi >= level - noise


def chance_noise(p, count):
    r"""Sampling noise of one bucket's accuracy at chance: two standard errors of the share of `count` answers
    that a uniform guess gets right.

    Formula:
        \varepsilon_b=2\sqrt{\frac{p\,(1-p)}{n_b}},\qquad p=\frac{1}{V-1},\ n_b=\#\{\text{answers in bucket } b\}
    """
    return 2.0 * math.sqrt(p * (1.0 - p) / max(1, count))


@cached
def facts(variant, metric="acc"):
    r"""What the text may say about one variant's accuracy per bucket, read off its seeds.

    -> dict(mean, lo, hi (percent per bucket, None = N/A), chance (per bucket: the band touches 1/(V-1) within
            the sampling noise chance_noise of the bucket's answers),
            hold_to (last position up to which every seed is >= HOLD in every bucket, -1: not even the first),
            chance_from (first bucket index from which every band touches chance; None: never),
            widest (bucket index of the widest band), seeds (number of runs)).
    """
    s = _summary(variant, metric)
    info = shipped()
    chance = chance_level(info["config"]["vocab_size"])
    buckets = info["buckets"]
    count = evaluate.load_results()["variants"][variant]["count"]
    at = [touches(lo, hi, chance, chance_noise(chance, n)) for lo, hi, n in zip(s["min"], s["max"], count)]
    hold_to = -1
    for (_, b), lo in zip(buckets, s["min"]):
        if lo is None or lo < HOLD:
            break
        hold_to = b - 1
    chance_from = next((b for b in range(len(at)) if all(at[b:])), None)
    widths = [(-1 if lo is None else hi - lo) for lo, hi in zip(s["min"], s["max"])]
    return dict(mean=[pct(v) for v in s["mean"]], lo=[pct_lo(v) for v in s["min"]], hi=[pct_hi(v) for v in s["max"]],
                chance=at, hold_to=hold_to, chance_from=chance_from, widest=int(np.argmax(widths)),
                seeds=len(s["seeds"]), noise=[chance_noise(chance, n) for n in count])


@cached
def order(a, b, metric="acc"):
    """Per bucket, how the bands of variants a and b lie: 1 = every seed of a above every seed of b,
    -1 = every seed of a below every seed of b, 0 = the bands overlap (no ordering), None = N/A."""
    sa, sb = _summary(a, metric), _summary(b, metric)
    out = []
    for la, ha, lb, hb in zip(sa["min"], sa["max"], sb["min"], sb["max"]):
        out.append(None if None in (la, lb) else 1 if la > hb else -1 if ha < lb else 0)
    return out


def bucket_name(b):
    """Bucket index -> "64–127"."""
    lo, hi = shipped()["buckets"][b]
    return f"{lo}–{hi - 1}"


@cached
def finding_lines(variants):
    """The findings under the main chart, one line per variant, as text keys and their numbers (generated
    from `facts`, so the words follow the numbers) -> [(variant, [(key, params), ...])]."""
    out = []
    for v in variants:
        f = facts(v)
        seq = " → ".join("N/A" if m is None else f"{m}" for m in f["mean"])
        parts = [("length.f.seq", {"seq": seq})]
        if f["hold_to"] >= 0:
            parts.append(("length.f.hold", {"pos": f["hold_to"]}))
        else:
            parts.append(("length.f.nohold", {}))
        n_valid = sum(m is not None for m in f["mean"])
        if f["chance_from"] is not None:
            parts.append(("length.f.chance", {"bucket": bucket_name(f["chance_from"])}))
        elif n_valid < len(f["mean"]):
            parts.append(("length.f.na", {"pos": shipped()["train_length"] - 1}))
        elif any(f["chance"]):
            parts.append(("length.f.touch", {"buckets": _bucket_list([b for b, t in enumerate(f["chance"]) if t])}))
        else:
            runs = _summary(v, "acc")
            level = chance_level(shipped()["config"]["vocab_size"])
            below = [b for b in range(len(f["mean"])) if runs["max"][b] < level - f["noise"][b]]
            low = min(range(len(f["mean"])), key=lambda b: runs["min"][b])     # the runs' numbers, not rounded ones
            parts.append(("length.f.below", {"buckets": _bucket_list(below)}) if below else
                         ("length.f.above", {"lo": f"{100 * runs['min'][low]:.1f}", "bucket": bucket_name(low)}))
        w = f["widest"]
        if f["hi"][w] is not None and f["hi"][w] - f["lo"][w] >= 10:
            parts.append(("length.f.spread", {"lo": f["lo"][w], "hi": f["hi"][w], "bucket": bucket_name(w)}))
        out.append((v, parts))
    return out


@cached
def seed_table(variants, metric="acc"):
    """Mean and spread over the seeds per variant and bucket, as the page's table prints them:
    "96 (91–99)" in percent ("N/A" where not computable) -> dict(buckets: ["0–63", ...], rows: {variant: [cell]})."""
    rows = {}
    for v in variants:
        s = _summary(v, metric)
        if metric == "acc":
            rows[v] = ["N/A" if m is None else band_text(m, lo, hi)
                       for m, lo, hi in zip(s["mean"], s["min"], s["max"])]
        else:
            rows[v] = ["N/A" if m is None else f"{m:.2f} ({lo:.2f}–{hi:.2f})"
                       for m, lo, hi in zip(s["mean"], s["min"], s["max"])]
    return dict(buckets=[bucket_name(b) for b in range(len(shipped()["buckets"]))], rows=rows)


# ---------------------------------------------------------------- entropy
def uniform_entropy(buckets):
    r"""Entropy of uniform causal attention, averaged over each bucket [a, b) of query positions.

    Formula:
        \bar H_b^\text{uniform}=\frac{1}{b-a}\sum_{i=a}^{b-1}\ln(i+1)
    """
    return [float(np.mean(np.log(np.arange(a, b) + 1.0))) for a, b in buckets]


@cached
def entropy_curves(layer, shown):
    """{variant: [attention entropy per bucket, mean over the heads of `layer` (1-based) and over the seeds;
    None = N/A]}, "bands": {variant: [min over the seeds, max]} of the head means, and "uniform": the
    entropy of uniform causal attention per bucket."""
    res = evaluate.load_results()
    series, band = {}, {}
    for v in shown:
        if v not in res["variants"]:
            continue
        runs = []
        for seed_ent in res["variants"][v]["entropy"]:
            heads = seed_ent[layer - 1]
            runs.append([None if any(h[b] is None for h in heads) else sum(h[b] for h in heads) / len(heads)
                         for b in range(len(res["buckets"]))])
        s = evaluate.summary(runs)
        series[v], band[v] = s["mean"], [s["min"], s["max"]]
    return dict(series=series, bands=band, uniform=uniform_entropy(res["buckets"]))


# ---------------------------------------------------------------- attention maps
@cached(max_entries=8, shared=True)
def attention_heads(variant, length, run=0):
    """Attention probabilities of every head on one evaluation sequence, from ONE forward pass ->
    float32 [n_layers, n_heads, L, L] (at most 8 MB). Head for head what evaluate.attention_map returns
    (the same run, position settings and sequence; a test checks every head), so that moving the
    head or layer slider reads a cached map instead of running the model again. Shared, not copied
    on every hit: its readers (figures, offset_weights, far_weight) never write to it."""
    model = tiny.load_model(evaluate.base_method(variant), run)
    length = check_int("length", length, 8, evaluate.MAX_EVAL_LENGTH)
    net, kw = evaluate.prepare(model, variant, length)
    try:
        x, _ = make_batch(1, length, vocab_size=model.cfg.vocab_size, seed=evaluate.EVAL_SEED + 7 * 10**6)  # [1,L]
        with torch.no_grad():
            _, maps = net(x, return_attention=True, **kw)                               # n_layers x [1,H,L,L]
    finally:
        model.rope_override = None
    return torch.cat(maps).numpy().astype(np.float32)                                   # [n_layers,H,L,L]


@cached(max_entries=24, shared=True)
def attention(variant, length, layer, head, run=0):
    """Attention probabilities of one head (layer, head 0-based) on one evaluation sequence -> float32 [L,L]
    (a slice of attention_heads, shared)."""
    cfg = tiny.load_manifest()["models"][evaluate.base_method(variant)]["config"]
    layer = check_int("layer", layer, 0, cfg["n_layers"] - 1)
    head = check_int("head", head, 0, cfg["n_heads"] - 1)
    return attention_heads(variant, length, run)[layer, head]


@cached(shared=True)
def maps(variant, short_length, long_length, layer, head, run=0):
    """The two attention maps of one head (layer, head 1-based), at the training length and at a longer
    one -> dict(short [l,l], long [L,L]) (the arrays of `attention`, shared)."""
    return dict(short=attention(variant, short_length, layer - 1, head - 1, run),
                long=attention(variant, long_length, layer - 1, head - 1, run))


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
    attention of query T5_EXAMPLE["query"] (layer, head of T5_EXAMPLE, seed-0 run) on keys at least D back, at
    length 512. -> dict(last, share (percent, rounded), layer, head, query)."""
    d = t5_last_bucket()
    ex = T5_EXAMPLE
    a = attention("t5", max(LONG), ex["layer"] - 1, ex["head"] - 1)
    return dict(last=d, share=round(100 * evaluate.far_weight(a, ex["query"], d)), **ex)


# ---------------------------------------------------------------- phase aliases
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
def alias_finder(target, tol_deg, length, layer, head, run=0):
    """The phase-alias section in one entry: aliases(target, tol_deg) plus its table for the RoPE head
    (layer, head 1-based) on the map of `length` (`table`: alias_table)."""
    return dict(aliases(target, tol_deg), table=alias_table(target, tol_deg, length, layer, head, run),
                strongest=strongest_offsets(target, tol_deg, length, layer, head, run))


STRONGEST = 3      # how many of the map's strongest offsets past training the alias section names


@cached
def strongest_offsets(target, tol_deg, length, layer, head, run=0):
    """The STRONGEST offsets Δ >= the training length with the most mean attention (offset_weights over the
    queries past the training range) on the RoPE head's map of `length`, strongest first, each with whether it
    is an alias of `target` -> [(Δ, weight rounded to 3 places, is_alias)]."""
    al = aliases(target, tol_deg)
    w = evaluate.offset_weights(attention("rope", length, layer - 1, head - 1, run), first_query=al["train_length"])
    far = [(float(w[d]), d) for d in range(al["train_length"], length) if not math.isnan(float(w[d]))]
    return [(d, round(x, 3), d in al["aliases"]) for x, d in sorted(far, reverse=True)[:STRONGEST]]


@cached
def alias_table(target, tol_deg, length, layer, head, run=0):
    """One row per alias Δ of `target`: e(Δ) in degrees, whether the model saw that offset in training,
    and the mean attention weight of the RoPE head (layer, head 1-based) on the diagonal i - j = Δ of the
    map of `length`, over the queries beyond the training range, as text ("—": Δ not on that map).
    -> dict of columns {"offset", "error", "seen", "weight"}."""
    al = aliases(target, tol_deg)
    w = evaluate.offset_weights(attention("rope", length, layer - 1, head - 1, run), first_query=al["train_length"])
    cols = dict(offset=[], error=[], seen=[], weight=[])
    for d in al["aliases"]:
        cols["offset"].append(d)
        cols["error"].append(round(float(al["error"][d]), 1))
        cols["seen"].append(d < al["train_length"])
        cols["weight"].append("—" if d >= length or math.isnan(float(w[d])) else f"{float(w[d]):.3f}")
    return cols


# ---------------------------------------------------------------- "Today's RoPE, trained" (app_pages/length_today.py)
FRONTIER = evaluate.FRONTIER
SCALING = evaluate.SCALING
TABLE = evaluate.TABLE_VARIANTS
SHORTCUT = evaluate.SHORTCUT


@cached
def verdict(variant):
    """Whether a variant extrapolates on the copy task, read off every seed: "holds" (every seed >= HOLD in
    every bucket up to 511), "partly" (every seed >= HOLD in the first bucket past training, not all the way),
    "fails" (some seed below HOLD right after training) -> dict(word, hold_to, next (mean, lo, hi of the
    first bucket past training), last (mean, lo, hi of the last bucket))."""
    f = facts(variant)
    end = shipped()["buckets"][-1][1] - 1
    train = shipped()["train_length"]
    word = "holds" if f["hold_to"] >= end else "partly" if f["hold_to"] >= 2 * train - 1 else "fails"
    return dict(word=word, hold_to=f["hold_to"], first=f["mean"][0], next=[f["mean"][1], f["lo"][1], f["hi"][1]],
                last=[f["mean"][-1], f["lo"][-1], f["hi"][-1]])


@cached
def verdict_table(variants):
    """One row per variant for the variants' table -> dict of columns {"variant", "word", "first", "next", "last",
    "hold_to", "chance"} ("first": the mean in 0–63; "next"/"last": "mean (min–max)" in percent; "chance": the
    bucket from which the runs' band reaches chance, "—" if it never does)."""
    cols = dict(variant=[], word=[], first=[], next=[], last=[], hold_to=[], chance=[])
    for v in variants:
        r = verdict(v)
        cols["variant"].append(v)
        cols["word"].append(r["word"])
        cols["first"].append(r["first"])
        cols["next"].append("{} ({}–{})".format(*r["next"]))
        cols["last"].append("{} ({}–{})".format(*r["last"]))
        cols["hold_to"].append(r["hold_to"])
        at = facts(v)["chance_from"]
        cols["chance"].append("—" if at is None else bucket_name(at))
    return cols


def _freq():
    return evaluate.load_results()["frequencies"]["rope"]


@cached
def pair_use(run):
    """The frequency readings of one RoPE run (its seed): per head, the share of each pair in the size of the
    score at offsets seen in training (0..63) and never seen (>= 64), the head's diagonal, and each pair's
    wavelength -> dict(shares [2][n_layers*H][d/2] percent, heads ["L1 H1", ...], diag_offset, diag_weight
    [n_layers*H], wavelengths [d/2], fast [d/2] (wavelength <= training length))."""
    fr = _freq()
    check_choice("run", run, tuple(fr["seeds"]))
    r = fr["runs"][fr["seeds"].index(run)]
    sh = np.asarray(r["shares"], dtype=np.float64)                                   # [layers,H,2,d/2]
    n_layers, n_heads = sh.shape[:2]
    inv = np.asarray(r["inv_freq"], dtype=np.float64)
    waves = [float(2 * math.pi / f) for f in inv]
    train = shipped()["train_length"]
    return dict(shares=[(100 * sh[:, :, k, :].reshape(n_layers * n_heads, -1)).astype(np.float32) for k in (0, 1)],
                heads=[f"L{a + 1} H{b + 1}" for a in range(n_layers) for b in range(n_heads)],
                diag_offset=[int(o) for row in r["diag_offset"] for o in row],
                diag_weight=[float(w) for row in r["diag_weight"] for w in row],
                wavelengths=waves, fast=[w <= train for w in waves])


POSITIONAL = 0.5     # a head with at least half its weight on one offset is a positional head


@cached
def frequency_summary():
    r"""The frequency finding over every seed: the share of the fast pairs (wavelength <= training length) in
    the score of the positional heads (>= POSITIONAL of their weight on one offset) and of the other heads, at
    offsets seen and unseen, and the rotation ablation.

    -> dict(pos (per region: mean, lo, hi of the fast share in percent over the runs' positional heads),
            other (the same for the other heads), n_pos, n_other (heads counted over all runs), fast_pairs,
            ablation: dict(mean, lo, hi: [d/2][B] accuracy percent with pair i unrotated; base likewise [B]),
            offsets: the positional heads' offsets).
    """
    fr = _freq()
    pos, other, offsets = [[], []], [[], []], []
    for r in fr["runs"]:
        sh = np.asarray(r["shares"], dtype=np.float64)                               # [layers,H,2,d/2]
        fast = np.asarray([2 * math.pi / f <= shipped()["train_length"] for f in r["inv_freq"]])
        for layer in range(sh.shape[0]):
            for head in range(sh.shape[1]):
                is_pos = r["diag_weight"][layer][head] >= POSITIONAL
                for k in (0, 1):
                    (pos if is_pos else other)[k].append(100 * sh[layer, head, k, fast].sum())
                if is_pos:
                    offsets.append(r["diag_offset"][layer][head])

    def stat(xs):
        return None if not xs else [round(float(np.mean(xs))), round(float(min(xs))), round(float(max(xs)))]

    abl = np.asarray([r["ablation"]["removed"] for r in fr["runs"]], dtype=np.float64) * 100   # [S,d/2,B]
    base = np.asarray([r["ablation"]["base"] for r in fr["runs"]], dtype=np.float64) * 100     # [S,B]
    cost = base[:, None, :] - abl                                                               # [S,d/2,B]
    slow_share = [[100 - x for x in xs] for xs in other]       # the other heads' slow pairs, per head
    return dict(pos=[stat(x) for x in pos], other=[stat(x) for x in other], n_pos=len(pos[0]),
                other_slow=[stat(x) for x in slow_share], other_slow_max=[float(max(x)) for x in slow_share],
                cost=dict(max=cost.max(0).round(1).tolist()),     # [d/2][B]: the most one pair's removal cost a run
                n_other=len(other[0]), fast_pairs=[i for i, f in enumerate(fast) if f], offsets=sorted(set(offsets)),
                ablation=dict(mean=abl.mean(0).round(1).tolist(), lo=abl.min(0).round(1).tolist(),
                              hi=abl.max(0).round(1).tolist(), base=base.mean(0).round(1).tolist(),
                              base_lo=base.min(0).round(1).tolist(), base_hi=base.max(0).round(1).tolist()))


@cached
def marker_curves(shown):
    """The positional-shortcut chart: accuracy per marker position for the marker-task runs `shown`,
    mean and min-max band over the seeds -> dict(positions, series {run: mean}, bands {run: [min, max]},
    trained_at {run: position or None}, chance)."""
    res = evaluate.load_results()["marker"]
    info = tiny.load_manifest()["models"]
    series = {r: res[r]["acc"]["mean"] for r in shown if r in res}
    band = {r: [res[r]["acc"]["min"], res[r]["acc"]["max"]] for r in shown if r in res}
    first = next(iter(res.values()))
    return dict(positions=first["positions"], series=series, bands=band,
                trained_at={r: res[r]["trained_at"] for r in series},
                chance=chance_level(info["short_learned"]["config"]["vocab_size"] - 1))


@cached
def marker_facts(run):
    """What the text says about one marker-task run: accuracy (percent, mean and min-max) with the marker at the
    trained position and averaged over every other position -> dict(at, elsewhere: [mean, lo, hi], trained_at)."""
    r = evaluate.load_results()["marker"][run]
    pos, acc = r["positions"], r["acc"]
    at = r["trained_at"] if r["trained_at"] is not None else pos[0]
    k = pos.index(at)
    other = [i for i in range(len(pos)) if i != k]
    per_seed = [sum(s[i] for i in other) / len(other) for s in acc["seeds"]]
    return dict(at=[pct(acc["mean"][k]), pct_lo(acc["min"][k]), pct_hi(acc["max"][k])],
                elsewhere=[pct(sum(per_seed) / len(per_seed)), pct_lo(min(per_seed)), pct_hi(max(per_seed))],
                trained_at=r["trained_at"])


def _bucket_list(idx):
    """Bucket indices -> "64–127, 128–191" ("" for none)."""
    return ", ".join(bucket_name(b) for b in idx)


@cached
def pair_scales():
    r"""What NTK-aware and YaRN do to the shipped RoPE model's pairs at the main chart's s = L_eval / L_train (the
    frequencies rope_override gives them): each pair's θ′ᵢ/θᵢ, and how many pairs, from pair 0 on, keep their
    speed (a ratio of 1 to 1e-6) -> dict(s, pairs, ratios {variant: [d/2] floats}, kept {variant: int},
    pi_offset: what an offset of 2 tokens becomes under PI)."""
    info = shipped()
    cfg = info["config"]
    head_dim = cfg["d_model"] // cfg["n_heads"]
    theta = rope_inv_freq(head_dim, cfg["rope_base"]).double()                         # [d/2]
    s = info["length"] / info["train_length"]
    ratios, kept = {}, {}
    for v in ("rope_ntk", "rope_yarn"):
        inv, _ = evaluate.rope_override(v, head_dim, cfg["rope_base"], info["train_length"], info["length"])
        r = (torch.as_tensor(inv, dtype=torch.float64) / theta).tolist()              # [d/2]
        ratios[v] = r
        kept[v] = next((i for i, x in enumerate(r) if x < 1 - 1e-6), len(r))
    return dict(s=s, pairs=len(theta), ratios=ratios, kept=kept, pi_offset=2 / s)


def _kept_words(n):
    """The pairs kept, from pair 0 on, as the literature clause names them -> (text key, params)."""
    return ("length.lit.kept_none", {}) if n == 0 else ("length.lit.kept_one", {}) if n == 1 else \
        ("length.lit.kept_some", {"last": n - 1})


@cached
def literature():
    """The computed clauses of the literature paragraph -> {placeholder: (text key, params)}: how sinusoidal,
    RoPE and ALiBi are ordered per bucket past training (bands apart or not), T5 against RoPE, NoPE past training,
    the three scalings without fine-tuning (`clause`)."""
    past = range(1, len(shipped()["buckets"]))
    a, b = order("rope", "sinusoidal"), order("alibi", "rope")
    both = [k for k in past if a[k] == 1 and b[k] == 1]
    if len(both) == len(past):
        press = ("length.lit.order_all", {})
    elif both:
        press = ("length.lit.order_some", {"buckets": _bucket_list(both)})
    else:
        press = ("length.lit.order_none", {})
    t = order("t5", "rope")
    above = [k for k in past if t[k] == 1]
    below = [k for k in past if t[k] == -1]
    over = [k for k in past if t[k] == 0]
    f5 = facts("t5")
    if len(above) == len(past):
        t5 = ("length.lit.t5_slower", {"last": f5["mean"][-1]})
    elif len(below) == len(past):
        t5 = ("length.lit.t5_faster", {"last": f5["mean"][-1]})
    elif len(over) == len(past):
        t5 = ("length.lit.t5_overlap", {})
    else:
        t5 = ("length.lit.t5_mixed", {"above": _bucket_list(above) or "—", "below": _bucket_list(below) or "—",
                                      "overlap": _bucket_list(over) or "—"})
    fn = facts("nope")
    if fn["chance_from"] is not None:
        nope = ("length.lit.nope_chance", {"next": fn["mean"][1], "lo": fn["lo"][1], "hi": fn["hi"][1],
                                           "bucket": bucket_name(fn["chance_from"])})
    else:
        nope = ("length.lit.nope_above", {"next": fn["mean"][1], "lo": fn["lo"][1], "hi": fn["hi"][1],
                                          "last": fn["mean"][-1], "last_lo": fn["lo"][-1]})
    sc = pair_scales()
    first = {v: " / ".join(f"{x:.3g}" for x in sc["ratios"][v][:3]) for v in sc["ratios"]}
    scaled = ("length.lit.scaled", {"s": f"{sc['s']:g}", "pairs": sc["pairs"], "pi_offset": f"{sc['pi_offset']:g}",
                                    "ntk_first": first["rope_ntk"], "yarn_first": first["rope_yarn"],
                                    "slowest": f"1/{sc['s']:g}"})
    return dict(press=press, t5=t5, nope=nope, pi=clause("rope_pi"), ntk=clause("rope_ntk"), yarn=clause("rope_yarn"),
                scaled=scaled, ntk_kept=_kept_words(sc["kept"]["rope_ntk"]),
                yarn_kept=_kept_words(sc["kept"]["rope_yarn"]))


@cached
def verdict_groups(variants):
    """Today's RoPE variants by verdict -> {"holds": [variant], "partly": [...], "fails": [...]}."""
    out = {"holds": [], "partly": [], "fails": []}
    for v in variants:
        out[verdict(v)["word"]].append(v)
    return out


def _span(variant, first, last):
    """Mean accuracy over buckets first..last (inclusive) of each run, as "mean (min–max)" percent."""
    runs = _summary(variant, "acc")["seeds"]
    per = [sum(r[first:last + 1]) / (last - first + 1) for r in runs]
    return f"{pct(sum(per) / len(per))} % ({pct_lo(min(per))}–{pct_hi(max(per))})"


@cached
def scaling_words():
    """The scaling section's numbers: each variant's mean accuracy over the target length 0..255 and over
    256..511, per run summarised as "mean (min–max)" -> {"<variant>": ..., "<variant>_far": ...}."""
    target = recipes.SCALE_LENGTH // (shipped()["buckets"][0][1])          # buckets inside the target length
    last = len(shipped()["buckets"]) - 1
    out = {}
    for v in SCALING:
        out[v] = _span(v, 0, target - 1)
        out[f"{v}_far"] = _span(v, target, last)
    return out


@cached
def table_words():
    """The learned-table section's numbers: clamped, modulo and enlarged tables over 64..255 ("mean (min–max)"),
    the enlarged table's rows, and the training-range accuracy of the plain table."""
    return dict(clamp=_span("learned_clamp", 1, 3), mod=_span("learned_mod", 1, 3), grow=_span("learned_grow", 1, 3),
                train=_span("learned", 0, 0), rows=evaluate.GROW_ROWS)


@cached
def shortcut_words():
    """The shortcut section's numbers: for each marker-task run, the accuracy at its training position and
    elsewhere ("mean % (min–max)")."""
    out = {}
    for r in SHORTCUT:
        f = marker_facts(r)
        out[f"{r}_at"] = "{} % ({}–{})".format(*f["at"])
        out[f"{r}_else"] = "{} % ({}–{})".format(*f["elsewhere"])
    return out


@cached
def frequency_words():
    """The frequency finding's numbers (frequency_summary) as the text prints them."""
    s = frequency_summary()
    ab = s["ablation"]
    fast = s["fast_pairs"]
    slow = [i for i in range(len(ab["mean"])) if i not in fast]

    def f(x):
        return "—" if x is None else "{} % ({}–{})".format(*x)

    worst_fast = min(fast, key=lambda i: ab["mean"][i][0])
    best_slow = min(slow, key=lambda i: ab["mean"][i][0])          # the slow pair whose removal costs most
    far_slow = max(slow, key=lambda i: s["cost"]["max"][i][1])      # ... a run in 64–127
    return dict(n_pos=s["n_pos"], n_other=s["n_other"], runs=len(_freq()["runs"]),
                offsets=", ".join(str(o) for o in s["offsets"]), fast=f"{fast[0]}–{fast[-1]}",
                pos_seen=f(s["pos"][0]), pos_unseen=f(s["pos"][1]), other_seen=f(s["other"][0]),
                other_unseen=f(s["other"][1]), worst_fast=worst_fast,
                worst_fast_acc="{:.0f} % ({:.0f}–{:.0f})".format(ab["mean"][worst_fast][0], ab["lo"][worst_fast][0],
                                                                ab["hi"][worst_fast][0]),
                slow_min="{:.0f} %".format(min(ab["lo"][i][0] for i in slow)), best_slow=best_slow,
                worst_fast_mean="{:.0f} %".format(ab["mean"][worst_fast][0]),
                slow_mean_min="{:.0f} %".format(min(ab["mean"][i][0] for i in slow)),
                base="{:.0f} %".format(ab["base"][0]), other_slow=f(s["other_slow"][0]),
                slow_cost_seen="{:.1f}".format(max(s["cost"]["max"][i][0] for i in slow)),
                far_slow=far_slow, far_cost="{:.0f}".format(s["cost"]["max"][far_slow][1]),
                even_fast=f"{round(100 * len(fast) / len(ab['mean']))} %",
                even_slow=f"{round(100 * len(slow) / len(ab['mean']))} %", n_pairs=len(ab["mean"]))


# ---------------------------------------------------------------- the scenes' narration, generated from the runs
@cached
def clause(variant):
    """One variant's behaviour past the training length, as the scenes say it, read off every run (facts):
    (text key, params), the key naming the case -
        "length.c.na"           no row past the table: N/A (the learned table)
        "length.c.holds"        every run >= HOLD in every bucket up to 511
        "length.c.partly_<tail>"  every run >= HOLD past training up to `pos`, then <tail>:
                                "chance": every band from `bucket` on reaches chance (within its noise);
                                "above" / "below": the last band lies wholly above / below chance and its noise
        "length.c.<tail>"       some run below HOLD right after training, then likewise.
    params: first (mean of 0–63), next / lo / hi (64–127), last / last_lo / last_hi (448–511), pos, bucket."""
    f = facts(variant)
    train = shipped()["train_length"]
    end = shipped()["buckets"][-1][1] - 1
    p = dict(first=f["mean"][0], next=f["mean"][1], lo=f["lo"][1], hi=f["hi"][1], last=f["mean"][-1],
             last_lo=f["lo"][-1], last_hi=f["hi"][-1], pos=f["hold_to"])
    if f["mean"][1] is None:
        return "length.c.na", dict(first=p["first"], pos=train - 1)
    if f["hold_to"] >= end:
        return "length.c.holds", p
    if f["chance_from"] is not None:
        tail, p["bucket"] = "chance", bucket_name(f["chance_from"])
    else:     # the last band does not reach chance: it lies wholly above or wholly below it
        tail = "above" if _summary(variant, "acc")["min"][-1] > chance_level(shipped()["config"]["vocab_size"]) \
            + f["noise"][-1] else "below"
    return ("length.c.partly_" + tail if f["hold_to"] >= 2 * train - 1 else "length.c." + tail), p


SCENE_VARIANTS = {        # the variants each scene's narration describes (posviz.scenes.length)
    "length.s1.say": ("sinusoidal", "learned_clamp"),
    "length.s2.say": ("alibi", "t5"),
    "length.s3.say": ("rope", "rope_pi", "rope_ntk", "rope_yarn"),
    "length.s5.say": ("nope",),
    "length.s_runs.say": ("nope", "rope", "t5"),
    "lenf.s1.say": ("rope_l4", "rope_nope4", "rope_nope2"),
    "lenf.s2.say": ("rope_partial", "rope_prop", "rope_qknorm"),     # plain RoPE: told on /length (scene 3)
}


PREFIX = {"length": "length.", "length_today": "lenf."}


def _raw(x):
    """A number or string the narration prints as it is, as a (text key, params) field."""
    return "length.c.raw", {"x": x}


@cached
def scene_say(page):
    """The fields of every generated narration of `page` ("length" or "length_today") -> {narration key:
    {field: (text key, params) or a variant's name key}}: one `clause` per variant the scene describes, and the
    scene's own numbers (T5 against RoPE, the aliases, the frequency finding, the scaling, the tables and the
    shortcut)."""
    check_choice("page", page, tuple(PREFIX))
    out = {k: {v: ("lenf.pending", {}) if k.startswith("lenf.") and pending(vs) else clause(v) for v in vs}
           for k, vs in SCENE_VARIANTS.items() if k.startswith(PREFIX[page])}
    if page == "length":
        out["length.s2.say"]["t5_rope"] = literature()["t5"]
        width, v, b = _widest()
        out["length.s_runs.say"].update(widest_name=f"w.len_model.{v}", widest=(
            "length.c.widest", {"bucket": bucket_name(b), "lo": facts(v)["lo"][b], "hi": facts(v)["hi"][b]}))
        al, cols = aliases(2, 40), alias_table(2, 40, max(LONG), 2, 1)
        strong = sorted(((float(w), d) for d, w in zip(cols["offset"], cols["weight"]) if w != "—" and d >= 64),
                        reverse=True)
        out["length.s_alias.say"] = {"offsets": _raw(_ranges([d for d in al["aliases"] if d >= 64])),
                                     "strong": _raw(", ".join(str(d) for _, d in strong[:2])),
                                     "tight": _raw(", ".join(str(d) for d in aliases(2, 10)["aliases"] if d >= 64))}
        return out
    fields = {"lenf.s3.say": (("rope",), ("n_pos", "runs", "fast", "pos_seen", "pos_unseen", "other_seen",
                                           "other_unseen")),
              "lenf.s4.say": (("rope",), ("worst_fast", "base", "worst_fast_mean", "slow_mean_min")),
              "lenf.s5.say": (SCALING, ("rope_pi4", "ft_pi", "rope_yarn4", "ft_yarn", "rope_pi4_far", "ft_pi_far")),
              "lenf.s6.say": (SCALING, ("rope", "ft_none", "rope_ntk4", "ft_ntk", "rope_far", "ft_none_far")),
              "lenf.s7.say": (TABLE, ("clamp", "mod", "grow", "train")),
              "lenf.s8.say": (SHORTCUT, ("short_learned_at", "short_learned_else", "short_rope_at", "short_rope_else",
                                         "shift_learned_else", "shift_rope_else"))}
    words = {}
    for part, ok in ((frequency_words, not pending(("rope",))), (scaling_words, not pending(SCALING)),
                     (table_words, not pending(TABLE)), (shortcut_words, not pending(SHORTCUT))):
        words.update(part() if ok else {})
    for k, (needs, names) in fields.items():
        out[k] = {n: ("lenf.pending", {}) if pending(needs) else _raw(words[n]) for n in names}
    return out


@cached
def pending(names):
    """The variants or marker-task runs of `names` (a tuple) that results.json does not hold (yet): a training
    command still running, or stopped -> tuple, () when every one is there with every seed."""
    res = evaluate.load_results()
    have = {**res["variants"], **res["marker"]}
    return tuple(n for n in names if n not in have or len(have[n]["acc"]["seeds"]) < len(SEEDS))


def _ranges(xs):
    """[121, 122, 259, 322] -> "121–122, 259, 322" (runs of consecutive numbers joined)."""
    out, start = [], None
    for i, x in enumerate(xs):
        if start is None:
            start = x
        if i + 1 == len(xs) or xs[i + 1] != x + 1:
            out.append(str(start) if start == x else f"{start}–{x}")
            start = None
    return ", ".join(out)


@cached
def _widest():
    """The widest band (max - min over the runs, percent points) of the main chart's default methods past
    training -> (width, variant, bucket index)."""
    return max((facts(v)["hi"][b] - facts(v)["lo"][b], v, b) for v in SHOWN
               for b in range(1, len(shipped()["buckets"])) if facts(v)["hi"][b] is not None)
