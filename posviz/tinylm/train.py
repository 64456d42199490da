"""Train the tiny models of the "train short, test long" pages on the CPU, deterministically.

    python -m posviz.tinylm.train --all --eval --jobs 2      # every recipe x every seed, then results.json
    python -m posviz.tinylm.train --recipe rope --seed 3     # one run (settings of posviz.tinylm.recipes)
    python -m posviz.tinylm.train --all --missing --jobs 1   # only the runs not on disk yet (the rest kept)

Every recipe of posviz.tinylm.recipes is trained with every seed of recipes.SEEDS. Each run is saved
as a plain float16 state_dict (`<out>/<recipe>-s<seed>.pt`, loaded with `torch.load(...,
weights_only=True)`, never unpickled objects; the model runs in float32 after loading), and
`<out>/MANIFEST.json` records the exact command, the settings, the model configs, the final loss,
the wall and CPU time of each run, the whole command's wall time and the load average it met; it is
rewritten after every run, so a stopped command keeps what it finished (--missing then trains the rest).
With --eval the per-bucket evaluation (posviz.tinylm.evaluate) follows and writes
`<out>/results.json`.

Determinism: one seed fixes the initial weights (torch.manual_seed) and every batch (the task's
generator with seed = data_seed(seed, step)); torch runs with use_deterministic_algorithms(True)
and one thread per process, so the same command gives bit-identical weights on the same machine
and torch build, whatever --jobs is (each run seeds itself; results are written in a fixed order).
A fine-tune starts from the saved weights of the "rope" run of its seed.
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import json
import math
import multiprocessing
import os
import platform
import shlex
import sys
import time

import torch
from torch.nn import functional as F

from posviz.tinylm import evaluate, recipes
from posviz.tinylm.model import TRAINED_METHODS, WEIGHTS_DIR, TinyConfig, TinyLM, save_weights
from posviz.tinylm.task import IGNORE, make_batch, make_marker_batch
from posviz.validate import check_choice, check_float, check_int

DEFAULTS = dict(steps=800, seed=0, batch_size=32, length=64, lr=6e-3, warmup=50, vocab_size=32,
                offset=2, d_model=64, n_layers=2, n_heads=4, threads=1)
OVERRIDABLE = ("steps", "batch_size", "length", "lr", "warmup", "d_model", "n_layers", "n_heads")
FINE_TUNE_DATA = 500_000        # a fine-tune's batches: data_seed(seed, FINE_TUNE_DATA + step)


def data_seed(seed, step):
    """Seed of the training batch at `step` (training data never overlaps evaluation seeds)."""
    return seed * 1_000_003 + step


def lr_at(step, steps, lr, warmup):
    """Linear warm-up then cosine decay to 0."""
    if step < warmup:
        return lr * (step + 1) / warmup
    t = (step - warmup) / max(1, steps - warmup)
    return lr * 0.5 * (1.0 + math.cos(math.pi * t))


def progress(label, step, steps, loss, t0, stream=sys.stderr):
    """A plain-text progress bar on one line of stderr."""
    width = 30
    done = int(width * step / steps)
    bar = "#" * done + "." * (width - done)
    stream.write(f"\r{label:>16} [{bar}] {step:>5}/{steps} loss {loss:7.4f} {time.time() - t0:6.1f}s")
    if step == steps:
        stream.write("\n")
    stream.flush()


def batch(task, batch_size, length, *, vocab_size, offset, marker_at, seed):
    """(tokens [B,L], targets [B,L]) of the copy task or of the marker task."""
    if task == "marker":
        return make_marker_batch(batch_size, length, vocab_size=vocab_size, marker_at=marker_at, seed=seed)[:2]
    return make_batch(batch_size, length, vocab_size=vocab_size, offset=offset, seed=seed)


def train_one(method, *, steps=800, seed=0, batch_size=32, length=64, lr=6e-3, warmup=50, vocab_size=32,
              offset=2, d_model=64, n_layers=2, n_heads=4, threads=1, nope_layers=(), rope_parameters=None,
              qk_norm=False, task="copy", marker_at=None, init_state=None, label=None, quiet=False):
    """Train one TinyLM; return (model, info dict with config, final loss, wall and CPU time).

    init_state: a state_dict to start from (a fine-tune) instead of the seeded initial weights;
    its batches then come from data_seed(seed, FINE_TUNE_DATA + step)."""
    check_choice("method", method, TRAINED_METHODS)
    check_choice("task", task, ("copy", "marker"))
    steps = check_int("steps", steps, 1, 100_000)
    seed = check_int("seed", seed, 0, 2**31)
    batch_size = check_int("batch_size", batch_size, 1, 1024)
    length = check_int("length", length, 4, 1024)
    lr = check_float("lr", lr, 0.0, 1.0, lo_open=True)
    warmup = check_int("warmup", warmup, 0, steps)
    threads = check_int("threads", threads, 1, 64)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(seed)
    cfg = TinyConfig(method=method, vocab_size=vocab_size, d_model=d_model, n_layers=n_layers,
                     n_heads=n_heads, max_length=length, t5_max_distance=length, nope_layers=tuple(nope_layers),
                     rope_parameters=rope_parameters, qk_norm=qk_norm)
    model = TinyLM(cfg)
    first = 0
    if init_state is not None:
        model.load_state_dict(init_state)
        first = FINE_TUNE_DATA
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    t0, c0 = time.time(), time.process_time()
    loss_v = float("nan")
    for step in range(steps):
        for group in opt.param_groups:
            group["lr"] = lr_at(step, steps, lr, warmup)
        x, y = batch(task, batch_size, length, vocab_size=vocab_size, offset=offset, marker_at=marker_at,
                     seed=data_seed(seed, first + step))                          # [B,L] x2
        logits = model(x)                                                         # [B,L,V]
        loss = F.cross_entropy(logits.reshape(-1, vocab_size), y.reshape(-1), ignore_index=IGNORE)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        loss_v = loss.item()
        if not quiet and (step % 10 == 0 or step == steps - 1):
            progress(label or method, step + 1, steps, loss_v, t0)
    wall, cpu = time.time() - t0, time.process_time() - c0
    model.eval()
    info = dict(method=method, config=cfg.to_dict(), final_loss=loss_v, wall_time_s=round(wall, 2),
                cpu_time_s=round(cpu, 2), steps=steps, seed=seed, batch_size=batch_size, length=length, lr=lr,
                warmup=warmup, offset=offset, threads=threads, task=task, marker_at=marker_at)
    return model, info


def recipe_kwargs(recipe, overrides):
    """train_one's keyword arguments of a recipe (posviz.tinylm.recipes) with the command line's overrides."""
    s = {**recipes.settings(recipe), **overrides}
    s.pop("init", None)
    return s


def run(job):
    """One run in a worker process: train, save, check -> (name, info). job = (recipe, seed, overrides, out)."""
    recipe, seed, overrides, out, quiet = job
    torch.set_num_threads(1)
    kw = recipe_kwargs(recipe, overrides)
    init = recipes.RECIPES[recipe].get("init")
    state = None
    if init is not None:
        state = torch.load(os.path.join(out, recipes.run_name(init, seed) + ".pt"), map_location="cpu",
                           weights_only=True)
    name = recipes.run_name(recipe, seed)
    model, info = train_one(seed=seed, init_state=state, label=name, quiet=quiet, **kw)
    path = os.path.join(out, name + ".pt")
    info["sha256"] = save_weights(model, path)
    model.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))   # the shipped numbers
    info["init"] = None if init is None else recipes.run_name(init, seed)
    info["accuracy_at_train_length"] = accuracy_at_train_length(model, info)
    return recipe, seed, info


def accuracy_at_train_length(model, info):
    """The accuracy a run's MANIFEST entry records: at its training length, on its own task (copy or marker)."""
    if info["task"] == "copy":
        return evaluate.accuracy_at_length(model, length=info["length"], offset=info["offset"])
    return evaluate.marker_accuracy(model, info["marker_at"], length=info["length"])


