#!/usr/bin/env python3
"""A local posviz cluster: N `streamlit run app.py` replicas behind HAProxy, loopback only.

    python -m deploy.cluster start 2 8501    # 2 replicas on free loopback ports, balancer on 127.0.0.1:8501
    python -m deploy.cluster status [8501]   # replicas, pids, HAProxy's view of each server (UP/DOWN)
    python -m deploy.cluster stop [8501]     # stops the balancer and every replica (PORT: if several run)
    python -m deploy.cluster run 2 8501      # the same in the foreground; Ctrl-C stops everything

The balancer (deploy/haproxy.cfg, rendered for N replicas) has the affinity of
deploy/kubernetes.yaml: the cookie `posviz-replica` set by the balancer (one day), websocket
timeouts of one hour, health checks on /_stcore/health every 2 s, and `option redispatch` with
retries, so a browser whose replica died reconnects to a living one (Streamlit's frontend
reconnects by itself; the view is in the URL). Every response carries `X-Posviz-Replica: rN`.
Before the balancer starts, every replica opens each page and each scene once per language and
mode (deploy/warm.py; --warm pages|none for less), so that a class finds its caches full.

The hall's answers (posviz/hall) live in one Redis the replicas share: the cluster starts Debian's
redis-server with deploy/redis.conf (deploy/redis_server.py: append-only file, fsynced on every write)
on a free loopback port, its data in the run folder, and gives every replica POSVIZ_REDIS_URL; a
student on r1 and the lecturer on r2 then see the same room. --no-redis leaves it out (each replica
then uses the machine's SQLite file, shared all the same on one machine).

Each replica runs with the flags of harness.browser.app_server. Logs, the rendered config,
HAProxy's runtime-API socket and a state file (pids) live in the run folder,
$TMPDIR/posviz-cluster-PORT/. Missing haproxy is an error before anything starts.

From Python (tests/browser/test_cluster.py, benchmarks/bench_load.py):

    from deploy.cluster import Cluster
    with Cluster(2) as c:            # a free port; c.url is http://127.0.0.1:PORT
        c.replicas                   # [Replica(name="r1", port=..., pid=...), ...]
        c.states()                   # {"r1": "UP", "r2": "UP"}
        c.kill("r1")                 # SIGKILL one replica (its process group)
        c.redis.url                  # the hall's Redis (Cluster(2, redis=False): none)
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from deploy.redis_server import RedisServer, RedisServerError
from deploy.warm import WarmError, WebSocketException, healthy
from deploy.warm import warm as warm_server

ROOT = pathlib.Path(__file__).resolve().parent.parent

TEMPLATE = ROOT / "deploy" / "haproxy.cfg"
COOKIE = "posviz-replica"
REPLICA_HEADER = "X-Posviz-Replica"
HAPROXY_HINT = ("haproxy is not installed: install Debian's package (apt-get install -y haproxy) "
                "or set POSVIZ_HAPROXY to its path")
MAX_REPLICAS = 16


class ClusterError(RuntimeError):
    """The cluster could not be started or reached (the message says why)."""


def find_haproxy(explicit=None):
    """Path of the haproxy binary, or ClusterError with the install hint."""
    explicit = explicit or os.environ.get("POSVIZ_HAPROXY")
    if explicit:
        if os.path.isfile(explicit) and os.access(explicit, os.X_OK):
            return explicit
        raise ClusterError(f"{HAPROXY_HINT} (POSVIZ_HAPROXY={explicit!r} is not an executable)")
    found = shutil.which("haproxy")
    for path in (found, "/usr/sbin/haproxy", "/usr/local/sbin/haproxy"):
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise ClusterError(HAPROXY_HINT)


def replica_command(port, python=sys.executable):
    """`streamlit run app.py` with the flags of harness.browser.app_server, on 127.0.0.1:port."""
    return [python, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
            "--server.port", str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
            "--browser.gatherUsageStats", "false"]


def render_config(bind_port, replicas, socket_path, template=TEMPLATE):
    """deploy/haproxy.cfg with the balancer's port, the runtime socket and one server per replica."""
    servers = "\n".join(f"    server {r.name} 127.0.0.1:{r.port} cookie {r.name}" for r in replicas)
    text = pathlib.Path(template).read_text(encoding="utf-8")
    for token, value in (("@BIND@", f"127.0.0.1:{bind_port}"), ("@SOCKET@", str(socket_path)),
                         ("@SERVERS@", servers)):
        if text.count(token) != 1:
            raise ClusterError(f"{template} must hold {token} exactly once")
        text = text.replace(token, value)
    return text


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_is_free(port):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def run_dir_for(port):
    return pathlib.Path(tempfile.gettempdir()) / f"posviz-cluster-{port}"



