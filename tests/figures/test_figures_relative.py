"""posviz.figures.relative: trace types, shapes, fixed scales, payload sizes; one figure per panel."""
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from posviz.figures import relative as F
from posviz.figures import style
from posviz.views import relative as V

AX = dict(x="key j", y="query i")


def lab(**kw):
    return {**AX, "title": "t", "colorbar": "c", **kw}


def data(L, S, k=3, nb=32, md=128, H=8, h=1, bidir=True):
    return dict(pos=V.positions.uncached(L, S, 0), shaw=V.shaw.uncached(L, S, k),
                t5=V.t5.uncached(L, S, bidir, nb, md), alibi=V.alibi.uncached(H, h, L, S), mask=V.mask.uncached(L, S))


def build_all(x, md=128, bidir=True):
    p = x["pos"]
    q, kp = p["query_pos"], p["key_pos"]
    cells = F.PANEL_CELLS
    side = [F.matrix(z, q, kp, labels=lab(), zmin=rng[0], zmax=rng[1], max_cells=cells, text_cols=0)
            for z, rng in ((p["distance"], p["zrange"]), (x["shaw"]["clipped"], p["zrange"]),
                           (x["t5"]["representative"], p["zrange"]), (x["alibi"]["bias"], x["alibi"]["bias_range"]))]
    return dict(
        distance=F.matrix(p["distance"], q, kp, labels=lab(), text_cols=32, max_cells=F.FULL_CELLS),
        shaw=F.matrix(x["shaw"]["index"], q, kp, labels=lab(), scale="sequential", zmin=0,
                      zmax=x["shaw"]["index_max"], max_cells=cells),
        shaw_lost=F.matrix(x["shaw"]["lost"], q, kp, labels=lab(), scale="oranges", zmin=0,
                           zmax=x["shaw"]["lost_max"], max_cells=cells),
        t5_matrix=F.matrix(x["t5"]["buckets"], q, kp, labels=lab(), scale="sequential", zmin=0, zmax=x["t5"]["top"],
                           max_cells=cells),
        t5_step=F.t5_step(x["t5"]["curve_d"], x["t5"]["curve_b"], max_exact=x["t5"]["max_exact"], max_distance=md,
                          bidirectional=bidir, labels=dict(title="s", x="d", y="b", trace="b", exact="e", log="l",
                                                           max="m")),
        slopes=F.slope_bars(x["alibi"]["slopes"], n_base=x["alibi"]["n_base"], selected=x["alibi"]["head"],
                            labels=dict(title="m", x="h", y="m", base="a", fill="b")),
        bias=F.matrix(x["alibi"]["bias"], q, kp, labels=lab(), max_cells=cells),
        mask=F.matrix(x["mask"]["mask"], q, kp, labels=lab(), scale="mask", zmin=0, zmax=1, showscale=False,
                      text_cols=0, max_cells=cells),
        weight=F.weight_line(q, x["mask"]["weight"], labels=dict(title="u", x="i", y="w", trace="w")),
        side=side[0], side_shaw=side[1], side_t5=side[2], side_alibi=side[3],
    )


def test_trace_types_and_shapes_default():
    figs = build_all(data(12, 12))
    dist = figs["distance"].data[0]
    assert dist.type == "heatmap" and np.asarray(dist.z).shape == (12, 12)
    assert dist.zmid == 0 and dist.zmin == -11 and dist.zmax == 11          # symmetric, diverging
    assert dist.text is not None                                             # small: numbers in the cells
    assert "−11" in np.asarray(dist.text)                                    # with a real minus sign
    assert figs["shaw"].data[0].zmin == 0 and figs["shaw"].data[0].zmax == 6  # rows 0..2k
    assert figs["shaw_lost"].data[0].type == "heatmap"
    band, step, md = figs["t5_step"].data                                    # exact band, steps, +-max_distance
    assert step.line.shape == "hv" and band.fill == "toself"
    assert list(md.x) == [128, 128, None, -128, -128, None]                  # two dashed lines, named in the legend
    assert figs["bias"].data[0].text is None                                 # fractions: numbers in the hover only
    assert figs["mask"].data[0].text is None
    assert [t.type for t in figs["slopes"].data] == ["bar"]
    assert figs["slopes"].layout.yaxis.type == "log"
    assert figs["mask"].data[0].showscale is False
    assert [t.type for t in figs["weight"].data] == ["scatter"]
    assert np.allclose(figs["weight"].data[0].y, 1 / (np.arange(12) + 1))
    for name in ("side", "side_shaw", "side_t5", "side_alibi"):
        assert [t.type for t in figs[name].data] == ["heatmap"]


def test_every_panel_is_its_own_figure_with_its_colour_bar_inside():
    """Phone: no subplots (titles that overlap, colour bars on a neighbour); a colour bar sits at the
    right edge of its own figure."""
    for name, fig in build_all(data(10, 30, k=2, nb=16, md=20, H=12, h=12), md=20).items():
        assert not fig.layout.annotations or name == "t5_step", name          # no subplot titles
        assert "xaxis2" not in fig.to_plotly_json()["layout"], name          # one x axis: no side-by-side panels
        for tr in fig.data:
            if tr.type == "heatmap" and tr.showscale is not False:
                assert tr.colorbar.x is None or tr.colorbar.x >= 1.0, name


