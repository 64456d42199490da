from posviz import ui

ui.header("extrapolation")
