"""Widgets bound to the URL: every widget has a page-prefixed key (`rope_base`) that is also its
query parameter, and its label from posviz.text (`w.<key>`), so a copied link reopens the view.

Every widget takes `col=`: the column (or any container) to draw it in, so that a row of widgets is one
`c = st.columns(n)` and one line per widget: `m = ui.slider("rope_m", 0, 128, 2, col=c[0])`."""
import json
import math

import streamlit as st

from posviz import text
from posviz.ui import pastes
from posviz.ui.frame import asset, lang, t
from posviz.ui.plotting import guard
from posviz.ui.sections import section


def _at(col):
    """Where a widget goes: `col`, or the page's current container."""
    return st if col is None else col


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


def slider(key, min_value, max_value, value, step=None, col=None, **kw):
    """A slider bound to ?key= in the URL, labelled by text `w.<key>`."""
    return _at(col).slider(_label(key), min_value, max_value, value, step, key=key, help=_help(key),
                           bind="query-params", **kw)


def select_slider(key, options, value, col=None, **kw):
    options = list(options)
    _choice_from_url(key, options)
    out = _at(col).select_slider(_label(key), options=options, value=value, key=key, help=_help(key),
                                 format_func=_fmt(key), **kw)
    _choice_to_url(key, out, value)
    return out


def select(key, options, value=None, col=None, **kw):
    """A selectbox over internal option values; shown through `w.<key>.<option>` labels."""
    options = list(options)
    value = options[0] if value is None else value
    _choice_from_url(key, options)
    out = _at(col).selectbox(_label(key), options, index=options.index(value), key=key, help=_help(key),
                             format_func=_fmt(key), **kw)
    _choice_to_url(key, out, value)
    return out


def radio(key, options, value=None, horizontal=True, col=None, **kw):
    options = list(options)
    value = options[0] if value is None else value
    _choice_from_url(key, options)
    out = _at(col).radio(_label(key), options, index=options.index(value), key=key, help=_help(key),
                         format_func=_fmt(key), horizontal=horizontal, **kw)
    _choice_to_url(key, out, value)
    return out


def multiselect(key, options, default, col=None, **kw):
    options = list(options)
    _choice_from_url(key, options, multi=True)
    out = _at(col).multiselect(_label(key), options, default=list(default), key=key, help=_help(key),
                               format_func=_fmt(key), **kw)
    _choice_to_url(key, out, list(default))
    return out


def toggle(key, value=False, col=None, **kw):
    return _at(col).toggle(_label(key), value=value, key=key, help=_help(key), bind="query-params", **kw)


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


def number(key, min_value, max_value, value, step=None, col=None, **kw):
    bind = None if _non_finite_url_value(key) else "query-params"
    return _at(col).number_input(_label(key), min_value=min_value, max_value=max_value, value=value, step=step,
                                 key=key, help=_help(key), bind=bind, **kw)


def text_input(key, value, max_chars, col=None, **kw):
    """A text box bound to the URL. Its content is user text: never render it as HTML."""
    return _at(col).text_input(_label(key), value=value, max_chars=max_chars, key=key, help=_help(key),
                               bind="query-params", **kw)


def more(key, expanded=False, icon=":material/unfold_more:"):
    """A lazy, URL-bound expander labelled by text `w.<key>` for a page's deep-dive section:
    `with ui.more("rope_steps") as box: if box.open: ...`. Closed, it sends one element and its
    body does not run (no views, no figures); opening or closing it reruns the page (the share link
    follows), and ?rope_steps=true opens it from a link. A scene opens it with values {key: True}."""
    return st.expander(_label(key), expanded=expanded, key=key, icon=icon, on_change="rerun", bind="query-params")


@section
def deep_dive(key, prefix, body, *args, title=None, top=False):
    """A page's section that is a deep dive: its heading (text `title`, default `<prefix>.title`; `top`: a page
    heading, else a subheading) and teaser (`<prefix>.teaser`) always, and `more(key)`: open, the text
    `<prefix>.md` and body(*args), under `guard`; closed, nothing of it runs. Its own controls rerun it alone."""
    (st.header if top else st.subheader)(t(title or f"{prefix}.title"))
    st.caption(t(f"{prefix}.teaser"))
    with more(key) as box:
        if box.open:
            st.markdown(t(f"{prefix}.md"))
            with guard():
                body(*args)


INLINE_PASTE = 1500   # characters of a paste the URL carries itself; a longer paste goes by its id (ui.pastes)
# The browser refuses a paste over the limit before it reaches the text box (a 5 MB paste froze the tab for
# minutes), with a message in the page's language; its three values go where the file has `[%s, %s, %s]`.
_PASTE_JS = "<script>\n" + asset("paste.js") + "</script>"


def paste_box(key, value, max_bytes, height=230, on_change=None, col=None):
    """A text box for a pasted file, shared by URL: ?<key>=<text> when short, ?<key>_id=<id> when long (the text
    kept on the server, ui.pastes). -> (text, lost): lost is True when a link's paste is no longer kept. The box
    takes up to 4 x max_bytes characters so that a paste over the limit reaches the page and is refused in words
    (never cut short in silence); the browser refuses one far over it. User text: never render it as HTML."""
    lost = _paste_from_url(key)
    guard = _PASTE_JS % (json.dumps(key), json.dumps(max_bytes), json.dumps(t("ui.paste.too_big", n=f"{max_bytes:,}")))
    st.html(guard, unsafe_allow_javascript=True)
    out = _at(col).text_area(_label(key), value=value, key=key, max_chars=4 * max_bytes, height=height,
                             help=_help(key), on_change=on_change)
    _paste_to_url(key, out, value, max_bytes)
    return out, lost


def paste_reading(read, lost):
    """What a paste box's text read as (read: views' read_pasted result) -> the model, or None with the reason
    shown in the user's language: the link's paste gone, a part posviz cannot draw, or the error."""
    if lost:
        st.warning(t("ui.paste.lost"))
    if read.get("model") is None:   # user-derived text: shown as plain code, never as markdown
        if read["boundary"]:
            st.warning(t("ui.paste.unsupported"))
        else:
            st.error(t("ui.invalid"))
        st.code(t(f"err.{read['code']}", **read["params"])[:2000], language=None, wrap_lines=True)
        st.info(t("ui.paste.nothing"))
    return read.get("model")


def _paste_from_url(key):
    """URL -> session state, the first time this session sees `key` -> whether the link's paste is gone."""
    if key in st.session_state:
        return st.session_state.get(f"_{key}_lost", False)
    if st.query_params.get(f"{key}_id") is not None:
        found = pastes.load(st.query_params.get(f"{key}_id"))
        st.session_state[f"_{key}_lost"] = found is None
        if found is not None:
            st.session_state[key] = found
        else:
            del st.query_params[f"{key}_id"]
    elif st.query_params.get(key) is not None:
        st.session_state[key] = st.query_params.get(key)
    return st.session_state.get(f"_{key}_lost", False)


def _paste_to_url(key, out, default, max_bytes):
    """Session state -> URL: nothing for the default, the text when short, its id when long (and within the
    limit: an oversize paste is refused, not kept)."""
    inline = id_ = None
    if out != default and len(out) <= INLINE_PASTE:
        inline = out
    elif out != default and len(out.encode("utf-8")) <= max_bytes:
        id_ = pastes.save(out)
    for k, want in ((key, inline), (f"{key}_id", id_)):
        if want is None and k in st.query_params:
            del st.query_params[k]
        elif want is not None and st.query_params.get(k) != want:
            st.query_params[k] = want
