"""Mesh reshardings: the collective we name is the one XLA's SPMD partitioner puts in
the compiled program of a real ``jax.jit`` reshard on 8 host CPU devices, and every
device ends up with its block."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.interop.jax import from_partition_spec, to_named_sharding

from ..conftest import expected

jax = pytest.importorskip("jax")
MESH_SHAPE = {"x": 2, "y": 4}
SHAPE = (16, 8)
COMM = ("all-gather", "all-to-all", "collective-permute", "all-reduce", "reduce-scatter")
SPECS = [
    (("x", None), (None, None)), ((None, None), ("x", "y")), (("x", "y"), ("y", "x")),
    (("x", None), (None, "x")), (("x", None), ("y", None)), ((("x", "y"), None), (None, None)),
    (("x", None), (None, "y")), (("x", "y"), (None, None)), (("x", None), ("x", None)),
    (("y", None), (("y", "x"), None)), ((("x", "y"), None), (("y", "x"), None)),
    (("x", "y"), ("x", None)), ((None, "y"), ("y", None)), ((None, "x"), ("y", "x")),
]


@pytest.fixture(scope="module")
def mesh():
    from jax.sharding import Mesh

    if len(jax.devices()) < 8:
        pytest.fail("JAX did not start 8 host devices (XLA_FLAGS set too late)")
    return Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("x", "y"))


def xla_ops(mesh, src, dst) -> list[str]:
    import jax.numpy as jnp

    x = jax.device_put(jnp.zeros(SHAPE, jnp.float32), to_named_sharding(src, mesh, SHAPE))
    fn = jax.jit(lambda v: v, out_shardings=to_named_sharding(dst, mesh, SHAPE))
    hlo = fn.lower(x).compile().as_text()
    return re.findall(r"\b(" + "|".join(COMM) + r"|dynamic-slice)(?:-start)?\(", hlo)


@pytest.mark.parametrize("a, b", SPECS, ids=[f"{a}->{b}" for a, b in SPECS])
def test_collective_matches_xla(mesh, a, b):
    src = from_partition_spec(a, MESH_SHAPE, SHAPE)
    dst = from_partition_spec(b, MESH_SHAPE, SHAPE)
    p = tl.plan_conversion(src, dst, SHAPE, "float32")
    ops = xla_ops(mesh, src, dst)
    comm = [o for o in ops if o in COMM]
    if a == b:
        assert (p.kind, comm) == ("none", [])
    elif p.collective == "local slice":
        assert comm == [] and "dynamic-slice" in ops
        assert p.costs["bytes_received"] == 0
    else:
        assert p.kind == "collective"
        assert comm and p.collective == comm[0], (p.collective_steps, ops)
        assert {s for s in p.collective_steps if s != "local slice"} <= set(comm)
        assert ("local slice" in p.collective_steps) == ("dynamic-slice" in ops)
    assert p.execute() == expected(dst, SHAPE)


def test_all_gather_bytes():
    src = from_partition_spec(("x", None), MESH_SHAPE, SHAPE)
    dst = from_partition_spec((None, None), MESH_SHAPE, SHAPE)
    p = tl.plan_conversion(src, dst, SHAPE, "float32")
    # every device holds 8 x 8 float32 and receives the other 8 rows
    assert p.costs["bytes_received_per_device"] == (256,) * 8
    assert sum(p.costs["bytes_sent_per_device"]) == 8 * 256
    assert p.costs["bytes_received"] == 256
