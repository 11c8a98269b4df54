"""The explorer's server against a hostile web page and a careless client (issue 13)."""

from __future__ import annotations

import http.client
import json
import socket
import time

import pytest

from tilelayout.core.axes import is_axis
from tilelayout.explorer.server import REQUEST_LIMITS, serve_in_thread

REQUEST_1 = b'{"layout": "S[4] + R[1048576:1@pid]", "index": [0]}'


@pytest.fixture(scope="module")
def server():
    srv, url = serve_in_thread(read_timeout=1.0)
    yield srv
    srv.shutdown()
    srv.server_close()


def request(srv, method, path, body=b"", headers=None):
    host, port = srv.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=10)
    h = {"Host": f"{host}:{port}", "Content-Type": "application/json"}
    h.update(headers or {})
    h = {k: v for k, v in h.items() if v is not None}
    conn.request(method, path, body=body, headers=h)
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r.status, r.getheader("Content-Type"), data


def raw(srv, payload: bytes) -> bytes:
    with socket.create_connection(srv.server_address[:2], timeout=10) as s:
        s.sendall(payload)
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            out += chunk
    return out


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2 ** 20


def test_the_51_byte_request_stays_within_the_budget(server):
    assert len(REQUEST_1) == 51
    before = _rss_mb()
    start = time.perf_counter()
    status, ctype, body = request(server, "POST", "/api/explain", REQUEST_1)
    took = time.perf_counter() - start
    data = json.loads(body)
    assert status == 413 and ctype == "application/json"
    assert "1,048,576 replica combinations" in data["error"] and "4,096" in data["error"]
    assert took < REQUEST_LIMITS.seconds  # refused up front: far below the time budget
    assert _rss_mb() - before < 64  # and no memory grown for it


def test_foreign_host_is_refused(server):
    status, ctype, body = request(server, "GET", "/api/options", headers={"Host": "evil.example"})
    assert status == 421 and ctype == "application/json" and "Host" in json.loads(body)["error"]
    status, _, _ = request(server, "POST", "/api/layout", b'{"layout":"S[4]"}',
                           headers={"Host": "evil.example:80"})
    assert status == 421
    assert raw(server, b"GET /api/options HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.1 400 ")
    assert request(server, "GET", "/api/options", headers={"Host": "localhost"})[0] == 200


def test_allow_host_extends_the_list():
    srv, _ = serve_in_thread(allow_hosts=["explorer.lan"])
    try:
        assert request(srv, "GET", "/api/options", headers={"Host": "explorer.lan:8000"})[0] == 200
        assert request(srv, "GET", "/api/options", headers={"Host": "other.lan"})[0] == 421
    finally:
        srv.shutdown()
        srv.server_close()


def test_cross_origin_posts_are_refused(server):
    # a page on another site can send text/plain without a pre-flight: refused
    status, ctype, body = request(server, "POST", "/api/explain", REQUEST_1,
                                  headers={"Content-Type": "text/plain",
                                           "Origin": "https://evil.example"})
    assert status == 403 and ctype == "application/json"
    status, _, body = request(server, "POST", "/api/explain", REQUEST_1,
                              headers={"Content-Type": "text/plain"})
    assert status == 415 and "application/json" in json.loads(body)["error"]
    status, _, _ = request(server, "POST", "/api/layout", b'{"layout":"S[4]"}',
                           headers={"Origin": "https://evil.example"})
    assert status == 403
    status, _, _ = request(server, "POST", "/api/layout", b'{"layout":"S[4]"}',
                           headers={"Origin": "null"})
    assert status == 403
    host, port = server.server_address[:2]
    status, _, _ = request(server, "POST", "/api/layout", b'{"layout":"S[4]"}',
                           headers={"Origin": f"http://{host}:{port}"})
    assert status == 200
    status, _, _ = request(server, "POST", "/api/layout", b'{"layout":"S[4]"}',
                           headers={"Sec-Fetch-Site": "cross-site"})
    assert status == 403


@pytest.mark.parametrize("method, want", [("OPTIONS", 405), ("TRACE", 405), ("PUT", 405),
                                          ("BREW", 405)])
def test_every_method_answers_json(server, method, want):
    status, ctype, body = request(server, method, "/api/layout", headers={
        "Origin": None, "Access-Control-Request-Method": "POST"})
    assert status == want and ctype == "application/json" and "error" in json.loads(body)


