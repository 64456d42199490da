"""The lecture hall in Debian's Chromium (issue 12): the share link is always the current view,
scenes bring their figure into view with one history entry each (on a phone too), and lecture mode's
dropdown lists are projector-sized. Every page's text in lecture mode and every figure on a phone:
tests/browser/test_pages.py.

In CI (CI=true) a missing browser is a failure, never a skip (tests/browser/conftest.py).
"""
import io
import time
import urllib.parse

import pytest

from harness.browser import MIN_PROJECTOR_PX, PHONE, PROJECTOR, settle


@pytest.fixture(scope="module")
def server(app_url, browser):
    return app_url, browser


def _open(ctx, url):
    page = ctx.new_page()
    page.goto(url)
    settle(page)
    return page


def _widget_values(page):
    """{widget key: value} of every slider, radio and toggle in the main area (read from the DOM)."""
    return page.evaluate("""() => {
      const out = {};
      document.querySelectorAll('[data-testid="stMain"] [class*="st-key-"]').forEach(el => {
        const key = Array.from(el.classList).find(c => c.startsWith('st-key-')).slice(7);
        const range = el.querySelector('input[type="range"]');
        const radio = el.querySelector('input[type="radio"]:checked');
        const box = el.querySelector('input[type="checkbox"]');
        if (range) out[key] = range.value;
        else if (radio) out[key] = radio.closest('label').innerText;
        else if (box) out[key] = box.checked;
      });
      return out; }""")


def _share_box(page):
    page.locator('[data-testid="stSidebar"] [data-testid="stExpander"] summary').last.click()
    page.locator('[data-testid="stSidebar"] [data-testid="stImage"] img').first.wait_for(timeout=10000)
    time.sleep(0.5)


