"""Plotly figure builders, one module per page: arrays and one labels dict in, go.Figure out.
Imports plotly and numpy only, plus style (the house look and layout) and export; no other posviz layer."""
