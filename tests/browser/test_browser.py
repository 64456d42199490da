"""The real app in Debian's Chromium: sliders redraw charts, URLs reopen the same view, the language
switch keeps page and values, a cold deep link, the share box's QR code, scenes by keyboard. Every page
loading in both languages: tests/browser/test_pages.py.

In CI (CI=true) a missing browser is a failure, never a skip (tests/browser/conftest.py).
"""
import time
import urllib.parse

import pytest

from harness.browser import app_server, page_paths, plot_signature, settle

NO_PLOT_OK = {"checks", "remember"}
PATHS = page_paths()


@pytest.fixture(scope="module")
def browser_ctx(browser, app_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield app_url, ctx
    ctx.close()


def _open(ctx, url):
    page = ctx.new_page()
    page.goto(url)
    settle(page)
    return page


def _first_slider(page):
    sliders = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]')
    return sliders.first if sliders.count() else None


def _move(page, slider, presses=2):
    slider.focus()
    for _ in range(presses):
        page.keyboard.press("ArrowRight")
    time.sleep(0.3)
    settle(page)


@pytest.mark.parametrize("path", [p for p in PATHS if p not in NO_PLOT_OK])
def test_slider_redraws_and_url_reopens_the_same_view(browser_ctx, path):
    base, ctx = browser_ctx
    page = _open(ctx, f"{base}/{path}?lang=en")
    try:
        slider = _first_slider(page)
        if slider is None:
            pytest.skip(f"/{path} has no slider")
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=30000)
        before_value = slider.input_value()
        before_plots = plot_signature(page)
        _move(page, slider)
        after_value = slider.input_value()
        assert after_value != before_value, "the keyboard did not move the slider"
        deadline = time.time() + 10
        while plot_signature(page) == before_plots and time.time() < deadline:
            time.sleep(0.2)
        assert plot_signature(page) != before_plots, "moving the main slider did not redraw any chart"
        url = page.url
        assert "?" in url and "lang=en" in url
        again = _open(ctx, url)
        try:
            assert _first_slider(again).input_value() == after_value
            assert again.locator('[data-testid="stException"]').count() == 0
        finally:
            again.close()
    finally:
        page.close()


def test_language_switch_keeps_page_and_values(browser_ctx):
    base, ctx = browser_ctx
    for path in ["rope"] + [p for p in PATHS if p]:
        page = _open(ctx, f"{base}/{path}?lang=en")
        slider = _first_slider(page)
        if slider is not None:
            break
        page.close()
    try:
        _move(page, slider, presses=3)
        value = slider.input_value()
        title_en = page.locator('[data-testid="stMain"] h1').first.inner_text()
        page.locator('[data-testid="stSidebar"]').get_by_text("中文", exact=True).click()
        time.sleep(0.3)
        settle(page)
        parsed = urllib.parse.urlparse(page.url)
        assert parsed.path.rstrip("/") == f"/{path}"
        assert urllib.parse.parse_qs(parsed.query).get("lang") == ["zh"]
        assert _first_slider(page).input_value() == value
        title_zh = page.locator('[data-testid="stMain"] h1').first.inner_text()
        assert title_zh != title_en and any("\u4e00" <= ch <= "\u9fff" for ch in title_zh)
    finally:
        page.close()


@pytest.mark.usefixtures("alone")
def test_cold_deep_link_runs_through_the_app_frame(browser):
    """A shared link opened first on a freshly started server still gets the app's navigation."""
    path = next(p for p in PATHS if p)
    with app_server() as (base, _, _):
        page = browser.new_page()
        page.goto(f"{base}/{path}?lang=zh")
        settle(page)
        nav = page.locator('[data-testid="stSidebarNav"]').inner_text()
        assert "app" not in nav.split("\n"), nav
        assert page.locator('[data-testid="stSidebar"] [role="radiogroup"]').count() >= 1
        page.close()


def test_share_box_qr_decodes_to_the_current_url(browser_ctx):
    import io

    import numpy as np
    import zxingcpp
    from PIL import Image

    base, ctx = browser_ctx
    page = _open(ctx, f"{base}/relative?lang=zh")
    try:
        page.locator('[data-testid="stSidebar"] [data-testid="stExpander"] summary').last.click()
        img = page.locator('[data-testid="stSidebar"] [data-testid="stImage"] img').first
        img.wait_for(timeout=10000)
        time.sleep(0.5)
        shot = Image.open(io.BytesIO(img.screenshot())).convert("L")
        decoded = [r.text for r in zxingcpp.read_barcodes(np.asarray(shot))]
        shown = page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').first.inner_text().strip()
        assert decoded == [shown]
        want = urllib.parse.urlparse(page.url)
        got = urllib.parse.urlparse(shown)
        assert (got.netloc, got.path.rstrip("/")) == (want.netloc, want.path.rstrip("/"))
        assert urllib.parse.parse_qs(got.query) == urllib.parse.parse_qs(want.query)
    finally:
        page.close()


def test_keyboard_walks_the_scenes_without_touching_a_slider(browser_ctx):
    """Alt+Right from the first scene to the last: each scene sets the widgets and the URL follows."""
    from posviz import scenes

    base, ctx = browser_ctx
    page_name = "rope" if "rope" in scenes.SCENES else sorted(scenes.SCENES)[0]
    path = page_name.replace("_", "-")
    n = len(scenes.SCENES[page_name])
    page = _open(ctx, f"{base}/{path}?lang=en")
    try:
        urls = []
        for i in range(n):
            page.locator('[data-testid="stMain"] h1').first.click()  # focus the page, not a widget
            page.keyboard.press("Alt+ArrowRight")
            time.sleep(0.3)
            settle(page)
            info = page.locator('[data-testid="stMain"] [data-testid="stAlert"]').first.inner_text()
            assert f"{i + 1}/{n}" in info, info
            urls.append(page.url)
            assert page.locator('[data-testid="stException"]').count() == 0
        assert len(set(urls)) == n, "every scene should change the URL"
        again = _open(ctx, urls[-1])
        try:
            assert again.locator('[data-testid="stException"]').count() == 0
        finally:
            again.close()
    finally:
        page.close()
