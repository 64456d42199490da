"""Figures of the RoPE + KV cache page."""
import numpy as np

from posviz.lab import kv_cache as kc
from posviz.figures import kv_cache as figs
from posviz.views import kv_cache as V

LABELS = {f"mode.{m}": m for m in kc.MODES} | {"title": "t", "x": "x", "y": "y", "allowed": "tolerance",
                                               "precision": "dtype vs float32", "prefill": "prefill", "query": "q"}


def _error_fig(length, prefill, dtype="float32"):
    r = kc.compare_modes(length, prefill, heads=2, head_dim=16, dtype=dtype)
    return r, figs.error_figure(r["positions"], r["errors"], prefill_length=prefill, labels=LABELS,
                                allowed=r["allowed"], precision=r["precision"])


def test_error_figure_traces_and_log_axis():
    r, fig = _error_fig(8, 4)
    names = [t.name for t in fig.data]
    assert names[:4] == list(kc.MODES) and "tolerance" in names
    assert "dtype vs float32" not in names        # float32: the precision line is identically 0, not drawn
    assert fig.layout.yaxis.type == "log"
    assert all(t.type == "scatter" for t in fig.data)
    assert min(min(t.y) for t in fig.data) >= np.float32(figs.FLOOR)   # exact zeros lifted to the floor ...
    np.testing.assert_allclose(fig.data[0].customdata, r["errors"]["correct"], rtol=1e-6)   # ... the CSV keeps 0
    assert fig.data[0].customdata[0] == 0
    assert len(fig.to_json()) < 300_000


def test_titles_sit_below_the_toolbar_and_legends_below_the_plot():
    _, fig = _error_fig(8, 4)
    assert fig.layout.title.text == "t" and fig.layout.title.yanchor == "top" and fig.layout.title.y < 1
    assert fig.layout.legend.orientation == "h" and fig.layout.legend.y < 0


def test_error_figure_low_precision_has_precision_line():
    _, fig = _error_fig(8, 2, "bfloat16")
    assert "dtype vs float32" in [t.name for t in fig.data]


def test_error_figure_payload_at_max():
    _, fig = _error_fig(96, 1)
    assert len(fig.to_json()) < 2_000_000


def test_positions_figure():
    r = kc.compare_modes(6, 4)
    last = {m: V.read_positions_at(r, m) for m in kc.MODES}
    fig = figs.positions_figure({m: last[m][0] for m in kc.MODES}, {m: last[m][1] for m in kc.MODES},
                                labels=LABELS)
    assert len(fig.data) == 8                      # one line + one query level per mode
    assert list(fig.data[0].y) == [0, 1, 2, 3, 4, 5]
    assert list(fig.data[2].y) == [0, 1, 2, 3, 0, 0]           # restart
    assert len(fig.to_json()) < 300_000
