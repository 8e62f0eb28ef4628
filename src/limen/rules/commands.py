"""Objective rules: commands (being written)."""
