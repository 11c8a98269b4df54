"""`tilelayout serve`: starts the explorer and stops cleanly; a port it cannot bind is one
line; ``scripts/explore.sh`` moves on from a busy port."""


from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import call, run
from tilelayout.explorer.server import make_server

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def busy_port():
    """A loopback port some other socket is listening on."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def _wait_until_served(proc: subprocess.Popen) -> str:
    """The URL the explorer printed, once it answers."""
    line = proc.stdout.readline()
    assert "tilelayout explorer at http://127.0.0.1:" in line, line
    url = line.split()[3].rstrip("/")
    deadline = time.time() + 10
    while True:
        try:
            status, _, _ = call(url, "/api/options")
            break
        except OSError:
            assert time.time() < deadline
            time.sleep(0.1)
    assert status == 200
    return url


def _stop(proc: subprocess.Popen) -> None:
    """Ctrl-C -- unless this process was started with SIGINT ignored (a background job
    of a non-interactive shell, as CI may run the suite): its children inherit that, and
    SIGTERM stops the server the same way."""
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    proc.send_signal(signal.SIGTERM if ignored else signal.SIGINT)
    assert proc.wait(timeout=10) == 0


def test_sigterm_stops_the_server_as_ctrl_c_does():
    proc = subprocess.Popen([sys.executable, "-m", "tilelayout.cli", "serve", "--port", "0",
                             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_until_served(proc)
    finally:
        proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0
    assert "stopped" in proc.stderr.read()


def test_serve_command_starts_and_stops():
    proc = subprocess.Popen([sys.executable, "-m", "tilelayout.cli", "serve", "--port", "0",
                             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_until_served(proc)
    finally:
        _stop(proc)


def test_a_busy_port_is_one_line():
    with busy_port() as port:
        result = run("serve", "--port", str(port))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"tilelayout: error: cannot listen on 127.0.0.1:{port}: Address already in use"]


def test_an_address_this_machine_does_not_have_is_one_line():
    # 192.0.2.1 (TEST-NET-1, RFC 5737) is never assigned here: only the bind is tried
    result = run("serve", "--host", "192.0.2.1", "--port", "0")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tilelayout: error: cannot listen on 192.0.2.1:0: ")
    assert "internal error" not in result.stderr


def test_make_server_on_a_busy_port_raises_the_bind_error():
    with busy_port() as port, pytest.raises(OSError) as caught:
        make_server("127.0.0.1", port)
    assert not isinstance(caught.value, AttributeError)


def test_explore_script_moves_on_from_a_busy_port():
    with busy_port() as port:
        env = {**os.environ, "TILELAYOUT_PYTHON": sys.executable, "TILELAYOUT_PORT": str(port)}
        proc = subprocess.Popen(["bash", str(ROOT / "scripts" / "explore.sh"), "--quiet"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        try:
            url = _wait_until_served(proc)
            served = int(url.rsplit(":", 1)[1])
            assert served != port and served != 0
        finally:
            _stop(proc)
        assert f"port {port} is taken; serving on {served} instead" in proc.stderr.read()
