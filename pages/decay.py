from posviz import ui

ui.header("decay")
