"""TMA as an endpoint of a shared-memory tile: ``"tma"`` reads it (a TMA store,
``cp.async.bulk.tensor`` shared -> global) or writes it (a TMA load).

``choose_smem_layout(writer, "tma")`` / ``choose_smem_layout("tma", reader)`` and
``plan_conversion(src, "tma")`` / ``plan_conversion("tma", dst)`` take the string
``"tma"``, optionally with options: ``"tma:box=64,64"`` (the box, in elements, one
extent per logical dim), ``"tma:swizzle=128B"`` (the tensor map's swizzle mode) and
``"tma:order=row"`` / ``"tma:order=col"`` (which dimension of the *global* tensor is
contiguous: ``row``, the default, is the logical shape's last dimension, as in a
row-major tensor; ``col`` its first), joined by ``:``. A TMA box keeps the global
tensor's contiguous dimension innermost in shared memory, so only layouts with that
dimension contiguous are candidates: a transposed tile is never chosen silently.

The candidates are the swizzle-family layouts a TMA tensor map on the target writes
(:mod:`.swizzle_family`: one box per row of the contiguous dim, or boxes of one swizzle
span each; a box is never wider than its swizzle's span). The threads' side is costed
as any staging side (wavefronts, then instructions, with every instruction kind the
target has); the TMA side issues one ``cp.async.bulk.tensor`` per box from one thread
(:data:`~..cost_model.TMA_BOX`). Ranked by wavefronts plus box issues, then
instructions, then fewer boxes, then more bytes per inner box, then fewer bytes.

>>> e = endpoint("tma:box=64,64:swizzle=128B")
>>> e.box, e.swizzle, e.order
((64, 64), '128B', 'row')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ....core.compose import Layout
from ....core.dtypes import dtype_bytes
from ....core.errors import LayoutError
from ....core.shape import int_tuple
from ...cost_model import TMA_BOX
from ...model.threads import RegisterFile, register_file, writer_of
from ...problem.targeting import TargetChoice, kinds_for
from .access import AccessReport, footprint, smem_addresses
from .instructions import best_access
from .swizzle_family import Candidate, swizzle_candidates

#: the operand text that names the TMA endpoint
NAME = "tma"


@dataclass(frozen=True)
class TmaEndpoint:
    """The TMA endpoint's options: the ``box`` (None: any) and the ``swizzle`` mode
    (None: any)."""

    box: tuple[int, ...] | None = None
    swizzle: str | None = None
    #: which dimension of the global tensor is contiguous: "row" (the last) or "col"
    order: str = "row"

    def inner_dim(self, rank: int) -> int:
        """The logical dimension that is contiguous in global memory (and so innermost
        in every box)."""
        return rank - 1 if self.order == "row" else 0


@dataclass(frozen=True)
class TmaBoxes:
    """How TMA moves the chosen tile: the tensor map's ``swizzle`` mode, the ``box``
    (elements per logical dim), ``boxes`` per tile and the bytes of a box's inner row."""

    direction: str
    swizzle: str
    tensor_map: str
    box: tuple[int, ...]
    boxes: int
    inner_bytes: int

    def __str__(self) -> str:
        return (f"TMA {self.direction} {self.tensor_map}: {self.boxes} box(es) of "
                f"{'x'.join(map(str, self.box))} ({self.inner_bytes} B inner rows)")


def is_endpoint(value: Any) -> bool:
    """Whether an operand names the TMA endpoint (``"tma"`` or ``"tma:..."``).

    >>> is_endpoint("tma:box=64,64"), is_endpoint("S[(4):(1)]")
    (True, False)
    """
    return isinstance(value, str) and value.strip().split(":")[0].strip().lower() == NAME


def endpoint(text: str) -> TmaEndpoint:
    """The options of a ``"tma[:box=...][:swizzle=...][:order=row|col]"`` operand
    (one-line errors).

    >>> endpoint("tma:order=col").order
    'col'
    """
    box, swizzle, order = None, None, "row"
    for item in text.strip().split(":")[1:]:
        key, sep, value = item.partition("=")
        key = key.strip().lower()
        if not sep or key not in ("box", "swizzle", "order"):
            raise LayoutError(f"a TMA option is box=E0,E1,..., swizzle=MODE or order=row|col, "
                              f"got {item!r}")
        if key == "box":
            box = int_tuple(value, "the TMA box")
        elif key == "swizzle":
            swizzle = value.strip()
        else:
            order = value.strip().lower()
            if order not in ("row", "col"):
                raise LayoutError(f"the TMA order is row (the last dimension contiguous in "
                                  f"global memory) or col (the first), got {value.strip()!r}")
    return TmaEndpoint(box, swizzle, order)