def test_cors_preflight_from_another_site_is_refused_as_json(server):
    status, ctype, body = request(server, "OPTIONS", "/api/explain", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert status == 403 and ctype == "application/json"


@pytest.mark.parametrize("payload, want", [
    (b"GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n", b" 505 "),
    (b"GET /\r\n\r\n", b" 400 "),  # HTTP/0.9 gets a status line too
    (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", b" 414 "),
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-A: b\r\n" * 120 + b"\r\n", b" 431 "),
    (b"NONSENSE\r\n\r\n", b" 400 "),
    (b"POST /api/layout HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\r\n",
     b" 411 "),
])
def test_http_layer_errors_are_json_with_a_status_line(server, payload, want):
    out = raw(server, payload)
    head, _, body = out.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.") and want in head.split(b"\r\n")[0], out[:200]
    assert b"application/json" in head and "error" in json.loads(body)


@pytest.mark.parametrize("body, words", [
    (b"[" * 5000 + b"]" * 5000, "deeper"),
    (b'{"layout": "S[4]", "index": [' + b"9" * 5000 + b"]}", "digits"),
    (b'{"layout": "S[4]", "x": NaN}', "not JSON"),
    (b'{"layout": "S[4]"', "not valid JSON"),
    (b"\xff\xfe", "not valid JSON"),
])
def test_json_limits(server, body, words):
    status, ctype, data = request(server, "POST", "/api/layout", body)
    assert status == 400 and ctype == "application/json" and words in json.loads(data)["error"]


def test_convert_mesh_axes_do_not_reach_the_global_registry(server):
    import tilelayout as tl

    before = len(tl.axes())
    for k in range(20):
        status, _, _ = request(server, "POST", "/api/convert", json.dumps({
            "layout": f"S[(2,4):(1@meshax{k},1@other{k})]", "mesh": f"meshax{k}=2,other{k}=4",
            "targets": ["jax"]}).encode())
        assert status == 200
    assert len(tl.axes()) == before


def test_idle_connections_are_closed_after_the_read_timeout(server):
    with socket.create_connection(server.server_address[:2], timeout=10) as s:
        s.sendall(b"GET /api/options HTTP/1.1\r\n")  # and then nothing
        start = time.perf_counter()
        data = s.recv(65536)
        while data and b"\r\n\r\n" not in data:
            data += s.recv(65536)
        assert time.perf_counter() - start < 5  # the server's 1 s read timeout, not forever


def test_keep_alive_requests_are_not_delayed_by_nagle(server):
    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=10)
    times = []
    for _ in range(10):
        start = time.perf_counter()
        conn.request("POST", "/api/explain", body=b'{"layout":"S[8:1]","index":[3]}',
                     headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        r.read()
        times.append(time.perf_counter() - start)
        assert r.status == 200
    conn.close()
    assert sorted(times)[5] < 0.040  # the 44 ms delayed-ACK stall is gone


def test_a_request_past_its_seconds_budget_is_cut_off_with_a_503():
    from tilelayout.explorer.server import REQUEST_LIMITS
    srv, _ = serve_in_thread(limits=REQUEST_LIMITS.replace(seconds=1e-6))
    try:
        status, ctype, body = request(srv, "POST", "/api/layout",
                                      b'{"layout": "S[(128,256):(256,1)]"}')
        assert status == 503 and ctype == "application/json"
        assert "budget" in json.loads(body)["error"]
    finally:
        srv.shutdown()
        srv.server_close()


def test_answers_are_cached_and_request_axes_never_leak(server):
    body = b'{"layout": "S[(8,16):(16,1)]", "index": [1, 2]}'
    first = request(server, "POST", "/api/explain", body)
    assert first[0] == 200 and server.answers.get(("/api/explain", body)) == first[2]
    assert request(server, "POST", "/api/explain", body) == first
    # a request that declares its own mesh axes: its answer is a function of its body
    # (the same body declares the same axes), so caching it is sound ...
    mesh = json.dumps({"layout": "S[(2,4):(1@cache_dp,1@cache_tp)]",
                       "mesh": "cache_dp=2,cache_tp=4", "targets": ["jax"]}).encode()
    answer = request(server, "POST", "/api/convert", mesh)
    assert answer[0] == 200 and request(server, "POST", "/api/convert", mesh) == answer
    # ... and the axes it declared never reach another request or the global registry
    other = json.dumps({"layout": "S[(2,4):(1@cache_dp,1@cache_tp)]"}).encode()
    status, _, text = request(server, "POST", "/api/layout", other)
    assert status == 400 and b"cache_dp" in text
    assert not is_axis("cache_dp")
