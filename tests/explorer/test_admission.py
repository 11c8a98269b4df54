"""Which requests the explorer serves: Host allow-list, Origin, content type, JSON limits."""

import pytest

from tilelayout.explorer.admission import (
    MAX_DEPTH,
    MAX_DIGITS,
    Refused,
    allowed_hosts,
    check_content_type,
    decode_json,
    host_allowed,
    origin_allowed,
)

LOCAL = allowed_hosts("127.0.0.1", 8000, ())


def test_allowed_hosts_are_loopback_the_bound_address_and_extras():
    assert allowed_hosts("0.0.0.0", 80, ()) == {"127.0.0.1", "localhost", "::1"}
    assert "10.0.0.5" in allowed_hosts("10.0.0.5", 80, ())
    assert "box.lan" in allowed_hosts("::", 80, ["BOX.lan"])
    assert "fe80::1" in allowed_hosts("[fe80::1]", 80, ())


@pytest.mark.parametrize(("host", "ok"), [
    ("localhost:8000", True), ("127.0.0.1", True), ("[::1]:8000", True), ("LOCALHOST", True),
    ("evil.example", False), ("localhost.evil.example", False), ("", False), (None, False),
    ("user@localhost", False), ("localhost/x", False), ("[::1", False), ("a" * 300, False),
])
def test_host_header(host, ok):
    assert host_allowed(host, LOCAL) is ok


@pytest.mark.parametrize(("origin", "host", "ok"), [
    (None, "127.0.0.1:8000", True),
    ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
    ("https://localhost:8000", "localhost:8000", True),
    ("http://127.0.0.1:9999", "127.0.0.1:8000", False),   # another port is another site
    ("https://evil.example", "127.0.0.1:8000", False),
    ("null", "127.0.0.1:8000", False),
    ("file:///x", "127.0.0.1:8000", False),
    ("http://[bad", "127.0.0.1:8000", False),
])
def test_origin_must_be_the_page_itself(origin, host, ok):
    assert origin_allowed(origin, host, LOCAL) is ok


def test_content_type_must_be_json():
    check_content_type("application/json; charset=utf-8")
    for bad in ("text/plain", None, "application/x-www-form-urlencoded"):
        with pytest.raises(Refused) as err:
            check_content_type(bad)
        assert err.value.status == 415


def test_decode_json_accepts_objects_within_the_limits():
    assert decode_json(b'{"a": [1, {"b": "]"}]}') == {"a": [1, {"b": "]"}]}
    assert decode_json(b'{"n": ' + b"9" * MAX_DIGITS + b"}")["n"] == int("9" * MAX_DIGITS)


@pytest.mark.parametrize(("body", "says"), [
    (b"[1]", "JSON object"), (b"{", "not valid JSON"), (b"\xff", "not valid JSON"),
    (b'{"a": NaN}', "NaN is not JSON"),
    (b'{"a": ' + b"1" * (MAX_DIGITS + 1) + b"}", "digits"),
    (b'{"a": ' + b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + b"}", "nests deeper"),
])
def test_decode_json_refuses_with_400(body, says):
    with pytest.raises(Refused, match=says) as err:
        decode_json(body)
    assert err.value.status == 400


def test_brackets_inside_strings_do_not_count_as_depth():
    body = b'{"text": "' + b"[" * (MAX_DEPTH * 2) + b'"}'
    assert decode_json(body) == {"text": "[" * (MAX_DEPTH * 2)}
