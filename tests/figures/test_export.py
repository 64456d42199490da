"""Every figure's numbers download as CSV with the right shape; exports use the screen's colour scale."""
import csv
import io

import numpy as np
import plotly.graph_objects as go
import pytest

from harness.apptest import figures, open_page
from harness.browser import page_paths
from posviz.figures import export, style


def _rows(text):
    return list(csv.reader(io.StringIO(text)))


def test_csv_has_one_header_row_and_one_row_per_point():
    z = np.arange(12, dtype=np.float32).reshape(3, 4)
    fig = go.Figure([style.heatmap(z, x=[10, 11, 12, 13], y=[0, 1, 2]),
                     go.Scatter(x=[0, 1, 2], y=[5, 6, 7], name="a"), go.Scatter(x=[0, 1], y=[1, 2], name="b")])
    rows = _rows(export.figure_csv(fig, "demo"))
    assert rows[0] == export.HEADER == ["figure", "trace", "x", "y", "z"]
    assert all(len(r) == 5 and r[0] == "demo" for r in rows[1:])
    cells, lines = rows[1:13], rows[13:]
    assert len(cells) == 12 and len(lines) == 5
    grid = {(float(r[2]), float(r[3])): float(r[4]) for r in cells}
    assert grid[(12.0, 1.0)] == z[1, 2] and grid[(10.0, 2.0)] == z[2, 0]
    assert [r[1] for r in lines] == ["a"] * 3 + ["b"] * 2
    assert [float(r[3]) for r in lines[:3]] == [5, 6, 7] and all(r[4] == "" for r in lines)


def test_csv_holds_the_real_numbers_not_the_plotted_ones():
    """An exact 0 drawn at a log axis's floor is exported as 0 (issue 14)."""
    err = np.array([0.0, 1e-6, 3e-3])
    fig = go.Figure(go.Scatter(x=[0, 1, 2], **style.real_values("y", np.maximum(err, 1e-9), err), name="err"))
    rows = _rows(export.figure_csv(fig))
    assert [float(r[3]) for r in rows[1:]] == pytest.approx([0.0, 1e-6, 3e-3], rel=1e-6)
    z = np.array([[0.0, 10.0], [100.0, 1.0]])
    real = {k: v for k, v in style.real_values("z", None, z).items() if k != "z"}
    fig = go.Figure(go.Heatmap(z=np.log10(np.maximum(z, 1e-9)), **real))
    cells = _rows(export.figure_csv(fig))[1:]
    assert sorted(float(r[4]) for r in cells) == [0.0, 1.0, 10.0, 100.0]


def test_csv_reads_the_cached_dict_spec_as_well_as_the_figure():
    fig = go.Figure([go.Scatter(x=np.arange(5, dtype=np.float32), y=np.linspace(0, 1, 5, dtype=np.float32), name="s"),
                     style.heatmap(np.eye(3))])
    assert export.figure_csv(style.freeze(fig)) == export.figure_csv(fig)


def test_diverging_heatmaps_are_centred_and_float32():
    tr = style.heatmap(np.random.default_rng(0).normal(size=(5, 5)))
    assert tr.zmid == 0 and tr.colorscale is not None
    assert np.asarray(tr.z).dtype == np.float32


def test_large_heatmaps_are_decimated():
    tr = style.heatmap(np.zeros((4096, 4096)))
    assert np.asarray(tr.z).size <= style.MAX_CELLS


def test_every_page_figure_exports_a_non_empty_csv():
    for path in page_paths():
        at = open_page((path or "overview").replace("-", "_"))
        for spec in figures(at):
            fig = go.Figure(spec)
            text = export.figure_csv(fig)
            if any(getattr(tr, "type", None) in ("heatmap", "scatter", "bar", "scatterpolar") for tr in fig.data):
                rows = _rows(text)
                title = spec.get("layout", {}).get("title")
                # the header is HEADER's five columns, x/y/z named as the figure names its axes (issue 26 item 20)
                assert rows[0][:2] == export.HEADER[:2] and len(rows) >= 2, f"/{path}: empty CSV for {title}"
                assert all(len(r) == len(export.HEADER) for r in rows), f"/{path}: ragged CSV"
                assert not any("&lt;" in c or "&gt;" in c or "&amp;" in c or "<br>" in c for r in rows for c in r), \
                    f"/{path}: HTML in the CSV of {title}"
                assert not any(r[1].startswith("trace") and r[1][5:].isdigit() for r in rows[1:]), \
                    f"/{path}: an unnamed trace in the CSV of {title}"
        n_csv = len(at.get("download_button"))
        assert n_csv >= len(figures(at)), f"/{path}: {len(figures(at))} figures but {n_csv} CSV buttons"


