"""The explorer's HTTP server: static page assets plus the JSON API, Python stdlib only.

Routes: :mod:`.views` (one module per endpoint, its route table ``views.GET`` /
``views.POST``); the answers without HTTP and the answer cache: :mod:`.answers`.

A POST with ``?soft=1`` answers a refused request (4xx) with status 200 and the same JSON
body plus ``"status"`` (the page validates as the user types without console noise);
internal errors and exhausted budgets (5xx) keep their status. Refusal messages are put in
the page's words (:mod:`.messages`).

Every answer is JSON (``{"error": ..., "field": ..., "column": ...}`` with a 4xx/5xx
status for errors, including the ones the HTTP layer itself produces: 404, 405 (also
for unknown methods), 411, 413, 414, 415, 431, 505); unexpected failures are logged to stderr and answered
with a generic 500, never a traceback. Binds to 127.0.0.1 unless told otherwise.

Hardening (see ``docs/limits.md``): requests must name this server in ``Host``
(:mod:`.admission`), POSTs must be same-origin ``application/json``; each request
runs under the server's :class:`~tilelayout.Limits` (work over them is refused before
it starts; the ``seconds`` budget stops long loops), and the axes its layout text may
name come from its own body (``request.request_axes``: no global axis state); every
connection has a thread and a read deadline, open connections a limit that drops the
oldest idle one (:mod:`.connections`), requests are computed a bounded number at a time
(listen backlog :data:`BACKLOG`, ``TCP_NODELAY``), and answers are JSON encoded in short
slices (:mod:`.encoding`).

>>> server = make_server("127.0.0.1", 0)
>>> server.server_address[0]
'127.0.0.1'
>>> server.server_close()
"""

from __future__ import annotations

import contextlib
import io
import mimetypes
import socket
import sys
import threading
import traceback
from collections.abc import Callable, Iterable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from types import MappingProxyType
from typing import Any
from urllib.parse import urlsplit

from ..core import budget
from ..core.errors import BudgetError, LayoutError
from . import admission, views
from .answers import AnswerCache, budget_status, page_error, status_of
from .connections import CONNECTION_LIMIT, Connections, DeadlineReader
from .encoding import dumps
from .request import MAX_BODY, REQUEST_LIMITS, ApiError

