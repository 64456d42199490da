"""In Chromium at 1280x720, plotly.js draws every chart of every page in one pass: the margins the
figure asks for (posviz/figures/margins.json) already hold its title, colour bar, legend and axis
labels, so plotly never grows them and draws the chart a second time (half the browser's time per
chart, on every load and every slider move)."""
import pytest

from browser_util import MARGINS_JS, app_server, grown_sides, page_paths, settle
from test_browser import browser  # noqa: F401  (fixture)

PLOTTED = [p for p in page_paths() if p not in ("checks", "remember")]


@pytest.fixture(scope="module")
def desk(browser):  # noqa: F811
    with app_server() as (base, _, _):
        ctx = browser.new_context(viewport={"width": 1280, "height": 720})
        yield base, ctx.new_page()
        ctx.close()


@pytest.mark.parametrize("present", [0, 1])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", PLOTTED)
def test_every_chart_is_drawn_in_one_pass(desk, path, lang, present):
    base, page = desk
    page.goto(f"{base}/{path}?lang={lang}" + ("&present=1" if present else ""))
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60000)
    settle(page)
    rows = page.evaluate(MARGINS_JS)
    assert rows
    twice = {r["key"]: {k: (r["asked"][k], round(r["drawn"][k])) for k in grown_sides(r)} for r in rows if grown_sides(r)}
    assert not twice, f"plotly grew these margins (asked, drawn): {twice}; refit: python benchmarks/margins.py --write"
