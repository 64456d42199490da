"""Start the app with `streamlit run` and drive it with Debian's Chromium (Playwright).

Shared by the browser tests, the load test and benchmarks/bench_app.py.
"""
import ast
import contextlib
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]


# A phone, as the browser tests, the screenshots and the margin fit open the app: 390x844, touch, and a
# phone's User-Agent ("Mobile": the server then asks for the margins fitted on a phone, style.one_pass).
PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/140.0.0.0 Mobile Safari/537.36")
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2,
             user_agent=PHONE_UA)
# A lecture hall's projector, and the smallest text (px) lecture mode may show on it.
PROJECTOR = dict(viewport={"width": 1280, "height": 720})
MIN_PROJECTOR_PX = 22


def page_paths():
    """URL paths of app.py's PAGES (read from its source, without running streamlit)."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "PAGES":
            return [path for _, path, _ in ast.literal_eval(node.value)]
    raise RuntimeError("app.py has no PAGES")


def browser_missing_reason():
    if not os.path.exists(CHROMIUM) and not shutil.which("chromium"):
        return "Debian chromium is not installed (apt-get install -y chromium fonts-noto-cjk)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -r requirements-dev.txt)"
    return None


def browser_required():
    return os.environ.get("CI", "").lower() == "true" or os.environ.get("POSVIZ_REQUIRE_BROWSER") == "1"


def require(reason):
    """Skip the running test for `reason` (a tool it needs is missing), or fail it where the browser
    tests are required (CI=true or POSVIZ_REQUIRE_BROWSER=1). No reason: nothing to do."""
    if reason:
        if browser_required():
            pytest.fail(f"required here but cannot run: {reason}")
        pytest.skip(reason)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def app_server(timeout=90, app_dir=None, env=None):
    """`streamlit run app.py` (of app_dir, default this repository) on a free loopback port, with `env` added
    to the environment; yields (base_url, process, seconds to healthy)."""
    port = free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
           "--browser.gatherUsageStats", "false"]
    t0 = time.time()
    proc = subprocess.Popen(cmd, cwd=app_dir or ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True, env={**os.environ, **(env or {})})
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited: {proc.stderr.read().decode()[-2000:]}")
            try:
                if urllib.request.urlopen(f"{base}/_stcore/health", timeout=2).read().strip() == b"ok":
                    break
            except OSError:
                pass
            if time.time() - t0 > timeout:
                raise RuntimeError("server did not become healthy")
            time.sleep(0.2)
        yield base, proc, time.time() - t0
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 15)
        with contextlib.suppress(Exception):
            proc.wait(10)


def launch(playwright):
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    return playwright.chromium.launch(executable_path=path, args=ARGS)


# A chart (ui.plot's element, posviz/ui/assets/chart/chart.js) whose new figure is not drawn yet: charts out of
# view are drawn after those in view.
PENDING_CHART = '[data-posviz-state="pending"]'


def settle(page, timeout=60):
    """Wait until the app is connected, its script has finished and nothing is pending (charts drawn)."""
    page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]', timeout=timeout * 1000)
    t0 = time.time()
    while time.time() - t0 < timeout:
        idle = page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').count()
        if idle and page.locator(f'[data-testid="stSkeleton"], {PENDING_CHART}').count() == 0:
            time.sleep(0.3)
            if page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').count():
                return
        time.sleep(0.1)
    raise TimeoutError("app did not settle")


PLOT_SIGNATURE_JS = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(gd => {
  let s; try { s = JSON.stringify((gd.data || []).map(t => [t.type, t.x, t.y, t.z, t.r, t.theta, t.text])); }
  catch (e) { return 'err'; }
  let h = 2166136261; for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
  return s.length + ':' + (h >>> 0); })"""


def plot_signature(page):
    """A fingerprint of every rendered plotly figure's data (changes when a chart is redrawn with new data)."""
    return page.evaluate(PLOT_SIGNATURE_JS)


# Each chart of the main area: its key (Streamlit gives its element the class st-key-<key>), the margins
# the figure asked for and the margins plotly.js drew it with (_fullLayout._size).
MARGINS_JS = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')).map(g => {
  const holder = g.closest('[class*="st-key-"]'), key = holder && holder.className.match(/st-key-(\\S+)/);
  const m = g.layout.margin || {}, s = g._fullLayout._size;
  return {key: key ? key[1] : null, asked: {l: m.l, r: m.r, t: m.t, b: m.b},
          drawn: {l: s.l, r: s.r, t: s.t, b: s.b}}; })"""


def grown_sides(row):
    """The sides of a MARGINS_JS row whose margin plotly had to grow, and so drew the chart twice."""
    return [k for k in "lrtb" if row["drawn"][k] > (row["asked"][k] or 0) + 0.5]
