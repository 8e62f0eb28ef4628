"""Fact tables: what programs, paths, hosts and tools are and do; the only source rules read."""
