"""The explorer's HTTP server: static page assets plus the JSON API, Python stdlib only.

Routes::

    GET  /                  the page (static/index.html)
    GET  /static/<file>     page assets (JS, CSS)
    GET  /api/presets       teaching examples + the preset registry
    GET  /api/palette       the shared colour palette
    GET  /api/options       dtypes, swizzle modes, size caps
    POST /api/layout        layout text, shape, dtype, swizzle -> everything the page draws
    POST /api/explain       ... + index -> the four steps for one element
    POST /api/elements_at   ... + coords -> the logical elements held there
    POST /api/access        ... + elements -> shared-memory banks and conflict ways
    POST /api/preset        name + params -> a registry preset built with those parameters
    POST /api/analysis      layout ... -> legality findings (with their elements), bank conflicts
    POST /api/convert       layout ... (+ mesh, targets) -> CuTe / CuTe TV / JAX / Triton / TVM
                            text for each target, or the converter's refusal reason
    POST /api/table         layout ... -> the table form (layout.table()), the views' text

A POST with ``?soft=1`` answers a refused request (4xx) with status 200 and the same JSON
body plus ``"status"`` (the page validates as the user types without console noise);
internal errors stay 500.

Every error is JSON ``{"error": ..., "field": ..., "column": ...}`` with a 4xx status;
unexpected failures are logged to stderr and answered with a generic 500, never a
traceback. Binds to 127.0.0.1 unless told otherwise.

>>> server = make_server("127.0.0.1", 0)
>>> server.server_address[0]
'127.0.0.1'
>>> server.server_close()
"""

from __future__ import annotations

import contextlib
import json
import mimetypes
import sys
import threading
import traceback
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from . import api
from .messages import for_page
from .table_view import table_view

_GET: dict[str, Callable[[], dict[str, Any]]] = {
    "/api/presets": api.presets,
    "/api/palette": api.palette,
    "/api/options": api.options,
}
_POST: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "/api/layout": api.layout_view,
    "/api/explain": api.explain_view,
    "/api/elements_at": api.elements_at_view,
    "/api/access": api.access_view,
    "/api/preset": api.preset_view,
    "/api/analysis": api.analysis_view,
    "/api/convert": api.convert_view,
    "/api/table": table_view,
}
_STATIC_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html",
                 ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon"}


def _static_files() -> dict[str, bytes]:
    """Every file of the page, read once (the set of servable paths is fixed)."""
    root = resources.files(__package__) / "static"
    out = {}
    for entry in root.iterdir():
        if entry.is_file() and not entry.name.startswith("."):
            out[entry.name] = entry.read_bytes()
    return out


