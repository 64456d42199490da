"""posviz/ui/sidebar.py: the share box's QR code is one a phone can read, or the box says the link is too long."""
import urllib.parse

import segno
from streamlit.testing.v1 import AppTest

from harness.apptest import open_page, url_paths
from posviz.scenes import SCENES
from posviz.ui import sidebar

BASE = "http://192.168.178.20:8501"


WIDGET_KINDS = ("slider", "select_slider", "selectbox", "multiselect", "checkbox", "toggle", "radio", "number_input",
                "text_input", "text_area")


def _norm(v):
    return list(v) if isinstance(v, (list, tuple)) else v


def _defaults(page):
    """The values of the page's widgets as it opens (the widgets a first view draws)."""
    at = open_page(page, "zh")
    return {w.key: _norm(w.value) for kind in WIDGET_KINDS for w in at.get(kind) if w.key}


def _scene_url(page, values, defaults):
    """The URL a scene's view makes: every value the scene sets that differs from the page's default (the browser
    leaves defaults out), and every value of a widget the first view does not draw (more than the browser's)."""
    params = [("lang", "zh"), ("scene", "9")]
    for k, v in values.items():
        if k in defaults and defaults[k] == _norm(v):
            continue
        vs = v if isinstance(v, (list, tuple)) else [v]
        params += [(k, str(x).lower() if isinstance(x, bool) else str(x)) for x in vs]
    return f"{BASE}/{url_paths()[page]}?{urllib.parse.urlencode(params)}"


def test_a_url_too_long_for_a_readable_qr_gets_none():
    """Issue 26 item 18: a pasted gpt-oss config made a 2,267-character URL and a version-40 code (~1 px a
    module at the box's 220 px)."""
    long_url = f"{BASE}/extrapolation?lang=en&ext_paste=" + urllib.parse.quote("x" * 2100)
    assert len(long_url) > 2000
    assert segno.make(long_url, error="m").version > sidebar.MAX_QR_VERSION      # what used to be drawn
    assert sidebar.qr_svg.uncached(long_url) is None
    assert sidebar.qr_svg.uncached(f"{BASE}/?" + "a" * 5000) is None               # beyond any QR code


def test_every_scene_link_makes_a_readable_qr():
    for page, items in SCENES.items():
        defaults = _defaults(page)
        for sc in items:
            url = _scene_url(page, sc["values"], defaults)
            code = segno.make(url, error="m", micro=False)
            assert code.version <= sidebar.MAX_QR_VERSION, (page, sc["title"], len(url), code.version)
            svg = sidebar.qr_svg.uncached(url)
            assert svg and svg.startswith(("<svg", "<?xml")), (page, sc["title"])
            modules = code.symbol_size(scale=1)[0]                          # with the quiet zone
            assert sidebar.QR_PX / modules >= 2.5, (page, modules)


def _share_box_app():
    import streamlit as st

    from posviz.ui import frame, sidebar
    frame.start()
    with st.sidebar:
        st.session_state["ui_share"] = True
    sidebar._share_box("extrapolation")


def test_the_share_box_says_a_long_link_is_too_long_instead_of_drawing_a_code(monkeypatch):
    monkeypatch.setenv("POSVIZ_PUBLIC_URL", BASE)
    at = AppTest.from_function(_share_box_app, default_timeout=60)
    at.query_params["lang"] = "en"
    at.query_params["ext_paste"] = "x" * 1800
    at.run()
    assert not at.exception
    assert any("too long for a QR code" in i.value for i in at.info)
    assert not at.get("image")
    at = AppTest.from_function(_share_box_app, default_timeout=60)
    at.query_params["lang"] = "en"
    at.query_params["ext_preset"] = "qwen25_7b"
    at.run()
    assert not at.info and len(at.get("image")) == 1
