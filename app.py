"""posviz: the interactive lab for transformer position encodings.

Run:  streamlit run app.py

`streamlit run` finds `app` below, an st.App, and serves it: Streamlit's server with posviz's own routes
(posviz.ui.routes: plotly.js under a URL the browser keeps; the hall's answers and room versions). For each
visitor Streamlit then runs this same file as the page script, where __name__ is "__main__": the pages.
"""
import streamlit as st
import torch

from posviz import ui
from posviz.ui import frame, routes, scenes, slots
from posviz.ui.sidebar import sidebar

# Every tensor here is small: one thread per op avoids thread-pool overhead and keeps
# concurrent sessions from fighting over the cores.
torch.set_num_threads(1)

# (file, url path, section) -- titles come from the locale files (nav.<url path>). The scripts live in
# app_pages/, not pages/: a pages/ folder beside app.py switches on Streamlit's legacy multipage mode
# until st.navigation first runs in the process, and the first visitors of a fresh server then got
# "Page not found" or another page.
PAGES = [
    ("app_pages/overview.py", "", "basics"),
    ("app_pages/sinusoidal.py", "sinusoidal", "basics"),
    ("app_pages/relative.py", "relative", "basics"),
    ("app_pages/rope.py", "rope", "rope"),
    ("app_pages/decay.py", "decay", "rope"),
    ("app_pages/extrapolation.py", "extrapolation", "rope"),
    ("app_pages/models.py", "models", "rope"),
    ("app_pages/frontier.py", "frontier", "rope"),
    ("app_pages/length.py", "length", "rope"),
    ("app_pages/length_today.py", "length-today", "rope"),
    ("app_pages/lab.py", "lab", "lab"),
    ("app_pages/kv_cache.py", "kv-cache", "lab"),
    ("app_pages/checks.py", "checks", "lab"),
    ("app_pages/remember.py", "remember", "lab"),
    ("app_pages/hall.py", "hall", "lab"),
]


def main():
    """The page script: the frame, the current page, the sidebar."""
    with slots.run_slot():   # a few runs at a time in this process, in turn (see slots.MAX_RUNS)
        st.set_page_config(page_title="posviz", page_icon=":material/rotate_right:", layout="wide",
                           initial_sidebar_state="collapsed" if ui.present() else "auto")
        frame.start()
        current = frame.navigation(PAGES)
        scenes.client_script(scenes.page_name(current.url_path))   # the page's scenes: the browser knows their figures
        current.run()
        # after the page: the share box shows the URL as this run left it, never one interaction behind
        sidebar(current.url_path)
        frame.finish()


if __name__ == "__main__":    # a visitor's run
    main()
else:                         # imported by `streamlit run` (uvicorn): the server
    app = st.App(__file__, routes=routes.ROUTES)
