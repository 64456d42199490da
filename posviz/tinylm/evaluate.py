r"""Evaluate the tiny models far beyond their training length, per position bucket, over every seed.

A model trained at length L_train is run on sequences of length L_eval = 8 L_train;
accuracy, loss and attention entropy are reported per bucket of positions
[b*B, (b+1)*B) (“Same words, different order…” §14: "report per length bucket"; a model that *runs* at
32K has not shown that it *works* at 32K):

    acc_b  = #{i in bucket b, i >= k : argmax logits_i = y_i} / #{i in bucket b, i >= k}
    loss_b = mean_{i in bucket b, i >= k} -log softmax(logits_i)[y_i]
    H_b    = mean_{i in bucket b, heads, sequences} -sum_j a_ij log a_ij       (nats)

Every number is computed for each seed's run; results.json keeps them per seed and their mean,
minimum and maximum (the band the page draws).

Variants (a trained recipe of posviz.tinylm.recipes, maybe treated at evaluation time):
    the six methods, and RoPE with its inverse frequencies replaced at evaluation time (no
    fine-tuning) with s = L_eval / L_train:
        rope_pi    theta_i / s                     Position Interpolation (Chen et al. 2023)
        rope_ntk   base' = base * s^{d/(d-2)}      NTK-aware (bloc97 2023)
        rope_yarn  YaRN ramp + attention factor    (Peng et al. 2023)
    the same three at s = 4 (rope_pi4, rope_ntk4, rope_yarn4), next to the runs fine-tuned at 256
    with them (ft_none, ft_pi, ft_ntk, ft_yarn);
    the learned absolute table four times: "learned" has no row for p >= L_train, so those buckets
    are N/A (None); "learned_clamp" reuses the last row for every p >= L_train; "learned_mod" reads
    row p mod L_train; "learned_grow" has a table enlarged to GROW_ROWS rows, the new ones untrained;
    today's RoPE variants (rope_l4, rope_nope4, rope_nope2, rope_partial, rope_prop, rope_qknorm).
The marker task's runs are scored per marker position instead (marker_sweep).
"""
import argparse
import concurrent.futures
import json
import math
import multiprocessing
import os
import sys
import time

import torch
from torch.nn import functional as F

from posviz.pe.rope import wrap_angle
from posviz.pe.scaling import ntk_aware_base, rope_frequencies
from posviz.tinylm import frequencies, recipes
from posviz.tinylm import model as tiny
from posviz.tinylm.model import enlarge_table, load_manifest, load_model, rope_spectrum
from posviz.tinylm.task import IGNORE, make_batch, make_marker_batch
from posviz.validate import PosvizError, check_choice, check_float, check_int

# the main chart's variants (the six methods and their evaluation-time treatments)
VARIANTS = ("nope", "sinusoidal", "learned", "learned_clamp", "rope", "rope_pi", "rope_ntk",
            "rope_yarn", "alibi", "t5")
TABLE_VARIANTS = ("learned", "learned_clamp", "learned_mod", "learned_grow")
FRONTIER = ("rope", "rope_l4", "rope_nope4", "rope_nope2", "rope_partial", "rope_prop", "rope_qknorm")
SCALING = ("rope", "rope_pi4", "rope_ntk4", "rope_yarn4", "ft_none", "ft_pi", "ft_ntk", "ft_yarn")
SHORTCUT = ("short_learned", "shift_learned", "short_rope", "shift_rope")
ALL_VARIANTS = tuple(dict.fromkeys(VARIANTS + TABLE_VARIANTS + FRONTIER + SCALING))
ROPE_SCALINGS = {"rope_pi": "linear", "rope_ntk": "ntk", "rope_yarn": "yarn"}
FIXED_SCALINGS = {"rope_pi4": "pi", "rope_ntk4": "ntk", "rope_yarn4": "yarn"}   # recipes.SCALED, s = 4
GROW_ROWS = 256            # "learned_grow": the table enlarged from 64 to 256 rows
TREATMENTS = {"learned_clamp": "clamp", "learned_mod": "wrap", "learned_grow": "grow"}
EVAL_SEED = 2**61          # evaluation batches use seeds far from every training seed
MAX_EVAL_LENGTH = 1024
MARKER_POSITIONS = tuple(range(1, 57))   # where the marker is put at test time


