from posviz import ui

ui.header("overview")
