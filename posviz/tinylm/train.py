"""Train the tiny models of the "train short, test long" page on the CPU, deterministically.

    python -m posviz.tinylm.train --all                       # every method, the shipped settings
    python -m posviz.tinylm.train --method rope --steps 800 --seed 0

One model per position method is trained on the copy-with-offset task (posviz.tinylm.task) at
a single length (64 by default). Each model is saved as a plain state_dict
(`<out>/<method>.pt`, loaded with `torch.load(..., weights_only=True)`, never unpickled
objects), and `<out>/MANIFEST.json` records the exact command, the settings, the
model configs, the final loss and the wall time of each run. With --eval the
per-bucket evaluation (posviz.tinylm.evaluate) is run afterwards and written to
`<out>/results.json`.

Determinism: one seed fixes the initial weights (torch.manual_seed) and every batch
(posviz.tinylm.task.make_batch with seed = data_seed(seed, step)); torch runs with
use_deterministic_algorithms(True) and a fixed number of threads, so the same command
gives bit-identical weights on the same machine and torch build.
"""
import argparse
import datetime
import json
import math
import os
import platform
import shlex
import sys
import time

import torch
from torch.nn import functional as F

from posviz.tinylm import evaluate
from posviz.tinylm.model import TRAINED_METHODS, WEIGHTS_DIR, TinyConfig, TinyLM, save_weights
from posviz.tinylm.task import IGNORE, make_batch
from posviz.validate import check_choice, check_float, check_int

DEFAULTS = dict(steps=800, seed=0, batch_size=32, length=64, lr=6e-3, warmup=50, vocab_size=32,
                offset=2, d_model=64, n_layers=2, n_heads=4, threads=1)


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
    stream.write(f"\r{label:>10} [{bar}] {step:>5}/{steps} loss {loss:7.4f} {time.time() - t0:6.1f}s")
    if step == steps:
        stream.write("\n")
    stream.flush()


def train_one(method, *, steps=800, seed=0, batch_size=32, length=64, lr=6e-3, warmup=50, vocab_size=32,
              offset=2, d_model=64, n_layers=2, n_heads=4, threads=1, quiet=False):
    """Train one TinyLM; return (model, info dict with config, final loss, wall time)."""
    check_choice("method", method, TRAINED_METHODS)
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
                     n_heads=n_heads, max_length=length, t5_max_distance=length)
    model = TinyLM(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    t0, c0 = time.time(), time.process_time()
    loss_v = float("nan")
    for step in range(steps):
        for group in opt.param_groups:
            group["lr"] = lr_at(step, steps, lr, warmup)
        x, y = make_batch(batch_size, length, vocab_size=vocab_size, offset=offset,
                          seed=data_seed(seed, step))                             # [B,L] x2
        logits = model(x)                                                         # [B,L,V]
        loss = F.cross_entropy(logits.reshape(-1, vocab_size), y.reshape(-1), ignore_index=IGNORE)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        loss_v = loss.item()
        if not quiet and (step % 10 == 0 or step == steps - 1):
            progress(method, step + 1, steps, loss_v, t0)
    wall, cpu = time.time() - t0, time.process_time() - c0
    model.eval()
    info = dict(method=method, config=cfg.to_dict(), final_loss=loss_v, wall_time_s=round(wall, 2),
                cpu_time_s=round(cpu, 2), steps=steps, seed=seed, batch_size=batch_size, length=length, lr=lr,
                warmup=warmup, offset=offset, threads=threads)
    return model, info


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m posviz.tinylm.train", description=__doc__.split("\n")[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--method", choices=TRAINED_METHODS)
    g.add_argument("--all", action="store_true", help="train every method")
    for k, v in DEFAULTS.items():
        p.add_argument(f"--{k.replace('_', '-')}", type=type(v), default=v)
    p.add_argument("--out", default=WEIGHTS_DIR, help="directory for weights and MANIFEST.json")
    p.add_argument("--eval", action="store_true", help="also write results.json (posviz.tinylm.evaluate)")
    args = p.parse_args(argv)
    methods = list(TRAINED_METHODS) if args.all else [args.method]
    settings = {k: getattr(args, k) for k in DEFAULTS}
    os.makedirs(args.out, exist_ok=True)
    man_path = os.path.join(args.out, "MANIFEST.json")
    args_given = argv if argv is not None else sys.argv[1:]
    command = "python -m posviz.tinylm.train " + " ".join(shlex.quote(a) for a in args_given)
    t_all = time.time()
    trained = {}
    for method in methods:
        model, info = train_one(method, **settings)
        info["sha256"] = save_weights(model, os.path.join(args.out, f"{method}.pt"))
        info["command"] = command
        info["accuracy_at_train_length"] = evaluate.accuracy_at_length(model, length=args.length, offset=args.offset)
        trained[method] = info
    manifest = {"models": {}}
    if os.path.exists(man_path):      # keep the other methods' entries (read late: runs may overlap)
        with open(man_path, encoding="utf-8") as f:
            manifest = json.load(f)
    manifest["models"].update(trained)
    manifest.update(task="copy with offset (posviz.tinylm.task)", last_command=command,
                    last_wall_time_s=round(time.time() - t_all, 2),
                    machine=dict(python=platform.python_version(), torch=torch.__version__,
                                 cpu_count=os.cpu_count(), platform=platform.platform()),
                    date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    with open(man_path, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
    print(f"trained {', '.join(methods)} in {manifest['last_wall_time_s']} s -> {args.out}", file=sys.stderr)
    if args.eval:
        t_eval = time.time()
        res = evaluate.evaluate_all(weights_dir=args.out, threads=args.threads)
        res["command"] = command
        evaluate.save_results(res, os.path.join(args.out, "results.json"))
        print(f"evaluated in {time.time() - t_eval:.1f} s -> results.json", file=sys.stderr)
    return manifest


if __name__ == "__main__":
    main()
