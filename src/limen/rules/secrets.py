"""Objective rules: secrets (being written)."""
