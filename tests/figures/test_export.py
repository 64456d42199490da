"""Every figure's numbers download as CSV with the right shape; exports use the screen's colour scale."""
import csv
import io

import numpy as np
import plotly.graph_objects as go

from posviz.figures import export, style


def _rows(text):
    return list(csv.reader(io.StringIO(text)))


def test_heatmap_csv_has_one_row_per_y_and_one_column_per_x():
    z = np.arange(12, dtype=np.float32).reshape(3, 4)
    fig = go.Figure(style.heatmap(z, x=[10, 11, 12, 13], y=[0, 1, 2]))
    rows = _rows(export.figure_csv(fig))
    assert rows[1] == ["y\\x", "10", "11", "12", "13"]
    grid = np.array([[float(v) for v in r[1:]] for r in rows[2:]])
    assert grid.shape == (3, 4)
    np.testing.assert_allclose(grid, z)


def test_line_csv_has_one_row_per_point_per_trace():
    fig = go.Figure([go.Scatter(x=[0, 1, 2], y=[5, 6, 7], name="a"), go.Scatter(x=[0, 1], y=[1, 2], name="b")])
    rows = _rows(export.figure_csv(fig))
    data = [r for r in rows if not r[0].startswith("#")]
    assert len(data) == 5
    assert [r[1] for r in data] == ["a"] * 3 + ["b"] * 2
    assert [float(r[3]) for r in data[:3]] == [5, 6, 7]


def test_diverging_heatmaps_are_centred_and_float32():
    tr = style.heatmap(np.random.default_rng(0).normal(size=(5, 5)))
    assert tr.zmid == 0 and tr.colorscale is not None
    assert np.asarray(tr.z).dtype == np.float32


def test_large_heatmaps_are_decimated():
    tr = style.heatmap(np.zeros((4096, 4096)))
    assert np.asarray(tr.z).size <= style.MAX_CELLS


def test_every_page_figure_exports_a_non_empty_csv():
    from browser_util import page_paths
    from conftest import figures, open_page

    for path in page_paths():
        at = open_page((path or "overview").replace("-", "_"))
        for spec in figures(at):
            fig = go.Figure(spec)
            text = export.figure_csv(fig)
            if any(getattr(tr, "type", None) in ("heatmap", "scatter", "bar", "scatterpolar") for tr in fig.data):
                assert len(_rows(text)) >= 2, f"/{path}: empty CSV for {spec.get('layout', {}).get('title')}"
        n_csv = len(at.get("download_button"))
        assert n_csv >= len(figures(at)), f"/{path}: {len(figures(at))} figures but {n_csv} CSV buttons"
