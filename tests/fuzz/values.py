"""Hostile argument values shared by the surface trials (cheap, seeded)."""

from __future__ import annotations

import random
from typing import Any

import tilelayout as tl
from tests.fuzzgen import layout_text, mutated_text

#: values a careless or hostile caller passes where something else is expected
JUNK: tuple[Any, ...] = (
    None, True, False, 1.5, -1, 0, 3, "x", "8,4", "", "S[4]", [], {}, (), 10 ** 5000, 1 << 70,
    -(1 << 70), "9" * 5000, b"m", float("nan"), float("inf"), [None], (1.5,), (True, 64),
    ("a", 64), [[64], [64]], (0,), (-4, 8), {"m": 1}, "preset:nope", "(" * 5000 + "4" + ")" * 5000,
    "\x00", "laneid", (4.5,), [1 << 40, 1 << 40], 2 ** 31, (2 ** 31,), "8x",
)
#: small layouts on every axis family, as text
LAYOUTS = (
    "S[(8,16):(16,1)]", "S[(4,8):(8,1)]", "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]",
    "S[(4,32,4):(1@warpid,1@laneid,1)]", "S[(8,4):(1@TLane,2@TCol)]", "S[64:1]",
    "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])", "S[(4,8):(8@laneid,1)] + R[2:1@warpid]",
    "S[(2,64):(1@wgid,1@tid_in_wg)]", "S[(8,8,2):(1,16,8)]", "S[(4,4,2,2):(4,1@cbx,2,1)]",
    "S[():()] + R[2:1@warpid]", "S[(16,8):(1,1@laneid)]", "S[(128,128):(1@TLane,1@TCol)]",
    "S[4:2]", "S[(2,2):(1@pid,1)]", "S[(4,4):(1@dp,1)]",
)


def junk(rng: random.Random) -> Any:
    return rng.choice(JUNK)


def maybe(rng: random.Random, good: Any, p: float = 0.15) -> Any:
    """``good`` most of the time, else a junk value."""
    return junk(rng) if rng.random() < p else good


def layout_input(rng: random.Random) -> Any:
    """A layout argument: one of ours, its text, a fuzzed text, a preset string or junk."""
    r = rng.random()
    if r < 0.45:
        return rng.choice(LAYOUTS)
    if r < 0.6:
        return layout_text(rng)
    if r < 0.7:
        return mutated_text(rng)
    if r < 0.8:
        return rng.choice(("preset:mma.m16n8k16.C", "preset:wgmma.m64nNk16.D:n=64",
                           "preset:smem.tile:dtype=float16:shape=64,64", "preset:nope",
                           "preset:triton.blocked", "preset:amd.mfma"))
    if r < 0.9:
        try:
            return tl.parse(rng.choice(LAYOUTS))
        except Exception:  # noqa: BLE001
            return None
    return junk(rng)


def shape_input(rng: random.Random, good: tuple[int, ...] | None = None) -> Any:
    """A shape: the right one, text of it, None, or a hostile one."""
    r = rng.random()
    if r < 0.45 and good is not None:
        return good
    if r < 0.55 and good is not None:
        return ",".join(map(str, good))
    if r < 0.7:
        return None
    return rng.choice((junk(rng), (64, 64), (8, 8, 2), (32, 2), (2 ** 31,), (True, 64), (4.5,),
                       "8x8", (0,), (1 << 40,), [16, 8], (128, 128)))
