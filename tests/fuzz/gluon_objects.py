"""Seeded hostile Gluon layout objects and shapes (imports Triton): mostly well formed, with
a wrong rank, a zero, a three, a huge count or a basis outside the shape now and then.
Only objects Gluon itself lets a user build are returned (its dataclasses assert some
fields in Python): what is left is what reaches Triton's C++."""

from __future__ import annotations

import random
from typing import Any

from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon.language import amd
from triton.experimental.gluon.language.nvidia import blackwell as bw

#: counts a careless caller writes for a power of two
ODD = (0, 3, 6, -1, -2, 1 << 31, 1 << 32, 1 << 40, 12, 24, 96)


def count(rng: random.Random, top: int = 5) -> int:
    """Mostly a power of two up to 2**top, sometimes a bad count."""
    return 1 << rng.randint(0, top) if rng.random() < 0.9 else rng.choice(ODD)


def counts(rng: random.Random, rank: int, top: int = 5) -> list[int]:
    n = rank if rng.random() < 0.93 else rng.choice((0, 1, 2, 3, 4))
    return [count(rng, top) for _ in range(n)]


def order(rng: random.Random, rank: int) -> list[int]:
    out = list(range(rank))
    rng.shuffle(out)
    if rng.random() < 0.07:
        out = rng.choice(([0], [0, 0], [1, 1], [2, 0], [0, 1, 2, 3], [], [-1, 0]))
    return out


def shape(rng: random.Random, rank: int) -> list[int]:
    n = rank if rng.random() < 0.93 else rng.choice((1, 2, 3, 4))
    return [1 << rng.randint(0, 8) if rng.random() < 0.92 else
            rng.choice((0, 3, 48, 1 << 31, 1 << 32, 1 << 20, -4)) for _ in range(n)]


def bases(rng: random.Random, rank: int, n: int, dims: list[int]) -> list[list[int]]:
    """``n`` basis vectors: one power of two inside ``dims`` each, sometimes zero, two
    coordinates, or outside the shape."""
    out = []
    for _ in range(n):
        vec = [0] * rank
        r = rng.random()
        if r < 0.85 and rank:
            d = rng.randrange(rank)
            vec[d] = 1 << rng.randint(0, max(0, max(dims[d], 1).bit_length() - 2))
        elif r < 0.92 and rank:
            vec[rng.randrange(rank)] = rng.choice((3, 1 << 20, -1, 1 << 31))
        elif rank >= 2:
            vec[0], vec[1] = 1, 1
        if rng.random() < 0.03:
            vec = vec + [0]
        out.append(vec)
    return out


def cga(rng: random.Random, rank: int, dims: list[int]) -> list[list[int]]:
    return [] if rng.random() < 0.85 else bases(rng, rank, rng.randint(1, 2), dims)


def _mma(rng: random.Random, rank: int) -> Any:
    version = rng.choice(([2, 0], [3, 0], [2, 0], [1, 0], [5, 0], [3, 1]))
    if version[0] == 3 and rng.random() < 0.9:
        instr = [16, rng.choice((8, 16, 32, 64, 128, 256, 24, 512)), 16]
    else:
        instr = ([1] * (rank - 2) + [16, 8]) if rng.random() < 0.9 else counts(rng, rank)
    return ttgl.NVMMADistributedLayout(version, counts(rng, rank, 3), instr)


def _mfma(rng: random.Random, rank: int) -> Any:
    mn = rng.choice(([32, 32, 8], [16, 16, 16], [64, 4, 4], [4, 64, 4], [16, 16, 32], [32, 32, 16]))
    return amd.AMDMFMALayout(rng.randint(1, 4), mn, rng.random() < 0.5, counts(rng, rank, 3),
                             rng.choice((32, 64)),
                             None if rng.random() < 0.7 else counts(rng, rank, 2))


