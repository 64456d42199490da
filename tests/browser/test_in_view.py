"""Views that each need a page of their own, measured in Chromium (issue 26 items 17, 19; issue 33 item 5): the share
link after a scene and a later widget change reopens exactly that view, in the real browser, whose frontend writes
bound widgets into the URL; a phone's /checks summary and slider thumbs, /models' gallery; legends clear of axis titles
and ticks in views opened with their own parameters.

The scenes' in-view checks, the metric labels in lecture mode, the phone's chart titles and the overview diagram are
checked in tests/browser/test_pages.py, on the page views it opens anyway (one load per view).

Uses the browser tier's shared server (app_url) and Chromium (browser).
"""
import time

import pytest

from harness.browser import PHONE, PROJECTOR, settle

LECTURE = PROJECTOR


def _widget_values(page):
    return page.evaluate("""() => Array.from(document.querySelectorAll(
        '[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]')).map(s => s.value)""")


def test_a_share_link_after_a_scene_and_a_moved_slider_reopens_that_view(browser, app_url):
    """Item 17 in the browser: /rope, Next scene (m = 1), m back to 2 (its default). The URL used to keep
    scene=1 and drop rope_m, so the link reopened m = 1 beside a narration about position 1."""
    ctx = browser.new_context(**LECTURE)
    page = ctx.new_page()
    try:
        page.goto(f"{app_url}/rope?lang=en")
        settle(page)
        page.locator(".st-key-scenes_nav button").nth(1).click()
        time.sleep(0.3)
        settle(page)
        assert "scene=1" in page.url and "rope_m=1" in page.url
        m = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]').first
        m.focus()
        page.keyboard.press("ArrowRight")                   # m: 1 -> 2, the default
        time.sleep(0.5)
        settle(page)
        assert "scene=" not in page.url and "rope_m=" not in page.url, page.url
        assert page.locator(".st-key-scene_say").count() == 0           # no narration about position 1
        seen, url = _widget_values(page), page.url
        again = ctx.new_page()
        again.goto(url)
        settle(again)
        assert _widget_values(again) == seen and seen[0] == "2", (seen, _widget_values(again))
        assert again.locator(".st-key-scene_say").count() == 0
        again.close()
    finally:
        page.close()
        ctx.close()


# ---------------------------------------------------------------- on a phone (item 19) and the overview diagram (15)
SUMMARY_JS = """() => Array.from(document.querySelectorAll('.st-key-chk_summary tr')).flatMap(tr => {
  const cells = Array.from(tr.children), out = [];
  for (const c of [cells[0], cells[cells.length - 1]]) {
    const r = document.createRange(); r.selectNodeContents(c);
    const lines = new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size;
    if (lines > 1) out.push(`${c.textContent} in ${lines} lines`);
  }
  return out;
})"""

THUMBS_JS = """() => Array.from(document.querySelectorAll(
  '[data-testid="stMain"] [data-testid="stSlider"] div:has(> [data-testid="stSliderThumbValue"])'))
  .slice(0, 4).flatMap(th => {
    th.scrollIntoView({block: 'center'}); const r = th.getBoundingClientRect();
    const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    return [[18, 0], [-18, 0], [0, 18], [0, -18]].filter(([dx, dy]) => {
      const e = document.elementFromPoint(cx + dx, cy + dy); return !(e && (e === th || th.contains(e))); })
      .map(([dx, dy]) => `${th.textContent}: (${dx}, ${dy}) misses the ${r.width}px thumb`); })"""


def test_phone_checks_summary_keeps_its_verdicts_whole_and_sliders_take_a_thumb(browser, app_url):
    """Issue 26 item 19: zh /checks wrapped "通/过" a character a line; slider thumbs were 12x12 px targets."""
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    try:
        page.goto(f"{app_url}/checks?lang=zh")
        settle(page)
        assert page.locator(".st-key-chk_summary td").count() >= 27
        assert not page.evaluate(SUMMARY_JS)
        page.goto(f"{app_url}/decay?lang=zh")
        settle(page)
        assert page.locator('[data-testid="stSlider"] [data-testid="stSliderThumbValue"]').count() >= 2
        assert not page.evaluate(THUMBS_JS)
    finally:
        ctx.close()


