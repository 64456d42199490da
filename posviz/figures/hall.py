"""The hall's chart: how the class answered, the right answer's bar marked."""
import math

from posviz.figures import style
from posviz.figures.style import figure

RIGHT = style.PALETTE[2]     # bluish green: the right answer
OTHER = "#9AA5B1"            # grey: every other answer
MAX_LABEL = 34               # width units of a bar's label before it is wrapped (a 390 px phone)


def class_answers(bar_labels, counts, right_bar, *, labels):
    """A horizontal bar per answer (a choice, or a number or bin) with its count, the right one in green,
    the others grey, in the order given (top to bottom). labels: title, x, right, other."""
    n = len(counts)
    names = [style.wrap(style.escape(b), MAX_LABEL) for b in bar_labels]
    colours = [RIGHT if i == right_bar else OTHER for i in range(n)]
    data = [{"type": "bar", "orientation": "h", "y": names, "x": list(counts), "marker": {"color": colours},
             "text": [str(c) for c in counts], "textposition": "outside", "cliponaxis": False, "textfont": {"size": 15},
             "hovertemplate": "%{y}: %{x}<extra></extra>", "showlegend": False},
            # two empty traces: the legend says which colour is the right answer
            {"type": "bar", "orientation": "h", "x": [None], "y": [None], "name": labels["right"],
             "marker": {"color": RIGHT}, "hoverinfo": "skip"},
            {"type": "bar", "orientation": "h", "x": [None], "y": [None], "name": labels["other"],
             "marker": {"color": OTHER}, "hoverinfo": "skip"}]
    top = max([1, *counts])
    lines = sum(name.count("<br>") + 1 for name in names)
    # every answer's label shown (plotly skips category labels that crowd), whole counts on the axis
    yaxis = {"autorange": "reversed", "automargin": True, "type": "category", "tickmode": "array",
             "tickvals": names, "ticktext": names}
    xaxis = {"range": [0, top * 1.25], "tick0": 0, "dtick": max(1, math.ceil(top / 5)), "tickformat": "d"}
    return figure(data, style.layout({"title": labels["title"], "x": labels["x"]}, height=170 + 36 * max(lines, n),
                                     legend_at="bottom", legend_rows=1, yaxis=yaxis, xaxis=xaxis, bargap=0.3))
