"""posviz performance benchmark: prints numbers, asserts nothing (budgets: benchmarks/README.md).

    python -m benchmarks.bench_app                          # everything
    python -m benchmarks.bench_app --quick                  # fewer repetitions
    python -m benchmarks.bench_app --skip-server --pages rope,decay --viewports 1280x720

Per page: server rerun time (median) at default and at maximum settings, largest chart payload
(KB) at both; in Chromium, at 1280x720 and on a 390x844 phone, on the server warmed by deploy/warm.py
as a deployment is: page load -> first chart (s), slider key press -> the charts in view redrawn (the
page's first slider that feeds a chart in view, brought to the top of the screen), scene key -> its
figure redrawn and in view (ms), each as median and p90 over the presses, and the browser's longest
task per press (ms; median over the presses); the bytes of a visit to /rope with an empty cache and
again; page load -> first chart on the cold server's first visit; the server's resident memory after
all pages were opened and after 100 reruns; cold start (`streamlit run` -> first chart visible in
Chromium); apply_rope vs x.clone() and vs Hugging Face's apply_rotary_pos_emb
(benchmarks/rope_speed.py). A redraw ends when plotly.js has finished the figure and the page's main
thread is quiet (what is on screen), not when the first chart object changes.
"""
import argparse
import collections
import functools
import json
import math
import os
import statistics
import subprocess
import sys
import time

from deploy import warm
from harness.apptest import open_page
from harness.browser import PHONE, app_server, launch, page_paths, settle
from posviz import scenes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(ROOT)


# Issue 25's budgets for the browser (medians, every page): redraw and scene per page, first chart per page.
BUDGET = dict(rerun_default_ms=100, rerun_max_ms=400, payload_default_kb=300, payload_max_kb=2048,
              redraw_ms=150, scene_ms=300, load_s=2.0, long_task_ms=100, mem_growth_mb=50)


def _open(page, **params):
    return open_page(page, **params)


def _payload_kb(at):
    sizes = [len(el.proto.bytes) for el in at.get("bidi_component")] or \
        [len(el.proto.spec) for el in at.get("plotly_chart")]            # (st.plotly_chart, before the chart element)
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


# What the user waits for (issue 25). A chart counts as redrawn when its figure is new (a new data object: Plotly.react
# in place, or a new plot) and plotly.js has finished it (ui.plot's element marks a figure it is still drawing
# data-posviz-state="pending"); the clock stops at the first animation frame after which the page's main thread is
# quiet (two frames less than 25 ms apart), i.e. when the drawing is on screen. Works for st.plotly_chart too (no
# pending mark there): the same numbers before and after the chart element.
HOOK_JS = """() => { window.__posvizRefs = Array.from(document.querySelectorAll('.js-plotly-plot')).map(g => g.data);
  window.__posvizLong = []; return performance.now(); }"""
IN_VIEW_JS = """(g) => { const r = g.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth && r.height > 0; }"""
REDRAWN_JS = """() => { const inView = %s;
  const g = Array.from(document.querySelectorAll('.js-plotly-plot')), r = window.__posvizRefs;
  let changed = 0;
  for (let i = 0; i < g.length; i++) {
    if (!inView(g[i])) continue;
    if (g[i].dataset.posvizState === 'pending') return false;
    if (g[i].data !== r[i]) changed++;
  }
  const waiting = Array.from(document.querySelectorAll('.posviz-plot[data-posviz-state="pending"]')).some(inView);
  return changed > 0 && !waiting; }""" % IN_VIEW_JS
# The scene's narration k/n is shown and what it shows (.st-key-<show>: a chart, or a widget or a section) is in view;
# a chart drawn (not pending).
SCENE_DONE_JS = """([n, key]) => { const inView = %s;
  const a = document.querySelector('[data-testid="stMain"] [data-testid="stAlert"]');
  if (!a || !a.innerText.includes(n)) return false;
  const el = document.querySelector('[data-testid="stMain"] .st-key-' + key);
  if (!el) return false;
  const chart = el.querySelector('.js-plotly-plot, .posviz-plot, .stPlotlyChart');
  if (chart && (chart.dataset.posvizState === 'pending' || !chart.querySelector('.main-svg'))) return false;
  const r = el.getBoundingClientRect();
  return inView(el) && r.top > -10 && r.top < innerHeight * 0.6; }""" % IN_VIEW_JS
