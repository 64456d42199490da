"""Helpers shared by the tests and the benchmarks (never imported by the app).

apptest: run a page headless with streamlit's AppTest and read what it drew.
browser: start `streamlit run app.py` on a free port and drive Debian's Chromium with Playwright.
ws_load: a headless load client over Streamlit's websocket protocol (`python -m harness.ws_load --help`).
"""