def run_all(jobs, workers):
    """Run `jobs` (see run) on `workers` processes (1: here); yields the results in the order of `jobs`."""
    if workers <= 1:
        yield from map(run, jobs)
        return
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        yield from pool.map(run, jobs)


def kept(recipe, seed, out):
    """A run already on disk (--missing): its MANIFEST entry from the recipe's settings and the file's sha256;
    the training fields it had are kept from an earlier MANIFEST.json, else None."""
    name = recipes.run_name(recipe, seed)
    path = os.path.join(out, name + ".pt")
    with open(path, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    kw = recipe_kwargs(recipe, {})
    cfg = TinyConfig(method=kw["method"], vocab_size=kw["vocab_size"], d_model=kw["d_model"],
                     n_layers=kw["n_layers"], n_heads=kw["n_heads"], max_length=kw["length"],
                     t5_max_distance=kw["length"], nope_layers=tuple(kw.get("nope_layers", ())),
                     rope_parameters=kw.get("rope_parameters"), qk_norm=kw.get("qk_norm", False))
    info = dict(method=kw["method"], config=cfg.to_dict(), final_loss=None, wall_time_s=None, cpu_time_s=None,
                steps=kw["steps"], seed=seed, batch_size=kw["batch_size"], length=kw["length"], lr=kw["lr"],
                warmup=kw["warmup"], offset=kw["offset"], threads=1, task=kw["task"],
                marker_at=kw.get("marker_at"), sha256=sha, kept=True)
    init = recipes.RECIPES[recipe].get("init")
    info["init"] = None if init is None else recipes.run_name(init, seed)
    model = TinyLM(cfg)
    model.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    model.eval()
    info["accuracy_at_train_length"] = accuracy_at_train_length(model, info)
    return recipe, seed, info


def _load_avg():
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m posviz.tinylm.train", description=__doc__.split("\n")[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--recipe", "--method", dest="recipe", choices=tuple(recipes.RECIPES))
    g.add_argument("--all", action="store_true", help="train every recipe with every seed")
    p.add_argument("--seed", type=int, action="append", dest="seeds",
                   help=f"seed(s) to train (repeat the option); default {list(recipes.SEEDS)}")
    for k in OVERRIDABLE:
        p.add_argument(f"--{k.replace('_', '-')}", type=type(DEFAULTS[k]), default=None,
                       help="overrides the recipes' setting (tests, quick checks)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (one torch thread each)")
    p.add_argument("--out", default=WEIGHTS_DIR, help="directory for weights and MANIFEST.json")
    p.add_argument("--eval", action="store_true", help="also write results.json (posviz.tinylm.evaluate)")
    p.add_argument("--eval-length", type=int, default=512)
    p.add_argument("--eval-sequences", type=int, default=64)
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--missing", action="store_true",
                   help="train only the runs whose weights are not in --out yet (the others are kept as they are)")
    args = p.parse_args(argv)
    seeds = args.seeds or (list(recipes.SEEDS) if args.all else [0])
    names = list(recipes.RECIPES) if args.all else [args.recipe]
    overrides = {k: getattr(args, k) for k in OVERRIDABLE if getattr(args, k) is not None}
    workers = check_int("jobs", args.jobs, 1, 2)
    os.makedirs(args.out, exist_ok=True)
    man_path = os.path.join(args.out, "MANIFEST.json")
    args_given = argv if argv is not None else sys.argv[1:]
    command = "python -m posviz.tinylm.train " + " ".join(shlex.quote(a) for a in args_given)
    t_all, load_before = time.time(), _load_avg()
    done, trained = [], []
    for stage in recipes.STAGES:
        todo = []
        for r in stage:
            for s in seeds if r in names else ():
                if args.missing and os.path.exists(os.path.join(args.out, recipes.run_name(r, s) + ".pt")):
                    done.append(kept(r, s, args.out))
                else:
                    todo.append((r, s, overrides, args.out, args.quiet or workers > 1))
        for result in run_all(todo, workers):      # MANIFEST.json after every run: a stopped command loses one
            done.append(result)
            trained.append(result)
            manifest = _manifest(man_path, done, trained, seeds, command, workers, t_all, load_before)
            if workers > 1 and not args.quiet:
                print(f"{recipes.run_name(*result[:2]):>16} {result[2]['wall_time_s']:7.1f} s", file=sys.stderr)
    manifest = _manifest(man_path, done, trained, seeds, command, workers, t_all, load_before)
    print(f"trained {len(trained)} runs ({len(done) - len(trained)} kept) in {manifest['last_wall_time_s']} s"
          f" -> {args.out}", file=sys.stderr)
    if args.eval:
        t_eval = time.time()
        res = evaluate.evaluate_all(weights_dir=args.out, length=args.eval_length,
                                    num_sequences=args.eval_sequences, jobs=workers, quiet=args.quiet)
        res["command"] = command
        evaluate.save_results(res, os.path.join(args.out, "results.json"))
        manifest["eval_wall_time_s"] = round(time.time() - t_eval, 2)
        manifest["total_wall_time_s"] = round(time.time() - t_all, 2)
        manifest["load_average"]["end"] = _load_avg()
        _write(man_path, manifest)
        print(f"evaluated in {manifest['eval_wall_time_s']} s -> results.json", file=sys.stderr)
    return manifest