def test_the_header_and_the_trace_names_are_the_figures_own():
    """Issue 26 item 20: every file had the header figure,trace,x,y,z, heatmaps were "trace0" and the lab's
    labels read "0·&lt;pad&gt;"."""
    z = np.arange(6, dtype=np.float32).reshape(2, 3)
    labels = style.token_labels(["<pad>", "我", "爱"])
    fig = go.Figure([go.Heatmap(z=z, x=labels, y=labels[:2], colorbar={"title": {"text": "weight"}}),
                     go.Scatter(x=[0, 1], y=[1, 2], name="line <b>a</b>")],
                    layout={"title": {"text": "Attention<br>row by row"}, "xaxis": {"title": {"text": "key"}},
                            "yaxis": {"title": {"text": "query"}}})
    rows = _rows(export.figure_csv(fig, "k"))
    assert rows[0] == ["figure", "trace", "key", "query", "weight"]
    assert rows[1][1] == "weight" and rows[1][2] == "0·<pad>" and rows[-1][1] == "line a"
    two = go.Figure([go.Scatter(x=[0], y=[1], name="a"), go.Scatter(x=[0], y=[2], name="b", xaxis="x2")],
                    layout={"xaxis": {"title": {"text": "r"}}, "xaxis2": {"title": {"text": "t"}}})
    assert _rows(export.figure_csv(two))[0] == ["figure", "trace", "x: r / t", "y", "z"]
    assert export.plain("a &amp; b<br>c <sup>2</sup>") == "a & b c 2"


def test_page_csvs_name_their_axes():
    """On the pages: /decay's main chart names r and the score; the lab's attention map names its tokens
    without escapes."""
    at = open_page("decay")
    spec = next(f for f in figures(at) if "r = 0" in str(f["layout"].get("yaxis", {}).get("title")))
    head = _rows(export.figure_csv(go.Figure(spec)))[0]
    assert head[2] == "relative distance r (tokens)" and head[3] == "score ÷ its value at r = 0"
    at = open_page("lab")
    cells = [r for spec in figures(at) for r in _rows(export.figure_csv(go.Figure(spec)))[1:]
             if any(t.get("type") == "heatmap" for t in spec["data"])]
    assert cells and any("<pad>" in r[2] for r in cells)


# ---------------------------------------------------------------- digest: what a figure shows, in brief (issue 35)
def test_digest_of_a_line_gives_its_first_last_lowest_and_highest_point():
    fig = go.Figure(go.Scatter(x=[0, 1, 2, 3, 4], y=[1.0, 0.5, 0.25, 0.9, 0.3], name="score"),
                    layout={"xaxis": {"title": {"text": "distance"}}, "yaxis": {"title": {"text": "s"}}})
    (line,) = export.digest(fig)["traces"]
    assert line == {"kind": "line", "n": 5, "first": (0, 1.0), "last": (4, 0.3), "low": (2, 0.25), "high": (0, 1.0),
                    "name": "score", "names": ("distance", "s", "")}