def base_method(variant):
    """The trained recipe a variant evaluates: "rope_pi" -> "rope", "learned_clamp" -> "learned",
    "rope_partial" -> "rope_partial"."""
    check_choice("variant", variant, ALL_VARIANTS)
    if variant in TREATMENTS:
        return "learned"
    if variant in ROPE_SCALINGS or variant in FIXED_SCALINGS:
        return "rope"
    return variant


def bucket_index(length, bucket_size):
    """Bucket of every position: p // bucket_size -> LongTensor[L]."""
    length = check_int("length", length, 1, 8192)
    bucket_size = check_int("bucket_size", bucket_size, 1, 8192)
    return torch.arange(length) // bucket_size                                     # [L]


def bucket_mean(values, mask, bucket_size):
    r"""Mean of values [N,L] over the True entries of mask [N,L], per bucket of positions
    (with values = 1[prediction = target] it is the accuracy of each bucket).

    Formula:
        \mathrm{acc}_b=\frac{\#\{i\in b,\ i\ge k:\ \arg\max_v z_{i,v}=x_{i-k}\}}{\#\{i\in b,\ i\ge k\}}

    -> (mean Tensor[B] float64, NaN for an empty bucket; count LongTensor[B]),
    B = ceil(L / bucket_size).
    """
    if values.shape != mask.shape or values.ndim != 2:
        raise PosvizError("tinylm_bucket_shapes", values=list(values.shape), mask=list(mask.shape))
    length = values.shape[1]
    idx = bucket_index(length, bucket_size)                                        # [L]
    nb = (length + bucket_size - 1) // bucket_size
    m = mask.to(torch.float64)                                                     # [N,L]
    s = torch.zeros(nb, dtype=torch.float64).index_add_(0, idx, (values.to(torch.float64) * m).sum(0))  # [B]
    c = torch.zeros(nb, dtype=torch.float64).index_add_(0, idx, m.sum(0))          # [B]
    mean = torch.where(c > 0, s / c.clamp_min(1), torch.full_like(s, float("nan")))  # [B]
    return mean, c.long()


def bucket_accuracy(pred, targets, bucket_size):
    """Accuracy per bucket: pred, targets LongTensor[N,L] (targets == IGNORE are skipped)."""
    mask = targets != IGNORE                                                       # [N,L]
    return bucket_mean((pred == targets).to(torch.float64), mask, bucket_size)


def attention_entropy(probs):
    r"""Entropy of each query's attention row, in nats; uniform causal attention has ln(i+1).

    Formula:
        H_i=-\sum_{j\le i} a_{ij}\ln a_{ij}
        H_i^{\text{uniform}}=\ln(i+1)

    probs [..., L, S] -> [..., L].
    """
    return -torch.special.xlogy(probs, probs).sum(-1)                              # [..., L] (0 ln 0 = 0)


def rope_override(variant, head_dim, base, train_length, eval_length):
    r"""(inv_freq [d/2], attention_factor) of a RoPE variant, or None for plain RoPE; the trained
    weights are kept, only the frequencies change (no fine-tuning). rope_pi4 / rope_ntk4 / rope_yarn4:
    s = 4 whatever the evaluation length (the scalings the fine-tuned runs were trained with).

    Formula:
        s=L_\text{eval}/L_\text{train}\quad(\text{or } s=4)
        \text{PI: }\theta_i'=\theta_i/s
        \text{NTK-aware: }b'=b\,s^{d/(d-2)},\quad \theta_i'=b'^{-2i/d}
        \text{YaRN: }\theta_i'=(1-\gamma_i)\,\theta_i/s+\gamma_i\,\theta_i,\ \ \gamma_i\in[0,1],\quad
            q^\top k\times(0.1\ln s+1)^2
    """
    if variant in FIXED_SCALINGS:
        return rope_spectrum(head_dim, recipes.SCALED[FIXED_SCALINGS[variant]])
    if variant not in ROPE_SCALINGS:
        return None
    s = max(1.0, eval_length / train_length)
    kind = ROPE_SCALINGS[variant]
    if kind == "ntk":
        params = {"rope_type": "default", "rope_theta": ntk_aware_base(base, s, head_dim)}
    elif kind == "linear":
        params = {"rope_type": "linear", "rope_theta": base, "factor": s}
    else:
        params = {"rope_type": "yarn", "rope_theta": base, "factor": s,
                  "original_max_position_embeddings": train_length}
    return rope_frequencies(head_dim, params)


