"""The only module of posviz that imports streamlit.

Pages call these helpers so that every widget has a page-prefixed key bound to the
URL, every string comes from `posviz.text`, every figure is drawn the same way
(with CSV / PNG / SVG export), and every error is shown with `st.error`.
"""
import contextlib
import functools
import importlib
import inspect
import logging
import math
import time
import urllib.parse

import pandas  # noqa: F401  imported whole before any session runs: plotly reads sys.modules["pandas"]
import streamlit as st
import torch

from posviz import text
from posviz.figures import export, style

CACHE_ENTRIES = 64
# Scenes set bound widgets through session state by design; Streamlit logs a warning for
# each such widget that also has a default value. Keep the server log readable.
logging.getLogger("streamlit.elements.lib.policies").setLevel(logging.ERROR)


# ---------------------------------------------------------------- legacy pages/ folder
def _claim_navigation():
    """Make st.navigation (app.py) the only navigation, even for a cold deep link.

    Streamlit treats a `pages/` folder beside app.py as its legacy multipage app until
    app.py has called st.navigation once in this process: a shared link such as /rope opened
    first on a freshly started server would run pages/rope.py alone, with the legacy sidebar
    and without the app frame. We switch that mode off on import; `_ensure_frame` (called by
    `lang`, so by every page) then reruns such a run once, through app.py. One cold case remains:
    a first link to /kv-cache, whose url path is not its file name, briefly shows Streamlit's
    "Page not found" notice before app.py's navigation opens the right page.
    """
    from streamlit.runtime.pages_manager import PagesManager

    legacy = bool(PagesManager.uses_pages_directory)
    PagesManager.uses_pages_directory = False
    return legacy


_LEGACY_FIRST_RUN = _claim_navigation()


def frame_started():
    """Called by app.py at the start of every run."""
    st.session_state["_frame_run"] = True
    st.session_state["_run_t0"] = time.perf_counter()


def frame_finished():
    """Called by app.py after the page ran: the script time of this run (read by the benchmark)."""
    st.session_state["_run_ms"] = (time.perf_counter() - st.session_state.pop("_run_t0", time.perf_counter())) * 1000


def _ensure_frame():
    """Rerun once through app.py if this run bypassed it (a cold deep link in legacy mode)."""
    global _LEGACY_FIRST_RUN
    if _LEGACY_FIRST_RUN and "_frame_run" not in st.session_state:
        _LEGACY_FIRST_RUN = False
        st.rerun()


# ---------------------------------------------------------------- language, mode
def lang():
    """Current language: ?lang= in the URL, else the session's, else the browser's locale.

    The URL always carries `lang` so a copied link reopens in the same language.
    """
    _ensure_frame()
    q = st.query_params.get("lang")
    if q not in text.LANGS:
        q = st.session_state.get("_lang")
        if q not in text.LANGS:
            loc = (st.context.locale or "").lower()
            q = "zh" if loc.startswith("zh") else "en"
        st.query_params["lang"] = q
    st.session_state["_lang"] = q
    return q


def t(key, **fmt):
    """The string for `key` in the current language."""
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


def present_style():
    """Apply the lecture-mode stylesheet (called by app.py when ?present=1)."""
    if present():
        st.markdown(_PRESENT_CSS, unsafe_allow_html=True)


def cache(fn):
    """st.cache_data for compute wrappers: scalar arguments, bounded entries, no spinner."""
    return st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False)(fn)


# ---------------------------------------------------------------- widgets
def _label(key):
    return t(f"w.{key}")


def _help(key):
    k = f"w.{key}.help"
    return t(k) if text.has(k) else None


def _fmt(key):
    lg = lang()  # captured now: AppTest calls format_func outside the script run

    def f(option):
        k = f"w.{key}.{option}"
        return text.get(lg, k) if text.has(k) else str(option)
    return f


def _choice_from_url(key, options, multi=False):
    """URL -> session state for a choice widget, the first time this session sees `key`.

    Choice widgets are bound to the URL by their option *code* (str(option)), not by the
    translated label Streamlit's own binding would write: a link then works in either
    language and the language switch keeps the choice. Unknown codes are ignored.
    """
    by_code = {str(o): o for o in options}
    if key in st.session_state:
        cur = st.session_state[key]
        valid = all(v in options for v in cur) if multi else cur in options
        if not valid:  # the options changed under a stored value: fall back to the default
            del st.session_state[key]
        return
    if multi:
        vals = list(dict.fromkeys(by_code[c] for c in st.query_params.get_all(key) if c in by_code))
        if vals:
            st.session_state[key] = vals
    elif st.query_params.get(key) in by_code:
        st.session_state[key] = by_code[st.query_params.get(key)]


def _choice_to_url(key, value, default):
    """Session state -> URL: the option code, or nothing when the value is the default."""
    if isinstance(value, (list, tuple)):
        want = None if list(value) == list(default) else [str(v) for v in value]
        have = st.query_params.get_all(key) or None
    else:
        want = None if value == default else str(value)
        have = st.query_params.get(key)
    if want != have:
        if want is None:
            del st.query_params[key]
        else:
            st.query_params[key] = want


def slider(key, min_value, max_value, value, step=None, **kw):
    """A slider bound to ?key= in the URL, labelled by text `w.<key>`."""
    return st.slider(_label(key), min_value, max_value, value, step, key=key, help=_help(key),
                     bind="query-params", **kw)


