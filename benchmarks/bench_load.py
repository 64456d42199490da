"""posviz load benchmark over Streamlit's websocket protocol: prints numbers, asserts nothing.

    python -m benchmarks.bench_load                  # all four parts
    python -m benchmarks.bench_load --quick          # fewer reruns and sessions
    python -m benchmarks.bench_load --only cpu       # or class, replicas, floor; comma-separated
    python -m benchmarks.bench_load --json out.json  # also write every number

The client is harness/ws_load.py (`python -m harness.ws_load --help`): one websocket per
simulated visitor, speaking Streamlit's protobuf protocol like the browser (script runs, deltas,
forward-message cache), no drawing. It runs as a subprocess with --json; this script reads its
summaries.

  cpu       server CPU per rerun on every page of app.py's PAGES, one session on a fresh
            `streamlit run` (harness.browser.app_server): sliders nudged 1-3 steps
            (--mode nudge) and a rerun with nothing changed (--mode same). Budgets of issue 12:
            nudge median over pages <= 60 ms, worst page <= 120 ms; same <= 25 ms.
  class     a lecture hall on one fresh process: 100 sessions over all pages, 3 slider moves
            each, 5 s apart (--think 5): visitors arriving over 30 s (--ramp 30 --no-barrier), and
            every visitor in the same second with every move in step (the worst case), each on a
            server warmed by deploy/warm.py (as the container and the cluster start it) and on a
            cold one. Budgets: 0 errors, first load p95 <= 3 s,
            interaction p95 <= 1 s, no "Page not found".
  replicas  the same closed-loop load (no think time) through HAProxy (deploy/cluster.py) in
            front of 1 replica, then of 2: reruns per second, latency, CPU of each replica.
  floor     Streamlit's own cost, without posviz: the rerun with nothing changed on pages that are
            only N st.markdown elements, fitted as fixed ms + ms per websocket frame; beside it
            each posviz page's frames per rerun and what Streamlit alone spends on that many
            (with `cpu` in the same run).

The numbers depend on what else runs on the machine: the load average before and after
each run is printed beside it.
"""
import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from deploy import warm
from deploy.cluster import Cluster, ClusterError
from harness.browser import app_server, page_paths

ROOT = pathlib.Path(__file__).resolve().parent.parent
os.chdir(ROOT)

PARTS = ("cpu", "class", "replicas", "floor")
BUDGET = dict(cpu_nudge_median_ms=60, cpu_nudge_worst_ms=120, cpu_same_worst_ms=25,
              class_first_load_p95_s=3, class_interaction_p95_s=1, class_errors=0)


class LoadError(RuntimeError):
    pass


def ws_load(url, *, pages, sessions=1, interactions=10, mode="nudge", think=0.0, server_pid=None,
            timeout=600, run_timeout=120, query="lang=en", seed=1, ramp=0.0, barrier=True):
    """Run harness.ws_load once against url; return its JSON (summary + raw runs)."""
    with tempfile.TemporaryDirectory(prefix="bench_load_") as tmp:
        out = pathlib.Path(tmp) / "ws_load.json"
        cmd = [sys.executable, "-m", "harness.ws_load", "--url", url, f"--page={','.join(pages)}",
               "--sessions", str(sessions), "--interactions", str(interactions), "--mode", mode, "--think", str(think),
               "--timeout", str(timeout), "--run-timeout", str(run_timeout), f"--query={query}",
               "--seed", str(seed), "--ramp", str(ramp), "--json", str(out)] + ([] if barrier else ["--no-barrier"])
        if server_pid:
            cmd += ["--server-pid", str(server_pid)]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout + 120)
        if not out.exists():
            raise LoadError(f"harness.ws_load failed (exit {proc.returncode}):\n{(proc.stdout + proc.stderr)[-2000:]}")
        return json.loads(out.read_text(encoding="utf-8"))


def cpu_s(pid):
    """User + system CPU seconds of a process (all its threads) from /proc."""
    try:
        parts = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def loadavg():
    try:
        return "%.1f %.1f %.1f" % os.getloadavg()
    except OSError:
        return "?"


def fmt(x, nd=0, scale=1.0):
    return "—" if x is None else f"{x * scale:.{nd}f}"


def dist_ms(d, key):
    return d.get(key) if d and d.get("n") else None


