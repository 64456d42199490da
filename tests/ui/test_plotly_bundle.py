"""The plotly.js the browser loads: plotly's official cartesian partial bundle (posviz/ui/assets/plotly, from the npm
registry's plotly.js-cartesian-dist-min), vendored with its licence and version. It must be the plotly.js version the
installed plotly package ships (the figures plotly builds are written for it), and it must hold every trace type a
posviz figure draws."""
import ast
import json
import pathlib
import re

import plotly.basedatatypes
import plotly.graph_objects as go
from plotly.offline import get_plotlyjs_version

from posviz.ui import plotting

BUNDLE = plotting.PLOTLY_DIR / "plotly-cartesian.min.js"
FIGURES = pathlib.Path(plotting.__file__).parents[1] / "figures"
TRACE_TYPES = {name.lower() for name in dir(go) if isinstance(getattr(go, name), type)
               and issubclass(getattr(go, name), plotly.basedatatypes.BaseTraceType)}


def bundled_trace_types():
    """The trace modules the bundle registers."""
    return set(re.findall(r'moduleType:"trace",name:"(\w+)"', BUNDLE.read_text(encoding="utf-8")))


def drawn_trace_types():
    """Every trace type posviz's figure builders write: {"type": "<trace>"} dicts and go.<Trace>(...) calls."""
    found = set()
    for path in FIGURES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if isinstance(k, ast.Constant) and k.value == "type" and isinstance(v, ast.Constant) \
                            and v.value in TRACE_TYPES:
                        found.add(v.value)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    isinstance(node.func.value, ast.Name) and node.func.value.id == "go" and \
                    node.func.attr.lower() in TRACE_TYPES:
                found.add(node.func.attr.lower())
    return found


def test_the_bundle_is_the_plotly_js_of_the_installed_plotly_package():
    header = BUNDLE.read_text(encoding="utf-8")[:200]
    meta = json.loads((plotting.PLOTLY_DIR / "package.json").read_text(encoding="utf-8"))
    assert meta["name"] == "plotly.js-cartesian-dist-min" and meta["license"] == "MIT"
    assert f"plotly.js (cartesian - minified) v{get_plotlyjs_version()}" in header
    assert plotting.PLOTLY_JS == meta["version"] == get_plotlyjs_version()
    assert "MIT License" in (plotting.PLOTLY_DIR / "LICENSE").read_text(encoding="utf-8")


def test_the_bundle_draws_every_trace_type_posviz_draws():
    drawn = drawn_trace_types()
    assert {"scatter", "bar", "heatmap"} <= drawn                 # the scan finds what the figures write
    assert drawn <= bundled_trace_types(), drawn - bundled_trace_types()


def test_the_chart_element_loads_the_bundle_by_the_name_it_is_served_under():
    js = (plotting.PLOTLY_DIR.parent / "chart" / "chart.js").read_text(encoding="utf-8")
    assert f"'../posviz.plotly/{BUNDLE.name}'" in js
    assert [c.asset_dir for c, _ in plotting._SERVED if c.name == "plotly"] == ["assets/plotly"]
