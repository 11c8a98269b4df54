"""The explorer served on a free loopback port, once per test module that asks for it."""

from __future__ import annotations

import pytest

from tests.helpers import explorer_server


@pytest.fixture(scope="module")
def server():
    with explorer_server() as url:
        yield url
