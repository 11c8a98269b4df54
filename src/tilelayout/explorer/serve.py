"""``tilelayout serve [--host 127.0.0.1] [--port 8000] [--open]``: the interactive explorer.

The explorer's own subcommand: ``cli.py`` registers it next to ``tilelayout.commands``
(the two top layers do not import each other).
"""

from __future__ import annotations

import argparse
import signal
import sys
import webbrowser

from ..core import budget
from ..core.errors import LayoutError
from .server import REQUEST_LIMITS, WORKERS, make_server, tune_process, url_of


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``serve`` subcommand to the CLI's subparsers."""
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
    p.add_argument("--workers", type=int, default=WORKERS,
                   help=f"worker threads serving connections, 1..1024 (default {WORKERS})")
    p.set_defaults(run=run)
    p.epilog = ("The --max-* limits apply to each request the explorer serves (defaults in "
                "docs/limits.md).")


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C or SIGTERM; a port that cannot be bound is a one-line error."""
    if not 0 <= args.port <= 65535:
        raise LayoutError(f"--port must be in 0..65535, got {args.port}")
    if not 1 <= args.workers <= 1024:
        raise LayoutError(f"--workers must be in 1..1024, got {args.workers}")
    # the --max-* options (added to every subcommand by cli.py) set the per-request limits
    limits = budget.changed(REQUEST_LIMITS, {name: getattr(args, f"max_{name}", None)
                                             for name in budget.NAMES})
    try:
        server = make_server(args.host, args.port, quiet=args.quiet, limits=limits,
                             allow_hosts=args.allow_host, workers=args.workers)
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
    # SIGTERM (kill, a service manager, a CI runner) stops it as Ctrl-C does
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
