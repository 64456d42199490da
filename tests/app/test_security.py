"""Static checks: no user text reaches HTML, no eval/exec/pickle, streamlit only in posviz.ui,
no math in pages."""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = [p for d in ("posviz", "app_pages") for p in (ROOT / d).rglob("*.py")] + [ROOT / "app.py"]
# The allowed HTML injections, all in posviz.ui: the frame's constant stylesheets, its constant browser script
# whose variable parts are a scene's `show` key (posviz.scenes data, JSON-encoded), a time stamp and the page's
# language as <html lang> (frame.HTML_LANG's constant for the settled language), the paste box's constant script
# (its widget key, byte limit and a message of posviz.text, JSON-encoded), and the hall's constant style that hides
# a scene's figure until the reveal.
ALLOWED_HTML = {("posviz/ui/frame.py", "stylesheet"), ("posviz/ui/scenes.py", "script"),
                ("posviz/ui/widgets.py", "guard"), ("posviz/ui/hall.py", "hide")}


def _is_false(node):
    return isinstance(node, ast.Constant) and node.value is False


def _calls(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield node


def _name(func):
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def test_no_html_from_user_content():
    bad = []
    for path in SOURCES:
        rel = str(path.relative_to(ROOT))
        for call in _calls(path):
            name = _name(call.func)
            unsafe = any(k.arg == "unsafe_allow_html" and not _is_false(k.value) for k in call.keywords)
            if name == "html" or unsafe:
                arg = call.args[0] if call.args else None
                ok = isinstance(arg, ast.Name) and (rel, arg.id) in ALLOWED_HTML
                if not ok:
                    bad.append(f"{rel}:{call.lineno} {name}")
    assert not bad, bad


def test_no_eval_exec_pickle():
    bad = []
    for path in SOURCES:
        rel = str(path.relative_to(ROOT))
        src = path.read_text(encoding="utf-8")
        tree = ast.parse(src)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in ("eval", "exec", "compile", "__import__"):
                if isinstance(node.func, ast.Name):
                    bad.append(f"{rel}:{node.lineno} {_name(node.func)}")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                if any(m.split(".")[0] in ("pickle", "marshal", "shelve", "dill") for m in mods):
                    bad.append(f"{rel}:{node.lineno} imports {mods}")
            if isinstance(node, ast.Call) and _name(node.func) == "load" and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "torch":
                wo = [k for k in node.keywords if k.arg == "weights_only"]
                if not (wo and isinstance(wo[0].value, ast.Constant) and wo[0].value.value is True):
                    bad.append(f"{rel}:{node.lineno} torch.load without weights_only=True")
    assert not bad, bad


def test_streamlit_only_in_ui_and_pages():
    bad = []
    for path in (ROOT / "posviz").rglob("*.py"):
        rel = str(path.relative_to(ROOT))
        if rel.startswith("posviz/ui/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                if any(m.split(".")[0] == "streamlit" for m in mods):
                    bad.append(rel)
    assert not bad, bad


def test_pages_do_no_math():
    bad = []
    for path in (ROOT / "app_pages").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                if any(m.split(".")[0] in ("torch", "numpy", "math") for m in mods):
                    bad.append(f"{path.name} imports {mods}")
    assert not bad, bad


def test_user_text_widgets_are_capped():
    """Every text box has max_chars (a 10,000-character paste is refused by the widget or the code)."""
    bad = []
    for path in SOURCES:
        for call in _calls(path):
            if _name(call.func) in ("text_input", "text_area", "chat_input"):
                if not any(k.arg == "max_chars" for k in call.keywords) and len(call.args) < 3:
                    bad.append(f"{path.name}:{call.lineno}")
    assert not bad, bad


def test_the_frame_script_takes_only_scene_data():
    """The scroll target written into the frame's script is set in one place, from posviz.scenes."""
    src = (ROOT / "posviz" / "ui" / "scenes.py").read_text(encoding="utf-8")
    writes = [line.strip() for line in src.splitlines() if '"_scene_show"] =' in line]
    assert writes == ['st.session_state["_scene_show"] = (sc.get("show"), time.time())']
    assert "sc = SCENES[page][index]" in src
