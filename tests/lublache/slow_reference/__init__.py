"""The frozen pre-optimisation Lublache engine, kept as a differential oracle."""
