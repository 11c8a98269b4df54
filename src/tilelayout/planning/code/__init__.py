"""A conversion plan as code (``ConversionPlan.code``, SPEC section 8; docs/data-movement.md,
*Plans as code*): :mod:`.program` reads a plan into what the code does, the ``cuda_*``
modules write it as one CUDA C++ translation unit."""