def select_slider(key, options, value, **kw):
    options = list(options)
    _choice_from_url(key, options)
    out = st.select_slider(_label(key), options=options, value=value, key=key, help=_help(key),
                           format_func=_fmt(key), **kw)
    _choice_to_url(key, out, value)
    return out


def select(key, options, value=None, **kw):
    """A selectbox over internal option values; shown through `w.<key>.<option>` labels."""
    options = list(options)
    value = options[0] if value is None else value
    _choice_from_url(key, options)
    out = st.selectbox(_label(key), options, index=options.index(value), key=key, help=_help(key),
                       format_func=_fmt(key), **kw)
    _choice_to_url(key, out, value)
    return out


def radio(key, options, value=None, horizontal=True, **kw):
    options = list(options)
    value = options[0] if value is None else value
    _choice_from_url(key, options)
    out = st.radio(_label(key), options, index=options.index(value), key=key, help=_help(key),
                   format_func=_fmt(key), horizontal=horizontal, **kw)
    _choice_to_url(key, out, value)
    return out


def multiselect(key, options, default, **kw):
    options = list(options)
    _choice_from_url(key, options, multi=True)
    out = st.multiselect(_label(key), options, default=list(default), key=key, help=_help(key),
                         format_func=_fmt(key), **kw)
    _choice_to_url(key, out, list(default))
    return out


def toggle(key, value=False, **kw):
    return st.toggle(_label(key), value=value, key=key, help=_help(key), bind="query-params", **kw)


def _non_finite_url_value(key):
    """Streamlit 1.67 turns ?key=inf for an integer number_input into an OverflowError while
    seeding the widget from the URL (before its own range check). Such a widget is left unbound
    for the session and the bad value is dropped from the URL."""
    flag = f"_unbound_{key}"
    raw = st.query_params.get(key)
    try:
        bad = raw is not None and not math.isfinite(float(raw))
    except ValueError:
        bad = False  # not a number at all: Streamlit ignores it by itself
    if bad:
        st.session_state[flag] = True
        del st.query_params[key]
    return st.session_state.get(flag, False)


def number(key, min_value, max_value, value, step=None, **kw):
    bind = None if _non_finite_url_value(key) else "query-params"
    return st.number_input(_label(key), min_value=min_value, max_value=max_value, value=value, step=step,
                           key=key, help=_help(key), bind=bind, **kw)


def text_input(key, value, max_chars, **kw):
    """A text box bound to the URL. Its content is user text: never render it as HTML."""
    return st.text_input(_label(key), value=value, max_chars=max_chars, key=key, help=_help(key),
                         bind="query-params", **kw)


# ---------------------------------------------------------------- errors
@contextlib.contextmanager
def guard():
    """Run a section of a page; a ValueError becomes an st.error and the page goes on."""
    try:
        yield
    except ValueError as e:
        st.error(f"{t('ui.invalid')} {e}")


# ---------------------------------------------------------------- figures
def plot_config(key):
    fmt = "svg" if st.session_state.get("ui_export") == "svg" else "png"
    return {"displaylogo": False, "responsive": True,
            "toImageButtonOptions": {"format": fmt, "scale": 3, "filename": f"posviz_{key}"}}


def plot(fig, *, key, csv=True):
    """Draw a figure (theme off, so the screen and the export share one colour scale),
    with a CSV of its numbers beneath."""
    if present():
        style.presentation(fig)
    st.plotly_chart(fig, key=key, theme=None, config=plot_config(key))
    if csv:
        # deferred: the CSV is built only when the button is clicked
        st.download_button(t("ui.csv"), functools.partial(export.figure_csv, fig), file_name=f"posviz_{key}.csv",
                           mime="text/csv", key=f"{key}_csv", icon=":material/download:",
                           on_click="ignore", type="tertiary")


def _tensor_key(t):
    return (str(t.dtype), tuple(t.shape), t.detach().cpu().numpy().tobytes())


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs={torch.Tensor: _tensor_key})
def _built(module, name, args, kwargs):
    fn = getattr(importlib.import_module(module), name)
    return style.freeze(fn(*args, **kwargs))


def build(builder, *args, **kwargs):
    """builder(*args, **kwargs) from a posviz.figures module, cached on its arguments
    (arrays included): an unchanged figure costs a lookup, not a rebuild."""
    return style.thaw(_built(builder.__module__, builder.__qualname__, args, kwargs))


def explain(formulas, *fns, note=None):
    """Expander with the formula(s) (LaTeX) and the exact source of the function(s) that
    produced the figure above it."""
    if isinstance(formulas, str):
        formulas = [formulas]
    with st.expander(t("ui.formula_code")):
        if note:
            st.markdown(note)
        for f in formulas:
            st.latex(f)
        for fn in fns:
            st.caption(f"`{fn.__module__}.{fn.__qualname__}`")
            st.code(inspect.getsource(fn), language="python")


# ---------------------------------------------------------------- page frame
def header(page):
    """Title, one-paragraph intro and the sources of the page's ideas; then its scenes."""
    st.title(t(f"{page}.title"))
    st.markdown(t(f"{page}.intro"))
    if text.has(f"{page}.sources"):
        st.caption(t(f"{page}.sources"))
    scenes(page)


def _apply_scene(page, index):
    sc = text.SCENES[page][index]
    for k, v in sc["values"].items():
        st.session_state[k] = v
    st.session_state[f"{page}_scene"] = index


def scenes(page):
    """Previous / next buttons over the page's scenes (text.SCENES[page]), with keyboard
    shortcuts; a scene sets the page's widgets and the URL follows."""
    items = text.SCENES.get(page)
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
