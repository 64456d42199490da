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
    "hall": {"scenes", "validate"},
    "ui": {"views", "figures", "text", "scenes", "validate", "hall"},
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
        outside_ui = module.startswith("posviz.") and not module.startswith("posviz.ui")
        if outside_ui and re.search(r"^\s*(import|from) streamlit", src, re.M):
            bad.append(f"{module} imports streamlit")
        if re.search(r"st\.cache_(data|resource)\s*\(|@st\.cache", src) and module != "posviz.ui.plotting":
            bad.append(f"{module} calls st.cache_* (views.cached is the one cache)")
        if module.startswith("pages.") and re.search(r"\bui\.(cache|build)\b|to_cacheable|revive\(", src):
            bad.append(f"{module} caches on its own (views are the cached layer)")
        if re.search(r"_TABLE_CACHE|lru_cache", src):
            bad.append(f"{module} keeps a cache of its own")
    assert not bad, "\n".join(bad)


# A page's size, in what its reader reads (test_pages_are_thin says why).
MAX_SECTION_STATEMENTS = 80   # statements of one section: the page's script, or one function of the page
MAX_SECTION_NODES = 1000      # AST nodes of one section
MAX_PAGE_NODES = 2000         # AST nodes of the whole page
MAX_PAGE_WIDGETS = 24         # widget calls written in the page
WIDGETS = {"slider", "select_slider", "select", "radio", "multiselect", "toggle", "number", "text_input",   # ui.*
           "button", "text_area", "checkbox", "number_input", "selectbox", "pills", "segmented_control"}   # st.*


def _size(nodes):
    """(statements, AST nodes) of a list of statements (imports and docstrings are not counted)."""
    statements = size = 0
    for top in nodes:
        if isinstance(top, (ast.Import, ast.ImportFrom)) or _is_docstring(top):
            continue
        for node in ast.walk(top):
            statements += isinstance(node, ast.stmt) and not _is_docstring(node)
            size += not isinstance(node, ast.expr_context)      # Load / Store: not something a reader reads
    return statements, size


def _is_docstring(node):
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def page_sections(tree):
    """{section: (statements, AST nodes)}: "<script>" for the page's own statements, then each function."""
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    sections = {"<script>": _size([n for n in tree.body if not isinstance(n, ast.FunctionDef)])}
    return sections | {f.name: _size(f.body) for f in functions}


def page_widgets(tree):
    """The widget calls written in a page: ui.slider(...), st.button(...), col.toggle(...), ..."""
    return sum(1 for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and n.func.attr in WIDGETS)


def used_above(tree):
    """[(name, line)]: names of the page that one of its functions uses and that the page sets further down."""
    set_at = {}
    for node in tree.body:
        names = [node.name] if isinstance(node, ast.FunctionDef) else \
            [t.id for t in ast.walk(node) if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)]
        for name in names:
            set_at.setdefault(name, node.lineno)
    out = []
    for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        local = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)} | \
            {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        out += [(n.id, n.lineno) for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                and n.id not in local and set_at.get(n.id, 0) > fn.lineno]
    return out


def test_pages_are_thin():
    """A page is a script read top to bottom: its widgets, the views they feed and the figures of those
    views (ui.plot), in the order the user sees them. What makes it hard to read is how much it says, not
    how many lines it takes, so it is measured in what no layout changes:

    - statements per section (a section: the page's own script, or one of its functions). Joining lines
      or writing `with col: x = ...` on one line does not make fewer of them;
    - AST nodes per section and per page: how much code there is. Packing several steps into one
      statement (a tuple of lambdas, a table of sections looped over) does not make fewer of them either;
    - widgets per page: each is a knob the user must understand and the page must wire (a widget written
      once in a loop counts once: it is read once).

    The limits (above) are a section one reads in a sitting and a page one works through in a lecture: a
    one-script page of 100-odd statements (rope's, sinusoidal's and lab's as they were) fails them; every
    page now passes with room for a figure or two, not for a page's worth more.

    A section that outgrows its limits is split into functions, one per part the user sees (see
    app_pages/rope.py: the sections, then the script that runs them); a page that outgrows its own is
    split into two pages. A page holds no LaTeX (a formula lives in the docstring of its function), no
    `noqa`, and reads top to bottom: no function of it uses a name the page sets further down."""
    bad = []
    for path in sorted((ROOT / "app_pages").glob("*.py")):
        src = path.read_text(encoding="utf-8")
        tree = ast.parse(src)
        sections = page_sections(tree)
        for name, (statements, nodes) in sections.items():
            if statements > MAX_SECTION_STATEMENTS or nodes > MAX_SECTION_NODES:
                bad.append(f"{path.name} {name}: {statements} statements, {nodes} AST nodes "
                           f"(at most {MAX_SECTION_STATEMENTS}, {MAX_SECTION_NODES}): split it into sections")
        if (nodes := sum(n for _, n in sections.values())) > MAX_PAGE_NODES:
            bad.append(f"{path.name}: {nodes} AST nodes (at most {MAX_PAGE_NODES}): make it two pages")
        if (widgets := page_widgets(tree)) > MAX_PAGE_WIDGETS:
            bad.append(f"{path.name}: {widgets} widgets (at most {MAX_PAGE_WIDGETS}): make it two pages")
        if "st.latex(r" in src or "\\frac" in src or "\\theta" in src:
            bad.append(f"{path.name} holds LaTeX")
        if "noqa" in src:
            bad.append(f"{path.name} silences the linter (noqa)")
        bad += [f"{path.name}:{line}: uses {name}, which the page sets further down" for name, line in used_above(tree)]
    assert not bad, "\n".join(bad)


def test_page_size_is_measured_in_code_not_lines():
    """The measures of test_pages_are_thin do not move when lines are joined or steps packed together."""
    loose = "c = st.columns(2)\nwith c[0]:\n    m = ui.slider('a', 0, 9, 1)\n" \
            "with c[1]:\n    n = ui.slider('b', 0, 9, 1)\n"
    joined = "c = st.columns(2)\nwith c[0]: m = ui.slider('a', 0, 9, 1)\nwith c[1]: n = ui.slider('b', 0, 9, 1)\n"
    packed = "c = st.columns(2); m, n = [f() for f in (lambda: ui.slider('a', 0, 9, 1, col=c[0]),\n" \
             "                                      lambda: ui.slider('b', 0, 9, 1, col=c[1]))]\n"
    (s_loose, n_loose), = page_sections(ast.parse(loose)).values()
    (s_joined, n_joined), = page_sections(ast.parse(joined)).values()
    (_, n_packed), = page_sections(ast.parse(packed)).values()
    assert (s_joined, n_joined) == (s_loose, n_loose) == (5, n_loose)
    assert n_packed > n_loose
    assert page_widgets(ast.parse(loose)) == page_widgets(ast.parse(packed)) == 2
    assert used_above(ast.parse("def f():\n    return X\n\nX = 1\n")) == [("X", 2)]
    assert used_above(ast.parse("X = 1\n\ndef f():\n    return X\n")) == []


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
