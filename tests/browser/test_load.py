"""Load: 8 concurrent browser sessions, 10 interactions each, against one server. Nothing is lost or refused:
every session connects and loads its page, every slider key press is answered (a script run finishes after
it), no session drops its connection, and no page raises. Prints the 95th-percentile interaction time (slider
key press -> its run finished).

The test measures what slow means on this machine first: one tab alone loads the pages (the warm-up) and
moves a slider a few times. Every wait of the eight tabs is a multiple of that baseline, never a fixed number
of seconds, and a tab that is still being served (connected, its script running) when its wait runs out is
slow, not lost: it keeps waiting. So a busy machine makes the test slower, never red; a press that no run
answers, a dropped connection or a page error makes it red.
"""
import asyncio
import statistics
import time

import pytest
from google.protobuf.message import DecodeError
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from harness.browser import ARGS, CHROMIUM, app_server, browser_missing_reason, require

SESSIONS, INTERACTIONS = 8, 10
PATHS = ["rope", "relative", "sinusoidal", "decay", "extrapolation", "kv-cache", "lab", ""]
SLIDERS = '[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]'
# the app's connection states before it first connects (Streamlit's ConnectionState)
CONNECTING = (None, "INITIAL", "PINGING_SERVER", "CONNECTING")
# Each wait of the concurrent phase: SCALE times what the same wait took one tab alone (eight tabs share the
# cores, and each of them also draws), at least FLOOR_S; a tab still being served waits up to PATIENCE waits.
SCALE, FLOOR_S, PATIENCE = 6 * SESSIONS, 20.0, 5

STATE_JS = """() => { const app = document.querySelector('[data-testid="stApp"]');
  return app ? {conn: app.getAttribute('data-test-connection-state'),
                script: app.getAttribute('data-test-script-state')} : null; }"""


class Lost(Exception):
    """What a session waited for never came: a press no run answered, or a page that never connected."""


class Refused(Exception):
    """The server dropped or refused the session's connection."""


async def _state(page):
    return await page.evaluate(STATE_JS) or {"conn": None, "script": None}


async def _wait(page, done, limit, what):
    """Wait until `done(state)`. After `limit` seconds a page that is still being served (connected, its script
    running) is slow and keeps waiting, up to PATIENCE limits; one that is not is Lost. Returns the seconds."""
    t0 = time.perf_counter()
    seen_connected = False
    while True:
        s = await _state(page)
        seen_connected |= s["conn"] == "CONNECTED"
        if seen_connected and s["conn"] not in ("CONNECTED", None):
            raise Refused(f"{what}: connection {s['conn']}")
        if s["conn"] == "CONNECTED" and done(s):
            return time.perf_counter() - t0
        waited = time.perf_counter() - t0
        served = s["conn"] == "CONNECTED" and s["script"] != "notRunning"
        busy = served or (not seen_connected and s["conn"] in CONNECTING)
        if waited > limit and not (busy and waited < PATIENCE * limit):
            raise Lost(f"{what}: nothing after {waited:.0f} s (limit {limit:.0f} s; state {s})")
        await asyncio.sleep(0.05)


async def _idle(page, limit, what):
    """Connected and no script running, twice 0.15 s apart."""
    async def idle_twice():
        await _wait(page, lambda s: s["script"] == "notRunning", limit, what)
        await asyncio.sleep(0.15)
        return (await _state(page))["script"] == "notRunning"

    t0 = time.perf_counter()
    while not await idle_twice():
        pass
    return time.perf_counter() - t0


async def _open(page, url, limit, what):
    """Load `url`: connected, idle, with sliders; the seconds it took."""
    t0 = time.perf_counter()
    try:
        await page.goto(url, timeout=limit * PATIENCE * 1000)
    except Exception as e:          # the server did not answer the request at all
        raise Refused(f"{what}: {e}") from e
    await _idle(page, limit, what)
    await page.wait_for_selector(SLIDERS, timeout=limit * 1000)
    return time.perf_counter() - t0


def _frames(page):
    """Count the page's rerun requests (a widget's new value, a BackMsg rerun_script) and, when a run ends
    (a ForwardMsg script_finished, not one cut short for the next request), mark every request so far answered."""
    count = {"sent": 0, "answered": 0}

    def sent(payload):
        if isinstance(payload, bytes) and _kind(BackMsg, payload) == "rerun_script":
            count["sent"] += 1

    def received(payload):
        if isinstance(payload, bytes) and _kind(ForwardMsg, payload) == "script_finished":
            msg = ForwardMsg()
            msg.ParseFromString(payload)
            if msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                count["answered"] = count["sent"]

    page.on("websocket", lambda ws: (ws.on("framesent", sent), ws.on("framereceived", received)))
    return count


def _kind(proto, payload):
    msg = proto()
    try:
        msg.ParseFromString(payload)
    except DecodeError:
        return None
    return msg.WhichOneof("type")