class ExplorerHandler(BaseHTTPRequestHandler):
    """Routes one request; see the module docstring for the routes."""

    server_version = "tilelayout-explorer"
    protocol_version = "HTTP/1.1"
    static: dict[str, bytes] = {}
    quiet = False

    # -- responses ------------------------------------------------------------------
    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: dict[str, Any]) -> None:
        body = json.dumps(data, separators=(",", ":")).encode()
        self._send(status, body, "application/json")

    def _error(self, status: int, message: str, **extra: Any) -> None:
        self._json(status, {"error": message, **extra})

    @staticmethod
    def _page_error(exc: api.ApiError) -> dict[str, Any]:
        """The JSON body of a refused request, its message in the page's words."""
        body = exc.to_dict()
        body["error"] = for_page(body["error"])
        return body

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib name)
        if not self.quiet:
            sys.stderr.write(f"[explorer] {self.address_string()} {format % args}\n")

    # -- routing --------------------------------------------------------------------
    def _guard(self, fn: Callable[[], None]) -> None:
        try:
            fn()
        except api.ApiError as exc:
            self._json(exc.status, self._page_error(exc))
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception:  # never a traceback to the client; log it for the operator
            sys.stderr.write(f"[explorer] internal error on {self.command} {self.path}\n")
            traceback.print_exc(file=sys.stderr)
            with contextlib.suppress(OSError):
                self._error(500, "internal error (logged by the server)")

    def do_GET(self) -> None:  # noqa: N802 (stdlib name)
        self._guard(self._get)

    def do_HEAD(self) -> None:  # noqa: N802
        self._guard(self._get)

    def do_POST(self) -> None:  # noqa: N802
        self._guard(self._post)

    def _method_not_allowed(self) -> None:
        self.close_connection = True
        self._error(405, f"method {self.command} is not allowed here")

    do_PUT = do_DELETE = do_PATCH = _method_not_allowed  # noqa: N815

    def _get(self) -> None:
        path = urlsplit(self.path).path
        if path in _GET:
            self._json(200, _GET[path]())
        elif path in ("/", "/index.html"):
            self._static("index.html")
        elif path.startswith("/static/"):
            self._static(path[len("/static/"):])
        elif path in _POST:
            self._error(405, f"{path} expects POST with a JSON body")
        elif path == "/favicon.ico":
            self._send(204, b"", "image/x-icon")
        else:
            self._error(404, f"no such page or API route: {path[:200]}")

    def _static(self, name: str) -> None:
        body = self.static.get(name)
        if body is None:  # only the files that exist in static/ are served: no traversal
            self._error(404, f"no such file: {name[:200]}")
            return
        ext = name[name.rfind("."):]
        ctype = _STATIC_TYPES.get(ext) or mimetypes.guess_type(name)[0] or "application/octet-stream"
        if ctype.startswith("text/"):
            ctype += "; charset=utf-8"
        self._send(200, body, ctype)

    def _post(self) -> None:
        path = urlsplit(self.path).path
        handler = _POST.get(path)
        if handler is None:
            self.close_connection = True
            if path in _GET:
                self._error(405, f"{path} expects GET")
            else:
                self._error(404, f"no such API route: {path[:200]}")
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self.close_connection = True
            self._error(411, "a JSON body with a Content-Length header is required")
            return
        if length < 0 or length > api.MAX_BODY:
            self.close_connection = True  # do not read an oversized body
            self._error(413, f"request body of {length} bytes; at most {api.MAX_BODY}")
            return
        raw = self.rfile.read(length)
        try:
            data = json.loads(raw.decode("utf-8")) if raw else None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            self._error(400, f"the body is not valid JSON: {exc}"[:300])
            return
        if not isinstance(data, dict):
            self._error(400, "the body must be a JSON object")
            return
        try:
            self._json(200, handler(data))
        except api.ApiError as exc:
            if "soft=1" not in urlsplit(self.path).query.split("&"):
                raise
            self._json(200, {**self._page_error(exc), "status": exc.status})


def make_server(host: str = "127.0.0.1", port: int = 8000, *, quiet: bool = False
                ) -> ThreadingHTTPServer:
    """A ready (not yet serving) explorer server bound to ``host:port`` (port 0: any free).

    Call ``serve_forever()`` on it (or :func:`serve_in_thread`).
    """
    handler = type("Handler", (ExplorerHandler,), {"static": _static_files(), "quiet": quiet})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(host: str = "127.0.0.1", port: int = 0, *, quiet: bool = True
                    ) -> tuple[ThreadingHTTPServer, str]:
    """Start a server on a background thread; returns it and its base URL.

    Stop it with ``server.shutdown(); server.server_close()``.

    >>> server, url = serve_in_thread()
    >>> url.startswith("http://127.0.0.1:")
    True
    >>> server.shutdown(); server.server_close()
    """
    server = make_server(host, port, quiet=quiet)
    thread = threading.Thread(target=server.serve_forever, name="tilelayout-explorer",
                              daemon=True)
    thread.start()
    h, p = server.server_address[:2]
    return server, f"http://{h}:{p}"


def url_of(server: ThreadingHTTPServer) -> str:
    """The base URL a browser should open for ``server``."""
    h, p = server.server_address[:2]
    shown = "127.0.0.1" if h in ("0.0.0.0", "") else (f"[{h}]" if ":" in str(h) else h)
    return f"http://{shown}:{p}/"


if __name__ == "__main__":  # pragma: no cover - `tilelayout serve` is the entry point
    srv = make_server()
    print(url_of(srv))
    srv.serve_forever()
