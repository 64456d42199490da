"""Figures on the page: `plot` (cached build, lecture-mode style, CSV / PNG / SVG export, drawn in place by
posviz's chart element), the "Formula and code" box, and `guard` (a posviz error becomes an st.error in the
user's language)."""
import collections
import contextlib
import functools
import hashlib
import importlib
import inspect
import json
import pathlib
import re
import threading

import orjson
import pandas
import plotly.io as pio
import pyarrow as pa
import streamlit as st
from streamlit.components.v2.get_bidi_component_manager import get_bidi_component_manager
from streamlit.components.v2.manifest_scanner import ComponentConfig, ComponentManifest
from streamlit.runtime import Runtime

from posviz import views
from posviz.figures import export, style
from posviz.ui import describe, sections
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


def panels(spec, **kw):
    """Places for figures drawn side by side: st.columns(spec) on a screen; in lecture mode one under the other,
    each the page's width (beside a scene's narration panel two charts got a third of the projector each: titles
    cut, x ticks colliding, 10-12 px cell values)."""
    if present():
        return [st.container() for _ in range(spec if isinstance(spec, int) else len(spec))]
    return st.columns(spec, **kw)


def diagram(text):
    """A plain-text diagram (box-drawing arrows) in a fixed-width font, its lines kept whole (a phone
    scrolls it sideways). Drawn as st.text, styled by frame's stylesheet: an st.code block would load
    the syntax highlighter (1.5 MB of JavaScript, ~0.45 s of a page load in Chromium) for text that has
    nothing to highlight."""
    st.text(text)


def plot_config(key):
    """plotly.js's config of chart `key`: the camera button saves a PNG or an SVG (the sidebar's choice) at 3x
    as posviz_<key>; no plotly logo, no "send to cloud", no box or lasso selection (nothing here reads a
    selection: two buttons less on every chart's toolbar); the toolbar shows on hover and while focus is in the
    chart (chart.js adds the "in words" and fullscreen buttons)."""
    fmt = "svg" if st.session_state.get("ui_export") == "svg" else "png"
    return {"displaylogo": False, "responsive": True, "displayModeBar": "hover", "showSendToCloud": False,
            "showEditInChartStudio": False, "modeBarButtonsToRemove": ["select2d", "lasso2d"],
            "toImageButtonOptions": {"format": fmt, "scale": 3, "filename": f"posviz_{key}"}}


# ---------------------------------------------------------------- the chart element
# posviz's chart element is a keyed Streamlit components-v2 element (assets/chart: chart.js, chart.css). A key
# keeps the element's identity across reruns, so the browser keeps its <div> and updates the figure in place
# with Plotly.react (st.plotly_chart hashes the figure into its element's id: every changed chart was
# unmounted and drawn anew). The element's files and plotly.js are served by Streamlit under
# /_stcore/bidi-components/: posviz.chart/ and posviz.plotly/. plotly.js is plotly's official "cartesian" partial
# bundle (assets/plotly: plotly.js-cartesian-dist-min from the npm registry, its LICENSE and package.json), of the
# plotly.js version the installed plotly package ships: posviz draws scatter, bar and heatmap traces only, and the
# whole plotly.min.js (4.8 MB, 1.45 MB gzipped) took ~0.6 s to compile on every first visit; this one is 1.5 MB
# (0.5 MB gzipped). tests/ui/test_plotly_bundle.py holds it to the package's version and to every trace type drawn.
CHART = "posviz.chart"
PLOTLY_DIR = pathlib.Path(__file__).parent / "assets" / "plotly"
PLOTLY_JS = json.loads((PLOTLY_DIR / "package.json").read_text(encoding="utf-8"))["version"]   # "4.1.1"
_SERVED = ((ComponentConfig("chart", "assets/chart"), pathlib.Path(__file__).parent),
           (ComponentConfig("plotly", "assets/plotly"), pathlib.Path(__file__).parent))


def _serve(manager):
    """Declare the chart element's asset directory and plotly.js's to a Streamlit runtime's component manager
    (once per manager: a server has one, each AppTest its own)."""
    if manager.get_component_asset_root(CHART) is None:
        for config, root in _SERVED:
            manager.register_from_manifest(ComponentManifest("posviz", "1", [config]), root)


