"""Objective rules: token_channels (being written)."""
