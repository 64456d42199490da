"""The page frame: navigation, language, lecture mode, scenes and the share box.

app.py calls `start()` once at the top of every run: it settles the language and the URL (the
only place that may rerun or write query parameters for them); `t()` is then a pure lookup.
"""
import contextlib
import ipaddress
import json
import logging
import os
import threading
import time
import urllib.parse

import PIL.Image  # noqa: F401  imported whole before sessions run: st.image reads it (a half-imported module raced under load)
import segno
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from posviz import text, views
from posviz.scenes import SCENES

# Scenes set bound widgets through session state by design; Streamlit logs a warning for
# each such widget that also has a default value. Keep the server log readable.
logging.getLogger("streamlit.elements.lib.policies").setLevel(logging.ERROR)


# ---------------------------------------------------------------- run
# Admission: at most MAX_RUNS script runs execute at once in this process; the others wait their turn
# (first come, first served). A hundred runs sharing one interpreter's GIL each finish only when all of
# them do, and the switching between their threads wastes about a third of a core
# (benchmarks/bench_load.py). A run that waited RUN_WAIT_S goes ahead anyway: nothing waits forever.
MAX_RUNS = max(1, int(os.environ.get("POSVIZ_MAX_RUNS", "2")))
RUN_WAIT_S = 10.0
_run_slots = threading.BoundedSemaphore(MAX_RUNS)


@contextlib.contextmanager
def run_slot():
    """app.py runs each script run inside this: one of MAX_RUNS slots, or RUN_WAIT_S of waiting."""
    got = _run_slots.acquire(timeout=RUN_WAIT_S)
    try:
        yield
    finally:
        if got:
            _run_slots.release()


def start():
    """Called by app.py first in every run: language settled, URL written once, timer started."""
    st.session_state["_run_t0"] = time.perf_counter()
    st.session_state["_fx_keys"] = set()     # keys of this run's formula boxes (ui.plotting.explain)
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
    stylesheet = _CSS + (_PRESENT_CSS if present() else "")      # constants only
    st.markdown(stylesheet, unsafe_allow_html=True)


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
    return bool(st.session_state.get("_phone"))


# Constant stylesheets, never user text. Always: the scene a scene change points at is marked, and
# keyboard hints are hidden on touch screens (no keyboard there).
_CSS = """<style>
.posviz-shown { outline: 4px solid #E69F00; outline-offset: 6px; border-radius: 6px; transition: outline-color 1s; }
[data-testid="stMain"] [class*="st-key-"] { scroll-margin-top: 4.5rem; }   /* a scene's figure clears the app header */
[data-testid="stMarkdownContainer"] table { display: block; max-width: 100%; overflow-x: auto; }   /* wide tables scroll on a phone */
[data-testid="stText"] { display: block; overflow-x: auto; }   /* ui.diagram: fixed width, whole lines */
[data-testid="stText"] span { font-family: "Source Code Pro", monospace; white-space: pre !important; line-height: 1.4; }
@media (hover: none) and (pointer: coarse) {
  .st-key-scene_hint, .st-key-scenes_nav [data-testid="stButtonShortcut"], .st-key-scenes_nav kbd { display: none !important; }
}
</style>"""
# Lecture mode: every number and label a student must read is >= 22 px on a 1280x720 projector.
_PRESENT_CSS = """<style>
.stMainBlockContainer { max-width: 100%; padding-left: 2rem; padding-right: 2rem; }
.stMarkdown p, .stMarkdown li, .stCaption, .stCaption p, [data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] p, .stAlert p, .stAlert li { font-size: 1.45rem !important; line-height: 1.5; }
h1 { font-size: 3rem !important; } h2 { font-size: 2.3rem !important; } h3 { font-size: 1.9rem !important; }
[data-testid="stWidgetLabel"] p, [data-testid="stWidgetLabel"] { font-size: 1.45rem !important; }
[data-testid="stMetricValue"] { font-size: 2.6rem !important; }
[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] p, [data-testid="stMetricDelta"] { font-size: 1.45rem !important; }
[data-testid="stSliderThumbValue"], [data-testid="stSliderTickBarMin"], [data-testid="stSliderTickBarMax"],
[data-testid="stSliderThumbValue"] *, [data-testid="stSliderTickBar"] * { font-size: 1.45rem !important; }
[data-testid="stSlider"] [data-testid="stWidgetLabel"] { margin-bottom: 1.4rem; }
[data-testid="stRadio"] label p, [data-testid="stRadio"] label div, [data-testid="stCheckbox"] label p,
[data-testid="stToggle"] label p, [role="radiogroup"] label p { font-size: 1.45rem !important; }
[data-testid="stSelectbox"] input, [data-testid="stMultiSelect"] input, [data-testid="stMultiSelectTagsContainer"] span,
[role="listbox"] [role="option"], [role="listbox"] [role="option"] *,
[data-baseweb="input"] input, [data-testid="stNumberInput"] input, [data-testid="stTextInput"] input { font-size: 1.45rem !important; }
[data-testid="stTable"] table, [data-testid="stTable"] th, [data-testid="stTable"] td { font-size: 1.45rem !important; }
[data-testid="stMarkdownContainer"] table th, [data-testid="stMarkdownContainer"] table td { font-size: 1.45rem !important; }
[data-testid="stExpander"] summary p, [data-testid="stCode"] code, [data-testid="stText"] span, [data-testid="stButton"] p,
[data-testid="stPageLink"] p, [data-testid="stDownloadButton"] p { font-size: 1.45rem !important; }
.stMarkdown .katex, [data-testid="stMarkdownContainer"] .katex { font-size: 1.45rem !important; }
.katex-display .katex, [data-testid="stLatex"] .katex { font-size: 1.6rem !important; }
</style>"""


