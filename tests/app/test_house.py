"""The house rules of DESIGN.md ("one layer per job"), checked on the code itself.

The import graph is built from the source (ast), so a rule broken anywhere fails here.
"""
import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]

# layer -> the posviz layers it may import (besides itself)
ALLOWED = {
    "validate": {"text"},
    "pe": {"validate"},
    "lab": {"pe", "validate"},
    "tinylm": {"pe", "validate"},
    "views": {"pe", "lab", "tinylm", "validate"},
    "figures": set(),
    "text": set(),
    "scenes": set(),
    "ui": {"views", "figures", "text", "scenes", "validate"},
    "pages": {"ui", "views", "figures", "pe", "lab", "tinylm", "validate"},
    "app": {"ui"},
}


def _layer(module):
    """posviz.pe.rope -> "pe"; posviz.validate -> "validate"; posviz -> "posviz"."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _sources():
    for path in sorted((ROOT / "posviz").rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        yield ".".join(rel.parts).removesuffix(".__init__"), path
    for path in sorted((ROOT / "app_pages").glob("*.py")):
        yield f"pages.{path.stem}", path
    yield "app", ROOT / "app.py"


def _imports(path):
    """[(module imported, lineno, inside a function?)] for every posviz import of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []

    def visit(node, in_fn):
        for child in ast.iter_child_nodes(node):
            fn = in_fn or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.Import):
                out.extend((a.name, child.lineno, fn) for a in child.names if a.name.startswith("posviz"))
            elif isinstance(child, ast.ImportFrom) and child.module and child.module.startswith("posviz"):
                for a in child.names:    # "from posviz.pe import rope" imports posviz.pe.rope
                    sub = f"{child.module}.{a.name}"
                    known = (ROOT / (sub.replace(".", "/") + ".py")).exists() or (ROOT / sub.replace(".", "/")).is_dir()
                    out.append((sub if known else child.module, child.lineno, fn))
            visit(child, fn)

    visit(tree, False)
    return out


def test_every_layer_imports_only_what_it_may():
    bad = []
    for module, path in _sources():
        layer = "pages" if module.startswith("pages.") else "app" if module == "app" else _layer(module)
        if layer == "posviz":
            continue
        for imported, line, _ in _imports(path):
            other = _layer(imported)
            if other != layer and other not in ALLOWED[layer] and imported != "posviz":
                bad.append(f"{path.relative_to(ROOT)}:{line} ({layer}) imports {imported} ({other})")
    assert not bad, "\n".join(bad)


def test_no_import_inside_a_function_and_no_cycle():
    inside = [f"{path.relative_to(ROOT)}:{line} imports {m} inside a function"
              for _, path in _sources() for m, line, fn in _imports(path) if fn]
    assert not inside, "\n".join(inside)
    graph = {m: {i for i, _, _ in _imports(p)} for m, p in _sources()}
    done, stack = set(), []

    def walk(m):
        if m in stack:
            raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(m):] + [m]))
        if m in done:
            return
        stack.append(m)
        for nxt in graph.get(m, ()):
            walk(nxt)
        stack.pop()
        done.add(m)

    for m in graph:
        walk(m)


def test_streamlit_only_in_ui_and_caches_only_through_views():
    bad = []
    for module, path in _sources():
        src = path.read_text(encoding="utf-8")
        if module.startswith("posviz.") and not module.startswith("posviz.ui") and re.search(r"^\s*(import|from) streamlit", src, re.M):
            bad.append(f"{module} imports streamlit")
        if re.search(r"st\.cache_(data|resource)\s*\(|@st\.cache", src) and module != "posviz.ui.plotting":
            bad.append(f"{module} calls st.cache_* (views.cached is the one cache)")
        if module.startswith("pages.") and re.search(r"\bui\.(cache|build)\b|to_cacheable|revive\(", src):
            bad.append(f"{module} caches on its own (views are the cached layer)")
        if re.search(r"_TABLE_CACHE|lru_cache", src):
            bad.append(f"{module} keeps a cache of its own")
    assert not bad, "\n".join(bad)


def test_pages_are_thin():
    for path in sorted((ROOT / "app_pages").glob("*.py")):
        src = path.read_text(encoding="utf-8")
        n = src.count("\n")
        assert n <= 150, f"{path.name} has {n} lines"
        assert "st.latex(r" not in src and "\\frac" not in src and "\\theta" not in src, f"{path.name} holds LaTeX"


def test_pages_call_compute_only_through_views():
    """A page may hand a compute function to ui.explain (to show its source), never call it."""
    bad = []
    for path in sorted((ROOT / "app_pages").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        compute = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and _layer(node.module) in ("pe", "lab", "tinylm"):
                compute |= {a.asname or a.name for a in node.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else \
                    f.id if isinstance(f, ast.Name) else None
                if name in compute:
                    bad.append(f"{path.name}:{node.lineno} calls {name}.{getattr(f, 'attr', '')}")
    assert not bad, "\n".join(bad)


def test_text_holds_strings_only_and_figures_look_up_no_text():
    bad = []
    for path in sorted((ROOT / "posviz" / "text").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            names = [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            if names and not set(names) <= {"EN", "ZH", "LANGS", "TOPICS", "TABLES"} and not names[0].startswith("_"):
                bad.append(f"{path.name} defines {names}")
    for path in sorted((ROOT / "posviz" / "figures").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                params = {a.arg for a in node.args.args + node.args.kwonlyargs}
                if params & {"t", "tr", "translate", "lang"}:
                    bad.append(f"figures/{path.name}:{node.name} takes a translator")
    assert not bad, "\n".join(bad)


def test_posviz_raises_only_coded_errors():
    """Every error posviz raises carries a code whose message posviz.text has in en and zh."""
    from posviz import text

    bad = []
    for module, path in _sources():
        if not module.startswith("posviz."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = getattr(node.exc.func, "id", getattr(node.exc.func, "attr", ""))
                if name in ("ValueError", "TypeError", "KeyError"):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno} raises a bare {name}")
                if name == "PosvizError" and node.exc.args and isinstance(node.exc.args[0], ast.Constant):
                    code = node.exc.args[0].value
                    if not (f"err.{code}" in text.TABLES["en"] and f"err.{code}" in text.TABLES["zh"]):
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno} code {code!r} has no err.{code} text")
    assert not bad, "\n".join(bad)
