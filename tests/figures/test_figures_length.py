"""posviz.figures.length: the bucket lines with their bands, the attention maps (block max, training lines,
alias overlay), the alias errors, the frontier page's share maps, ablation bars and marker lines, and every
builder valid plotly (they skip plotly's validation)."""
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from posviz.figures import length as F
from posviz.figures import style
from posviz.views import length as V

NAMES = {v: f"model {v}" for v in V.VARIANTS}
LINES = NAMES | {"title": "t", "subtitle": "s", "x": "x", "y": "y", "train": "trained", "reference": "chance"}
MAP = {"title": "T", "x": "key", "y": "query", "block_max": "max", "aliases": "aliases", "target": "target"}
ALIAS = {"title": "t", "subtitle": "s", "x": "Δ", "y": "e", "tol": "tol", "alias": "aliases", "train": "trained"}


def validated_equals_built(fig):
    """plotly's validation raises on a wrong property and expands what plotly.js does not know (a named
    colour scale such as "Viridis"): the validated figure must be exactly the one built."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


def every_builder(target, tol):
    info = V.shipped.uncached()
    buckets, train = info["buckets"], info["train_length"]
    for metric in ("acc", "loss"):
        for shown in (tuple(V.VARIANTS), ("rope",), (), V.FRONTIER, V.SCALING, V.TABLE):
            main = V.main_plot.uncached(metric, shown)
            yield F.bucket_lines(buckets, main["series"], train, reference=main["reference"], y_range=main["y_range"],
                                 labels=LINES, bands=main["bands"])
            yield F.bucket_lines(buckets, main["series"], train, labels=LINES)                # no bands
    ent = V.entropy_curves.uncached(2, tuple(V.VARIANTS))
    yield F.bucket_lines(buckets, ent["series"], train, reference=ent["uniform"], labels={"title": "t"})  # few labels
    yield F.bucket_lines(buckets, ent["series"], train, reference=ent["uniform"], bands=ent["bands"], labels={})
    use = V.pair_use.uncached(0)
    for k in (0, 1):
        yield F.share_map(use["shares"][k], use["heads"], use["wavelengths"], zmax=100, labels={"title": "s"})
    ab = V.frequency_summary.uncached()["ablation"]
    groups = {b: ([r[k] for r in ab["mean"]], [r[k] for r in ab["lo"]], [r[k] for r in ab["hi"]])
              for k, b in enumerate(("b0", "b1"))}
    yield F.ablation_bars([str(i) for i in range(len(ab["mean"]))], groups, base={"b0": 99.0, "b1": 50.0},
                          labels={"title": "a", "b0": "short", "b1": "long"})
    if not V.pending(V.SHORTCUT):        # the marker-task runs (a training command may still be running)
        m = V.marker_curves.uncached(V.SHORTCUT)
        yield F.marker_lines(m["positions"], m["series"], m["trained_at"], bands=m["bands"], chance=m["chance"],
                             labels={"title": "m", "trained": "trained"})
    al = V.aliases.uncached(target, tol)
    yield F.alias_errors(al["error"], al["aliases"], tol, train, labels=ALIAS)
    yield F.alias_errors(al["error"], al["aliases"], tol, train, labels={"title": "t"})
    for length in (64, 128, 512):
        a = V.attention.uncached("rope", length, 1, 0)
        yield F.attention_map(a, labels=MAP)
        yield F.attention_map(a, train_length=train, aliases=tuple(al["aliases"]), target=target, labels=MAP)
        yield F.attention_map(a, train_length=train, aliases=(), target=target, labels={"x": "j", "y": "i"})


@pytest.mark.parametrize("target, tol", [(2, 40), (1, 5), (63, 90)])
def test_every_figure_is_valid_plotly(target, tol):
    """Validate what the builders build, every builder and option, in lecture mode too
    (style.presentation, as ui.plot applies it)."""
    for fig in every_builder(target, tol):
        assert validated_equals_built(fig), fig.layout.title.text
        style.presentation(fig)
        assert validated_equals_built(fig)


def test_bucket_lines_gaps_and_legend_below():
    buckets = [[0, 64], [64, 128], [128, 192]]
    fig = F.bucket_lines(buckets, {"rope": [1.0, None, 0.5], "odd": [0.1, 0.2, 0.3]}, 64,
                         reference=[0.1] * 3, labels=LINES)
    ref, rope, odd = fig.data
    assert ref.name == "chance" and rope.name == "model rope" and odd.name == "odd"   # unknown keys: their key
    assert np.isnan(rope.y[1]) and rope.connectgaps is False                         # None: a gap, not a zero
    assert rope.line.color == F.COLORS["rope"] and odd.line.color is None
    # the legend right above the plot, under the title (in view with the chart's top); 3 entries: 2 phone rows
    lg = fig.layout.legend
    assert lg.orientation == "h" and lg.y == 1.02 and lg.yanchor == "bottom"
    assert list(fig.layout.xaxis.tickvals) == [0, 64, 128, 192]
    ph, lec = F.PHONE, F.LECTURE
    # under the toolbar: the title, one subtitle line, a gap, two legend rows (3 entries on a phone), then the plot
    shift = style.MULTILINE_SHIFT_PX                     # plotly lifts a two-line title by about half a line
    top = ph["head_px"] + shift + ph["title_px"] + ph["sub_px"] + F.GAP_PX + 2 * ph["row_px"]
    assert fig.layout.title.text == "t<br><sup>s</sup>" and fig.layout.title.yanchor == "top"
    assert fig.layout.title.y == pytest.approx(1 - (ph["head_px"] + shift) / fig.layout.height)
    assert fig.layout.margin.t == top and fig.layout.meta["own_top"]
    assert fig.layout.height == top + F.PLOT_PX + ph["bottom_px"]
    # a phone keeps the same top and less room for the lines; a projector: larger lines and 22 px legend text
    assert fig.layout.meta["phone"]["height"] == top + ph["plot_px"] + ph["bottom_px"]
    lecture_top = lec["head_px"] + shift + lec["title_px"] + lec["sub_px"] + F.GAP_PX + lec["row_px"]   # one row
    assert fig.layout.meta["lecture"]["margin"]["t"] == lecture_top
    assert fig.layout.meta["lecture"]["height"] == lecture_top + lec["plot_px"] + lec["bottom_px"]
    assert fig.layout.shapes[0].x1 == 63.5                                            # the trained range shaded


def test_bands_under_the_lines_and_the_legend_grows_with_its_entries():
    buckets = [[0, 64], [64, 128], [128, 192]]
    series = {"rope": [1.0, 0.6, 0.1], "learned": [1.0, None, None]}
    bands = {"rope": [[0.99, 0.5, 0.05], [1.0, 0.7, 0.2]], "learned": [[0.98, None, None], [1.0, None, None]]}
    fig = F.bucket_lines(buckets, series, 64, bands=bands, reference=[0.03] * 3, labels=LINES)
    band_rope, band_learned, ref, rope, learned = fig.data
    assert band_rope.fill == "toself" and band_rope.showlegend is False and band_rope.legendgroup == "rope"
    assert list(band_rope.x) == [31.5, 95.5, 159.5, 159.5, 95.5, 31.5]                 # the bucket centres
    assert list(band_rope.y) == pytest.approx([1.0, 0.7, 0.2, 0.05, 0.5, 0.99])
    assert list(band_learned.x) == [31.5, 31.5]                                        # N/A buckets left out
    assert band_rope.line.color == "rgba(0,0,0,0)" and "rgba(0,114,178," in band_rope.fillcolor
    assert rope.legendgroup == "rope" and ref.name == "chance"
    rows3 = fig.layout.height
    few = F.bucket_lines(buckets, {"rope": series["rope"]}, 64, labels=LINES)
    many = F.bucket_lines(buckets, {k: series["rope"] for k in "abcdefgh"}, 64, labels=LINES)
    assert F.legend_rows(list("abcdefgh")) == 2 and F.legend_rows(["a", "b"]) == 1
    assert many.layout.height - few.layout.height == F.PHONE["row_px"]    # 8 entries: 2 phone rows; 1 entry: 1
    assert few.layout.height - few.layout.margin.t - F.PHONE["bottom_px"] == F.PLOT_PX   # the lines keep their room
    assert rows3 - few.layout.height == F.PHONE["row_px"]     # 3 entries: 2 phone rows; 1 entry: 1
    style.presentation(fig)                                    # lecture mode: the band keeps an invisible edge
    assert fig.data[0].line.color == "rgba(0,0,0,0)"


def test_share_map_ablation_bars_and_marker_lines():
    z = np.array([[50, 30, 20, 0], [10, 10, 10, 70]], dtype=np.float32)
    fig = F.share_map(z, ["L1 H1", "L1 H2"], [6.28, 19.9, 62.8, 1e9], zmax=100, labels={"title": "t"})
    hm = fig.data[0]
    assert hm.zmin == 0 and hm.zmax == 100 and hm.text[1][3] == "70" and hm.x[0] == "0<br>6" and hm.x[3].endswith("∞")
    groups = {"b0": ([99, 20], [98, 10], [100, 30])}
    bars = F.ablation_bars(["0", "1"], groups, base={"b0": 99.5}, labels={"b0": "0–63"})
    assert bars.data[0].name == "0–63" and list(bars.data[0].error_y.array) == [1, 10]
    assert list(bars.data[0].error_y.arrayminus) == [1, 10] and bars.layout.shapes[0].y0 == 99.5
    m = F.marker_lines([1, 2, 3, 4], {"short_rope": [0.1, 0.2, 1.0, 0.1], "shift_rope": [1, 1, 1, 1]},
                       {"short_rope": 3, "shift_rope": None}, chance=1 / 30, labels={"trained": "trained"})
    assert [s.x0 for s in m.layout.shapes] == [3] and m.layout.annotations[0].text == "trained"


def test_attention_map_block_max_and_overlay():
    z = np.tril(np.ones((512, 512), dtype=np.float32)) / np.arange(1, 513)[:, None]
    fig = F.attention_map(z, train_length=64, aliases=(2, 121, 600), target=2, labels=MAP)
    hm, diagonals, marks, target = fig.data
    assert np.asarray(hm.z).shape == (171, 171) and "max" in hm.hovertemplate         # pooled 3 x 3
    assert (hm.zmin, hm.zmax) == (0.0, 1.0)
    assert list(marks.y) == [121] and list(target.y) == [2]                           # 600 lies off the map
    assert len(fig.layout.shapes) == 2 and fig.layout.showlegend
    plain = F.attention_map(z[:64, :64], labels=MAP)
    assert len(plain.data) == 1 and not plain.layout.shapes and plain.layout.showlegend is False


def test_alias_errors_marks_the_aliases():
    al = V.aliases.uncached(2, 40)
    fig = F.alias_errors(al["error"], al["aliases"], 40, 64, labels=ALIAS)
    line, marks = fig.data
    assert list(marks.x) == [float(d) for d in al["aliases"]]
    assert fig.layout.shapes[0].y0 == 40 and fig.layout.annotations[0].text == "tol"
    assert list(fig.layout.yaxis.tickvals) == [0, 45, 90, 135, 180]
    # issue 33 item 5: on a phone, ALIAS_PHONE_PX under its own title (the plot, its ticks, axis title and legend),
    # so a scene's narration, the offsets and the legend share an 844 px screen; a desktop keeps its 400 px
    phone = style.one_pass(style.freeze(fig), "len_alias", phone=True)["layout"]
    assert phone["height"] == fig.layout.margin.t + F.ALIAS_PHONE_PX < fig.layout.height == 400
    assert phone["title"]["y"] == fig.layout.meta["phone"]["title"]["y"] and phone["margin"]["t"] == fig.layout.margin.t


def test_a_long_subtitle_wraps_for_a_phone_and_each_screen_gets_its_own_layout():
    """A subtitle longer than a phone's plot ran off its right edge; each line it wraps to lowers the legend."""
    buckets = [[0, 64], [64, 128]]
    labels = {**LINES, "subtitle": "mean of 5 runs, band: lowest to highest run · trained at 64, tested at 512"}
    fig = F.bucket_lines(buckets, {"rope": [1.0, 0.5]}, 64, labels=labels)
    title = fig.layout.title.text
    assert title.count("<br>") == 2 and "</sup><br><sup>" in title                    # title, 2 subtitle lines
    assert fig.layout.margin.t == F.PHONE["head_px"] + 2 * style.MULTILINE_SHIFT_PX + F.PHONE["title_px"] \
        + 2 * F.PHONE["sub_px"] + F.GAP_PX + F.PHONE["row_px"]
    assert fig.layout.meta["lecture"]["title"]["text"].count("<br>") == 2            # a projector: wider lines
    long = F.bucket_lines(buckets, {"rope": [1.0, 0.5]}, 64, labels={**labels, "title": "word " * 10})
    assert long.layout.title.text.count("<br>") == 3                                  # a title too long for a phone
    assert long.layout.margin.t == fig.layout.margin.t + F.PHONE["title_px"] + style.MULTILINE_SHIFT_PX
    spec = style.freeze(fig)
    phone = style.one_pass(spec, "len_main", phone=True)["layout"]
    desk = style.one_pass(spec, "len_main")["layout"]
    assert phone["height"] == fig.layout.meta["phone"]["height"] < desk["height"] == fig.layout.height
    assert phone["title"]["y"] == pytest.approx(1 - (F.PHONE["head_px"] + 28) / phone["height"])
    assert phone["margin"]["t"] == desk["margin"]["t"] == fig.layout.margin.t     # its own top, not the table's
    style.presentation(fig)
    assert fig.layout.height == fig.layout.meta["lecture"]["height"]
    assert fig.layout.margin.t == fig.layout.meta["lecture"]["margin"]["t"] > phone["margin"]["t"]
