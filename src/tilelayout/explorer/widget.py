"""``tl.widget(...)``: the explorer inside a Jupyter (or VS Code) notebook, run by the kernel.

The widget is the explorer's own page (its drawing modules unchanged: logical and physical
views, click-to-highlight owners, colour by, the four steps, the line x bank view, ...) in
an iframe of the notebook; its API requests travel over the widget's comm to this kernel,
which answers them with :func:`tilelayout.explorer.answers.answer` — the server's view
functions, limits and messages, without a server or a network. Built on anywidget (extra
``widget``); where widgets cannot be shown (a static render of the notebook), its display
falls back to the static SVG picture.

>>> w = widget("mma.m16n8k16.C", color="laneid", select=(3, 5))
>>> w.query
'preset=mma.m16n8k16.C&p.dtype=float32&color=laneid&select=3%2C5'
>>> w.answer_request({"id": 1, "method": "POST", "path": "/api/explain",
...                   "body": {"layout": "S[4:2]", "index": [3]}})["data"]["coords"]
[{'m': 6}]
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any
from urllib.parse import urlencode

from ..core.compose import ComposeLayout
from ..core.errors import LayoutError, shown
from ..core.shape import flat_index, int_tuple, shape_arg
from ..core.tile import TileLayout
from ..interop import require
from ..presets import registry
from ..render.svg import notebook_svg
from ..syntax import format_layout, parse
from .answers import answer
from .catalog import param_text

#: height of the widget's frame in pixels (the page lays its views out to fit it)
HEIGHT = 640
#: the MIME type of a widget view in a notebook output
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


class WidgetError(LayoutError):
    """A widget that cannot be made from what was given (one line, what was expected)."""


@functools.cache
def _assets() -> dict[str, str]:
    """The page's files (modules, style sheet, index.html) and the widget's own module."""
    root = resources.files(__package__) / "static"
    files = {e.name: e.read_text(encoding="utf-8") for e in root.iterdir()
             if e.is_file() and e.name.endswith((".js", ".css", ".html"))}
    files["notebook/widget.js"] = (root / "notebook" / "widget.js").read_text(encoding="utf-8")
    files["notebook/widget.css"] = (root / "notebook" / "widget.css").read_text(encoding="utf-8")
    return files


@functools.cache
def _widget_class() -> type:
    anywidget = require("anywidget", "widget")
    traitlets = require("traitlets", "widget")

    class ExplorerWidget(anywidget.AnyWidget):  # type: ignore[misc, name-defined]
        """The explorer page in a notebook output (see :func:`widget`)."""

        _esm = _assets()["notebook/widget.js"]
        _css = _assets()["notebook/widget.css"]
        files = traitlets.Dict().tag(sync=True)
        query = traitlets.Unicode().tag(sync=True)
        height = traitlets.Int(HEIGHT).tag(sync=True)

        def __init__(self, query: str, height: int, fallback: str | None) -> None:
            page = {k: v for k, v in _assets().items() if not k.startswith("notebook/")}
            super().__init__(files=page, query=query, height=height)
            self._fallback = fallback
            self.on_msg(lambda _w, content, _buffers: self.send(self.answer_request(content)))

        def answer_request(self, content: Mapping[str, Any]) -> dict[str, Any]:
            """The answer to one request of the page (``{id, method, path, body, soft}``)."""
            return widget_answer(content)

        def _repr_mimebundle_(self, **kwargs: Any) -> Any:
            bundle = super()._repr_mimebundle_(**kwargs)
            data = bundle[0] if isinstance(bundle, tuple) else bundle
            if self._fallback is not None and isinstance(data, dict):
                data["image/svg+xml"] = self._fallback  # shown where widgets are not
            return bundle

    return ExplorerWidget


def widget_answer(content: Any) -> dict[str, Any]:
    """The widget's answer to one request of its page (``{id, method, path, body, soft}``):
    :func:`~tilelayout.explorer.answers.answer`, whose native conversions run in a child
    process; a message that is not such a mapping is a 400 answer, never an exception.

    >>> widget_answer({"id": 1, "method": "POST", "path": "/api/explain",
    ...                "body": {"layout": "S[4:2]", "index": [3]}})["data"]["coords"]
    [{'m': 6}]
    >>> widget_answer([1, 2])["status"]
    400
    """
    if not isinstance(content, Mapping):
        return {"tilelayout": "answer", "id": None, "status": 400,
                "data": {"error": "a widget request is an object {id, method, path, body}",
                         "status": 400}}
    ident = content.get("id")
    if not isinstance(ident, int | str | None) or isinstance(ident, bool):
        ident = None
    method, path = content.get("method", "GET"), content.get("path", "")
    if not isinstance(method, str) or not isinstance(path, str):
        status, data = 400, {"error": "a widget request's method and path are text", "status": 400}
    else:
        status, data = answer(method[:16], path[:2000], content.get("body"))
    if content.get("soft") is True and 400 <= status < 500:
        status = 200  # as the server answers the page's ?soft=1 requests
    return {"tilelayout": "answer", "id": ident, "status": status, "data": data}


def _coordinate(select: Any, shape: Sequence[int]) -> str:
    """``select`` (ints, or text like ``"3,5"``) checked inside ``shape``, as the page's text."""
    if isinstance(select, str):
        select = int_tuple(select, "select")
    if isinstance(select, int) and not isinstance(select, bool):
        select = (select,)
    if not isinstance(select, Sequence) or not select or any(
            isinstance(i, bool) or not isinstance(i, int) for i in select):
        raise WidgetError(f"select must be the coordinates of one element, e.g. (3, 5), got "
                          f"{shown(select)}")
    try:
        flat_index(tuple(select), tuple(shape))
    except LayoutError as exc:
        raise WidgetError(f"select {shown(tuple(select))}: {exc}") from None
    return ",".join(str(i) for i in select)


