"""posviz.figures.sinusoidal: trace types, shapes, fixed scales and payload sizes."""
import numpy as np
import plotly.graph_objects as go
import pytest

from posviz.pe import learned
from posviz.pe import sinusoidal as sn
from posviz.figures import export, sinusoidal as figs

WAVES = dict(title="t", x="x", y="y", dim="dim {d} ({kind})", sin="sin", cos="cos")
FP = dict(heatmap="h", slice="PE({p})", value="v", x="x", y="y")
SIM = dict(title="t", x="x", y="y")
DOT = dict(title="t", x="x", y="y", formula="f", anchor="m={m}")
SHIFT = dict(matrix="M {k}", vectors="v", pe_p="a", target="b", rotated="c", dim="d")
HAND = dict(circle="c", dots="d")
LAY = dict(interleaved="i", concat="c", x="x", y="y")
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
    fig = figs.fingerprint(pe, pe[3], 3, labels=FP)
    hm, bar = fig.data
    assert hm.type == "heatmap" and bar.type == "bar"
    z = np.asarray(hm.z)
    assert z.shape == (16, 32)                                          # rows = dimension
    np.testing.assert_allclose(z[:, 3], np.asarray(bar.x), atol=1e-6)
    assert hm.zmin == -1 and hm.zmax == 1 and hm.zmid == 0


def test_heatmaps_never_drop_cos_columns():
    """Large tables are decimated along positions only: every dimension stays."""
    pe = sn.sinusoidal_positions(1024, 256).numpy()
    fig = figs.fingerprint(pe, pe[0], 0, labels=FP)
    assert np.asarray(fig.data[0].z).shape[0] == 256
    fig = figs.layouts(pe, pe, labels=LAY)
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


def test_shift_rotation_figure():
    pe_p, rotated, target, _ = sn.shift_check(5, 3, 64)
    m = sn.shift_rotation_matrix(3, 64).numpy()
    fig = figs.shift_rotation(m, pe_p, rotated, target, labels=SHIFT)
    assert fig.data[0].type == "heatmap" and np.asarray(fig.data[0].z).shape == (16, 16)
    np.testing.assert_allclose(fig.data[3].y, fig.data[2].y, atol=1e-5)   # markers on the target


def test_hand_table_figure():
    pe, dots = sn.single_frequency_table()
    fig = figs.hand_table(pe.numpy(), dots.numpy(), labels=HAND)
    assert [t.type for t in fig.data] == ["scatter", "scatter", "heatmap"]
    assert np.asarray(fig.data[2].z).tolist() == dots.tolist()


def test_modulo_figure():
    rows = learned.modulo_position_ids(30, 8).numpy()
    fig = figs.modulo_rows(30, 8, rows, labels=MOD)
    assert fig.data[0].name == "ok" and len(fig.data[0].x) == 8         # the correct line stops at M-1
    assert np.asarray(fig.data[1].y).tolist() == rows.tolist()
    assert len(fig.layout.shapes) == 2                                  # no-row band + last-row line
    fig = figs.modulo_rows(8, 8, learned.modulo_position_ids(8, 8).numpy(), labels=MOD)
    assert len(fig.layout.shapes) == 1                                  # no overrun, no band


def test_revive_round_trip_keeps_numbers_and_csv():
    pe = sn.sinusoidal_positions(20, 8).numpy()
    fig = figs.fingerprint(pe, pe[3], 3, labels=FP)
    back = figs.revive(figs.to_cacheable(fig))
    assert isinstance(back, go.Figure)
    assert export.figure_csv(back) == export.figure_csv(fig)
    np.testing.assert_array_equal(np.asarray(back.data[0].z), np.asarray(fig.data[0].z))


def test_payload_sizes():
    default = [
        figs.fingerprint(sn.sinusoidal_positions(100, 64).numpy(), np.zeros(64), 3, labels=FP),
        figs.similarity(sn.similarity_matrix(100, 64).numpy(), labels=SIM),
        figs.layouts(sn.sinusoidal_positions(100, 64).numpy(), sn.sinusoidal_positions(100, 64).numpy(), labels=LAY),
    ]
    assert max(size_kb(f) for f in default) < 300
    pe = sn.sinusoidal_positions(1024, 256).numpy()
    biggest = [
        figs.fingerprint(pe, pe[0], 0, labels=FP),
        figs.similarity(sn.similarity_matrix(1024, 256).numpy(), labels=SIM),
        figs.layouts(pe, pe, labels=LAY),
        figs.waveforms(pe, list(range(8)), labels=WAVES),
        figs.modulo_rows(2048, 1024, learned.modulo_position_ids(2048, 1024).numpy(), labels=MOD),
    ]
    assert max(size_kb(f) for f in biggest) < 2048
