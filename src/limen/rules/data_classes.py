"""Objective rules: data_classes (being written)."""
