"""The preset registry: named builders with declared, validated parameters.

A preset is an ordinary layout (:class:`~tilelayout.TileLayout` or
:class:`~tilelayout.ComposeLayout`) plus the logical shape it is meant for, the
parameters that produced it and a documentation string citing its source. Builders
register themselves with :func:`register`; users call :func:`tilelayout.presets.get`.
Parameters (:class:`Param`, their kinds and text forms) are in
:mod:`tilelayout.presets.params`.

>>> from tilelayout import presets
>>> presets.get("mma.m16n8k16.C").shape
(16, 8)
"""

from __future__ import annotations

import copy
import difflib
import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..core.compose import Layout
from ..core.jsonable import jsonable
from .params import Param, PresetError


@dataclass(frozen=True)
class PresetLayout:
    """What a preset builder returns: the layout, its logical shape and display hints
    (:func:`get` adds the name, documentation and parameters to make a :class:`Preset`)."""

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
    builder: Callable[..., PresetLayout] = field(repr=False, compare=False)
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


@functools.cache  # the same: a pure function of a registered name
def _built_default(name: str) -> PresetLayout:
    """Preset ``name`` built with its default parameters, once: :func:`default` (the
    explorer's catalog) and the doc example share it (an immutable value)."""
    p = _REGISTRY[name]
    return p.builder(**{q.name: q.default for q in p.params})


def register(
    name: str,
    *,
    summary: str,
    source: str,
    params: Sequence[Param] = (),
    doc: str | None = None,
    example_at: tuple[int, ...] | None = None,
) -> Callable[[Callable[..., PresetLayout]], Callable[..., PresetLayout]]:
    """Decorator: register ``builder(**params) -> PresetLayout`` under ``name``.

    ``doc`` defaults to the builder's docstring. Registering a name twice is an error.
    """

    def deco(builder: Callable[..., PresetLayout]) -> Callable[..., PresetLayout]:
        add(name, builder, summary=summary, source=source, params=params, doc=doc,
            example_at=example_at)
        return builder

    return deco


def add(
    name: str,
    builder: Callable[..., PresetLayout],
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
    builder: Callable[..., PresetLayout],
    params: Sequence[Param],
    at: tuple[int, ...] | None,
) -> str:
    built = _built_default(name)
    index = at if at is not None else tuple(s - 1 for s in built.shape)
    coords = built.layout.apply(index, shape=built.shape)
    signature = inspect.signature(builder).parameters
    args = "".join(f", {p.name}={p.default!r}" for p in params if p.required or
                   p.name not in signature or p.default != signature[p.name].default)
    return (
        "Example::\n\n"
        f"    >>> p = presets.get({name!r}{args})\n"
        f"    >>> p.layout.apply({index!r}, shape=p.shape)\n"
        f"    {coords!r}"
    )


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
    defaults = {p.name: p.default for p in entry.params}
    built = _built_default(name) if values == defaults else entry.builder(**values)
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
