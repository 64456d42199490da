"""In Chromium at 1280x720 (normal and lecture mode) and on a 390x844 phone (its User-Agent tells the
server, which asks for the phone's margins), plotly.js draws every chart of every page in one pass: the
margins the figure asks for (posviz/figures/margins.json) already hold its title, colour bar, legend and
axis labels, so plotly never grows them and draws the chart a second time (half the browser's time per
chart, on every load and every slider move)."""
import pytest

from harness.browser import MARGINS_JS, PHONE, grown_sides, page_paths, settle

PLOTTED = [p for p in page_paths() if p not in ("checks", "remember")]


@pytest.fixture(scope="module")
def screens(browser, app_url):
    desk = browser.new_context(viewport={"width": 1280, "height": 720})
    phone = browser.new_context(**PHONE)
    yield app_url, {"desk": desk.new_page(), "phone": phone.new_page()}
    desk.close()
    phone.close()


@pytest.mark.parametrize("screen,present", [("desk", 0), ("desk", 1), ("phone", 0)])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", PLOTTED)
def test_every_chart_is_drawn_in_one_pass(screens, path, lang, screen, present):
    base, pages = screens
    page = pages[screen]
    page.goto(f"{base}/{path}?lang={lang}" + ("&present=1" if present else ""))
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60000)
    settle(page)
    rows = page.evaluate(MARGINS_JS)
    assert rows
    twice = {r["key"]: {k: (r["asked"][k], round(r["drawn"][k])) for k in grown_sides(r)}
             for r in rows if grown_sides(r)}
    assert not twice, f"plotly grew these margins (asked, drawn): {twice}; refit: python -m benchmarks.margins --write"
