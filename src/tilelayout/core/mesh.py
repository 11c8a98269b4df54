"""Device meshes as text: the one grammar every mesh is written in.

A mesh names each device axis and its size: ``dp=2,tp=4``. The command line
(``tilelayout convert --mesh``), the explorer's ``mesh`` field and preset parameters
(``preset:mesh.shard:mesh=dp=2,tp=4``, ``presets.parse_params``) all read it with
:func:`parse_mesh`:

* entries ``NAME=SIZE`` separated by commas; ``NAME:SIZE`` is the same entry, and
  surrounding braces and quotes are ignored, so JSON (``{"dp": 2, "tp": 4}``) reads too;
* a name is an identifier, a size a positive integer, and no name comes twice.

A mapping is checked by the same rules (:func:`mesh_of`). The answer is a read-only
mapping in the written order (the mesh's axis order).

>>> parse_mesh("dp=2, tp=4") == parse_mesh('{"dp": 2, "tp": 4}') == {"dp": 2, "tp": 4}
True
>>> format_mesh(parse_mesh("dp:2,tp:4"))
'dp=2,tp=4'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from .errors import LayoutError, shown

#: what every refusal shows as the form to use
EXAMPLE = "NAME=SIZE entries (e.g. dp=2,tp=4)"


class MeshError(LayoutError):
    """Mesh text or a mesh mapping that is not ``NAME=SIZE`` entries with identifier names
    and positive integer sizes."""


def parse_mesh(text: str) -> Mapping[str, int]:
    """The mesh written in ``text`` (see the module docstring for the grammar).

    >>> dict(parse_mesh("data=2,model=4"))
    {'data': 2, 'model': 4}
    >>> parse_mesh("dp")
    Traceback (most recent call last):
    ...
    tilelayout.core.mesh.MeshError: a mesh is NAME=SIZE entries (e.g. dp=2,tp=4); got 'dp'
    """
    if not isinstance(text, str):
        raise MeshError(f"a mesh is text of {EXAMPLE}; got {shown(text)}")
    items: list[tuple[str, str]] = []
    for entry in filter(None, (part.strip() for part in text.strip().strip("{}").split(","))):
        name, sep, size = entry.replace(":", "=", 1).partition("=")
        name = name.strip().strip("'\"")
        if not sep or not name:
            raise MeshError(f"a mesh is {EXAMPLE}; got {entry!r}")
        items.append((name, size.strip()))
    return _checked(items)


def mesh_of(value: str | Mapping[str, Any] | Sequence[tuple[str, int]]) -> Mapping[str, int]:
    """``value`` as a mesh: text is parsed (:func:`parse_mesh`), a mapping or a sequence
    of ``(name, size)`` pairs checked by the same rules.

    >>> dict(mesh_of({"dp": 2})), dict(mesh_of([("dp", 2), ("tp", 4)]))
    ({'dp': 2}, {'dp': 2, 'tp': 4})
    >>> mesh_of({"dp": 0})
    Traceback (most recent call last):
    ...
    tilelayout.core.mesh.MeshError: the size of mesh axis 'dp' must be a positive integer, got 0
    """
    if isinstance(value, str):
        return parse_mesh(value)
    if isinstance(value, Mapping):
        return _checked(list(value.items()))
    if isinstance(value, Sequence) and all(isinstance(p, Sequence) and not isinstance(p, str)
                                           and len(p) == 2 for p in value):
        return _checked([tuple(p) for p in value])
    raise MeshError(f"a mesh is text of {EXAMPLE}, a mapping like {{'dp': 2}} or "
                    f"(name, size) pairs; got {shown(value)}")


def format_mesh(mesh: Mapping[str, int]) -> str:
    """The text of ``mesh`` (what :func:`parse_mesh` reads back).

    >>> format_mesh({"dp": 2, "tp": 4})
    'dp=2,tp=4'
    """
    return ",".join(f"{name}={size}" for name, size in mesh.items())


def _checked(items: list[tuple[Any, Any]]) -> Mapping[str, int]:
    if not items:
        raise MeshError(f"a mesh has at least one axis: {EXAMPLE}")
    out: dict[str, int] = {}
    for name, size in items:
        if not isinstance(name, str) or not name.isidentifier():
            raise MeshError(f"mesh axis names are identifiers like dp or tp; got {shown(name)}")
        if name in out:
            raise MeshError(f"mesh axis {name!r} is given twice")
        out[name] = _size(name, size)
    return MappingProxyType(out)


def _size(name: str, size: Any) -> int:
    value = size
    if not isinstance(size, bool) and hasattr(size, "__index__"):
        value = size.__index__()  # numpy integers (a JAX mesh's sizes)
    if isinstance(size, str):
        try:
            value = int(size.strip().strip("'\""))
        except ValueError:
            value = size
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MeshError(f"the size of mesh axis {name!r} must be a positive integer, "
                        f"got {shown(size)}")
    return value
