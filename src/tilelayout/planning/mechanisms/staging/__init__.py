"""Staging through shared memory: access costing, the layout families and their search,
the instruction kinds (vectors, packed registers, ldmatrix / stmatrix), Triton's own
swizzle synthesis, passes through a smaller buffer."""
