"""The preset registry: named builders with declared, validated parameters.

A preset is an ordinary layout (:class:`~tilelayout.TileLayout` or
:class:`~tilelayout.ComposeLayout`) plus the logical shape it is meant for, the
parameters that produced it and a documentation string citing its source. Builders
register themselves with :func:`register`; users call :func:`tilelayout.presets.get`.

>>> from tilelayout import presets
>>> presets.get("mma.m16n8k16.C").shape
(16, 8)
"""

from __future__ import annotations

import copy
import difflib
import functools
import inspect
import json
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..core.compose import Layout
from ..core.errors import LayoutError
from ..core.jsonable import jsonable
from ..core.shape import int_tuple

#: parameter kinds; the explorer picks a widget per kind
PARAM_KINDS = ("choice", "int", "bool", "shape", "mesh", "spec", "order")


class PresetError(LayoutError):
    """An unknown preset, an unknown parameter or a parameter value a preset refuses."""


@dataclass(frozen=True)
class Param:
    """One keyword argument of a preset.

    ``default`` is the value used by :func:`~tilelayout.presets.default` and offered
    by the explorer. ``required`` parameters (docs/presets.md, "Conventions": e.g. ``dtype`` of an mma A/B
    operand) must be passed to :func:`~tilelayout.presets.get` explicitly; their
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
            raise PresetError(f"{where}={value!r} is not available: {self.refused[value]}")
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise PresetError(f"{where} must be True or False, got {value!r}")
            return value
        if self.kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise PresetError(f"{where} must be an integer, got {value!r}")
        if self.kind == "shape":
            value = _as_shape(where, value)
        if self.kind == "order":
            value = _as_order(where, value)
        if self.kind == "mesh":
            value = _as_mesh(where, value)
        if self.kind == "spec":
            value = _as_spec(where, value)
        if self.choices is not None and value not in self.choices:
            shown = ", ".join(str(c) for c in self.choices)
            raise PresetError(f"{where} must be one of {shown}; got {value!r}")
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
        if self.kind == "bool" and isinstance(value, str):
            low = value.lower()
            if low in ("true", "1", "yes"):
                return True
            if low in ("false", "0", "no"):
                return False
        if self.kind == "int" and isinstance(value, str):
            raise PresetError(f"parameter {self.name} must be an integer, got {text!r}")
        if self.kind in ("shape", "order") and isinstance(value, int) and not isinstance(value, bool):
            value = (value,)  # a rank-1 shape written as one number
        if self.kind in ("shape", "spec", "order") and isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        if self.kind == "spec" and (value is None or isinstance(value, str)):
            value = (value,)
        return value

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
    if kind == "mesh":  # data=2,model=4  or  data:2,model:4
        out: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in text.strip("{} ").split(","))):
            key, sep, val = part.replace(":", "=").partition("=")
            if not sep:
                return text
            try:
                out[key.strip().strip("'\"")] = int(val)
            except ValueError:
                return text
        return out
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
    if not isinstance(value, Sequence) or isinstance(value, str) or not value:
        raise PresetError(f"{where} must be a tuple of positive integers like (8, 64), got {value!r}")
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise PresetError(
                f"{where} must be a tuple of positive integers like (8, 64), got {value!r}"
            )
        out.append(int(v))
    return tuple(out)


def _as_order(where: str, value: Any) -> tuple[int, ...]:
    """A dimension order: a permutation of ``0 .. n-1`` (Triton's ``order``, minor first)."""
    ints = isinstance(value, Sequence) and not isinstance(value, str) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)
    if ints and value and sorted(value) == list(range(len(value))):
        return tuple(value)
    raise PresetError(f"{where} must be a permutation of 0..n-1 like (1, 0), got {value!r}")


def _as_mesh(where: str, value: Any) -> Mapping[str, int]:
    if not isinstance(value, Mapping) or not value:
        raise PresetError(f"{where} must map mesh axis names to sizes, e.g. {{'data': 2}}; "
                          f"got {value!r}")
    out: dict[str, int] = {}
    for k, v in value.items():
        if not isinstance(k, str) or not k.isidentifier():
            raise PresetError(f"{where}: mesh axis names must be identifiers, got {k!r}")
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise PresetError(f"{where}: size of mesh axis {k!r} must be a positive integer, "
                              f"got {v!r}")
        out[k] = int(v)
    return MappingProxyType(out)