def test_digest_leaves_out_gaps_decorations_drawings_and_text():
    """NaN gaps between segments are not points; a face drawn in neither legend nor hover, a caption trace and
    hands drawn on hidden axes are not data; an unnamed trace gets no name."""
    fig = go.Figure([go.Scatter(x=[0, 1, None, 5, 6], y=[2, 3, None, 9, 1], name="segments"),
                     go.Scatter(x=[0, 1], y=[0, 0], showlegend=False, hoverinfo="skip", name="face"),
                     go.Scatter(x=[0], y=[0], mode="text", text=["t = 3: q at 2"], name="step"),
                     go.Scatter(x=[0, 1], y=[0, 1], xaxis="x2", yaxis="y2", name="hand"),
                     go.Bar(x=["a", "b"], y=[3, 1])],
                    layout={"xaxis2": {"visible": False}, "yaxis2": {"visible": False},
                            "annotations": [{"text": "pair 0: θ=1", "x": 0, "y": 0}, {"text": "pair 0: θ=1"}]})
    d = export.digest(fig)
    seg, bars = d["traces"]
    assert (seg["name"], seg["n"], seg["first"], seg["last"], seg["low"], seg["high"]) == \
        ("segments", 4, (0, 2.0), (6, 1.0), (6, 1.0), (5, 9.0))
    assert bars["name"] == "" and bars["first"] == ("a", 3.0) and bars["low"] == ("b", 1.0)
    assert d["notes"] == ["pair 0: θ=1", "t = 3: q at 2"]          # each once, annotations first
    assert d["head"] == ["trace", "x", "y"]                          # no z column: no trace has one
    assert d["rows"] == [["segments", "0", "2"], ["segments", "1", "3"], ["segments", "5", "9"],
                         ["segments", "6", "1"], ["", "a", "3"], ["", "b", "1"]]


def test_digest_of_a_heatmap_gives_its_size_and_extreme_cells_in_real_values():
    z = np.array([[0.0, 10.0, 3.0], [100.0, 1.0, 5.0]])
    real = {k: v for k, v in style.real_values("z", None, z).items() if k != "z"}
    fig = go.Figure(go.Heatmap(z=np.log10(np.maximum(z, 1e-9)), x=["a", "b", "c"], y=[7, 8], **real,
                               colorbar={"title": {"text": "err"}}))
    d = export.digest(fig)
    (grid,) = d["traces"]
    assert (grid["kind"], grid["rows"], grid["cols"]) == ("grid", 2, 3)
    assert grid["low"] == ("a", 7, 0.0) and grid["high"] == ("a", 8, 100.0) and grid["names"] == ("", "", "err")
    assert d["head"] == ["trace", "x", "y", "err"] and len(d["rows"]) == 6 and d["rows"][3] == ["err", "a", "8", "100"]


def test_digest_gives_rows_only_for_a_small_figure():
    small = go.Figure(go.Scatter(x=np.arange(export.SMALL), y=np.arange(export.SMALL), name="a"))
    big = go.Figure(go.Scatter(x=np.arange(export.SMALL + 1), y=np.arange(export.SMALL + 1), name="a"))
    assert len(export.digest(small)["rows"]) == export.SMALL
    assert export.digest(big)["rows"] is None and export.digest(big)["head"] is None
    assert export.digest(style.freeze(big)) == export.digest(big)          # the cached dict spec reads the same


# ---------------------------------------------------------------- contrast (issue 35)
def test_contrast_is_wcag_2s_ratio():
    assert style.contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert style.contrast("#ffffff", "#ffffff") == pytest.approx(1.0)
    assert style.contrast("#767676", "#fff") == pytest.approx(4.54, abs=0.01)    # the lightest grey at 4.5:1
    assert style.contrast("#828180", "#ffffff") == pytest.approx(3.88, abs=0.01)  # Streamlit's caption (issue 35)
    assert style.luminance("#ff0000") == pytest.approx(0.2126) and style.luminance("#00ff00") == pytest.approx(0.7152)


def test_readable_darkens_a_colour_just_enough_for_text():
    assert style.readable("#0072B2") == "#0072B2"                      # 5.2:1 already
    for c in ("#D55E00", "#E69F00", "#009E73", "#56B4E9", "#F0E442"):   # the Okabe-Ito colours below 4.5:1
        out = style.readable(c)
        assert style.contrast(out, "#ffffff") >= style.TEXT_CONTRAST
        brighter = "#" + "".join(f"{min(255, int(out[i:i + 2], 16) + 2):02x}" for i in (1, 3, 5))
        assert style.contrast(brighter, "#ffffff") < style.TEXT_CONTRAST + 0.15     # no darker than it needs
        rgb, got = style._rgb(c), style._rgb(out)
        ratios = [g / v for g, v in zip(got, rgb) if v > 40]
        assert max(ratios) - min(ratios) < 0.04                          # the same hue, scaled
