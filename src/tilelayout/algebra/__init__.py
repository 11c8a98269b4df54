"""Layout algebra: layouts in, layouts out, exact, cost in iters (never in elements).

One concept per module: ``span`` (covered extents), ``canonical`` (canonical form),
``group`` (split iters by a shape), ``tiling`` (tile, tile_to, direct sum and their
recognition), ``slicing`` (sub-regions, permuted dims), ``packing`` (element width
changes, storage view), ``equivalence`` (semantic equality). See ``docs/algebra.md``.
"""
