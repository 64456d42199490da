"""deploy/warm.py: a server (the shared one; the container's entry point: a fresh one) opens every page once over the
websocket before visitors arrive.

The pages come from the server's own navigation (they must be exactly app.py's PAGES), every run
must finish without an exception, and a page that does not exist is reported, never hidden.
"""
import asyncio
import os
import pathlib
import subprocess
import sys
import time
import urllib.request

import pytest

from deploy import warm
from harness.browser import ROOT, free_port, page_paths


def test_warm_opens_every_page_of_the_navigation_in_each_language_and_mode(app_url):
    """On this process's shared server (a server of its own took a start and the `alone` lock, and checked
    nothing more: warm.warm opens every page whatever the server has run before)."""
    results = warm.warm(app_url, langs=("en", "zh"), modes=("", "1"))
    bad = [(path, query, err) for path, query, _, err in results if err]
    assert not bad, bad
    runs = {(path, query) for path, query, _, _ in results}
    want = {(p, f"lang={lang}" + (f"&present={m}" if m else "")) for p in page_paths() for lang in ("en", "zh")
            for m in ("", "1")}
    assert runs == want and len(results) == len(want)

    # one run on its own: the server's navigation lists app.py's pages
    _, pages, error = asyncio.run(warm.open_page(app_url, "rope", "lang=zh&present=1"))
    assert error is None and pages == page_paths()

    _, _, error = asyncio.run(warm.open_page(app_url, "no-such-page", "lang=en"))
    assert error and "not found" in error


def test_warm_with_scenes_opens_every_scene_link(app_url):
    results = warm.warm(app_url, langs=("zh",), modes=("1",), scenes=True)
    bad = [(path, query, err) for path, query, _, err in results if err]
    assert not bad, bad
    want = {(p, f"lang=zh&present=1&scene={n}") for p, count in warm.scene_counts().items()
            for n in range(1, count + 1)}
    assert want <= {(path, query) for path, query, _, _ in results}
    assert len(results) == len(want) + len(page_paths()) + 1     # + the first run, /?lang=en


def test_cli_writes_its_marker_only_when_every_page_ran(tmp_path, app_url):
    marker = tmp_path / "ready"
    assert warm.main([app_url, "--wait", "30", "--marker", str(marker)]) == 0
    assert marker.read_text().strip().isdigit()
    # nothing listens here: the warm-up fails with a message and no marker
    marker.unlink()
    assert warm.main([f"http://127.0.0.1:{free_port()}", "--wait", "1", "--marker", str(marker)]) == 1
    assert not marker.exists()


@pytest.mark.usefixtures("alone")
def test_serve_marks_ready_after_warming_and_stops_with_streamlit(tmp_path):
    """The container's entry point: health at once, the readiness marker after the warm-up, and
    SIGTERM stops Streamlit and the entry point with it."""
    port, marker = free_port(), tmp_path / "ready"
    # as the Dockerfile starts it (python -m deploy.serve), from another folder (PYTHONPATH: the checkout)
    env = dict(os.environ, POSVIZ_PORT=str(port), POSVIZ_READY_FILE=str(marker), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "deploy.serve"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        t0 = time.time()
        while not marker.exists():
            assert proc.poll() is None, proc.stdout.read().decode(errors="replace")[-2000:]
            assert time.time() - t0 < 240, "no readiness marker"
            time.sleep(0.5)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=5) as r:
            assert r.read().strip() == b"ok"
        proc.terminate()
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
    out = proc.stdout.read().decode(errors="replace")
    assert "0 failed" in out and pathlib.Path(marker).exists()
