"""The browser tier: every test here starts `streamlit run`, a cluster or Debian's Chromium. They are
marked `browser` (`python -m pytest -m "not browser"` leaves them out). Without Chromium they are
skipped, or fail where they are required (CI=true or POSVIZ_REQUIRE_BROWSER=1).

One `streamlit run` server per test process (pytest-xdist worker), shared by every test that does not
need a fresh one. The tests that start servers of their own (warm-up, cluster, load, a cold deep link)
take the fixture `alone`: never two of them at the same time, on any process.
"""
import fcntl
import pathlib

import pytest

from harness.browser import app_server, browser_missing_reason, launch, require

HERE = pathlib.Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def app_url():
    """The base URL of this process's shared `streamlit run` server (started on first use)."""
    with app_server() as (base, _, _):
        yield base


@pytest.fixture(scope="module")
def browser():
    """Chromium, per module: Playwright's sync API keeps an event loop running in its thread, which
    asyncio.run() (the load and warm-up tests) and a second sync_playwright() refuse, so it is closed
    before the next module runs."""
    require(browser_missing_reason())
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def alone(tmp_path_factory):
    """Held while the test runs: an exclusive lock on a file shared by the test processes of this run."""
    with open(tmp_path_factory.getbasetemp().parent / "posviz-alone.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
