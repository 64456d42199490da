"""posviz/ui/assets: the frame's stylesheets and browser script, sent as they are in the files, and the
rules the browser tests (tests/app/test_lecture.py, test_browser.py) rely on."""
import json
import pathlib
import re

from streamlit.testing.v1 import AppTest

from posviz.ui import frame, plotting, scenes

ASSETS = pathlib.Path(frame.__file__).with_name("assets")
PLOTLY = json.dumps(plotting.PLOTLY_JS)      # the plotly.js version the script preloads


def _read(name):
    return (ASSETS / name).read_text(encoding="utf-8")


def _frame_app():   # AppTest.from_function runs the body as a script: its imports live inside
    import streamlit as st

    from posviz.ui import frame, scenes
    frame.start()
    if st.query_params.get("show"):
        st.session_state["_scene_show"] = (st.query_params["show"], 1.5)
    scenes.client_script()


def test_the_browser_receives_the_asset_files_as_they_are():
    css, present, js, a11y = _read("frame.css"), _read("present.css"), _read("scenes.js"), _read("a11y.js")
    at = AppTest.from_function(_frame_app, default_timeout=60)
    at.run()
    assert [m.value for m in at.markdown] == [f"<style>\n{css}</style>"]
    assert [h.value for h in at.get("html")] == ["<script>\n" + a11y % '"en"' + "</script>"
                                                 f"<script>\n{js % (PLOTLY, '[]', -1, 'null', '0')}</script>"]
    at = AppTest.from_function(_frame_app, default_timeout=60)
    at.query_params["present"] = "1"
    at.query_params["show"] = "rope_clock"
    at.query_params["lang"] = "zh"
    at.run()
    # one <style> element: a second one on the line of the first one's end was read as markdown
    assert [m.value for m in at.markdown] == [f"<style>\n{css}\n{present}</style>"]
    (script,) = [h.value for h in at.get("html")]
    assert script == ("<script>\n" + a11y % '"zh-CN"' + "</script>"
                      "<script>\n" + js % (PLOTLY, '[]', -1, '"rope_clock"', "1.5") + "</script>")
    assert 'const [target, chosen] = ["rope_clock", 1.5];' in script
    assert 'document.documentElement.lang = "zh-CN";' in script


def test_the_stylesheet_marks_and_clears_a_scene_figure_and_hides_key_hints_on_touch_screens():
    css = _read("frame.css")
    assert re.search(r"^\.posviz-shown \{ outline: 4px solid", css, re.M)                 # scenes.js adds the class
    assert '[data-testid="stMain"] [class*="st-key-"] { scroll-margin-top: 4.5rem; }' in css
    assert '[data-testid="stMarkdownContainer"] table { display: block; max-width: 100%; overflow-x: auto; }' in css
    touch = css[css.index("@media (hover: none) and (pointer: coarse) {"):]
    assert ".st-key-scene_hint" in touch and ".st-key-scenes_nav kbd" in touch and "display: none !important" in touch
    assert ".plotly-notifier { display: none !important; }" in css         # issue 33 item 5: it covered text


def test_lecture_mode_text_is_at_least_22_px_on_a_projector():
    """present.css: every font size it sets is >= 22 px at the browser's 16 px rem."""
    sizes = [float(s) for s in re.findall(r"font-size:\s*([0-9.]+)rem", _read("present.css"))]
    assert len(sizes) >= 15 and min(sizes) * 16 >= 22
    assert not re.search(r"font-size:\s*[0-9.]+(px|em|pt|%)", _read("present.css"))


def test_the_script_has_five_values_and_drives_the_scene_buttons():
    js = _read("scenes.js")
    assert js.count("%s") == 5 and "const [target, chosen] = [%s, %s];" in js
    # issue 34: the page's scene figures and the current scene, so a press moves to the figure before the run
    assert "w.__posvizScenes = {shows: %s, cur: %s};" in js
    assert "m.preload(%s)" in js.split("const [target, chosen]")[0]                # plotly.js starts loading first
    assert "%" not in js.replace("%s", "").replace("%%", "")                      # %-formatting takes it as is
    assert "document.querySelectorAll('.st-key-scenes_nav button')" in js          # scenes.scenes' buttons
    assert "el.classList.add('posviz-shown')" in js                                 # frame.css marks it
    assert "e.key === 'PageDown'" in js and "e.key === 'ArrowRight'" in js and "e.altKey" in js
    # issue 33 item 1: PageDown / PageUp and plain arrows are lecture mode's, read from the URL; no letter keys
    assert "new URLSearchParams(location.search).get('present')" in js
    assert not re.search(r"e\.key === '[A-Za-z]'", js) and "e.code" not in js
    assert "history.pushState = function" in js
    assert scenes._CLIENT_JS == f"<script>\n{js}</script>"


def test_the_accessibility_script_has_one_value_the_pages_language():
    """a11y.js (issue 35): <html lang> from the page's language, so a screen reader reads Chinese as Chinese;
    regions that scroll take keyboard focus."""
    js = _read("a11y.js")
    assert js.count("%s") == 1 and "document.documentElement.lang = %s;" in js
    assert "%" not in js.replace("%s", "").replace("%%", "")
    assert frame.HTML_LANG == {"en": "en", "zh": "zh-CN"}
    assert ".katex-display" in js and "el.tabIndex = 0" in js