def prepare(model, variant, eval_length):
    """The model to run for `variant` (a learned table enlarged for "learned_grow", else `model` with its
    evaluation-time RoPE frequencies set) and the forward's keyword arguments -> (model, kwargs)."""
    cfg = model.cfg
    recipe = base_method(variant)
    want = recipes.settings(recipe)["method"] if recipe in recipes.RECIPES else recipe
    if want != cfg.method:
        raise PosvizError("choice", name="variant", got=repr(variant),
                          choices=", ".join(v for v in VARIANTS if base_method(v) == cfg.method))
    treat = TREATMENTS.get(variant)
    if treat == "grow":
        return enlarge_table(model, max(GROW_ROWS, cfg.max_length)), {}
    model.rope_override = rope_override(variant, cfg.head_dim, cfg.rope_base, cfg.max_length, eval_length)
    return model, {"clamp_positions": treat == "clamp", "wrap_positions": treat == "wrap"}


@torch.no_grad()
def evaluate(model, variant, *, length=512, num_sequences=64, batch_size=16, bucket_size=64, offset=2,
             seed=EVAL_SEED):
    """Per-bucket accuracy, loss and attention entropy of `model` under `variant`.

    Returns a dict of plain lists (JSON-ready): acc [B], loss [B], count [B],
    entropy [n_layers][n_heads][B]; None where a bucket is not computable
    ("learned" beyond its table).
    """
    length = check_int("length", length, 8, MAX_EVAL_LENGTH)
    num_sequences = check_int("num_sequences", num_sequences, 1, 4096)
    batch_size = check_int("batch_size", batch_size, 1, 256)
    bucket_size = check_int("bucket_size", bucket_size, 1, length)
    run, kw = prepare(model, variant, length)
    cfg = run.cfg
    run_length = length
    if cfg.method == "learned" and not any(kw.values()) and length > cfg.max_length:
        run_length = cfg.max_length          # no row for p >= max_length: only this part is computable
    nb = (length + bucket_size - 1) // bucket_size
    correct = torch.zeros(nb, dtype=torch.float64)
    nll = torch.zeros(nb, dtype=torch.float64)
    count = torch.zeros(nb, dtype=torch.float64)
    ent = torch.zeros(cfg.n_layers, cfg.n_heads, nb, dtype=torch.float64)
    ent_n = torch.zeros(nb, dtype=torch.float64)
    idx = bucket_index(run_length, bucket_size)                                    # [L]
    done = 0
    while done < num_sequences:
        n = min(batch_size, num_sequences - done)
        x, y = make_batch(n, run_length, vocab_size=cfg.vocab_size, offset=offset, seed=seed + done)  # [n,L] x2
        logits, maps = run(x, return_attention=True, **kw)                          # [n,L,V], [n,H,L,L] per layer
        mask = (y != IGNORE).to(torch.float64)                                     # [n,L]
        tok_nll = F.cross_entropy(logits.transpose(1, 2), y.clamp_min(0), reduction="none")  # [n,L]
        hit = (logits.argmax(-1) == y).to(torch.float64)                           # [n,L]
        correct.index_add_(0, idx, (hit * mask).sum(0))
        nll.index_add_(0, idx, (tok_nll.to(torch.float64) * mask).sum(0))
        count.index_add_(0, idx, mask.sum(0))
        for layer, probs in enumerate(maps):
            h = attention_entropy(probs).sum(0).to(torch.float64)                  # [H,L]
            ent[layer].index_add_(1, idx, h)
        ent_n.index_add_(0, idx, torch.full((run_length,), float(n), dtype=torch.float64))
        done += n
    model.rope_override = None

    def listify(t, c):
        return [None if c[b] == 0 else float(t[..., b]) for b in range(nb)]

    entropy = [[listify(ent[layer, head] / ent_n.clamp_min(1), ent_n) for head in range(cfg.n_heads)]
               for layer in range(cfg.n_layers)]
    return dict(acc=listify(correct / count.clamp_min(1), count), loss=listify(nll / count.clamp_min(1), count),
                count=[int(c) for c in count], entropy=entropy)


