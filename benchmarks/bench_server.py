"""The explorer's server under 16 concurrent clients (issue 13).

10,000 requests of the explorer's mix against a server in its own process, on loopback:
per page session one ``POST /api/layout`` of the 128 x 256 wgmma accumulator
(32,768 elements, ~1.5 MB of JSON), then clicks -- ``/api/explain`` of an element and
``/api/elements_at`` of a lane -- and now and then ``GET /api/presets``. Each client
keeps its connection alive, as a browser does. Two servers are measured in the same run:

* ``hardened``: ``tilelayout.explorer.server`` as ``tilelayout serve`` runs it (bounded
  worker pool, backlog 128, ``TCP_NODELAY``, headers and body in one write, read
  timeouts, at most four whole-layout requests at once, recent answers cached, a 0.5 ms
  thread switch interval);
* ``uncached``: the same without the answer cache (every layout request computed);
* ``stdlib``: the same request handler under the standard library's
  ``ThreadingHTTPServer`` as the explorer used it before (listen backlog 5, a thread per
  connection, Nagle's algorithm on, headers and body written separately, no answer cache).

Reported: errors (any non-200 or dropped connection), throughput, latency percentiles
for the small requests (explain, elements_at, presets) and for the layout requests, the
longest stall, and the ratios between the two servers.

Run: ``.venv/bin/python benchmarks/bench_server.py [--requests 10000] [--clients 16]``.
Targets: no errors; small-request p99 < 250 ms; no stall over 1 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from http.server import ThreadingHTTPServer

from tilelayout.explorer import examples
from tilelayout.explorer.connections import Connections

KINDS = ("hardened", "uncached", "stdlib")
EXAMPLE = examples.get("wgmma 128x256 accumulator")
LAYOUT = {"layout": EXAMPLE.layout, "shape": list(EXAMPLE.shape), "dtype": EXAMPLE.dtype,
          "swizzle": EXAMPLE.swizzle}


# -- the servers (run in a child process: the clients' threads do not share its GIL) ------
def _serve(kind: str) -> None:
    from tilelayout.explorer import server as srv

    hardened = srv.make_server("127.0.0.1", 0, quiet=True)
    if kind == "stdlib":
        handler = type(hardened.RequestHandlerClass.__name__, (hardened.RequestHandlerClass,),
                       {"_send": _old_send, "timeout": None})
        hardened.server_close()
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        server.limits = srv.REQUEST_LIMITS  # what the shared handler reads
        server.allowed_hosts = hardened.allowed_hosts
        server.heavy = threading.BoundedSemaphore(1 << 20)  # no cap on whole-layout requests
        server.working = threading.BoundedSemaphore(1 << 20)  # nor on requests at once
        server.connections = Connections(1 << 20, 1e9, 1e9)  # no deadlines, no limit
        server.answers = srv.AnswerCache(0)  # and no answer cache
    else:
        server = hardened
        srv.tune_process()  # as `tilelayout serve` does
        if kind == "uncached":
            server.answers = srv.AnswerCache(0)
    print(server.server_address[1], flush=True)
    server.serve_forever()


def _old_send(self, status: int, body: bytes, content_type: str) -> None:
    """The handler's write as it was: headers flushed, then the body in a second write."""
    self.send_response(status)
    self.send_header("Content-Type", content_type)
    self.send_header("Content-Length", str(len(body)))
    self.end_headers()
    if self.command != "HEAD":
        self.wfile.write(body)


# -- the clients ----------------------------------------------------------------------------
def _requests(rng: random.Random, n: int) -> list[tuple[str, str, bytes | None]]:
    """The mix: a session is one layout, 20 clicks (explain or elements_at), one presets."""
    out: list[tuple[str, str, bytes | None]] = []
    while len(out) < n:
        out.append(("layout", "/api/layout", json.dumps(LAYOUT).encode()))
        for _ in range(20):
            if rng.random() < 0.5:
                idx = [rng.randrange(128), rng.randrange(256)]
                out.append(("explain", "/api/explain",
                            json.dumps({**LAYOUT, "index": idx}).encode()))
            else:
                coord = {"wgid": rng.randrange(2), "wid_in_wg": rng.randrange(4),
                         "laneid": rng.randrange(32)}
                out.append(("elements_at", "/api/elements_at",
                            json.dumps({**LAYOUT, "coords": coord}).encode()))
        out.append(("presets", "/api/presets", None))
    rng.shuffle(out)
    return out[:n]


def _client(port: int, work: list, results: list, errors: list) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for kind, path, body in work:
        start = time.perf_counter()
        try:
            if body is None:
                conn.request("GET", path)
            else:
                conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
            r = conn.getresponse()
            r.read()
            if r.status != 200:
                errors.append(f"{kind}: HTTP {r.status}")
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{kind}: {type(exc).__name__}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        results.append((kind, time.perf_counter() - start))
    conn.close()


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else 0.0


def measure(kind: str, n: int, clients: int, seed: int) -> dict:
    proc = subprocess.Popen([sys.executable, __file__, "--serve", kind], stdout=subprocess.PIPE,
                            text=True)
    try:
        port = int(proc.stdout.readline())
        work = _requests(random.Random(seed), n)
        # warm-up (imports, caches) outside the measurement
        _client(port, [w for w in work if w[0] in ("layout", "presets")][:2], [], [])
        results: list = []
        errors: list = []
        threads = [threading.Thread(target=_client, args=(port, work[c::clients], results, errors))
                   for c in range(clients)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - start
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    small = [t for k, t in results if k != "layout"]
    big = [t for k, t in results if k == "layout"]
    return {"server": kind, "requests": len(results), "errors": len(errors),
            "error_kinds": sorted(set(errors))[:5], "seconds": wall,
            "throughput": len(results) / wall, "small_p50": _pct(small, 0.50),
            "small_p99": _pct(small, 0.99), "layout_p50": _pct(big, 0.50),
            "layout_p99": _pct(big, 0.99), "max": max(t for _, t in results) * 1000,
            "small_mean": statistics.fmean(small) * 1000}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=10_000)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--servers", default=",".join(KINDS),
                    help="which servers to measure (default: all; stdlib last gives ratios)")
    ap.add_argument("--serve", choices=KINDS, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        _serve(args.serve)
        return
    rows = [measure(kind, args.requests, args.clients, args.seed)
            for kind in args.servers.split(",")]
    print(f"{args.requests} requests, {args.clients} clients, keep-alive, loopback; "
          f"layout = {EXAMPLE.name}")
    print("| server | errors | req/s | small p50 | small p99 | layout p50 | layout p99 | max |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['server']} | {r['errors']} {' '.join(r['error_kinds'])} | "
              f"{r['throughput']:.1f} | {r['small_p50']:.1f} ms | {r['small_p99']:.1f} ms | "
              f"{r['layout_p50']:.0f} ms | {r['layout_p99']:.0f} ms | {r['max']:.0f} ms |")
    old = rows[-1]
    for new in rows[:-1] if old["server"] == "stdlib" else ():
        print(f"ratios {new['server']}/stdlib: throughput "
              f"{new['throughput'] / old['throughput']:.2f}x, small p99 "
              f"{old['small_p99'] / max(new['small_p99'], 1e-9):.2f}x lower, "
              f"max {old['max'] / max(new['max'], 1e-9):.2f}x lower")


if __name__ == "__main__":
    main()
