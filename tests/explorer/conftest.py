"""The explorer served on a free loopback port, once per test module that asks for it."""

from __future__ import annotations

import pytest

from tilelayout.explorer.server import serve_in_thread


@pytest.fixture(scope="module")
def server():
    srv, url = serve_in_thread()
    yield url
    srv.shutdown()
    srv.server_close()