def errors_text(e):
    if not e["total"]:
        return "0"
    parts = [f"{k.replace('_', ' ')} {v}" for k, v in e.items() if v and k not in ("total", "runs_with_exception",
                                                                                   "incomplete_interactions")]
    return f"{e['total']} ({', '.join(parts)})"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# ------------------------------------------------------------------------- (a) CPU per rerun
def part_cpu(quick):
    n = 4 if quick else 10
    rows, raw = [], []
    with app_server() as (base, proc, healthy_s):
        print(f"\n## Server CPU per rerun, one session per page ({n} reruns each; fresh server, healthy after "
              f"{healthy_s:.1f} s)\n", flush=True)
        la0 = loadavg()
        for path in page_paths():
            rec = dict(page=path or "overview")
            for mode in ("nudge", "same"):
                sm = ws_load(base, pages=[path], interactions=n, mode=mode, server_pid=proc.pid)["summary"]
                phase = sm["server_interaction_phase"] or {}
                done = sm["interactions_done"]
                rec[mode] = dict(cpu_ms=(phase.get("cpu_s", 0) / done * 1000) if done and phase else None,
                                 frames=dist_ms(sm["frames_per_rerun"], "median"),
                                 latency_ms=dist_ms(sm["interaction_ms"], "median"),
                                 kb=dist_ms(sm["kb_per_rerun"], "median"), reruns=done,
                                 first_load_ms=dist_ms(sm["initial_load_ms"], "median"),
                                 errors=sm["errors"], widgets=sm["widgets_driven"])
            raw.append(rec)
            nu, sa = rec["nudge"], rec["same"]
            rows.append([f"/{path}", fmt(nu["cpu_ms"]), fmt(sa["cpu_ms"]), fmt(nu["latency_ms"]), fmt(sa["latency_ms"]),
                         fmt(nu["kb"], 1), fmt(nu["first_load_ms"]), f"{nu['reruns']}+{sa['reruns']}",
                         errors_text(nu["errors"]) + " / " + errors_text(sa["errors"]),
                         ", ".join(sorted(nu["widgets"])) or "—"])
        la1 = loadavg()
    print(table(["page", "CPU/rerun nudge (ms)", "CPU/rerun same (ms)", "rerun nudge median (ms)",
                 "rerun same median (ms)", "KB/rerun nudge", "first load (ms)", "reruns", "errors nudge / same",
                 "widgets nudged"], rows))
    nudge = [r["nudge"]["cpu_ms"] for r in raw if r["nudge"]["cpu_ms"] is not None]
    same = [r["same"]["cpu_ms"] for r in raw if r["same"]["cpu_ms"] is not None]
    summary = dict(nudge_median_ms=statistics.median(nudge) if nudge else None, nudge_worst_ms=max(nudge, default=None),
                   same_median_ms=statistics.median(same) if same else None, same_worst_ms=max(same, default=None))
    print(f"\nload average before {la0}, after {la1} ({os.cpu_count()} CPUs)\n")
    print(table(["budget (issue 12)", "measured", "limit"], [
        ["CPU per rerun, nudged sliders, median over pages", f"{fmt(summary['nudge_median_ms'])} ms",
         f"{BUDGET['cpu_nudge_median_ms']} ms"],
        ["CPU per rerun, nudged sliders, worst page", f"{fmt(summary['nudge_worst_ms'])} ms",
         f"{BUDGET['cpu_nudge_worst_ms']} ms"],
        ["CPU per rerun, nothing changed, worst page", f"{fmt(summary['same_worst_ms'])} ms "
         f"(median {fmt(summary['same_median_ms'])})", f"{BUDGET['cpu_same_worst_ms']} ms"]]), flush=True)
    return dict(pages=raw, summary=summary, loadavg=[la0, la1])


# ------------------------------------------------------------------------- (b) a class
# How a hall arrives, each run on its own fresh server: visitors arriving over 30 s as they scan the
# QR code, each then moving a slider on its own 5 s rhythm, on a server warmed by deploy/warm.py
# (every page; the container's deploy/serve.py warms every scene too) and on a cold one; and the
# worst case, every visitor in the same second and every slider move in step (on a cold server it is
# also the check that no visitor of a fresh server gets "Page not found").
CLASS_RUNS = (("arriving over 30 s, warmed server", 30.0, False, True),
              ("arriving over 30 s, cold server", 30.0, False, False),
              ("all at once and in step, warmed server", 0.0, True, True),
              ("all at once and in step, cold server", 0.0, True, False))


