"""posviz: the interactive lab for transformer position encodings.

Run:  streamlit run app.py
"""
import streamlit as st
import torch

from posviz import ui
from posviz.ui import frame

# Every tensor here is small: one thread per op avoids thread-pool overhead and keeps
# concurrent sessions from fighting over the cores.
torch.set_num_threads(1)

# (file, url path, section) -- titles come from the locale files (nav.<url path>).
PAGES = [
    ("pages/overview.py", "", "basics"),
    ("pages/sinusoidal.py", "sinusoidal", "basics"),
    ("pages/relative.py", "relative", "basics"),
    ("pages/rope.py", "rope", "rope"),
    ("pages/decay.py", "decay", "rope"),
    ("pages/extrapolation.py", "extrapolation", "rope"),
    ("pages/models.py", "models", "rope"),
    ("pages/length.py", "length", "rope"),
    ("pages/lab.py", "lab", "lab"),
    ("pages/kv_cache.py", "kv-cache", "lab"),
    ("pages/checks.py", "checks", "lab"),
    ("pages/remember.py", "remember", "lab"),
]

st.set_page_config(page_title="posviz", page_icon=":material/rotate_right:", layout="wide",
                   initial_sidebar_state="collapsed" if ui.present() else "auto")
frame.start()
frame.client_script()

sections = {}
for file, path, section in PAGES:
    page = st.Page(file, title=ui.t(f"nav.{path or 'overview'}"), url_path=path or None, default=not path)
    sections.setdefault(ui.t(f"nav.section.{section}"), []).append(page)
current = st.navigation(sections)
current.run()
# after the page: the share box shows the URL as this run left it, never one interaction behind
frame.sidebar(current.url_path)
frame.finish()
