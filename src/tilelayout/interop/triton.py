"""Triton linear layouts: basis vectors over register / lane / warp bits.

A Triton ``LinearLayout`` maps hardware bits to logical coordinates linearly over
GF(2): input dimension ``register`` (``lane``, ``warp``, ``block``) has one basis vector
per bit, and the logical coordinate of a (register, lane, warp) point is the XOR of
the basis vectors of its set bits. A zero basis vector means the bit does not change
the element: the data is broadcast (our replica).

Our layouts map logical -> hardware with integer strides over any extents, so the
two meet exactly where every extent and stride is a power of two and no two iters
touch the same hardware bit: then each logical bit goes to one hardware bit and
addition is XOR. Outside that (extent 3, 224 tensor-memory columns, stride 6, an
offset) Triton's model cannot express the layout and the conversion says why; in the
other direction a basis that sets several logical bits (an XOR swizzle) has no
``TileLayout`` form.

``triton`` itself is imported only by :func:`to_triton` / :func:`from_triton`.

>>> import tilelayout as tl
>>> to_triton_bases(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8))
{'register': [[0, 1], [8, 0]], 'lane': [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..algebra.canonical import fuse_adjacent
from ..core.compose import ComposeLayout
from ..core.iter import Iter
from ..core.tile import TileLayout
from . import InteropError, require

#: Triton input dimension -> our axis (Triton's "block" is the CTA within a cluster)
DEFAULT_IN_DIMS: dict[str, str] = {"register": "m", "lane": "laneid", "warp": "warpid", "block": "cbx"}

Bases = dict[str, list[list[int]]]


def _log2(n: int, what: str) -> int:
    if n < 1 or n & (n - 1):
        raise InteropError(
            f"{what} is {n}, not a power of two: a Triton linear layout is linear over bits, "
            f"so every extent and stride must be a power of two (tilelayout itself takes any "
            f"extent, e.g. 224 tensor-memory columns)"
        )
    return n.bit_length() - 1


def _dim_bits(shape: Sequence[int]) -> list[tuple[int, int]]:
    """For each flat-index bit (lowest first): (logical dimension, bit inside it)."""
    out: list[tuple[int, int]] = []
    for d in reversed(range(len(shape))):
        out.extend((d, b) for b in range(_log2(shape[d], f"logical dimension {d}")))
    return out


def to_triton_bases(
    layout: TileLayout, shape: Sequence[int] | None = None, in_dims: Mapping[str, str] | None = None
) -> Bases:
    """Triton basis vectors ``{in_dim: [logical vector per bit]}`` for a power-of-two layout.

    Vectors list the logical coordinate per dimension (``dim0`` first) of ``shape``
    (default: the shard extents). Input dimensions the layout does not use are omitted.

    >>> import tilelayout as tl
    >>> to_triton_bases(tl.parse("S[(4,8):(1@warpid,1@laneid)] + R[2:1]"))
    {'register': [[0, 0]], 'lane': [[0, 1], [0, 2], [0, 4]], 'warp': [[1, 0], [2, 0]]}
    """
    if isinstance(layout, ComposeLayout):
        raise InteropError(
            "a swizzled (ComposeLayout) memory layout is a Triton *shared* layout; only "
            "distributed register/lane/warp layouts are converted"
        )
    names = dict(DEFAULT_IN_DIMS if in_dims is None else in_dims)
    by_axis = {a: n for n, a in names.items()}
    foreign = [a for a in layout.axes if a not in by_axis]
    if foreign:
        raise InteropError(f"axes {foreign} have no Triton input dimension (known: {names})")
    offset = {a: v for a, v in layout.offset.items() if v}
    if offset:
        raise InteropError(f"{layout} has offset {offset}; a linear layout maps 0 to 0")
    dims = layout.check_shape(shape)
    logical = _dim_bits(dims)
    hw: dict[str, dict[int, int | None]] = {}  # axis -> hardware bit -> flat bit (None = replica)

    def place(it: Iter, flat_bit: int | None, k: int) -> None:
        if it.stride <= 0:
            raise InteropError(
                f"iter {it.extent}:{it.stride}@{it.axis}: a stride of {it.stride} puts several "
                f"elements on one {it.axis} position (or runs backwards), which a Triton linear "
                f"layout cannot express"
            )
        bit = _log2(it.stride, f"stride of iter {it.extent}:{it.stride}@{it.axis}") + k
        slots = hw.setdefault(it.axis, {})
        if bit in slots:
            raise InteropError(
                f"two iters set bit {bit} of {it.axis}; their sum carries, which is not XOR"
            )
        slots[bit] = flat_bit

    flat = 0
    for it in reversed(layout.shard):
        for k in range(_log2(it.extent, f"extent of iter {it.extent}:{it.stride}@{it.axis}")):
            place(it, flat, k)
            flat += 1
    for it in layout.replica:
        for k in range(_log2(it.extent, f"extent of replica {it.extent}:{it.stride}@{it.axis}")):
            place(it, None, k)
    out: Bases = {}
    for name, axis in names.items():
        slots = hw.get(axis)
        if not slots:
            continue
        if sorted(slots) != list(range(len(slots))):
            gap = min(set(range(max(slots) + 1)) - set(slots))
            raise InteropError(
                f"no iter sets bit {gap} of {axis}: those {axis} positions would hold no "
                f"element, but a Triton layout gives every {name} an element"
            )
        vectors = []
        for b in range(len(slots)):
            vec = [0] * len(dims)
            if slots[b] is not None:
                d, bit = logical[slots[b]]
                vec[d] = 1 << bit
            vectors.append(vec)
        out[name] = vectors
    return out


def from_triton_bases(
    bases: Mapping[str, Sequence[Sequence[int]]],
    shape: Sequence[int],
    in_dims: Mapping[str, str] | None = None,
) -> TileLayout:
    """Our layout (logical -> register/lane/warp) for Triton basis vectors over ``shape``.

    Zero vectors become replica iters; each other vector must be one logical bit, and
    every logical bit must come from exactly one hardware bit.

    >>> str(from_triton_bases({"register": [[0, 1], [8, 0]],
    ...                        "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}, (16, 8)))
    'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]'
    """
    names = dict(DEFAULT_IN_DIMS if in_dims is None else in_dims)
    dims = tuple(int(s) for s in shape)
    logical = _dim_bits(dims)
    flat_of = {db: p for p, db in enumerate(logical)}
    source: dict[int, Iter] = {}
    replica: list[Iter] = []
    for name, vectors in bases.items():
        if name not in names:
            raise InteropError(f"Triton input dimension {name!r} has no axis (known: {names})")
        axis = names[name]
        for b, vec in reversed(list(enumerate(vectors))):
            vec = [int(v) for v in vec]
            if len(vec) != len(dims):
                raise InteropError(f"{name} basis {b} is {vec}; shape {dims} needs {len(dims)} entries")
            nonzero = [(d, v) for d, v in enumerate(vec) if v]
            if not nonzero:
                replica.append(Iter(2, 1 << b, axis))
                continue
            if len(nonzero) > 1 or nonzero[0][1] & (nonzero[0][1] - 1) or nonzero[0][1] < 0:
                raise InteropError(
                    f"{name} basis {b} is {vec}: it sets several logical bits (an XOR pattern such "
                    f"as a swizzle), which an affine TileLayout cannot express"
                )
            d, v = nonzero[0]
            key = (d, v.bit_length() - 1)
            if key not in flat_of:
                raise InteropError(f"{name} basis {b} is {vec}, outside shape {dims}")
            p = flat_of[key]
            if p in source:
                raise InteropError(
                    f"{name} basis {b} and another basis both move logical bit {key[1]} of "
                    f"dimension {d}; the layout is not invertible per bit"
                )
            source[p] = Iter(2, 1 << b, axis)
    missing = [logical[p] for p in range(len(logical)) if p not in source]
    if missing:
        d, bit = missing[0]
        raise InteropError(
            f"no basis reaches bit {bit} of logical dimension {d}: the layout is not surjective "
            f"onto shape {dims}"
        )
    shard: list[Iter] = []
    for d in range(len(dims)):  # merge inside each logical dimension, keeping dims visible
        bits = [p for p in reversed(range(len(logical))) if logical[p][0] == d]
        shard.extend(fuse_adjacent([source[p] for p in bits]))
    return TileLayout(shard, fuse_adjacent(replica))


def to_triton(
    layout: TileLayout, shape: Sequence[int] | None = None, in_dims: Mapping[str, str] | None = None
) -> Any:
    """A ``triton.tools.LinearLayout`` (needs the ``triton`` extra).

    >>> to_triton(presets.get("mma.m16n8k16.C").layout, (16, 8))  # doctest: +SKIP
    """
    tools = require("triton.tools", "triton")
    dims = layout.check_shape(shape)
    bases = to_triton_bases(layout, dims, in_dims)
    return tools.LinearLayout.from_bases(
        list(bases.items()), [f"dim{d}" for d in range(len(dims))], list(dims)
    )


def from_triton(linear_layout: Any, in_dims: Mapping[str, str] | None = None) -> TileLayout:
    """Our layout for a ``triton.tools.LinearLayout`` whose out dims are ``dim0, dim1, ..``.

    >>> from_triton(to_triton(L, (16, 8)))  # doctest: +SKIP
    """
    out_dims = list(linear_layout.out_dims)
    names = [n for n, _ in out_dims]
    if names != [f"dim{d}" for d in range(len(names))]:
        raise InteropError(f"expected out dims dim0, dim1, ...; got {names}")
    shape = tuple(int(s) for _, s in out_dims)
    bases = {name: [list(v) for v in vecs] for name, vecs in linear_layout.bases}
    return from_triton_bases({k: v for k, v in bases.items() if v}, shape, in_dims)


__all__ = [
    "DEFAULT_IN_DIMS",
    "from_triton",
    "from_triton_bases",
    "to_triton",
    "to_triton_bases",
]