def _cmdline(pid):
    try:
        return pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[:-1]
    except OSError:
        return None


def _stop_group(pid, cmd, proc=None, wait=15.0):
    """SIGTERM the process group `pid` leads (only if it still runs `cmd`), then SIGKILL after `wait`."""
    if proc is None:
        running = _cmdline(pid)
        if running is None or [c.decode() for c in running] != list(cmd):
            return        # gone, or the pid now belongs to someone else
    elif proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGTERM)
    t0 = time.monotonic()
    while time.monotonic() - t0 < wait:
        if (proc.poll() is not None) if proc is not None else _cmdline(pid) is None:
            return
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
    if proc is not None:
        with contextlib.suppress(Exception):
            proc.wait(10)


@dataclasses.dataclass
class Replica:
    name: str
    port: int
    pid: int | None = None
    cmd: list | None = None
    proc: subprocess.Popen | None = dataclasses.field(default=None, repr=False)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"


class Cluster:
    """N replicas + HAProxy on 127.0.0.1:port. A context manager; start() / stop() otherwise."""

    def __init__(self, replicas=2, port=None, *, python=sys.executable, haproxy=None, run_dir=None,
                 timeout=120.0, warm="pages", redis=True):
        if not 1 <= int(replicas) <= MAX_REPLICAS:
            raise ClusterError(f"replicas must be 1..{MAX_REPLICAS}, got {replicas}")
        if warm not in (None, False, "pages", "scenes"):
            raise ClusterError(f"warm must be 'pages', 'scenes' or None, got {warm!r}")
        self.n = int(replicas)
        self.port = int(port) if port else None
        self.python, self.haproxy_path, self.timeout, self.warm = python, haproxy, timeout, warm
        self.run_dir = pathlib.Path(run_dir) if run_dir else None
        self.replicas: list[Replica] = []
        self.want_redis = bool(redis)
        self.redis: RedisServer | None = None
        self.haproxy_proc = None
        self.haproxy_cmd = None
        self._logs = []

    # --------------------------------------------------------------- paths
    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    @property
    def socket_path(self):
        return self.run_dir / "haproxy.sock"

    @property
    def config_path(self):
        return self.run_dir / "haproxy.cfg"

    @property
    def state_path(self):
        return self.run_dir / "state.json"

    # --------------------------------------------------------------- start / stop
    def start(self):
        haproxy = find_haproxy(self.haproxy_path)          # before anything starts
        self.port = self.port or free_port()
        if not port_is_free(self.port):
            raise ClusterError(f"127.0.0.1:{self.port} is in use (another cluster? `python -m deploy.cluster "
                               f"status {self.port}`)")
        self.run_dir = self.run_dir or run_dir_for(self.port)
        if (self.run_dir / "state.json").exists():
            raise ClusterError(f"{self.run_dir} holds a running cluster's state; stop it first "
                               f"(python -m deploy.cluster stop {self.port})")
        self.run_dir.mkdir(parents=True, exist_ok=True)
        try:
            if self.want_redis:
                try:
                    self.redis = RedisServer(dir=self.run_dir / "redis").start()
                except RedisServerError as e:
                    raise ClusterError(str(e)) from None
            self._start_replicas()
            if self.warm:
                self._warm_replicas()
            self._start_haproxy(haproxy)
            self._write_state()
        except BaseException:
            self.stop()
            raise
        return self

    def _spawn(self, cmd, log_name, extra_env=None):
        log = open(self.run_dir / log_name, "wb")
        self._logs.append(log)
        env = {**os.environ, **(extra_env or {})}
        for k in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
            env.pop(k, None)
        return subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=env, start_new_session=True)

    def _start_replicas(self):
        ports = set()
        while len(ports) < self.n:
            p = free_port()
            if p != self.port:
                ports.add(p)
        for i, p in enumerate(sorted(ports), 1):
            cmd = replica_command(p, self.python)
            proc = self._spawn(cmd, f"r{i}.log", {"POSVIZ_REDIS_URL": self.redis.url} if self.redis else None)
            self.replicas.append(Replica(f"r{i}", p, proc.pid, cmd, proc))
        t0 = time.monotonic()
        waiting = list(self.replicas)
        while waiting:
            for r in list(waiting):
                if r.proc.poll() is not None:
                    tail = (self.run_dir / f"{r.name}.log").read_text(errors="replace")[-1500:]
                    raise ClusterError(f"replica {r.name} (port {r.port}) exited with {r.proc.returncode}:\n{tail}")
                if healthy(r.url):
                    waiting.remove(r)
            if waiting and time.monotonic() - t0 > self.timeout:
                raise ClusterError(f"replicas {[r.name for r in waiting]} not healthy after {self.timeout:.0f} s "
                                   f"(logs in {self.run_dir})")
            time.sleep(0.2)

    def _warm_replicas(self):
        """Every page once per language and mode on each replica (deploy/warm.py; warm="scenes": every
        scene too), all replicas at once, before the balancer sends them a visitor: a class then finds
        the caches full."""
        results = {}

        def one(r):
            try:
                runs = warm_server(r.url, scenes=self.warm == "scenes")
                results[r.name] = [f"/{path}?{query}: {err}" for path, query, _, err in runs if err]
            except (WarmError, OSError, TimeoutError, WebSocketException) as e:
                results[r.name] = [str(e)]
        threads = [threading.Thread(target=one, args=(r,), daemon=True) for r in self.replicas]
        for th in threads:
            th.start()
        for th in threads:
            th.join(600)      # each page run has its own timeout (deploy/warm.py); this bounds the whole
        failed = {name: errs for name, errs in results.items() if errs}
        if failed or len(results) < len(self.replicas):
            raise ClusterError(f"warming the replicas failed: {failed or 'timeout'} (logs in {self.run_dir})")

    def _start_haproxy(self, haproxy):
        self.config_path.write_text(render_config(self.port, self.replicas, self.socket_path), encoding="utf-8")
        check = subprocess.run([haproxy, "-c", "-f", str(self.config_path)], capture_output=True, text=True,
                               timeout=30)
        if check.returncode != 0:
            raise ClusterError(f"haproxy rejected {self.config_path}:\n{check.stdout}{check.stderr}")
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()
        self.haproxy_cmd = [haproxy, "-db", "-f", str(self.config_path)]
        self.haproxy_proc = self._spawn(self.haproxy_cmd, "haproxy.log")
        t0 = time.monotonic()
        while True:
            if self.haproxy_proc.poll() is not None:
                tail = (self.run_dir / "haproxy.log").read_text(errors="replace")[-1500:]
                raise ClusterError(f"haproxy exited with {self.haproxy_proc.returncode}:\n{tail}")
            states = self.states() if self.socket_path.exists() else {}
            if healthy(self.url) and states and all(s == "UP" for s in states.values()):
                return
            if time.monotonic() - t0 > 30:
                raise ClusterError(f"balancer on {self.url} not ready after 30 s (servers: {states})")
            time.sleep(0.2)

    def _write_state(self):
        state = dict(port=self.port, url=self.url, run_dir=str(self.run_dir), started=time.time(),
                     haproxy=dict(pid=self.haproxy_proc.pid, cmd=self.haproxy_cmd),
                     replicas=[dict(name=r.name, port=r.port, pid=r.pid, cmd=r.cmd) for r in self.replicas],
                     redis=dict(pid=self.redis.proc.pid, port=self.redis.port, dir=str(self.redis.dir),
                                url=self.redis.url) if self.redis else None)
        self.state_path.write_text(json.dumps(state, indent=1), encoding="utf-8")

    def stop(self):
        """Stop the balancer first (no new connections), then every replica. Idempotent."""
        if self.haproxy_proc is not None:
            _stop_group(self.haproxy_proc.pid, self.haproxy_cmd, self.haproxy_proc)
        for r in self.replicas:
            if r.proc is not None:
                _stop_group(r.pid, r.cmd, r.proc)
        if self.redis is not None:
            self.redis.stop()          # last: a replica never finds its store gone while it runs
        for log in self._logs:
            log.close()
        self._logs = []
        if self.run_dir is not None:
            for p in (self.state_path, self.socket_path):
                with contextlib.suppress(FileNotFoundError):
                    p.unlink()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # --------------------------------------------------------------- while it runs
    def replica(self, name):
        for r in self.replicas:
            if r.name == name:
                return r
        raise KeyError(name)

    def kill(self, name, sig=signal.SIGKILL):
        """Kill one replica's process group (SIGKILL: a crash, no goodbye to its websockets)."""
        r = self.replica(name)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(r.pid, sig)
        if r.proc is not None:
            with contextlib.suppress(Exception):
                r.proc.wait(15)

    def admin(self, command, timeout=5.0):
        """One command on HAProxy's runtime API (the stats socket); returns its answer."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(str(self.socket_path))
            s.sendall(command.encode() + b"\n")
            chunks = []
            while True:
                b = s.recv(65536)
                if not b:
                    break
                chunks.append(b)
        return b"".join(chunks).decode(errors="replace")

    def stats(self):
        """HAProxy's `show stat` rows of the replicas backend (dicts keyed by its CSV header)."""
        try:
            text = self.admin("show stat")
        except OSError:
            return []
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if not lines or not lines[0].startswith("# "):
            return []
        header = lines[0][2:].split(",")
        rows = [dict(zip(header, ln.split(","))) for ln in lines[1:]]
        return [r for r in rows if r.get("pxname") == "replicas" and r.get("svname") not in ("BACKEND", "FRONTEND")]

    def states(self):
        """{"r1": "UP", "r2": "DOWN", ...} as HAProxy's health checks see the replicas."""
        return {r["svname"]: r.get("status", "?").split(" ")[0] for r in self.stats()}

    def wait_state(self, name, state, timeout=30.0):
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if self.states().get(name) == state:
                return True
            time.sleep(0.2)
        return False

    # --------------------------------------------------------------- CLI helpers
    @classmethod
    def from_state(cls, state):
        c = cls(len(state["replicas"]), state["port"], run_dir=state["run_dir"])
        c.replicas = [Replica(r["name"], r["port"], r["pid"], r["cmd"]) for r in state["replicas"]]
        c.haproxy_cmd = state["haproxy"]["cmd"]
        c._haproxy_pid = state["haproxy"]["pid"]
        c._redis_pid = (state.get("redis") or {}).get("pid")
        return c

    def stop_detached(self):
        """Stop a cluster started by another process (`start`), by the pids of its state file."""
        _stop_group(self._haproxy_pid, self.haproxy_cmd)
        for r in self.replicas:
            _stop_group(r.pid, r.cmd)
        if getattr(self, "_redis_pid", None) and _cmdline(self._redis_pid):
            if b"redis-server" in _cmdline(self._redis_pid)[0]:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self._redis_pid, signal.SIGTERM)
        for p in (self.state_path, self.socket_path):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()


