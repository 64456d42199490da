from posviz import ui

ui.header("rope")
