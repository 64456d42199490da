from posviz import ui

ui.header("length")