def _as_spec(where: str, value: Any) -> tuple[Any, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise PresetError(f"{where} must be a sequence with one entry per tensor dim "
                          f"(None, a mesh axis name, or a tuple of names); got {value!r}")
    out: list[Any] = []
    for entry in value:
        if entry is None or isinstance(entry, str):
            out.append(entry)
        elif isinstance(entry, Sequence) and all(isinstance(e, str) for e in entry):
            out.append(tuple(entry) if len(entry) != 1 else entry[0])
        else:
            raise PresetError(f"{where}: entry {entry!r} must be None, a mesh axis name or "
                              f"a tuple of mesh axis names")
    return tuple(out)


@dataclass(frozen=True)
class Built:
    """What a builder returns: the layout, its logical shape and display hints."""

    layout: Layout
    shape: tuple[int, ...]
    dtype: str | None = None
    swizzle_mode: str | None = None


@dataclass(frozen=True)
class Preset:
    """A named hardware layout: ``layout`` over the logical ``shape``.

    ``params`` are the (validated) keyword arguments that produced it; ``dtype`` (and
    for shared-memory presets ``swizzle_mode``) are set where meaningful, so a viewer
    can draw the bank picture.

    >>> p = get("ldmatrix.x1")
    >>> p.name, p.shape, str(p.layout)
    ('ldmatrix.x1', (1, 8, 8), 'S[(8,4,2):(4@laneid,1@laneid,1)]')
    """

    name: str
    layout: Layout
    shape: tuple[int, ...]
    doc: str
    summary: str
    source: str
    params: Mapping[str, Any]
    dtype: str | None = None
    swizzle_mode: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.params, MappingProxyType):
            object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description (layout as canonical text)."""
        return {
            "name": self.name,
            "summary": self.summary,
            "source": self.source,
            "doc": self.doc,
            "params": jsonable(dict(self.params)),
            "layout": str(self.layout),
            "shape": list(self.shape),
            "axes": list(self.layout.axes),
            "dtype": self.dtype,
            "swizzle_mode": self.swizzle_mode,
        }


@dataclass(frozen=True)
class PresetInfo:
    """What a preset is and which parameters it takes (no layout is built).

    >>> info("wgmma.m64nNk16.D").defaults
    {'n': 64}
    """

    name: str
    family: str
    summary: str
    source: str
    text: str = field(repr=False)
    params: tuple[Param, ...]
    builder: Callable[..., Built] = field(repr=False, compare=False)
    example_at: tuple[int, ...] | None = field(default=None, repr=False, compare=False)

    @property
    def doc(self) -> str:
        """The preset's documentation followed by a two-line example (built on first use,
        so importing the registry builds no layout)."""
        return _documented(self.name)

    @property
    def defaults(self) -> dict[str, Any]:
        """A complete, valid parameter set (the explorer's starting point)."""
        return {p.name: copy.deepcopy(p.default) for p in self.params}

    def param(self, name: str) -> Param:
        """The parameter called ``name`` (unknown names suggest the nearest one)."""
        for p in self.params:
            if p.name == name:
                return p
        raise PresetError(_unknown_param(self, name))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description."""
        return {
            "name": self.name,
            "family": self.family,
            "summary": self.summary,
            "source": self.source,
            "doc": self.doc,
            "params": [p.to_dict() for p in self.params],
            "defaults": jsonable(self.defaults),
        }


_REGISTRY: dict[str, PresetInfo] = {}


@functools.cache  # a cache, not state: the registry is complete once the package is imported
def _documented(name: str) -> str:
    p = _REGISTRY[name]
    return f"{p.text}\n\n{_example(p.name, p.builder, p.params, p.example_at)}"


def register(
    name: str,
    *,
    summary: str,
    source: str,
    params: Sequence[Param] = (),
    doc: str | None = None,
    example_at: tuple[int, ...] | None = None,
) -> Callable[[Callable[..., Built]], Callable[..., Built]]:
    """Decorator: register ``builder(**params) -> Built`` under ``name``.

    ``doc`` defaults to the builder's docstring. Registering a name twice is an error.
    """

    def deco(builder: Callable[..., Built]) -> Callable[..., Built]:
        add(name, builder, summary=summary, source=source, params=params, doc=doc,
            example_at=example_at)
        return builder

    return deco


def add(
    name: str,
    builder: Callable[..., Built],
    *,
    summary: str,
    source: str,
    params: Sequence[Param] = (),
    doc: str | None = None,
    example_at: tuple[int, ...] | None = None,
) -> None:
    """Register ``builder`` under ``name`` (the non-decorator form of :func:`register`).

    The stored doc is ``doc`` (default: the builder's docstring) followed by a
    two-line example evaluated with the default parameters at ``example_at``
    (default: the last element), so the example's output is always current.
    """
    if name in _REGISTRY:
        raise PresetError(f"preset {name!r} is registered twice")
    text = _dedent(doc if doc is not None else (builder.__doc__ or ""))
    _REGISTRY[name] = PresetInfo(
        name=name,
        family=name.split(".")[0],
        summary=summary,
        source=source,
        text=text,
        params=tuple(params),
        builder=builder,
        example_at=example_at,
    )


def _example(
    name: str,
    builder: Callable[..., Built],
    params: Sequence[Param],
    at: tuple[int, ...] | None,
) -> str:
    values = {p.name: p.default for p in params}
    built = builder(**values)
    index = at if at is not None else tuple(s - 1 for s in built.shape)
    coords = built.layout.apply(index, shape=built.shape)
    args = "".join(f", {p.name}={p.default!r}" for p in params if p.required or
                   p.default != _signature_default(builder, p.name))
    return (
        "Example::\n\n"
        f"    >>> p = presets.get({name!r}{args})\n"
        f"    >>> p.layout.apply({index!r}, shape=p.shape)\n"
        f"    {coords!r}"
    )


def _signature_default(builder: Callable[..., Built], name: str) -> Any:
    param = inspect.signature(builder).parameters.get(name)
    return inspect.Parameter.empty if param is None else param.default


def _dedent(text: str) -> str:
    return inspect.cleandoc(text)


def names() -> tuple[str, ...]:
    """Every registered preset name, in registration order.

    >>> "tmem.accumulator" in names()
    True
    """
    return tuple(_REGISTRY)


def info(name: str) -> PresetInfo:
    """The :class:`PresetInfo` of ``name``; unknown names suggest the nearest one.

    >>> info("smem.swizzle_atom").param("mode").choices
    ('none', '32B', '64B', '128B', '128B_atom32B', '128B_atom64B', '96B')
    """
    try:
        return _REGISTRY[name]
    except KeyError:
        folded = [k for k in _REGISTRY if k.lower() == str(name).lower()]
        close = folded or difflib.get_close_matches(str(name), list(_REGISTRY), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise PresetError(
            f"unknown preset {name!r}{hint} (`tilelayout presets` lists all of them)"
        ) from None


def catalog() -> tuple[PresetInfo, ...]:
    """Every preset's :class:`PresetInfo`, in registration order.

    >>> len(catalog()) == len(names())
    True
    """
    return tuple(_REGISTRY.values())


def _unknown_param(entry: PresetInfo, name: str) -> str:
    known = [p.name for p in entry.params]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    takes = f"it takes {', '.join(known)}" if known else "it takes no parameters"
    return f"preset {entry.name} has no parameter {name!r}{hint} ({takes})"


def get(name: str, **params: Any) -> Preset:
    """Build preset ``name`` with keyword parameters (validated; see :func:`info`).

    >>> get("mma.m16n8k16.A", dtype="float16").layout.base((0, 9), shape=(16, 16))
    {m: 5, laneid: 0}
    """
    entry = info(name)
    known = {p.name: p for p in entry.params}
    for key in params:
        if key not in known:
            raise PresetError(_unknown_param(entry, key))
    values: dict[str, Any] = {}
    for p in entry.params:
        if p.name in params:
            values[p.name] = p.check(name, params[p.name])
        elif p.required:
            choices = "" if p.choices is None else f" (one of {', '.join(map(str, p.choices))})"
            raise PresetError(
                f"preset {name} needs {p.name}=...{choices}, e.g. "
                f"presets.get({name!r}, {p.name}={p.default!r})"
            )
        else:
            values[p.name] = p.default
    built = entry.builder(**values)
    return Preset(
        name=name,
        layout=built.layout,
        shape=built.shape,
        doc=entry.doc,
        summary=entry.summary,
        source=entry.source,
        params=MappingProxyType(values),
        dtype=built.dtype,
        swizzle_mode=built.swizzle_mode,
    )


def default(name: str) -> Preset:
    """Preset ``name`` built with its default parameters (``info(name).defaults``).

    >>> default("mma.m16n8k16.A").params["dtype"]
    'float16'
    """
    return get(name, **info(name).defaults)


def parse_params(name: str, texts: Mapping[str, str]) -> dict[str, Any]:
    """Keyword parameters for ``name`` from strings (command line, query strings).

    >>> parse_params("smem.tile", {"shape": "8,64", "mode": "128B"})
    {'shape': (8, 64), 'mode': '128B'}
    """
    entry = info(name)
    return {key: entry.param(key).parse(text) for key, text in texts.items()}


def fail(name: str, message: str) -> PresetError:
    """A :class:`PresetError` for preset ``name`` (builders ``raise fail(...)``)."""
    return PresetError(f"{name}: {message}")
