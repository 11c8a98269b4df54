"""The XOR-swizzle expressions behind ComposeLayout code (Swizzle today, any
F2-linear XorSwizzle by its images): grouped terms equal the definition on every
address, negative ones included, and the inverse images undo the map."""

from __future__ import annotations

import random

import tilelayout as tl
from tilelayout.core.f2 import inverse as invert_images
from tilelayout.eval.expressions import count_ops, var, xor_expr, xor_images

from .cases import random_xor_images
from .helpers import load_python


def _apply(images, m):
    n = len(images)
    out = (m >> n) << n
    for k, img in enumerate(images):
        if (m >> k) & 1:
            out ^= img
    return out


def _fn(images):
    body = xor_expr(var("m"), images)
    return load_python(f"def f(m):\n    return {body!r}\n", "f")


def test_swizzle_images_and_expression_match_swizzle_apply():
    for m_, b, s in [(3, 3, 3), (0, 1, 3), (2, 2, 4), (1, 3, 3), (4, 0, 3)]:
        sw = tl.Swizzle(m_, b, s)
        layout = tl.ComposeLayout(sw, tl.parse("S[4:1]"))
        images = xor_images(layout)
        f = _fn(images)
        for addr in range(-600, 3000, 7):
            assert f(addr) == sw.apply(addr) == _apply(images, addr)
        if b:
            assert count_ops([xor_expr(var("m"), images)]) == 3  # m ^ ((m & mask) >> S)
            assert images == sw.to_xor().images[: len(images)]


def test_random_xor_maps_and_their_inverses():
    rng = random.Random(3)
    for _ in range(60):
        n = rng.randint(1, 10)
        images = random_xor_images(rng, n)
        inverse = invert_images(images)
        f, g = _fn(images), _fn(inverse)
        for addr in list(range(-40, 1 << n)) + [rng.randrange(1 << 20) for _ in range(20)]:
            assert f(addr) == _apply(images, addr)
            assert g(f(addr)) == addr
