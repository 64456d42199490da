from posviz import ui

ui.header("sinusoidal")
