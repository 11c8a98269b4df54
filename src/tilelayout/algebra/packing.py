"""Element-width changes and the storage view.

``unpack(L, n, axis)``: each element becomes ``n`` consecutive narrower elements that
sit at consecutive positions of ``axis``:
``U(x*n + j) = {c with c[axis]*n + j | c in L(x)}`` — strides, replica strides and the
offset on ``axis`` are multiplied by ``n`` and an innermost ``n:1@axis`` is appended.

``pack(L, n, axis)`` is the inverse: ``n`` consecutive logical elements that sit at
``n`` consecutive positions of ``axis`` become one element of the wider type:
``P(y) = {c with c[axis] / n | c in L(y*n)}``. It needs the innermost ``n`` elements to
be one ``n:1@axis`` run (after fusing) and every other stride and the offset on
``axis`` to be multiples of ``n``; otherwise :class:`AlgebraError`. Example: four 8-bit
scale factors per 32-bit ``TCol`` cell is ``pack(4, "TCol")``.

On a ComposeLayout (``axis == "m"``, ``n`` a power of two) the swizzle's ``M`` changes by
``log2 n`` (``M - log2 n`` for pack, ``M + log2 n`` for unpack; CuTe's upcast/downcast
rule): the swizzle keeps acting on the same bytes. An XorSwizzle's images shift by
``log2 n`` bits the same way (unpack prepends ``log2 n`` fixed bits; pack needs its low
``log2 n`` bits fixed and untouched by the others).

``storage(L)`` drops thread axes: shard iters on thread axes keep their extent with
stride 0 (so the logical shape is unchanged), thread replicas and thread offsets go.
What remains says where each element is stored, not who holds it.

>>> import tilelayout as tl
>>> unpack(tl.parse("S[(2,4):(4,1)]"), 2)
parse('S[(2,4,2):(8,2,1)]')
>>> pack(tl.parse("S[(2,4,2):(8,2,1)]"), 2)
parse('S[(2,4):(4,1)]')
"""

from __future__ import annotations

from ..core.axes import check_axis, is_thread_axis
from ..core.compose import ComposeLayout, Layout
from ..core.errors import AlgebraError
from ..core.iter import Iter
from ..core.swizzle import Swizzle
from ..core.tile import TileLayout
from ..core.xor_swizzle import XorSwizzle
from .canonical import fuse_adjacent
from .group import group_iters


def _power_of_two(n: int, what: str) -> int:
    if n < 1 or n & (n - 1):
        raise AlgebraError(f"{what}: a swizzled layout changes width by a power of two, got {n}")
    return n.bit_length() - 1


