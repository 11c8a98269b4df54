"""Real requests while idle clients hold sockets open (issue 29).

A server in its own process (as ``tilelayout serve`` runs it), ``--idle`` sockets that
connect and send nothing, then ``--requests`` real requests (``/api/explain``,
``/api/elements_at``, ``GET /api/presets``) from ``--clients`` keep-alive clients.
Reported: errors, p50 / p99 / max latency of the real requests, and the connections the
server dropped. ``--before REV`` measures the server of another revision the same way
(its ``src`` extracted with ``git archive``), beside this one.

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


def _client(port: int, work: list, times: list, errors: list) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for path, body in work:
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


def measure(src: Path, idle: int, n: int, clients: int, seed: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.Popen([sys.executable, "-c", SERVE], stdout=subprocess.PIPE, text=True, env=env)
    held: list[socket.socket] = []
    try:
        port = int(proc.stdout.readline())
        _client(port, [("/api/presets", None)] * 3, [], [])  # warm-up, outside the measurement
        held = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(idle)]
        time.sleep(0.5)  # every idle socket accepted
        work = _requests(random.Random(seed), n)
        times: list[float] = []
        errors: list[str] = []
        threads = [threading.Thread(target=_client, args=(port, work[c::clients], times, errors))
                   for c in range(clients)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - start
        still_open = sum(1 for s in held if _alive(s))
    finally:
        for s in held:
            s.close()
        proc.terminate()
        proc.wait(timeout=10)
    return {"requests": len(times), "errors": len(errors), "kinds": sorted(set(errors))[:4],
            "p50": _pct(times, 0.5), "p99": _pct(times, 0.99), "max": max(times) * 1000,
            "seconds": wall, "idle_still_open": still_open}


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
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        sides = [("this tree", ROOT / "src")]
        if args.before:
            sides.insert(0, (args.before, _extract(args.before, Path(tmp))))
        for name, src in sides:
            rows.append((name, measure(src, args.idle, args.requests, args.clients, args.seed)))
    print(f"{args.idle} idle sockets held open; {args.requests} requests from {args.clients} "
          f"keep-alive clients, loopback")
    print("| server | errors | p50 | p99 | max | idle sockets still open after |")
    print("|---|---|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['errors']} {' '.join(r['kinds'])} | {r['p50']:.1f} ms | "
              f"{r['p99']:.1f} ms | {r['max']:.0f} ms | {r['idle_still_open']} |")


if __name__ == "__main__":
    main()