def _layout_query(layout: TileLayout | ComposeLayout, shape: Sequence[int] | None,
                  params: Mapping[str, Any]) -> list[tuple[str, str]]:
    unknown = sorted(set(params) - {"dtype", "swizzle"})
    if unknown:
        raise WidgetError(f"a layout's widget takes dtype= and swizzle=, got {', '.join(unknown)}=")
    query = [("layout", format_layout(layout))]
    if shape is not None:
        query.append(("shape", ",".join(str(n) for n in layout.check_shape(shape))))
    query += [(k, str(params[k])) for k in ("dtype", "swizzle") if params.get(k) is not None]
    return query


def _preset_query(name: str, shape: Sequence[int] | None,
                  params: Mapping[str, Any]) -> tuple[list[tuple[str, str]], Any]:
    """The page's query for preset ``name`` and the preset it builds."""
    given = dict(params)
    if shape is not None:
        given["shape"] = tuple(shape)
    built = registry.get(name, **given)  # refuses unknown or bad parameters, one line
    query = [("preset", name)]
    for prm in registry.info(name).params:
        query.append((f"p.{prm.name}", param_text(prm.kind, built.params[prm.name])))
    return query, built


def widget(layout_or_preset: TileLayout | ComposeLayout | str, shape: Sequence[int] | None = None,
           *, color: str | None = None, select: Sequence[int] | None = None, height: int = HEIGHT,
           **params: Any) -> Any:
    """The explorer's view of a layout or a registry preset, as a notebook widget.

    ``layout_or_preset`` is a layout, its text, or a preset name (``params`` are then the
    preset's parameters; for a layout they may be ``dtype`` and ``swizzle``). ``color``
    picks what colours the cells (an axis name, as the page's "colour by"), ``select`` an
    element to select, ``height`` the frame's pixels. Needs anywidget (extra ``widget``).

    >>> widget("S[(8,4):(4@laneid,1@laneid)]", color="laneid").query
    'layout=S%5B%288%2C4%29%3A%284%40laneid%2C1%40laneid%29%5D&color=laneid'
    """
    if not isinstance(height, int) or isinstance(height, bool) or not 200 <= height <= 4000:
        raise WidgetError(f"height must be an int of pixels in 200..4000, got {shown(height)}")
    if color is not None and not isinstance(color, str):
        raise WidgetError(f"color must be an axis name (text), got {shown(color)}")
    shape = shape_arg(shape)
    if isinstance(layout_or_preset, str) and layout_or_preset in registry.names():
        query, built = _preset_query(layout_or_preset, shape, params)
        layout, fallback = built.layout, notebook_svg(built.layout) if shape is None else None
        tile_shape = tuple(built.shape)
    elif isinstance(layout_or_preset, str | TileLayout | ComposeLayout):
        layout = parse(layout_or_preset) if isinstance(layout_or_preset, str) else layout_or_preset
        query = _layout_query(layout, shape, params)
        fallback = notebook_svg(layout) if shape is None else None
        tile_shape = layout.check_shape(shape)
    else:
        raise WidgetError("tl.widget expects a layout, layout text or a preset name, "
                          f"got {type(layout_or_preset).__name__}")
    if color is not None:
        query.append(("color", color[:200]))
    if select is not None:
        query.append(("select", _coordinate(select, tile_shape)))
    return _widget_class()(urlencode(query), height, fallback)


def _in_kernel() -> bool:
    """Whether this process is a Jupyter kernel (a notebook can show widgets from it)."""
    shell = sys.modules.get("IPython")
    ipython = getattr(shell, "get_ipython", lambda: None)() if shell else None
    return "ipykernel" in sys.modules and getattr(ipython, "kernel", None) is not None


def layout_mimebundle(layout: TileLayout | ComposeLayout, include: Any = None,
                      exclude: Any = None) -> Any:
    """What a layout shows as in a notebook (``L._repr_mimebundle_``): the explorer widget
    when this is a Jupyter kernel and anywidget is installed, else ``None`` (the notebook
    then shows the static picture, ``L._repr_svg_()``).

    >>> import tilelayout as tl
    >>> layout_mimebundle(tl.parse("S[4:1]")) is None   # not a kernel: the SVG is shown
    True
    """
    if include is not None and WIDGET_MIME not in include:
        return None
    if not _in_kernel() or importlib.util.find_spec("anywidget") is None:
        return None
    try:
        view = widget(layout)
    except LayoutError:
        return None
    return view._repr_mimebundle_(include=include, exclude=exclude)
