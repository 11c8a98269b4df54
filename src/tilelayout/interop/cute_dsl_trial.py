"""A CuTe DSL layout built in a traced function, for a trial run in a child process
(imports the CUTLASS DSL; loaded by :func:`tilelayout.interop.cute.to_cute_dsl` with
``isolate=True`` through :mod:`tilelayout.interop.isolation`).

The DSL builds layouts only while a ``@cute.jit`` function is traced, and its C++ may end
the process on an input it does not take: :func:`dsl_text` traces one function that builds
the layout and returns what the DSL printed, so the caller's own process builds only a
layout the DSL survived.

>>> dsl_text(((4, 8), 2), ((32, 1), 16))  # doctest: +SKIP
'((4,8),2):((32,1),16)'
"""

from __future__ import annotations

from typing import Any

import cutlass
import cutlass.cute as cute


@cute.jit
def _plain(shape: cutlass.Constexpr, stride: cutlass.Constexpr, out: cutlass.Constexpr) -> None:
    out.append(str(cute.make_layout(shape, stride=stride)))


@cute.jit
def _swizzled(shape: cutlass.Constexpr, stride: cutlass.Constexpr, b: cutlass.Constexpr,
              m: cutlass.Constexpr, s: cutlass.Constexpr, offset: cutlass.Constexpr,
              out: cutlass.Constexpr) -> None:
    inner = cute.make_layout(shape, stride=stride)
    out.append(str(cute.make_composed_layout(cute.make_swizzle(b, m, s), offset, inner)))


def dsl_text(shape: Any, stride: Any, swizzle: tuple[int, int, int] | None = None,
             offset: int = 0) -> str:
    """The DSL's printed layout for ``shape:stride`` (a ``Swizzle<B,M,S>`` outside, after
    ``offset``, when ``swizzle`` is given)."""
    out: list[str] = []
    if swizzle is None:
        _plain(shape, stride, out)
    else:
        _swizzled(shape, stride, *swizzle, offset, out)
    return out[0]


__all__ = ["dsl_text"]
