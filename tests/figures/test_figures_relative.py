"""posviz.figures.relative: trace types, shapes, fixed scales, payload sizes."""
import numpy as np

from posviz.pe import relative as R
from posviz.figures import relative as F

AX = dict(x_title="key j", y_title="query i")


def data(L, S, k=3, nb=32, md=128, H=8, h=1, bidir=True):
    i, j = R.shifted_positions(L, S, shift=0)
    kw = dict(bidirectional=bidir, num_buckets=nb, max_distance=md)
    d, b = R.t5_bucket_curve(**kw)
    return dict(
        D=R.relative_distance(L, S).numpy(), qpos=i.numpy(), kpos=j.numpy(),
        idx=R.shaw_relative_index(L, S, max_distance=k).numpy(),
        lost=R.shaw_lost_distance(L, S, max_distance=k).numpy(),
        clipped=R.shaw_clipped_distance(L, S, max_distance=k).numpy(),
        buckets=R.t5_bucket_matrix(L, S, **kw).numpy(), curve_d=d.numpy(), curve_b=b.numpy(),
        rep=R.t5_representative_distance(L, S, **kw).numpy(),
        me=R.t5_max_exact(bidirectional=bidir, num_buckets=nb),
        slopes=R.alibi_slopes(H).numpy(), n_base=R.alibi_base_heads(H),
        bias=R.alibi_head_bias(H, h, L, S).numpy(),
        mask=R.causal_mask(L, S).numpy(), uniform=R.nope_uniform_attention(L, S).numpy(),
    )


def build_all(x, k=3, md=128, bidir=True):
    return dict(
        distance=F.matrix(x["D"], query_pos=x["qpos"], key_pos=x["kpos"], title="d", colorbar_title="i-j", **AX),
        shaw=F.shaw(x["idx"], x["lost"], k=k, query_pos=x["qpos"], titles=["a", "b"], colorbar_titles=["r", "s"], **AX),
        t5_matrix=F.matrix(x["buckets"], query_pos=x["qpos"], title="b", colorbar_title="b", diverging=False,
                           zmin=0, zmax=31, **AX),
        t5_step=F.t5_step(x["curve_d"], x["curve_b"], max_exact=x["me"], max_distance=md, bidirectional=bidir,
                          title="s", x_title="d", y_title="b", exact_label="e", log_label="l", max_label="m",
                          bucket_label="b"),
        slopes=F.alibi_slopes(x["slopes"], n_base=x["n_base"], title="m", x_title="h", y_title="m",
                              base_label="a", fill_label="b"),
        bias=F.matrix(x["bias"], query_pos=x["qpos"], title="b", colorbar_title="b", **AX),
        mask=F.mask(x["mask"], x["uniform"], query_pos=x["qpos"], titles=["m", "u"], line_x_title="i",
                    line_y_title="w", allowed_label="a", weight_label="w", **AX),
        side=F.side_by_side([x["D"], x["clipped"], x["rep"]], x["bias"], query_pos=x["qpos"],
                            titles=["a", "b", "c"], alibi_title="d", colorbar_title="t", alibi_colorbar_title="l", **AX),
    )


def test_trace_types_and_shapes_default():
    x = data(12, 12)
    figs = build_all(x)
    dist = figs["distance"].data[0]
    assert dist.type == "heatmap" and np.asarray(dist.z).shape == (12, 12)
    assert dist.zmid == 0 and dist.zmin == -11 and dist.zmax == 11          # symmetric, diverging
    assert dist.text is not None                                             # small: numbers in the cells
    assert [t.type for t in figs["shaw"].data] == ["heatmap", "heatmap"]
    assert figs["shaw"].data[0].zmin == 0 and figs["shaw"].data[0].zmax == 6  # rows 0..2k
    assert [t.type for t in figs["t5_step"].data] == ["scatter"]
    assert figs["t5_step"].data[0].line.shape == "hv"
    assert len(figs["t5_step"].layout.shapes) == 3                           # exact band + two +-max_distance lines
    assert [t.type for t in figs["slopes"].data] == ["bar"]
    assert figs["slopes"].layout.yaxis.type == "log"
    assert [t.type for t in figs["mask"].data] == ["heatmap", "scatter"]
    assert np.allclose(figs["mask"].data[1].y, 1 / (np.arange(12) + 1))
    assert [t.type for t in figs["side"].data] == ["heatmap"] * 4


def test_side_by_side_shares_one_scale():
    x = data(10, 30, k=2, nb=16, md=20, H=12, h=12)
    fig = build_all(x, k=2, md=20)["side"]
    tokens = fig.data[:3]
    assert len({(t.zmin, t.zmax) for t in tokens}) == 1                       # one scale for the distance panels
    assert tokens[0].zmin == -tokens[0].zmax == -29
    assert all(t.zmid == 0 for t in fig.data)
    assert [t.showscale for t in fig.data] == [True, False, False, True]      # one colour bar per scale
    alibi = fig.data[3]
    assert alibi.zmin == -alibi.zmax


def test_alibi_slopes_colours_fill_heads():
    x = data(4, 4, H=12)
    fig = build_all(x)["slopes"]
    assert [len(t.y) for t in fig.data] == [8, 4]
    assert list(fig.data[1].x) == [9, 10, 11, 12]


def test_t5_causal_step_single_line():
    x = data(6, 6, bidir=False)
    fig = build_all(x, bidir=False)["t5_step"]
    assert len(fig.layout.shapes) == 2                                        # exact band + one max line


def test_payload_default_small():
    figs = build_all(data(12, 12))
    for name, f in figs.items():
        assert len(f.to_json()) < 300_000, name


def test_payload_max_within_budget():
    x = data(256, 512, k=64, nb=128, md=1024, H=128, h=128)
    figs = build_all(x, k=64, md=1024)
    for name, f in figs.items():
        size = len(f.to_json())
        assert size < 2_000_000, (name, size)
    z = np.asarray(figs["distance"].data[0].z)
    assert z.size <= 160_000 and z.shape[0] == 256                           # decimated to screen resolution
    assert np.array_equal(z, x["D"][:, ::2])                                 # by striding: values stay exact
    assert figs["distance"].data[0].text is None                             # no per-cell text when large
    side = figs["side"]
    assert sum(np.asarray(t.z).size for t in side.data) <= 160_000           # 4 panels share the cell budget