GALLERY_JS = """() => { const g = document.querySelector('[data-testid="stMain"] [data-testid="stDataFrame"]');
  const s = g && g.querySelector('.dvn-scroller');
  return g ? {cols: g.querySelectorAll('[role="columnheader"]').length,
              scroll: s ? s.scrollWidth - s.clientWidth : null, right: g.getBoundingClientRect().right,
              vw: innerWidth} : null; }"""


def test_phone_models_gallery_shows_every_column(browser, app_url):
    """Issue 26 item 19: the gallery showed 3 of its 10 columns at 390 px; drawn long (ui.table), all of them."""
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    try:
        page.goto(f"{app_url}/models?lang=zh")
        settle(page)
        page.wait_for_selector('[data-testid="stDataFrame"] [role="columnheader"]', state="attached", timeout=60000)
        g = page.evaluate(GALLERY_JS)
        assert g["cols"] == 3 and g["scroll"] is not None and g["scroll"] <= 1 and g["right"] <= g["vw"], g
    finally:
        ctx.close()


# ---------------------------------------------------------------- issue 33 item 5: phone and projector layouts
CLEAR_JS = """(key) => { const g = document.querySelector('[data-testid="stMain"] .st-key-' + key + ' .js-plotly-plot');
  if (!g) return null; g.scrollIntoView({block: 'start'});
  const r = (e) => { if (!e) return null; const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom}; };
  const ticks = [...g.querySelectorAll('.xtick text')].map(r).filter(Boolean);
  const plot = g.querySelector('.nsewdrag');                       // the plot area
  const p = plot.getBoundingClientRect(), box = g.getBoundingClientRect();
  return {legend: r(g.querySelector('.legend')), title: r(g.querySelector('.g-xtitle')),
          ticksBottom: Math.max(...ticks.map((t) => t.bottom)), plotWidth: p.width, width: box.width,
          rows: g.querySelectorAll('.annotation').length}; }"""


@pytest.mark.parametrize("view, path, key", [("phone", "kv-cache?kv_stream=true", "kv_stream_errors"),
                                             ("phone", "models?models_prop=true", "models_prop_dims"),
                                             ("phone", "models?models_all=true", "models_strip_all"),
                                             ("phone", "extrapolation?ext_preset=gpt_oss_20b", "ext_strip"),
                                             ("desk", "extrapolation?ext_preset=gpt_oss_20b", "ext_strip"),
                                             ("lecture", "extrapolation?ext_preset=gpt_oss_20b", "ext_strip")])
def test_legends_clear_axis_titles_and_ticks_and_strips_take_the_width(browser, app_url, view, path, key):
    """Issue 33 item 5: /kv-cache streaming's axis title ran over the first legend entry, /extrapolation's
    layer-strip legend hid the ticks, /models' row labels took a phone's width (~30 px strips)."""
    opts = LECTURE if view != "phone" else PHONE
    ctx = browser.new_context(**opts)
    page = ctx.new_page()
    try:
        page.goto(f"{app_url}/{path}&lang=zh" + ("&present=1" if view == "lecture" else ""))
        settle(page)
        page.wait_for_selector(f".st-key-{key} .js-plotly-plot .main-svg", timeout=60000)
        time.sleep(0.5)
        m = page.evaluate(CLEAR_JS, key)
        assert m["legend"]["top"] >= m["ticksBottom"] - 1, m
        if m["title"]:
            assert m["legend"]["top"] >= m["title"]["bottom"] - 1, m
        if key.startswith(("models_", "ext_strip")):
            assert m["plotWidth"] >= 0.7 * m["width"], m         # the names above the strips, not beside them
    finally:
        ctx.close()
