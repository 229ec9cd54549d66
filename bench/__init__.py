"""Benchmarks (``make bench``): speed figures measured on this machine, never timed tests."""
