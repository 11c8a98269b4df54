"""Conversions between tilelayout layouts and other tools' layout notations.

Each submodule is optional and imports its third-party tool only inside the functions
that need it, so ``import tilelayout.interop.cute`` works without CUTLASS installed:

* :mod:`tilelayout.interop.cute`   CuTe layouts: text (parser in ``cute_text``), pycute
  objects, the CUTLASS DSL, thread-value layouts (``cute_tv``)
* :mod:`tilelayout.interop.jax`    JAX ``PartitionSpec`` / ``NamedSharding``
* :mod:`tilelayout.interop.triton` Triton linear layouts (basis vectors)
* :mod:`tilelayout.interop.triton_shared` Triton shared linear layouts (offset bases,
  swizzles as :class:`~tilelayout.Swizzle` / :class:`~tilelayout.XorSwizzle`)
* :mod:`tilelayout.interop.gluon` Gluon layout objects in (``from_triton``) and out
  (``to_gluon``), lowered and checked by Triton itself; the named layouts it tries in
  ``gluon_candidates``
* :mod:`tilelayout.interop.tvm`    TVM TIRx layout objects (``tvm_tirx``)
* :mod:`tilelayout.interop.convert` one function writing a layout in any of them
  (``tilelayout convert`` and the explorer's ``/api/convert`` call it)

A conversion is exact or refused: when the other notation cannot express a layout,
the function raises :class:`InteropError` saying why.

>>> from tilelayout.interop.cute import from_cute
>>> str(from_cute("(4,8):(8,1)"))
'S[(4,8):(8,1)]'
"""

from __future__ import annotations

import importlib

from ..core.errors import LayoutError


class InteropError(LayoutError):
    """A layout that the other tool's notation cannot express (or bad foreign input)."""


def require(module: str, extra: str):
    """Import optional third-party ``module``, or raise an :class:`InteropError` that names
    the extra to install.

    >>> require("math", "none").sqrt(4.0)
    2.0
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise InteropError(
            f"this conversion needs the optional package that provides '{module}' "
            f"(pip install 'tilelayout[{extra}]'): {exc}"
        ) from None


__all__ = ["InteropError", "require"]
