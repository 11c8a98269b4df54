"""Evaluation: forward mapping (scalar and vectorized) and inverse queries."""
