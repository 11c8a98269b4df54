"""The model: axes, iters, tile layouts, swizzles, compose layouts, errors."""
