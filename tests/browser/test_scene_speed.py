"""A scene change in 300 ms (issue 34 item 1), as behaviour in Chromium (the time itself: benchmarks/bench_app.py).

The browser knows the page's scenes and the current one (posviz/ui/assets/scenes.js, sent by ui.scenes), so a press of
Next starts moving to the scene's figure at once, before the server has run the page: here the page's websocket is
held, no run happens, and the figure is brought into view all the same. A scene whose figure is already in view moves
nothing; under prefers-reduced-motion the page jumps, it does not glide.
"""
import time

import pytest

from harness.browser import PROJECTOR, settle
from posviz import scenes

# The figure `key`: where it is (its top, whether whole on screen), whether it is marked as the scene's figure.
WHERE_JS = """(key) => { const el = document.querySelector('[data-testid="stMain"] .st-key-' + CSS.escape(key));
  if (!el) return null; const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, vh: innerHeight, marked: el.classList.contains('posviz-shown')}; }"""
# Where the figure `key` is on the screen (its top), every frame from now on for 4 s. (A scroll event alone says
# nothing: the browser's scroll anchoring scrolls the page when the narration above it changes height, and the
# figure stays where it is on the screen.)
RECORD_JS = """(key) => { const tops = window.__posvizTops = [], t0 = performance.now();
  const frame = () => { const el = document.querySelector('[data-testid="stMain"] .st-key-' + CSS.escape(key));
    if (el) tops.push(Math.round(el.getBoundingClientRect().top));
    if (performance.now() - t0 < 4000) requestAnimationFrame(frame); };
  requestAnimationFrame(frame); }"""
SAY_JS = """() => { const s = document.querySelector('[data-testid="stMain"] .st-key-scene_say');
  return s ? s.innerText : null; }"""


def _still(page, timeout=6.0):
    """Wait until the page's main area has stopped scrolling."""
    t0, last, same = time.time(), None, 0
    while time.time() - t0 < timeout and same < 6:
        top = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollTop")
        same = same + 1 if top == last else 0
        last = top
        time.sleep(0.1)


def test_a_scene_press_moves_to_its_figure_before_the_server_has_run_the_page(browser, app_url):
    """/rope scene 1's figure is ~1,300 px down. With everything the page sends to the server held back (no run,
    no narration), Next scene still brings that figure into view and marks it."""
    target = scenes.SCENES["rope"][0]["show"]
    held = {"on": False}

    def route(ws):
        server = ws.connect_to_server()
        ws.on_message(lambda m: None if held["on"] else server.send(m))
        server.on_message(ws.send)

    ctx = browser.new_context(**PROJECTOR)
    page = ctx.new_page()
    try:
        page.route_web_socket("**/_stcore/stream", route)
        page.goto(f"{app_url}/rope?lang=en")
        settle(page)
        before = page.evaluate(WHERE_JS, target)
        assert before["top"] > before["vh"], before            # below the screen: the scene has to move the page
        held["on"] = True
        page.keyboard.press("Alt+ArrowRight")
        assert page.evaluate(WHERE_JS, target)["marked"]      # marked at the press
        _still(page)
        after = page.evaluate(WHERE_JS, target)
        assert page.evaluate(SAY_JS) is None                   # no run has answered: no narration yet
        assert 0 <= after["top"] < 0.6 * after["vh"] and after["bottom"] <= after["vh"], after
    finally:
        ctx.close()


def test_a_scene_whose_figure_is_in_view_moves_nothing(browser, app_url):
    """/decay scenes 3 and 4 both show the random-vectors figure: after scene 3 has landed, scene 4 leaves the page
    where it is."""
    items = scenes.SCENES["decay"]
    assert items[2]["show"] == items[3]["show"]
    ctx = browser.new_context(**PROJECTOR)
    page = ctx.new_page()
    try:
        page.goto(f"{app_url}/decay?lang=en")                  # the page's figures once (a cold server's first run)
        settle(page)
        page.goto(f"{app_url}/decay?lang=en&scene=3")
        settle(page)
        _still(page)
        landed = page.evaluate(WHERE_JS, items[2]["show"])
        assert 0 <= landed["top"] < 0.6 * landed["vh"] and landed["bottom"] <= landed["vh"], landed
        page.evaluate(RECORD_JS, items[2]["show"])
        t0 = time.time()
        page.keyboard.press("Alt+ArrowRight")
        time.sleep(0.3)
        settle(page)
        _still(page)
        time.sleep(max(0.0, 4.2 - (time.time() - t0)))         # the record's 4 s
        assert f"4/{len(items)}" in page.evaluate(SAY_JS)
        tops = page.evaluate("window.__posvizTops")
        assert tops and max(abs(t - landed["top"]) for t in tops) <= 2, (landed, tops)   # it never moved
        now = page.evaluate(WHERE_JS, items[3]["show"])
        assert 0 <= now["top"] < 0.6 * now["vh"] and now["bottom"] <= now["vh"], now
    finally:
        ctx.close()


# Whether the page glided (scenes.js sets window.__posvizGliding while it does), recorded from the page's start.
GLIDES_JS = """window.__posvizGlided = false;
Object.defineProperty(window, '__posvizGliding', {configurable: true, get() { return this.__g; },
  set(v) { this.__g = v; if (v) window.__posvizGlided = true; }});"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_scene_glides_to_a_far_figure_and_jumps_under_reduced_motion(browser, app_url, motion):
    """/rope scene 1's figure ~1,300 px down: a short glide there, or under prefers-reduced-motion one jump."""
    target = scenes.SCENES["rope"][0]["show"]
    ctx = browser.new_context(**PROJECTOR, reduced_motion=motion)
    page = ctx.new_page()
    try:
        page.add_init_script(GLIDES_JS)
        page.goto(f"{app_url}/rope?lang=en")
        settle(page)
        page.keyboard.press("Alt+ArrowRight")
        time.sleep(0.3)
        settle(page)
        _still(page)
        now = page.evaluate(WHERE_JS, target)
        assert 0 <= now["top"] < 0.6 * now["vh"], now
        assert page.evaluate("window.__posvizGlided") == (motion != "reduce")
    finally:
        ctx.close()
