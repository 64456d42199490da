"""deploy/ without a server: the warm-up's scene links and its event-loop guard, the entry points'
--help, the balancer's config (checked by haproxy itself) and a clear failure without haproxy.

The servers, the cluster and the browser sessions are tested in tests/browser/ (test_warm.py,
test_cluster.py).
"""
import asyncio
import os
import re
import socket
import subprocess
import sys

import pytest

from deploy import warm
from deploy.cluster import COOKIE, Cluster, ClusterError, Replica, find_haproxy, render_config
from harness.browser import ROOT, free_port, page_paths, require


def _haproxy_missing_reason():
    try:
        find_haproxy()
    except ClusterError as e:
        return str(e)
    return None


def _k8s_annotation(name):
    text = (ROOT / "deploy" / "kubernetes.yaml").read_text(encoding="utf-8")
    m = re.search(rf'nginx\.ingress\.kubernetes\.io/{re.escape(name)}:\s*"([^"]*)"', text)
    assert m, f"deploy/kubernetes.yaml has no {name} annotation"
    return m.group(1)


def _seconds(value):
    m = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", value)
    assert m, value
    return int(m.group(1)) * {"ms": 0.001, None: 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]


def test_scene_counts_name_pages_of_the_app():
    counts = warm.scene_counts()
    assert set(counts) <= set(page_paths()) and counts["rope"] >= 5 and counts["kv-cache"] >= 3 and counts[""] >= 3


def test_entry_points_answer_help_without_starting_anything(tmp_path):
    """--help prints the usage and exits 0: serve.py starts no Streamlit, gallery_check.py writes no
    file named --help (it takes an output path)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}     # run from another folder, as `python -m` finds them
    for module in ("deploy.serve", "benchmarks.gallery_check"):
        out = subprocess.run([sys.executable, "-m", module, "--help"], cwd=tmp_path, capture_output=True,
                             text=True, timeout=60, env=env)
        assert out.returncode == 0 and out.stdout.startswith("usage:"), (module, out.stderr[-500:])
    assert list(tmp_path.iterdir()) == []


def test_warm_can_be_called_where_an_event_loop_runs():
    """Playwright's sync API (benchmarks/bench_app.py) keeps an event loop running in its thread."""
    async def inside():
        try:
            warm.warm(f"http://127.0.0.1:{free_port()}", langs=("en",), modes=("",))
        except OSError as e:       # nothing listens there: the connection is refused, not a RuntimeError
            return type(e).__name__
    assert asyncio.run(inside()) == "ConnectionRefusedError"


def test_balancer_config_has_the_affinity_of_kubernetes_yaml(tmp_path):
    require(_haproxy_missing_reason())
    cfg = render_config(8501, [Replica("r1", 8502), Replica("r2", 8503)], tmp_path / "haproxy.sock")
    (tmp_path / "haproxy.cfg").write_text(cfg, encoding="utf-8")
    check = subprocess.run([find_haproxy(), "-c", "-f", str(tmp_path / "haproxy.cfg")], capture_output=True,
                           text=True, timeout=30)
    assert check.returncode == 0, check.stdout + check.stderr
    lines = [ln.split("#")[0].strip() for ln in cfg.splitlines()]
    lines = [ln for ln in lines if ln]
    cookie = next(ln for ln in lines if ln.startswith("cookie "))
    # the cookie set by the balancer, named and aged as the Ingress's
    assert cookie.split()[1] == COOKIE == _k8s_annotation("session-cookie-name")
    assert "insert" in cookie.split()
    assert f"Max-Age={_k8s_annotation('session-cookie-max-age')}" in cookie
    assert _k8s_annotation("affinity") == "cookie"
    # websocket-friendly timeouts: at least the Ingress's one hour
    timeouts = {ln.split()[1]: _seconds(ln.split()[2]) for ln in lines if ln.startswith("timeout ")}
    for key in ("tunnel", "client", "server"):
        assert timeouts[key] >= int(_k8s_annotation("proxy-read-timeout")) >= 3600, (key, timeouts)
    # health checks on Streamlit's endpoint; a dead replica's visitors go to a living one
    assert "option httpchk GET /_stcore/health" in lines
    assert "option redispatch 1" in lines and any(ln.startswith("retries ") and int(ln.split()[1]) >= 1
                                                    for ln in lines)
    servers = [ln.split() for ln in lines if ln.startswith("server ")]
    assert [s[1] for s in servers] == ["r1", "r2"] and all(s[2].startswith("127.0.0.1:") for s in servers)
    binds = [ln.split()[1] for ln in lines if ln.startswith("bind ")]
    assert binds == ["127.0.0.1:8501"], "loopback only"
    # Streamlit's frontend files leave the replicas uncompressed: the balancer gzips text (JavaScript above all)
    assert "compression algo gzip" in lines
    types = next(ln for ln in lines if ln.startswith("compression type ")).split()[2:]
    assert {"text/html", "text/css", "text/javascript", "application/javascript"} <= set(types)


def test_missing_haproxy_fails_clearly_before_anything_starts():
    port = free_port()
    env = dict(os.environ, POSVIZ_HAPROXY=os.path.join(str(ROOT), "no-such-dir", "haproxy"))
    out = subprocess.run([sys.executable, "-m", "deploy.cluster", "start", "2", str(port)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "haproxy is not installed" in out.stderr and "apt-get install -y haproxy" in out.stderr, out.stderr
    with socket.socket() as s:       # nothing listens on the port: nothing was started
        s.bind(("127.0.0.1", port))
    with pytest.raises(ClusterError, match="haproxy is not installed"):
        Cluster(2, haproxy="/no-such-dir/haproxy").start()


def test_every_deployment_gives_the_replicas_one_durable_redis():
    """The hall's store: deploy/redis.conf fsyncs every write to the append-only file; the Kubernetes manifest
    and the Compose file run Redis with the same settings and give every replica POSVIZ_REDIS_URL."""
    conf = (ROOT / "deploy" / "redis.conf").read_text(encoding="utf-8")
    settings = dict(line.split(None, 1) for line in conf.splitlines() if line.strip() and not line.startswith("#"))
    assert settings["appendonly"] == "yes" and settings["appendfsync"] == "always"
    assert settings["maxmemory-policy"] == "noeviction"
    k8s = (ROOT / "deploy" / "kubernetes.yaml").read_text(encoding="utf-8")
    assert '"--appendonly", "yes", "--appendfsync", "always"' in k8s and "noeviction" in k8s
    assert "POSVIZ_REDIS_URL" in k8s and "kind: StatefulSet" in k8s and "volumeClaimTemplates" in k8s
    compose = (ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8")
    assert "./redis.conf:/usr/local/etc/redis/redis.conf" in compose
    assert "POSVIZ_REDIS_URL: redis://redis:6379/0" in compose
    assert "posviz-2: *replica" in compose and "redis-data:/data" in compose
    assert "redis-server" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
