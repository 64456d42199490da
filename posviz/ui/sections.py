"""Page sections that rerun alone: a control that feeds only its own section reruns that section (an
st.fragment), not the page. A page's rerun sends every element of the page again and the browser draws each
of them anew (/rope: 126 elements); a section's rerun sends the section's own (the calculator: about 15).

A page marks such a section with `@ui.section`. Its controls, figures and formula boxes live inside it; what
it is given (the page's own controls' values) comes from the page's last full run, which a change of those
controls starts. While the sidebar's share box is open, a section's rerun goes on to the whole page: the box
then shows the URL the control just changed.
"""
import functools
import threading

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from posviz.ui import frame

_running = threading.local()     # the section this script thread is drawing


def current():
    """The name of the section being drawn (its function's), or "" outside one."""
    return getattr(_running, "name", "")


def section(fn):
    """`fn` (a page's section: it draws its own controls and what they feed) as a section that reruns alone."""
    name = fn.__qualname__

    @functools.wraps(fn)
    def run(*args, **kwargs):
        ctx = get_script_run_ctx()
        alone = bool(ctx is not None and ctx.fragment_ids_this_run)
        if alone:
            frame.resume()
        st.session_state.setdefault("_fx_keys", {})[name] = set()     # this section's formula boxes, anew
        _running.name = name
        try:
            fn(*args, **kwargs)
        finally:
            _running.name = ""
        if alone and st.session_state.get("ui_share"):
            st.rerun()      # the share box shows this view's URL: the whole page runs

    return st.fragment(run)
