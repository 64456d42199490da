"""ui.plot's chart element in Chromium (posviz/ui/assets/chart): what st.plotly_chart gave users is kept (the
camera button's PNG / SVG at 3x, fullscreen on a desktop and on a phone, hover, role="figure"), a scene still
lands on its figure, and a rerun updates a changed figure in place (same <div>, same SVG: Plotly.react, not a
new plot) and leaves an unchanged one alone.
"""
import struct
import time

import pytest

from harness.browser import PHONE, settle
from posviz import text

PAGE = "decay"          # a light page: its first chart (decay_main) is a line chart at the top


@pytest.fixture(scope="module")
def desk(browser, app_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    yield app_url, ctx
    ctx.close()


def _open(ctx, url):
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60000)
    settle(page)
    return page


def _chart(page, key):
    return page.locator(f'[data-testid="stMain"] .st-key-{key} .js-plotly-plot')


def _camera(page, key):
    chart = _chart(page, key)
    chart.scroll_into_view_if_needed()
    chart.hover()
    with page.expect_download() as dl:
        chart.locator('.modebar-btn[data-title^="Download plot"]').click()
    return dl.value


def test_camera_button_saves_png_and_svg_at_3x(desk):
    base, ctx = desk
    page = _open(ctx, f"{base}/{PAGE}?lang=en")
    try:
        size = _chart(page, "decay_main").evaluate("g => [g._fullLayout.width, g._fullLayout.height]")
        png = _camera(page, "decay_main")
        assert png.suggested_filename == "posviz_decay_main.png"
        head = open(png.path(), "rb").read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", head[16:24]) == (3 * size[0], 3 * size[1])
        page.locator('[data-testid="stSidebar"] label').filter(has_text="SVG").click()
        settle(page)
        svg = _camera(page, "decay_main")
        assert svg.suggested_filename == "posviz_decay_main.svg"
        assert open(svg.path(), encoding="utf-8").read().lstrip().startswith("<svg")
        bar = _chart(page, "decay_main").locator(".modebar")
        assert bar.locator('[data-title*="Cloud"], [data-title*="cloud"], a[href*="plotly.com"]').count() == 0
        assert bar.locator(".modebar-btn--logo").count() == 0
    finally:
        page.close()


FULL_JS = """(key) => { const box = document.querySelector('.st-key-' + key + ' .posviz-chart');
  const g = box.querySelector('.js-plotly-plot'), r = box.getBoundingClientRect();
  const close = box.querySelector('.posviz-close');
  return {full: box.classList.contains('posviz-full'), box: [r.left, r.top, r.width, r.height],
          plot: [g._fullLayout.width, g._fullLayout.height], close: close.offsetWidth > 0,
          view: [innerWidth, innerHeight]}; }"""


def _fullscreen_round_trip(page, key, close_with, lang="en"):
    before = page.evaluate(FULL_JS, key)
    chart = _chart(page, key)
    chart.scroll_into_view_if_needed()
    chart.hover()
    chart.locator(f'.modebar-btn[data-title="{text.get(lang, "ui.fullscreen")}"]').click()
    time.sleep(0.5)
    full = page.evaluate(FULL_JS, key)
    assert full["full"] and full["close"]
    assert full["box"] == [0, 0, *full["view"]], full            # a fixed overlay over the whole screen
    assert full["plot"][0] >= full["view"][0] - 20 and full["plot"][1] >= full["view"][1] * 0.8, full
    if close_with == "button":
        page.locator(f".st-key-{key} .posviz-close").click()
    else:
        page.keyboard.press("Escape")
    time.sleep(0.5)
    after = page.evaluate(FULL_JS, key)
    assert not after["full"] and not after["close"]
    assert after["plot"] == before["plot"], (before, after)
    return full


def test_fullscreen_opens_an_overlay_and_closes_on_a_desktop(desk):
    base, ctx = desk
    page = _open(ctx, f"{base}/{PAGE}?lang=en")
    try:
        _fullscreen_round_trip(page, "decay_main", "button")
        _fullscreen_round_trip(page, "decay_main", "escape")
    finally:
        page.close()


