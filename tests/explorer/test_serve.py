"""`tilelayout serve`: starts the explorer and stops cleanly."""


from __future__ import annotations

from tests.helpers import call


def test_serve_command_starts_and_stops():
    import subprocess
    import sys
    import time
    proc = subprocess.Popen([sys.executable, "-m", "tilelayout.cli", "serve", "--port", "0",
                             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line
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
    finally:
        proc.send_signal(__import__("signal").SIGINT)
        assert proc.wait(timeout=10) == 0
