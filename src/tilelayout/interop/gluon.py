"""Gluon layout objects in and out (imports Triton: loaded through ``require`` by
:func:`tilelayout.interop.triton.from_triton` / :func:`~tilelayout.interop.triton.to_gluon`).

In: every Gluon layout is lowered by Triton itself (``GluonOpBuilder.to_linear_layout``,
on the CPU) to its linear form (``DistributedLinearLayout``, ``SharedLinearLayout`` or
the tensor-memory row/col layout), which converts exactly to ours
(:mod:`tilelayout.interop.triton`, :mod:`tilelayout.interop.triton_shared`).

Out: :func:`to_gluon` returns the simplest Gluon object equal to a layout: it infers
the parameters of each named layout from the layout's bases (``BlockedLayout``,
``NVMMADistributedLayout``, ``DotOperandLayout`` of an MMA, blocked (FMA), MFMA or WMMA
parent, ``AMDMFMALayout``, ``AMDWMMALayout`` (ranks 2 and 3), ``SliceLayout`` of a blocked
or MMA parent:
:mod:`tilelayout.interop.gluon_candidates`; ``NVMMASharedLayout``,
``SwizzledSharedLayout``, ``TensorMemoryLayout``), has Triton lower the candidate and keeps
it only if Triton's bases equal ours; otherwise the linear form (``DistributedLinearLayout`` /
``SharedLinearLayout``; tensor memory has no linear Gluon layout and is refused).

``PaddedSharedLayout`` (padding after every interval) is affine but not linear over bits:
Triton has no linear layout for it, ours says it exactly (:func:`padded_layout`).

Triton aborts the process (an LLVM assertion, not an exception) on some malformed
layouts; :func:`lower` checks what Triton's lowering accepts first
(:mod:`tilelayout.interop.gluon_checks`) and refuses with a
:class:`~tilelayout.interop.InteropError` instead.

>>> from triton.experimental.gluon import language as ttgl
>>> str(from_gluon(ttgl.BlockedLayout([1, 2], [8, 4], [1, 1], [1, 0]), (8, 8)))
'S[(8,4,2):(4@laneid,1@laneid,1)]'
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from triton._C.libtriton import gluon_ir, ir
from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon.language._layouts import DistributedLayout, SharedLayout
from triton.experimental.gluon.language.nvidia import blackwell as ttgl_bw
from triton.tools import LinearLayout

from ..algebra.offsets import restrided
from ..core.compose import Layout, tile_of
from ..core.errors import shown
from ..core.shape import format_shape, shape_arg
from ..core.swizzle_modes import TRITON_WIDTHS
from ..core.tile import TileLayout
from . import InteropError
from .gluon_candidates import distributed_candidates, swizzled_candidate
from .gluon_checks import check_lowering, check_shape
from .inputs import layout_and_shape, names_arg
from .triton import TMEM_IN_DIMS, from_triton_bases, to_triton_bases
from .triton_shared import from_triton_shared, from_triton_shared_bases, to_triton_shared_bases

#: Gluon layout class -> the module a user imports it from (the code ``convert`` writes)
MODULES = MappingProxyType({
    "TensorMemoryLayout": "triton.experimental.gluon.language.nvidia.blackwell",
    "TensorMemoryScalesLayout": "triton.experimental.gluon.language.nvidia.blackwell",
    "AMDMFMALayout": "triton.experimental.gluon.language.amd",
    "AMDWMMALayout": "triton.experimental.gluon.language.amd",
})
_GLUON = "triton.experimental.gluon.language"


@functools.cache  # a cache, not state: one MLIR context and builder, made on first use
def _context() -> tuple[Any, Any]:
    ctx = ir.context()
    ir.load_dialects(ctx)
    return ctx, gluon_ir.GluonOpBuilder(ctx)


def _builder() -> Any:
    return _context()[1]


def lower(obj: Any, shape: Sequence[int]) -> Any:
    """Triton's own lowering of a Gluon layout object for ``shape`` (its linear form).

    >>> lower(ttgl.BlockedLayout([1, 2], [8, 4], [1, 1], [1, 0]), [8, 8]).reg_bases
    [[0, 1]]
    """
    check_lowering(obj, shape)
    dims = list(shape)
    builder = _builder()
    try:
        return builder.to_linear_layout(obj._to_ir(builder), dims)
    except (RuntimeError, ValueError, AssertionError, TypeError) as exc:
        raise InteropError(f"Triton cannot lower {type(obj).__name__} for shape "
                           f"{format_shape(dims)}: {exc}") from None


def triton_bases(obj: Any, shape: Sequence[int]) -> dict[str, list[list[int]]]:
    """Triton's own lowering of ``obj`` for ``shape`` as plain bases, with *no* precondition
    check: on an input Triton does not accept it may end the process. It is the reference
    the fuzzer compares :func:`lower`'s checks with, and runs only in a child process
    (:mod:`tilelayout.interop.isolation`).

    >>> triton_bases(ttgl.BlockedLayout([1, 2], [8, 4], [1, 1], [1, 0]), [8, 8])["register"]
    [[0, 1]]
    """
    builder = _builder()
    ll = builder.to_linear_layout(obj._to_ir(builder), [int(s) for s in shape])
    if hasattr(ll, "reg_bases"):
        names = {"register": "reg_bases", "lane": "lane_bases", "warp": "warp_bases",
                 "block": "block_bases"}
    elif hasattr(ll, "offset_bases"):
        names = {"offset": "offset_bases", "block": "block_bases"}
    else:
        names = {"row": "rows", "col": "cols"}
    return {k: [list(v) for v in getattr(ll, a)] for k, a in names.items()}


def _from_linear(ll: Any, shape: Sequence[int] | None, in_dims: Mapping[str, str] | None) -> Layout:
    out_dims = list(ll.out_dims)
    names = [n for n, _ in out_dims]
    if names != [f"dim{d}" for d in range(len(names))]:
        raise InteropError(f"expected out dims dim0, dim1, ...; got {names}")
    dims = tuple(int(s) for _, s in out_dims)
    bases = {name: [list(v) for v in vecs] for name, vecs in ll.bases}
    if "offset" in bases and in_dims is None:
        return from_triton_shared(ll, shape)  # a shared layout: over 'offset' only
    return from_triton_bases({k: v for k, v in bases.items() if v}, tuple(shape or dims), in_dims)


def from_gluon(obj: Any, shape: Sequence[int] | None = None,
               in_dims: Mapping[str, str] | None = None) -> Layout:
    """Our layout for a Gluon layout object or a ``triton.tools.LinearLayout``.

    Named layouts need ``shape`` (Triton lowers them for it); linear ones carry theirs.
    Zero bases are broadcast (replicas) on distributed layouts and padding on shared
    and tensor-memory ones.

    >>> str(from_gluon(ttgl.NVMMADistributedLayout([2, 0], [1, 1], [16, 8]), (16, 8)))
    'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]'
    """
    shape, in_dims = shape_arg(shape), names_arg(in_dims)
    if isinstance(obj, LinearLayout):
        return _from_linear(obj, shape, in_dims)
    if isinstance(obj, ttgl.DistributedLinearLayout):
        dims = tuple(obj.shape)
        if shape is not None and tuple(shape) != dims:
            raise InteropError(f"this DistributedLinearLayout is for shape {format_shape(dims)}, "
                               f"not {format_shape(tuple(shape))}")
        bases = {"register": obj.reg_bases, "lane": obj.lane_bases, "warp": obj.warp_bases,
                 "block": obj.block_bases}
        return from_triton_bases({k: v for k, v in bases.items() if v}, dims, in_dims)
    if isinstance(obj, ttgl.SharedLinearLayout):
        if obj.block_bases:
            raise InteropError(f"block_bases {obj.block_bases}: a layout split over the CTAs of a "
                               f"cluster; convert one CTA's part")
        return from_triton_shared_bases(obj.offset_bases, shape)
    if isinstance(obj, ttgl.PaddedSharedLayout):
        return padded_layout(obj, shape)
    if isinstance(obj, ttgl_bw._TensorMemoryLinearLayout):
        bases = {"row": obj.rows, "col": obj.cols}
        return from_triton_bases({k: v for k, v in bases.items() if v}, tuple(obj.shape),
                                 in_dims or TMEM_IN_DIMS)
    named = (DistributedLayout, SharedLayout, ttgl_bw.TensorMemoryLayout,
             ttgl_bw.TensorMemoryScalesLayout)
    if not isinstance(obj, named):
        raise InteropError(f"expected a Gluon layout object or triton.tools.LinearLayout, got "
                           f"{type(obj).__name__}")
    if shape is None:
        raise InteropError(f"{type(obj).__name__} is a named layout: give the tensor shape "
                           f"(from_triton(obj, shape)) so Triton can lower it")
    return from_gluon(lower(obj, shape), shape, in_dims)


def padded_layout(obj: Any, shape: Sequence[int] | None = None) -> Layout:
    """Our layout for a Gluon ``PaddedSharedLayout``: its offset bases read as a tile, then
    ``padding`` elements inserted after every ``interval`` (summed over the pairs), which
    makes offset bit ``k`` an address stride ``2**k + sum((2**k // interval) * padding)``:
    affine, so a plain TileLayout says it exactly, where Triton's linear layouts cannot
    (its ``toLinearLayout`` refuses padded layouts). Semantics from the class's docstring
    (triton/experimental/gluon/language/_layouts.py).

    >>> str(padded_layout(ttgl.PaddedSharedLayout.with_identity_for([[2, 1], [4, 2]], [8], [0])))
    'S[(2,2,2):(8,3,1)]'
    """
    dims = tuple(obj.shape) if shape is None else tuple(int(s) for s in shape)
    if list(dims) != list(obj.shape):
        raise InteropError(f"this PaddedSharedLayout is for shape {format_shape(tuple(obj.shape))}, "
                           f"not {format_shape(dims)}")
    if obj.cga_layout:
        raise InteropError("a PaddedSharedLayout split over the CTAs of a cluster (cga_layout): "
                           "convert one CTA's part")
    tile = from_triton_shared_bases(obj.offset_bases, dims)
    if not isinstance(tile, TileLayout):
        raise InteropError(f"offset bases {obj.offset_bases} remap elements with an XOR "
                           f"pattern; with padding on top the layout is neither a tile nor a "
                           f"swizzle of one")

    def stride(bit: int) -> int:
        return (1 << bit) + sum(((1 << bit) // i) * p for i, p in obj.interval_padding_pairs)

    return restrided(tile, stride)  # a bit-permutation tile: one iter per offset bit


# --------------------------------------------------------------------------- to_gluon


def _distributed(layout: TileLayout, shape: tuple[int, ...]) -> Any:
    bases = to_triton_bases(layout, shape)
    linear = ttgl.DistributedLinearLayout(
        reg_bases=bases.get("register", []), lane_bases=bases.get("lane", []),
        warp_bases=bases.get("warp", []), block_bases=bases.get("block", []), shape=list(shape))
    warpgroups = bool({"wid_in_wg", "wgid", "tid_in_wg"} & set(layout.axes))
    for cand in distributed_candidates(bases, shape, warpgroups):
        if _same_distributed(cand, shape, linear):
            return cand
    return linear


def _same_distributed(cand: Any, shape: Sequence[int], linear: Any) -> bool:
    try:
        got = lower(cand, shape)
    except InteropError:
        return False
    return all(getattr(got, k) == getattr(linear, k)
               for k in ("reg_bases", "lane_bases", "warp_bases", "block_bases"))


def _trim(vectors: Sequence[Sequence[int]]) -> list[list[int]]:
    """Memory bases without trailing zero ones: padding past the last element is the
    allocation's size, which our layouts do not carry."""
    out = [list(v) for v in vectors]
    while out and not any(out[-1]):
        out.pop()
    return out


def _shared(layout: Layout, shape: tuple[int, ...]) -> Any:
    offsets = to_triton_shared_bases(layout, shape)
    cands: list[Any] = []
    if len(shape) >= 2:
        widths = sorted(TRITON_WIDTHS, reverse=True)  # the widest swizzle first
        for bits, width, trans in itertools.product((16, 8, 32, 64), widths, (False, True)):
            cands.append(ttgl.NVMMASharedLayout(width, bits, len(shape), trans))
        cands += [ttgl.NVMMASharedLayout(128, 8, len(shape), t, True) for t in (False, True)]
    swizzled = swizzled_candidate(offsets, len(shape))
    cands += [swizzled] if swizzled is not None else []
    for cand in cands:
        try:
            got = lower(cand, shape)
        except InteropError:
            continue
        if _trim(got.offset_bases) == offsets and not got.block_bases:
            return cand
    return ttgl.SharedLinearLayout(offset_bases=offsets)


def _tmem(layout: TileLayout, shape: tuple[int, ...]) -> Any:
    bases = to_triton_bases(layout, shape, TMEM_IN_DIMS)
    rows, cols = bases.get("row", []), bases.get("col", [])
    if len(shape) == 2:
        for m, stride in itertools.product((128, 64), (1, 2, 4)):
            for n in (1 << k for k in reversed(range(max(shape[1], 1).bit_length()))):
                cand = ttgl_bw.TensorMemoryLayout((m, n), stride)
                try:
                    got = lower(cand, shape)
                except InteropError:
                    continue
                if got.rows == rows and _trim(got.cols) == cols:
                    return cand
        scales = ttgl_bw.TensorMemoryScalesLayout()
        got = lower(scales, shape)
        if got.rows == rows and _trim(got.cols) == cols:
            return scales
    raise InteropError(
        f"{layout}: no TensorMemoryLayout (block M 64/128, any N, col_stride 1/2/4) nor "
        f"TensorMemoryScalesLayout equals this "
        f"tensor-memory layout on {format_shape(shape)}, and Gluon has no linear tensor-memory layout")


def to_gluon(layout: Layout | str, shape: Sequence[int] | str | None = None) -> Any:
    """The simplest Gluon layout object equal to ``layout`` over ``shape`` (default: its
    shard extents): a named layout where one is equal (Triton lowers every candidate and
    its bases must equal ours), else the linear one.

    Shared memory: a ``ComposeLayout`` or a layout on ``m`` alone; tensor memory: a layout
    on ``TLane`` / ``TCol``; distributed: anything else (thread axes as in
    :func:`tilelayout.interop.triton.to_triton_bases`).

    >>> import tilelayout as tl
    >>> to_gluon(tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]")))
    NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, ...)
    """
    layout, given = layout_and_shape(layout, shape)
    dims = tuple(check_shape(given))  # Triton's shapes: powers of two
    axes = tuple(tile_of(layout).axes)
    if not isinstance(layout, TileLayout) or axes == ("m",):
        return _shared(layout, dims)
    if set(axes) <= set(TMEM_IN_DIMS.values()):
        return _tmem(layout, dims)
    return _distributed(layout, dims)


def _alias(module: str) -> str:
    return "ttgl" if module == _GLUON else module.rsplit(".", 1)[-1]


def _code(value: Any, modules: dict[str, None]) -> str:
    """``value`` as Python source, Gluon classes qualified by their module's alias (nested
    parents included); the modules used are collected in ``modules``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        module = MODULES.get(type(value).__name__, _GLUON)
        modules[module] = None
        fields = ", ".join(f"{f.name}={_code(getattr(value, f.name), modules)}"
                           for f in dataclasses.fields(value))
        return f"{_alias(module)}.{type(value).__name__}({fields})"
    return repr(value)


def gluon_code(obj: Any, name: str = "layout") -> str:
    """Python that builds ``obj`` in Gluon (imports included).

    >>> print(gluon_code(ttgl.SwizzledSharedLayout(1, 1, 1, [1, 0])))
    from triton.experimental.gluon import language as ttgl
    layout = ttgl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0], cga_layout=[])
    >>> print(gluon_code(ttgl.SliceLayout(0, ttgl.BlockedLayout([1], [32], [4], [0]))))
    from triton.experimental.gluon import language as ttgl
    layout = ttgl.SliceLayout(dim=0, parent=ttgl.BlockedLayout(size_per_thread=[1], ...))
    """
    if not (dataclasses.is_dataclass(obj) and not isinstance(obj, type) and
            type(obj).__module__.startswith("triton.experimental.gluon")):
        raise InteropError(f"gluon_code writes a Gluon layout object, got {type(obj).__name__}")
    if not isinstance(name, str) or not name.isidentifier():
        raise InteropError(f"gluon_code's name must be a Python identifier, got {shown(name)}")
    modules: dict[str, None] = {}
    body = _code(obj, modules)
    heads = []
    for module in modules:
        package, leaf = module.rsplit(".", 1)
        heads.append(f"from {package} import {leaf}" + (" as ttgl" if module == _GLUON else ""))
    return "\n".join([*heads, f"{name} = {body}"])


__all__ = ["MODULES", "from_gluon", "gluon_code", "lower", "to_gluon", "triton_bases"]
