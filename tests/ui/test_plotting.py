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


def test_a_wide_table_is_drawn_long_on_a_phone():
    """Issue 26 item 19: the /models gallery (10 columns) showed 3 on a phone. Drawn long, a row per cell under its
    row's first cell and its column's name: every column is read in three."""
    data = [{"model": "A", "released": "2024-07-23", "head_dim": 128, "theta": None},
            {"model": "B", "released": "2023-09-27", "head_dim": 64, "theta": 1e6}]
    long = plotting.long_table.uncached(data, "column", "value")
    assert long == {"model": ["A"] * 3 + ["B"] * 3, "column": ["released", "head_dim", "theta"] * 2,
                    "value": ["2024-07-23", "128", "", "2023-09-27", "64", "1000000.0"]}
    assert plotting.long_table.uncached({"k": ["x"], "v": [1]}, "c", "w") == {"k": ["x"], "c": ["v"], "w": ["1"]}


def _wide_table_app():
    import streamlit as st

    from posviz import ui
    from posviz.ui import frame
    st.session_state["_phone"] = st.query_params.get("phone") == "1"     # as frame.start reads a phone's agent
    frame.start()
    ui.table([{f"c{j}": i * 10 + j for j in range(10)} for i in range(3)])


@pytest.mark.parametrize("on_phone", [False, True])
def test_the_gallery_table_shows_every_column_on_a_phone(on_phone):
    at = AppTest.from_function(_wide_table_app, default_timeout=60)
    if on_phone:
        at.query_params["phone"] = "1"
    at.run()
    assert not at.exception
    (df,) = at.dataframe
    cols = list(df.value.columns)
    if on_phone:       # three columns: the row's first cell, the column's name, the value
        assert cols == ["c0", "column", "value"] and len(df.value) == 3 * 9
        assert df.value.iloc[0].tolist() == [0, "c1", "1"] and df.value.iloc[-1].tolist() == [20, "c9", "29"]
    else:
        assert cols == [f"c{j}" for j in range(10)] and len(df.value) == 3