def _wmma(rng: random.Random, rank: int, dims: list[int]) -> Any:
    version = rng.choice((1, 2, 3))
    k = rng.choice({1: (16,), 2: (16, 32), 3: (4, 32, 64, 128)}[version])
    instr = None if rng.random() < 0.5 else ([16, 16, k] if rng.random() < 0.9 else [16, 16, 8])
    tiles = [max(1, d // 16) for d in dims]
    return amd.AMDWMMALayout(version, rng.random() < 0.5, bases(rng, rank, rng.randint(0, 3), tiles),
                             bases(rng, rank, rng.randint(0, 2), tiles) if rng.random() < 0.5
                             else None, instr, rank=rank)


def _blocked(rng: random.Random, rank: int, dims: list[int]) -> Any:
    return ttgl.BlockedLayout(counts(rng, rank, 3), counts(rng, rank), counts(rng, rank, 3),
                              order(rng, rank), cga(rng, rank, dims))


def distributed(rng: random.Random, rank: int, dims: list[int], depth: int = 0) -> Any:
    kind = rng.choice(("blocked", "blocked", "mma", "mfma", "wmma", "dot", "slice", "linear"))
    if kind == "blocked":
        return _blocked(rng, rank, dims)
    if kind == "mma":
        return _mma(rng, rank)
    if kind == "mfma":
        return _mfma(rng, rank)
    if kind == "wmma":
        return _wmma(rng, rank, dims)
    if kind == "dot" and depth < 2:
        parent = rng.choice((_mma, _mfma, lambda r, k: _blocked(r, k, dims),
                             lambda r, k: _wmma(r, k, dims)))(rng, rank)
        return ttgl.DotOperandLayout(rng.choice((0, 1, 0, 1, 2)), parent,
                                     rng.choice((0, 1, 2, 4, 8, 16, 3)))
    if kind == "slice" and depth < 2:
        dim = rng.randint(0, rank) if rng.random() < 0.95 else rng.choice((-1, rank + 1, 9))
        return ttgl.SliceLayout(dim, distributed(rng, rank + 1, [*dims[:dim], 4, *dims[dim:]],
                                                 depth + 1))
    regs = bases(rng, rank, rng.randint(0, 4), dims)
    lanes = bases(rng, rank, rng.choice((5, 5, 6, 4)), dims)
    warps = bases(rng, rank, rng.randint(0, 3), dims)
    return ttgl.DistributedLinearLayout(regs, lanes, warps, cga(rng, rank, dims), list(dims))


def shared(rng: random.Random, rank: int, dims: list[int]) -> Any:
    kind = rng.choice(("nvmma", "nvmma", "swizzled", "swizzled", "linear", "padded"))
    if kind == "nvmma":
        fp4 = rng.random() < 0.1
        return ttgl.NVMMASharedLayout(128 if fp4 else rng.choice((0, 32, 64, 128)),
                                      8 if fp4 else rng.choice((8, 16, 32, 64)),
                                      rank if rng.random() < 0.93 else rng.choice((1, 2, 3, 4)),
                                      rng.random() < 0.4, fp4, cga(rng, rank, dims))
    if kind == "swizzled":
        return ttgl.SwizzledSharedLayout(count(rng, 4), count(rng, 3), count(rng, 4),
                                         order(rng, rank), cga(rng, rank, dims))
    n = sum(max(d, 1).bit_length() - 1 for d in dims)
    offsets = bases(rng, rank, n if rng.random() < 0.8 else rng.randint(1, n + 2), dims)
    if kind == "linear":
        return ttgl.SharedLinearLayout(offsets or [[1] * rank], cga(rng, rank, dims),
                                       rng.choice((16, 16, 8, 128, 3)))
    pairs = [[1 << rng.randint(0, 8), 1 << rng.randint(0, 3)] for _ in range(rng.randint(1, 2))]
    return ttgl.PaddedSharedLayout(pairs, offsets, cga(rng, rank, dims), list(dims))


def tensor_memory(rng: random.Random, dims: list[int]) -> Any:
    if rng.random() < 0.15:
        return bw.TensorMemoryScalesLayout()
    block = (rng.choice((64, 128, 32, 256)), count(rng, 8))
    return bw.TensorMemoryLayout(block, rng.choice((1, 2, 4, 3, 0)))


def gluon_case(rng: random.Random) -> tuple[Any, list[int]] | None:
    """A Gluon layout object and the shape to lower it for, or None when Gluon itself
    refuses to build the object (its dataclasses' own checks)."""
    rank = rng.choice((1, 2, 2, 2, 3))
    dims = shape(rng, rank)
    family = rng.random()
    try:
        if family < 0.6:
            obj = distributed(rng, rank, dims)
        elif family < 0.9:
            obj = shared(rng, rank, dims)
        else:
            dims = shape(rng, 2)
            obj = tensor_memory(rng, dims)
    except (AssertionError, TypeError, ValueError, IndexError, KeyError):
        return None
    return obj, dims
