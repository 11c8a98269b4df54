"""JAX shardings: ``PartitionSpec`` + mesh shape <-> a layout over mesh (device) axes.

A ``PartitionSpec`` entry per array dimension is ``None`` (not split), a mesh-axis name,
or a tuple of names (split over their product, first name outermost). JAX splits a
dimension of size ``n`` over mesh axes of total size ``k`` into ``k`` equal contiguous
blocks, and replicates the array over every mesh axis the spec does not name. Each
device stores its block as a dense row-major array.

Our layout for it: each mesh axis becomes a *device* axis of the same name; dimension
``d`` is the iters ``(size(a), 1@a)`` for each named mesh axis ``a`` followed by
``(n/k, stride@m)``, where ``m`` is the element's row-major position inside its
device's block; every unnamed mesh axis is a replica iter ``R[size(a):1@a]``.

JAX itself is imported only by :func:`to_partition_spec`, :func:`to_named_sharding`
(which build JAX objects) and never at module import.

>>> L = from_partition_spec(("x", None), {"x": 2, "y": 4}, (8, 6))
>>> str(L)
'S[(2,4,6):(1@x,6,1)] + R[4:1@y]'
>>> partition_spec_entries(L, {"x": 2, "y": 4}, (8, 6))
('x', None)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..algebra.canonical import fuse_adjacent
from ..core.axes import AxisTable, current
from ..core.axes import axis_of as lookup_axis
from ..core.compose import ComposeLayout
from ..core.errors import shown
from ..core.iter import Iter
from ..core.mesh import mesh_of, parse_mesh
from ..core.shape import as_shape, format_shape, unflatten
from ..core.tile import TileLayout
from . import InteropError, require
from .factor import first_difference, split_by_shape
from .inputs import layout_and_shape

Entry = None | str | tuple[str, ...]
MeshShape = Mapping[str, int] | Sequence[tuple[str, int]] | Any


def mesh_axes(mesh_shape: MeshShape) -> dict[str, int]:
    """The mesh as an ordered ``{axis name: size}``, from a mapping, pairs or a JAX ``Mesh``.

    Each name becomes a device axis of the layouts built over the mesh (a name the table
    in force has as a memory or thread axis is refused); :func:`mesh_table` is the axis
    table that declares them.

    >>> mesh_axes([("data", 2), ("model", 4)])
    {'data': 2, 'model': 4}
    """
    if hasattr(mesh_shape, "axis_names") and hasattr(mesh_shape, "shape"):  # jax Mesh
        mesh_shape = mesh_shape.shape
    if isinstance(mesh_shape, str):
        mesh_shape = parse_mesh(mesh_shape)
    if not isinstance(mesh_shape, Mapping | Sequence):
        raise InteropError(f"a mesh is {{name: size}}, (name, size) pairs, text like dp=2,tp=4 "
                           f"or a jax Mesh; got {type(mesh_shape).__name__}")
    items = list(mesh_shape.items()) if isinstance(mesh_shape, Mapping) else list(mesh_shape)
    out = dict(mesh_of(items))  # the one mesh rule: identifier names, sizes >= 1, no repeats
    for name in out:
        if lookup_axis(name).kind != "device":
            raise InteropError(
                f"mesh axis {name!r} clashes with the {lookup_axis(name).kind} axis of that "
                f"name; rename the mesh axis"
            )
    return out


def mesh_table(mesh_shape: MeshShape) -> AxisTable:
    """The axis table in force plus the mesh's axes (device axes without a fixed extent:
    the mesh's sizes belong to the mesh, not to the axis), so layout text may name them.

    >>> import tilelayout as tl
    >>> tl.parse("S[(2,4):(1@data,1)]", axes=mesh_table({"data": 2, "model": 4}))
    parse('S[(2,4):(1@data,1)]', axes=['data'])
    """
    return current().with_axes(*mesh_axes(mesh_shape))


def _entries(spec: Sequence[Entry], rank: int, mesh: dict[str, int]) -> list[tuple[str, ...]]:
    if isinstance(spec, str | bytes | Mapping) or not hasattr(spec, "__iter__") or \
            not hasattr(spec, "__len__") or len(spec) > 64:
        raise InteropError(f"a partition spec is a sequence of entries (None, a mesh-axis name "
                           f"or a tuple of names; a jax PartitionSpec), got {shown(spec)}")
    entries = list(spec)
    if len(entries) > rank:
        raise InteropError(f"partition spec {tuple(spec)} has {len(entries)} entries for a rank-{rank} array")
    out: list[tuple[str, ...]] = []
    used: set[str] = set()
    for e in entries + [None] * (rank - len(entries)):
        names: tuple[str, ...]
        if e is None:
            names = ()
        elif isinstance(e, str):
            names = (e,)
        elif isinstance(e, tuple | list) and all(isinstance(n, str) for n in e):
            names = tuple(e)
        else:
            raise InteropError(
                f"partition spec entries are None, a mesh-axis name or a tuple of names; got {shown(e)}"
            )
        for n in names:
            if n not in mesh:
                raise InteropError(f"partition spec names mesh axis {n!r}; the mesh has {list(mesh)}")
            if n in used:
                raise InteropError(f"mesh axis {n!r} is used twice in partition spec {tuple(spec)}")
            used.add(n)
        out.append(names)
    return out


def from_partition_spec(
    spec: Sequence[Entry], mesh_shape: MeshShape, array_shape: Sequence[int]
) -> TileLayout:
    """The layout of an array of ``array_shape`` sharded by ``spec`` over ``mesh_shape``.

    ``spec`` is a ``jax.sharding.PartitionSpec`` or any sequence of entries; missing
    trailing entries mean ``None``. A dimension that the mesh axes do not divide evenly
    is refused (JAX's ``device_put`` refuses it too).

    >>> str(from_partition_spec((("x", "y"),), {"x": 2, "y": 2}, (8,)))
    'S[(2,2,2):(1@x,1@y,1)]'
    """
    mesh = mesh_axes(mesh_shape)
    dims = as_shape(array_shape)
    names = _entries(spec, len(dims), mesh)
    local = []
    for d, (n, axes_d) in enumerate(zip(dims, names, strict=True)):
        k = math.prod(mesh[a] for a in axes_d)
        if n % k:
            raise InteropError(
                f"dimension {d} of size {n} does not split evenly over mesh axes {axes_d} "
                f"({k} devices); JAX shards need equal blocks"
            )
        local.append(n // k)
    strides = [math.prod(local[d + 1 :]) for d in range(len(dims))]
    shard: list[Iter] = []
    # one-element blocks still name position m = 0 (as the mesh.shard preset does)
    keep_m = all(b == 1 for b in local)
    for axes_d, b, s in zip(names, local, strides, strict=True):
        shard.extend(Iter(mesh[a], 1, a) for a in axes_d)
        if b > 1 or keep_m:  # otherwise a block of one element along d needs no iter
            shard.append(Iter(b, s, "m"))
            keep_m = False
    used = {a for axes_d in names for a in axes_d}
    replica = [Iter(size, 1, a) for a, size in mesh.items() if a not in used and size > 1]
    return TileLayout(shard, replica)


def partition_spec_entries(
    layout: TileLayout, mesh_shape: MeshShape, shape: Sequence[int] | None = None
) -> tuple[Entry, ...]:
    """The ``PartitionSpec`` entries (plain tuple, no JAX needed) of a sharding layout.

    ``shape`` is the array shape (default: the layout's shard extents). Refused, with
    the reason: offsets, swizzles, axes other than the mesh's and ``m``, a mesh axis
    interleaved inside a dimension (cyclic distribution), strides that skip devices, a
    mesh axis only partly used, replicas inside a device, and shards not stored row-major.

    >>> import tilelayout as tl
    >>> partition_spec_entries(tl.parse("S[(2,4):(1@pid,1)]"), {"pid": 2}, (8,))
    ('pid',)
    """
    if not isinstance(layout, ComposeLayout):  # a swizzle is refused before the mesh
        mesh = mesh_axes(mesh_shape)
        with mesh_table(mesh):  # layout text may name the mesh's axes
            layout, dims = layout_and_shape(layout, shape)
    if isinstance(layout, ComposeLayout):
        raise InteropError(
            f"{layout} swizzles addresses inside a device; a JAX sharding only says which "
            f"device holds which block"
        )
    offset = {a: v for a, v in layout.offset.items() if v}
    if offset:
        raise InteropError(
            f"{layout} has offset {offset}; JAX shardings start at coordinate 0 of every "
            f"mesh axis and at position 0 inside each block"
        )
    foreign = [a for a in layout.axes if a not in mesh and a != "m"]
    if foreign:
        raise InteropError(
            f"{layout} uses axes {foreign} that are neither mesh axes {list(mesh)} nor 'm'"
        )
    entries: list[Entry] = []
    used: set[str] = set()
    for d, group in enumerate(split_by_shape(layout.shard, dims)):
        names: list[str] = []
        seen_memory = False
        for it in fuse_adjacent(group):
            if it.axis == "m":
                seen_memory = True
                continue
            size = mesh[it.axis]
            if seen_memory:
                raise InteropError(
                    f"dimension {d}: mesh axis {it.axis!r} is interleaved below a block of local "
                    f"elements (a cyclic distribution); JAX splits a dimension into contiguous blocks"
                )
            if it.stride != 1 or it.extent != size or it.axis in used:
                what = (
                    f"stride {it.stride} skips devices" if it.stride != 1
                    else f"extent {it.extent} uses {it.extent} of the {size} devices"
                    if it.extent != size else "the axis appears twice"
                )
                raise InteropError(
                    f"dimension {d}: mesh axis {it.axis!r} ({what}); JAX splits a dimension over "
                    f"all devices of a mesh axis, one block each"
                )
            names.append(it.axis)
            used.add(it.axis)
        entries.append(None if not names else names[0] if len(names) == 1 else tuple(names))
    # replica iters are a set of offsets: order them per axis, largest stride first, so
    # R[(2,2):(1@y,2@y)] merges into R[4:1@y] like its equal R[(2,2):(2@y,1@y)]
    first = {a: k for k, a in reversed(list(enumerate(it.axis for it in layout.replica)))}
    replicas = sorted(layout.replica, key=lambda it: (first[it.axis], -it.stride))
    for it in fuse_adjacent(replicas):
        if it.axis == "m":
            raise InteropError(f"{layout} replicates inside a device (a replica on 'm')")
        if it.axis in used or it.stride != 1 or it.extent != mesh[it.axis]:
            raise InteropError(
                f"replica {it.extent}:{it.stride}@{it.axis} does not copy the array to every "
                f"device of mesh axis {it.axis!r} (size {mesh[it.axis]}), as JAX replication does"
            )
        used.add(it.axis)
    missing = [a for a, size in mesh.items() if size > 1 and a not in used]
    if missing:
        raise InteropError(
            f"mesh axes {missing} are neither split nor replicated by {layout}: the data would "
            f"live only at coordinate 0 of them, but JAX replicates over every unnamed mesh axis"
        )
    expected = from_partition_spec(entries, mesh, dims)
    bad = first_difference(layout, expected, dims)
    if bad is not None:
        idx = format_shape(unflatten(bad, dims))
        raise InteropError(
            f"element {idx} is stored at a different position inside its block than JAX's dense "
            f"row-major shard (layout {layout}, JAX's {expected})"
        )
    return tuple(entries)


def to_partition_spec(layout: TileLayout, mesh_shape: MeshShape, shape: Sequence[int] | None = None):
    """A ``jax.sharding.PartitionSpec`` for ``layout`` (see :func:`partition_spec_entries`).

    >>> import tilelayout as tl
    >>> to_partition_spec(tl.parse("S[(2,4):(1@pid,1)]"), {"pid": 2})  # doctest: +SKIP
    PartitionSpec('pid',)
    """
    sharding = require("jax.sharding", "jax", "a JAX sharding")
    return sharding.PartitionSpec(*partition_spec_entries(layout, mesh_shape, shape))


def to_named_sharding(layout: TileLayout, mesh: Any, shape: Sequence[int] | None = None):
    """A ``jax.sharding.NamedSharding`` on ``mesh`` (a ``jax.sharding.Mesh``) for ``layout``.

    >>> # NamedSharding(mesh, PartitionSpec('x', None)) for an (8, 6) array on a 2x4 mesh
    >>> to_named_sharding(from_partition_spec(("x",), mesh, (8, 6)), mesh)  # doctest: +SKIP
    """
    sharding = require("jax.sharding", "jax", "a JAX sharding")
    return sharding.NamedSharding(mesh, to_partition_spec(layout, mesh, shape))


def from_named_sharding(sharding: Any, array_shape: Sequence[int]) -> TileLayout:
    """The layout of a ``jax.sharding.NamedSharding`` for an array of ``array_shape``.

    >>> from_named_sharding(arr.sharding, arr.shape)  # doctest: +SKIP
    """
    if not (hasattr(sharding, "spec") and hasattr(sharding, "mesh")):
        raise InteropError(f"expected a jax.sharding.NamedSharding, got {type(sharding).__name__}")
    return from_partition_spec(tuple(sharding.spec), sharding.mesh, array_shape)


__all__ = [
    "from_named_sharding",
    "from_partition_spec",
    "mesh_axes",
    "mesh_table",
    "partition_spec_entries",
    "to_named_sharding",
    "to_partition_spec",
]
