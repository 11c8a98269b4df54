"""Device-mesh sharding (JAX ``NamedSharding`` / ``PartitionSpec`` semantics).

Each mesh axis is a device axis (the preset declares nothing: parse its text back
with ``tilelayout.parse(text, axes=list(mesh))``, as its repr does); a tensor
dimension sharded over mesh axes is split into equal contiguous blocks, the first
listed mesh axis major; mesh axes no dimension uses become replicas. ``m`` is the
row-major index inside the device's local block.

>>> from tilelayout import presets
>>> p = presets.get("mesh.shard", mesh={"dp": 2, "tp": 2}, spec=("dp", None), shape=(8, 4))
>>> str(p.layout)
'S[(2,4,4):(1@dp,4,1)] + R[2:1@tp]'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..core.axes import axis_of as lookup_axis
from .digits import Digit, digits_layout
from .registry import Built, Param, fail, register

NAME = "mesh.shard"


def _device_axis(name: str) -> None:
    if lookup_axis(name).kind != "device":
        raise fail(NAME, f"mesh axis {name!r} clashes with the built-in "
                   f"{lookup_axis(name).kind} axis {name!r}; choose another name")


@register(
    NAME,
    summary="tensor sharded over a device mesh: shape -> mesh axes (+ replicas), local m",
    source="JAX sharding: jax.sharding.NamedSharding / PartitionSpec (jax.readthedocs.io, "
    "'Distributed arrays and automatic parallelization')",
    params=[
        Param("mesh", "mesh", {"dp": 2, "tp": 2}, doc="mesh axis name -> size"),
        Param("spec", "spec", ("dp", None),
              doc="per tensor dim: None, a mesh axis, or a tuple of mesh axes (major first)"),
        Param("shape", "shape", (8, 4), doc="global tensor shape"),
    ],
)
def shard(mesh: Mapping[str, int] | None = None, spec: tuple[Any, ...] = ("dp", None),
          shape: tuple[int, ...] = (8, 4)) -> Built:
    """A global tensor sharded over a device mesh, like ``NamedSharding(mesh, P(*spec))``.

    Hardware object: the placement of a tensor over a mesh of devices: which devices
    hold element x and where it sits in each device's local buffer. Each mesh axis is
    a ``device`` axis whose coordinate is the device's index along that mesh dimension.
    Logical shape = the global shape, row-major; ``m`` = row-major offset in the local
    block of shape (shape[d] / product of the sizes of spec[d]'s axes).

    Formula, per dimension d sharded over mesh axes (a_1, .., a_j) (a_1 major):
      block = x_d // local_d, a_1 .. a_j = digits of block in sizes (|a_1|, .., |a_j|),
      local coordinate x_d % local_d;  m = row-major index of the local coordinates.
    Mesh axes no dimension uses hold full copies: replica R[|a|:1@a].

    Source: JAX documentation, jax.sharding.NamedSharding and PartitionSpec (a
    dimension mapped to a tuple of mesh axes is split over their product, first axis
    major; unmentioned mesh axes replicate). Reference: layout.rst "Beyond GPU
    registers" (binding strides to device axes).
    """
    mesh = dict(mesh or {"dp": 2, "tp": 2})
    if len(spec) != len(shape):
        raise fail(NAME, f"spec has {len(spec)} entries but shape {shape} has {len(shape)} "
                   f"dims; give one entry (None, an axis or a tuple of axes) per dim")
    used: list[str] = []
    per_dim: list[tuple[str, ...]] = []
    for entry in spec:
        names = () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)
        for a in names:
            if a not in mesh:
                raise fail(NAME, f"spec names mesh axis {a!r} but the mesh has "
                           f"{', '.join(mesh)}")
            if a in used:
                raise fail(NAME, f"mesh axis {a!r} shards two tensor dims; each mesh axis "
                           f"may appear once in spec")
            used.append(a)
        per_dim.append(names)
    for a in mesh:
        _device_axis(a)
    local = []
    for d, (size, names) in enumerate(zip(shape, per_dim, strict=True)):
        parts = math.prod(mesh[a] for a in names)
        if size % parts:
            raise fail(NAME, f"dim {d} of size {size} does not split evenly over "
                       f"{' x '.join(names)} = {parts} devices")
        local.append(size // parts)
    dims: list[list[Digit]] = []
    for d, names in enumerate(per_dim):
        stride = math.prod(local[d + 1:])
        dims.append([(mesh[a], 1, a) for a in names] + [(local[d], stride, "m")])
    replica = [(mesh[a], 1, a) for a in mesh if a not in used]
    return Built(digits_layout(*dims, replica=replica), tuple(shape))
