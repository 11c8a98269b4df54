"""Analyses over layouts: banks, explain (and, as they land, legality and conflicts)."""