#: the route table (:mod:`.views`): path -> view
_GET = views.GET
_POST = views.POST
_STATIC_TYPES = MappingProxyType({".js": "text/javascript", ".css": "text/css", ".html": "text/html",
                                  ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon"})


def _static_files() -> dict[str, bytes]:
    """Every file of the page, read once (the set of servable paths is fixed)."""
    root = resources.files(__package__) / "static"
    out = {}
    for entry in root.iterdir():
        if entry.is_file() and not entry.name.startswith("."):
            out[entry.name] = entry.read_bytes()
    return out


#: listen backlog: connections the kernel queues before the server accepts them
BACKLOG = 128
#: requests computed at once (each connection has its own thread, which waits for one of
#: these slots once its request has arrived; an idle connection holds none)
WORKERS = 32
#: seconds a request that has arrived may wait for a worker slot before it gets a 503
WORK_WAIT = 30.0
#: routes whose answers evaluate a whole layout (every element): at most HEAVY_SLOTS run
#: at once, so that while they run (holding the interpreter most of the time) the clicks'
#: small requests (explain, elements_at, ...) still get it every switch interval
HEAVY = frozenset({"/api/layout", "/api/analysis", "/api/table", "/api/convert",
                   "/api/smem", "/api/plan", "/api/access"})
HEAVY_SLOTS = 4
#: seconds a whole-layout request may wait for a slot before it gets a 503
HEAVY_WAIT = 30.0
#: bytes of recent answers kept (an answer is a pure function of route and body)
ANSWER_CACHE_BYTES = 64 << 20
#: seconds a connection may sit idle before its next request starts, and seconds a started
#: request may take to arrive whole (the per-connection read deadline, .connections)
READ_TIMEOUT = 10.0
#: seconds writing one answer may take (a client that stops reading is dropped)
WRITE_TIMEOUT = 30.0
#: the interpreter's thread switch interval in a serving process (Python's default: 5 ms)
SWITCH_INTERVAL = 0.0005


def tune_process() -> None:
    """Settings for a process whose job is serving the explorer (``tilelayout serve``).

    A short thread switch interval: while one worker computes a big layout (CPU-bound,
    holding the GIL), the small requests' threads get the interpreter back within half a
    millisecond instead of five, which is what keeps their tail latency low.
    """
    sys.setswitchinterval(SWITCH_INTERVAL)


class ExplorerHandler(BaseHTTPRequestHandler):
    """Routes one request; see the module docstring for the routes."""

    server_version = "tilelayout-explorer"
    protocol_version = "HTTP/1.1"
    static: dict[str, bytes] = {}
    quiet = False
    timeout = READ_TIMEOUT  # socket timeout: idle keep-alive and slow requests are closed
    server: ExplorerServer

    # -- the connection ----------------------------------------------------------------
    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # reads go through the connection's deadline instead
        self.rfile = io.BufferedReader(DeadlineReader(self.connection, self.server.connections))

    def handle_one_request(self) -> None:
        """One request: wait for it under the idle deadline, read it under the request
        deadline, answer it in one of the server's worker slots."""
        conns, sock = self.server.connections, self.connection
        conns.waiting(sock)
        try:
            line = self.rfile.readline(65537)
        except (TimeoutError, OSError):
            line = b""  # past the idle deadline, or the client went: closed
        conns.started(sock)  # also when the line was already buffered (pipelining)
        self.raw_requestline = line
        if not line:
            self.close_connection = True
            return
        if len(line) > 65536:
            self.requestline, self.request_version, self.command = "", "", ""
            self.send_error(414, "the request line is over 64 KiB")
            return
        if not self.parse_request():
            return
        method = getattr(self, f"do_{self.command}", None)
        if method is None:
            self.send_error(501, f"method {self.command!r} is not allowed")
            return
        if not self.server.working.acquire(timeout=WORK_WAIT):
            self.close_connection = True
            self._error(503, "the explorer is busy; try again")
            return
        try:
            method()
            self.wfile.flush()
        finally:
            self.server.working.release()

    # -- responses ------------------------------------------------------------------
    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.connection.settimeout(WRITE_TIMEOUT)  # reads left it at their deadline
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.close_connection:
            self.send_header("Connection", "close")
        # headers and body leave in one write (one segment train, no write-write-read stall)
        self._headers_buffer.append(b"\r\n")
        if self.command != "HEAD":
            self._headers_buffer.append(body)
        self.flush_headers()

    def _json(self, status: int, data: dict[str, Any]) -> None:
        self._send(status, dumps(data).encode(), "application/json")

    def _error(self, status: int, message: str, **extra: Any) -> None:
        self._json(status, {"error": message, **extra})

    def send_error(self, code: int, message: str | None = None, explain: str | None = None
                   ) -> None:
        """Errors of the HTTP layer (bad request line, 414, 431, 505, ...) as JSON too.

        An unknown method is the client's error: 405 (not the stdlib's 501)."""
        if code == 501:
            code, message = 405, f"method {str(getattr(self, 'command', ''))[:20]!r} is not allowed"
        with contextlib.suppress(OSError):
            try:
                short = HTTPStatus(code).phrase
            except ValueError:
                short = "error"
            self.close_connection = True
            if getattr(self, "request_version", "") in ("", "HTTP/0.9"):
                self.request_version = "HTTP/1.0"  # a status line is always sent
            if not hasattr(self, "command") or self.command is None:
                self.command = ""
            self.log_error("code %d, message %s", code, message)
            self._error(code, f"{short}: {message or explain or short}"[:300])

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib name)
        if not self.quiet:
            sys.stderr.write(f"[explorer] {self.address_string()} {format % args}\n"[:2000])

    # -- admission ------------------------------------------------------------------
    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        if self.request_version == "HTTP/0.9":
            self.send_error(400, "HTTP/0.9 requests are not served")
            return False
        return True

    def _admit(self, *, post: bool) -> bool:
        """Host allow-list always; same Origin and JSON content type for POST."""
        host = self.headers.get("Host")
        refusal = None
        if not admission.host_allowed(host, self.server.allowed_hosts):
            refusal = (421 if host else 400,
                       f"this explorer does not answer to Host {str(host)[:80]!r}; start it "
                       f"with --allow-host NAME to allow another name")
        elif post or self.headers.get("Origin"):
            if not admission.origin_allowed(self.headers.get("Origin"), host,
                                            self.server.allowed_hosts):
                refusal = (403, "cross-origin requests are refused")
            elif self.headers.get("Sec-Fetch-Site", "same-origin") not in (
                    "same-origin", "none"):
                refusal = (403, "cross-site requests are refused")
        if refusal is None and post:
            try:
                admission.check_content_type(self.headers.get("Content-Type"))
            except admission.Refused as exc:
                refusal = (exc.status, exc.message)
        if refusal is not None:
            self.close_connection = True  # the body (if any) is not read
            self._error(*refusal)
            return False
        return True

    # -- routing --------------------------------------------------------------------
    def _guard(self, fn: Callable[[], None]) -> None:
        try:
            # the seconds budget starts when the work does (see _post), not while waiting
            with budget.limits(self.server.limits, seconds=None):
                fn()
        except ApiError as exc:
            self._json(status_of(exc), page_error(exc))
        except admission.Refused as exc:
            self._error(exc.status, exc.message)
        except BudgetError as exc:
            self._error(budget_status(exc), str(exc))
        except LayoutError as exc:  # an endpoint that let the library's refusal through
            self._error(400, str(exc)[:2000])
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except TimeoutError:
            self.close_connection = True
            with contextlib.suppress(OSError):
                self._error(408, "the request was not received in time")
        except Exception:  # never a traceback to the client; log it for the operator
            sys.stderr.write(f"[explorer] internal error on {self.command} {self.path[:200]}\n")
            traceback.print_exc(file=sys.stderr)
            with contextlib.suppress(OSError):
                self._error(500, "internal error (logged by the server)")

    def do_GET(self) -> None:  # noqa: N802 (stdlib name)
        if self._admit(post=False):
            self._guard(self._get)

    def do_HEAD(self) -> None:  # noqa: N802
        if self._admit(post=False):
            self._guard(self._get)

    def do_POST(self) -> None:  # noqa: N802
        if self._admit(post=True):
            self._guard(self._post)

    def do_OPTIONS(self) -> None:  # noqa: N802
        """CORS pre-flights are refused (no cross-origin use); same-origin gets Allow."""
        self.close_connection = True
        if self._admit(post=False) and self.headers.get("Origin") is None:
            self._error(405, "OPTIONS is not served; the API takes GET and POST",
                        allow="GET, HEAD, POST")

    def _method_not_allowed(self) -> None:
        self.close_connection = True
        self._error(405, f"method {self.command} is not allowed here")

    do_PUT = do_DELETE = do_PATCH = do_TRACE = do_CONNECT = _method_not_allowed  # noqa: N815

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
        if length < 0 or length > MAX_BODY:
            self.close_connection = True  # do not read an oversized body
            self._error(413, f"request body of {length} bytes; at most {MAX_BODY}")
            return
        raw = self.rfile.read(length)
        if len(raw) < length:
            self.close_connection = True
            self._error(400, "the body ended before Content-Length bytes")
            return
        key = (path, raw)
        cached = self.server.answers.get(key)
        if cached is not None:
            self._send(200, cached, "application/json")
            return
        req = admission.decode_json(raw)
        # few whole-layout requests at a time: the small requests keep their latency
        heavy = path in HEAVY
        if heavy and not self.server.heavy.acquire(timeout=HEAVY_WAIT):
            self._error(503, "the explorer is busy with other layouts; try again")
            return
        try:
            with budget.limits(seconds=self.server.limits.seconds):
                body = dumps(handler(req)).encode()
        except ApiError as exc:
            status = status_of(exc)
            if status >= 500 or "soft=1" not in urlsplit(self.path).query.split("&"):
                raise
            # ?soft=1 (the page while the user types): a refusal answered 200, not cached
            body = dumps({**page_error(exc), "status": status}).encode()
            self._send(200, body, "application/json")
            return
        finally:
            if heavy:
                self.server.heavy.release()
        # an answer is a function of its route and body: axes a request declares come from
        # its own body (and exist only inside it), so the same body means the same answer
        self.server.answers.put(key, body)
        self._send(200, body, "application/json")


class ExplorerServer(HTTPServer):
    """An HTTP server whose connections each have a thread, a read deadline and a limit
    (:mod:`.connections`), and whose requests are computed ``workers`` at a time.

    A connection over the limit closes the oldest idle one; only when none is idle and
    twice the limit are open does a new connection get a JSON 503 at once. Each accepted
    socket has ``TCP_NODELAY`` set (a keep-alive answer is not held back by Nagle's
    algorithm).
    """

    request_queue_size = BACKLOG
    allow_reuse_address = True
    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type[ExplorerHandler], *,
                 limits: budget.Limits = REQUEST_LIMITS, allow_hosts: Iterable[str] = (),
                 workers: int = WORKERS, read_timeout: float = READ_TIMEOUT,
                 max_connections: int = CONNECTION_LIMIT) -> None:
        # what server_close needs exists before binding: a failed bind calls it from
        # HTTPServer.__init__, and the caller then sees the OSError itself
        self.connections = Connections(max_connections, read_timeout, read_timeout)
        super().__init__(address, handler)
        self.limits = limits
        self.allowed_hosts = admission.allowed_hosts(str(self.server_address[0]),
                                                     int(self.server_address[1]), allow_hosts)
        self.working = threading.BoundedSemaphore(workers)
        self.heavy = threading.BoundedSemaphore(HEAVY_SLOTS)
        self.answers = AnswerCache(ANSWER_CACHE_BYTES)

    def get_request(self) -> tuple[socket.socket, Any]:
        conn, addr = super().get_request()
        with contextlib.suppress(OSError):
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn, addr

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.connections.admit(request):
            self._busy(request)
            return
        thread = threading.Thread(target=self._work, args=(request, client_address),
                                  name="tilelayout-explorer-connection", daemon=True)
        try:
            thread.start()
        except RuntimeError:  # no thread to be had: the connection is refused
            self.connections.remove(request)
            self._busy(request)

    def _work(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except Exception:  # noqa: BLE001 (a broken connection must not kill the thread)
            self.handle_error(request, client_address)
        finally:
            self.connections.remove(request)
            self.shutdown_request(request)

    def _busy(self, request: socket.socket) -> None:
        body = b'{"error":"the explorer is busy; try again"}'
        with contextlib.suppress(OSError):
            request.settimeout(1.0)
            request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json"
                            b"\r\nConnection: close\r\nContent-Length: " + str(len(body)).encode()
                            + b"\r\n\r\n" + body)
        self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, OSError):  # resets, timeouts: the client's business
            return
        super().handle_error(request, client_address)

    def server_close(self) -> None:
        """Stop listening and wake every connection's thread (each read ends)."""
        super().server_close()
        self.connections.close_all()


