"""Objective rules: destinations (being written)."""
