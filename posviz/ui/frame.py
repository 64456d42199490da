"""The page frame: language, lecture mode, the stylesheets and navigation.

app.py calls `start()` once at the top of every run: it settles the language and the URL (the
only place that may rerun or write query parameters for them); `t()` is then a pure lookup.
The rest of the frame: slots.py (how many runs at once), scenes.py (page header, scene buttons and
the browser script), sidebar.py (language switch, lecture mode, share box); assets/ holds the
stylesheets and the script as files.
"""
import json
import pathlib
import threading
import time

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from posviz import text

_ASSETS = pathlib.Path(__file__).with_name("assets")


def asset(name):
    """The text of posviz/ui/assets/<name>: a constant stylesheet or script (never user text), read once,
    at import, by the module that sends it."""
    return (_ASSETS / name).read_text(encoding="utf-8")


# Constant stylesheets, never user text. Always (frame.css): the figure a scene change points at is
# marked, and keyboard hints are hidden on touch screens (no keyboard there). Lecture mode adds
# present.css: every number and label a student must read is >= 22 px on a 1280x720 projector.
# One <style> element each: markdown reads an HTML block from its <style> to the end of the line holding </style>,
# so a second stylesheet on that line was read as markdown (its comments' asterisks as emphasis, shown as text).
_CSS = "<style>\n" + asset("frame.css") + "</style>"
_BOTH_CSS = "<style>\n" + asset("frame.css") + "\n" + asset("present.css") + "</style>"


# The frame's script for assistive technology (assets/a11y.js, constant but for the page's language as <html lang>),
# sent with the scenes' script (scenes.client_script). Its one value goes where the file has `%s`.
HTML_LANG = {"en": "en", "zh": "zh-CN"}
_A11Y_JS = asset("a11y.js")


def a11y_script():
    """The <script> that sets <html lang> to this run's language and makes scrolling regions keyboard-reachable."""
    return "<script>\n" + _A11Y_JS % json.dumps(HTML_LANG[lang()]) + "</script>"


# ---------------------------------------------------------------- a run's start and finish
def start():
    """Called by app.py first in every run: language settled, URL written once, timer started."""
    st.session_state["_run_t0"] = time.perf_counter()
    st.session_state["_fx_keys"] = {}     # keys of this run's formula boxes, by section (ui.plotting.explain)
    q = st.query_params.get("lang")
    if q not in text.LANGS:
        q = st.session_state.get("_lang")
        if q not in text.LANGS:
            loc = (st.context.locale or "").lower()
            q = "zh" if loc.startswith("zh") else "en"
        st.query_params["lang"] = q
    st.session_state["_lang"] = q
    if "_phone" not in st.session_state:     # a session's browser does not change
        st.session_state["_phone"] = is_phone_agent(st.context.headers.get("User-Agent"))
    _run.values = (q, st.query_params.get("present") in ("1", "true"), st.session_state["_phone"])
    _run.cursors = None
    ctx = get_script_run_ctx()
    if ctx is not None:
        _run.cursors = ctx.cursors
    stylesheet = _BOTH_CSS if present() else _CSS      # constants only
    st.markdown(stylesheet, unsafe_allow_html=True)


def resume():
    """Called first in a section's own rerun (ui.section, an st.fragment: app.py and `start` do not run): this
    run reads the language, lecture mode and phone as the page's last full run settled them."""
    ctx = get_script_run_ctx()
    if ctx is None or _this_run() is not None:
        return
    q = st.session_state.get("_lang")
    _run.values = (q if q in text.LANGS else "en", st.query_params.get("present") in ("1", "true"),
                   bool(st.session_state.get("_phone")))
    _run.cursors = ctx.cursors


def finish():
    """Called by app.py after the page ran: the script time of this run (read by the benchmark)."""
    st.session_state["_run_ms"] = (time.perf_counter() - st.session_state.pop("_run_t0", time.perf_counter())) * 1000


# ---------------------------------------------------------------- language, mode
_run = threading.local()     # this script thread's run: its cursors dict (new every run) and (lang, present)


def _this_run():
    """(language, lecture mode, phone) as `start` settled them for the running script, or None outside such a
    run (callbacks, fragment reruns): read once per run instead of from session state and the query
    string on every string and figure (~20 us a call, hundreds of calls a run)."""
    ctx = get_script_run_ctx()
    if ctx is not None and getattr(_run, "cursors", None) is ctx.cursors:
        return _run.values
    return None


def lang():
    """The language `start` settled for this run (pure: never reruns, never writes the URL)."""
    memo = _this_run()
    if memo is not None:
        return memo[0]
    q = st.session_state.get("_lang")
    if q in text.LANGS:
        return q
    q = st.query_params.get("lang")
    return q if q in text.LANGS else "en"


def t(key, **fmt):
    """The string for `key` in the current language (pure)."""
    return text.get(lang(), key, **fmt)


def present():
    """Presentation (lecture) mode: ?present=1."""
    memo = _this_run()
    if memo is not None:
        return memo[1]
    return st.query_params.get("present") in ("1", "true")


def is_phone_agent(user_agent):
    """A phone's browser, by its User-Agent: "Mobi" in it, as every phone browser writes (MDN's advice
    for mobile detection; a tablet's does not). The server never learns the viewport, and this only picks
    which fitted chart margins to ask for (style.one_pass): a wrong guess costs plotly a second pass."""
    return "Mobi" in (user_agent or "")


def phone():
    """This session's browser is a phone's (is_phone_agent of its User-Agent, read once per session)."""
    memo = _this_run()
    if memo is not None:
        return memo[2]

# ---------------------------------------------------------------- navigation
_APP_PAGES = []      # app.py's PAGES, set by navigation() (the same constant every run)
APP_PAGES = _APP_PAGES    # read by others (ui.hall's list of questions)


def _pages(language):
    """The st.Page objects of app.py's PAGES ((file, url path, section)) grouped by their section's title
    in `language`, built once per session and language: st.Page resolves its file on disk (realpath)
    every time it is made, a tenth of a rerun's fixed cost. Not shared between sessions: st.navigation
    marks the page object it returns as callable and Page.run clears the mark, so two sessions on one
    object raced ("This page cannot be called directly")."""
    built = st.session_state.setdefault("_st_pages", {})
    if language not in built:
        sections = {}
        for file, path, section in _APP_PAGES:
            p = st.Page(file, title=text.get(language, f"nav.{path or 'overview'}"), url_path=path or None,
                        default=not path)
            sections.setdefault(text.get(language, f"nav.section.{section}"), []).append(p)
        built[language] = sections
    return built[language]


def navigation(pages):
    """st.navigation over app.py's PAGES in the user's language -> the page to run."""
    if _APP_PAGES != list(pages):
        _APP_PAGES[:] = pages
    return st.navigation(_pages(lang()))


def page(file):
    """The st.Page of one of app.py's page scripts ("app_pages/rope.py"), for st.page_link: handed a
    path instead, st.page_link resolves it on disk on every call (~0.5 ms a link)."""
    order = dict.fromkeys(section for _, _, section in _APP_PAGES)                  # _pages groups by section
    files = [f for s in order for f, _, section in _APP_PAGES if section == s]
    if file not in files:
        return file
    built = [p for group in _pages(lang()).values() for p in group]
    return built[files.index(file)]
