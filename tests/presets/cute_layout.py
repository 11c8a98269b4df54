"""A test-only evaluator for CuTe layouts (Shape:Stride nested tuples).

Independent of tilelayout: it follows CuTe's definition (media/docs/cpp/cute/01_layout.md):
an index into a mode is split colexicographically (leftmost sub-mode fastest) and
dotted with the strides. Used to evaluate the CuTe (thread, value) -> index layouts
listed in docs/hardware-facts.md.
"""

from __future__ import annotations

import ast
import math


def parse(text: str) -> tuple[object, object]:
    """``"((4,8),(2,2)):((32,1),(16,8))"`` -> (shape, stride) as nested tuples / ints."""
    depth = 0
    for k, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if ch == ":" and depth == 0:
            return ast.literal_eval(text[:k]), ast.literal_eval(text[k + 1:])
    raise ValueError(f"not a CuTe layout: {text!r}")


def size(shape: object) -> int:
    if isinstance(shape, tuple):
        return math.prod(size(s) for s in shape)
    return int(shape)


def evaluate(shape: object, stride: object, index: int) -> int:
    """Offset of a 1-D index into a (possibly nested) mode: colexicographic split."""
    if isinstance(shape, tuple):
        total = 0
        for s, d in zip(shape, stride, strict=True):
            n = size(s)
            total += evaluate(s, d, index % n)
            index //= n
        return total
    assert 0 <= index < shape
    return index * stride


def evaluate_modes(text: str, coords: tuple[int, ...]) -> int:
    """Offset of a coordinate given per top-level mode, e.g. (thread, value)."""
    shape, stride = parse(text)
    assert isinstance(shape, tuple) and len(shape) == len(coords)
    return sum(evaluate(s, d, c) for s, d, c in zip(shape, stride, coords, strict=True))


def mode_sizes(text: str) -> tuple[int, ...]:
    """Size of each top-level mode."""
    shape, _ = parse(text)
    assert isinstance(shape, tuple)
    return tuple(size(s) for s in shape)