@functools.cache
def _mount():
    """The chart element's mounting function, made once, in the first run (a runtime's manager then knows the
    asset directory the element's script is read from)."""
    _serve(get_bidi_component_manager())
    return st.components.v2.component(CHART, js="chart.js", isolate_styles=False)


# The bytes sent for a figure, built once per (cached figure, key, screen, export format): a rerun that draws
# the same figure sends the same bytes (Streamlit hashes them for the element; the browser compares them and
# does nothing). Keyed by the cached figure's identity (views.cached hands out the same dict, never a copy),
# which the entry keeps alive.
_PAYLOADS = collections.OrderedDict()
_PAYLOADS_MAX = 512
_PAYLOADS_LOCK = threading.Lock()


def payload(fig, key, projector, on_phone, config, labels, language="en"):
    """The chart element's data: JSON bytes of {figure, config, labels, alt, plotly}, the figure asking for its
    one-pass margins (style.one_pass); alt: its text alternative in `language` (describe.describe); plotly: the
    version of the plotly.js bundle served (the plotly.js the browser keeps)."""
    ident = (id(fig), key, projector, on_phone, config["toImageButtonOptions"]["format"], tuple(labels.items()),
             language)
    with _PAYLOADS_LOCK:
        hit = _PAYLOADS.get(ident)
        if hit is not None and hit[0] is fig:
            _PAYLOADS.move_to_end(ident)
            return hit[1]
    # plotly's own encoder (orjson, with numpy arrays of text cleaned as plotly.js expects): as st.plotly_chart sent it
    data = pio.json.to_json_plotly({"figure": style.one_pass(fig, key, projector, on_phone), "config": config,
                                    "labels": labels, "alt": describe.describe(fig, language),
                                    "plotly": PLOTLY_JS}).encode()
    with _PAYLOADS_LOCK:
        _PAYLOADS[ident] = (fig, data)
        while len(_PAYLOADS) > _PAYLOADS_MAX:
            _PAYLOADS.popitem(last=False)
    return data


def read_payload(data):
    """The chart element's data (payload's bytes) as a dict: {figure, config, labels, alt, plotly}."""
    return orjson.loads(data)


@views.cached(shared=True)
def _spec(module, name, args, kwargs, projector):
    """The figure builder(*args, **kwargs) as a plain dict (arrays as base64 records), validated once
    when built, lecture-mode style applied. Shared, never copied: nothing mutates it."""
    fig = getattr(importlib.import_module(module), name)(*args, **kwargs)
    if projector:
        style.presentation(fig)
    return style.freeze(fig)


def spec(builder, *args, **kwargs):
    """The cached dict of builder(*args, **kwargs) (a posviz.figures function)."""
    return _spec(builder.__module__, builder.__qualname__, args, kwargs, present())


def plot(builder, *args, key, csv=True, **kwargs):
    """Draw `builder(*args, **kwargs)` (a posviz.figures function; built once per argument set and
    cached) as chart `key`, asking up front for the margins plotly settles on for it on this screen
    (style.one_pass: a desktop's or a phone's), with a CSV of its numbers beneath. The figure's own
    template (no Streamlit theme), so the screen and the export share one colour scale."""
    fig = spec(builder, *args, **kwargs)
    labels = {"full": t("ui.fullscreen"), "close": t("ui.close"), "figure": t("ui.figure"), "alt": t("ui.alt"),
              "step": t("ui.step")}
    data = payload(fig, key, present(), phone(), plot_config(key), labels, lang())
    _serve(Runtime.instance().bidi_component_registry)
    # The element carries the class st-key-<key>: the element a scene scrolls to and marks
    # (scenes.client_script). No wrapping container: every element costs server CPU on every rerun.
    _mount()(key=key, data=data)
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
    # a box's key: its functions, and the section it is in (a section rerun alone gives its boxes the keys
    # the page's full run gave them)
    where = sections.current()
    base = "fx_" + hashlib.blake2s(repr((where, names) if where else names).encode(), digest_size=4).hexdigest()
    seen = st.session_state.setdefault("_fx_keys", {}).setdefault(where, set())
    key, n = base, 1
    while key in seen:
        n += 1
        key = f"{base}_{n}"
    seen.add(key)
    _formula_box(key, names, note)
