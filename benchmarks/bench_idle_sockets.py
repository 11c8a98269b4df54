"""Real requests while idle clients hold sockets open (issue 29).

A server in its own process (as ``tilelayout serve`` runs it), ``--idle`` sockets that
connect and send nothing (one the server closes is opened again at once: the idle clients
keep coming back, so ``--idle`` of them are held open throughout), then ``--requests``
real requests (``/api/explain``, ``/api/elements_at``, ``GET /api/presets``) from
``--clients`` clients, each request on a new connection (``--connections fresh``, as a new
page or client does) or one per client (``keep-alive``). Reported: errors, p50 / p99 /
max latency of the real requests, and how many idle sockets the server closed (each
opened again). ``--before REV`` measures the server of another revision the same way (its
``src`` extracted with ``git archive``), beside this one.

    nice -n 10 .venv/bin/python benchmarks/bench_idle_sockets.py --idle 200 --requests 2000
    .venv/bin/python benchmarks/bench_idle_sockets.py --before 938a3f6

Target: with 200 idle sockets, p99 <= 1 s and no errors.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVE = ("import sys; from tilelayout.explorer import server as s; srv = s.make_server("
         "'127.0.0.1', 0, quiet=True); s.tune_process(); print(srv.server_address[1], "
         "flush=True); srv.serve_forever()")


def _requests(rng: random.Random, n: int) -> list[tuple[str, bytes | None]]:
    out: list[tuple[str, bytes | None]] = []
    for _ in range(n):
        r = rng.random()
        if r < 0.45:
            index = [rng.randrange(8), rng.randrange(16)]
            out.append(("/api/explain", json.dumps({"layout": "S[(8,16):(16,1)]",
                                                    "index": index}).encode()))
        elif r < 0.9:
            out.append(("/api/elements_at", json.dumps({"layout": "S[(4,8):(8@laneid,1)]",
                                                        "coords": {"laneid": rng.randrange(8)}}).encode()))
        else:
            out.append(("/api/presets", None))
    return out


def _client(port: int, work: list, times: list, errors: list, fresh: bool = False) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for path, body in work:
        if fresh:  # a new connection per request, as a new page or a new client opens
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        start = time.perf_counter()
        try:
            if body is None:
                conn.request("GET", path)
            else:
                conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
            r = conn.getresponse()
            r.read()
            if r.status != 200:
                errors.append(f"HTTP {r.status}")
        except (OSError, http.client.HTTPException) as exc:
            errors.append(type(exc).__name__)
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        times.append(time.perf_counter() - start)
    conn.close()


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else 0.0


def _hold(port: int, held: list[socket.socket], stop: threading.Event) -> int:
    """Keep ``len(held)`` idle sockets open: one the server closed is opened again (idle
    clients come back); returns how many were reopened."""
    reopened = 0
    while not stop.wait(0.05):
        for k, s in enumerate(held):
            if not _alive(s):
                s.close()
                held[k] = socket.create_connection(("127.0.0.1", port), timeout=60)
                reopened += 1
    return reopened


def measure(src: Path, idle: int, n: int, clients: int, seed: int, fresh: bool) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.Popen([sys.executable, "-c", SERVE], stdout=subprocess.PIPE, text=True, env=env)
    held: list[socket.socket] = []
    stop = threading.Event()
    reopened: list[int] = []
    try:
        port = int(proc.stdout.readline())
        _client(port, [("/api/presets", None)] * 3, [], [])  # warm-up, outside the measurement
        held = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(idle)]
        keeper = threading.Thread(target=lambda: reopened.append(_hold(port, held, stop)))
        keeper.start()
        time.sleep(0.5)  # every idle socket accepted
        work = _requests(random.Random(seed), n)
        times: list[float] = []
        errors: list[str] = []
        threads = [threading.Thread(target=_client,
                                    args=(port, work[c::clients], times, errors, fresh))
                   for c in range(clients)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - start
        stop.set()
        keeper.join()
    finally:
        stop.set()
        for s in held:
            s.close()
        proc.terminate()
        proc.wait(timeout=10)
    return {"requests": len(times), "errors": len(errors), "kinds": sorted(set(errors))[:4],
            "p50": _pct(times, 0.5), "p99": _pct(times, 0.99), "max": max(times) * 1000,
            "seconds": wall, "reopened": reopened[0] if reopened else 0}


def _alive(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        return s.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        s.setblocking(True)


def _extract(rev: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], check=True,
                             capture_output=True).stdout
    with tempfile.NamedTemporaryFile(suffix=".tar") as f:
        f.write(archive)
        f.flush()
        with tarfile.open(f.name) as tar:
            tar.extractall(into, filter="data")
    return into / "src"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--idle", type=int, default=200)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--before", help="also measure this revision's server (git rev)")
    ap.add_argument("--before-requests", type=int,
                    help="requests for --before (default --requests; a stalled server needs "
                         "seconds per request)")
    ap.add_argument("--connections", choices=("fresh", "keep-alive"), default="fresh",
                    help="a new connection per request (default) or one per client")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        sides = [("this tree", ROOT / "src", args.requests)]
        if args.before:
            sides.insert(0, (args.before, _extract(args.before, Path(tmp)),
                             args.before_requests or args.requests))
        for name, src, n in sides:
            rows.append((f"{name} ({n} requests)",
                         measure(src, args.idle, n, args.clients, args.seed,
                                 args.connections == "fresh")))
    print(f"{args.idle} idle sockets held open; {args.requests} requests from {args.clients} "
          f"clients ({args.connections} connections), loopback")
    print("| server | errors | p50 | p99 | max | idle sockets the server closed (reopened) |")
    print("|---|---|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['errors']} {' '.join(r['kinds'])} | {r['p50']:.1f} ms | "
              f"{r['p99']:.1f} ms | {r['max']:.0f} ms | {r['reopened']} |")


if __name__ == "__main__":
    main()