# ---------------------------------------------------------------- navigation
_APP_PAGES = []      # app.py's PAGES, set by navigation() (the same constant every run)


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


# ---------------------------------------------------------------- page header and scenes
def header(page):
    """Title, one-paragraph intro and the sources of the page's ideas; then its scenes."""
    st.title(t(f"{page}.title"))
    st.markdown(t(f"{page}.intro"))
    if text.has(f"{page}.sources"):
        st.caption(t(f"{page}.sources"))
    scenes(page)


def _apply_scene(page, index, keep=()):
    """Set the page's widgets to scene `index` (0-based), except the keys in `keep`."""
    sc = SCENES[page][index]
    for k, v in sc["values"].items():
        if k not in keep:
            st.session_state[k] = v
    st.session_state[f"{page}_scene"] = index
    st.session_state["_scene_show"] = (sc.get("show"), time.time())


def _scene_from_url(page, n):
    """?scene=N (1-based) opens the page at scene N when the link brings a number this session did not
    write itself; widget values that the link also carries win over the scene's (what the sender saw)."""
    written = st.session_state.setdefault("_scene_in_url", {})
    raw = st.query_params.get("scene")
    if raw is None or written.get(page) == raw:
        return
    written[page] = raw
    try:
        index = int(raw) - 1
    except ValueError:
        return
    if 0 <= index < n:
        _apply_scene(page, index, keep=set(st.query_params.keys()))


def scenes(page):
    """Previous / next buttons over the page's scenes (posviz.scenes); a scene sets the page's widgets,
    the URL follows (with ?scene=N) and the page scrolls to the figure the scene talks about."""
    items = SCENES.get(page)
    if not items:
        return
    n = len(items)
    _scene_from_url(page, n)
    cur = st.session_state.get(f"{page}_scene", -1)
    row = st.container(horizontal=True, vertical_alignment="center", key="scenes_nav")
    row.button(t("ui.prev"), key=f"{page}_prev", shortcut="Alt+Left", disabled=cur <= 0,
               on_click=_apply_scene, args=(page, max(cur - 1, 0)), icon=":material/chevron_left:")
    row.button(t("ui.next"), key=f"{page}_next", shortcut="Alt+Right", disabled=cur >= n - 1,
               on_click=_apply_scene, args=(page, min(cur + 1, n - 1)), icon=":material/chevron_right:",
               type="primary" if cur < 0 else "secondary")
    if cur >= 0:
        if st.query_params.get("scene") != str(cur + 1):
            st.query_params["scene"] = str(cur + 1)
        st.session_state["_scene_in_url"][page] = str(cur + 1)
        st.info(f"**{t('ui.scene')} {cur + 1}/{n} · {t(items[cur]['title'])}** — {t(items[cur]['say'])}")
    else:
        row.container(key="scene_hint").caption(t("ui.scene_hint", n=n))


# The browser side of the frame, one constant script (no user text): it keeps one history entry per
# user action, a key press or a click (Streamlit pushes one per query-parameter write, and a scene's
# runs write several; counting script runs instead lost the race when a rerun followed fast), takes the
# scene keys before any focused widget does (Alt+arrow, and PageDown / PageUp of a presenter's
# clicker), and scrolls to and marks the figure a scene talks about.
_CLIENT_JS = """<script>
(() => {
  const w = window;
  if (!w.__posvizFrame) {
    w.__posvizFrame = true;
    let pushed = false;
    ['keydown', 'pointerdown'].forEach((type) => w.addEventListener(type, () => { pushed = false; }, true));
    const push = history.pushState.bind(history);
    history.pushState = function (state, title, url) {
      const samePath = url && new URL(url, location.href).pathname === location.pathname;
      if (samePath && pushed) return history.replaceState(state, title, url);
      pushed = true;
      return push(state, title, url);
    };
    w.addEventListener('keydown', (e) => {
      const next = e.key === 'PageDown' || (e.altKey && e.key === 'ArrowRight');
      const prev = e.key === 'PageUp' || (e.altKey && e.key === 'ArrowLeft');
      if (!next && !prev) return;
      const buttons = document.querySelectorAll('.st-key-scenes_nav button');
      const b = buttons[next ? 1 : 0];
      if (!b) return;
      e.preventDefault(); e.stopImmediatePropagation();
      if (!b.disabled) b.click();
    }, true);
  }
  const [target, chosen] = [%s, %s];   // chosen: when the scene was picked, so a repeated target runs anew
  if (!target) return;
  const t0 = Date.now();
  const seek = () => {
    const el = document.querySelector('[data-testid="stMain"] .st-key-' + CSS.escape(target));
    const idle = (app() || {}).dataset?.testScriptState !== 'running';
    if (el && idle) {
      el.scrollIntoView({behavior: 'smooth', block: 'start'});
      document.querySelectorAll('.posviz-shown').forEach(x => x.classList.remove('posviz-shown'));
      el.classList.add('posviz-shown');
      setTimeout(() => el.classList.remove('posviz-shown'), 2500);
    } else if (Date.now() - t0 < 8000) setTimeout(seek, 100);
  };
  const app = () => document.querySelector('[data-testid="stApp"]');
  seek();
})();
</script>"""


