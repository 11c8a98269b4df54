"""The mesh scenarios run JAX on 8 host CPU devices: the flag is set at collection, by
the mesh tests' conftest (XLA reads it once, when JAX first starts its backend)."""

from ..mesh import conftest  # noqa: F401  (sets XLA_FLAGS and JAX_PLATFORMS)