def part_class(quick):
    sessions = 30 if quick else 100
    return {what: _class_run(sessions, what, ramp, barrier, warmed) for what, ramp, barrier, warmed in CLASS_RUNS}


def _class_run(sessions, what, ramp, barrier, warmed):
    pages = page_paths()
    with app_server() as (base, proc, healthy_s):
        print(f"\n## A class on one process, {what}: {sessions} sessions over {len(pages)} pages, "
              f"3 slider moves each, 5 s apart\n", flush=True)
        if warmed:
            t0 = time.monotonic()
            failed = [r for r in warm.warm(base) if r[3]]
            print(f"(warmed by deploy/warm.py in {time.monotonic() - t0:.1f} s, {len(failed)} page runs failed)\n")
        la0 = loadavg()
        data = ws_load(base, pages=pages, sessions=sessions, interactions=3, mode="nudge", think=5.0,
                       server_pid=proc.pid, timeout=1200, run_timeout=180, ramp=ramp, barrier=barrier)
        la1 = loadavg()
    sm = data["summary"]
    fl, it, e = sm["initial_load_ms"], sm["interaction_ms"], sm["errors"]
    phase = sm["server_interaction_phase"] or {}
    first = sm["server_initial_phase"] or {}
    print(table(["sessions", "first load p50 (s)", "p95 (s)", "max (s)", "interaction p50 (s)", "p95 (s)", "max (s)",
                 "interactions done", "errors", "page not found", "server cores (loads / interactions)", "RSS (MB)"],
                [[sessions, fmt(dist_ms(fl, "median"), 2, 1e-3), fmt(dist_ms(fl, "p95"), 2, 1e-3),
                  fmt(dist_ms(fl, "max"), 2, 1e-3), fmt(dist_ms(it, "median"), 2, 1e-3),
                  fmt(dist_ms(it, "p95"), 2, 1e-3), fmt(dist_ms(it, "max"), 2, 1e-3),
                  f"{sm['interactions_done']}/{sessions * 3}", errors_text(e), e["page_not_found"],
                  f"{fmt(first.get('cores'), 2)} / {fmt(phase.get('cores'), 2)}",
                  f"{fmt(first.get('rss_mb_before'))} → {fmt(phase.get('rss_mb_after'))}"]]))
    print()
    print(table(["page", "interaction p50 (s)", "p95 (s)", "n"],
                [[f"/{p}" if p != "(overview)" else "/", fmt(dist_ms(d["latency_ms"], "median"), 2, 1e-3),
                  fmt(dist_ms(d["latency_ms"], "p95"), 2, 1e-3), d["latency_ms"]["n"]]
                 for p, d in sm["per_page"].items()]))
    if sm["sample_errors"]:
        print("\nerrors seen: " + "; ".join(sm["sample_errors"][:5]))
    if e["no_widget"]:
        print("(\"no widget\": ws_load found nothing it can drive on that page, e.g. a page without sliders; "
              "it counts this as an error, the app did not fail)")
    print(f"\nload average before {la0}, after {la1}; the client itself used {fmt(sm['client_cpu_s'], 1)} CPU s\n")
    print(table(["budget (issue 12)", "measured", "limit"], [
        ["errors", errors_text(e), BUDGET["class_errors"]],
        ["first load p95", f"{fmt(dist_ms(fl, 'p95'), 2, 1e-3)} s", f"{BUDGET['class_first_load_p95_s']} s"],
        ["interaction p95", f"{fmt(dist_ms(it, 'p95'), 2, 1e-3)} s", f"{BUDGET['class_interaction_p95_s']} s"],
        ["Page not found", e["page_not_found"], 0]]), flush=True)
    return dict(summary=sm, loadavg=[la0, la1], ramp_s=ramp, in_step=barrier, warmed=warmed)


