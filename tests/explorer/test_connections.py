"""Idle clients cannot stall the explorer (issue 29): with 200 idle sockets held open,
real requests are answered (each connection has its own thread; the idle ones hold no
worker); a client that trickles a request is cut off at its deadline; at the connection
limit a new connection closes the oldest idle one instead of being refused. (The latency
under 200 idle sockets is measured by benchmarks/bench_idle_sockets.py, not asserted.)"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import time

from tests.helpers import call
from tilelayout.explorer.connections import Connections
from tilelayout.explorer.server import serve_in_thread


@contextlib.contextmanager
def _server(**options):
    srv, url = serve_in_thread(**options)
    try:
        yield srv, url
    finally:
        srv.shutdown()
        srv.server_close()


def _idle(srv, n: int) -> list[socket.socket]:
    return [socket.create_connection(srv.server_address[:2], timeout=30) for _ in range(n)]


def test_requests_are_answered_while_200_idle_sockets_are_held_open():
    # a long read deadline: the idle sockets stay open for the whole test, so a server that
    # gave each of them a worker would leave none for the requests (the client waits 10 s)
    with _server(read_timeout=120.0) as (srv, url):
        idle = _idle(srv, 200)
        try:
            for k in range(20):
                status, _, body = call(url, "/api/explain", {"layout": "S[4:2]", "index": [k % 4]})
                assert status == 200 and json.loads(body)["coords"] == [{"m": 2 * (k % 4)}]
            status, _, body = call(url, "/api/presets")
            assert status == 200 and json.loads(body)["presets"]
            assert srv.connections.open_count >= 200 and srv.connections.dropped == 0
        finally:
            for s in idle:
                s.close()


def test_at_the_limit_the_oldest_idle_socket_makes_room():
    with _server(max_connections=4, read_timeout=120.0) as (srv, url):
        idle = _idle(srv, 4)
        try:
            deadline = time.monotonic() + 30
            while srv.connections.open_count < 4 and time.monotonic() < deadline:
                time.sleep(0.01)
            status, _, _ = call(url, "/api/presets")  # the fifth connection
            assert status == 200
            assert srv.connections.dropped >= 1
            closed, _, _ = select.select(idle, [], [], 30)  # the oldest idle one, closed
            assert closed and all(s.recv(1) == b"" for s in closed)
        finally:
            for s in idle:
                s.close()


def test_a_trickled_request_is_cut_off_at_its_deadline():
    with _server(read_timeout=1.0) as (srv, _):
        request = b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 40
        with socket.create_connection(srv.server_address[:2], timeout=30) as s:
            sent = 0
            try:
                for byte in request:  # one byte every 0.1 s: 5 s in all, the deadline is 1 s
                    s.sendall(bytes([byte]))
                    sent += 1
                    time.sleep(0.1)
                s.sendall(b"\r\n\r\n")
                closed = s.recv(1000) == b""
            except OSError:  # reset: closed while we were still sending
                closed = True
            assert closed and sent < len(request), sent


def test_the_registry_drops_the_oldest_idle_and_keeps_started_ones():
    conns = Connections(limit=2)
    pairs = [socket.socketpair() for _ in range(4)]
    try:
        a, b, c = (p[0] for p in pairs[:3])
        assert conns.admit(a) and conns.admit(b)
        conns.started(a)  # inside a request: never dropped
        assert conns.admit(c) and conns.dropped == 1 and pairs[1][1].recv(1) == b""
        conns.started(c)
        assert conns.admit(pairs[3][0]) and conns.open_count == 3  # none idle: still served
        conns.waiting(a)
        assert conns.record(a).idle_since is not None
    finally:
        for p in pairs:
            for s in p:
                s.close()
