"""Layouts as bit maps: one logical vector per hardware bit (linear over GF(2)).

A power-of-two layout whose iters each move distinct hardware bits is a bit map: for
every axis (``m``, ``laneid``, ``warpid``, ...) bit ``k`` of that axis either moves one
bit of the logical index or none (a replica: the element is broadcast over that bit).
This is the form Triton's linear layouts take, with one list of basis vectors per
hardware input dimension; :func:`layout_bases` writes a layout in it and
:func:`bases_layout` reads it back (a basis that moves several logical bits is an XOR
pattern, which no ``TileLayout`` expresses, and is refused with that reason).

Vectors list the logical coordinate per dimension of ``shape`` (``dim0`` first); a zero
vector is a broadcast bit (our replica).

>>> import tilelayout as tl
>>> layout_bases(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8))
{'m': [[0, 1], [8, 0]], 'laneid': [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}
>>> str(bases_layout(_, (16, 8)))
'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]'
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ..core.errors import AlgebraError
from ..core.iter import Iter
from ..core.tile import TileLayout
from .canonical import fuse_adjacent

Bases = dict[str, list[list[int]]]


def log2_exact(n: int, what: str) -> int:
    """``log2(n)`` for a power of two ``n``; otherwise an :class:`AlgebraError` naming ``what``.

    >>> log2_exact(8, "extent")
    3
    """
    if n < 1 or n & (n - 1):
        raise AlgebraError(
            f"{what} is {n}, not a power of two: a linear (bit) layout is linear over bits, "
            f"so every extent and stride must be a power of two (tilelayout itself takes any "
            f"extent, e.g. 224 tensor-memory columns)"
        )
    return n.bit_length() - 1


def dim_bits(shape: Sequence[int]) -> list[tuple[int, int]]:
    """For each bit of the row-major flat index (lowest first): (dimension, bit inside it).

    >>> dim_bits((2, 4))
    [(1, 0), (1, 1), (0, 0)]
    """
    out: list[tuple[int, int]] = []
    for d in reversed(range(len(shape))):
        out.extend((d, b) for b in range(log2_exact(shape[d], f"logical dimension {d}")))
    return out


def layout_bases(layout: TileLayout, shape: Sequence[int] | None = None,
                 padding: Collection[str] = (),
                 broadcast: Mapping[str, Collection[int]] | None = None) -> Bases:
    """Per axis of ``layout``, the logical vector each of its bits moves.

    A zero vector is a replica bit (the element broadcast over it) on a distributed axis;
    on the memory axes listed in ``padding`` it is a bit no iter sets (padding: those
    positions hold no element), and a replica there is refused (memory holds each
    element once). Refused too (:class:`AlgebraError`, with the reason): an offset, a
    non-power-of-two extent or stride, a zero or negative shard stride, two iters on one
    bit (their sum carries), an axis bit no iter sets on a distributed axis.
    ``broadcast`` names bits of padding axes where a zero vector is a broadcast instead
    (Triton's tensor-memory rows 32 and 64: the four warps' lane quarters).

    >>> import tilelayout as tl
    >>> layout_bases(tl.parse("S[4:2@TCol]"), padding=("TCol",))
    {'TCol': [[0], [1], [2]]}

    >>> import tilelayout as tl
    >>> layout_bases(tl.parse("S[(4,8):(1@warpid,1@laneid)] + R[2:1]"))
    {'warpid': [[1, 0], [2, 0]], 'laneid': [[0, 1], [0, 2], [0, 4]], 'm': [[0, 0]]}
    """
    offset = {a: v for a, v in layout.offset.items() if v}
    if offset:
        raise AlgebraError(f"{layout} has offset {offset}; a linear layout maps 0 to 0")
    dims = layout.check_shape(shape)
    logical = dim_bits(dims)
    hw: dict[str, dict[int, int | None]] = {}  # axis -> axis bit -> flat bit (None = replica)

    def place(it: Iter, flat_bit: int | None, k: int) -> None:
        if it.stride <= 0:
            raise AlgebraError(
                f"iter {it.extent}:{it.stride}@{it.axis}: a stride of {it.stride} puts several "
                f"elements on one {it.axis} position (or runs backwards), which a linear "
                f"layout cannot express"
            )
        bit = log2_exact(it.stride, f"stride of iter {it.extent}:{it.stride}@{it.axis}") + k
        slots = hw.setdefault(it.axis, {})
        if bit in slots:
            raise AlgebraError(f"two iters set bit {bit} of {it.axis}; their sum carries, which is not XOR")
        slots[bit] = flat_bit

    flat = 0
    for it in reversed(layout.shard):
        for k in range(log2_exact(it.extent, f"extent of iter {it.extent}:{it.stride}@{it.axis}")):
            place(it, flat, k)
            flat += 1
    for it in layout.replica:
        wide = set(range(it.stride.bit_length() - 1, (it.stride * it.extent).bit_length() - 1))
        if it.axis in padding and it.extent > 1 and not wide <= set((broadcast or {}).get(it.axis, ())):
            raise AlgebraError(
                f"replica {it.extent}:{it.stride}@{it.axis} stores each element several times in "
                f"memory; a zero basis on memory axis {it.axis} means padding (no element), "
                f"not a broadcast"
            )
        for k in range(log2_exact(it.extent, f"extent of replica {it.extent}:{it.stride}@{it.axis}")):
            place(it, None, k)
    out: Bases = {}
    for axis in layout.axes:
        slots = hw.get(axis)
        if not slots:
            continue
        if axis in padding:
            slots = {b: slots.get(b) for b in range(max(slots) + 1)}
        elif sorted(slots) != list(range(len(slots))):
            gap = min(set(range(max(slots) + 1)) - set(slots))
            raise AlgebraError(
                f"no iter sets bit {gap} of {axis}: those {axis} positions would hold no "
                f"element (padding), which only a memory axis has; on distributed axis {axis} "
                f"a zero basis is a broadcast, so every {axis} value holds an element"
            )
        vectors = []
        for b in range(len(slots)):
            vec = [0] * len(dims)
            if slots[b] is not None:
                d, bit = logical[slots[b]]
                vec[d] = 1 << bit
            vectors.append(vec)
        out[axis] = vectors
    return out


def bases_layout(bases: Mapping[str, Sequence[Sequence[int]]], shape: Sequence[int],
                 padding: Collection[str] = (),
                 broadcast: Mapping[str, Collection[int]] | None = None) -> TileLayout:
    """The layout whose axis bits move the given logical vectors over ``shape``.

    Zero vectors become replica iters (broadcast), or on the memory axes listed in
    ``padding`` bits no iter sets (padding) unless ``broadcast`` lists the bit; each other
    vector must be one logical bit, and every logical bit must come from exactly one axis
    bit.

    >>> str(bases_layout({"m": [[0, 0]], "laneid": [[0, 1], [0, 2], [1, 0]]}, (2, 4)))
    'S[(2,4):(4@laneid,1@laneid)] + R[2:1]'
    >>> str(bases_layout({"TCol": [[0], [1], [2]]}, (4,), padding=("TCol",)))
    'S[4:2@TCol]'
    """
    dims = tuple(int(s) for s in shape)
    logical = dim_bits(dims)
    flat_of = {db: p for p, db in enumerate(logical)}
    source: dict[int, Iter] = {}
    replica: list[Iter] = []
    for axis, vectors in bases.items():
        for b, raw in reversed(list(enumerate(vectors))):
            vec = [int(v) for v in raw]
            if len(vec) != len(dims):
                raise AlgebraError(f"{axis} basis {b} is {vec}; shape {dims} needs {len(dims)} entries")
            nonzero = [(d, v) for d, v in enumerate(vec) if v]
            if not nonzero:
                if axis in padding and b not in (broadcast or {}).get(axis, ()):
                    continue
                replica.append(Iter(2, 1 << b, axis))
                continue
            if len(nonzero) > 1 or nonzero[0][1] & (nonzero[0][1] - 1) or nonzero[0][1] < 0:
                raise AlgebraError(
                    f"{axis} basis {b} is {vec}: it sets several logical bits (an XOR pattern such "
                    f"as a swizzle), which an affine TileLayout cannot express"
                )
            d, v = nonzero[0]
            key = (d, v.bit_length() - 1)
            if key not in flat_of:
                raise AlgebraError(f"{axis} basis {b} is {vec}, outside shape {dims}")
            p = flat_of[key]
            if p in source:
                raise AlgebraError(
                    f"{axis} basis {b} and another basis both move logical bit {key[1]} of "
                    f"dimension {d}; the layout is not invertible per bit"
                )
            source[p] = Iter(2, 1 << b, axis)
    missing = [logical[p] for p in range(len(logical)) if p not in source]
    if missing:
        d, bit = missing[0]
        raise AlgebraError(
            f"no basis reaches bit {bit} of logical dimension {d}: the layout is not surjective "
            f"onto shape {dims}"
        )
    shard: list[Iter] = []
    for d in range(len(dims)):  # merge inside each logical dimension, keeping dims visible
        bits = [p for p in reversed(range(len(logical))) if logical[p][0] == d]
        shard.extend(fuse_adjacent([source[p] for p in bits]))
    replica.sort(key=lambda it: (it.axis, -it.stride))  # one order whatever the input order
    return TileLayout(shard, fuse_adjacent(replica))


def squeeze(layout: TileLayout, shape: Sequence[int], dim: int, register: str = "m") -> TileLayout:
    """``layout`` over ``shape`` without dimension ``dim`` (extent 1), dropping the register
    bits that then hold copies: the register axis's replica bits are removed and its other
    bits renumbered densely, in order. This is how Triton's ``SliceLayout(dim, parent)``
    comes from the parent built with extent 1 at ``dim`` (SliceEncodingAttr::toLinearLayout,
    lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp): lanes and warps that moved
    along ``dim`` stay as broadcasts, registers that did disappear.

    >>> import tilelayout as tl
    >>> str(squeeze(tl.parse("S[(32,2):(1@laneid,2)] + R[2:1]"), (1, 32, 2), 0))
    'S[(32,2):(1@laneid,1)]'
    """
    dims = [int(s) for s in shape]
    if not 0 <= dim < len(dims) or dims[dim] != 1:
        raise AlgebraError(f"dimension {dim} of shape {tuple(dims)} must exist and have extent 1 "
                           f"to be dropped")
    bases = layout_bases(layout, dims)
    out: Bases = {}
    for axis, vectors in bases.items():
        kept = [v[:dim] + v[dim + 1:] for v in vectors]
        out[axis] = [v for v in kept if any(v)] if axis == register else kept
    return bases_layout(out, dims[:dim] + dims[dim + 1:])


__all__ = ["Bases", "bases_layout", "dim_bits", "layout_bases", "log2_exact", "squeeze"]