def _states_on_disk(port=None):
    paths = [run_dir_for(port) / "state.json"] if port else \
        sorted(pathlib.Path(tempfile.gettempdir()).glob("posviz-cluster-*/state.json"))
    out = []
    for p in paths:
        with contextlib.suppress(OSError, ValueError):
            out.append(json.loads(p.read_text(encoding="utf-8")))
    return out


def _one_state(port):
    states = _states_on_disk(port)
    if not states:
        raise ClusterError(f"no posviz cluster is running{f' on port {port}' if port else ''}")
    if len(states) > 1:
        raise ClusterError("several clusters run; name the port: "
                           + ", ".join(str(s["port"]) for s in states))
    return states[0]


def _print_status(c):
    states = c.states()
    print(f"balancer {c.url}  (HAProxy; run folder {c.run_dir})")
    if c.redis is not None:
        print(f"  redis  {c.redis.url}  (the hall's store)")
    for r in c.replicas:
        print(f"  {r.name}  {r.url}  pid {r.pid}  {states.get(r.name, 'unknown')}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    for name in ("start", "run"):
        p = sub.add_parser(name, help="start N replicas behind a balancer on PORT"
                           + (" (foreground; Ctrl-C stops)" if name == "run" else " (returns; `stop` ends it)"))
        p.add_argument("replicas", type=int)
        p.add_argument("port", type=int)
        p.add_argument("--warm", choices=("scenes", "pages", "none"), default="scenes",
                       help="what each replica opens once before the balancer starts (default: every page and scene)")
        p.add_argument("--no-redis", action="store_true",
                       help="no Redis for the hall's answers (the replicas share the machine's SQLite file)")
    for name in ("stop", "status"):
        sub.add_parser(name).add_argument("port", type=int, nargs="?")
    a = ap.parse_args(argv)
    try:
        if a.command in ("start", "run"):
            c = Cluster(a.replicas, a.port, warm=None if a.warm == "none" else a.warm, redis=not a.no_redis).start()
            _print_status(c)
            if a.command == "start":
                print(f"open {c.url}/ ; stop with: python -m deploy.cluster stop {c.port}")
                return 0
            print("Ctrl-C stops the cluster")
            try:
                while c.haproxy_proc.poll() is None:
                    time.sleep(1)
                print("haproxy exited", file=sys.stderr)
                return 1
            except KeyboardInterrupt:
                return 0
            finally:
                c.stop()
        state = _one_state(a.port)
        c = Cluster.from_state(state)
        if a.command == "status":
            _print_status(c)
        else:
            c.stop_detached()
            print(f"stopped the cluster on {c.url}")
        return 0
    except ClusterError as e:
        print(f"cluster: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
