"""Start and stop Debian's redis-server with deploy/redis.conf, on a loopback port, for the local cluster
(deploy/cluster.py), the tests and the benchmarks.

    from deploy.redis_server import RedisServer
    with RedisServer() as r:        # a free port, data in a temp folder (or dir=...)
        r.url                       # redis://127.0.0.1:PORT/0
        r.restart()                 # SIGKILL, then start again on the same port and data (durability tests)

Missing redis-server is a RedisServerError with the install hint.
"""
from __future__ import annotations

import contextlib
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONF = ROOT / "deploy" / "redis.conf"
HINT = "redis-server is not installed: apt-get install -y redis-server (or set POSVIZ_REDIS_SERVER to its path)"


class RedisServerError(RuntimeError):
    """redis-server is missing or did not start (the message says why)."""


def find_redis_server():
    path = os.environ.get("POSVIZ_REDIS_SERVER") or shutil.which("redis-server") or "/usr/bin/redis-server"
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise RedisServerError(HINT)
    return path


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ping(port, timeout=0.5):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """redis-server on 127.0.0.1:port with deploy/redis.conf; its data (the append-only file) in `dir`."""

    def __init__(self, port=None, dir=None, timeout=20.0):
        self.port = port or _free_port()
        self._tmp = None if dir else tempfile.mkdtemp(prefix="posviz-redis-")
        self.dir = pathlib.Path(dir or self._tmp)
        self.timeout = timeout
        self.proc = None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        binary = find_redis_server()
        self.dir.mkdir(parents=True, exist_ok=True)
        log = open(self.dir / "redis.log", "ab")
        self.proc = subprocess.Popen([binary, str(CONF), "--port", str(self.port), "--bind", "127.0.0.1",
                                      "--dir", str(self.dir), "--daemonize", "no"],
                                     stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True)
        log.close()
        t0 = time.monotonic()
        while not _ping(self.port):
            if self.proc.poll() is not None:
                tail = (self.dir / "redis.log").read_text(errors="replace")[-1500:]
                raise RedisServerError(f"redis-server exited with {self.proc.returncode}:\n{tail}")
            if time.monotonic() - t0 > self.timeout:
                self.stop()
                raise RedisServerError(f"redis-server did not answer on port {self.port}")
            time.sleep(0.05)
        return self

    def kill(self):
        """SIGKILL: a crash, nothing flushed beyond what Redis already wrote."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def restart(self):
        self.kill()
        return self.start()

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