QUIET_JS = """() => new Promise((done) => { let last = performance.now(), at = last;
  const frame = () => { const now = performance.now();
    if (now - last < 25) { done(at); return; } at = now; last = now; requestAnimationFrame(frame); };
  requestAnimationFrame(() => { last = performance.now(); at = last; requestAnimationFrame(frame); }); })"""
# The browser's long tasks (> 50 ms), collected from page load: the longest one of a press is read after it.
# An init script is run as a script (a bare arrow function would only be defined): the observer is made at once.
LONG_TASKS_JS = """window.__posvizLong = [];
new PerformanceObserver((l) => l.getEntries().forEach(e => window.__posvizLong.push(e.duration)))
  .observe({type: 'longtask', buffered: false});"""
VIEWPORTS = {"1280x720": dict(viewport={"width": 1280, "height": 720}), "390x844": PHONE}


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


def stats(times):
    """(median, p90) of a list of numbers (p90: the value 90 % of them are at or under)."""
    xs = sorted(times)
    return statistics.median(xs), xs[max(0, math.ceil(0.9 * len(xs)) - 1)]


def browser_side(pages, presses, viewports=tuple(VIEWPORTS), extras=True):
    from playwright.sync_api import sync_playwright

    out = {"views": {}}
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
        out["load_cold_s"] = _cold_loads(page, base, pages) if extras else {}
        page.close()
        t0 = time.time()
        out["warm_failed"] = sum(1 for r in warm.warm(base, scenes=True) if r[3])
        out["warm_s"] = time.time() - t0
        out["first_visit"] = _first_visit_bytes(browser, base)
        for view in viewports:
            ctx = browser.new_context(**VIEWPORTS[view])
            page = ctx.new_page()
            page.add_init_script(LONG_TASKS_JS)
            out["views"][view] = {}
            for path in pages:     # printed as it goes: a long run cut short still says what it measured
                row = out["views"][view][path or "overview"] = _measure_page(page, base, path, presses)
                print(f"  measured {view} {path or 'overview'}: "
                      + json.dumps({k: [round(x) for x in v] if isinstance(v, list) else round(v, 2)
                                    for k, v in row.items()}), flush=True)
            ctx.close()
        out["rss_after_pages_mb"] = _rss_mb(proc.pid)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        out["reruns"] = _more_reruns(page, base, pages) if extras else 0
        out["rss_after_100_reruns_mb"] = _rss_mb(proc.pid)
        browser.close()
    return out


def _add(counter, name, size, event):
    counter[name] += size(event)