# ------------------------------------------------------------------------- (c) 1 vs 2 replicas
def part_replicas(quick):
    sessions, interactions = (10, 4) if quick else (20, 8)
    # session i opens spread[i]: each page twice in a row, so that the balancer's round robin
    # sends every page to both replicas (and the same sessions to the single replica)
    spread = [p for p in page_paths() for _ in range(2)][:sessions]
    order = (1, 2) if quick else (1, 2, 2, 1)     # ABBA: a drifting machine load hits both alike
    print(f"\n## Throughput through HAProxy: 1 replica vs 2 ({sessions} sessions over {len(set(spread))} pages, "
          f"{interactions} slider moves each, no think time; runs in the order {', '.join(map(str, order))})\n",
          flush=True)
    header = ["replicas", "reruns/s", "interaction p50 (ms)", "p95 (ms)", "first load p50 (ms)", "p95 (ms)",
              "errors", "replica CPU (s)", "replica cores", "HAProxy CPU (s)", "connections per replica",
              "load average"]
    print(table(header, []), flush=True)       # rows follow as the runs finish
    raw = []
    for n in order:
        with Cluster(n) as c:
            # warm every replica directly (imports, first runs, caches), as before a lecture
            warm = [ws_load(r.url, pages=page_paths(), sessions=len(page_paths()), interactions=1, mode="nudge",
                            seed=7)["summary"] for r in c.replicas]
            stot0 = {s["svname"]: int(s.get("stot") or 0) for s in c.stats()}
            cpu0 = {r.name: cpu_s(r.pid) for r in c.replicas}
            hp0 = cpu_s(c.haproxy_proc.pid)
            la0 = loadavg()
            t0 = time.monotonic()
            sm = ws_load(c.url, pages=spread, sessions=sessions, interactions=interactions, mode="nudge",
                         timeout=900)["summary"]
            wall = time.monotonic() - t0
            la1 = loadavg()
            cpu = {r.name: (cpu_s(r.pid) or 0) - (cpu0[r.name] or 0) for r in c.replicas}
            hp = (cpu_s(c.haproxy_proc.pid) or 0) - (hp0 or 0)
            conns = {s["svname"]: int(s.get("stot") or 0) - stot0.get(s["svname"], 0) for s in c.stats()}
        it, fl = sm["interaction_ms"], sm["initial_load_ms"]
        rec = dict(replicas=n, throughput=sm["throughput_interactions_per_s"], interaction=it, first_load=fl,
                   errors=sm["errors"], replica_cpu_s=cpu, haproxy_cpu_s=hp, connections=conns, wall_s=wall,
                   loadavg=[la0, la1], sample_exceptions=sm["sample_exceptions"],
                   warmup_errors=sum(w["errors"]["total"] for w in warm),
                   warmup_exceptions=sorted({x for w in warm for x in w["sample_exceptions"]}))
        raw.append(rec)
        row = [n, fmt(rec["throughput"], 2), fmt(dist_ms(it, "median")), fmt(dist_ms(it, "p95")),
               fmt(dist_ms(fl, "median")), fmt(dist_ms(fl, "p95")), errors_text(sm["errors"]),
               " + ".join(f"{v:.1f}" for v in cpu.values()) + f" = {sum(cpu.values()):.1f}",
               f"{sum(cpu.values()) / wall:.2f}", f"{hp:.2f}",
               " / ".join(f"{k} {v}" for k, v in sorted(conns.items())), f"{la0} → {la1}"]
        print("| " + " | ".join(str(c) for c in row) + " |", flush=True)
    for i, r in enumerate(raw, 1):
        if r["sample_exceptions"] or r["warmup_errors"]:
            print(f"run {i} ({r['replicas']} replica{'s' if r['replicas'] > 1 else ''}): exceptions "
                  f"{r['sample_exceptions'][:3]}; warm-up (not measured): {r['warmup_errors']} errors "
                  f"{r['warmup_exceptions'][:3]}")
    mean = {n: statistics.mean([r["throughput"] or 0 for r in raw if r["replicas"] == n]) for n in (1, 2)}
    if mean[1] and mean[2]:
        print(f"\n2 replicas vs 1: {mean[2]:.2f} vs {mean[1]:.2f} reruns/s (mean over the runs) = "
              f"{mean[2] / mean[1]:.2f}× (this machine has {os.cpu_count()} cores, shared with whatever else runs: "
              f"the replica cores column is the CPU the replicas actually got)", flush=True)
    return dict(runs=raw, mean_throughput=mean)


