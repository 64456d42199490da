import json
import os
import re
import sys

import pandas as pd

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.chdir(ROOT)


def _url_paths():
    import ast

    tree = ast.parse(open(os.path.join(ROOT, "app.py"), encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "PAGES":
            return {os.path.splitext(os.path.basename(f))[0]: path for f, path, _ in ast.literal_eval(node.value)}
    raise RuntimeError("app.py has no PAGES")


_URL_PATHS = _url_paths()


def open_page(page, lang="en", _state=None, **params):
    """Run app.py headless, switch to app_pages/<page>.py with ?lang=..&params, return the AppTest.
    `_state`: session state set before the first run (e.g. {"_phone": True}: a phone's browser)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(os.path.join(ROOT, "app.py"), default_timeout=60)
    for k, v in (_state or {}).items():
        at.session_state[k] = v
    at.query_params["lang"] = lang
    for k, v in params.items():
        at.query_params[k] = v
    if page != "overview":
        # Straight to the page, without running another page first: st.Page hashes its url_path
        # (AppTest.switch_page only knows file names before a first run).
        from streamlit.navigation.page import calc_hash

        at._page_hash = calc_hash(_URL_PATHS[page])
    at.run()
    return at


def figures(at):
    """The plotly figures on the page, as dicts (data + layout)."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def markdown_tables(at):
    """The tables drawn as markdown (ui.table(..., static=True)) in page order, as pandas DataFrames of
    text cells (the escaped | and \\ read back)."""
    out = []
    for m in at.markdown:
        lines = m.value.split("\n")
        if len(lines) < 2 or not lines[0].startswith("| ") or not re.fullmatch(r"\|(---\|)+", lines[1]):
            continue
        rows = [[c.replace("\\|", "|").replace("\\\\", "\\") for c in re.split(r"(?<!\\) \| ", line[2:-2])]
                for line in [lines[0]] + lines[2:]]
        out.append(pd.DataFrame(rows[1:], columns=rows[0]))
    return out


def assert_clean(at):
    """No exception and no error box on the page."""
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


@pytest.fixture
def page():
    return open_page