def _first_visit_bytes(browser, base, path="rope"):
    """KB a browser with an empty cache receives to show a page with every chart drawn: over HTTP (as sent, i.e.
    compressed where the server compresses) and over the websocket (the figures); then the same page opened again
    in a new tab of that browser (its cache warm)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    out = {}
    for visit in ("first", "again"):
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        got = collections.Counter()
        cdp.on("Network.loadingFinished", functools.partial(_add, got, "http", lambda e: e["encodedDataLength"]))
        cdp.on("Network.webSocketFrameReceived",      # binary frames arrive base64-encoded: 3 bytes per 4 characters
               functools.partial(_add, got, "ws", lambda e: len(e["response"]["payloadData"]) * 3 // 4))
        cdp.send("Network.enable")
        page.goto(f"{base}/{path}?lang=en")
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=120000)
        settle(page)
        out[visit] = {k: got[k] / 1024 for k in ("http", "ws")}
        page.close()
    ctx.close()
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


def _measure_page(page, base, path, presses):
    """On the warmed server: page load -> first chart (s), scene key -> its figure redrawn and in view (ms),
    slider key -> the charts in view redrawn (ms), and the longest browser task of a press (ms)."""
    row = {}
    t0 = time.time()
    page.goto(f"{base}/{path}?lang=en")
    if path not in CHARTLESS:
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60000)
        row["load_s"] = time.time() - t0
    settle(page)
    row["scene_ms"], row["scene_long_ms"] = _scene_times(page, path, presses)
    for _ in range(2):      # once more on a page opened anew where no press redrew a chart (seen once in a while)
        page.goto(f"{base}/{path}?lang=en")
        settle(page)
        row["redraw_ms"], row["redraw_long_ms"] = _redraw_times(page, presses)
        if row["redraw_ms"]:
            break
    return row


def _longest(page):
    return max(page.evaluate("window.__posvizLong || []") or [0])


def _scene_times(page, path, presses):
    """ms from a scene key (Alt+→, and Alt+← back from the last scene: PageDown / PageUp are lecture mode's) to the
    scene's figure drawn and in view."""
    items = scenes.SCENES.get((path or "overview").replace("-", "_"), [])
    times, longs, cur, step = [], [], -1, 1
    if len(items) < 2:
        return times, longs
    for _ in range(presses):
        if not 0 <= cur + step < len(items):
            step = -step
        cur += step
        t0 = page.evaluate(HOOK_JS)
        page.keyboard.press("Alt+ArrowRight" if step > 0 else "Alt+ArrowLeft")
        try:
            page.wait_for_function(SCENE_DONE_JS, arg=[f"{cur + 1}/{len(items)}", items[cur]["show"]],
                                   timeout=30000, polling="raf")
            times.append(page.evaluate(QUIET_JS) - t0)
            longs.append(_longest(page))
        except Exception:  # noqa: BLE001  a scene whose figure is not drawn (e.g. a boundary message instead)
            pass
        settle(page)
    return times, longs


def _redraw_times(page, presses):
    """ms from a key press on a slider (brought to the top of the screen, the charts it feeds below it) to the
    charts in view redrawn: the page's first slider whose press redraws a chart in view (none without one)."""
    sliders = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]')
    if page.locator(".js-plotly-plot").count() == 0:
        return [], []
    for i in range(min(sliders.count(), 6)):
        if _press(page, sliders.nth(i), "ArrowRight", 3000) is not None:     # a trial press: this one feeds a chart
            break
        _press(page, sliders.nth(i), "ArrowLeft", 1000)
    else:
        return [], []
    times, longs = [], []
    for k in range(presses):
        ms = _press(page, sliders.nth(i), "ArrowLeft" if k % 2 == 0 else "ArrowRight", 5000)
        if ms is not None:
            times.append(ms)
            longs.append(_longest(page))
    return times, longs