def summary(per_seed):
    r"""Mean, minimum and maximum over the seeds of per-bucket numbers (None where a bucket is N/A).

    Formula:
        \bar a_b=\frac1S\sum_{s=1}^{S}a_b^{(s)},\qquad
        \text{band}_b=\bigl[\min_s a_b^{(s)},\ \max_s a_b^{(s)}\bigr]

    per_seed: [S][B] -> dict(mean, min, max: [B], seeds: per_seed).
    """
    cols = list(zip(*per_seed))
    ok = [all(v is not None for v in c) for c in cols]
    return dict(mean=[sum(c) / len(c) if k else None for c, k in zip(cols, ok)],
                min=[min(c) if k else None for c, k in zip(cols, ok)],
                max=[max(c) if k else None for c, k in zip(cols, ok)], seeds=[list(r) for r in per_seed])


@torch.no_grad()
def marker_sweep(model, positions=MARKER_POSITIONS, *, length=64, num_sequences=64):
    """Accuracy of a marker-task model with the marker moved to each of `positions` -> [len(positions)]."""
    return [marker_accuracy(model, p, length=length, num_sequences=num_sequences, seed=EVAL_SEED + 2 * 10**6 + p)
            for p in positions]


@torch.no_grad()
def rotation_ablation(model, *, length=128, bucket_size=64, num_sequences=32, offset=2):
    r"""Accuracy per bucket with the rotation of one pair removed in every layer and head.

    Formula:
        \theta^{(-i)}_j=\begin{cases}0 & j=i\\ \theta_j & j\ne i\end{cases}\qquad
        \mathrm{acc}_b^{(-i)}=\mathrm{acc}_b\ \text{of the model rotating with}\ \theta^{(-i)}

    -> dict(base: [B], removed: [d/2][B]) (accuracy; the model's own frequencies in `base`).
    """
    cfg = model.cfg
    inv, factor = model._rope()                                                    # [d/2], float
    x, y = make_batch(num_sequences, length, vocab_size=cfg.vocab_size, offset=offset,
                      seed=frequencies.EVAL_SEED + 2000)                           # [N,L] x2

    def acc(freqs):
        model.rope_override = (freqs, factor)
        try:
            pred = model(x).argmax(-1)                                             # [N,L]
        finally:
            model.rope_override = None
        return bucket_accuracy(pred, y, bucket_size)[0].tolist()

    removed = []
    for i in range(len(inv)):
        f = inv.clone()                                                            # [d/2]
        f[i] = 0.0
        removed.append(acc(f))
    return dict(base=acc(inv), removed=removed)


def frequency_use(model):
    """The frequency readings of one RoPE run (posviz.tinylm.frequencies): pair shares at offsets seen and
    unseen in training, each head's diagonal, and the rotation ablation -> plain lists."""
    shares = frequencies.pair_shares(model, length=512, regions=((0, 64), (64, 512)))  # [n_layers,H,2,d/2]
    offs, weights = frequencies.head_diagonals(model)                              # [n_layers,H] x2
    inv, _ = model._rope()                                                         # [d/2]
    return dict(shares=shares.tolist(), diag_offset=offs.tolist(), diag_weight=weights.tolist(),
                ablation=rotation_ablation(model), inv_freq=inv.tolist())


