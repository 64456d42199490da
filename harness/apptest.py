"""Run app.py headless (streamlit.testing AppTest) on one page, and read what the page drew."""
import ast
import functools
import html
import pathlib
import re

import pandas as pd
from streamlit.components.v2.component_manager import BidiComponentManager
from streamlit.navigation.page import calc_hash
from streamlit.testing.v1 import AppTest

from posviz.ui import plotting

ROOT = pathlib.Path(__file__).resolve().parent.parent


def url_paths():
    """{page name: url path} of app.py's PAGES (read from its source, without running streamlit)."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "PAGES":
            return {pathlib.Path(f).stem: path for f, path, _ in ast.literal_eval(node.value)}
    raise RuntimeError("app.py has no PAGES")


_URL_PATHS = url_paths()


def page_names():
    """The page names of app.py (app_pages/<name>.py), in navigation order."""
    return list(_URL_PATHS)


@functools.cache
def _components():
    """Streamlit's registry of installed (v2) components, found once per process. A new AppTest looks
    for them in the metadata of every installed package on its first run: most of a page's run time in
    the tests. (A server finds them once at start, too.)"""
    manager = BidiComponentManager()
    manager.discover_and_register_components(start_file_watching=False)
    return manager


def open_page(page, lang="en", _state=None, **params):
    """Run app.py headless, switch to app_pages/<page>.py with ?lang=..&params, return the AppTest.
    `_state`: session state set before the first run (e.g. {"_phone": True}: a phone's browser)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if hasattr(at, "_bidi_component_manager"):
        at._bidi_component_manager = _components()
    for k, v in (_state or {}).items():
        at.session_state[k] = v
    at.query_params["lang"] = lang
    for k, v in params.items():
        at.query_params[k] = v
    if page != "overview":
        # Straight to the page, without running another page first: st.Page hashes its url_path
        # (AppTest.switch_page only knows file names before a first run).
        at._page_hash = calc_hash(_URL_PATHS[page])
    at.run()
    return at


def charts(at):
    """The charts on the page (ui.plot: posviz's chart element), in page order: {key: {"figure": the figure
    dict sent to the browser (data, layout, frames), "config": plotly.js's config, "labels": its button
    texts}}. Every test that reads a chart reads it here."""
    return {el.proto.id.split("-", 2)[2]: plotting.read_payload(el.proto.bytes)   # id: "$$ID-<hash>-<key>"
            for el in at.get("bidi_component") if el.proto.component_name == plotting.CHART}


def figures(at):
    """The plotly figures on the page, as dicts (data + layout), in page order."""
    return [c["figure"] for c in charts(at).values()]


def _cjk(ch):
    return ord(ch) >= 0x2E80


def title(fig):
    """A figure's title as one line of plain text: its subtitle (<sup>) dropped, the lines it was wrapped to
    joined (by a space, or nothing inside a run of CJK characters), tags and escapes undone."""
    lines = fig["layout"].get("title", {}).get("text", "").split("<sup>")[0].split("<br>")
    out = ""
    for line in (x.strip() for x in lines):
        if line:
            out += ("" if not out or (_cjk(out[-1]) and _cjk(line[0])) else " ") + line
    return html.unescape(re.sub(r"<[^>]+>", "", out))


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
