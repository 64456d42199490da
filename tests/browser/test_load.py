"""Load: 8 concurrent browser sessions, 10 interactions each, against one server; 0 errors.
Prints the 95th-percentile interaction time (slider key press -> script finished)."""
import asyncio
import statistics
import time

import pytest

from harness.browser import ARGS, CHROMIUM, app_server, browser_missing_reason, require

SESSIONS, INTERACTIONS = 8, 10
# Seconds a page may take to connect, draw, rerun or take a key press: eight tabs on a busy 2-core machine
# can take over a minute; the test counts errors, and prints the times.
WAIT_S = 180
PATHS = ["rope", "relative", "sinusoidal", "decay", "extrapolation", "kv-cache", "lab", ""]


async def _idle(page, timeout=WAIT_S):
    await page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]',
                                 timeout=timeout * 1000)
    t0 = time.time()
    while time.time() - t0 < timeout:
        if await page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').count():
            await asyncio.sleep(0.15)
            if await page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').count():
                return
        await asyncio.sleep(0.05)
    raise TimeoutError("script did not finish")


async def _session(browser, base, k, times, errors):
    ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(WAIT_S * 1000)      # every action (focus, key press) too
    page = await ctx.new_page()
    page.on("pageerror", lambda e: errors.append(f"session {k}: {e}"))
    path = PATHS[k % len(PATHS)]
    await page.goto(f"{base}/{path}?lang={'zh' if k % 2 else 'en'}")
    await _idle(page)
    await page.wait_for_selector('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]',
                                 timeout=WAIT_S * 1000)
    sliders = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]')
    for i in range(INTERACTIONS):
        n = await sliders.count()
        if n == 0:
            errors.append(f"session {k}: no slider on /{path}")
            break
        s = sliders.nth(i % min(n, 3))
        await s.focus()
        t0 = time.perf_counter()
        await page.keyboard.press("ArrowRight" if i % 3 else "ArrowLeft")
        await asyncio.sleep(0.05)
        await _idle(page)
        times.append(time.perf_counter() - t0)
        if await page.locator('[data-testid="stException"]').count():
            errors.append(f"session {k}: exception on /{path}")
    await ctx.close()


async def _run(base):
    from playwright.async_api import async_playwright

    times, errors = [], []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        # warm the server once (imports, caches), as a hosted instance is before a lecture
        warm = await browser.new_page()
        for path in PATHS:
            await warm.goto(f"{base}/{path}?lang=en")
            await _idle(warm)
        await warm.close()
        await asyncio.gather(*[_session(browser, base, k, times, errors) for k in range(SESSIONS)])
        await browser.close()
    return times, errors


@pytest.mark.usefixtures("alone")
def test_eight_concurrent_sessions(capsys):
    require(browser_missing_reason())
    with app_server() as (base, _, _):
        times, errors = asyncio.run(_run(base))
    assert not errors, errors[:5]
    assert len(times) == SESSIONS * INTERACTIONS
    p95 = statistics.quantiles(times, n=20)[18]
    with capsys.disabled():
        print(f"\nload: {SESSIONS} sessions x {INTERACTIONS} interactions, p95 {p95 * 1000:.0f} ms, "
              f"median {statistics.median(times) * 1000:.0f} ms")
