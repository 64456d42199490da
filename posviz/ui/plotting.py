"""Figures on the page: `plot` (cached build, lecture-mode style, CSV / PNG / SVG export), the
"Formula and code" box, and `guard` (a posviz error becomes an st.error in the user's language)."""
import contextlib
import functools
import hashlib
import importlib
import inspect
import re

import pandas
import plotly.graph_objects as go
import pyarrow as pa
import streamlit as st

from posviz import views
from posviz.figures import export, style
from posviz.ui.frame import lang, phone, present, t
from posviz.validate import PosvizError

views.install(st.cache_data, st.cache_resource)

# plotly reads sys.modules["pandas"] while it builds a figure: imported whole here, before any session runs.
_IMPORTED_WHOLE = pandas


# ---------------------------------------------------------------- errors
@contextlib.contextmanager
def guard():
    """Run a section of a page; a posviz error becomes a message in the user's language and the
    page goes on: a demonstrated boundary (e.boundary) as a warning, bad input as an st.error."""
    try:
        yield
    except PosvizError as e:
        if e.boundary:
            st.warning(e.message(lang()), icon=":material/block:")
        else:
            st.error(f"{t('ui.invalid')} {e.message(lang())}")
    except ValueError as e:   # not raised by posviz (a test keeps it so); never a traceback all the same
        st.error(f"{t('ui.invalid')} {e}")


# ---------------------------------------------------------------- figures
@views.cached(shared=True)
def _arrow(data):
    """A small table (dict of columns or list of row dicts) as an Arrow table, built once: Streamlit
    turns a dict into pandas and then into Arrow on every rerun (~7 ms a table); Arrow is sent as is.
    Columns of mixed types are kept as text."""
    try:
        return pa.Table.from_pylist(data) if isinstance(data, list) else pa.Table.from_pydict(data)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        cols = _columns(data)
        return pa.Table.from_pydict({k: [None if v is None else str(v) for v in vs] for k, vs in cols.items()})


def _columns(data):
    """{column: [cells]} of a dict of columns or a list of row dicts (missing cells are None)."""
    if isinstance(data, dict):
        return data
    return {k: [r.get(k) for r in data] for k in dict.fromkeys(k for r in data for k in r)}


def _cell(v):
    """One markdown table cell: text as it is, with the characters that would end the cell escaped."""
    return "" if v is None else str(v).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


@views.cached(shared=True)
def long_table(data, column, value):
    """{first column: [...], column: [...], value: [...]}: a row per cell of `data` past its first column,
    row by row, the cells as text (None as "")."""
    cols = _columns(data)
    first, *rest = cols
    out = {first: [], column: [], value: []}
    for i, head in enumerate(cols[first]):
        for name in rest:
            v = cols[name][i]
            out[first].append(head)
            out[column].append(name)
            out[value].append("" if v is None else str(v))
    return out


