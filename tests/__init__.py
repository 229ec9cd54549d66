"""Test suite (a package so that its helpers, such as ``tests.postgres``, can be imported)."""