# ------------------------------------------------------------------------- (d) Streamlit's own floor
# A page of one slider and N st.markdown elements, nothing of posviz, under the repository's
# .streamlit/config.toml: the rerun with nothing changed (--mode same) costs Streamlit itself
# a fixed part plus a part per element (the script's DeltaGenerator calls, the forward-message
# queue, one websocket frame each through Starlette and uvicorn).
FLOOR_APP = """import os

import streamlit as st

st.slider("s", 0, 10, 3, key="s")
for i in range(int(os.environ["POSVIZ_FLOOR_N"])):
    st.markdown(f"paragraph {i}")
"""


def part_floor(quick, pages=None):
    sizes = (10, 60, 110) if quick else (10, 40, 70, 110, 140)
    n = 30 if quick else 60
    points = []
    print(f"\n## Streamlit's own floor: a rerun with nothing changed on a page of N st.markdown ({n} reruns each)\n",
          flush=True)
    with tempfile.TemporaryDirectory(prefix="bench_floor_") as tmp:
        (pathlib.Path(tmp) / "app.py").write_text(FLOOR_APP, encoding="utf-8")
        shutil.copytree(ROOT / ".streamlit", pathlib.Path(tmp) / ".streamlit")
        for size in sizes:
            with app_server(app_dir=tmp, env={"POSVIZ_FLOOR_N": str(size)}) as (base, proc, _):
                ws_load(base, pages=[""], interactions=3, mode="same")                 # warm-up
                sm = ws_load(base, pages=[""], interactions=n, mode="same", server_pid=proc.pid)["summary"]
            points.append((sm["frames_per_rerun"]["median"], sm["server_interaction_phase"]["cpu_s"] /
                           sm["interactions_done"] * 1000, size))
    (fx, fy) = (statistics.mean(p[0] for p in points), statistics.mean(p[1] for p in points))
    slope = sum((x - fx) * (y - fy) for x, y, _ in points) / sum((x - fx) ** 2 for x, _, _ in points)
    fixed = fy - slope * fx                                   # least squares: cpu = fixed + slope * frames
    print(table(["st.markdown elements", "frames per rerun", "CPU per rerun (ms)"],
                [[size, f"{x:.0f}", f"{y:.1f}"] for x, y, size in points]))
    print(f"\nStreamlit alone: {fixed:.1f} ms + {slope * 1000:.0f} µs per frame; the 25 ms budget of a rerun with "
          f"nothing changed is reached at {(25 - fixed) / slope:.0f} frames, before any work of the page.")
    if pages:
        print("\n" + table(["page", "frames per rerun (same)", "CPU per rerun same (ms)", "of it Streamlit alone (ms)"],
                            [[f"/{r['page'] if r['page'] != 'overview' else ''}", fmt(r["same"]["frames"]),
                              fmt(r["same"]["cpu_ms"], 1), fmt(fixed + slope * r["same"]["frames"], 1)]
                             for r in pages if r["same"]["frames"]]))
    return dict(points=points, fixed_ms=fixed, ms_per_frame=slope)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--quick", action="store_true",
                    help="fewer reruns (cpu), 30 sessions (class), less load (replicas)")
    ap.add_argument("--only", default=",".join(PARTS), help="comma-separated parts: " + ", ".join(PARTS))
    ap.add_argument("--json", help="write every number to this file")
    a = ap.parse_args()
    parts = [p.strip() for p in a.only.split(",") if p.strip()]
    bad = [p for p in parts if p not in PARTS]
    if bad:
        ap.error(f"unknown part(s) {bad}; choose from {', '.join(PARTS)}")
    print(f"# posviz load benchmark (websocket protocol, harness/ws_load.py){' --quick' if a.quick else ''}\n\n"
          f"{os.cpu_count()} CPUs, load average {loadavg()} at the start; numbers from a shared machine are noisy.",
          flush=True)
    out = {}
    t0 = time.monotonic()
    for part in parts:
        try:
            if part == "floor":
                out[part] = part_floor(a.quick, (out.get("cpu") or {}).get("pages"))
            else:
                out[part] = dict(cpu=part_cpu, **{"class": part_class}, replicas=part_replicas)[part](a.quick)
        except (LoadError, ClusterError, RuntimeError) as e:
            print(f"\n{part}: could not run: {e}", flush=True)
            out[part] = dict(error=str(e))
    print(f"\n(bench_load took {time.monotonic() - t0:.0f} s)")
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"raw numbers: {a.json}")


if __name__ == "__main__":
    main()
