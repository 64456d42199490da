"""/kv-cache in Chromium: the cache table fits the page's column on a 1280x720 projector in lecture mode
(issue 26: at scene 5 it was 1,937 px wide in a 1,216 px column, keys k9-k15 cut off), in every mode of
the table, and its last row is the scene's last decode step.

    python -m pytest tests/browser -k kv_cache
"""
import pytest

from harness.browser import settle
from posviz import scenes

PROJECTOR = dict(viewport={"width": 1280, "height": 720})

# every markdown table of the main column: its width, its container's, and the text of its last row
TABLES_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stMarkdownContainer"] table'))
  .map(t => { const box = t.closest('[data-testid="stMarkdownContainer"]');
    const rows = t.querySelectorAll('tr'); const last = rows[rows.length - 1];
    return {width: t.getBoundingClientRect().width, scroll: t.scrollWidth, right: t.getBoundingClientRect().right,
            column: box.getBoundingClientRect().width, columnRight: box.getBoundingClientRect().right,
            head: Array.from(rows[0].querySelectorAll('th')).map(c => c.innerText.trim()),
            last: Array.from(last.querySelectorAll('td')).map(c => c.innerText.trim())}; })"""


@pytest.fixture(scope="module")
def projector(browser, app_url):
    ctx = browser.new_context(**PROJECTOR)
    yield app_url, ctx
    ctx.close()


def _tables(ctx, url):
    page = ctx.new_page()
    try:
        page.goto(url)
        settle(page)
        return page.evaluate(TABLES_JS)
    finally:
        page.close()


LONG = next(i for i, s in enumerate(scenes.SCENES["kv_cache"], 1) if s["title"] == "kv_cache.scene.long")


@pytest.mark.parametrize("mode", ["rerotate", "rotate_on_read", "correct", "restart"])
def test_kv_cache_table_fits_the_lecture_column(projector, mode):
    base, ctx = projector
    tables = _tables(ctx, f"{base}/kv-cache?lang=zh&present=1&scene={LONG}&kv_trace_mode={mode}")
    cache = next(t for t in tables if t["head"][:3] == ["t", "q", "k0"])
    assert cache["scroll"] <= cache["column"] + 1 and cache["right"] <= cache["columnRight"] + 1, cache
    assert cache["last"][0] == "95"                                 # the table ends where the decode ends
    if mode == "rerotate":
        assert cache["last"][2].split()[0] == "4440"                # the number scene 5 states
    for t in tables:                                                # and no other table runs over either
        assert t["scroll"] <= t["column"] + 1, t
