"""posviz performance benchmark: prints numbers, asserts nothing (budgets: benchmarks/README.md).

    python -m benchmarks.bench_app            # everything
    python -m benchmarks.bench_app --quick    # fewer repetitions

Per page: server rerun time (median) at default and at maximum settings, largest plotly
payload (KB) at both; in Chromium at 1280x720: page load to first chart (a cold server's first
visit, and on the server warmed by deploy/warm.py as a deployment is), slider key press to the
redrawn chart, scene key press to the scene drawn (its narration shown, the run finished); the
server's resident memory after all pages were opened and after 100 reruns; cold start
(`streamlit run` -> first chart visible in Chromium); apply_rope vs x.clone() and vs
Hugging Face's apply_rotary_pos_emb (benchmarks/rope_speed.py).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from deploy import warm
from harness.apptest import open_page
from harness.browser import app_server, launch, page_paths, settle
from posviz import scenes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(ROOT)


BUDGET = dict(rerun_default_ms=100, rerun_max_ms=400, payload_default_kb=300, payload_max_kb=2048,
              redraw_ms=300, scene_ms=500, load_s=3.0, mem_growth_mb=50)
SCENE_DONE_JS = """(n) => { const a = document.querySelector('[data-testid="stMain"] [data-testid="stAlert"]');
  const idle = document.querySelector('[data-testid="stApp"]').dataset.testScriptState === 'notRunning';
  return idle && a && a.innerText.includes(n) ? performance.now() : false; }"""


def _open(page, **params):
    return open_page(page, **params)


def _payload_kb(at):
    sizes = [len(el.proto.bytes) for el in at.get("bidi_component")]
    return max(sizes) / 1024 if sizes else 0.0


def _max_params(at):
    params = {}
    for s in list(at.slider) + list(at.number_input):
        if s.key and not s.key.startswith("ui_") and getattr(s, "max", None) is not None:
            params[s.key] = str(s.max)
    return params


def _rerun_ms(at, n):
    """Median script time of a rerun, as measured inside the run by app.py (ui.frame_finished)."""
    times = []
    for _ in range(n):
        at.run()
        times.append(at.session_state["_run_ms"])
    return statistics.median(times)


def server_side(pages, n):
    rows = []
    for path in pages:
        name = (path or "overview").replace("-", "_")
        at = _open(name)
        d_ms, d_kb = _rerun_ms(at, n), _payload_kb(at)
        params = _max_params(at)
        atm = _open(name, **params)
        m_ms, m_kb = _rerun_ms(atm, n), _payload_kb(atm)
        rows.append(dict(page=name, rerun_default_ms=d_ms, rerun_max_ms=m_ms, payload_default_kb=d_kb,
                         payload_max_kb=m_kb, exception=bool(atm.exception)))
    return rows


# Before a key press: remember each plot's data object and return the page clock. After it:
# the first animation frame in which a plot holds a new data object (plotly has redrawn it).
HOOK_JS = """() => { window.__posvizRefs = Array.from(document.querySelectorAll('.js-plotly-plot')).map(g => g.data);
  return performance.now(); }"""
REDRAWN_JS = """() => { const g = Array.from(document.querySelectorAll('.js-plotly-plot')), r = window.__posvizRefs;
  if (g.length !== r.length) return performance.now();
  for (let i = 0; i < g.length; i++) if (g[i].data !== r[i]) return performance.now();
  return false; }"""


def _rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _slider(page):
    s = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]')
    return s.first if s.count() else None


CHARTLESS = ("checks", "remember")     # pages without a chart


def browser_side(pages, presses):
    from playwright.sync_api import sync_playwright

    out = {"redraw_ms": {}, "scene_ms": {}, "load_s": {}}
    t_start = time.time()
    with app_server() as (base, proc, healthy_s), sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(f"{base}/rope?lang=en")
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=120000)
        out["cold_start_s"] = time.time() - t_start
        out["server_healthy_s"] = healthy_s
        out["rss_start_mb"] = _rss_mb(proc.pid)
        # first visit of each page on this cold server (what the first visitor of a plain `streamlit run`
        # waits for), then the server is warmed as deploy/serve.py and deploy/cluster.py warm it (pages and scenes)
        out["load_cold_s"] = _cold_loads(page, base, pages)
        t0 = time.time()
        out["warm_failed"] = sum(1 for r in warm.warm(base, scenes=True) if r[3])
        out["warm_s"] = time.time() - t0
        for path in pages:
            _measure_page(page, base, path, presses, out)
        out["rss_after_pages_mb"] = _rss_mb(proc.pid)
        out["reruns"] = _more_reruns(page, base, pages)
        out["rss_after_100_reruns_mb"] = _rss_mb(proc.pid)
        browser.close()
    return out


def _cold_loads(page, base, pages):
    """Page load -> first chart (s) of each chart page, on the server's first visit."""
    loads = {}
    for path in pages:
        if path in CHARTLESS:
            continue
        t0 = time.time()
        page.goto(f"{base}/{path}?lang=en")
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=120000)
        loads[path or "overview"] = time.time() - t0
        settle(page)
    return loads