async def _value(slider):
    return await slider.evaluate("(e) => [e.value, e.min, e.max]")


async def _press(page, frames, slider, key, limit, what):
    """Press `key` on `slider` and wait for the server's answer to the value it sends; the seconds it took.
    A press the slider did not take (its focus lost while the page redrew under load) is pressed again: that is
    the browser's, not the server's; a value sent and never answered is Lost."""
    t0 = time.perf_counter()
    for _ in range(PATIENCE):
        value, before = (await _value(slider))[0], frames["sent"]
        await slider.focus()
        await page.keyboard.press(key)
        try:
            await _wait(page, lambda s, before=before: frames["sent"] > before, limit, f"{what}: {key} sent")
            break
        except Lost:
            if (await _value(slider))[0] != value:     # it took the value and sent nothing: the request is lost
                raise
    else:
        raise Lost(f"{what}: the slider did not take {key} in {PATIENCE} presses")
    await _wait(page, lambda s: frames["answered"] > before and s["script"] == "notRunning", limit, f"{what}: {key}")
    await _idle(page, limit, what)
    return time.perf_counter() - t0


async def _move(page, frames, i, limit, what):
    """Interaction i: slider i % 3 (of the first three) one step, left or right (the other way at an end)."""
    sliders = page.locator(SLIDERS)
    n = await sliders.count()
    if n == 0:
        raise Lost(f"{what}: no slider")
    s = sliders.nth(i % min(n, 3))
    value, low, high = await _value(s)
    key = "ArrowRight" if i % 3 else "ArrowLeft"
    if value == (high if key == "ArrowRight" else low):
        key = "ArrowLeft" if key == "ArrowRight" else "ArrowRight"
    return await _press(page, frames, s, key, limit, what)


async def _session(browser, base, k, limits, times, problems):
    ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(limits["action"] * PATIENCE * 1000)     # Playwright's own waits (focus, key press)
    page = await ctx.new_page()
    frames = _frames(page)
    path = PATHS[k % len(PATHS)]
    what = f"session {k} /{path}"
    page.on("pageerror", lambda e: problems["errors"].append(f"{what}: {e}"))
    try:
        await _open(page, f"{base}/{path}?lang={'zh' if k % 2 else 'en'}", limits["load"], what)
        for i in range(INTERACTIONS):
            times.append(await _move(page, frames, i, limits["press"], f"{what} press {i + 1}"))
            if await page.locator('[data-testid="stException"]').count():
                problems["errors"].append(f"{what}: exception after press {i + 1}")
    except Lost as e:
        problems["lost"].append(str(e))
    except Refused as e:
        problems["refused"].append(str(e))
    finally:
        await ctx.close()


async def _baseline(browser, base):
    """One tab alone on the server: each page loaded once (this warms the server, as a hosted instance is before
    a lecture), then a few presses on /rope. The median load and the median press, in seconds."""
    loads, presses = [], []
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    frames = _frames(page)
    for path in PATHS:
        loads.append(await _open(page, f"{base}/{path}?lang=en", 600, f"baseline /{path}"))
    await _open(page, f"{base}/rope?lang=en", 600, "baseline /rope")
    for i in range(5):
        presses.append(await _move(page, frames, i, 600, f"baseline press {i + 1}"))
    await page.close()
    return statistics.median(loads), statistics.median(presses)


async def _run(base):
    from playwright.async_api import async_playwright

    times, problems = [], {"lost": [], "refused": [], "errors": []}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        load, press = await _baseline(browser, base)
        limits = {"load": max(FLOOR_S, SCALE * load), "press": max(FLOOR_S, SCALE * press),
                  "action": max(FLOOR_S, SCALE * press)}
        await asyncio.gather(*[_session(browser, base, k, limits, times, problems) for k in range(SESSIONS)])
        await browser.close()
    return times, problems, (load, press, limits)


@pytest.mark.usefixtures("alone")
def test_eight_concurrent_sessions(capsys):
    require(browser_missing_reason())
    with app_server() as (base, _, _):
        times, problems, (load, press, limits) = asyncio.run(_run(base))
    with capsys.disabled():
        p95 = statistics.quantiles(times, n=20)[18] if len(times) > 1 else float("nan")
        print(f"\nload: {SESSIONS} sessions x {INTERACTIONS} interactions, p95 {p95 * 1000:.0f} ms, median "
              f"{statistics.median(times or [0]) * 1000:.0f} ms (one tab alone: load {load:.1f} s, press "
              f"{press * 1000:.0f} ms; limits {limits['load']:.0f} s / {limits['press']:.0f} s)")
    assert not problems["refused"], problems["refused"][:5]
    assert not problems["lost"], problems["lost"][:5]
    assert not problems["errors"], problems["errors"][:5]
    assert len(times) == SESSIONS * INTERACTIONS          # every press answered