def make_server(host: str = "127.0.0.1", port: int = 8000, *, quiet: bool = False,
                limits: budget.Limits = REQUEST_LIMITS, allow_hosts: Iterable[str] = (),
                workers: int = WORKERS, read_timeout: float = READ_TIMEOUT,
                max_connections: int = CONNECTION_LIMIT) -> ExplorerServer:
    """A ready (not yet serving) explorer server bound to ``host:port`` (port 0: any free).

    ``limits`` bound each request's work, ``allow_hosts`` adds names the ``Host`` header
    may use (beyond loopback and the bound address), ``workers`` is how many requests are
    computed at once, ``read_timeout`` the seconds a connection may stay idle and the
    seconds a started request may take to arrive, ``max_connections`` the open
    connections before the oldest idle one is dropped for a new one. Call
    ``serve_forever()`` on it (or :func:`serve_in_thread`).
    """
    handler = type("Handler", (ExplorerHandler,), {"static": _static_files(), "quiet": quiet,
                                                   "timeout": read_timeout})
    return ExplorerServer((host, port), handler, limits=limits, allow_hosts=allow_hosts,
                          workers=workers, read_timeout=read_timeout,
                          max_connections=max_connections)


def serve_in_thread(host: str = "127.0.0.1", port: int = 0, *, quiet: bool = True,
                    **options: Any) -> tuple[ExplorerServer, str]:
    """Start a server on a background thread; returns it and its base URL.

    Stop it with ``server.shutdown(); server.server_close()``.

    >>> server, url = serve_in_thread()
    >>> url.startswith("http://127.0.0.1:")
    True
    >>> server.shutdown(); server.server_close()
    """
    server = make_server(host, port, quiet=quiet, **options)
    thread = threading.Thread(target=server.serve_forever, name="tilelayout-explorer",
                              daemon=True)
    thread.start()
    h, p = server.server_address[:2]
    return server, f"http://{h}:{p}"


def url_of(server: HTTPServer) -> str:
    """The base URL a browser should open for ``server``."""
    h, p = server.server_address[:2]
    shown = "127.0.0.1" if h in ("0.0.0.0", "") else (f"[{h}]" if ":" in str(h) else h)
    return f"http://{shown}:{p}/"


if __name__ == "__main__":  # pragma: no cover - `tilelayout serve` is the entry point
    srv = make_server()
    print(url_of(srv))
    srv.serve_forever()
