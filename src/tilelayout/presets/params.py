"""Preset parameters: declared kinds, validation, and values read from text.

Each preset declares its keyword arguments as :class:`Param` values (a kind from
:data:`PARAM_KINDS`, a default, the allowed choices). :meth:`Param.check` validates a
value a caller passes; :meth:`Param.parse` reads one from command-line or query-string
text (every kind also accepts JSON; a mesh is read by :mod:`tilelayout.core.mesh`, the
one mesh grammar). The registry (:mod:`tilelayout.presets.registry`) applies them.

>>> Param("mesh", "mesh", {"x": 2}).parse("data=2,model=4")
mappingproxy({'data': 2, 'model': 4})
>>> Param("n", "int", 64, choices=(64, 128)).check("wgmma.m64nNk16.D", 256)
Traceback (most recent call last):
...
tilelayout.presets.params.PresetError: wgmma.m64nNk16.D: parameter n must be one of 64, 128; got 256
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..core.errors import LayoutError, shown
from ..core.jsonable import jsonable
from ..core.mesh import mesh_of, parse_mesh
from ..core.shape import int_tuple

#: the widest integer a preset parameter takes (hardware counts are far smaller; larger
#: values are refused by their size, before anything prints or converts them)
MAX_PARAM_BITS = 64
#: parameter kinds; the explorer picks a widget per kind
PARAM_KINDS = ("choice", "int", "bool", "shape", "mesh", "spec", "order")


class PresetError(LayoutError):
    """An unknown preset, an unknown parameter or a parameter value a preset refuses."""


@dataclass(frozen=True)
class Param:
    """One keyword argument of a preset.

    ``default`` is the value used by :func:`~tilelayout.presets.default` and offered
    by the explorer. ``required`` parameters (``docs/presets.md``, "Conventions": e.g.
    ``dtype`` of an mma A/B operand) must be passed to :func:`~tilelayout.presets.get` explicitly; their
    ``default`` is only a suggestion. ``choices`` lists every allowed value when the
    set is finite.

    >>> Param("trans", "bool", False).check("ldmatrix.x1", True)
    True
    """

    name: str
    kind: str
    default: Any
    choices: tuple[Any, ...] | None = None
    required: bool = False
    doc: str = ""
    #: values that are recognized but refused, with the reason (e.g. not sourced)
    refused: Mapping[Any, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "refused", MappingProxyType(dict(self.refused)))

    def check(self, preset: str, value: Any) -> Any:
        """``value`` validated (and normalized) for this parameter of ``preset``."""
        where = f"{preset}: parameter {self.name}"
        if value is None and self.default is None:
            return None  # an optional parameter left unset (the builder picks its value)
        if self.refused and isinstance(value, Hashable) and value in self.refused:
            raise PresetError(f"{where}={shown(value)} is not available: {self.refused[value]}")
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise PresetError(f"{where} must be True or False, got {shown(value)}")
            return value
        if self.kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise PresetError(f"{where} must be an integer, got {shown(value)}")
        if self.kind == "int" and value.bit_length() > MAX_PARAM_BITS:
            raise PresetError(f"{where} must be an integer of at most {MAX_PARAM_BITS} bits, got "
                              f"{shown(value)}")
        if self.kind == "shape":
            value = _as_shape(where, value)
        if self.kind == "order":
            value = _as_order(where, value)
        if self.kind == "mesh":
            value = _as_mesh(where, value)
        if self.kind == "spec":
            value = _as_spec(where, value)
        # a choice is matched with its type too: 8.0 is not the choice 8, True not 1
        if self.choices is not None and not any(
                type(value) is type(c) and value == c for c in self.choices):
            listed = ", ".join(str(c) for c in self.choices)
            raise PresetError(f"{where} must be one of {listed}; got {shown(value)}")
        return value

    def parse(self, text: str) -> Any:
        """A value from command-line / query-string text (JSON accepted for every kind).

        >>> Param("shape", "shape", (8, 64)).parse("8,16")
        (8, 16)
        >>> Param("spec", "spec", ()).parse("data,None")
        ('data', None)
        >>> Param("imm", "int", None).parse("") is None   # optional: left to the preset
        True
        """
        text = str(text).strip()
        if self.default is None and text in ("", "None", "none", "null", "auto"):
            return None
        try:
            value = json.loads(text)
        except ValueError:
            value = _parse_loose(self.kind, text)
        if self.kind == "bool" and type(value) is int and value in (0, 1):
            return bool(value)  # "0" / "1" read as JSON numbers
        if self.kind == "bool" and isinstance(value, str):
            low = value.lower()
            if low in ("true", "1", "yes"):
                return True
            if low in ("false", "0", "no"):
                return False
        if self.kind == "int" and isinstance(value, str):
            raise PresetError(f"parameter {self.name} must be an integer, got {shown(text)}")
        if self.kind in ("shape", "order") and isinstance(value, int) and not isinstance(value, bool):
            value = (value,)  # a rank-1 shape written as one number
        if self.kind in ("shape", "spec", "order") and isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        if self.kind == "spec" and (value is None or isinstance(value, str)):
            value = (value,)
        return value

    def text(self, value: Any) -> str:
        """``value`` in the text form :meth:`parse` reads (:func:`param_text`).

        >>> Param("mesh", "mesh", {"x": 2}).text({"dp": 2, "tp": 2})
        'dp=2,tp=2'
        """
        return param_text(self.kind, value)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description (tuples become lists)."""
        return {
            "name": self.name,
            "kind": self.kind,
            "default": jsonable(self.default),
            "choices": None if self.choices is None else [jsonable(c) for c in self.choices],
            "required": self.required,
            "doc": self.doc,
        }


