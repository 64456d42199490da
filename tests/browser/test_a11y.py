"""Keyboard, motion and language in Debian's Chromium (issue 35): every control is reached with Tab in reading order
and shows a ring, the chart element's own controls are named and operable, nothing traps focus (the fullscreen
overlay gives focus back), a chart's text alternative opens in the page's language, prefers-reduced-motion makes a
scene jump and leaves the RoPE animation still, and <html lang> follows the page's language. axe-core over every
page and scene: tests/browser/test_pages.py.

In CI (CI=true) a missing browser is a failure, never a skip (tests/browser/conftest.py).
"""
import time

import pytest

from harness import a11y
from harness.browser import PROJECTOR, settle
from posviz.scenes import SCENES

RING = "rgb(0, 114, 178)"      # frame.css: #0072B2

# The focused element (document.activeElement): what it is, the chart or widget it belongs to, where it is, and
# whether it or what holds it (a slider's thumb, an option's label: frame.css) draws the ring.
STOP_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const ring = (e) => { const cs = getComputedStyle(e);
    return cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2 ? cs.outlineColor : null; };
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 2 && r.height > 2; };
  let drawn = visible(el) ? ring(el) : null;
  for (let p = el.parentElement, i = 0; !drawn && p && i < 3; p = p.parentElement, i++) {
    if (visible(p)) drawn = ring(p);
  }
  const holder = el.closest('[class*="st-key-"]');
  const key = holder ? holder.className.match(/st-key-(\\S+)/)[1] : '';
  const chart = el.closest('.posviz-chart');
  const r = el.getBoundingClientRect();
  return {tag: el.tagName, role: el.getAttribute('role') || '', key,
          name: (el.getAttribute('aria-label') || el.innerText || '').trim().slice(0, 60),
          main: Boolean(el.closest('[data-testid="stMain"]')), chart: chart ? key : '',
          y: r.top + (document.querySelector('[data-testid="stMain"]')?.scrollTop || 0) + scrollY, x: r.left,
          ring: drawn,
          id: el.id || el.getAttribute('data-testid') || (el.getAttribute('aria-label') || '') + '|' + key};
}"""


@pytest.fixture(scope="module")
def ctx(browser, app_url):
    c = browser.new_context(**PROJECTOR)
    yield app_url, c
    c.close()


def _open(ctx, url):
    page = ctx.new_page()
    page.goto(url)
    settle(page)
    return page


def _walk(page, limit=400):
    """Press Tab from the top of the page until focus comes back to the first stop: the stops in order."""
    stops = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        stop = page.evaluate(STOP_JS)
        if stop is None:
            continue
        if stops and stop["id"] == stops[0]["id"] and len(stops) > 5:
            return stops, True
        stops.append(stop)
    return stops, False


def test_tab_reaches_every_control_in_reading_order_with_a_ring_and_no_trap(ctx):
    """/rope: the scene button, sliders, radio buttons, toggles, formula boxes, each chart's toolbar (one stop: its
    text alternative, camera and fullscreen buttons are in it) and CSV button, the animation's controls, the
    sidebar and its share box; every stop draws
    the ring; the main area's stops go down the page, or up to the top of the next column on the right (a chart's
    own controls aside); Tab comes round again."""
    base, c = ctx
    page = _open(c, f"{base}/rope?lang=en")
    try:
        stops, round_again = _walk(page)
        assert round_again, f"focus never came back to the first stop after {len(stops)} stops: a trap"
        unringed = [s for s in stops if s["ring"] != RING]
        assert not unringed, f"no visible focus ring on: {unringed[:5]}"
        names = [s["name"] for s in stops]
        for want in ("Next scene", "Formula and code", "CSV", "Share this view", "Download plot as a PNG",
                     "Animation step", "▶ play"):
            assert any(want in n for n in names), f"{want!r} not reached with Tab: {names}"
        keys = {s["key"] for s in stops}
        assert {"rope_m", "rope_content", "rope_only_q", "rope_anim", "ui_present", "ui_lang_switch"} <= keys
        # a chart's toolbar is one Tab stop (its buttons are reached with the arrow keys)
        toolbar = [s for s in stops if s["chart"] == "rope_clocks" and s["role"] != "slider" and s["tag"] == "BUTTON"]
        assert len(toolbar) == 1, toolbar
        main = [s for s in stops if s["main"] and not s["chart"]]
        back = [(a["name"], b["name"]) for a, b in zip(main, main[1:])
                if b["y"] < a["y"] - 250 and b["x"] < a["x"] + 50]
        assert not back, f"Tab goes back up the page: {back}"
    finally:
        page.close()


ACTIVE_JS = "() => [document.activeElement.className, document.activeElement.getAttribute('aria-label')]"


def test_the_chart_toolbar_by_keyboard_and_fullscreen_gives_focus_back(ctx):
    """The toolbar's buttons are named (in the page's language) and the arrow keys move between them; Enter on
    Full screen opens the overlay with focus on its close button; Escape (and the close button) give focus back."""
    base, c = ctx
    page = _open(c, f"{base}/decay?lang=zh")
    try:
        chart = page.locator(".st-key-decay_main .posviz-chart")
        buttons = chart.locator(".modebar-btn")
        names = [b.get_attribute("aria-label") for b in buttons.all()]
        assert all(names) and names[-2:] == ["图的文字说明", "全屏"]
        assert names[0] == buttons.first.get_attribute("data-title")
        assert [b.get_attribute("tabindex") for b in buttons.all()].count("0") == 1
        buttons.first.focus()
        page.keyboard.press("ArrowRight")
        assert page.evaluate(ACTIVE_JS)[1] == names[1]
        page.keyboard.press("End")
        assert page.evaluate(ACTIVE_JS)[1] == "全屏"
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('.st-key-decay_main .posviz-full')")
        assert page.evaluate(ACTIVE_JS) == ["posviz-close", "关闭"]
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('.posviz-full')")
        assert page.evaluate(ACTIVE_JS) == ["modebar-btn", "全屏"]
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('.st-key-decay_main .posviz-full')")
        page.keyboard.press("Enter")               # on the close button
        page.wait_for_function("() => !document.querySelector('.posviz-full')")
        assert page.evaluate(ACTIVE_JS) == ["modebar-btn", "全屏"]
    finally:
        page.close()


def test_a_charts_text_alternative_opens_in_the_pages_language(ctx):
    """The toolbar's "in words" button opens a panel under the chart: the sentences of its numbers in Chinese, and a
    small figure's numbers as a table (the RoPE page's worked example: two vectors before and after rotation);
    pressed again, it closes. Closed, the panel takes no room."""
    base, c = ctx
    page = _open(c, f"{base}/rope?lang=zh")
    try:
        chart = page.locator(".st-key-rope_hand .posviz-chart")
        chart.scroll_into_view_if_needed()
        panel = chart.locator(".posviz-alt")
        assert panel.is_hidden()
        words = chart.locator('.modebar-btn[data-title="图的文字说明"]')
        assert words.get_attribute("aria-expanded") == "false"
        assert words.get_attribute("aria-controls") == panel.get_attribute("id")
        chart.locator(".modebar-btn").first.focus()
        for _ in range(10):
            if page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "图的文字说明":
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        panel.locator("p").first.wait_for()
        assert words.get_attribute("aria-expanded") == "true" and panel.get_attribute("aria-label") == "图的文字说明"
        sentences = panel.locator("p").all_inner_texts()
        assert sentences and all("共" in s or "为" in s or "图中写着" in s for s in sentences), sentences
        heads = panel.locator("th").all_inner_texts()
        assert heads[0] == "系列" and panel.locator("tbody tr").count() >= 2
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('.st-key-rope_hand .posviz-alt').hidden")
    finally:
        page.close()


def test_the_animation_is_operable_by_keyboard(ctx):
    """The RoPE animation's frame slider moves with the arrow keys, its buttons are named buttons."""
    base, c = ctx
    page = _open(c, f"{base}/rope?lang=en")
    try:
        slider = page.locator(".st-key-rope_anim_fig .slider-container[role=slider]")
        slider.scroll_into_view_if_needed()
        assert slider.get_attribute("aria-valuenow") == "0" and slider.get_attribute("aria-label") == "Animation step"
        slider.focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        page.wait_for_function("""() => document.querySelector('.st-key-rope_anim_fig .slider-container[role=slider]')
                                          ?.getAttribute('aria-valuenow') === '3'""")
        caption = page.locator(".st-key-rope_anim_fig .js-plotly-plot").evaluate("gd => gd.data[5].text[0]")
        assert caption.startswith("t = 3"), caption                     # the frame moved with the slider
        names = page.locator(".st-key-rope_anim_fig .updatemenu-button[role=button]").evaluate_all(
            "bs => bs.map(b => b.getAttribute('aria-label'))")
        assert names == ["▶ play", "❚❚ pause"]
    finally:
        page.close()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_the_animation_stays_still_on_load_and_when_a_scene_shows_it(browser, app_url, motion):
    """The RoPE animation does not start by itself, on load or when a scene brings it into view, whatever the
    motion preference. (How a scene moves the page, a glide or under prefers-reduced-motion a jump:
    test_scene_speed.py.)"""
    c = browser.new_context(**PROJECTOR, reduced_motion=motion)
    try:
        page = _open(c, f"{app_url}/rope?lang=en")
        shows = [sc.get("show") for sc in SCENES["rope"]]
        n = len(shows)
        for i in range(1, shows.index("rope_anim_fig") + 2):     # to the first scene that shows the animation
            a11y.next_scene(page, i, n)
        gd = page.locator(".st-key-rope_anim_fig .js-plotly-plot")
        before = gd.evaluate("g => [g._fullLayout.sliders[0].active, g.data[5].text[0]]")
        time.sleep(1.5)
        assert gd.evaluate("g => [g._fullLayout.sliders[0].active, g.data[5].text[0]]") == before
        assert before[0] == 0 and before[1].startswith("t = 0")
    finally:
        c.close()


def test_html_lang_follows_the_pages_language_and_formulas_keep_their_mathml(ctx):
    base, c = ctx
    page = _open(c, f"{base}/?lang=zh")
    try:
        assert page.evaluate("document.documentElement.lang") == "zh-CN"
        # KaTeX writes each formula twice: drawn (aria-hidden) and as MathML, which a screen reader reads
        mathml = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stMain"] .katex')]
                                          .map(k => Boolean(k.querySelector('.katex-mathml math annotation')))""")
        assert mathml and all(mathml), mathml
        page.locator('[data-testid="stSidebar"]').get_by_text("English", exact=True).click()
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        settle(page)
        assert "lang=en" in page.url
    finally:
        page.close()
