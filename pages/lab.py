from posviz import ui

ui.header("lab")
