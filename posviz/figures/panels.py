"""Side-by-side heatmap panels shared by the lab and the overview: one layout dict (much faster
than make_subplots), and the "A | B | B - A" row with A and B on one colour scale."""
import html

import plotly.graph_objects as go

from posviz.figures import style


def token_labels(tokens):
    """Unique, escaped axis labels "i·token" (a category axis would merge repeated words)."""
    return [f"{i}·{html.escape(str(t))}" for i, t in enumerate(tokens)]


def panel_layout(titles, *, gap=0.1, shared_y=True):
    """Side-by-side panels as one layout dict (much faster than make_subplots + update_* calls).

    Returns (layout dict, axis names [("x", "y"), ("x2", "y"|"y2"), ...])."""
    n = len(titles)
    width = (1 - gap * (n - 1)) / n
    lay, axes, notes = {}, [], []
    for i, title in enumerate(titles):
        sx = "" if i == 0 else str(i + 1)
        sy = "" if (i == 0 or shared_y) else str(i + 1)
        d0 = i * (width + gap)
        lay[f"xaxis{sx}"] = dict(domain=[d0, d0 + width], anchor=f"y{sy}")
        if not (shared_y and i):
            lay[f"yaxis{sy}"] = dict(anchor=f"x{sx}")
        axes.append((f"x{sx}", f"y{sy}"))
        notes.append(dict(text=title, x=d0 + width / 2, y=1.0, xref="paper", yref="paper", xanchor="center",
                          yanchor="bottom", showarrow=False))
    lay["annotations"] = notes
    return lay, axes


def pair_and_difference(a, b, diff, *, x, y, titles, x_title, y_title, value_axis, value_title, diff_max,
                        diff_title, hovers, gap=0.1, height=400):
    """Three heatmaps a | b | diff ([R,C] each): a and b share `value_axis` (a plotly coloraxis dict,
    the same fixed scale), diff has its own diverging scale, symmetric about 0 at +-diff_max."""
    lay, axes = panel_layout(titles, gap=gap)
    traces = []
    for (xa, ya), z, cax in zip(axes, (a, b, diff), ("coloraxis", "coloraxis", "coloraxis2")):
        tr = style.heatmap(z, x=x, y=y, hover=hovers[cax == "coloraxis2"])
        tr.update(coloraxis=cax, xaxis=xa, yaxis=ya)
        traces.append(tr)
        lay[f"xaxis{xa[1:]}"].update(title=dict(text=x_title))
    lay["yaxis"].update(title=dict(text=y_title), autorange="reversed")
    bar = dict(len=0.9, thickness=12)
    lay.update(
        coloraxis=dict(value_axis, colorbar=dict(bar, title=dict(text=value_title, side="right"), x=0.655)),
        coloraxis2=dict(colorscale=style.DIVERGING, cmin=-diff_max, cmax=diff_max, cmid=0.0,
                        colorbar=dict(bar, title=dict(text=diff_title, side="right"), x=1.0)))
    fig = go.Figure(data=traces, layout=lay)
    style.layout(fig, height=height, legend=False)
    fig.update_layout(margin=dict(l=90, r=30, t=70, b=55))
    return fig