def client_script():
    """Called by app.py before the page runs: the frame's browser script, with the scroll target of a
    scene that was just chosen (a scene's on_click ran before this run; the time it was chosen makes the
    browser run the script again)."""
    show = st.session_state.pop("_scene_show", None)        # (a key of posviz.scenes data, time), never user text
    target = json.dumps(show[0]) if show and show[0] else "null"
    # The time goes inside the script: Streamlit strips an HTML comment, so two scenes showing the same
    # figure would send the same element and the browser would not scroll again.
    script = _CLIENT_JS % (target, repr(float(show[1])) if show else "0")
    st.html(script, unsafe_allow_javascript=True)


# ---------------------------------------------------------------- sidebar: language, mode, share
def public_base():
    """The app's address as visitors reach it: POSVIZ_PUBLIC_URL if set (a hosted instance behind a
    proxy), else the URL this browser used (st.context.url)."""
    return (os.environ.get("POSVIZ_PUBLIC_URL") or st.context.url or "").rstrip("/")


def is_local(url):
    """True when `url` points at this computer only (localhost / loopback): useless on a phone."""
    host = urllib.parse.urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def share_url(page_path, *, lecture=False):
    """The full URL of the current view: public address + page + every query parameter, for students
    without `present` (their phones open in the normal layout), for the lecturer with present=1."""
    base = public_base()
    root = urllib.parse.urlsplit(base)
    path = root.path.rstrip("/")
    for known in ("/" + p for p in (page_path,) if p):
        if path.endswith(known):
            path = path[: -len(known)]
    base = urllib.parse.urlunsplit((root.scheme, root.netloc, path, "", "")).rstrip("/")
    if page_path:
        base = f"{base}/{page_path}"
    params = {k: st.query_params.get_all(k) for k in st.query_params.keys() if k != "present"}
    if lecture:
        params["present"] = ["1"]
    q = urllib.parse.urlencode([(k, v) for k, vs in params.items() for v in vs])
    return f"{base}?{q}" if q else base


def _set_lang():
    st.query_params["lang"] = st.session_state["ui_lang_switch"]
    st.session_state["_lang"] = st.session_state["ui_lang_switch"]


def _set_present():
    if st.session_state["ui_present"]:
        st.query_params["present"] = "1"
    elif "present" in st.query_params:
        del st.query_params["present"]


@views.cached(shared=True)
def qr_svg(url):
    """QR code of `url` as an SVG string (segno, pure Python), or None when the URL is too long for
    one (a pasted config.json can make it several KB)."""
    try:
        return segno.make(url, error="m").svg_inline(scale=5, dark="#000000", light="#ffffff")
    except segno.DataOverflowError:
        return None


def sidebar(page_path):
    """Language switch, lecture mode, export format and the share box."""
    with st.sidebar:
        st.radio(t("ui.language"), text.LANGS, index=text.LANGS.index(lang()), key="ui_lang_switch",
                 format_func=lambda code: {"en": "English", "zh": "中文"}[code], horizontal=True,
                 on_change=_set_lang)
        st.toggle(t("ui.present"), value=present(), key="ui_present", on_change=_set_present,
                  help=t("ui.present.help"))
        st.radio(t("ui.export"), ("png", "svg"), key="ui_export", horizontal=True, format_func=str.upper,
                 help=t("ui.export.help"))
        # Lazy: closed, the box sends one element; open, every run redraws it from this run's URL.
        with st.expander(t("ui.share"), icon=":material/qr_code_2:", key="ui_share", on_change="rerun") as box:
            if box.open:
                _share_box(page_path)
        st.caption(t("ui.about"))


def _share_box(page_path):
    url = share_url(page_path)
    st.code(url, language=None, wrap_lines=True)
    st.caption(t("ui.share.help"))
    if url.startswith("http"):
        svg = qr_svg(url)
        if svg is None:
            st.info(t("ui.share.too_long", n=len(url)), icon=":material/qr_code_2:")
        else:
            st.image(svg, width=220)
        if is_local(url):
            st.warning(t("ui.share.local"), icon=":material/wifi_off:")
    st.caption(t("ui.share.lecture"))
    st.code(share_url(page_path, lecture=True), language=None, wrap_lines=True)
