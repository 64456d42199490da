"""Plotly figure builders: arrays in, go.Figure out. No streamlit here."""
