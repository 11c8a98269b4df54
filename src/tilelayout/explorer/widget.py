"""``tl.widget(...)``: the explorer inside a Jupyter (or VS Code) notebook, run by the kernel.

The widget is the explorer's own page (its drawing modules unchanged: logical and physical
views, click-to-highlight owners, colour by, the four steps, the line x bank view, ...) in
an iframe of the notebook; its API requests travel over the widget's comm to this kernel,
which answers them with :func:`tilelayout.explorer.answers.answer` — the server's view
functions, limits and messages, without a server or a network. Built on anywidget (extra
``widget``); where widgets cannot be shown (a static render of the notebook), its display
falls back to the static SVG picture.

Outside a notebook (a script, a plain REPL) there is nowhere to show the widget:
``widget`` says so (a :class:`NotebookWarning` naming where it can be shown) and returns
the :class:`StaticView`, the same view as a static SVG picture, instead.

>>> w = explorer_widget("mma.m16n8k16.C", color="laneid", select=(3, 5))
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
import warnings
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any
from urllib.parse import urlencode

from ..core.compose import ComposeLayout
from ..core.errors import LayoutError, shown
from ..core.shape import flat_index, int_tuple, shape_arg
from ..core.swizzle import Swizzle
from ..core.tile import TileLayout
from ..interop import require
from ..presets import registry
from ..render.svg import layout_svg, notebook_svg
from ..syntax import format_layout, parse
from .answers import answer
from .catalog import param_text

#: height of the widget's frame in pixels (the page lays its views out to fit it)
HEIGHT = 640
#: the MIME type of a widget view in a notebook output
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


class WidgetError(LayoutError):
    """A widget that cannot be made from what was given (one line, what was expected)."""


class NotebookWarning(UserWarning):
    """``tl.widget`` was called where no notebook can show the explorer widget."""


#: where the widget can be shown, and what to do elsewhere
WHERE = ("the explorer widget shows in a Jupyter or VS Code notebook whose kernel has anywidget "
         "(pip install 'tilelayout[widget]'); elsewhere `tilelayout serve` opens the explorer "
         "in a browser")


class StaticView:
    """What :func:`widget` returns outside a notebook: the view as a static picture.

    ``svg`` is the picture (``None`` when the layout is too large to draw), ``query`` the
    explorer's URL query that opens the same view (``tilelayout serve``, then
    ``/?<query>``); a notebook or IPython shows the picture (``_repr_svg_``).
    """

    def __init__(self, svg: str | None, query: str, what: str) -> None:
        self.svg, self.query, self._what = svg, query, what

    def _repr_svg_(self) -> str | None:
        return self.svg

    def __repr__(self) -> str:
        pic = ".svg is its picture" if self.svg else "too large for a static picture"
        return (f"<tl.widget outside a notebook: the static view of {self._what[:80]}; {pic}; "
                f"`tilelayout serve` and /?{self.query[:60]}{'...' if len(self.query) > 60 else ''} "
                f"open it in the explorer>")


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
    anywidget = require("anywidget", "widget", "the explorer widget")
    traitlets = require("traitlets", "widget", "the explorer widget")

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


def _view(layout_or_preset: Any, shape: Sequence[int] | None, color: str | None,
          select: Sequence[int] | None, height: int, params: Mapping[str, Any]) -> tuple:
    """The page's query, the notebook's fallback picture, and what a static picture draws:
    ``(query, fallback, (layout, shape, dtype), name)``; every argument checked first."""
    if not isinstance(height, int) or isinstance(height, bool) or not 200 <= height <= 4000:
        raise WidgetError(f"height must be an int of pixels in 200..4000, got {shown(height)}")
    if color is not None and not isinstance(color, str):
        raise WidgetError(f"color must be an axis name (text), got {shown(color)}")
    shape = shape_arg(shape)
    if isinstance(layout_or_preset, str) and layout_or_preset in registry.names():
        query, built = _preset_query(layout_or_preset, shape, params)
        fallback = notebook_svg(built.layout) if shape is None else None
        drawn = (built.layout, built.shape, built.dtype)
        name = layout_or_preset
        tile_shape = tuple(built.shape)
    elif isinstance(layout_or_preset, str | TileLayout | ComposeLayout):
        layout = parse(layout_or_preset) if isinstance(layout_or_preset, str) else layout_or_preset
        query = _layout_query(layout, shape, params)
        fallback = notebook_svg(layout) if shape is None else None
        dtype, mode = params.get("dtype"), params.get("swizzle")
        if dtype and mode and mode != "none" and isinstance(layout, TileLayout):
            layout = ComposeLayout(Swizzle.for_dtype(str(dtype), str(mode)), layout)
        drawn = (layout, shape, dtype)
        name = format_layout(layout)
        tile_shape = layout.check_shape(shape)
    else:
        raise WidgetError("tl.widget expects a layout, layout text or a preset name, "
                          f"got {type(layout_or_preset).__name__}")
    if color is not None:
        query.append(("color", color[:200]))
    if select is not None:
        query.append(("select", _coordinate(select, tile_shape)))
    return urlencode(query), fallback, drawn, name


def explorer_widget(layout_or_preset: TileLayout | ComposeLayout | str,
                    shape: Sequence[int] | None = None, *, color: str | None = None,
                    select: Sequence[int] | None = None, height: int = HEIGHT,
                    **params: Any) -> Any:
    """The explorer widget itself, wherever this runs (:func:`widget` without the check for
    a notebook; a notebook shows it, a plain process only holds it). Needs anywidget.

    >>> explorer_widget("S[(8,4):(4@laneid,1@laneid)]", color="laneid").query
    'layout=S%5B%288%2C4%29%3A%284%40laneid%2C1%40laneid%29%5D&color=laneid'
    """
    query, fallback, _, _ = _view(layout_or_preset, shape, color, select, height, params)
    return _widget_class()(query, height, fallback)


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside this package (``tl.widget`` is a
    wrapper): the warning names the caller's line."""
    root = str(resources.files("tilelayout"))
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(root):
        frame, level = frame.f_back, level + 1
    return level


