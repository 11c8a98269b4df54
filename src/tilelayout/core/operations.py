"""Operations shared by every layout (TileLayout and ComposeLayout).

Each method is a thin door into the layer that implements it (``eval``, ``algebra``,
``render``), imported lazily so the model itself stays free of those layers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .budget import Limits
from .coord import Coord
from .shape import Index

if TYPE_CHECKING:
    import numpy as np

    from .compose import Layout


_forward: Any = None  # tilelayout.eval.forward, once imported (the scalar doors are hot)


def _load_forward() -> Any:
    global _forward
    from ..eval import forward

    _forward = forward
    return forward


class LayoutOperations:
    """Evaluation, inverse queries, algebra and display for any layout."""

    __slots__ = ()

    # -- evaluation (implemented in tilelayout.eval) ------------------------------------
    def apply(self, index: Index, shape: Sequence[int] | None = None, *,
              limits: Limits | None = None) -> tuple[Coord, ...]:
        """The set ``L(x)`` of physical coordinates of logical element ``index``.

        Coordinates come in replica enumeration order, duplicates removed; on a
        ComposeLayout the ``m`` of each coordinate is swizzled.

        >>> import tilelayout as tl
        >>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
        >>> L.apply((0, 8), shape=(8, 16))
        ({laneid: 0, warpid: 6, m: 0}, {laneid: 0, warpid: 10, m: 0})
        """
        return (_forward or _load_forward()).apply(self, index, shape, limits=limits)

    def base(self, index: Index, shape: Sequence[int] | None = None) -> Coord:
        """The replica-free coordinate ``D(x) + O``.

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + 5@warpid").base(127)
        {laneid: 31, warpid: 6, m: 1}
        """
        return (_forward or _load_forward()).base(self, index, shape)

    def map_all(self, shape: Sequence[int] | None = None, *,
                limits: Limits | None = None) -> dict[str, np.ndarray]:
        """Every element at once: axis -> int64 array of shape ``(*shape, R)``.

        >>> import tilelayout as tl
        >>> tl.parse("S[4:2] + R[2:1@pid]").map_all()["pid"].shape
        (4, 2)
        """
        return (_forward or _load_forward()).map_all(self, shape, limits=limits)

    # -- inverse queries (implemented in tilelayout.eval.inverse) ---------------------
    def elements_at(
        self,
        query: Mapping[str, int],
        shape: Sequence[int] | None = None,
        *,
        limit: int | None = 1 << 22,
    ) -> tuple[tuple[int, ...], ...]:
        """Logical indices (sorted tuples) whose coordinate set contains a coordinate
        with the queried axis values (other axes free). On a ComposeLayout a queried
        ``m`` is a swizzled address. See ``docs/algebra.md``.

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,4):(4@laneid,1@laneid)]").elements_at({"laneid": 5})
        ((1, 1),)
        """
        from ..eval.inverse import elements_at

        return elements_at(self, query, shape, limit=limit)

    # -- algebra (implemented in tilelayout.algebra; see docs/algebra.md) --------------
    def span(self, axis: str = "m") -> int:
        """Covered extent ``max - min + 1`` of ``axis`` over every value (1 if absent).

        On a ComposeLayout: the unswizzled tile's (a swizzle permutes within atoms).

        >>> import tilelayout as tl
        >>> tl.parse("S[4:-1] + 10").span("m")
        4
        """
        from ..algebra.span import span

        return span(self, axis)

    def canonicalize(self, *, fuse_threads: bool = False) -> Layout:
        """The same mapping in canonical form (fused iters, sorted replicas, no zeros).

        >>> import tilelayout as tl
        >>> tl.parse("S[(4,2):(2,1)] + 0@warpid").canonicalize()
        parse('S[8:1]')
        """
        from ..algebra.canonical import canonicalize

        return canonicalize(self, fuse_threads=fuse_threads)

    def group(self, shape: int | Sequence[int]) -> tuple[Layout, tuple[int, ...]]:
        """Split iters so that ``shard[seps[i]:seps[i+1]]`` multiply to ``shape[i]``.

        >>> import tilelayout as tl
        >>> tl.parse("S[6:1]").group((2, 3))
        (parse('S[(2,3):(3,1)]'), (0, 1, 2))
        """
        from ..algebra.group import group

        return group(self, shape)

    def tile_to(self, to_shape: Sequence[int], current_shape: Sequence[int]) -> Layout:
        """Tile row-major on ``m`` up to ``to_shape`` (each entry must divide exactly).

        >>> import tilelayout as tl
        >>> tl.parse("S[4:1]").tile_to((12,), (4,))
        parse('S[(3,4):(4,1)]')
        """
        from ..algebra.tiling import tile_to

        return tile_to(self, to_shape, current_shape)

    def slice(self, shape: Sequence[int], region: Sequence) -> Layout:
        """The layout of a rectangular ``region`` (``(start, stop)`` or slices per dim).

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,64):(64,1)]").slice((8, 64), ((1, 2), (8, 16)))
        parse('S[8:1] + 72')
        """
        from ..algebra.slicing import slice_layout

        return slice_layout(self, shape, region)

    def permute_dims(self, perm: Sequence[int], shape: Sequence[int] | None = None) -> Layout:
        """The layout of the tensor with dims reordered (new dim j = old dim ``perm[j]``).

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,64):(64,1)]").permute_dims((1, 0))
        parse('S[(64,8):(1,64)]')
        """
        from ..algebra.slicing import permute_dims

        return permute_dims(self, perm, shape)

    def pack(self, n: int, axis: str = "m") -> Layout:
        """``n`` consecutive elements at consecutive ``axis`` positions become one.

        >>> import tilelayout as tl
        >>> tl.parse("S[(32,16):(1@TLane,1@TCol)]").pack(4, "TCol")
        parse('S[(32,4):(1@TLane,1@TCol)]')
        """
        from ..algebra.packing import pack

        return pack(self, n, axis)

    def unpack(self, n: int, axis: str = "m") -> Layout:
        """Each element becomes ``n`` narrower elements at consecutive ``axis`` positions.

        >>> import tilelayout as tl
        >>> tl.parse("S[4:1]").unpack(2)
        parse('S[(4,2):(2,1)]')
        """
        from ..algebra.packing import unpack

        return unpack(self, n, axis)

    def storage(self) -> Layout:
        """Where each element is stored: thread axes dropped (their iters get stride 0).

        >>> import tilelayout as tl
        >>> tl.parse("S[(32,2):(1@laneid,1)]").storage()
        parse('S[(32,2):(0,1)]')
        """
        from ..algebra.packing import storage

        return storage(self)

    def equivalent(self, other: Layout, shape: Sequence[int] | None = None) -> bool:
        """Same coordinate set for every element (absent axes count as 0).

        >>> import tilelayout as tl
        >>> tl.parse("S[(4,4):(4,1)]").equivalent(tl.parse("S[16:1]"))
        True
        """
        from ..algebra.equivalence import equivalent

        return equivalent(self, other, shape)

    # -- code generation (implemented in tilelayout.codegen) ----------------------------
    def codegen(
        self,
        shape: Sequence[int] | None = None,
        lang: str = "python",
        name: str = "layout_fn",
        inverse: bool = False,
        *,
        limit: int = 1 << 22,
    ) -> str:
        """The index map as source code (python, c, cpp, cuda, triton); see
        :func:`tilelayout.codegen` and ``docs/codegen.md``.

        >>> import tilelayout as tl
        >>> print(tl.parse("S[(4,8):(8,1)]").codegen(lang="c").splitlines()[-2])
            out[0] = (i0 << 3) + i1;  // m
        """
        from ..codegen.generate import codegen

        return codegen(self, shape, lang, name, inverse, limit=limit)  # type: ignore[arg-type]

    def __str__(self) -> str:
        from ..syntax.printer import format_layout

        return format_layout(self)

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"

    def table(self, shape: Sequence[int] | None = None) -> str:
        """A text grid of owners, one cell per logical element (like CuTe's print_layout)."""
        from ..render.table import layout_table

        return layout_table(self, shape)

    def _repr_svg_(self) -> str | None:
        """The picture a notebook shows; ``None`` (plain text) when it cannot be drawn,
        e.g. more elements than a picture holds."""
        from ..render.svg import layout_svg
        from .errors import LayoutError

        try:
            return layout_svg(self)
        except LayoutError:
            return None
