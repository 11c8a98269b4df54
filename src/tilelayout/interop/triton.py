"""Triton linear layouts: basis vectors over register / lane / warp / block bits.

A Triton ``LinearLayout`` maps hardware bits to logical coordinates linearly over
GF(2): input dimension ``register`` (``lane``, ``warp``, ``block``) has one basis vector
per bit, and the logical coordinate of a (register, lane, warp) point is the XOR of
the basis vectors of its set bits. A zero basis vector means the bit does not change
the element: on a distributed layout the data is broadcast (our replica); on a memory
layout (shared ``offset``, tensor memory ``row`` / ``col``) it is padding (positions
that hold no element: a gap in our strides).

Our layouts map logical -> hardware with integer strides over any extents, so the
two meet exactly where every extent and stride is a power of two and no two iters
touch the same hardware bit (:mod:`tilelayout.algebra.bits`). Outside that (extent 3,
224 tensor-memory columns, stride 6, an offset) Triton's model cannot express the
layout and the conversion says why; in the other direction a basis that sets several
logical bits (an XOR swizzle) has no ``TileLayout`` form.

Input dimensions and our axes (``DEFAULT_IN_DIMS``; docs/interop/triton.md):

* ``register -> m``, ``lane -> laneid``, ``warp -> warpid``, ``block -> cbx``;
* warpgroup axes are rewritten first: ``warp = wid_in_wg + 4*wgid``,
  ``lane + 32*warp = tid_in_wg + 128*wgid = tx`` (a warpgroup is 4 warps);
* tensor memory (``TMEM_IN_DIMS``): ``row -> TLane``, ``col -> TCol``.

``triton`` itself is imported only by :func:`to_triton`, :func:`from_triton` and
:func:`to_gluon` (through :mod:`tilelayout.interop.gluon`).

>>> import tilelayout as tl
>>> to_triton_bases(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8))
{'register': [[0, 1], [8, 0]], 'lane': [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}
>>> to_triton_bases(tl.parse("S[(4,8,4):(1@wid_in_wg,4@laneid,1@laneid)]"), (4, 32))
{'lane': [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], 'warp': [[1, 0], [2, 0]]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..algebra.bits import bases_layout, layout_bases, log2_exact
from ..core.compose import ComposeLayout
from ..core.errors import AlgebraError, shown
from ..core.iter import Iter
from ..core.shape import shape_arg
from ..core.tile import TileLayout
from . import InteropError, require
from .inputs import layout_and_shape, names_arg, tile_arg
from .isolation import isolated

#: Triton input dimension -> our axis (Triton's "block" is the CTA within a cluster)
DEFAULT_IN_DIMS: MappingProxyType[str, str] = MappingProxyType(
    {"register": "m", "lane": "laneid", "warp": "warpid", "block": "cbx"})
#: Triton's tensor-memory layout: row = TMEM lane, col = TMEM column (elements)
TMEM_IN_DIMS: MappingProxyType[str, str] = MappingProxyType({"row": "TLane", "col": "TCol"})
#: Triton's shared layout: offset = shared-memory element offset
SHARED_IN_DIMS: MappingProxyType[str, str] = MappingProxyType({"offset": "m"})
#: memory input dimensions, where a zero basis is padding (distributed ones: broadcast)
MEMORY_IN_DIMS = ("offset", "row", "col")

Bases = dict[str, list[list[int]]]

#: thread axes written as (laneid, warpid) bits: axis -> (bits that are lanes, warp shift)
_THREADS = MappingProxyType({"wid_in_wg": (0, 0), "wgid": (0, 2), "tid_in_wg": (5, 0), "tx": (5, 0)})


def _log2(n: int, what: str) -> int:
    try:
        return log2_exact(n, what)
    except AlgebraError as exc:
        raise InteropError(str(exc)) from None


def _split_thread_iter(it: Iter) -> list[Iter]:
    """``it`` on a warpgroup / CTA thread axis as iters on ``warpid`` (outer) and ``laneid``."""
    lane_bits, shift = _THREADS[it.axis]
    if it.extent == 1:
        return [Iter(1, 1, "laneid" if lane_bits else "warpid")]
    lo = _log2(it.stride, f"stride of iter {it.extent}:{it.stride}@{it.axis}")
    hi = lo + _log2(it.extent, f"extent of iter {it.extent}:{it.stride}@{it.axis}")
    out = []
    if hi > lane_bits:  # warp bits: [max(lo, lane_bits), hi)
        start = max(lo, lane_bits)
        out.append(Iter(1 << (hi - start), 1 << (start - lane_bits + shift), "warpid"))
    if lo < lane_bits:
        out.append(Iter(1 << (min(hi, lane_bits) - lo), 1 << lo, "laneid"))
    return out


def triton_thread_axes(layout: TileLayout) -> TileLayout:
    """``layout`` with warpgroup / CTA thread axes written as Triton's lane and warp:
    ``warp = wid_in_wg + 4*wgid``, ``lane + 32*warp = tid_in_wg + 128*wgid = tx``.

    >>> import tilelayout as tl
    >>> str(triton_thread_axes(tl.parse("S[(2,64):(1@wgid,1@tid_in_wg)]")))
    'S[(2,2,32):(4@warpid,1@warpid,1@laneid)]'
    """
    layout = tile_arg(layout)
    if not any(a in _THREADS for a in layout.axes):
        return layout
    both = ["warpid"] if "warpid" in layout.axes else []
    if "laneid" in layout.axes and {"tid_in_wg", "tx"} & set(layout.axes):
        both.append("laneid")
    if both:
        raise InteropError(
            f"{layout} uses {', '.join(both)} next to warpgroup axes "
            f"({', '.join(a for a in layout.axes if a in _THREADS)}); Triton has one lane and "
            f"one warp dimension, so write the threads one way"
        )

    def rewrite(iters: Sequence[Iter]) -> list[Iter]:
        return [part for it in iters for part in
                (_split_thread_iter(it) if it.axis in _THREADS else [it])]

    offset = {a: v for a, v in layout.offset.items() if v}
    if any(a in _THREADS for a in offset):
        raise InteropError(f"{layout} has offset {offset}; a linear layout maps 0 to 0")
    return TileLayout(rewrite(layout.shard), rewrite(layout.replica), offset)


def default_in_dims(axes: Sequence[str]) -> dict[str, str]:
    """The Triton input dimensions for a layout on ``axes``: tensor memory's row / col,
    shared memory's offset, or register / lane / warp / block.

    >>> default_in_dims(["TLane", "TCol"])
    {'row': 'TLane', 'col': 'TCol'}
    """
    if not isinstance(axes, Sequence) or isinstance(axes, str) or \
            not all(isinstance(a, str) for a in axes):
        raise InteropError(f"axes must be a sequence of axis names, got {shown(axes)}")
    if axes and set(axes) <= {"TLane", "TCol"}:
        return dict(TMEM_IN_DIMS)
    return dict(DEFAULT_IN_DIMS)


#: tensor-memory row bits where a zero basis is a broadcast, not padding: rows 32 and 64
#: select the lane quarter a warp reaches (Triton's note "Zeros in TMEM LinearLayouts",
#: tensorMemoryToLinearLayout in lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp)
TMEM_BROADCAST_ROWS = (5, 6)


def _padding(names: Mapping[str, str]) -> tuple[str, ...]:
    return tuple(axis for name, axis in names.items() if name in MEMORY_IN_DIMS)


def _broadcast(names: Mapping[str, str]) -> dict[str, tuple[int, ...]]:
    return {names["row"]: TMEM_BROADCAST_ROWS} if "row" in names else {}


def to_triton_bases(
    layout: TileLayout | str, shape: Sequence[int] | str | None = None,
    in_dims: Mapping[str, str] | None = None
) -> Bases:
    """Triton basis vectors ``{in_dim: [logical vector per bit]}`` for a power-of-two layout.

    Vectors list the logical coordinate per dimension (``dim0`` first) of ``shape``
    (default: the shard extents). Input dimensions the layout does not use are omitted.
    Zero vectors: broadcast (replicas) on register / lane / warp / block, padding (bits
    no iter sets) on tensor memory's row / col and shared memory's offset, except rows
    32 and 64 of tensor memory (``TMEM_BROADCAST_ROWS``), where they are broadcasts.

    >>> import tilelayout as tl
    >>> to_triton_bases(tl.parse("S[(4,8):(1@warpid,1@laneid)] + R[2:1]"))
    {'register': [[0, 0]], 'lane': [[0, 1], [0, 2], [0, 4]], 'warp': [[1, 0], [2, 0]]}
    >>> to_triton_bases(tl.parse("S[(8,4):(1@TLane,2@TCol)]"))      # col bit 0: padding
    {'row': [[1, 0], [2, 0], [4, 0]], 'col': [[0, 0], [0, 1], [0, 2]]}
    """
    layout, shape = layout_and_shape(layout, shape)
    in_dims = names_arg(in_dims)
    if isinstance(layout, ComposeLayout):
        raise InteropError(
            "a swizzled (ComposeLayout) memory layout is a Triton *shared* layout; only "
            "distributed register/lane/warp layouts are converted"
        )
    names = default_in_dims(layout.axes) if in_dims is None else dict(in_dims)
    if in_dims is None and names == DEFAULT_IN_DIMS:
        layout = triton_thread_axes(layout)
    by_axis = {a: n for n, a in names.items()}
    foreign = [a for a in layout.axes if a not in by_axis]
    if foreign:
        raise InteropError(f"axes {foreign} have no Triton input dimension (known: {names})")
    try:
        bases = layout_bases(layout, shape, padding=_padding(names), broadcast=_broadcast(names))
    except AlgebraError as exc:
        raise InteropError(str(exc)) from None
    return {name: bases[axis] for name, axis in names.items() if axis in bases}


def _bases_arg(bases: Any) -> dict[str, list[list[int]]]:
    """``{in_dim: [[int, ...], ...]}`` as given, checked (a vector of ints per bit)."""
    ok = isinstance(bases, Mapping) and all(
        isinstance(k, str) and isinstance(v, Sequence) and not isinstance(v, str) and all(
            isinstance(vec, Sequence) and not isinstance(vec, str) and all(
                isinstance(x, int) and not isinstance(x, bool) for x in vec) for vec in v)
        for k, v in bases.items())
    if not ok:
        raise InteropError(f"bases must map input dimensions to lists of integer vectors "
                           f"(e.g. {{'lane': [[0, 1], [1, 0]]}}), got {shown(bases)}")
    if len(bases) > 16 or any(len(v) > 64 for v in bases.values()):
        raise InteropError("bases hold at most 16 input dimensions of 64 bits each")
    return {k: [list(vec) for vec in v] for k, v in bases.items()}


def from_triton_bases(
    bases: Mapping[str, Sequence[Sequence[int]]],
    shape: Sequence[int],
    in_dims: Mapping[str, str] | None = None,
) -> TileLayout:
    """Our layout (logical -> register/lane/warp, or TMEM row/col) for Triton basis
    vectors over ``shape``.

    Zero vectors become replica iters on register / lane / warp / block (broadcast) and
    unused positions on row / col / offset (padding); each other vector must be one
    logical bit, and every logical bit must come from exactly one hardware bit.

    >>> str(from_triton_bases({"register": [[0, 1], [8, 0]],
    ...                        "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}, (16, 8)))
    'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]'
    >>> str(from_triton_bases({"row": [[1, 0], [2, 0]], "col": [[0, 0], [0, 1]]}, (4, 2)))
    'S[(4,2):(1@TLane,2@TCol)]'
    """
    bases = _bases_arg(bases)
    shape = shape_arg(shape)
    if shape is None:
        raise InteropError("from_triton_bases needs the logical shape the bases map onto")
    in_dims = names_arg(in_dims)
    if in_dims is None:
        names = dict(TMEM_IN_DIMS if set(bases) & {"row", "col"} else
                     SHARED_IN_DIMS if "offset" in bases else DEFAULT_IN_DIMS)
    else:
        names = dict(in_dims)
    unknown = [n for n in bases if n not in names]
    if unknown:
        raise InteropError(f"Triton input dimension {unknown[0]!r} has no axis (known: {names})")
    try:
        return bases_layout({names[n]: v for n, v in bases.items()}, shape, padding=_padding(names),
                            broadcast=_broadcast(names))
    except AlgebraError as exc:
        message = str(exc)
        for name, axis in names.items():
            message = message.replace(f"{axis} basis", f"{name} basis")
        raise InteropError(message) from None


def to_triton(
    layout: TileLayout | str, shape: Sequence[int] | str | None = None,
    in_dims: Mapping[str, str] | None = None
) -> Any:
    """A ``triton.tools.LinearLayout`` (needs the ``triton`` extra); in dims as
    :func:`to_triton_bases` names them, out dims ``dim0, dim1, ...``.

    >>> import tilelayout as tl
    >>> to_triton(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8)).out_dims
    [('dim0', 16), ('dim1', 8)]
    """
    tools = require("triton.tools", "triton", "a Triton LinearLayout")
    layout, dims = layout_and_shape(layout, shape)
    bases = to_triton_bases(layout, dims, in_dims)
    return tools.LinearLayout.from_bases(
        list(bases.items()), [f"dim{d}" for d in range(len(dims))], list(dims)
    )


def from_triton(obj: Any, shape: Sequence[int] | str | None = None,
                in_dims: Mapping[str, str] | None = None, *, isolate: bool = False) -> Any:
    """Our layout for a ``triton.tools.LinearLayout`` (out dims ``dim0, dim1, ...``) or any
    Gluon layout object (``BlockedLayout``, ``SliceLayout``, ``DotOperandLayout``,
    ``NVMMADistributedLayout``, AMD's ``AMDMFMALayout`` / ``AMDWMMALayout``,
    ``DistributedLinearLayout``, ``NVMMASharedLayout``, ``SwizzledSharedLayout``,
    ``SharedLinearLayout``, ``PaddedSharedLayout``, ``TensorMemoryLayout``, ...). Named
    layouts need ``shape`` and are lowered by Triton itself (needs the ``triton`` extra);
    see :func:`tilelayout.interop.gluon.from_gluon`. What Triton's lowering does not accept
    is refused first (:mod:`tilelayout.interop.gluon_checks`); ``isolate=True`` runs the
    lowering in a child process too (:mod:`tilelayout.interop.isolation`), so not even an
    input those checks miss can end this process.

    >>> import tilelayout as tl
    >>> L = tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]")
    >>> from_triton(to_triton(L, (16, 8))) == L
    True
    """
    shape = shape_arg(shape)
    in_dims = names_arg(in_dims)
    if isolate and hasattr(obj, "_to_ir"):  # a named layout: Triton lowers it
        return isolated("tilelayout.interop.gluon:from_gluon", obj, shape, in_dims,
                        what=f"from_triton({type(obj).__name__}, shape {shape})")
    gluon = require("tilelayout.interop.gluon", "triton", "reading a Gluon layout")
    return gluon.from_gluon(obj, shape, in_dims)


def to_gluon(layout: Any, shape: Sequence[int] | str | None = None, *,
             isolate: bool = False) -> Any:
    """The simplest Gluon layout object equal to ``layout`` over ``shape``: a named one
    (``BlockedLayout``, ``NVMMASharedLayout``, ``SwizzledSharedLayout``,
    ``TensorMemoryLayout``, ...) where one is, else ``DistributedLinearLayout`` /
    ``SharedLinearLayout``; see :func:`tilelayout.interop.gluon.to_gluon`. ``layout`` is a
    layout, its text or a ``"preset:..."`` string; ``isolate=True`` runs Triton in a child
    process (:mod:`tilelayout.interop.isolation`).

    >>> import tilelayout as tl
    >>> to_gluon(tl.parse("S[(4,32,4):(1@warpid,1@laneid,1)]"), (4, 128))
    BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], ...)
    """
    layout, dims = layout_and_shape(layout, shape)
    if isolate:
        return isolated("tilelayout.interop.gluon:to_gluon", layout, dims,
                        what=f"to_gluon({layout}, shape {dims})")
    return require("tilelayout.interop.gluon", "triton", "the Gluon conversion").to_gluon(layout, dims)


__all__ = [
    "DEFAULT_IN_DIMS",
    "MEMORY_IN_DIMS",
    "SHARED_IN_DIMS",
    "TMEM_IN_DIMS",
    "default_in_dims",
    "from_triton",
    "from_triton_bases",
    "to_gluon",
    "to_triton",
    "to_triton_bases",
    "triton_thread_axes",
]
