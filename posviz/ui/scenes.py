"""The page header and its scenes: previous / next buttons over a page's scenes (posviz.scenes data),
and the frame's browser script that walks them and shows the figure each one talks about.
"""
import json
import logging
import threading
import time

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from posviz import text
from posviz.scenes import SCENES
from posviz.ui import hall
from posviz.ui.frame import a11y_script, asset, t
from posviz.ui.plotting import PLOTLY_JS

# Scenes set bound widgets through session state by design; Streamlit logs a warning for
# each such widget that also has a default value. Keep the server log readable.
logging.getLogger("streamlit.elements.lib.policies").setLevel(logging.ERROR)


def header(page, say=None):
    """Title, one-paragraph intro and the sources of the page's ideas; then its scenes. say: {narration key:
    {field: value}} for narrations generated from the page's numbers (their text has {field} slots)."""
    st.title(t(f"{page}.title"))
    st.markdown(t(f"{page}.intro"))
    if text.has(f"{page}.sources"):
        st.caption(t(f"{page}.sources"))
    scenes(page, say)


def _apply_scene(page, index, keep=()):
    """Set the page's widgets to scene `index` (0-based), except the keys in `keep`."""
    sc = SCENES[page][index]
    for k, v in sc["values"].items():
        if k not in keep:
            st.session_state[k] = v
    st.session_state[f"{page}_scene"] = index
    st.session_state["_scene_show"] = (sc.get("show"), time.time())


def _plain(v):
    return list(v) if isinstance(v, (list, tuple)) else v


def _in_link(v):
    """A widget value as a link writes it (bind="query-params"): a list of strings."""
    if isinstance(v, bool):
        return ["true" if v else "false"]
    return [str(x) for x in v] if isinstance(v, (list, tuple)) else [str(v)]


def departed(page, index, link=()):
    """The keys of scene `index` whose widgets now hold another value than the scene set: the view is no
    longer that scene. (A key the session does not hold, a widget not drawn, counts as the scene's.) `link`:
    the keys a link opened in this run carries (the browser's Back button, a shared link) -- their widgets
    take the link's values when they are drawn, later in this run, so the link's value is compared."""
    out = []
    for k, v in SCENES[page][index]["values"].items():
        if k in link:
            if st.query_params.get_all(k) != _in_link(v):
                out.append(k)
        elif k in st.session_state and _plain(st.session_state[k]) != _plain(v):
            out.append(k)
    return out


def _scene_from_url(page, n):
    """?scene=N (1-based) opens the page at scene N when the link brings a number this session did not
    write itself; widget values that the link also carries win over the scene's (what the sender saw).
    Returns the keys the link carries when it opened a scene (else an empty set)."""
    written = st.session_state.setdefault("_scene_in_url", {})
    raw = st.query_params.get("scene")
    if raw is None or written.get(page) == raw:
        return set()
    written[page] = raw
    try:
        index = int(raw) - 1
    except ValueError:
        return set()
    if not 0 <= index < n:
        return set()
    link = set(st.query_params.keys())
    _apply_scene(page, index, keep=link)
    _land()
    return link


def _scene_to_url(page, cur, left):
    """The URL carries ?scene=N only while every widget holds scene N's value. The URL is the view: a widget
    at its default is not in it, so a link with scene=N fills it in from the scene when it is opened; once
    a widget leaves the scene's value (moved back to its default, say), `scene` goes and the link reopens
    exactly the widgets as they are."""
    want = None if cur < 0 or left else str(cur + 1)
    if st.query_params.get("scene") != want:
        if want is None:
            del st.query_params["scene"]
        else:
            st.query_params["scene"] = want
    st.session_state["_scene_in_url"][page] = want


