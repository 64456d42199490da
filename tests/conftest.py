import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.chdir(ROOT)


def open_page(page, lang="en", **params):
    """Run app.py headless, switch to pages/<page>.py with ?lang=..&params, return the AppTest."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(os.path.join(ROOT, "app.py"), default_timeout=60)
    at.query_params["lang"] = lang
    for k, v in params.items():
        at.query_params[k] = v
    if page != "overview":
        at.switch_page(f"pages/{page}.py")  # straight to the page: other pages' bugs don't leak in
    at.run()
    return at


def figures(at):
    """The plotly figures on the page, as dicts (data + layout)."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def assert_clean(at):
    """No exception and no error box on the page."""
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


@pytest.fixture
def page():
    return open_page