def test_side_by_side_shares_one_scale():
    figs = build_all(data(10, 30, k=2, nb=16, md=20, H=12, h=12), md=20)
    tokens = [figs[n].data[0] for n in ("side", "side_shaw", "side_t5")]
    assert len({(t.zmin, t.zmax) for t in tokens}) == 1                       # one scale for the distance panels
    assert tokens[0].zmin == -tokens[0].zmax == -29
    alibi = figs["side_alibi"].data[0]
    assert alibi.zmid == 0 and alibi.zmin == -alibi.zmax
    assert all(figs[n].data[0].zmid == 0 for n in ("side", "side_shaw", "side_t5", "side_alibi"))
    assert all(figs[n].data[0].text is None for n in ("side", "side_shaw", "side_t5", "side_alibi"))


def test_alibi_slopes_colours_fill_heads():
    fig = build_all(data(4, 4, H=12))["slopes"]
    assert [len(t.y) for t in fig.data] == [8, 4]
    assert list(fig.data[1].x) == [9, 10, 11, 12]
    assert fig.layout.legend.orientation == "h"
    # issue 33 items 3-4: each head's slope written on its bar at the figure's font (never shrunk to the bar: 19 px
    # and 2 px on a projector), inside a bar 4 octaves above the lowest (1/256), above a shorter one
    assert list(fig.data[0].text) == ["0.5", "0.25", "0.125", "0.0625", "0.0312", "0.0156", "0.00781", "0.00391"]
    assert list(fig.data[1].text) == ["0.707", "0.354", "0.177", "0.0884"]
    assert list(fig.data[0].textposition) == ["inside"] * 4 + ["outside"] * 4
    assert list(fig.data[1].textposition) == ["inside"] * 4                     # 2^-3.5 is 4.5 octaves above 2^-8
    assert all(t.constraintext == "none" for t in fig.data)
    # a number inside its bar reads at AA against the bar as drawn (its colour at its opacity over the paper):
    # dark on the pale bars, white on the selected head's full blue (white on every bar was 2.3:1 on the pale blue)
    for t in fig.data:
        fills = [style.blend(t.marker.color, o) for o in t.marker.opacity]
        assert all(style.contrast(c, f) >= style.TEXT_CONTRAST for c, f in zip(t.insidetextfont.color, fills))
    assert style.contrast("#ffffff", style.blend(style.PALETTE[0], 0.55)) < style.TEXT_CONTRAST


def test_t5_causal_step_single_line_and_labels_inside_the_plot():
    fig = build_all(data(6, 6, bidir=False), bidir=False)["t5_step"]
    assert list(fig.data[2].x) == [128, 128, None]                            # one max line
    assert all(0 <= a.y <= 1 for a in fig.layout.annotations)                 # never over the title
    assert fig.layout.legend.yref == "container" and fig.layout.legend.y == 0  # legend rows at the bottom
    assert fig.layout.title.yref == "container" and fig.layout.title.pad.t >= 30  # title below the toolbar


def test_payload_default_small():
    for name, f in build_all(data(12, 12)).items():
        assert len(f.to_json()) < 300_000, name


def test_payload_max_within_budget():
    x = data(256, 512, k=64, nb=128, md=1024, H=128, h=128)
    figs = build_all(x, md=1024)
    for name, f in figs.items():
        size = len(f.to_json())
        assert size < 2_000_000, (name, size)
    z = np.asarray(figs["distance"].data[0].z)
    assert z.size <= 160_000 and z.shape[0] == 256                           # decimated to screen resolution
    assert np.array_equal(z, x["pos"]["distance"][:, ::2])                   # by striding: values stay exact
    assert figs["distance"].data[0].text is None                             # no per-cell text when large
    side = [figs[n] for n in ("side", "side_shaw", "side_t5", "side_alibi")]
    assert sum(np.asarray(f.data[0].z).size for f in side) <= 160_000         # 4 panels share the cell budget
    assert all(f.data[0].text is None for f in figs.values() if f.data[0].type == "heatmap")


def validated_equals_built(fig):
    """plotly's validation raises on a wrong property and expands what plotly.js does not know (a named
    colour scale such as "RdBu_r"): the validated figure must be exactly the one built."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


def test_every_figure_is_valid_plotly():
    """The builders skip plotly's validation for speed: validate what they build here, every kind."""
    for x, kw in ((data(12, 12), {}), (data(6, 40, bidir=False, H=12, h=12), dict(bidir=False)),
                  (data(256, 512, k=64, nb=128, md=1024, H=128, h=128), dict(md=1024))):
        for name, fig in build_all(x, **kw).items():
            assert validated_equals_built(fig), name
            go.Figure(style.presentation(fig).to_dict())                       # and in lecture mode


def test_a_whole_number_heatmap_ticks_its_colour_bar_at_whole_numbers():
    """Issue 26 item 16: Shaw's row index 0..2 (k = 1) was ticked at 0.5 and 1.5."""
    sh = V.shaw(4, 4, 1)
    fig = F.matrix(sh["index"], np.arange(4), np.arange(4), scale="sequential", zmin=0, zmax=sh["index_max"],
                   labels={"title": "t", "x": "j", "y": "i", "colorbar": "row"})
    bar = fig.data[0].colorbar
    assert (bar.tick0, bar.dtick) == (0, 1)
    wide = V.shaw(64, 64, 16)          # 0..32: a tick every 6, still whole numbers
    bar = F.matrix(wide["index"], np.arange(64), np.arange(64), scale="sequential", zmin=0, zmax=wide["index_max"],
                   labels={"title": "t", "x": "j", "y": "i", "colorbar": "row"}).data[0].colorbar
    assert bar.dtick == 6 and float(bar.dtick).is_integer()
    real = F.matrix(np.array([[0.5, -0.5]]), [0], [0, 1], zmin=-1, zmax=1, labels={"title": "t"}).data[0].colorbar
    assert real.dtick is None                                      # real values: plotly's own ticks