def test_fullscreen_works_on_a_phone(browser, app_url):
    ctx = browser.new_context(**PHONE)
    try:
        page = _open(ctx, f"{app_url}/{PAGE}?lang=zh")
        full = _fullscreen_round_trip(page, "decay_main", "button", "zh")
        assert full["view"] == [390, 844]
        label = page.locator(".st-key-decay_main .posviz-close").get_attribute("aria-label")
        assert label == text.get("zh", "ui.close")
    finally:
        ctx.close()


def test_hover_shows_the_values_under_the_pointer(desk):
    base, ctx = desk
    page = _open(ctx, f"{base}/{PAGE}?lang=en")
    try:
        chart = _chart(page, "decay_main")
        chart.scroll_into_view_if_needed()
        drag = chart.locator(".nsewdrag").first.bounding_box()
        for fx in (0.1, 0.25, 0.4, 0.55, 0.7, 0.85):
            page.mouse.move(drag["x"] + drag["width"] * fx, drag["y"] + drag["height"] * 0.5)
            time.sleep(0.2)
            if chart.locator(".hoverlayer .hovertext").count():
                break
        assert chart.locator(".hoverlayer .hovertext").count() >= 1
        box = page.locator(".st-key-decay_main .posviz-chart")
        assert box.get_attribute("role") == "figure"
        assert box.get_attribute("aria-label") and box.get_attribute("aria-label") != "Figure"
    finally:
        page.close()


SCENE_JS = """(key) => { const el = document.querySelector('[data-testid="stMain"] .st-key-' + key);
  const g = el && el.querySelector('.js-plotly-plot'); if (!g) return null; const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, state: g.dataset.posvizState}; }"""


def test_a_scene_lands_on_its_figure_drawn(desk):
    from posviz import scenes

    base, ctx = desk
    page = _open(ctx, f"{base}/{PAGE}?lang=en")
    try:
        for i, sc in enumerate(scenes.SCENES[PAGE][:3]):
            page.keyboard.press("Alt+ArrowRight")     # outside lecture mode PageDown scrolls
            time.sleep(0.3)
            settle(page)
            time.sleep(1.2)   # smooth scrolling
            box = page.evaluate(SCENE_JS, sc["show"])
            assert box is not None, f"scene {i + 1}: no chart {sc['show']}"
            assert -5 <= box["top"] < 900 * 0.6 and box["state"] == "drawn", f"scene {i + 1}: {sc['show']} {box}"
    finally:
        page.close()


# Each chart: its key, a fingerprint of its data, how many figures its <div> drew, whether its <div> and its SVG are
# the nodes marked before the rerun, and whether the <div> drew its first figure.
STATE_JS = """(mark) => Array.from(document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')).map(g => {
  const key = g.closest('[class*="st-key-"]').className.match(/st-key-(\\S+)/)[1], svg = g.querySelector('.main-svg');
  if (mark) { g.__probe = key; svg.__probe = key; }
  const s = JSON.stringify([g.data, g.layout]);
  let h = 2166136261; for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
  return {key, data: s.length + ':' + (h >>> 0),
          draws: +g.dataset.posvizDraws, div: g.__probe === key, svg: svg.__probe === key,
          fresh: g.dataset.posvizNew}; })"""