def test_share_link_and_qr_are_the_view_after_the_last_interaction(server):
    import numpy as np
    import zxingcpp
    from PIL import Image

    base, browser = server
    ctx = browser.new_context(**PROJECTOR)
    page = _open(ctx, f"{base}/rope?lang=zh&present=1")
    try:
        page.locator('[data-testid="stSidebarCollapsedControl"] button, '
                     '[data-testid="stExpandSidebarButton"]').first.click()
        slider = page.locator('[data-testid="stSlider"] input[type="range"]').first
        for keys in (["ArrowRight"], ["PageDown", "PageDown"], ["ArrowRight", "ArrowRight"]):
            for k in keys:
                slider.focus()
                page.keyboard.press(k)
                time.sleep(0.3)
                settle(page)
        _share_box(page)
        codes = [c.inner_text().strip() for c in page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').all()]
        student, lecturer = codes[0], codes[-1]
        img = page.locator('[data-testid="stSidebar"] [data-testid="stImage"] img').first
        shot = Image.open(io.BytesIO(img.screenshot())).convert("L")
        decoded = [r.text for r in zxingcpp.read_barcodes(np.asarray(shot))]
        assert decoded == [student]
        want = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
        got = urllib.parse.parse_qs(urllib.parse.urlparse(student).query)
        assert "present" not in got, "students' phones must not open in lecture mode"
        assert got == {k: v for k, v in want.items() if k != "present"}
        assert urllib.parse.parse_qs(urllib.parse.urlparse(lecturer).query).get("present") == ["1"]
        before = _widget_values(page)
        again = _open(ctx, student)
        try:
            assert _widget_values(again) == before
            assert again.locator('[data-testid="stException"]').count() == 0
        finally:
            again.close()
    finally:
        page.close()
        ctx.close()


def test_scenes_scroll_to_their_figure_with_one_history_entry_each_and_a_slider_focused(server):
    from posviz import scenes

    base, browser = server
    ctx = browser.new_context(**PROJECTOR)
    page = _open(ctx, f"{base}/relative?lang=en&present=1")
    try:
        n = len(scenes.SCENES["relative"])
        h0 = page.evaluate("history.length")
        for i in range(n):
            page.locator('[data-testid="stSlider"] input[type="range"]').first.focus()   # a focused slider
            page.keyboard.press("Alt+ArrowRight" if i % 2 else "PageDown")             # PageDown: lecture mode
            time.sleep(0.3)
            settle(page)
            info = page.locator('[data-testid="stMain"] [data-testid="stAlert"]').first.inner_text()
            assert f"{i + 1}/{n}" in info, info
            target = scenes.SCENES["relative"][i]["show"]
            time.sleep(1.2)   # smooth scrolling
            box = page.evaluate("""(key) => {
                const el = document.querySelector('[data-testid="stMain"] .st-key-' + key);
                if (!el) return null; const r = el.getBoundingClientRect();
                return {top: r.top, bottom: r.bottom, marked: el.classList.contains('posviz-shown') || null};
                }""", target)
            assert box is not None, f"scene {i + 1}: nothing with key {target}"
            assert -5 <= box["top"] < 720 * 0.6, f"scene {i + 1}: {target} is not brought into view ({box})"
            assert page.evaluate("history.length") == h0 + i + 1, "one history entry per scene"
        page.go_back()
        settle(page)
        assert f"scene={n - 1}" in page.url
    finally:
        page.close()
        ctx.close()


def test_a_tapped_scene_scrolls_to_its_figure_on_a_phone_also_when_it_shows_the_same_figure_again(server):
    """On a phone the scene buttons are at the top: tapping one leaves the figure, and the scene must
    bring it back. /models' scenes 2 and 3 both show the wavelength figure (the same target twice)."""
    from posviz import scenes

    base, browser = server
    items = scenes.SCENES["models"]
    assert items[1]["show"] == items[2]["show"]
    ctx = browser.new_context(**PHONE)
    page = _open(ctx, f"{base}/models?lang=zh")
    try:
        for i, sc in enumerate(items):
            page.locator(".st-key-scenes_nav button").nth(1).tap()     # scrolls up to the button first
            time.sleep(0.3)
            settle(page)
            alert = page.locator('[data-testid="stMain"] [data-testid="stAlert"]').first.inner_text()
            assert f"{i + 1}/{len(items)}" in alert
            time.sleep(1.5)   # smooth scrolling
            top = page.evaluate("""(key) => {
                const el = document.querySelector('[data-testid="stMain"] .st-key-' + key);
                return el ? el.getBoundingClientRect().top : null; }""", sc["show"])
            assert top is not None and -5 <= top < 844 * 0.5, \
                f"scene {i + 1}: {sc['show']} is not brought into view ({top})"
    finally:
        page.close()
        ctx.close()


OPTION_SIZES_JS = """() => Array.from(document.querySelectorAll('[role="listbox"] [role="option"]'))
  .filter(o => o.textContent.trim()).map(o => parseFloat(getComputedStyle(o.querySelector('*') || o).fontSize))"""


def test_lecture_mode_dropdown_options_are_projector_sized(server):
    """A selectbox's and a multiselect's open list (drawn outside the page's main block) in lecture mode."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    base, browser = server
    ctx = browser.new_context(**PROJECTOR)
    page = _open(ctx, f"{base}/models?lang=en&present=1")
    try:
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60000)
        settle(page)
        for widget in ("stSelectbox", "stMultiSelect"):
            box = page.locator(f'[data-testid="stMain"] [data-testid="{widget}"] input').first
            for _ in range(3):   # a click that lands while the page still renders can leave the list shut
                box.click()
                try:
                    page.wait_for_selector('[role="listbox"] [role="option"]', state="attached", timeout=5000)
                    break
                except PlaywrightTimeout:
                    page.keyboard.press("Escape")
                    settle(page)
            else:
                pytest.fail(f"{widget}: its list of options did not open")
            sizes = page.evaluate(OPTION_SIZES_JS)
            assert sizes and min(sizes) >= MIN_PROJECTOR_PX, f"{widget} options: {sorted(set(sizes))} px"
            page.keyboard.press("Escape")
            settle(page)
    finally:
        page.close()
        ctx.close()


STATE_JS = """() => ({scroll: document.querySelector('[data-testid="stMain"]').scrollTop,
  say: (document.querySelector('[data-testid="stMain"] .st-key-scene_say') || {}).innerText || '',
  scene: new URLSearchParams(location.search).get('scene'),
  ranges: Array.from(document.querySelectorAll('[data-testid="stMain"] input[type="range"]')).map(r => r.value)})"""


def _press(page, key):
    page.keyboard.press(key)
    time.sleep(0.4)
    settle(page)
    return page.evaluate(STATE_JS)


def test_keys_never_steal_a_students_page_and_a_clicker_drives_lecture_mode(server):
    """Issue 33 item 1. Outside lecture mode PageDown / PageUp scroll the page and start no scene; no key acts
    while a text field has focus (/lab's sentence box: PageDown, arrows, Alt+arrow); in lecture mode a clicker's
    PageDown / PageUp and plain arrows walk the scenes when no widget has focus, an arrow on a slider moves the
    slider. Alt+arrow is the scene shortcut in both modes."""
    base, browser = server
    ctx = browser.new_context(**PROJECTOR)
    try:
        page = _open(ctx, f"{base}/relative?lang=en")
        page.locator('[data-testid="stMain"] h1').first.click()            # the page, not a widget
        down = _press(page, "PageDown")
        assert down["scene"] is None and not down["say"] and down["scroll"] > 200, down
        for key in ("ArrowRight", "ArrowLeft"):                             # plain arrows: the page's own
            assert _press(page, key)["scene"] is None
        assert _press(page, "PageUp")["scroll"] < down["scroll"]
        assert _press(page, "Alt+ArrowRight")["scene"] == "1"
        page.close()

        for query in ("", "&present=1"):
            page = _open(ctx, f"{base}/lab?lang=en{query}")
            box = page.locator('[data-testid="stMain"] [data-testid="stTextInput"] input').first
            box.focus()
            before = page.evaluate(STATE_JS)
            for key in ("PageDown", "ArrowRight", "Alt+ArrowRight", "PageUp", "ArrowLeft", "Alt+ArrowLeft"):
                now = _press(page, key)
                assert now["scene"] is None and not now["say"] and now["ranges"] == before["ranges"], (query, key, now)
            assert box.evaluate("e => e === document.activeElement")
            page.close()

        page = _open(ctx, f"{base}/lab?lang=en&present=1")
        page.locator('[data-testid="stMain"] h1').first.click()
        assert _press(page, "ArrowRight")["scene"] == "1"
        assert _press(page, "PageDown")["scene"] == "2"
        assert _press(page, "ArrowLeft")["scene"] == "1"
        assert _press(page, "PageUp")["scene"] is None or page.evaluate(STATE_JS)["scene"] == "1"   # first: stays
        slider = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]').first
        slider.focus()
        before = page.evaluate(STATE_JS)
        after = _press(page, "ArrowRight")                                 # the slider's key, not the scene's
        assert after["ranges"] != before["ranges"] and after["scene"] != "2", (before, after)
        page.close()
    finally:
        ctx.close()


@pytest.mark.parametrize("view", ["lecture", "phone"])
def test_a_scene_link_lands_on_its_figure_as_next_scene_does(server, view):
    """Issue 33 item 2: a link with ?scene=N (as /remember's) showed the narration and left the page at the top.
    /frontier scene 6 (its figure ~5,000 px down) and a /remember link to /length's scene 5."""
    from posviz import scenes

    base, browser = server
    ctx = browser.new_context(**(PROJECTOR if view == "lecture" else PHONE))
    query = "&present=1" if view == "lecture" else ""
    try:
        page = _open(ctx, f"{base}/frontier?lang=zh{query}&scene=6")
        time.sleep(1.5)
        settle(page)
        top = page.evaluate(LANDED_JS, scenes.SCENES["frontier"][5]["show"])
        assert top is not None and 0 <= top["top"] < top["vh"] * 0.6, top
        assert "6/" in page.locator('[data-testid="stMain"] .st-key-scene_say').inner_text()
        page.close()
        page = _open(ctx, f"{base}/remember?lang=zh{query}")
        link = page.locator('[data-testid="stMain"] a[href*="scene=5"][href*="length?"]').first
        link.scroll_into_view_if_needed()
        link.click()
        page.wait_for_url("**/length?**scene=5**")
        settle(page)
        time.sleep(1.5)
        settle(page)
        top = page.evaluate(LANDED_JS, scenes.SCENES["length"][4]["show"])
        assert top is not None and 0 <= top["top"] < top["vh"] * 0.6, top
        page.close()
    finally:
        ctx.close()


LANDED_JS = """(key) => { const el = document.querySelector('[data-testid="stMain"] .st-key-' + CSS.escape(key));
  return el ? {top: el.getBoundingClientRect().top, vh: innerHeight} : null; }"""
