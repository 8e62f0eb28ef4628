"""Objective rules: paths (being written)."""
