"""Lanes of a warp exchange registers: ``shfl.sync`` rounds, and byte permutes of packed
sub-word values."""
