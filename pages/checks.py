from posviz import ui

ui.header("checks")
