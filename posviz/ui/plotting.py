"""Figures on the page: `plot` (cached build, lecture-mode style, CSV / PNG / SVG export), the
"Formula and code" box, and `guard` (a posviz error becomes an st.error in the user's language)."""
import contextlib
import functools
import importlib
import inspect
import re

import pandas  # noqa: F401  imported whole before any session runs: plotly reads sys.modules["pandas"]
import streamlit as st
import torch

from posviz import views
from posviz.figures import export, style
from posviz.ui.frame import lang, present, t
from posviz.validate import PosvizError

views.install(st.cache_data)


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
def table(data, **kw):
    """A small table (dict of columns or list of row dicts). In lecture mode it is drawn as a plain
    HTML-free st.table, whose text the projector stylesheet can enlarge (st.dataframe is a canvas)."""
    if present():
        st.table(data)
    else:
        st.dataframe(data, hide_index=True, **kw)


def plot_config(key):
    fmt = "svg" if st.session_state.get("ui_export") == "svg" else "png"
    return {"displaylogo": False, "responsive": True,
            "toImageButtonOptions": {"format": fmt, "scale": 3, "filename": f"posviz_{key}"}}


def _tensor_key(x):
    return (str(x.dtype), tuple(x.shape), x.detach().cpu().numpy().tobytes())


@views.cached(hash_funcs={torch.Tensor: _tensor_key})
def _built(module, name, args, kwargs, projector):
    fig = getattr(importlib.import_module(module), name)(*args, **kwargs)
    if projector:
        style.presentation(fig)
    return style.freeze(fig)


def build(builder, *args, **kwargs):
    """builder(*args, **kwargs) from a posviz.figures module, cached on its arguments (arrays
    included): an unchanged figure costs a lookup, not a rebuild."""
    return style.thaw(_built(builder.__module__, builder.__qualname__, args, kwargs, present()))


def plot(builder, *args, key, csv=True, **kwargs):
    """Draw `builder(*args, **kwargs)` (a posviz.figures function; cached) with a CSV of its
    numbers beneath. Theme off, so the screen and the export share one colour scale."""
    fig = build(builder, *args, **kwargs) if callable(builder) else builder
    if not callable(builder) and present():
        style.presentation(fig)
    st.plotly_chart(fig, key=key, theme=None, config=plot_config(key))
    if csv:
        # deferred: the CSV is built only when the button is clicked
        st.download_button(t("ui.csv"), functools.partial(export.figure_csv, fig), file_name=f"posviz_{key}.csv",
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


def explain(*fns, note=None):
    """Expander with the formula(s) of each function (from its docstring, so a formula lives once,
    beside its code) and the exact source of each function that produced the figure above it."""
    legacy = []
    while fns and isinstance(fns[0], (str, list, tuple)):   # TODO(issue 11): pages still passing LaTeX
        legacy += [fns[0]] if isinstance(fns[0], str) else list(fns[0])
        fns = fns[1:]
    with st.expander(t("ui.formula_code")):
        if note:
            st.markdown(note)
        seen = set()
        for f in legacy + [f for fn in fns for f in formulas(fn)]:
            if f not in seen:
                seen.add(f)
                st.latex(f)
        for fn in fns:
            st.caption(f"`{fn.__module__}.{fn.__qualname__}`")
            st.code(inspect.getsource(fn), language="python")