def eval_unit(job):
    """One (kind, name, seed) of evaluate_all in a worker process -> (job key, result)."""
    kind, name, seed, weights_dir, kw = job
    torch.set_num_threads(1)
    t0 = time.time()
    model = load_model(base_method(name) if kind == "variant" else name, seed, weights_dir)
    if kind == "variant":
        r = evaluate(model, name, **kw)
    elif kind == "marker":
        r = marker_sweep(model)
    else:
        r = frequency_use(model)
    return (kind, name, seed), r, round(time.time() - t0, 2)


def evaluate_all(*, weights_dir=None, length=512, num_sequences=64, bucket_size=64, jobs=1, quiet=False):
    """Every variant of every shipped run, the marker sweeps and the frequency readings -> the results
    dict saved as results.json (per seed, and summarised over the seeds)."""
    weights_dir = weights_dir or tiny.WEIGHTS_DIR
    manifest = load_manifest(weights_dir)
    models = manifest["models"]
    seeds = {r: sorted(int(s) for s in m["runs"]) for r, m in models.items()}
    out = dict(length=length, bucket_size=bucket_size, num_sequences=num_sequences, seed=EVAL_SEED,
               buckets=[[b, min(b + bucket_size, length)] for b in range(0, length, bucket_size)],
               variants={}, marker={}, frequencies={}, band="min-max over seeds")
    todo = []
    for variant in ALL_VARIANTS:
        recipe = base_method(variant)
        kw = dict(length=length, num_sequences=num_sequences, bucket_size=bucket_size,
                  offset=models.get(recipe, {}).get("offset", 2))
        todo += [("variant", variant, s, weights_dir, kw) for s in seeds.get(recipe, ())]
    todo += [("marker", r, s, weights_dir, {}) for r in SHORTCUT for s in seeds.get(r, ())]
    todo += [("frequencies", "rope", s, weights_dir, {}) for s in seeds.get("rope", ())]
    workers = check_int("jobs", jobs, 1, 2)
    if workers == 1:
        torch.set_num_threads(1)
        done = map(eval_unit, todo)
    else:
        pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        done = pool.map(eval_unit, todo)
    got = {}
    for key, r, secs in done:
        got[key] = r
        if not quiet:
            print(f"{key[0]:>11} {key[1]:>14} s{key[2]}  ({secs} s)", file=sys.stderr)
    if workers > 1:
        pool.shutdown()
    for variant in ALL_VARIANTS:
        runs = [got[k] for k in sorted(k for k in got if k[:2] == ("variant", variant))]
        if not runs:
            continue
        out["variants"][variant] = dict(
            model=base_method(variant), seeds=seeds[base_method(variant)], count=runs[0]["count"],
            acc=summary([r["acc"] for r in runs]), loss=summary([r["loss"] for r in runs]),
            entropy=[r["entropy"] for r in runs])
    for r in SHORTCUT:
        sweeps = [got[k] for k in sorted(k for k in got if k[:2] == ("marker", r))]
        if sweeps:
            out["marker"][r] = dict(positions=list(MARKER_POSITIONS), trained_at=models[r]["marker_at"],
                                    acc=summary(sweeps))
    freq = [got[k] for k in sorted(k for k in got if k[:2] == ("frequencies", "rope"))]
    if freq:
        out["frequencies"]["rope"] = dict(seeds=seeds["rope"], regions=[[0, 64], [64, length]], runs=freq)
    out["train_length"] = models["rope"]["length"] if "rope" in models else None
    return out


def save_results(results, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=None, separators=(",", ":"))


