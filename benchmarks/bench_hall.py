"""bench_hall: a lecture hall answering one question over Streamlit's websocket, through HAProxy.

    python -m benchmarks.bench_hall [--students 300] [--replicas 2] [--spread 10] [--no-kill] [--json F]

A local cluster (deploy/cluster.py: N replicas behind HAProxy, with the hall's Redis) serves a room the
benchmark opens and asks through posviz.hall (the lecturer's key). Every student is a headless browser tab
(harness/ws_load.Session: Streamlit's protobuf protocol on /_stcore/stream, through the balancer, which
spreads new connections round robin): it opens /hall?room=CODE, looks at the room's version every POLL_S as the
phone's watch does (assets/hall_watch.js: an HTTP GET of posviz's route, no script run; the page would rerun on a
new version), and at a random moment within --spread seconds taps a choice: a POST to posviz's route, as the
answer box's script sends it (assets/hall_answer.js), through the balancer. Its answer is acknowledged when the
route answers 200 (the store holds it). The lecturer is a tab on the question's scene, its live count rerun
every COUNT_S by the page's timer (the `auto_rerun` message).

Printed: tap -> acknowledged (p50 / p95 / max), errors, when the lecturer's count was exact after the last
acknowledgement, the server CPU per answer (each replica's CPU over the answers minus its CPU while the same
tabs only polled, per answer) and per second of polling. Then (unless --no-kill) the same with a new
question, one replica killed with SIGKILL in the middle: its students reconnect through the balancer (a new
websocket, the same URL: the same voter) and tap again if their answer was not acknowledged; every
acknowledged answer must then be in Redis ("lost" counts those that are not).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time

from deploy.cluster import Cluster
from harness import ws_load
from harness.hall_client import open_tab, post_answer, room_version
from posviz.hall import rooms
from posviz.hall.redis_store import RedisStore
from posviz.scenes import QUESTIONS
from posviz.ui.hall import POLL_S

FIRST, SECOND = "rope.shift", "decay.indep"        # multiple-choice questions: the first run, the one with a kill
QUIET = "rope.layouts"                             # the question of the one-at-a-time measure


class Student:
    def __init__(self, i, base, code, rng):
        self.i, self.base, self.code, self.rng = i, base, code, rng
        self.tab = None
        self.acked = None            # (voter, choice index) the student saw acknowledged
        self.latency = None          # tap -> acknowledged, s
        self.errors = []
        self.reconnects = 0
        self.taps = 0
        self.t_tap = None
        self.ack_clock = None        # perf_counter when the acknowledgement arrived
        self.polls = 0
        self.missed_looks = 0        # looks at the room's version that got no answer (a replica going away)

    async def connect(self, deadline, query=None):
        self.tab = await open_tab(self.i, self.base, "hall", query or f"room={self.code}&lang=en", deadline)
        if self.tab.disconnect:
            self.errors.append(self.tab.disconnect)

    async def tap(self, pick, deadline):
        box = self.tab.answer_box
        if box is None:
            self.errors.append("no answer box")
            return
        self.taps += 1
        self.t_tap = self.t_tap or time.perf_counter()     # a second tap after a reconnection: from the first
        status, got = await post_answer(self.base, box, pick)
        if status == 200 and got.get("status") in ("new", "changed"):
            self._ack(pick)
        elif status is not None:
            self.errors.append(f"{status}: {got}")
        # no answer at all (the replica went away mid-request): not acknowledged; the student taps again

    def _ack(self, pick):
        self.ack_clock = time.perf_counter()
        self.acked = (self.tab.voter(), pick)
        self.latency = self.ack_clock - self.t_tap

    async def life(self, tap_at, pick, stop_at, deadline):
        """Look at the room's version every POLL_S until tap_at, tap, look on until stop_at; reconnect (and tap
        again if not yet acknowledged) when the replica goes away."""
        loop = asyncio.get_running_loop()
        tapped = False
        while loop.time() < stop_at:
            if self.tab.disconnect:
                self.reconnects += 1
                await self.tab.close()
                query = self.tab.qs                       # the URL the page had: its voter token kept
                await asyncio.sleep(self.rng.uniform(0.5, 1.5))
                await self.connect(deadline, query)
                if self.tab.disconnect:
                    continue
                if tapped and self.acked is None:
                    box = self.tab.answer_box
                    if box is not None and box["mine"] == pick:
                        self._ack(pick)                  # the page shows the answer the store holds
                    else:
                        tapped = False                   # not acknowledged: the student taps again
            if not tapped and loop.time() >= tap_at:
                tapped = True
                await self.tap(pick, deadline)
                continue
            nxt = min(loop.time() + POLL_S, tap_at if not tapped else stop_at)
            await asyncio.sleep(max(0.0, nxt - loop.time()))
            if loop.time() < stop_at and not self.tab.disconnect and (tapped or loop.time() < tap_at):
                self.polls += 1
                if await room_version(self.base, self.code) == "error":
                    self.missed_looks += 1               # the phone looks again at its next tick


def cpu(pids):
    return {name: (ws_load.proc_sample(pid) or {}).get("cpu_s", 0.0) for name, pid in pids.items()}


class Lecturer:
    """The lecturer's tab on the question's scene: its live count rerun by the page's timer; `seen` gets (time,
    count) of every run. A tab whose replica died reconnects through the balancer with the same URL."""

    def __init__(self, base, query):
        self.base, self.query, self.tab, self.seen, self.runs, self.reconnects = base, query, None, [], 0, 0

    async def open(self, deadline):
        self.tab = await open_tab(-1, self.base, self.query[0], self.query[1], deadline)

    async def watch(self, stop_at, deadline):
        loop = asyncio.get_running_loop()
        while loop.time() < stop_at:
            if self.tab.disconnect:
                self.reconnects += 1
                await self.tab.close()
                await asyncio.sleep(1.0)
                self.tab = await open_tab(-1, self.base, self.query[0], self.tab.qs, deadline)
                continue
            if not self.tab.timers:
                await asyncio.sleep(0.5)
                continue
            self.runs += 1
            await self.tab.run(next(iter(self.tab.timers)), deadline)
            if self.tab.metrics.get("Answers", "").isdigit():
                self.seen.append((time.perf_counter(), int(self.tab.metrics["Answers"])))
            await asyncio.sleep(min(self.tab.timers.values()))


async def one_question(cluster, hall, code, key, qid, n, spread, kill, rng):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 300
    hall.ask(code, key, qid)
    scene = QUESTIONS[qid]["scene"] + 1
    page = QUESTIONS[qid]["page"].replace("_", "-")
    lecturer = Lecturer(cluster.url, (page, f"scene={scene}&lang=en&present=1&hall={code}&hallkey={key}"))
    await lecturer.open(deadline)
    students = [Student(i, cluster.url, code, random.Random(rng.random())) for i in range(n)]
    for s in students:
        s.t_tap = None
    t_open = time.perf_counter()
    for k in range(0, n, 25):       # arriving in groups of 25, as a hall scanning the QR code
        await asyncio.gather(*(s.connect(deadline) for s in students[k:k + 25]))
    t_joined = time.perf_counter()
    pids = {r.name: r.pid for r in cluster.replicas} | {"redis": cluster.redis.proc.pid}
    # polling only, for as long as the answers will take: the cost of the open page without answers
    base0, b_t0 = cpu(pids), time.perf_counter()
    start = loop.time()
    stop = start + 4
    await asyncio.gather(lecturer.watch(stop, deadline), *(s.life(stop + 1, 0, stop, deadline) for s in students))
    base1, b_t1 = cpu(pids), time.perf_counter()
    base_runs = sum(s.polls for s in students) + lecturer.runs
    lecturer.seen.clear()
    # the answers: each student taps once within `spread` seconds
    n_choices = len(QUESTIONS[qid]["choices"])
    picks = [rng.randrange(n_choices) for _ in students]
    start = loop.time()
    stop = start + spread + 6
    c0 = cpu(pids)

    async def killer():
        if kill:
            await asyncio.sleep(spread / 2)
            cluster.kill(kill)

    t_answers = time.perf_counter()
    await asyncio.gather(killer(), lecturer.watch(stop, deadline),
                         *(s.life(start + rng.uniform(0, spread), p, stop, deadline) for s, p in zip(students, picks)))
    c1 = cpu(pids)
    acked = [s for s in students if s.acked]
    last_ack = max((s.latency for s in acked), default=None)
    in_store = {v: int(x) for v, x in zip(*_store_answers(hall, code, qid))}
    lost = [s.acked for s in acked if in_store.get(s.acked[0]) != s.acked[1]]
    lat = [s.latency for s in acked]
    answer_cpu = {k: c1[k] - c0[k] for k in c0 if k != kill}     # a killed replica's CPU is gone with it
    poll_rate = {k: (base1[k] - base0[k]) / (b_t1 - b_t0) for k in base0}
    secs = time.perf_counter() - t_answers
    out = dict(question=qid, students=n, joined_s=t_joined - t_open, acked=len(acked), lost=len(lost),
               errors=sum(len(s.errors) for s in students), error_kinds=sorted({e[:60] for s in students for e in
                                                                                s.errors})[:5],
               reconnects=sum(s.reconnects for s in students), taps=sum(s.taps for s in students),
               missed_looks=sum(s.missed_looks for s in students),
               p50_s=ws_load.percentile(lat, 50), p95_s=ws_load.percentile(lat, 95), max_s=last_ack,
               stored=len(in_store), lecturer_count_after_last_ack_s=None, killed=kill or None,
               cpu_answers_s=answer_cpu, cpu_polling_per_s=poll_rate, answer_window_s=secs)
    seen = lecturer.seen
    exact = [t for t, count in seen if count == len(in_store)]
    if exact and acked:      # the lecturer's count first equal to the answers Redis holds, after the last ack
        out["lecturer_count_after_last_ack_s"] = exact[0] - max(s.ack_clock for s in acked)
    out["lecturer_count_last"] = seen[-1][1] if seen else None
    # CPU per answer: the replicas' CPU over the answers less what their polls and the lecturer's count cost
    # (the CPU per such run while the same tabs only polled), per tap
    replicas = [r.name for r in cluster.replicas]
    per_run = sum(base1[r] - base0[r] for r in replicas) / max(1, base_runs)
    runs = sum(s.polls for s in students) + lecturer.runs - base_runs
    out.update(poll_ms=per_run * 1000, polls_and_counts=runs, lecturer_reconnects=lecturer.reconnects)
    if not kill:
        spent = sum(c1[r] - c0[r] for r in replicas)
        out["cpu_ms_per_answer"] = (spent - per_run * runs) / max(1, out["taps"]) * 1000
    else:
        out["cpu_ms_per_answer"] = None
    await asyncio.gather(*(s.tab.close() for s in students), lecturer.tab.close())
    return out


async def quiet_cost(cluster, hall, code, key, n):
    """Server CPU of one answer with nothing else going on: n tabs answer one after the other (no polls) ->
    ms per answer (the replicas' CPU over the answers / n)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 300
    hall.ask(code, key, QUIET)
    students = [Student(i, cluster.url, code, None) for i in range(n)]
    for s in students:
        await s.connect(deadline)
    pids = {r.name: r.pid for r in cluster.replicas}
    c0 = cpu(pids)
    for s in students:
        await s.tap(1, deadline)
    c1 = cpu(pids)
    await asyncio.gather(*(s.tab.close() for s in students))
    assert all(s.acked for s in students), [s.errors for s in students if not s.acked][:3]
    return sum(c1[k] - c0[k] for k in pids) / n * 1000


def _store_answers(hall, code, qid):
    st = hall.store
    h = st.r.hgetall(f"posviz:ans:{{{code}}}:{qid}")
    return list(h.keys()), list(h.values())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--students", type=int, default=300)
    ap.add_argument("--replicas", type=int, default=2)
    ap.add_argument("--spread", type=float, default=10.0, help="seconds over which the students tap")
    ap.add_argument("--no-kill", action="store_true", help="skip the second question with a replica killed")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", help="write the numbers here")
    a = ap.parse_args(argv)
    rng = random.Random(a.seed)
    print(f"bench_hall: {a.students} students, {a.replicas} replicas behind HAProxy, Redis; load average "
          f"{ws_load.loadavg()}", flush=True)
    results = []
    with Cluster(a.replicas, timeout=180, warm=None) as cluster:
        hall = rooms.Hall(RedisStore(cluster.redis.url))
        code, key = hall.open_room("bench")
        for r in cluster.replicas:            # one visit per replica first: imports and caches of a fresh process
            asyncio.run(_visit(r.url, code))
        quiet = asyncio.run(quiet_cost(cluster, hall, code, key, 100))
        print(f"\none answer at a time (100 tabs, no polls): {quiet:.1f} ms server CPU per answer", flush=True)
        results.append(asyncio.run(one_question(cluster, hall, code, key, FIRST, a.students, a.spread, None, rng)))
        _report(results[-1])
        if not a.no_kill:
            results.append(asyncio.run(one_question(cluster, hall, code, key, SECOND, a.students, a.spread, "r1",
                                                    rng)))
            _report(results[-1])
    print(f"load average after: {ws_load.loadavg()}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"quiet_ms_per_answer": quiet, "questions": results}, f, indent=1, default=str)
    return 0


async def _visit(url, code):
    loop = asyncio.get_running_loop()
    tab = await open_tab(0, url, "hall", f"room={code}&lang=en", loop.time() + 120)
    await tab.close()


def _fmt(x, unit="s"):
    return "—" if x is None else f"{x:.2f} {unit}"


def _report(r):
    print(f"\n{r['question']}: {r['students']} students joined in {_fmt(r['joined_s'])}"
          + (f"; replica {r['killed']} killed mid-question" if r["killed"] else ""))
    print(f"  acknowledged {r['acked']} / {r['students']}  (taps {r['taps']}, reconnections {r['reconnects']}, "
          f"errors {r['errors']} {r['error_kinds'] if r['errors'] else ''})")
    print(f"  tap -> acknowledged: p50 {_fmt(r['p50_s'])}, p95 {_fmt(r['p95_s'])}, max {_fmt(r['max_s'])}")
    print(f"  in Redis: {r['stored']} answers; acknowledged answers lost: {r['lost']}")
    print(f"  lecturer's count exact ({r['lecturer_count_last']}) {_fmt(r['lecturer_count_after_last_ack_s'])} after "
          f"the last acknowledgement")
    print("  CPU over the answers (s): " + ", ".join(f"{k} {v:.2f}" for k, v in r["cpu_answers_s"].items())
          + f" in {r['answer_window_s']:.1f} s; while only polling (CPU s per s): "
          + ", ".join(f"{k} {v:.3f}" for k, v in r["cpu_polling_per_s"].items()))
    print(f"  a phone's look at its room or a live count run: {r['poll_ms']:.2f} ms CPU; {r['polls_and_counts']} of "
          f"them during the answers ({r['missed_looks']} looks unanswered); the lecturer's tab reconnected "
          f"{r['lecturer_reconnects']} times")
    if r["cpu_ms_per_answer"] is not None:
        print(f"  server CPU per answer (its own run; polls and live counts taken out): "
              f"{r['cpu_ms_per_answer']:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