def _press(page, slider, key, timeout):
    """ms from `key` on `slider` (at the top of the screen) to the charts in view redrawn, or None (no chart in
    view changed: a press at a slider's end, or a slider that feeds no chart there)."""
    slider.evaluate("e => e.closest('[data-testid=\"stSlider\"]').scrollIntoView({block: 'start'})")
    page.evaluate("window.scrollBy(0, -80)")       # below the app's header
    settle(page)
    slider.focus()
    t0 = page.evaluate(HOOK_JS)  # performance.now() in the page, plots hooked
    page.keyboard.press(key)
    try:
        page.wait_for_function(REDRAWN_JS, timeout=timeout, polling="raf")
        ms = page.evaluate(QUIET_JS) - t0
    except Exception:  # noqa: BLE001  no chart in view changed
        ms = None
    settle(page)
    return ms


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
    ap.add_argument("--skip-server", action="store_true", help="no AppTest reruns and no rope_speed: the browser only")
    ap.add_argument("--skip-extras", action="store_true",
                    help="no cold-server loads and no 100 reruns for the memory check: the warmed pages only")
    ap.add_argument("--pages", help="comma-separated url paths (default: every page)")
    ap.add_argument("--viewports", default=",".join(VIEWPORTS), help=f"comma-separated, of {', '.join(VIEWPORTS)}")
    ap.add_argument("--presses", type=int, help="key presses per page and measure (default 10, 5 with --quick)")
    args = ap.parse_args()
    pages = page_paths()
    if args.pages:
        pages = [p for p in pages if (p or "overview") in args.pages.split(",")]
    n = 3 if args.quick else 7
    result, worst = {}, {}
    print("load average " + " ".join(f"{x:.1f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores")
    if not args.skip_server:
        rows = server_side(pages, n)
        print(f"{'page':<14}{'rerun default ms':>18}{'rerun max ms':>14}{'payload default KB':>20}"
              f"{'payload max KB':>16}")
        for r in rows:
            print(f"{r['page']:<14}{r['rerun_default_ms']:>18.1f}{r['rerun_max_ms']:>14.1f}"
                  f"{r['payload_default_kb']:>20.1f}{r['payload_max_kb']:>16.1f}"
                  + ("  EXCEPTION" if r["exception"] else ""))
        result["pages"] = rows
        worst.update({k: max(r[k] for r in rows) for k in ("rerun_default_ms", "rerun_max_ms", "payload_default_kb",
                                                           "payload_max_kb")})
    if not args.skip_browser:
        presses = args.presses or (5 if args.quick else 10)
        b = browser_side(pages, presses, args.viewports.split(","), extras=not args.skip_extras)
        result.update(b)
        print(f"\nbrowser, on the warmed server (deploy/warm.py, {b['warm_s']:.0f} s, {b['warm_failed']} runs failed); "
              f"{presses} presses per page: median / p90")
        for view, table in b["views"].items():
            print(f"\n{view}: load -> first chart (s); slider -> charts in view redrawn (ms); scene -> its figure "
                  "redrawn and in view (ms); longest task per press (ms, median)")
            print(f"  {'page':<14}{'load':>6}{'redraw':>14}{'long':>6}{'scene':>14}{'long':>6}")
            for k, r in table.items():
                red = "%6.0f /%5.0f" % stats(r["redraw_ms"]) if r["redraw_ms"] else f"{'—':>13}"
                sce = "%6.0f /%5.0f" % stats(r["scene_ms"]) if r["scene_ms"] else f"{'—':>13}"
                lr = f"{statistics.median(r['redraw_long_ms']):>6.0f}" if r["redraw_long_ms"] else f"{'—':>6}"
                ls = f"{statistics.median(r['scene_long_ms']):>6.0f}" if r["scene_long_ms"] else f"{'—':>6}"
                load = f"{r['load_s']:>6.1f}" if "load_s" in r else f"{'—':>6}"
                print(f"  {k:<14}{load} {red}{lr} {sce}{ls}")
            meds = {m: [statistics.median(r[m]) for r in table.values() if r[m]]
                    for m in ("redraw_ms", "scene_ms", "redraw_long_ms", "scene_long_ms")}
            worst[f"redraw_ms {view}"] = max(meds["redraw_ms"], default=0)
            worst[f"scene_ms {view}"] = max(meds["scene_ms"], default=0)
            worst[f"long_task_ms {view}"] = max(meds["redraw_long_ms"] + meds["scene_long_ms"], default=0)
            worst[f"load_s {view}"] = max((r["load_s"] for r in table.values() if "load_s" in r), default=0)
        fv = b["first_visit"]
        print("\nbytes of a visit to /rope (KB; http as sent / websocket): empty cache "
              f"{fv['first']['http']:.0f} / {fv['first']['ws']:.0f}, again in a new tab "
              f"{fv['again']['http']:.0f} / {fv['again']['ws']:.0f}")
        print("\ncold server, first visit: load -> first chart (s): "
              + ", ".join(f"{k} {v:.1f}" for k, v in b["load_cold_s"].items()))
        print(f"cold start (streamlit run -> first chart visible): {b['cold_start_s']:.1f} s "
              f"(server healthy after {b['server_healthy_s']:.1f} s)")
        print(f"server RSS: start {b['rss_start_mb']:.0f} MB, after all pages {b['rss_after_pages_mb']:.0f} MB, "
              f"after {b['reruns']} more reruns {b['rss_after_100_reruns_mb']:.0f} MB "
              f"(growth {b['rss_after_100_reruns_mb'] - b['rss_after_pages_mb']:+.0f} MB)")
        worst["mem_growth_mb"] = b["rss_after_100_reruns_mb"] - b["rss_after_pages_mb"]
    if args.skip_server:
        rs = ""
    else:
        rs = rope_speed()
        print(f"\napply_rope, benchmarks/rope_speed.py:\n{rs}")
    result["rope"] = rs
    print("\nbudgets (worst page):")
    for k, v in worst.items():
        b = BUDGET[k.split(" ")[0]]
        print(f"  {k:<28}{v:>10.1f}  budget {b:>6}  {'ok' if v <= b else 'OVER'}")
    with open(os.path.join(ROOT, "benchmarks", "last_run.json"), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
