from posviz import ui

ui.header("kv_cache")