def test_a_rerun_updates_changed_charts_in_place_and_leaves_the_others(desk):
    base, ctx = desk
    page = _open(ctx, f"{base}/rope?lang=en")
    try:
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")   # every chart drawn (out-of-view ones too)
        time.sleep(1.5)
        settle(page)
        page.evaluate("window.scrollTo(0, 0)")
        before = {c["key"]: c for c in page.evaluate(STATE_JS, True)}
        slider = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]').first
        slider.focus()
        page.keyboard.press("ArrowRight")
        time.sleep(0.3)
        settle(page)
        after = {c["key"]: c for c in page.evaluate(STATE_JS, False)}
        assert after.keys() == before.keys()
        changed = [k for k in after if after[k]["data"] != before[k]["data"]]
        assert changed, "the slider changed no chart"
        for k, c in after.items():
            assert c["div"] and c["svg"], f"{k}: drawn in a new node (a new plot, not Plotly.react in place)"
            assert c["fresh"] == "0" or k not in changed, k
            want = before[k]["draws"] + (1 if k in changed else 0)
            assert c["draws"] == want, f"{k}: {c['draws']} draws, expected {want} (changed: {k in changed})"
    finally:
        page.close()


def _frames_of(page, cdp, act):
    """How many websocket messages the server sends for `act` (a run's elements, one message each)."""
    got = []
    listen = lambda e: got.append(1)     # noqa: E731
    cdp.on("Network.webSocketFrameReceived", listen)
    act()
    time.sleep(0.3)
    settle(page)
    cdp.remove_listener("Network.webSocketFrameReceived", listen)
    return len(got)


def test_a_sections_own_control_reruns_only_that_section(desk):
    """/rope's calculator (ui.section): its toggle reruns the calculator alone, redraws its chart in place and
    keeps its open formula box open; the page's first slider reruns the page."""
    base, ctx = desk
    page = _open(ctx, f"{base}/rope?lang=en")
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    try:
        toggle = page.locator('[data-testid="stMain"] .st-key-rope_calc_only_q label').first
        toggle.scroll_into_view_if_needed()
        settle(page)
        clock = _chart(page, "rope_calc_clock")
        box = clock.locator('xpath=following::*[@data-testid="stExpander"][1]')
        box.locator("summary").click()
        settle(page)
        assert box.locator("details[open]").count() == 1
        clock.evaluate("g => { g.__probe = 1; }")
        draws = int(clock.get_attribute("data-posviz-draws"))
        section = _frames_of(page, cdp, toggle.click)
        assert clock.evaluate("g => g.__probe") == 1 and int(clock.get_attribute("data-posviz-draws")) == draws + 1
        assert box.locator("details[open]").count() == 1, "the section's formula box closed on its rerun"
        slider = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]').first
        slider.focus()
        whole = _frames_of(page, cdp, lambda: page.keyboard.press("ArrowRight"))
        assert section * 3 < whole, (section, whole)
    finally:
        page.close()


def _plotly_loads(ctx, url):
    """Open url in a new tab of ctx -> [(url, status, from the browser's cache?, bytes over the network)] of every
    plotly.js request the tab made."""
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    seen, sizes = {}, {}
    cdp.on("Network.responseReceived", lambda e: seen.__setitem__(e["requestId"], e["response"])
           if "plotly-cartesian" in e["response"]["url"] else None)
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
    cdp.send("Network.enable")
    page.goto(url)
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60000)
    settle(page)
    page.close()
    return [(r["url"], r["status"], r.get("fromDiskCache") or r.get("fromMemoryCache"), sizes.get(i, 0))
            for i, r in seen.items()]


def test_a_second_tab_keeps_plotly_js(browser, app_url):
    """Issue 34 item 2: plotly.js comes from posviz's versioned route (posviz/ui/routes.py) with a year's lifetime;
    a second tab of the same browser takes it from the cache and downloads none of it."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        first = _plotly_loads(ctx, f"{app_url}/{PAGE}?lang=en")
        assert len(first) == 1, first
        url, status, cached, size = first[0]
        assert "/posviz/plotly-cartesian.min.js?v=" in url and "_stcore" not in url
        assert status == 200 and not cached and 400_000 < size < 700_000      # 0.5 MB gzipped
        again = _plotly_loads(ctx, f"{app_url}/rope?lang=zh")
        assert [(u, c) for u, _, c, _ in again] == [(url, True)] and again[0][3] < 1000, again
    finally:
        ctx.close()
