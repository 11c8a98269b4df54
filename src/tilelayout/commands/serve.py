"""``tilelayout serve [--host 127.0.0.1] [--port 8000] [--open]``: the interactive explorer."""

from __future__ import annotations

import argparse
import sys
import webbrowser

from ..core.errors import LayoutError
from .common import bounded_int, limits_from_args


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve", help="start the interactive web explorer",
        description="Serve the layout explorer (a local web page) until Ctrl-C. "
                    "Binds to loopback unless --host says otherwise.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 = any free)")
    p.add_argument("--open", action="store_true", help="open the page in a web browser")
    p.add_argument("--quiet", action="store_true", help="do not log requests to stderr")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="also answer requests whose Host is NAME (repeatable; loopback names "
                   "and the bound address are always allowed)")
    p.add_argument("--workers", type=bounded_int(1, 1024, "--workers"), default=None,
                   help="worker threads serving connections (default 32)")
    p.set_defaults(run=run)
    p.epilog = ("The --max-* limits apply to each request the explorer serves (defaults in "
                "docs/limits.md).")


def run(args: argparse.Namespace) -> int:
    from ..explorer.server import REQUEST_LIMITS, WORKERS, make_server, tune_process, url_of

    if not 0 <= args.port <= 65535:
        raise LayoutError(f"--port must be in 0..65535, got {args.port}")
    try:
        server = make_server(args.host, args.port, quiet=args.quiet,
                             limits=limits_from_args(args, REQUEST_LIMITS),
                             allow_hosts=args.allow_host, workers=args.workers or WORKERS)
    except OSError as exc:
        raise LayoutError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") \
            from None
    tune_process()
    url = url_of(server)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: serving on {args.host}, reachable from other machines", file=sys.stderr)
    print(f"tilelayout explorer at {url}  (Ctrl-C to stop)", flush=True)
    if args.open:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.server_close()
    return 0
