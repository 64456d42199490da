"""posviz.figures.sinusoidal: trace types, shapes, fixed scales, one panel per figure, payload sizes, and
every builder valid plotly (they skip plotly's validation)."""
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from posviz.figures import export, style
from posviz.figures import sinusoidal as figs
from posviz.pe import learned
from posviz.pe import sinusoidal as sn

WAVES = dict(title="t", x="x", y="y", dim="dim {d} ({kind})", sin="sin", cos="cos")
FP = dict(title="h", value="v", x="x", y="y")
COLUMN = dict(title="PE(3)", y="y")
SIM = dict(title="t", x="x", y="y")
DOT = dict(title="t", x="x", y="y", formula="f", anchor="m={m}")
MATRIX = dict(title="M {k}")
VECTORS = dict(title="v", pe_p="a", target="b", rotated="c", x="d")
TITLE = dict(title="t")
LAY = dict(title="i", x="x", y="y")
MOD = dict(title="t", x="x", y="y", correct="ok", modulo="bug", no_row="none", last_row="last {r}")


def size_kb(fig):
    return len(fig.to_json()) / 1024


def test_waveforms():
    pe = sn.sinusoidal_positions(100, 64).numpy()
    fig = figs.waveforms(pe, [0, 1, 62, 999], position=3, labels=WAVES)
    assert [t.type for t in fig.data] == ["scatter"] * 3              # dim 999 >= D is skipped
    assert fig.data[0].name == "dim 0 (sin)" and fig.data[1].name == "dim 1 (cos)"
    np.testing.assert_allclose(fig.data[2].y, pe[:, 62], atol=1e-6)
    assert len(fig.layout.shapes) == 1                                 # the fingerprint marker


def test_fingerprint_is_the_column():
    pe = sn.sinusoidal_positions(32, 16).numpy()
    (hm,) = figs.fingerprint_table(pe, 3, labels=FP).data
    (bar,) = figs.fingerprint_column(pe[3], labels=COLUMN).data
    assert hm.type == "heatmap" and bar.type == "bar"
    z = np.asarray(hm.z)
    assert z.shape == (16, 32)                                          # rows = dimension
    np.testing.assert_allclose(z[:, 3], np.asarray(bar.x), atol=1e-6)
    assert hm.zmin == -1 and hm.zmax == 1 and hm.zmid == 0
    assert list(np.asarray(bar.y)) == list(np.asarray(hm.y))            # the bars sit on the heatmap's rows


def test_heatmaps_never_drop_cos_columns():
    """Large tables are decimated along positions only: every dimension stays."""
    pe = sn.sinusoidal_positions(1024, 256).numpy()
    fig = figs.fingerprint_table(pe, 0, labels=FP)
    assert np.asarray(fig.data[0].z).shape[0] == 256
    fig = figs.layout_table(pe, labels=LAY)
    assert np.asarray(fig.data[0].z).shape[1] == 256


def test_similarity_symmetric_scale():
    s = sn.similarity_matrix(50, 16).numpy()
    fig = figs.similarity(s, labels=SIM)
    hm = fig.data[0]
    assert hm.zmid == 0 and hm.zmin == -hm.zmax and hm.zmax == pytest.approx(8.0)


def test_dot_vs_offset_traces():
    d = sn.dot_by_offset(99, 16).numpy()
    a = sn.anchored_dot_by_offset([0, 37], 99, 16).numpy()
    fig = figs.dot_vs_offset(d, a, [0, 37], labels=DOT)
    assert [t.mode for t in fig.data] == ["lines", "markers", "markers"]
    assert fig.data[1].name == "m=0"
    legend = fig.layout.legend
    assert legend.orientation == "h" and legend.yref == "container" and legend.y == 0     # under the axis title


def test_shift_rotation_figure():
    pe_p, rotated, target, _ = sn.shift_check(5, 3, 64)
    m = sn.shift_rotation_matrix(3, 64).numpy()
    fig = figs.shift_matrix(m, labels=MATRIX)
    assert fig.data[0].type == "heatmap" and np.asarray(fig.data[0].z).shape == (16, 16)
    assert fig.layout.title.text == "M 16"
    fig = figs.shift_vectors(pe_p, rotated, target, labels=VECTORS)
    np.testing.assert_allclose(fig.data[2].y, fig.data[1].y, atol=1e-5)   # markers on the target


