"""Which requests the explorer serves at all: Host, Origin, content type, JSON shape.

A web page the user visits must not be able to drive the explorer: DNS rebinding is
stopped by the ``Host`` allow-list (loopback names, the bound address, and names
given with ``--allow-host``), cross-origin requests by the ``Origin`` check on every
POST (and a ``text/plain`` POST, which a page may send without a pre-flight, by
requiring ``application/json``). Bodies are JSON objects no deeper than
:data:`MAX_DEPTH` with integers of at most :data:`MAX_DIGITS` digits, checked before
or while decoding so the decoder never meets its own limits.

>>> sorted(allowed_hosts("127.0.0.1", 8000, ["explorer.lan"]))
['127.0.0.1', '::1', 'explorer.lan', 'localhost']
>>> host_allowed("localhost:8000", allowed_hosts("127.0.0.1", 8000, ()))
True
>>> host_allowed("evil.example", allowed_hosts("127.0.0.1", 8000, ()))
False
>>> decode_json(b'{"a": [1, 2]}')
{'a': [1, 2]}
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

#: the deepest nesting of arrays and objects a request body may have
MAX_DEPTH = 32
#: the most digits an integer in a request body may have
MAX_DIGITS = 40
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})

_BRACKETS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class Refused(Exception):
    """A request refused before any work: ``status`` and a one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def allowed_hosts(bound: str, port: int, extra: Iterable[str]) -> frozenset[str]:
    """Host names (without port) the server answers to: loopback, the bound address
    (unless it is a wildcard) and ``extra`` (``--allow-host``)."""
    names = set(LOOPBACK)
    if bound not in ("", "0.0.0.0", "::"):
        names.add(bound.lower().strip("[]"))
    names.update(h.lower().strip("[]") for h in extra)
    return frozenset(names)


def _hostname(value: str) -> str | None:
    """The host part of a ``Host`` header or an origin's netloc (``None`` if malformed)."""
    value = value.strip().lower()
    if not value or len(value) > 255 or any(c in value for c in "/@?# \t"):
        return None
    if value.startswith("["):
        end = value.find("]")
        return value[1:end] if end > 0 else None
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def host_allowed(host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a ``Host`` header names this server (DNS-rebinding defence)."""
    name = _hostname(host or "")
    return name is not None and name in allowed


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request's ``Origin`` (if any) is this server's own page.

    No ``Origin`` (curl, scripts, same-origin GETs) is allowed; ``null`` and any
    other site are not.

    >>> a = allowed_hosts("127.0.0.1", 8000, ())
    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", a)
    True
    >>> origin_allowed("https://evil.example", "127.0.0.1:8000", a), origin_allowed("null", "x", a)
    (False, False)
    """
    if origin is None:
        return True
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return (parts.netloc.lower() == (host or "").strip().lower()
            and host_allowed(parts.netloc, allowed))


def check_content_type(value: str | None) -> None:
    """POST bodies must be declared ``application/json`` (a page cannot send that
    cross-origin without a pre-flight, which the explorer refuses)."""
    mime = (value or "").split(";", 1)[0].strip().lower()
    if mime != "application/json":
        raise Refused(415, f"POST bodies must be sent as application/json, got "
                           f"{(value or 'no Content-Type')[:60]!r}")


def _depth(raw: bytes) -> int:
    depth = deepest = 0
    for m in _BRACKETS.finditer(raw):
        tok = m.group()
        if tok in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                return deepest
        elif tok in (b"]", b"}"):
            depth -= 1
    return deepest


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise Refused(400, f"an integer in the body has {len(text.lstrip('-'))} digits; "
                           f"at most {MAX_DIGITS}")
    return int(text)


def _constant(name: str) -> Any:
    raise Refused(400, f"{name} is not JSON")


def decode_json(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object, refused (400) when it is not one, nests deeper than
    :data:`MAX_DEPTH` or holds an integer longer than :data:`MAX_DIGITS` digits."""
    if _depth(raw) > MAX_DEPTH:
        raise Refused(400, f"the body nests deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(raw.decode("utf-8"), parse_int=_int, parse_constant=_constant)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise Refused(400, f"the body is not valid JSON: {exc}"[:300]) from None
    if not isinstance(data, dict):
        raise Refused(400, "the body must be a JSON object")
    return data