def _measure_page(page, base, path, presses, out):
    """On the warmed server: page load -> first chart, scene key -> scene drawn, slider key -> redrawn chart."""
    key = path or "overview"
    t0 = time.time()
    page.goto(f"{base}/{path}?lang=en")
    if path not in CHARTLESS:
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60000)
        out["load_s"][key] = time.time() - t0
    settle(page)
    times = _scene_times(page, path, presses)
    if times:
        out["scene_ms"][key] = statistics.median(times)
    page.goto(f"{base}/{path}?lang=en")
    settle(page)
    times = _redraw_times(page, presses)
    if times:
        out["redraw_ms"][key] = statistics.median(times)


def _scene_times(page, path, presses):
    """ms from the scene key (PageDown) to the next scene drawn, for the page's first scenes."""
    n_scenes = len(scenes.SCENES.get((path or "overview").replace("-", "_"), []))
    times = []
    for k in range(min(n_scenes, presses)):
        t0 = page.evaluate("performance.now()")
        page.keyboard.press("PageDown")
        done = page.wait_for_function(SCENE_DONE_JS, arg=f"{k + 1}/{n_scenes}", timeout=30000, polling="raf")
        times.append(done.json_value() - t0)
        settle(page)
    return times


def _redraw_times(page, presses):
    """ms from a key press on the page's first slider to its charts redrawn (none without a slider or chart)."""
    s = _slider(page)
    if s is None or page.locator(".js-plotly-plot").count() == 0:
        return []
    times = []
    for k in range(presses):
        s.focus()
        t0 = page.evaluate(HOOK_JS)  # performance.now() in the page, plots hooked
        page.keyboard.press("ArrowRight" if k % 2 == 0 else "ArrowLeft")
        try:
            done = page.wait_for_function(REDRAWN_JS, timeout=5000, polling="raf").json_value()
            times.append(done - t0)
        except Exception:  # noqa: BLE001  a press at a slider's end redraws nothing
            pass
        settle(page)
    return times


def _more_reruns(page, base, pages):
    """About 100 more reruns: on each page, open it and move its first slider 9 times. Returns how many."""
    n = 0
    for path in pages:
        page.goto(f"{base}/{path}?lang={'zh' if n % 20 else 'en'}")
        settle(page)
        n += 1
        s = _slider(page)
        for k in range(9):
            if s is None:
                break
            s.focus()
            page.keyboard.press("ArrowRight" if k % 2 == 0 else "ArrowLeft")
            time.sleep(0.05)
            settle(page)
            n += 1
    return n