def load_results(path=None):
    """The shipped results.json (what the page plots without running any model)."""
    if path is None:
        path = os.path.join(tiny.WEIGHTS_DIR, "results.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


@torch.no_grad()
def marker_accuracy(model, marker_at, *, length=64, num_sequences=256, seed=EVAL_SEED + 2 * 10**6):
    r"""Accuracy on the marker task with the marker at position `marker_at` (None: anywhere in 1..56),
    over every position that has an answer (i >= p + 2).

    Formula:
        \mathrm{acc}(p)=\frac{\#\{i\ge p+2:\ \arg\max_v z_{i,v}=x_{p+1}\}}{\#\{i\ge p+2\}}
    """
    x, y, _ = make_marker_batch(num_sequences, length, vocab_size=model.cfg.vocab_size, marker_at=marker_at,
                                seed=seed)                                         # [N,L] x2
    pred = model(x).argmax(-1)                                                     # [N,L]
    mask = y != IGNORE                                                             # [N,L]
    return float(((pred == y) & mask).sum()) / float(mask.sum())


def accuracy_at_length(model, *, length, num_sequences=256, offset=2, seed=EVAL_SEED + 10**6):
    """Overall accuracy on answer positions of sequences of one length (tests, training check)."""
    with torch.no_grad():
        x, y = make_batch(num_sequences, length, vocab_size=model.cfg.vocab_size, offset=offset, seed=seed)
        pred = model(x).argmax(-1)                                                 # [N,L]
    mask = y != IGNORE                                                             # [N,L]
    return float(((pred == y) & mask).sum()) / float(mask.sum())


@torch.no_grad()
def attention_map(variant, length, layer, head, *, seed=0, run=0):
    """Attention probabilities a_ij of one head for one evaluation sequence -> Tensor[L,L].

    layer, head are 0-based; run: the seed of the trained run. "learned" beyond its table is not
    computable (pe.learned.PositionOutOfRangeError, the boundary the page explains instead).
    """
    model = load_model(base_method(variant), run)   # ~10 ms; the page's view caches the map itself
    length = check_int("length", length, 8, MAX_EVAL_LENGTH)
    layer = check_int("layer", layer, 0, model.cfg.n_layers - 1)
    head = check_int("head", head, 0, model.cfg.n_heads - 1)
    net, kw = prepare(model, variant, length)
    try:
        batch_seed = EVAL_SEED + 7 * 10**6 + check_int("seed", seed, 0, 10**6)
        x, _ = make_batch(1, length, vocab_size=model.cfg.vocab_size, seed=batch_seed)
        _, maps = net(x, return_attention=True, **kw)                                 # n_layers x [1,H,L,L]
    finally:
        model.rope_override = None
    return maps[layer][0, head]                                                      # [L,L]


def live_evaluate(variant, *, length=512, num_sequences=8, seed=0, run=0):
    """Recompute the per-bucket numbers of one variant now (fewer sequences than the shipped run)."""
    model = load_model(base_method(variant), run)
    seed = check_int("seed", seed, 0, 10**6)
    t0 = time.perf_counter()
    r = evaluate(model, variant, length=length, num_sequences=num_sequences,
                 seed=EVAL_SEED + 10**7 + seed * 10**4)
    r["seconds"] = round(time.perf_counter() - t0, 2)
    return r


# ---------------------------------------------------------------- reading the attention maps
MAX_ALIAS_OFFSET = MAX_EVAL_LENGTH


def fast_pairs(inv_freq, train_length):
    r"""The RoPE pairs that turn a whole circle inside the training range, wavelength 2π/θ_i <= L_train:
    the model has seen every phase of them, so it can tell offsets apart only modulo their period.
    inv_freq [d/2] -> list of pair indices (the fastest first)."""
    inv = torch.as_tensor(inv_freq, dtype=torch.float64)                           # [d/2]
    train_length = check_int("train_length", train_length, 1, MAX_EVAL_LENGTH)
    return [i for i, w in enumerate((2 * math.pi / inv).tolist()) if w <= train_length]


def phase_aliases(target, inv_freq, train_length, *, max_offset=512, tol=0.7):
    r"""Offsets whose fast-pair phases nearly repeat those of the offset `target`: a head that finds
    its key `target` tokens back through the fast pairs scores these offsets almost as high.

    Formula:
        F=\{i:\ 2\pi/\theta_i\le L_\text{train}\}
        e(\Delta)=\max_{i\in F}\bigl|\operatorname{wrap}\bigl((\Delta-t)\,\theta_i\bigr)\bigr|,
            \quad\operatorname{wrap}(x)\in(-\pi,\pi]
        \Delta\ \text{aliases}\ t\iff e(\Delta)\le\varepsilon,\qquad 0\le\Delta\le\Delta_\max

    target t (an offset i - j), inv_freq θ [d/2] (the model's own float32 frequencies),
    train_length L_train, max_offset Δ_max, tol ε in radians.
    -> dict(error: list[Δ_max + 1] e(Δ) in radians, aliases: [Δ with e(Δ) <= ε] (t itself included),
            pairs: F, wavelengths: [2π/θ_i for i in F]).
    """
    max_offset = check_int("max_offset", max_offset, 1, MAX_ALIAS_OFFSET)
    target = check_int("target", target, 0, max_offset)
    tol = check_float("tol", tol, 0.0, math.pi)
    inv = torch.as_tensor(inv_freq, dtype=torch.float32).to(torch.float64)         # [d/2]
    pairs = fast_pairs(inv, train_length) or [0]                                  # the fastest pair at least
    delta = torch.arange(max_offset + 1, dtype=torch.float64)                      # [Δ_max+1]
    phase = (delta - target)[:, None] * inv[pairs][None, :]                        # [Δ_max+1, |F|]
    err = wrap_angle(phase).abs().amax(-1)                                         # [Δ_max+1]
    return dict(error=err.tolist(), aliases=torch.nonzero(err <= tol).flatten().tolist(), pairs=pairs,
                wavelengths=(2 * math.pi / inv[pairs]).tolist())


def offset_weights(attention, *, first_query=0):
    r"""Mean attention weight on each diagonal i − j = Δ, over the queries i >= max(Δ, first_query).

    Formula:
        \bar a(\Delta)=\frac{1}{\#\{i\ge\max(\Delta,i_0)\}}\sum_{i\ge\max(\Delta,i_0)} a_{i,\,i-\Delta}

    attention [L,L] -> Tensor[L] (NaN where no query qualifies).
    """
    a = torch.as_tensor(attention, dtype=torch.float64)                            # [L,L]
    length = a.shape[-1]
    first_query = check_int("first_query", first_query, 0, length)
    i = torch.arange(length)                                                       # [L]
    d = i[:, None] - i[None, :]                                                    # [L,L] i - j
    keep = (d >= 0) & (i[:, None] >= first_query)                                  # [L,L]
    idx = d.clamp_min(0)[keep]                                                     # [K]
    total = torch.zeros(length, dtype=torch.float64).index_add_(0, idx, a[keep])   # [L]
    count = torch.zeros(length, dtype=torch.float64).index_add_(0, idx, torch.ones_like(a[keep]))  # [L]
    return torch.where(count > 0, total / count.clamp_min(1), torch.full_like(total, float("nan")))  # [L]


def far_weight(attention, query, distance):
    r"""Share of query i's attention on keys at least `distance` tokens back.

    Formula:
        w_\text{far}(i)=\sum_{j\le i-D} a_{ij}

    attention [L,L] -> float.
    """
    a = torch.as_tensor(attention, dtype=torch.float64)                            # [L,L]
    query = check_int("query", query, 0, a.shape[0] - 1)
    distance = check_int("distance", distance, 0, a.shape[0])
    return float(a[query, : max(0, query - distance + 1)].sum())


def main(argv=None):
    """python -m posviz.tinylm.evaluate [--weights DIR] [--jobs 2]: rewrite DIR/results.json from the shipped
    weights."""
    p = argparse.ArgumentParser(prog="python -m posviz.tinylm.evaluate", description=main.__doc__)
    p.add_argument("--weights", default=tiny.WEIGHTS_DIR)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--length", type=int, default=512)
    p.add_argument("--sequences", type=int, default=64)
    args = p.parse_args(argv)
    t0 = time.time()
    res = evaluate_all(weights_dir=args.weights, jobs=args.jobs, length=args.length, num_sequences=args.sequences)
    res["command"] = "python -m posviz.tinylm.evaluate " + " ".join(argv if argv is not None else sys.argv[1:])
    res["wall_time_s"] = round(time.time() - t0, 2)
    save_results(res, os.path.join(args.weights, "results.json"))
    return res


if __name__ == "__main__":
    main()
