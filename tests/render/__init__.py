"""Tests of the pictures (render/): decoded images sampled against the states they show."""
