"""The sidebar: language switch, lecture mode, export format and the share box (the URL of this view,
for students and for the lecturer, and its QR code).
"""
import ipaddress
import os
import urllib.parse

import PIL.Image
import segno
import streamlit as st

from posviz import text, views
from posviz.ui import pastes
from posviz.ui.frame import lang, present, t

# st.image (the QR code) reads PIL.Image: imported whole here, before any session runs (imported halfway by
# a first session's thread, it raced under load).
_IMPORTED_WHOLE = PIL.Image


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


# Query parameters no shared link carries: the hall's lecturer room and key (posviz.ui.hall: only the
# lecturer's own URL holds them) and a student's voter token (whoever opened a shared link would answer as them).
PRIVATE = ("hall", "hallkey", "me")


def app_url(page_path, current_path, params):
    """The public URL of page `page_path` with query `params` ({name: [values]}), from this browser's
    address on page `current_path` (its path is taken off the public address)."""
    root = urllib.parse.urlsplit(public_base())
    path = root.path.rstrip("/")
    for known in ("/" + p for p in (current_path,) if p):
        if path.endswith(known):
            path = path[: -len(known)]
    base = urllib.parse.urlunsplit((root.scheme, root.netloc, path, "", "")).rstrip("/")
    if page_path:
        base = f"{base}/{page_path}"
    q = urllib.parse.urlencode([(k, v) for k, vs in params.items() for v in vs])
    return f"{base}?{q}" if q else base


def share_url(page_path, *, lecture=False):
    """The full URL of the current view: public address + page + every query parameter (but PRIVATE ones),
    for students without `present` (their phones open in the normal layout), for the lecturer with present=1."""
    params = {k: st.query_params.get_all(k) for k in st.query_params.keys() if k != "present" and k not in PRIVATE}
    if lecture:
        params["present"] = ["1"]
    return app_url(page_path, page_path, params)


def _set_lang():
    st.query_params["lang"] = st.session_state["ui_lang_switch"]
    st.session_state["_lang"] = st.session_state["ui_lang_switch"]


def _set_present():
    if st.session_state["ui_present"]:
        st.query_params["present"] = "1"
    elif "present" in st.query_params:
        del st.query_params["present"]


# The largest QR code a phone reads off the share box: version 15 is 77 x 77 modules, about 2.5 px a module at
# QR_PX (a quiet zone of 4 modules each side) and twice that projected; up to ~400 URL characters at level M.
# A longer URL (a pasted config.json makes 2,000+) would make a version-40 code of ~1 px modules: unreadable.
MAX_QR_VERSION = 15
QR_PX = 220


@views.cached(shared=True)
def qr_svg(url):
    """QR code of `url` as an SVG string (segno, pure Python), or None when the URL needs a larger code than
    MAX_QR_VERSION, which no phone would read at QR_PX: the share box then says so."""
    try:
        code = segno.make(url, error="m", micro=False)
    except segno.DataOverflowError:
        return None
    if code.version > MAX_QR_VERSION:
        return None
    return code.svg_inline(scale=5, dark="#000000", light="#ffffff")


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
    if any(k.endswith("_paste_id") for k in st.query_params.keys()):   # a paste too long for the link itself
        st.caption(t("ui.share.paste_id", n=pastes.MAX_PASTES))
    if url.startswith("http"):
        svg = qr_svg(url)
        if svg is None:
            st.info(t("ui.share.too_long", n=len(url)), icon=":material/qr_code_2:")
        else:
            st.image(svg, width=QR_PX)
        if is_local(url):
            st.warning(t("ui.share.local"), icon=":material/wifi_off:")
    st.caption(t("ui.share.lecture"))
    st.code(share_url(page_path, lecture=True), language=None, wrap_lines=True)
