"""The explorer's one request parser: the fields of a JSON request, read and checked.

Every endpoint (:mod:`tilelayout.explorer.views`) reads its request through these
functions; bad input raises :class:`ApiError` (a 4xx status, a message, and the field
and, for layout text, the column), never anything else.

>>> L, shape, dtype, mode = resolve({"layout": "S[(8,4):(4@laneid,1@laneid)]", "shape": "8,4"})
>>> str(L), shape, dtype, mode
('S[(8,4):(4@laneid,1@laneid)]', (8, 4), None, 'none')
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

from .. import presets as registry
from ..analysis.banks import is_shared_memory
from ..core import budget
from ..core.axes import AxisTable, current
from ..core.axes import axis_of as lookup_axis
from ..core.compose import ComposeLayout, Layout
from ..core.dtypes import dtype_bytes
from ..core.errors import LayoutError, LayoutParseError
from ..core.mesh import mesh_of
from ..core.shape import int_tuple
from ..core.swizzle import SWIZZLE_MODES, Swizzle
from ..interop.jax import mesh_axes
from ..render.svg import MAX_ELEMENTS
from ..syntax.parser import parse
from . import examples

#: the largest request body the server reads (bytes)
MAX_BODY = 64 * 1024
#: the longest layout text accepted
MAX_TEXT = 4000
#: the most (element, replica) pairs sent to the page
MAX_PAIRS = 1 << 18
#: the most coordinates one elements_at request may ask about
MAX_QUERY = 4096
#: limits of one request (``tilelayout serve --max-...`` changes them)
REQUEST_LIMITS = budget.Limits(elements=1 << 20, replicas=1 << 12, output_bytes=1 << 26,
                               text=MAX_TEXT, search=1 << 18, cells=1 << 18, seconds=5.0)


class ApiError(Exception):
    """A request the API refuses: ``status`` (4xx), a message, optionally the field and column.

    >>> ApiError("'lang' must be one of python, c", field="lang").to_dict()
    {'error': "'lang' must be one of python, c", 'field': 'lang'}
    """

    def __init__(self, message: str, status: int = 400, *, field: str | None = None,
                 column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field
        self.column = column

    def to_dict(self) -> dict[str, Any]:
        """The JSON body sent to the client."""
        out: dict[str, Any] = {"error": self.message}
        if self.field is not None:
            out["field"] = self.field
        if self.column is not None:
            out["column"] = self.column
        return out


# -- the axes a request may name -----------------------------------------------------------
@functools.cache
def explorer_device_axes() -> tuple[str, ...]:
    """The device axes every request may use besides the registry's: the teaching
    examples' mesh axes and the mesh axes of the registry presets' defaults.

    >>> explorer_device_axes()
    ('x', 'y', 'dp', 'tp')
    """
    names = list(examples.MESH_AXES)
    for name in registry.names():
        info = registry.info(name)
        for prm in info.params:
            if prm.kind == "mesh" and isinstance(info.defaults.get(prm.name), Mapping):
                names += [str(a) for a in info.defaults[prm.name]]
    return tuple(dict.fromkeys(names))


def request_axes(req: Mapping[str, Any]) -> AxisTable:
    """The axes a request's layout text may name: the table in force, the explorer's
    device axes (:func:`explorer_device_axes`), the names of the request's ``order`` (a
    preset's mesh) and of its ``mesh``. A value built from the request alone, so two
    requests never see each other's axes.

    >>> [a.name for a in request_axes({"mesh": "data=2"}).declared]
    ['x', 'y', 'dp', 'tp', 'data']
    """
    names = order(req) or []
    devices = list(mesh(req) or ())
    return _device_table(current(), tuple(dict.fromkeys([*explorer_device_axes(), *names,
                                                         *devices])))


@functools.lru_cache(maxsize=64)
def _device_table(base: AxisTable, names: tuple[str, ...]) -> AxisTable:
    """``base`` plus the device axes ``names`` (names of other kinds are left out)."""
    return base.with_axes(*(a for a in names
                            if a.isidentifier() and lookup_axis(a, base).kind == "device"))


@functools.lru_cache(maxsize=256)
def _parsed(text: str, axes: AxisTable) -> Layout:
    """``parse(text, axes=axes)``: a pure function of two values, so clicks on one layout
    parse it once (the compiled plans are shared by value anyway, ``eval.compiled``)."""
    return parse(text, axes=axes)


# -- fields --------------------------------------------------------------------------------
def json_object(req: Any) -> Mapping[str, Any]:
    """``req`` if it is a JSON object (the body every POST route takes).

    >>> json_object([1])
    Traceback (most recent call last):
    ...
    tilelayout.explorer.request.ApiError: the request body must be a JSON object
    """
    if not isinstance(req, Mapping):
        raise ApiError("the request body must be a JSON object")
    return req


def text(req: Mapping[str, Any], key: str, *, required: bool = False) -> str | None:
    """The string field ``key`` (None when absent or empty, unless ``required``).

    >>> text({"dtype": "float16"}, "dtype"), text({}, "dtype")
    ('float16', None)
    """
    value = req.get(key)
    if value is None or value == "":
        if required:
            raise ApiError(f"'{key}' is required", field=key)
        return None
    if not isinstance(value, str):
        raise ApiError(f"'{key}' must be a string, got {type(value).__name__}", field=key)
    if len(value) > MAX_TEXT:
        raise ApiError(f"'{key}' is longer than {MAX_TEXT} characters", 413, field=key)
    return value


def int_list(value: Any, key: str, *, max_len: int = 8) -> tuple[int, ...] | None:
    """A list of ints from JSON (``[8, 16]``) or text (``"8,16"``, ``"8x16"``, ``"(8, 16)"``).

    >>> int_list("8x16", "shape"), int_list([7, 15], "index"), int_list("", "shape")
    ((8, 16), (7, 15), None)
    """
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, str):
        try:
            items = list(int_tuple(value, f"'{key}'"))
        except LayoutError as exc:
            raise ApiError(str(exc), field=key) from None
    elif isinstance(value, int) and not isinstance(value, bool):
        items = [value]
    elif isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                         for v in value):
        items = list(value)
    else:
        raise ApiError(f"'{key}' must be a list of integers, got {value!r}"[:200], field=key)
    if len(items) > max_len:
        raise ApiError(f"'{key}' has {len(items)} entries; at most {max_len}", field=key)
    if any(abs(v) >= 1 << 40 for v in items):
        raise ApiError(f"'{key}' has an entry too large to be useful here", field=key)
    return tuple(items)


def order(req: Mapping[str, Any]) -> list[str] | None:
    """The optional ``order``: axis names the physical view's tiles follow (a preset's mesh
    axis order); names the layout does not use are ignored.

    >>> order({"order": ["dp", "tp"]}), order({})
    (['dp', 'tp'], None)
    """
    value = req.get("order")
    if value is None or value == []:
        return None
    if (not isinstance(value, list) or len(value) > 16
            or not all(isinstance(v, str) and len(v) <= 64 for v in value)):
        raise ApiError("'order' must be a list of at most 16 axis names", field="order")
    return list(value)


def mesh(req: Mapping[str, Any]) -> dict[str, int] | None:
    """The optional ``mesh`` (``"dp=2,tp=2"`` or ``{"dp": 2, "tp": 2}``); its axes are
    device axes the layout text may name (:func:`request_axes`).

    >>> mesh({"mesh": "dp=2,tp=4"}), mesh({})
    ({'dp': 2, 'tp': 4}, None)
    """
    value = req.get("mesh")
    if value is not None and not isinstance(value, str | dict):
        raise ApiError("'mesh' must be text like dp=2,tp=2 or an object like {\"dp\": 2}",
                       field="mesh")
    if isinstance(value, str) and len(value) > 200:
        raise ApiError("'mesh' is longer than 200 characters", 413, field="mesh")
    try:
        if value in (None, "", {}):
            return None
        parsed = dict(mesh_of(value))  # the one mesh grammar (tilelayout.core.mesh)
        if len(parsed) > 8 or any(not 1 <= n <= 1 << 16 for n in parsed.values()):
            raise ApiError("'mesh' has at most 8 axes, each of size 1..65536", field="mesh")
        return mesh_axes(parsed)
    except LayoutError as exc:
        raise ApiError(str(exc), field="mesh") from None


def layout_field(req: Mapping[str, Any], key: str, *, budgeted: bool = False) -> Layout:
    """The layout text ``req[key]`` parsed with the request's axes (:func:`request_axes`);
    a parse error names the field and its column. ``budgeted``: the text's length is
    checked against the limits in force first (``tl.limits(text=...)``).

    >>> str(layout_field({"src": "S[4:1@laneid]"}, "src"))
    'S[4:1@laneid]'
    >>> layout_field({"src": "S[4:1@lane]"}, "src")
    Traceback (most recent call last):
    ...
    tilelayout.explorer.request.ApiError: unknown axis 'lane'...
    """
    value = text(req, key, required=True)
    assert value is not None
    try:
        if budgeted:
            budget.check("the layout text has", len(value), "text")  # the limit in force
        return _parsed(value, request_axes(req))
    except LayoutParseError as exc:
        raise ApiError(exc.reason if exc.column else str(exc), field=key,
                       column=exc.column or None) from None
    except LayoutError as exc:
        raise ApiError(str(exc), field=key) from None


def resolve(req: Mapping[str, Any]) -> tuple[Layout, tuple[int, ...], str | None, str]:
    """The layout (swizzle composed in), the admitted shape, the dtype and the swizzle mode.

    >>> L, shape, dtype, mode = resolve({"layout": "S[(8,64):(64,1)]", "dtype": "float16",
    ...                                   "swizzle": "128B"})
    >>> str(L), shape
    ('ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])', (8, 64))
    """
    layout = layout_field(json_object(req), "layout", budgeted=True)
    dtype = text(req, "dtype")
    if dtype is not None:
        try:
            dtype_bytes(dtype)
        except LayoutError as exc:
            raise ApiError(str(exc), field="dtype") from None
    mode = text(req, "swizzle") or "none"
    if mode not in SWIZZLE_MODES:
        raise ApiError(f"unknown swizzle mode {mode!r}; expected one of "
                       f"{', '.join(SWIZZLE_MODES)}", field="swizzle")
    if mode != "none":
        if dtype is None:
            raise ApiError("a swizzle mode needs a dtype (the swizzle depends on the element "
                           "size); pick one", field="swizzle")
        if isinstance(layout, ComposeLayout):
            raise ApiError("the layout text already has a swizzle (ComposeLayout); "
                           "set the swizzle control to none", field="swizzle")
        if "m" not in layout.axes:
            raise ApiError(f"a swizzle permutes the memory address m, but {layout} has no "
                           f"m axis; set the swizzle control to none", field="swizzle")
        layout = ComposeLayout(Swizzle.for_dtype(dtype, mode), layout)
    try:
        shape = layout.check_shape(int_list(req.get("shape"), "shape"))
    except LayoutError as exc:
        raise ApiError(str(exc), field="shape") from None
    if len(shape) > 8:
        raise ApiError(f"shape has {len(shape)} dimensions; the explorer draws at most 8",
                       field="shape")
    return layout, shape, dtype, mode


def index(req: Mapping[str, Any], shape: tuple[int, ...]) -> tuple[int, ...]:
    """The required ``index``: one entry per dimension of ``shape``, inside it.

    >>> index({"index": "7,15"}, (8, 16))
    (7, 15)
    """
    value = int_list(req.get("index"), "index")
    if value is None:
        raise ApiError("'index' is required, e.g. [7, 15]", field="index")
    if len(value) != len(shape):
        raise ApiError(f"index {list(value)} has {len(value)} entries but the shape "
                       f"{list(shape)} has {len(shape)}", field="index")
    for d, (x, s) in enumerate(zip(value, shape, strict=True)):
        if not 0 <= x < s:
            raise ApiError(f"index {list(value)} is outside the shape {list(shape)} "
                           f"(entry {d} must be in [0, {s}))", field="index")
    return value


def drawable(layout: Layout, shape: tuple[int, ...]) -> bool:
    """Whether the explorer draws (and analyses) ``layout`` over ``shape``: at most
    ``MAX_ELEMENTS`` elements and ``MAX_PAIRS`` (element, replica) pairs.

    >>> drawable(parse("S[(8,4):(4,1)]"), (8, 4)), drawable(parse("S[(1024,1024):(1024,1)]"), (1024, 1024))
    (True, False)
    """
    n = math.prod(shape)
    return n <= MAX_ELEMENTS and n * layout.replica_count <= MAX_PAIRS


def has_banks(layout: Layout, dtype: str | None) -> bool:
    """Banks apply to shared memory with a dtype (see ``analysis.banks.is_shared_memory``).

    >>> smem, lanes = parse("S[(8,64):(64,1)]"), parse("S[32:1@laneid]")
    >>> has_banks(smem, "float16"), has_banks(lanes, "float16"), has_banks(smem, None)
    (True, False, False)
    """
    return dtype is not None and is_shared_memory(layout)
