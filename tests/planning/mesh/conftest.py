"""JAX runs on 8 host CPU devices for these tests (XLA reads ``XLA_FLAGS`` once, when
jax first initialises its backend, so the flag is set here, at collection)."""

import os

_FLAG = "--xla_force_host_platform_device_count=8"
if _FLAG not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + _FLAG).strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")