def _boxes(c: Candidate, shape: tuple[int, ...], nbytes: int) -> tuple[tuple[int, ...], int, int]:
    """A candidate's TMA box, box count and inner-row bytes."""
    inner = c.order[-1]
    width = shape[inner] if c.arrangement == "rows" else c.mode.span // nbytes
    box = tuple(width if d == inner else e for d, e in enumerate(shape))
    return box, shape[inner] // width, width * nbytes


@dataclass(frozen=True)
class TmaCandidate:
    """One layout TMA can move, costed: the threads' ``access``, the swizzle-family
    ``candidate`` and its :class:`TmaBoxes`."""

    candidate: Candidate
    access: AccessReport
    boxes: TmaBoxes
    bytes: int

    def key(self) -> tuple[float, int, int, int, int]:
        """Wavefronts plus the boxes' issue cost, instructions, boxes, wider inner rows,
        bytes (smaller is better)."""
        return (self.access.wavefronts + self.boxes.boxes * TMA_BOX, self.access.requests,
                self.boxes.boxes, -self.boxes.inner_bytes, self.bytes)


def thread_side(thread: Layout, shape: tuple[int, ...], store: bool,
                on: TargetChoice) -> RegisterFile:
    """The register file of the threads TMA exchanges the tile with (the writer of a TMA
    store: ``thread`` without replicas; the reader of a TMA load), built once for
    :func:`tma_candidates`, :func:`worst_of` and the lower bound; a one-line error when
    the target has no TMA."""
    if not on.allows("tma"):
        raise LayoutError(f"TMA needs sm_90 or newer; the target is {on.name}")
    return register_file(writer_of(thread) if store else thread, shape,
                         "writer" if store else "reader")


def tma_candidates(rf: RegisterFile, shape: tuple[int, ...], dtype: str, store: bool,
                   options: TmaEndpoint, on: TargetChoice) -> list[TmaCandidate]:
    """Every layout a TMA tensor map on ``on`` moves for the tile (matching ``options``),
    costed for the threads of ``rf`` (:func:`thread_side`), best first. None of them: a
    one-line error saying why."""
    nbytes = dtype_bytes(dtype)
    kinds = kinds_for(on, store)
    out = []
    inner_dim = options.inner_dim(len(shape))
    for c in swizzle_candidates(shape, dtype, on.target):
        tma = [m for m in c.accepted_by if m.startswith("TMA ")]
        if not tma or c.order[-1] != inner_dim:
            continue
        box, count, inner = _boxes(c, shape, nbytes)
        if options.box is not None and tuple(options.box) != box:
            continue
        if options.swizzle is not None and options.swizzle.lower() not in (
                c.mode.name.lower(), c.mode.tma.split()[0].lower()):
            continue
        addr = smem_addresses(c.layout, shape)
        access = best_access(rf, addr, dtype, store, worst=False, kinds=kinds)
        boxes = TmaBoxes("store" if store else "load", c.mode.name, c.mode.tma.split()[0],
                         box, count, inner)
        out.append(TmaCandidate(c, access, boxes, footprint(addr, nbytes)))
    if not out:
        asked = ", ".join(f"{k}={v}" for k, v in (("box", options.box),
                                                  ("swizzle", options.swizzle)) if v)
        raise LayoutError(f"no TMA tensor map on {on.name} moves the {'x'.join(map(str, shape))} "
                          f"{dtype} tile with dimension {inner_dim} contiguous "
                          f"(order={options.order})" + (f" and {asked}" if asked else "")
                          + " (a box is at most 256 elements per dim, its inner row a "
                            "multiple of 16 B and never wider than the swizzle span)")
    out.sort(key=TmaCandidate.key)
    return out


def worst_of(c: TmaCandidate, rf: RegisterFile, shape: tuple[int, ...], dtype: str,
             store: bool, on: TargetChoice) -> AccessReport:
    """The winner's access again, with its worst request (for the report)."""
    return best_access(rf, smem_addresses(c.candidate.layout, shape), dtype, store,
                       kinds=kinds_for(on, store))
