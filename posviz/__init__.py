"""posviz: exact, tested compute for transformer position encodings.

Everything here is importable and testable without streamlit; only `posviz.ui`
imports it. See ../DESIGN.md (shared) for the public API.
"""
__all__ = ["checks_args"]