def test_shift_blocks_latex_holds_the_live_numbers():
    blocks = {0: sn.shift_rotation_2x2(3, 1.0).numpy(), 7: sn.shift_rotation_2x2(3, 0.001).numpy()}
    tex = figs.shift_blocks_latex(blocks)
    assert r"M_{0}(\Delta) = \begin{bmatrix}" in tex and r"M_{7}(\Delta)" in tex
    assert tex.index("M_{0}") < tex.index(r"\\[6pt]") < tex.index("M_{7}")        # one block per line
    assert f"{np.cos(3.0):+.4f}" in tex and f"{np.sin(3.0):+.4f}" in tex


def test_hand_table_figure():
    pe, dots = sn.single_frequency_table()
    fig = figs.hand_circle(pe.numpy(), labels=TITLE)
    assert [t.type for t in fig.data] == ["scatter", "scatter"]
    fig = figs.hand_dots(dots.numpy(), labels=TITLE)
    assert np.asarray(fig.data[0].z).tolist() == dots.tolist()


def test_modulo_figure():
    rows = learned.modulo_position_ids(30, 8).numpy()
    fig = figs.modulo_rows(30, 8, rows, labels=MOD)
    assert fig.data[0].name == "ok" and len(fig.data[0].x) == 8         # the correct line stops at M-1
    assert np.asarray(fig.data[1].y).tolist() == rows.tolist()
    assert len(fig.layout.shapes) == 2                                  # no-row band + last-row line
    fig = figs.modulo_rows(8, 8, learned.modulo_position_ids(8, 8).numpy(), labels=MOD)
    assert len(fig.layout.shapes) == 1                                  # no overrun, no band


def test_layout_panels_share_the_fixed_scale():
    """Interleaved and concat are compared colour for colour: both fixed at [-1, 1] (one colorbar)."""
    a = figs.layout_table(sn.sinusoidal_positions(40, 8).numpy(), labels=LAY, colorbar=False)
    b = figs.layout_table(sn.sinusoidal_positions(40, 8, layout="concat").numpy(), labels=LAY)
    for fig in (a, b):
        assert (fig.data[0].zmin, fig.data[0].zmax) == figs.PE_RANGE
    assert not a.data[0].showscale and b.data[0].showscale


def test_every_builder_draws_one_panel():
    """Phone-safe: no builder makes side-by-side subplots (the page puts panels in st.columns)."""
    pe = sn.sinusoidal_positions(30, 16).numpy()
    pe_p, rotated, target, _ = sn.shift_check(5, 3, 16)
    h_pe, h_dots = sn.single_frequency_table()
    built = [figs.waveforms(pe, [0, 1], labels=WAVES), figs.fingerprint_table(pe, 3, labels=FP),
             figs.fingerprint_column(pe[3], labels=COLUMN),
             figs.similarity(sn.similarity_matrix(30, 16).numpy(), labels=SIM),
             figs.shift_matrix(sn.shift_rotation_matrix(3, 16).numpy(), labels=MATRIX),
             figs.shift_vectors(pe_p, rotated, target, labels=VECTORS), figs.hand_circle(h_pe.numpy(), labels=TITLE),
             figs.hand_dots(h_dots.numpy(), labels=TITLE), figs.layout_table(pe, labels=LAY),
             figs.modulo_rows(30, 8, learned.modulo_position_ids(30, 8).numpy(), labels=MOD)]
    for fig in built:
        assert not any(k.startswith(("xaxis2", "yaxis2")) for k in fig.to_plotly_json()["layout"])
        assert all(getattr(tr, "xaxis", None) in (None, "x") for tr in fig.data)


def test_freeze_thaw_round_trip_keeps_numbers_and_csv():
    """ui.plot caches the figure as a dict (style.freeze) and may rebuild it (style.thaw)."""
    pe = sn.sinusoidal_positions(20, 8).numpy()
    fig = figs.fingerprint_table(pe, 3, labels=FP)
    back = style.thaw(style.freeze(fig))
    assert isinstance(back, go.Figure)
    assert export.figure_csv(back) == export.figure_csv(fig)
    np.testing.assert_array_equal(np.asarray(back.data[0].z), np.asarray(fig.data[0].z))


