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
import importlib.util
from types import MappingProxyType

from ..core.errors import LayoutError


class InteropError(LayoutError):
    """A layout that the other tool's notation cannot express (or bad foreign input)."""


#: the tool each extra installs, as its users know it, and its top-level module
EXTRA_TOOLS = MappingProxyType({
    "triton": ("Triton", "triton"), "jax": ("JAX", "jax"),
    "cute": ("CUTLASS's pycute (nvidia-cutlass)", "pycute"),
    "cute-dsl": ("the CuTe DSL (nvidia-cutlass-dsl)", "cutlass"),
    "tvm": ("TVM TIRx (apache-tvm-tirx)", "tvm_tirx"), "widget": ("anywidget", "anywidget")})


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def require(module: str, extra: str, feature: str):
    """Import optional ``module``, or raise an :class:`InteropError` that names the
    ``feature`` that needs it, the tool and the extra to install (never the module, which
    may be one of ours that imports the tool).

    >>> require("math", "none", "arithmetic").sqrt(4.0)
    2.0
    >>> require("no_such_tool", "triton", "the Gluon conversion")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tilelayout.interop.InteropError: the Gluon conversion needs Triton: pip install 'tilelayout[triton]' ...
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        tool, top = EXTRA_TOOLS.get(extra, (f"the {extra} extra", extra))
        # installed but a part is missing (another version): the import's own words
        detail = f" (it is installed, but: {exc})" if _installed(top) else ""
        raise InteropError(f"{feature} needs {tool}: pip install 'tilelayout[{extra}]'{detail}"
                           ) from None


def present(extra: str, feature: str) -> None:
    """Raise :func:`require`'s :class:`InteropError` unless ``extra``'s tool is installed
    here -- without importing it (a caller about to run it in a child process checks
    first, so a missing tool is named in its words, not the child's).

    >>> present("none", "arithmetic")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tilelayout.interop.InteropError: arithmetic needs the none extra: pip install 'tilelayout[none]'
    """
    tool, top = EXTRA_TOOLS.get(extra, (f"the {extra} extra", extra))
    if not _installed(top):
        raise InteropError(f"{feature} needs {tool}: pip install 'tilelayout[{extra}]'")


__all__ = ["InteropError", "present", "require"]
