"""posviz: exact, tested compute for transformer position encodings, and the app around it.

Layers (each package's docstring says what it may import): pe, lab, tinylm (compute, torch only),
views (the cached layer), figures (plotly), text and scenes (data), ui (the only streamlit importer).
"""
