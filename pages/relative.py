import plotly.graph_objects as go

from posviz import relative, ui
from posviz.figures import style

ui.header("relative")
L = ui.slider("relative_L", 2, 256, 16)
with ui.guard():
    d = relative.relative_distance(L)
    fig = style.layout(go.Figure(style.heatmap(d, colorscale=style.DIVERGING)), title="i - j")
    ui.plot(fig, key="relative_dist")
    ui.explain(r"D_{ij} = i - j", relative.relative_distance)