def test_payload_sizes():
    default = [
        figs.fingerprint_table(sn.sinusoidal_positions(100, 64).numpy(), 3, labels=FP),
        figs.similarity(sn.similarity_matrix(100, 64).numpy(), labels=SIM),
        figs.layout_table(sn.sinusoidal_positions(100, 64).numpy(), labels=LAY),
    ]
    assert max(size_kb(f) for f in default) < 300
    pe = sn.sinusoidal_positions(1024, 256).numpy()
    biggest = [
        figs.fingerprint_table(pe, 0, labels=FP),
        figs.similarity(sn.similarity_matrix(1024, 256).numpy(), labels=SIM),
        figs.layout_table(pe, labels=LAY),
        figs.waveforms(pe, list(range(8)), labels=WAVES),
        figs.modulo_rows(2048, 1024, learned.modulo_position_ids(2048, 1024).numpy(), labels=MOD),
    ]
    assert max(size_kb(f) for f in biggest) < 2048


def validated_equals_built(fig):
    """plotly's validation raises on a wrong property and expands what plotly.js does not know (a named
    colour scale such as "RdBu_r"): the validated figure must be exactly the one built."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


def every_builder(L, D, base, position, M, LL, title="t"):
    """Every builder of the module, with each of its options, on one set of page values."""
    pe = sn.sinusoidal_positions(L, D, base=base).numpy()
    pe_p, rotated, target, _ = sn.shift_check(5, 3, D, base=base)
    h_pe, h_dots = sn.single_frequency_table()
    lab = dict(WAVES, title=title)
    yield from (
        figs.waveforms(pe, [0, 1, 62, 999], position=position, labels=lab),
        figs.waveforms(pe, list(range(D)), labels=lab),
        figs.fingerprint_table(pe, position, labels=dict(FP, title=title)),
        figs.fingerprint_column(sn.sinusoidal_positions(1, D, base=base, offset=position).numpy()[0], labels=COLUMN),
        figs.similarity(sn.similarity_matrix(L, D, base=base).numpy(), labels=dict(SIM, title=title)),
        figs.dot_vs_offset(sn.dot_by_offset(L - 1, D, base=base).numpy(),
                           sn.anchored_dot_by_offset([0, 37, 1000], L - 1, D, base=base).numpy(), [0, 37, 1000],
                           labels=DOT),
        figs.shift_matrix(sn.shift_rotation_matrix(3, D, base=base).numpy(), labels=MATRIX),
        figs.shift_vectors(pe_p, rotated, target, labels=dict(VECTORS, title=title)),
        figs.hand_circle(h_pe.numpy(), labels=dict(title=title)),
        figs.hand_dots(h_dots.numpy(), labels=dict(title=title)),
        figs.layout_table(pe, labels=LAY),
        figs.layout_table(sn.sinusoidal_positions(L, D, base=base, layout="concat").numpy(), labels=LAY,
                          colorbar=False),
        figs.modulo_rows(LL, M, learned.modulo_position_ids(LL, M).numpy(), labels=MOD))


LONG_TITLE = "位置编码的指纹：每个位置一列，交错排列 " * 3


@pytest.mark.parametrize("values", [(30, 16, 10000.0, 3, 8, 30), (4, 2, 10.0, 9, 16, 16), (100, 64, 1e6, 50, 200, 300),
                                    (1024, 256, 10000.0, 4096, 1, 2048)])
@pytest.mark.parametrize("title", ["t", LONG_TITLE])
def test_every_figure_is_valid_plotly(values, title):
    """The builders skip plotly's validation for speed: validate what they build here, every builder and
    option, in lecture mode too (style.presentation, as ui.plot applies it)."""
    for fig in every_builder(*values, title=title):
        assert validated_equals_built(fig), fig.layout.title.text
        go.Figure(style.presentation(fig).to_dict())
        assert validated_equals_built(fig)


def test_titles_wrap_under_the_toolbar():
    """A long title wraps (style.wrap) and the top margin grows with its lines (style.layout, title_at="phone")."""
    short = figs.similarity(sn.similarity_matrix(8, 4).numpy(), labels=SIM)
    long = figs.similarity(sn.similarity_matrix(8, 4).numpy(), labels=dict(SIM, title=LONG_TITLE))
    assert short.layout.title.yref == "container" and short.layout.title.text == "t"
    assert long.layout.title.text.count("<br>") >= 2 and long.layout.margin.t > short.layout.margin.t
    narrow = figs.shift_matrix(sn.shift_rotation_matrix(3, 4).numpy(), labels=dict(title=LONG_TITLE))
    assert narrow.layout.title.text.count("<br>") > long.layout.title.text.count("<br>")   # narrow column