# per-run fields of MANIFEST.json (the rest are the recipe's, shared by its seeds)
RUN_KEYS = ("seed", "sha256", "final_loss", "wall_time_s", "cpu_time_s", "accuracy_at_train_length", "init", "kept")


def _manifest(man_path, done, trained, seeds, command, workers, t_all, load_before):
    """Merge the runs of `done` into MANIFEST.json (other recipes' entries kept) and write it -> the manifest."""
    manifest = {"models": {}}
    if os.path.exists(man_path):      # keep the other recipes' entries
        with open(man_path, encoding="utf-8") as f:
            manifest = json.load(f)
    manifest.setdefault("models", {})
    for recipe, seed, info in done:
        entry = manifest["models"].get(recipe)
        if entry is None or entry.get("runs") is None:
            entry = manifest["models"][recipe] = {"runs": {}}
        old = entry["runs"].get(str(seed), {})
        entry.update({k: v for k, v in info.items() if k not in RUN_KEYS})
        run_info = {k: info.get(k) for k in RUN_KEYS}
        if info.get("kept") and old.get("sha256") == info["sha256"]:
            run_info = {**run_info, **{k: old.get(k) for k in ("final_loss", "wall_time_s", "cpu_time_s")}}
        entry["runs"][str(seed)] = run_info
        entry["runs"] = dict(sorted(entry["runs"].items(), key=lambda kv: int(kv[0])))
    manifest["models"] = {r: manifest["models"][r] for r in sorted(manifest["models"], key=_recipe_order)}
    manifest.update(task="copy with offset; marker (posviz.tinylm.task)", seeds=seeds, last_command=command,
                    last_wall_time_s=round(time.time() - t_all, 2), jobs=workers, runs_trained=len(trained),
                    runs_kept=len(done) - len(trained),
                    cpu_time_s=round(sum(info["cpu_time_s"] for _, _, info in trained), 2),
                    load_average=dict(start=load_before, end=_load_avg()),
                    machine=dict(python=platform.python_version(), torch=torch.__version__,
                                 cpu_count=os.cpu_count(), platform=platform.platform()),
                    date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    _write(man_path, manifest)
    return manifest


def _recipe_order(name):
    order = list(recipes.RECIPES)
    return order.index(name) if name in order else len(order)


def _write(path, manifest):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
