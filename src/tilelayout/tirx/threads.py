"""Thread axes under a CUDA target: TIRx's fusers and splitters.

Inside ``with tvm.target.Target("cuda"):`` (apache-tvm-tirx's target context, read when
TVM is already imported; never imported here) or ``with tilelayout.tirx.target("cuda"):``
TIRx's ``canonicalize`` renames thread axes into the widest one the layout's scope
allows -- ``warpid``/``laneid`` over a CTA become ``tx`` (``warpid`` counting 32 threads),
``wid_in_wg``/``laneid`` inside a warpgroup become ``tid_in_wg`` -- and ``is_tile_inner``
/ ``is_tile_outer`` split a wide axis back (``tx`` into ``warpid`` and ``laneid``) to
compare it with a narrower layout. Without a target both are the identity, as in TIRx.

The rules are TIRx's axis registry (apache/tvm ``src/tirx/ir/layout/axis_registry.cc``):
a warp is 32 threads, a warpgroup 4 warps (docs/hardware.md). Two deliberate fixes:
offsets that fuse into one axis add up (TIRx keeps the last), and ``wgid`` over warps
fuses into ``warpid`` (TIRx's fuser rescales ``wgid`` itself).

>>> from tilelayout import parse
>>> with target("cuda"):
...     fuse_by_scope(parse("S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]"))
parse('S[(2,8,2,4):(64@tx,4@tx,32@tx,1@tx)]')
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from types import MappingProxyType

from ..algebra import canonical as _canonical
from ..core.errors import LayoutError, shown
from ..core.iter import Iter
from ..core.tile import TileLayout
from .errors import TirxInternalError
from .spec import scope_pair

#: (axis, subscope, scope) -> (fused axis, stride factor), CUDA (TIRx's fusers)
FUSERS = MappingProxyType({
    ("warpid", "thread", "cta"): ("tx", 32),
    ("laneid", "thread", "warpgroup"): ("tid_in_wg", 1),
    ("laneid", "thread", "cta"): ("tx", 1),
    ("wgid", "thread", "cta"): ("tx", 128),
    ("wgid", "warp", "cta"): ("warpid", 4),
    ("tid_in_wg", "thread", "cta"): ("tx", 1),
    ("wid_in_wg", "thread", "warpgroup"): ("tid_in_wg", 32),
    ("wid_in_wg", "thread", "cta"): ("tx", 32),
    ("wid_in_wg", "warp", "cta"): ("warpid", 1),
})
#: (axis, split scope) -> (outer axis, inner axis, inner extent), CUDA (TIRx's splitters)
SPLITTERS = MappingProxyType({
    ("tx", "warp"): ("warpid", "laneid", 32),
    ("tx", "warpgroup"): ("wgid", "tid_in_wg", 128),
    ("warpid", "warp"): ("wgid", "wid_in_wg", 4),
    ("tid_in_wg", "warp"): ("wid_in_wg", "laneid", 32),
})
#: thread axes TIRx registers a splitter for (the others cannot be split any more)
SPLITTABLE = frozenset(("tx", "warpid", "laneid", "wgid", "tid_in_wg", "wid_in_wg"))

_TARGET: ContextVar[str | None] = ContextVar("tilelayout_tirx_target", default=None)


@contextlib.contextmanager
def target(kind: str) -> Iterator[None]:
    """Canonicalize (and recognize tiles) for target ``kind`` inside the block, as TIRx
    does inside ``with tvm.target.Target(kind):``; ``"cuda"`` fuses thread axes.

    >>> with target("cuda"):
    ...     current_target()
    'cuda'
    """
    if not isinstance(kind, str) or not kind:
        raise LayoutError(f"a target is a kind such as 'cuda', got {shown(kind)}")
    token = _TARGET.set(kind)
    try:
        yield
    finally:
        _TARGET.reset(token)


def current_target() -> str | None:
    """The target kind in force: ours (:func:`target`), else apache-tvm-tirx's
    ``Target.current()`` when TVM is already imported, else None.

    >>> current_target() is None
    True
    """
    ours = _TARGET.get()
    if ours is not None:
        return ours
    tvm = sys.modules.get("tvm_tirx.target")
    if tvm is None:
        return None
    try:
        found = tvm.Target.current(allow_none=True)
    except Exception:  # noqa: BLE001 - a foreign tool's state: no target then
        return None
    if found is None:
        return None
    return str(found.kind.name)


def _cuda() -> bool:
    return current_target() == "cuda"


def fuse_by_scope(tile: TileLayout) -> TileLayout:
    """TIRx's ``FuseAxesByScope`` under a CUDA target (``tile`` unchanged otherwise):
    each thread iter renamed into the axis its layout's (subscope, scope) allows.

    >>> from tilelayout import parse
    >>> with target("cuda"):
    ...     fuse_by_scope(parse("S[(4,32):(1@wid_in_wg,1@laneid)]"))
    parse('S[(4,32):(32@tid_in_wg,1@tid_in_wg)]')
    """
    if not _cuda():
        return tile
    scopes = scope_pair(tile)
    if scopes is None:
        return tile
    sub, top = scopes

    def fused(it: Iter) -> Iter:
        rule = FUSERS.get((it.axis, sub, top))
        return it if rule is None else Iter(it.extent, it.stride * rule[1], rule[0])

    offset: dict[str, int] = {}
    for a, v in tile.offset.items():
        rule = FUSERS.get((a, sub, top))
        name, factor = (a, 1) if rule is None else rule
        offset[name] = offset.get(name, 0) + v * factor
    return TileLayout([fused(i) for i in tile.shard], [fused(i) for i in tile.replica], offset)


def _split_iter(it: Iter, scope: str) -> list[Iter]:
    """TIRx's ``SplitterGen`` for one iter (its cases in order)."""
    rule = SPLITTERS.get((it.axis, scope))
    if rule is None:
        if it.axis in SPLITTABLE:
            raise TirxInternalError(f"cannot split the {it.axis} axis of {it} into the "
                                    f"{scope} scope (TIRx: {it.axis} can not be split there)")
        return [it]
    outer, inner, e = rule
    if it.extent * it.stride < e:
        return [Iter(it.extent, it.stride, inner)]
    if it.stride and e % it.stride == 0 and (it.extent * it.stride) % e == 0:
        d = e // it.stride
        return [Iter(it.extent // d, 1, outer), Iter(d, it.stride, inner)]
    if it.stride and it.stride % e == 0:
        return [Iter(it.extent, it.stride // e, outer)]
    raise TirxInternalError(f"the iter {it} straddles the {e}-wide {inner} boundary: it "
                            f"splits into neither {inner} alone nor whole {outer} steps")


def split_by_scope(tile: TileLayout, scope: str) -> TileLayout:
    """TIRx's ``SplitAxesByScope`` under a CUDA target: wide thread axes split into the
    (outer, inner) pair of ``scope`` (``tx`` into ``warpid``, ``laneid`` for "warp").

    >>> from tilelayout import parse
    >>> with target("cuda"):
    ...     split_by_scope(parse("S[(2,64):(64@tx,1@tx)] + 32@tx"), "warp")
    parse('S[(2,2,32):(2@warpid,1@warpid,1@laneid)] + 1@warpid')
    """
    if not _cuda():
        return tile
    shard = [p for it in tile.shard for p in _split_iter(it, scope)]
    replica = [p for it in tile.replica for p in _split_iter(it, scope)]
    offset: dict[str, int] = {}
    for a, v in tile.offset.items():
        rule = SPLITTERS.get((a, scope))
        if rule is None:
            offset[a] = offset.get(a, 0) + v
            continue
        outer, inner, e = rule
        for name, value in ((outer, v // e), (inner, v % e)):
            if value:
                offset[name] = offset.get(name, 0) + value
    return TileLayout(shard, replica, offset)


def canonical(tile: TileLayout) -> TileLayout:
    """TIRx's ``TileLayout.canonicalize``: extent-1 iters and zero offsets dropped, thread
    axes fused by scope under a CUDA target, contiguous iters fused, replicas sorted; an
    ill-formed scope chain refused as TIRx refuses it.

    >>> from tilelayout import parse
    >>> with target("cuda"):
    ...     canonical(parse("S[(2,2,8,4):(2@warpid,1@warpid,4@laneid,1@laneid)]"))
    parse('S[128:1@tx]')
    """
    out = _canonical.canonicalize(tile)
    assert isinstance(out, TileLayout)
    scope_pair(out)
    fused = fuse_by_scope(out)
    if fused is out:
        return out
    again = _canonical.canonicalize(fused)
    assert isinstance(again, TileLayout)
    return again


__all__ = ["FUSERS", "SPLITTERS", "canonical", "current_target", "fuse_by_scope",
           "split_by_scope", "target"]
