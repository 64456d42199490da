"""posviz.views' own machinery: the cache keyed on the arguments' digest (with Streamlit's backends, as
posviz.ui installs them)."""
import numpy as np
import streamlit as st

from posviz import views

calls = []


@views.cached
def _copied(a, b=1.0, *, arr=None):
    calls.append(("copied", a, b))
    return {"a": a, "list": [a, b], "arr": arr}


@views.cached(shared=True)
def _shared(a):
    calls.append(("shared", a))
    return {"a": a}


def test_a_view_runs_once_per_distinct_arguments(monkeypatch):
    monkeypatch.setattr(views, "_backends", {"copy": st.cache_data, "shared": st.cache_resource})
    st.cache_data.clear()
    st.cache_resource.clear()
    calls.clear()
    first = _copied(1, 2.0, arr=np.arange(3))
    again = _copied(1, 2.0, arr=np.arange(3))
    assert calls == [("copied", 1, 2.0)] and first["list"] == again["list"] == [1, 2.0]
    assert first is not again                                   # st.cache_data: a copy per hit
    again["list"].append("mutated")
    assert _copied(1, 2.0, arr=np.arange(3))["list"] == [1, 2.0]
    _copied(1, 2.0, arr=np.arange(4))                            # a different array: computed
    _copied(1, 2)                                                # 2 is not 2.0: computed
    _copied(1, b=2.0)                                            # keyword vs positional: computed
    assert len(calls) == 4
    assert _shared(5) is _shared(5) and calls[-1] == ("shared", 5) and len(calls) == 5
    assert _copied.uncached(7)["a"] == 7


def test_without_backends_views_run_uncached(monkeypatch):
    monkeypatch.setattr(views, "_backends", {})

    @views.cached
    def fresh(a):
        calls.append(("fresh", a))
        return a
    calls.clear()
    fresh(3)
    fresh(3)
    assert calls == [("fresh", 3)] * 2
