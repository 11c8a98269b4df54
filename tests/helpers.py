"""Small helpers several test folders share: the reference layout, the CLI in a
subprocess, the explorer served for a test, one HTTP call to it, and which mesh devices
hold an element under a PartitionSpec (the reference the mesh tests compare with)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

TC = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"
"""The reference document's tensor-core tile (shape 8x16)."""


def run(*args: str) -> subprocess.CompletedProcess:
    """``tilelayout ARGS`` in a fresh interpreter, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "tilelayout.cli", *args],
                          capture_output=True, text=True, timeout=60)


@contextmanager
def explorer_server() -> Iterator[str]:
    """The explorer served on a free loopback port for the ``with`` block: its base URL
    (the server is shut down and its socket closed after)."""
    from tilelayout.explorer.server import serve_in_thread

    srv, url = serve_in_thread()
    try:
        yield url
    finally:
        srv.shutdown()
        srv.server_close()


def call(url, path, body=None, *, raw=None, method=None, headers=None):
    """One request to the explorer: (status, content type, body bytes), errors included."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(url + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()


def spec_holders(mesh: dict[str, int], spec, shape, index) -> set[tuple[int, ...]]:
    """The devices (coordinates in ``mesh`` order) that hold element ``index`` of a
    ``shape`` array sharded by the PartitionSpec entries ``spec`` as JAX blocks it: along
    each dimension, the devices of the named mesh axes (major to minor) split it into
    equal blocks; axes the spec does not name hold every block (replicas)."""
    entries = list(spec) + [None] * (len(shape) - len(spec))
    holders = set()
    for combo in itertools.product(*(range(n) for n in mesh.values())):
        pos = dict(zip(mesh, combo, strict=True))
        ok = True
        for d, entry in enumerate(entries):
            names = () if entry is None else (entry,) if isinstance(entry, str) else entry
            block, parts = 0, 1
            for a in names:
                block, parts = block * mesh[a] + pos[a], parts * mesh[a]
            ok &= index[d] // (shape[d] // parts) == block
        if ok:
            holders.add(combo)
    return holders