def _check_n(n: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise AlgebraError(f"the packing factor must be a positive integer, got {n!r}")


def unpack(layout: Layout, n: int, axis: str = "m") -> Layout:
    """Each element becomes ``n`` narrower elements at consecutive ``axis`` positions.

    >>> import tilelayout as tl
    >>> unpack(tl.parse("S[32:1@TLane] + R[4:32@TLane]"), 4, "TCol")
    parse('S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]')
    """
    _check_n(n)
    if axis not in layout.axes:
        check_axis(axis)  # a typo gets its "did you mean"
    if n == 1:
        return layout  # one element per element: nothing changes
    if isinstance(layout, ComposeLayout):
        k = _power_of_two(n, "unpack")
        sw = layout.swizzle
        inner = unpack(layout.tile_layout, n, axis)
        assert isinstance(inner, TileLayout)
        if axis != "m":
            return ComposeLayout(sw, inner)
        if isinstance(sw, XorSwizzle):
            return ComposeLayout(XorSwizzle([1 << j for j in range(k)]
                                            + [v << k for v in sw.images]), inner)
        return ComposeLayout(Swizzle(sw.per_element + k, sw.swizzle_len, sw.atom_len), inner)

    def f(it: Iter) -> Iter:
        return Iter(it.extent, it.stride * n, it.axis) if it.axis == axis else it

    offset = {a: v * n if a == axis else v for a, v in layout.offset.items()}
    shard = [f(i) for i in layout.shard] + [Iter(n, 1, axis)]
    return TileLayout(shard, [f(i) for i in layout.replica], offset)


def pack(layout: Layout, n: int, axis: str = "m") -> Layout:
    """``n`` consecutive elements at consecutive ``axis`` positions become one element.

    >>> import tilelayout as tl
    >>> pack(tl.parse("S[(128,16):(1@TLane,1@TCol)]"), 4, "TCol")
    parse('S[(128,4):(1@TLane,1@TCol)]')
    """
    _check_n(n)
    if axis not in layout.axes:
        check_axis(axis)  # a typo gets its "did you mean"
    if n == 1:
        return layout
    if isinstance(layout, ComposeLayout):
        k = _power_of_two(n, "pack")
        sw = layout.swizzle
        inner = pack(layout.tile_layout, n, axis)
        assert isinstance(inner, TileLayout)
        if axis != "m":
            return ComposeLayout(sw, inner)
        if isinstance(sw, XorSwizzle):
            if sw.vector_bits < k:
                raise AlgebraError(
                    f"pack({n}) would split the runs of {n} elements that {sw} keeps together "
                    f"only if its low {k} bits map to themselves and no other bit sets them"
                )
            return ComposeLayout(XorSwizzle([v >> k for v in sw.images[k:]]), inner)
        if sw.per_element < k:
            raise AlgebraError(
                f"pack({n}) would split the swizzle's unswizzled run of 2**{sw.per_element} "
                f"elements of {sw}; pack by at most {1 << sw.per_element}"
            )
        return ComposeLayout(Swizzle(sw.per_element - k, sw.swizzle_len, sw.atom_len), inner)
    size = layout.size()
    if size % n:
        raise AlgebraError(f"cannot pack {n} elements: the layout has {size} elements")
    outer, low = group_iters(layout.shard, (size // n, n))
    low = fuse_adjacent(low)
    if low != [Iter(n, 1, axis)]:
        raise AlgebraError(
            f"cannot pack {n} elements on '{axis}': the innermost {n} elements of {layout} "
            f"must sit at {n} consecutive positions of '{axis}' (an innermost {n}:1@{axis} run)"
        )

    def f(it: Iter) -> Iter:
        if it.axis != axis:
            return it
        if it.stride % n:
            raise AlgebraError(
                f"cannot pack {n} elements on '{axis}': stride {it.stride} is not a multiple "
                f"of {n}, so a packed element would straddle two cells"
            )
        return Iter(it.extent, it.stride // n, axis)

    off = layout.offset.get(axis, 0)
    if off % n:
        raise AlgebraError(f"cannot pack {n} elements on '{axis}': offset {off} is not a "
                           f"multiple of {n}")
    offset = {a: v // n if a == axis else v for a, v in layout.offset.items()}
    return TileLayout([f(i) for i in outer], [f(i) for i in layout.replica], offset)


def storage(layout: Layout) -> Layout:
    """Where each element is stored, without who holds it (thread axes dropped).

    >>> import tilelayout as tl
    >>> storage(tl.parse("S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:1@warpid]"))
    parse('S[(8,4,2):(0,0,1)]')
    """
    if isinstance(layout, ComposeLayout):
        inner = storage(layout.tile_layout)
        assert isinstance(inner, TileLayout)
        return ComposeLayout(layout.swizzle, inner)
    memory = [a for a in layout.axes if not is_thread_axis(a)]
    home = memory[0] if memory else "m"
    shard = [Iter(i.extent, 0, home) if is_thread_axis(i.axis) else i for i in layout.shard]
    replica = [i for i in layout.replica if not is_thread_axis(i.axis)]
    offset = {a: v for a, v in layout.offset.items() if not is_thread_axis(a)}
    return TileLayout(shard, replica, offset)
