"""posviz.ui.plotting's own parts and the views' cache keys: digests, the markdown tables, the lazy
boxes (AppTest on a one-line script)."""
import math

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from harness.apptest import markdown_tables
from posviz import views
from posviz.ui import plotting


def key(v):
    return views.Keyed(v).digest


def test_equal_values_share_a_key():
    assert key({"a": [1.0, np.arange(3)], "t": torch.ones(2)}) == key({"a": [1.0, np.arange(3)], "t": torch.ones(2)})
    assert key(("m", "f", (np.zeros((2, 3), np.float32),), {"labels": {"x": "i"}}, False)) == \
        key(("m", "f", (np.zeros((2, 3), np.float32),), {"labels": {"x": "i"}}, False))


@pytest.mark.parametrize("a, b", [
    ([1.0], [1]), ((1,), [1]), ([1, 2], [[1, 2]]), (["ab"], ["a", "b"]), ({"a": 1}, {"b": 1}),
    (np.zeros(2), np.zeros(2, np.float32)), (np.zeros((2, 3)), np.zeros((3, 2))), (np.arange(3), np.arange(3)[::-1]),
    (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5])), (None, "None"), (True, 1), (0.1 + 0.2, 0.3),
    (math.nan, None), ("a;str:b", "a"), ({"x": [1, 2]}, {"x": [1], "y": 2}),
])
def test_different_values_get_different_keys(a, b):
    assert key(a) != key(b)


def test_markdown_table_escapes_and_reads_back():
    data = {"p": ["1", "a|b", None], "score": ["−0.5", "x\\y", "two\nlines"]}
    md = plotting._markdown_table.uncached(data)
    assert md.splitlines()[:2] == ["| p | score |", "|---|---|"]

    class Fake:   # conftest.markdown_tables reads the page's markdown elements
        markdown = [type("M", (), {"value": md})()]
    (df,) = markdown_tables(Fake)
    assert list(df["p"]) == ["1", "a|b", ""] and list(df["score"]) == ["−0.5", "x\\y", "two lines"]
    rows = plotting._markdown_table.uncached([{"a": 1}, {"b": 2}])
    assert rows.splitlines()[2:] == ["| 1 |  |", "|  | 2 |"]


def _lazy_app():   # AppTest.from_function runs the body as a script: its imports live inside
    import streamlit as st

    from posviz import ui
    from posviz.ui import frame
    frame.start()
    with ui.more("rope_steps") as box:
        if box.open:
            st.markdown("BODY")
    ui.explain(ui.formulas)


def test_more_and_the_formula_box_run_their_body_only_when_open():
    at = AppTest.from_function(_lazy_app, default_timeout=60)
    at.run()
    assert "BODY" not in [m.value for m in at.markdown] and not at.code
    at = AppTest.from_function(_lazy_app, default_timeout=60)
    at.query_params["rope_steps"] = "true"
    at.run()
    assert "BODY" in [m.value for m in at.markdown]
    assert not at.code                                       # the formula box is still closed: no source sent