@views.cached(shared=True)
def _markdown_table(data):
    """A small table as one GitHub-style markdown table, built once."""
    cols = _columns(data)
    rows = list(zip(*cols.values()))
    lines = ["| " + " | ".join(_cell(c) for c in cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


PHONE_WIDTHS = (105, 95, 150)   # px: a long table's row name, column name and value on a 390 px phone
PHONE_COLUMNS = 4   # the columns of an st.dataframe a 390 px phone shows at once (the /models gallery showed 3 of 10)


def table(data, static=False, wrap=False, **kw):
    """A small table (dict of columns or list of row dicts). In lecture mode it is drawn as a plain
    HTML-free st.table, whose text the projector stylesheet can enlarge (st.dataframe is a canvas).
    static=True: a short read-only table as one markdown element in both modes (a quarter of an
    st.table's cost per rerun, a half of an st.dataframe's), its text wrapping on a phone.
    wrap=True: a reference table of long cells as st.table in both modes, its cells wrapped to fit a
    phone (a markdown table is cut there).
    On a phone (frame.phone) an st.dataframe of more than PHONE_COLUMNS columns is drawn long (long_table):
    a row per cell, under its row's first cell and its column's name, so every column shows in the phone's
    width (the page scrolls down, not sideways; `kw`, such as a column_config, belongs to the wide table)."""
    if static:
        st.markdown(_markdown_table(data))
        return
    if phone() and not (present() or wrap) and len(_columns(data)) > PHONE_COLUMNS:
        long = long_table(data, t("ui.table.column"), t("ui.table.value"))
        # widths that add up to a 390 px phone's column, so a long value (an address) never widens the table
        # past the screen: it is cut in its cell (a tap shows it whole)
        widths = {name: st.column_config.TextColumn(width=px) for name, px in zip(long, PHONE_WIDTHS)}
        st.dataframe(_arrow(long), hide_index=True, column_config=widths)
        return
    arrow = _arrow(data)
    if present() or wrap:
        st.table(arrow, hide_index=True)   # (given: else st.table converts the table to pandas to decide)
    else:
        st.dataframe(arrow, hide_index=True, **kw)


def diagram(text):
    """A plain-text diagram (box-drawing arrows) in a fixed-width font, its lines kept whole (a phone
    scrolls it sideways). Drawn as st.text, styled by frame's stylesheet: an st.code block would load
    the syntax highlighter (1.5 MB of JavaScript, ~0.45 s of a page load in Chromium) for text that has
    nothing to highlight."""
    st.text(text)


def plot_config(key):
    fmt = "svg" if st.session_state.get("ui_export") == "svg" else "png"
    return {"displaylogo": False, "responsive": True, "displayModeBar": "hover",
            "toImageButtonOptions": {"format": fmt, "scale": 3, "filename": f"posviz_{key}"}}


@views.cached(shared=True)
def _spec(module, name, args, kwargs, projector):
    """The figure builder(*args, **kwargs) as a plain dict (arrays as base64 records), validated once
    when built, lecture-mode style applied. Shared, never copied: nothing mutates it."""
    fig = getattr(importlib.import_module(module), name)(*args, **kwargs)
    if projector:
        style.presentation(fig)
    return style.freeze(fig)


class _Built(go.Figure):
    """A built figure handed to st.plotly_chart as-is. Streamlit turns a go.Figure into its dict (a
    deep copy) and a dict into a go.Figure (a full validation) before it serialises either; our
    figures were validated when they were built and cached as dicts, so this shim hands that dict
    over directly: the rerun only pays for the JSON encoding (orjson)."""

    def __init__(self, spec):  # deliberately not go.Figure.__init__: no validation
        self._posviz_spec = spec

    def to_dict(self):
        return self._posviz_spec


def spec(builder, *args, **kwargs):
    """The cached dict of builder(*args, **kwargs) (a posviz.figures function)."""
    return _spec(builder.__module__, builder.__qualname__, args, kwargs, present())


def plot(builder, *args, key, csv=True, **kwargs):
    """Draw `builder(*args, **kwargs)` (a posviz.figures function; built once per argument set and
    cached) as chart `key`, asking up front for the margins plotly settles on for it on this screen
    (style.one_pass: a desktop's or a phone's), with a CSV of its numbers beneath. Theme off, so the
    screen and the export share one colour scale."""
    fig = spec(builder, *args, **kwargs)
    # The chart's element carries the class st-key-<key>: the element a scene scrolls to and marks
    # (scenes.client_script). No wrapping container: every element costs server CPU on every rerun.
    st.plotly_chart(_Built(style.one_pass(fig, key, present(), phone())), key=key, theme=None,
                    config=plot_config(key))
    if csv:
        # deferred: the CSV is built only when the button is clicked
        st.download_button(t("ui.csv"), functools.partial(export.figure_csv, fig, key), file_name=f"posviz_{key}.csv",
                           mime="text/csv", key=f"{key}_csv", icon=":material/download:",
                           on_click="ignore", type="tertiary")


# ---------------------------------------------------------------- formula and code
_FORMULA = re.compile(r"^(\s*)Formula:\s*$")


def formulas(fn):
    """The display formulas in the `Formula:` section of fn's docstring: one per line, a line
    indented deeper than the first continues the formula above it; the section ends at a blank line."""
    doc = inspect.getdoc(fn) or ""
    out, indent, inside = [], None, False
    for line in doc.splitlines():
        if not inside:
            inside = bool(_FORMULA.match(line))
            continue
        if not line.strip():
            break
        depth = len(line) - len(line.lstrip())
        if indent is None:
            indent = depth
        if depth > indent and out:
            out[-1] += " " + line.strip()
        else:
            out.append(line.strip())
    return out


@views.cached(shared=True)
def _listing(module, qualname):
    """(formulas, source) of the function module.qualname, read once per process."""
    fn = importlib.import_module(module)
    for part in qualname.split("."):
        fn = getattr(fn, part)
    return formulas(fn), inspect.getsource(fn)


def _formula_box(key, names, note):
    # A closed box sends one element and runs nothing; opening it reruns the page. (Not an st.fragment:
    # a fragment costs as much again as the box on every rerun, ~0.4 ms, and boxes are opened rarely.)
    with st.expander(t("ui.formula_code"), key=key, on_change="rerun") as box:
        if not box.open:
            return
        if note:
            st.markdown(note)
        listings = [_listing(m, q) for m, q in names]
        seen = set()
        for f in (f for forms, _ in listings for f in forms):
            if f not in seen:
                seen.add(f)
                st.latex(f)
        for (m, q), (_, source) in zip(names, listings):
            st.caption(f"`{m}.{q}`")
            st.code(source, language="python")


def explain(*fns, note=None):
    """The "Formula and code" box: the formula(s) of each function (from its docstring, so a formula
    lives once, beside its code) and the exact source of each function that produced the figure above."""
    names = tuple((fn.__module__, fn.__qualname__) for fn in fns)
    base = "fx_" + hashlib.blake2s(repr(names).encode(), digest_size=4).hexdigest()
    seen = st.session_state.setdefault("_fx_keys", set())
    key, n = base, 1
    while key in seen:
        n += 1
        key = f"{base}_{n}"
    seen.add(key)
    _formula_box(key, names, note)
