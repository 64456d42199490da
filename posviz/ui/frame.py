"""The page frame: navigation, language, lecture mode, scenes and the share box.

app.py calls `start()` once at the top of every run: it settles the language and the URL (the
only place that may rerun or write query parameters for them); `t()` is then a pure lookup.
"""
import logging
import time
import urllib.parse

import streamlit as st

from posviz import text
from posviz.scenes import SCENES

# Scenes set bound widgets through session state by design; Streamlit logs a warning for
# each such widget that also has a default value. Keep the server log readable.
logging.getLogger("streamlit.elements.lib.policies").setLevel(logging.ERROR)


# ---------------------------------------------------------------- legacy pages/ folder
def _claim_navigation():
    """Make st.navigation (app.py) the only navigation, even for a cold deep link.

    Why: Streamlit treats a `pages/` folder beside app.py as its legacy multipage app until
    app.py has called st.navigation once in this process, so a shared link such as /rope opened
    first on a fresh server would run pages/rope.py alone, without the frame. We switch that mode
    off on import; `start` reruns such a run once, through app.py.
    """
    from streamlit.runtime.pages_manager import PagesManager

    legacy = bool(PagesManager.uses_pages_directory)
    PagesManager.uses_pages_directory = False
    return legacy


_LEGACY_FIRST_RUN = _claim_navigation()


# ---------------------------------------------------------------- run
def start():
    """Called by app.py first in every run: language settled, URL written once, timer started."""
    global _LEGACY_FIRST_RUN
    if _LEGACY_FIRST_RUN and "_frame_run" not in st.session_state:
        _LEGACY_FIRST_RUN = False
        st.rerun()
    st.session_state["_frame_run"] = True
    st.session_state["_run_t0"] = time.perf_counter()
    q = st.query_params.get("lang")
    if q not in text.LANGS:
        q = st.session_state.get("_lang")
        if q not in text.LANGS:
            loc = (st.context.locale or "").lower()
            q = "zh" if loc.startswith("zh") else "en"
        st.query_params["lang"] = q
    st.session_state["_lang"] = q
    if present():
        st.markdown(_PRESENT_CSS, unsafe_allow_html=True)


def finish():
    """Called by app.py after the page ran: the script time of this run (read by the benchmark)."""
    st.session_state["_run_ms"] = (time.perf_counter() - st.session_state.pop("_run_t0", time.perf_counter())) * 1000


# ---------------------------------------------------------------- language, mode
def lang():
    """The language `start` settled for this run (pure: never reruns, never writes the URL)."""
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
    return st.query_params.get("present") in ("1", "true")


# Lecture mode: projector-sized text. A constant stylesheet, never user text.
_PRESENT_CSS = """<style>
.stMainBlockContainer { max-width: 100%; padding-left: 2rem; padding-right: 2rem; }
.stMarkdown p, .stMarkdown li, .stCaption, .stAlert p { font-size: 1.45rem !important; line-height: 1.5; }
h1 { font-size: 3rem !important; } h2 { font-size: 2.3rem !important; } h3 { font-size: 1.9rem !important; }
[data-testid="stWidgetLabel"] p { font-size: 1.3rem !important; }
[data-testid="stMetricValue"] { font-size: 2.6rem !important; }
.stDataFrame, .stTable { font-size: 1.3rem !important; }
</style>"""


# ---------------------------------------------------------------- page header and scenes
def header(page):
    """Title, one-paragraph intro and the sources of the page's ideas; then its scenes."""
    st.title(t(f"{page}.title"))
    st.markdown(t(f"{page}.intro"))
    if text.has(f"{page}.sources"):
        st.caption(t(f"{page}.sources"))
    scenes(page)


def _apply_scene(page, index):
    sc = SCENES[page][index]
    for k, v in sc["values"].items():
        st.session_state[k] = v
    st.session_state[f"{page}_scene"] = index


def scenes(page):
    """Previous / next buttons over the page's scenes (posviz.scenes), with keyboard shortcuts;
    a scene sets the page's widgets and the URL follows."""
    items = SCENES.get(page)
    if not items:
        return
    n = len(items)
    cur = st.session_state.get(f"{page}_scene", -1)
    row = st.container(horizontal=True, vertical_alignment="center")
    row.button(t("ui.prev"), key=f"{page}_prev", shortcut="Alt+Left", disabled=cur <= 0,
               on_click=_apply_scene, args=(page, max(cur - 1, 0)), icon=":material/chevron_left:")
    row.button(t("ui.next"), key=f"{page}_next", shortcut="Alt+Right", disabled=cur >= n - 1,
               on_click=_apply_scene, args=(page, min(cur + 1, n - 1)), icon=":material/chevron_right:",
               type="primary" if cur < 0 else "secondary")
    if cur >= 0:
        st.info(f"**{t('ui.scene')} {cur + 1}/{n} · {t(items[cur]['title'])}** — {t(items[cur]['say'])}")
    else:
        row.caption(t("ui.scene_hint", n=n))


# ---------------------------------------------------------------- sidebar: language, mode, share
def share_url(page_path):
    """The full URL of the current view: app URL + page + every query parameter."""
    base = (st.context.url or "").rstrip("/")
    if page_path and not base.endswith("/" + page_path):
        base = f"{base}/{page_path}"
    q = urllib.parse.urlencode(st.query_params.to_dict())
    return f"{base}?{q}" if q else base


def _set_lang():
    st.query_params["lang"] = st.session_state["ui_lang_switch"]
    st.session_state["_lang"] = st.session_state["ui_lang_switch"]


def _set_present():
    if st.session_state["ui_present"]:
        st.query_params["present"] = "1"
    elif "present" in st.query_params:
        del st.query_params["present"]


def qr_svg(url):
    """QR code of `url` as an SVG string (segno, pure Python)."""
    import segno  # only the share box needs it

    return segno.make(url, error="m").svg_inline(scale=5, dark="#000000", light="#ffffff")


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
        with st.expander(t("ui.share"), icon=":material/qr_code_2:"):
            url = share_url(page_path)
            st.code(url, language=None, wrap_lines=True)
            st.caption(t("ui.share.help"))
            if url.startswith("http"):
                st.image(qr_svg(url), width=220)
        st.caption(t("ui.about"))
