"""Tests of the Lefe, Dalen and Les engines and the shared board mould."""
