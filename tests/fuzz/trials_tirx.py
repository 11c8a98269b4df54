"""Trials of ``tilelayout.tirx`` (TIRx's API on our objects): its constructors and methods
with hostile arguments, compared with apache-tvm-tirx wherever both build a layout (every
element equal, tests/tirx/compare.py)."""

from __future__ import annotations

import random
from typing import Any

import tvm_tirx.backend.cuda.layout as TX
import tvm_tirx.tirx.layout as TV

import tilelayout.tirx as T
from tests.fuzz.runner import Mismatch
from tests.fuzz.values import junk, maybe
from tests.tirx.compare import is_ours, same_elements

AXES = ("m", "m", "laneid", "warpid", "wid_in_wg", "tid_in_wg", "TLane")
DTYPES = ("float16", "bfloat16", "float32", "int8", "float8_e4m3fn", "float99999", "x")


def _agree(theirs: Any, ours: Any) -> None:
    try:
        if is_ours(ours):
            same_elements(theirs, ours, samples=8)
    except AssertionError as exc:
        raise Mismatch(f"tirx {ours} differs from apache-tvm-tirx: {str(exc)[:200]}") from None


def _both(rng: random.Random, name: str, *args: Any, **kw: Any) -> Any:
    """Ours (raises what it raises); TIRx's too, compared when it answers."""
    ours = getattr(T, name)(*args, **kw)
    try:
        theirs = getattr(TX, name)(*args, **kw)
    except Exception:  # noqa: BLE001 (TIRx refusing is not ours to count)
        return ours
    _agree(theirs, ours)
    return ours


def _pair(rng: random.Random) -> tuple[Any, Any]:
    shard = [(rng.choice([1, 2, 2, 3, 4, 8]), rng.randint(-4, 9), rng.choice(AXES))
             for _ in range(rng.randint(1, 4))]

    def build(lib: Any) -> Any:
        return lib.TileLayout(lib.S[tuple(e for e, _, _ in shard):
                                    tuple(s @ lib.Axis.get(a) for _, s, a in shard)])
    return build(TV), build(T)


def _constructor(rng: random.Random) -> None:
    name = rng.choice(("tmem_datapath_layout", "tmem_mma_operand_layout", "mma_atom_layout",
                       "mma_atom_shape", "mma_shared_layout", "tcgen05_atom_layout",
                       "wg_local_layout", "SwizzleLayout"))
    if name == "tmem_datapath_layout":
        _both(rng, name, maybe(rng, rng.choice("ABCDEFGH"), 0.2), maybe(rng, rng.choice((64, 128)), 0.2),
              maybe(rng, rng.choice((8, 64, 256)), 0.2))
    elif name == "tmem_mma_operand_layout":
        _both(rng, name, maybe(rng, rng.choice("AD"), 0.1), maybe(rng, [128, 64], 0.3),
              maybe(rng, rng.choice(DTYPES[:3]), 0.1), M=maybe(rng, rng.choice((64, 128)), 0.2),
              cta_group=maybe(rng, rng.choice((1, 2)), 0.2))
    elif name in ("mma_atom_layout", "mma_atom_shape", "mma_shared_layout"):
        args = [maybe(rng, rng.choice(DTYPES), 0.1), maybe(rng, rng.randint(0, 3), 0.2)]
        if name != "mma_atom_layout":
            args.append(maybe(rng, rng.choice(([64, 64], [8, 16], [128, 128])), 0.3))
        _both(rng, name, *args)
    elif name == "tcgen05_atom_layout":
        _both(rng, name, maybe(rng, rng.choice(("32x32b", "16x64b", "16x128b", "16x256b")), 0.2),
              maybe(rng, [128, 64], 0.3), maybe(rng, "float32", 0.2))
    elif name == "wg_local_layout":
        T.wg_local_layout(maybe(rng, 64, 0.3), maybe(rng, 128, 0.3))
    else:
        T.SwizzleLayout(maybe(rng, 3, 0.3), maybe(rng, 3, 0.3), maybe(rng, 3, 0.3),
                        swizzle_inner=maybe(rng, True, 0.3))


def _method(rng: random.Random) -> None:
    theirs, ours = _pair(rng)
    twins = {id(ours): theirs}
    n = ours.size()
    op = rng.choice(("permute_dims", "permute_by_groups", "tile", "tile_to", "pack", "unpack",
                     "canonicalize", "group", "apply", "span"))
    if op == "permute_dims":
        perm = list(range(len(ours.shard)))
        rng.shuffle(perm)
        args: tuple = (maybe(rng, perm, 0.4),)
    elif op == "permute_by_groups":
        args = (maybe(rng, [0, 1, 2], 0.4), maybe(rng, [0], 0.4))
    elif op == "tile":
        outer_theirs, outer = _pair(rng)
        twins[id(outer)] = outer_theirs
        args = (maybe(rng, outer, 0.3), maybe(rng, [outer.size()], 0.3), maybe(rng, [n], 0.3))
    elif op == "tile_to":
        args = (maybe(rng, [2 * n], 0.3), maybe(rng, [n], 0.3))
    elif op in ("pack", "unpack"):
        args = (maybe(rng, rng.choice((2, 4)), 0.3), maybe(rng, rng.choice(AXES), 0.2))
    elif op == "group":
        args = (maybe(rng, [n], 0.4),)
    elif op == "apply":
        args = (maybe(rng, rng.randrange(n), 0.3),)
    elif op == "span":
        args = (maybe(rng, rng.choice(AXES), 0.3),)
    else:
        args = ()
    got = getattr(ours, op)(*args)
    try:
        want = getattr(theirs, op)(*(twins.get(id(a), a) for a in args))
    except Exception:  # noqa: BLE001
        return
    if op not in ("apply", "span", "group", "permute_by_groups"):
        _agree(want, got)


def trial(rng: random.Random) -> None:
    if rng.random() < 0.5:
        _constructor(rng)
    elif rng.random() < 0.9:
        _method(rng)
    else:
        T.ComposeLayout(maybe(rng, 3, 0.3), maybe(rng, 3, 0.3), maybe(rng, 3, 0.3),
                        maybe(rng, T.TileLayout(T.S[8, 64]), 0.3),
                        swizzle_inner=maybe(rng, junk(rng), 0.5))
