"""The layouts every code-generation test runs on: every preset (case studies included)
with its default parameters plus swizzle variants, and seeded random layouts (replicas,
offsets, negative and zero strides, non-power-of-two extents, swizzles), with the
invertible ones marked."""

from __future__ import annotations

import functools
import random

import tilelayout as tl
from tilelayout import presets
from tilelayout.codegen.inverse import shared_coordinate

AXES = ("m", "laneid", "warpid", "pid", "TCol")
EXTENTS = (1, 2, 3, 4, 5, 6, 7, 8, 16)


def random_xor_images(rng: random.Random, n: int) -> tuple[int, ...]:
    """Images of a random invertible F2-linear map on ``n`` bits."""
    while True:
        images = [rng.randrange(1, 1 << n) for _ in range(n)]
        rows: list[int] = []
        for v in images:
            for r in rows:
                v = min(v, v ^ r)
            if v == 0:
                break
            rows.append(v)
        else:
            return tuple(images)


def _random_swizzle(rng: random.Random):
    """A Swizzle, or (half the time) a random XorSwizzle."""
    if rng.random() < 0.5:
        return tl.XorSwizzle(*random_xor_images(rng, rng.randint(1, 9)))
    b = rng.randint(0, 3)
    return tl.Swizzle(rng.randint(0, 3), b, rng.randint(max(b, 1), 4))


def _random_layout(rng: random.Random) -> tl.TileLayout | tl.ComposeLayout:
    def it(extents=EXTENTS, strides=range(-9, 17)):
        return tl.Iter(rng.choice(extents), rng.choice(strides), rng.choice(AXES))

    shard = [it() for _ in range(rng.randint(1, 4))]
    replica = [it(extents=(1, 2, 3)) for _ in range(rng.randint(0, 2))]
    offset = {rng.choice(AXES): rng.randint(-20, 20) for _ in range(rng.randint(0, 2))}
    tile = tl.TileLayout(shard, replica, offset)
    if rng.random() < 0.2:
        rows, cols = rng.choice([(8, 64), (4, 32), (16, 8), (3, 64)])
        tile = tl.TileLayout([tl.Iter(rows, cols + rng.choice([0, 0, 8])), tl.Iter(cols, 1)],
                             replica, {"m": rng.choice([0, 0, 64, -8])})
        return tl.ComposeLayout(_random_swizzle(rng), tile)
    return tile


def _random_injective(rng: random.Random) -> tl.TileLayout | tl.ComposeLayout:
    """Distinct coordinates by construction: per axis a mixed radix with gaps and sign
    flips (or a non-dominant pair such as (3,2):(2,3)), replicas beyond the axis span."""
    n = rng.randint(1, 4)
    extents = [rng.choice(EXTENTS[1:]) for _ in range(n)]
    axes = [rng.choice(AXES[:3]) for _ in range(n)]
    strides = [0] * n
    span: dict[str, int] = {}
    for k in rng.sample(range(n), n):
        a = axes[k]
        s = span.get(a, 1) * rng.choice([1, 1, 2, 3])
        strides[k] = s * rng.choice([1, 1, -1])
        span[a] = s * extents[k]
    if rng.random() < 0.3:  # a non-dominant (but injective) pair on a fresh axis
        e0, e1 = rng.choice([(3, 2), (4, 3), (5, 2)])
        s0, s1 = {(3, 2): (2, 3), (4, 3): (3, 4), (5, 2): (2, 5)}[(e0, e1)]
        extents += [e0, e1]
        axes += ["TCol", "TCol"]
        strides += [s0, s1]
        span["TCol"] = s0 * (e0 - 1) + s1 * (e1 - 1) + 1
    shard = [tl.Iter(e, s, a) for e, s, a in zip(extents, strides, axes, strict=True)]
    replica = []
    for _ in range(rng.randint(0, 2)):
        a = rng.choice(AXES)
        replica.append(tl.Iter(rng.choice([2, 3]), rng.choice([1, -1]) * 2 * span.get(a, 1), a))
    offset = {rng.choice(AXES): rng.randint(-20, 20) for _ in range(rng.randint(0, 2))}
    tile = tl.TileLayout(shard, replica, offset)
    if rng.random() < 0.15 and "m" in tile.axes:
        return tl.ComposeLayout(_random_swizzle(rng), tile)
    return tile


def _shape_for(rng: random.Random, layout) -> tuple[int, ...]:
    """The default shape, or another admitted shape (reshaped dims) half of the time."""
    size = layout.size()
    if rng.random() < 0.5 or size < 4:
        return layout.default_shape
    divisors = [d for d in range(2, size) if size % d == 0]
    if not divisors:
        return (size,)
    d = rng.choice(divisors)
    return (d, size // d)


@functools.lru_cache(maxsize=1)
def random_cases(count: int = 320, seed: int = 10) -> tuple[tuple[object, tuple[int, ...]], ...]:
    """Seeded random (layout, shape) pairs: half any layout, half invertible ones."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        layout = _random_layout(rng) if k % 2 else _random_injective(rng)
        out.append((layout, _shape_for(rng, layout)))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def preset_cases() -> tuple[tuple[str, object, tuple[int, ...]], ...]:
    """Every preset with its defaults (case studies included), plus swizzled variants."""
    out = []
    for name in presets.names():
        p = presets.default(name)
        out.append((name, p.layout, p.shape))
    for mode in ("32B", "64B", "128B"):
        p = presets.get("smem.swizzle_atom", dtype="float16", mode=mode)
        out.append((f"smem.swizzle_atom[{mode}]", p.layout, p.shape))
    return tuple(out)


def all_cases() -> list[tuple[str, object, tuple[int, ...]]]:
    """Presets then random layouts, each with a readable id."""
    cases = list(preset_cases())
    cases += [(f"random{k}", lay, s) for k, (lay, s) in enumerate(random_cases())]
    return cases


@functools.cache
def _invertible(layout, shape) -> bool:
    with tl.limits(elements=1 << 24):
        return shared_coordinate(layout, shape) is None


def invertible(layout, shape) -> bool:
    """No two elements share a coordinate (so ``inverse=True`` is allowed)."""
    return _invertible(layout, tuple(shape))
