"""The only streamlit importer: the page frame, URL-bound widgets and plotting.

frame: language, lecture mode, stylesheets, navigation; scenes: page header, scene buttons, the browser
script; sidebar: language switch, lecture mode, share box; slots: how many runs at once; widgets: URL
binding; sections: a page section that reruns alone (its own controls); labels: a figure's labels (or a
table's columns) from text keys; plotting: plot (cached figures, export), the formula-and-code box, error
display.
Imports posviz.views (its cache), figures, text and scenes.
"""
from posviz.ui.frame import lang, page, present, t
from posviz.ui.labels import labels
from posviz.ui.plotting import diagram, explain, formulas, guard, panels, plot, table
from posviz.ui.scenes import header
from posviz.ui.sections import section
from posviz.ui.widgets import (
    deep_dive,
    more,
    multiselect,
    number,
    paste_box,
    paste_reading,
    radio,
    select,
    select_slider,
    slider,
    text_input,
    toggle,
)

__all__ = ["header", "section", "lang", "page", "present", "t", "labels", "diagram", "explain", "formulas", "guard",
           "panels", "plot", "table", "deep_dive", "more", "multiselect", "number", "paste_box",
           "paste_reading", "radio", "select", "select_slider", "slider",
           "text_input", "toggle"]