def param_text(kind: str, value: Any) -> str:
    """The text form of a parameter's ``value``: what ``--param KEY=VALUE`` and the
    explorer's widgets take (:meth:`Param.parse` reads it back), never a Python repr.

    >>> param_text("shape", (8, 64)), param_text("mesh", {"dp": 2, "tp": 4})
    ('8,64', 'dp=2,tp=4')
    >>> param_text("spec", (("dp", "tp"), None)), param_text("bool", True)
    ('(dp,tp),None', 'true')
    """
    if value is None and kind in ("int", "shape", "spec", "order"):
        return ""  # an optional parameter left unset: the preset picks it
    if kind == "bool":
        return "true" if value else "false"
    if kind in ("shape", "order"):
        return ",".join(str(v) for v in value)
    if kind == "mesh":
        return ",".join(f"{k}={v}" for k, v in value.items())
    if kind == "spec":
        def one(e: Any) -> str:
            if e is None:
                return "None"
            if isinstance(e, tuple | list):
                return "(" + ",".join(e) + ")"
            return str(e)
        return ",".join(one(e) for e in value)
    return str(value)


def _parse_loose(kind: str, text: str) -> Any:
    if kind in ("int",):
        try:
            return int(text)
        except ValueError:
            return text
    if kind == "shape":
        try:
            return int_tuple(text)
        except LayoutError:
            return text
    if kind == "order":
        try:
            return tuple(int(v) for v in text.strip("()[] ").split(","))
        except ValueError:
            return text
    if kind == "mesh":  # data=2,model=4 (tilelayout.core.mesh); refused text stays text
        try:
            return parse_mesh(text)
        except LayoutError:
            return text
    if kind == "spec":  # data,None  or  (data,model),None
        out_spec: list[Any] = []
        depth_items: list[str] | None = None
        for raw in _split_top(text.strip("[] ")):
            item = raw.strip()
            if item.startswith("("):
                depth_items = [s.strip().strip("'\"") for s in item.strip("()").split(",")]
                out_spec.append(tuple(s for s in depth_items if s))
            elif item in ("None", "null", "-", ""):
                out_spec.append(None)
            else:
                out_spec.append(item.strip("'\""))
        return tuple(out_spec)
    return text


def _split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


def _as_shape(where: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,)
    if isinstance(value, str):  # "8,64" is read, as on the command line
        try:
            value = int_tuple(value, where)
        except LayoutError as exc:
            raise PresetError(str(exc)) from None
    if not isinstance(value, Sequence) or isinstance(value, bytes) or not value:
        raise PresetError(f"{where} must be a tuple of positive integers like (8, 64), got "
                          f"{shown(value)}")
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int) or v < 1 or v.bit_length() > MAX_PARAM_BITS:
            raise PresetError(f"{where} must be a tuple of positive integers (at most "
                              f"{MAX_PARAM_BITS} bits) like (8, 64), got {shown(value)}")
        out.append(v)
    return tuple(out)


def _as_order(where: str, value: Any) -> tuple[int, ...]:
    """A dimension order: a permutation of ``0 .. n-1`` (Triton's ``order``, minor first)."""
    ints = isinstance(value, Sequence) and not isinstance(value, str) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)
    if ints and value and sorted(value) == list(range(len(value))):
        return tuple(value)
    raise PresetError(f"{where} must be a permutation of 0..n-1 like (1, 0), got {shown(value)}")


def _as_mesh(where: str, value: Any) -> Mapping[str, int]:
    try:
        return mesh_of(value)
    except LayoutError as exc:
        raise PresetError(f"{where}: {exc}") from None


def _as_spec(where: str, value: Any) -> tuple[Any, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise PresetError(f"{where} must be a sequence with one entry per tensor dim "
                          f"(None, a mesh axis name, or a tuple of names); got {shown(value)}")
    out: list[Any] = []
    for entry in value:
        if entry is None or isinstance(entry, str):
            out.append(entry)
        elif isinstance(entry, Sequence) and all(isinstance(e, str) for e in entry):
            out.append(tuple(entry) if len(entry) != 1 else entry[0])
        else:
            raise PresetError(f"{where}: entry {shown(entry)} must be None, a mesh axis name or "
                              f"a tuple of mesh axis names")
    return tuple(out)