def _static(drawn: tuple, color: str | None, select: Sequence[int] | None) -> str | None:
    layout, shape, dtype = drawn
    if isinstance(select, str):  # checked already (_coordinate)
        select = int_tuple(select, "select")
    elif isinstance(select, int):
        select = (select,)
    try:
        dims = layout.check_shape(shape)
        flat = None
        if select is not None and len(select) == len(dims):
            flat = 0
            for i, n in zip(select, dims, strict=True):
                flat = flat * n + int(i)
        return layout_svg(layout, dims, dtype=dtype, color=color, selected=flat)
    except LayoutError:
        return None


def widget(layout_or_preset: TileLayout | ComposeLayout | str, shape: Sequence[int] | None = None,
           *, color: str | None = None, select: Sequence[int] | None = None, height: int = HEIGHT,
           **params: Any) -> Any:
    """The explorer's view of a layout or a registry preset, as a notebook widget.

    ``layout_or_preset`` is a layout, its text, or a preset name (``params`` are then the
    preset's parameters; for a layout they may be ``dtype`` and ``swizzle``). ``color``
    picks what colours the cells (an axis name, as the page's "colour by"), ``select`` an
    element to select, ``height`` the frame's pixels. Needs anywidget (extra ``widget``)
    and a notebook to show it in: elsewhere (a script, a plain REPL, or without anywidget)
    a :class:`NotebookWarning` says where it can be shown and the :class:`StaticView`
    (the same view as an SVG picture) is returned.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as said:
    ...     warnings.simplefilter("always")
    ...     view = widget("S[(8,4):(4@laneid,1@laneid)]", color="laneid")
    >>> type(view).__name__, view.svg.startswith("<svg"), "notebook" in str(said[0].message)
    ('StaticView', True, True)
    >>> view.query
    'layout=S%5B%288%2C4%29%3A%284%40laneid%2C1%40laneid%29%5D&color=laneid'
    """
    query, fallback, drawn, name = _view(layout_or_preset, shape, color, select, height, params)
    kernel = _in_kernel()
    if kernel and importlib.util.find_spec("anywidget") is not None:
        return _widget_class()(query, height, fallback)
    why = "this notebook's kernel has no anywidget" if kernel else "this is not a notebook"
    warnings.warn(f"tl.widget: {why}, so there is no widget to show here; {WHERE}. "
                  f"Returned instead: the static SVG view (its .svg).", NotebookWarning,
                  stacklevel=_caller_level())
    return StaticView(_static(drawn, color, select), query, name)


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
        view = explorer_widget(layout)
    except LayoutError:
        return None
    return view._repr_mimebundle_(include=include, exclude=exclude)