def scenes(page, say=None):
    """Previous / next buttons over the page's scenes (posviz.scenes); a scene sets the page's widgets,
    the URL follows (with ?scene=N) and the page scrolls to the figure the scene talks about. The scene's
    narration is pinned beside that figure (assets/frame.css: a panel at the right of a wide screen, at the
    top of a narrow one) for as long as the view is the scene's; a widget moved away from the scene drops
    the narration (it would describe another view) and the scene from the URL."""
    items = SCENES.get(page)
    if not items:
        return
    n = len(items)
    link = _scene_from_url(page, n)
    cur = st.session_state.get(f"{page}_scene", -1)
    left = departed(page, cur, link) if cur >= 0 else []
    row = st.container(horizontal=True, vertical_alignment="center", key="scenes_nav")
    row.button(t("ui.prev"), key=f"{page}_prev", shortcut="Alt+Left", disabled=cur <= 0,
               on_click=_apply_scene, args=(page, max(cur - 1, 0)), icon=":material/chevron_left:")
    row.button(t("ui.next"), key=f"{page}_next", shortcut="Alt+Right", disabled=cur >= n - 1,
               on_click=_apply_scene, args=(page, min(cur + 1, n - 1)), icon=":material/chevron_right:",
               type="primary" if cur < 0 else "secondary")
    st.session_state.setdefault("_scene_in_url", {})
    _scene_to_url(page, cur, left)
    if cur < 0:
        row.container(key="scene_hint").caption(t("ui.scene_hint", n=n))
        return
    head = f"**{t('ui.scene')} {cur + 1}/{n} · {t(items[cur]['title'])}**"
    if left:
        changed = ", ".join(t(f"w.{k}") if text.has(f"w.{k}") else k for k in left)
        st.info(f"{head} — {t('ui.scene_left', changed=changed)}", icon=":material/edit:")
    else:
        fields = (say or {}).get(items[cur]["say"], {})          # a narration filled from the page's numbers
        narration = t(items[cur]["say"], **fields)
        if not hall.scene_panel(page, cur, head, narration):     # a lecturer's room asks this scene's question
            st.container(key="scene_say").info(f"{head} — {narration}")


# The browser side of the frame, one constant script (assets/scenes.js, no user text): it keeps one
# history entry per user action, a key press or a click (Streamlit pushes one per query-parameter write,
# and a scene's runs write several; counting script runs instead lost the race when a rerun followed
# fast), takes the scene keys (Alt+arrow; in lecture mode a presenter's clicker's PageDown / PageUp and
# plain arrows; never while a text field has focus), and scrolls to and marks the figure a scene talks
# about. It knows the page's scenes (the key of the figure each one shows) and the current one, so a press
# of Previous / Next starts moving to the figure at once, before the server has run the page (issue 34);
# the run's own target then settles the place. Its five values go where the file has `%s` (plotly.js's
# version, the page's scene figures as JSON, the current scene's index, the scene's target as JSON, and the
# time it was chosen): any other percent sign in the file is written `%%`.
_CLIENT_JS = "<script>\n" + asset("scenes.js") + "</script>"
_PLOTLY = json.dumps(PLOTLY_JS)    # the plotly.js the chart element keeps (ui.plotting.payload's version)


_slot = threading.local()     # this script thread's run: (its cursors dict, the frame script's placeholder, page)


def page_name(url_path):
    """The page name (posviz.scenes' key, app_pages/<name>.py) of an app.py url path ("kv-cache" -> kv_cache)."""
    return (url_path or "overview").replace("-", "_")


def client_script(page=None):
    """Called by app.py before the page runs (once st.navigation has chosen it): the frame's browser script,
    with the page's scenes (`page`: posviz.scenes' key) and the scroll target of a scene that was just chosen
    (a scene's on_click ran before this run; the time it was chosen makes the browser run the script again).
    Drawn into a placeholder that a scene link opened later in this run (_scene_from_url) fills again with its
    own target."""
    ctx = get_script_run_ctx()
    _slot.run = (ctx.cursors if ctx is not None else None, st.empty(), page)
    _send_script()


def _send_script():
    """The frame's script into this run's placeholder, with the page's scene figures, the current scene and
    the target of the scene chosen last (if any)."""
    show = st.session_state.pop("_scene_show", None)        # (a key of posviz.scenes data, time), never user text
    target = json.dumps(show[0]) if show and show[0] else "null"
    page = _slot.run[2]
    shows = json.dumps([sc.get("show") for sc in SCENES.get(page, ())])   # keys of posviz.scenes data
    cur = int(st.session_state.get(f"{page}_scene", -1)) if page in SCENES else -1
    # The time goes inside the script: Streamlit strips an HTML comment, so two scenes showing the same
    # figure would send the same element and the browser would not scroll again.
    # one element: first the frame's script for assistive technology (<html lang>, frame.a11y_script), then the scenes'
    script = a11y_script() + _CLIENT_JS % (_PLOTLY, shows, cur, target, repr(float(show[1])) if show else "0")
    _slot.run[1].html(script, unsafe_allow_javascript=True)


def _land():
    """A scene a link opened in this run (?scene=N, /remember's links): the frame's script, already sent at
    the top of the run without a target, is sent again with the scene's figure, which the browser scrolls to
    and marks as Next scene does. Outside a full run of app.py (a test's own script) the next run sends it."""
    ctx = get_script_run_ctx()
    run = getattr(_slot, "run", None)
    if ctx is not None and run is not None and run[0] is ctx.cursors:
        _send_script()
