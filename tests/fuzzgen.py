"""Cheap, seeded generators of hostile inputs for the fuzz tests (no hypothesis: fast)."""

from __future__ import annotations

import random

AXES = ("m", "laneid", "warpid", "pid", "TLane", "TCol", "wgid", "bx")
#: integers a careless or hostile caller might write
NASTY_INTS = (0, 1, -1, 2, 3, 7, 8, 32, 63, 64, 127, 128, 1 << 20, 1 << 31, (1 << 31) - 1,
              1 << 32, 1 << 40, (1 << 62) - 1, 1 << 62, 1 << 63, -(1 << 63), 1 << 64, 1 << 70,
              1 << 128, 1 << 255, 1 << 256, 1 << 300, 10 ** 100, 10 ** 5000)
VALID = (
    "S[(8,16):(16,1)]", "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid",
    "S[4] + R[1048576:1@pid]", "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])",
    "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]", "S[(4,8):(8@laneid,1)] + R[(2,2):(1@pid,0)]",
    "S[8:-1] + 10", "S[()]", "S[(32,2):(1@laneid,1)] - 3@warpid",
    "ComposeLayout(XorSwizzle(1, 2, 4, 9, 18), S[(8,64):(64,1)])",
)
PIECES = ("S[", "R[", "]", "(", ")", ":", ",", "@", "+", "-", " ", "laneid", "pid", "m",
          "ComposeLayout(", "Swizzle(", "x", "\u0664", "\x00", "@@", "S[(", "1", "9" * 90)


def integer(rng: random.Random, small: bool = False) -> int:
    """Mostly small integers, sometimes a nasty one."""
    if small or rng.random() < 0.7:
        return rng.randint(-4, 40) if rng.random() < 0.2 else rng.randint(1, 16)
    return rng.choice(NASTY_INTS) * rng.choice((1, 1, -1))


def num(value: int) -> str:
    """Decimal text of ``value``; a number beyond Python's str limit as 5,000 nines."""
    return str(value) if value.bit_length() < 10_000 else "9" * 5000


def iters_text(rng: random.Random, n: int, replica: bool = False) -> str:
    extents = [max(1, integer(rng)) if rng.random() < 0.95 else integer(rng) for _ in range(n)]
    if rng.random() < 0.2 and not replica:
        return "(" + ",".join(map(num, extents)) + ")"
    strides = []
    for _ in range(n):
        axis = rng.choice(AXES)
        s = num(integer(rng))
        strides.append(s if axis == "m" else f"{s}@{axis}")
    if n == 1 and rng.random() < 0.5:
        return f"{num(extents[0])}:{strides[0]}"
    return "(" + ",".join(map(num, extents)) + "):(" + ",".join(strides) + ")"


def layout_text(rng: random.Random) -> str:
    """A (mostly) well-formed layout, with hostile sizes now and then."""
    text = "S[" + iters_text(rng, rng.randint(0, 5)) + "]"
    if rng.random() < 0.4:
        text += " + R[" + iters_text(rng, rng.randint(1, 3), replica=True) + "]"
    for _ in range(rng.randint(0, 2)):
        axis = rng.choice(AXES)
        text += f" + {num(integer(rng))}" + ("" if axis == "m" else f"@{axis}")
    if rng.random() < 0.05:
        images = ",".join(num(integer(rng)) for _ in range(rng.randint(0, 6)))
        return f"ComposeLayout(XorSwizzle({images}), {text})"
    if rng.random() < 0.25:
        m, b = rng.choice((0, 1, 2, 3, 70, 250, 1 << 40)), rng.choice((0, 1, 2, 3, 10))
        s = b + rng.choice((0, 1, 3, 62, 300))
        text = f"ComposeLayout(Swizzle({m},{b},{s}), {text})"
    return text


def mutated_text(rng: random.Random) -> str:
    """A valid layout with a few pieces inserted, deleted or swapped; or random pieces."""
    if rng.random() < 0.3:
        return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))
    text = rng.choice(VALID) if rng.random() < 0.5 else layout_text(rng)
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(len(text) + 1)
        op = rng.random()
        if op < 0.4:
            text = text[:k] + rng.choice(PIECES) + text[k:]
        elif op < 0.7:
            text = text[:k] + text[k + rng.randint(1, 4):]
        else:
            text = text[:k] + num(rng.choice(NASTY_INTS)) + text[k:]
    return text


def shape_for(rng: random.Random, size: int) -> object:
    """A shape: often the right one, sometimes hostile."""
    r = rng.random()
    if r < 0.5:
        return None
    if r < 0.7 and size < 1 << 62:
        return (size,)
    return rng.choice(((), (0,), (-1, 4), (2, 2), ("8",), (1.5,), None, 7, "8,16", [1 << 70],
                       (size, 1), (True,)))


def index_for(rng: random.Random, size: int) -> object:
    r = rng.random()
    if r < 0.6 and size < 1 << 62:
        return rng.randrange(size) if size else 0
    return rng.choice((-1, size, 10 ** 5000, (0,), (0, 0), "0", 1.0, None, [1, 2, 3], 1 << 70))
