"""Heatmap panels shared by the lab and the overview, and the phone-safe title of the lab's figures.

Phone-safe (issue 12): `heatmap_panel` draws ONE panel as its own figure; a page puts compared panels
side by side in st.columns (Streamlit stacks them on a phone) and passes the shared colour range
(zmin/zmax) explicitly. `pair_and_difference` (one figure with "A | B | B - A") stays for callers
that have not moved yet: its panels squeeze on a 390 px screen.
"""
import html
import unicodedata

import plotly.graph_objects as go

from posviz.figures import style

TITLE_WIDTH = 40      # width units per title line (a CJK character counts 2): fits a 390 px phone
PANEL_TITLE_WIDTH = 28   # a panel drawn in one of three st.columns (about 270 px wide on a desktop)
TITLE_PX = 16         # title font (lecture mode enlarges it; LINE_PX leaves room for that)
MODEBAR_PX = 40       # room above the title for plotly's toolbar (27 px tall)
LINE_PX = 36          # one title line (lecture mode: 28 px font, and the figure 1.2x taller)
MULTILINE_SHIFT_PX = 14   # plotly lifts a title of n lines by about (n - 1) half lines: lowered by as much


def _width(ch):
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def wrap(text, width=TITLE_WIDTH):
    """Break `text` into lines of at most `width` units (CJK characters count 2) at spaces, or
    anywhere in CJK runs, joined by <br>. The text is escaped: titles may hold user words."""
    lines, line, used = [], "", 0
    for word in str(text).replace("\n", " ").split(" "):
        w = sum(_width(c) for c in word)
        if line and used + 1 + w <= width:
            line, used = f"{line} {word}", used + 1 + w
            continue
        if line:
            lines.append(line)
        line, used = "", 0
        for c in word:                       # a word longer than a line (a CJK sentence) breaks anywhere
            if used + _width(c) > width and line:
                lines.append(line)
                line, used = "", 0
            line, used = line + c, used + _width(c)
    if line:
        lines.append(line)
    return "<br>".join(html.escape(x, quote=False) for x in lines)


def top_title(title, *, height, width=TITLE_WIDTH):
    """`title` (wrapped to `width` units) at the top left of a figure `height` px tall, under plotly's
    toolbar, and the top margin its lines need: (title dict, or None without a title; margin top px).
    The toolbar never covers it, a long title never runs off a phone, and no line overlaps the plot.

    Formula: the first line's top sits MODEBAR_PX down, lowered MULTILINE_SHIFT_PX per extra line
    (plotly lifts an n-line title by about (n - 1) half lines); the margin is that plus LINE_PX a line."""
    text = wrap(title, width) if title else ""
    lines = text.count("<br>") + 1 if text else 0
    top = MODEBAR_PX + MULTILINE_SHIFT_PX * max(lines - 1, 0)
    spec = {"text": text, "x": 0, "xref": "container", "xanchor": "left", "y": 1 - top / height,
            "yref": "container", "yanchor": "top", "pad": {"l": 6}, "font": {"size": TITLE_PX}} if text else None
    return spec, top + LINE_PX * lines + (6 if lines else 0)


def title_on_top(fig, title, *, width=TITLE_WIDTH):
    """Put `title` at the top left of the go.Figure under plotly's toolbar (top_title)."""
    spec, margin_top = top_title(title, height=fig.layout.height or 450, width=width)
    fig.update_layout(title=spec, margin=dict(t=margin_top))
    return fig


def heatmap_panel(z, *, x, y, labels, colorscale=style.SEQUENTIAL, zmin=None, zmax=None, zmid=None,
                  hover="x=%{x}<br>y=%{y}<br>z=%{z:.4g}<extra></extra>", height=380):
    """One heatmap panel as its own figure: labels = {"title", "x", "y", "colorbar"}; compared
    panels get the same zmin / zmax from the caller. Rows read top-down, the colorbar sits beside
    this panel only (thin, on its right, its title on top: a panel in one of three columns keeps
    most of its width for the cells)."""
    tr = style.heatmap(z, x=x, y=y, colorscale=colorscale, zmin=zmin, zmax=zmax, zmid=zmid, hover=hover)
    tr.update(colorbar=dict(title=dict(text=labels.get("colorbar", ""), side="top"), thickness=10, len=1.0,
                            nticks=5, xpad=4))
    fig = go.Figure(data=[tr], layout=dict(yaxis=dict(autorange="reversed", title=dict(text=labels.get("y", ""))),
                                          xaxis=dict(title=dict(text=labels.get("x", "")))))
    style.layout(fig, height=height, legend=False)
    fig.update_layout(margin=dict(l=10, r=10, b=10))
    return title_on_top(fig, labels.get("title"), width=PANEL_TITLE_WIDTH)


def escape(text):
    """User or translated text for a plotly label (plotly reads a few tags such as <b>, <a href>)."""
    return html.escape(str(text), quote=False)


def token_labels(tokens):
    """Unique, escaped axis labels "i·token" (a category axis would merge repeated words)."""
    return [f"{i}·{html.escape(str(t))}" for i, t in enumerate(tokens)]


def house_layout(title, *, height, x=None, y=None, legend=True, narrow=False, legend_rows=None, **extra):
    """The house layout (style.layout) of a one-panel figure, as a dict (overview and sinusoidal): the
    title under plotly's toolbar, which a touch screen always shows, wrapped so that it never runs off a
    phone (as title_on_top; `narrow`: a panel in a narrow column). legend_rows: a horizontal legend at
    the very bottom of the figure, under the x axis title, with room for that many rows of entries when
    it wraps on a phone. `extra` merges into it (axis and margin dicts one level deep)."""
    spec, margin_top = top_title(title, height=height, width=PANEL_TITLE_WIDTH if narrow else TITLE_WIDTH)
    lay = {"font": style.FONT, "height": height, "showlegend": legend, "margin": {"l": 60, "r": 20, "b": 55},
           "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0}}
    if spec:
        lay["title"] = spec
    if legend_rows is not None:
        lay["legend"] = {"orientation": "h", "x": 0, "xanchor": "left", "yref": "container", "y": 0, "yanchor": "bottom"}
        lay["margin"]["b"] = 70 + 26 * legend_rows
    for name, label in (("xaxis", x), ("yaxis", y)):
        if label is not None:
            lay[name] = {"title": {"text": label}}
    for key, value in extra.items():
        lay[key] = {**lay[key], **value} if isinstance(lay.get(key), dict) else value
    lay["margin"]["t"] = margin_top
    return lay