def rope_speed():
    """benchmarks/rope_speed.py's report (apply_rope vs x.clone() and Hugging Face)."""
    r = subprocess.run([sys.executable, "-m", "benchmarks.rope_speed"], capture_output=True, text=True, cwd=ROOT)
    return (r.stdout + r.stderr).strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (3 reruns, 5 key presses per page)")
    ap.add_argument("--skip-browser", action="store_true", help="AppTest and rope_speed only, no Chromium")
    args = ap.parse_args()
    pages = page_paths()
    n = 3 if args.quick else 7
    rows = server_side(pages, n)
    print(f"{'page':<14}{'rerun default ms':>18}{'rerun max ms':>14}{'payload default KB':>20}{'payload max KB':>16}")
    for r in rows:
        print(f"{r['page']:<14}{r['rerun_default_ms']:>18.1f}{r['rerun_max_ms']:>14.1f}"
              f"{r['payload_default_kb']:>20.1f}{r['payload_max_kb']:>16.1f}"
              + ("  EXCEPTION" if r["exception"] else ""))
    result = {"pages": rows}
    if not args.skip_browser:
        b = browser_side(pages, 5 if args.quick else 9)
        result.update(b)
        print("\nbrowser at 1280x720 (median per page): page load -> first chart (s) on the cold server's first "
              f"visit and after the warm-up (deploy/warm.py, {b['warm_s']:.0f} s, {b['warm_failed']} runs failed), "
              "slider key -> redrawn chart (ms), scene key -> scene drawn (ms)")
        print(f"  {'':<14}{'cold':>8}{'warmed':>8}{'redraw':>8}{'scene':>8}")
        for k in [(p or "overview") for p in pages]:
            cells = [f"{b['load_cold_s'][k]:>8.1f}" if k in b["load_cold_s"] else f"{'—':>8}",
                     f"{b['load_s'][k]:>8.1f}" if k in b["load_s"] else f"{'—':>8}",
                     f"{b['redraw_ms'][k]:>8.0f}" if k in b["redraw_ms"] else f"{'—':>8}",
                     f"{b['scene_ms'][k]:>8.0f}" if k in b["scene_ms"] else f"{'—':>8}"]
            print(f"  {k:<14}" + "".join(cells))
        print(f"cold start (streamlit run -> first chart visible): {b['cold_start_s']:.1f} s "
              f"(server healthy after {b['server_healthy_s']:.1f} s)")
        print(f"server RSS: start {b['rss_start_mb']:.0f} MB, after all pages {b['rss_after_pages_mb']:.0f} MB, "
              f"after {b['reruns']} more reruns {b['rss_after_100_reruns_mb']:.0f} MB "
              f"(growth {b['rss_after_100_reruns_mb'] - b['rss_after_pages_mb']:+.0f} MB)")
    rs = rope_speed()
    result["rope"] = rs
    print(f"\napply_rope, benchmarks/rope_speed.py:\n{rs}")
    worst = {
        "rerun_default_ms": max(r["rerun_default_ms"] for r in rows),
        "rerun_max_ms": max(r["rerun_max_ms"] for r in rows),
        "payload_default_kb": max(r["payload_default_kb"] for r in rows),
        "payload_max_kb": max(r["payload_max_kb"] for r in rows),
    }
    if "redraw_ms" in result and result["redraw_ms"]:
        worst["redraw_ms"] = statistics.median(result["redraw_ms"].values())
        worst["scene_ms"] = statistics.median(result["scene_ms"].values())
        worst["load_s"] = max(result["load_s"].values())
        worst["mem_growth_mb"] = result["rss_after_100_reruns_mb"] - result["rss_after_pages_mb"]
    print("\nbudgets:")
    for k, v in worst.items():
        print(f"  {k:<20}{v:>10.1f}  budget {BUDGET[k]:>6}  {'ok' if v <= BUDGET[k] else 'OVER'}")
    with open(os.path.join(ROOT, "benchmarks", "last_run.json"), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
