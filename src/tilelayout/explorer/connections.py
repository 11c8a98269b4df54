"""The explorer server's connections: a read deadline on each, and a limit that drops the
oldest idle one instead of refusing new work.

Each accepted connection is served by its own thread (blocked in a read it holds no
interpreter time), so clients that connect and send nothing cannot make a real request
wait for a thread. What bounds them:

* **A read deadline per connection.** Between requests a connection is *idle*: the next
  request must start within ``idle_timeout`` seconds. Once its first byte arrives, the
  whole request (line, headers, body) must arrive within ``request_timeout`` seconds,
  however the client trickles it (each read waits only for what is left of the deadline:
  :class:`DeadlineReader`). Past it the connection is closed.
* **A connection limit.** At most ``limit`` connections are open. A new one at the limit
  closes the *oldest idle* connection (a silent socket is worth less than new work); when
  none is idle (every connection is in the middle of a request) the new one is still
  served, up to ``2 * limit``, and only beyond that answered 503.

>>> conns = Connections(limit=1)
>>> a, b = socket.socketpair()
>>> conns.admit(a), conns.open_count
(True, 1)
>>> conns.record(a).idle_since is not None     # waiting for its first request
True
>>> c, d = socket.socketpair()
>>> conns.admit(c), conns.dropped               # the idle one made room
(True, 1)
>>> for s in (a, b, c, d): s.close()
"""

from __future__ import annotations

import contextlib
import io
import math
import socket
import threading
import time
from dataclasses import dataclass

#: seconds an idle connection may wait for its next request to start
IDLE_TIMEOUT = 10.0
#: seconds a started request may take to arrive whole (line, headers and body)
REQUEST_TIMEOUT = 10.0
#: open connections before the oldest idle one is dropped for a new one
CONNECTION_LIMIT = 256


@dataclass
class Record:
    """One open connection: since when it has been idle (None: inside a request) and the
    deadline of its current read phase (monotonic seconds)."""

    sock: socket.socket
    idle_since: float | None
    deadline: float


class Connections:
    """The open connections of one server (thread-safe)."""

    def __init__(self, limit: int = CONNECTION_LIMIT, idle_timeout: float = IDLE_TIMEOUT,
                 request_timeout: float = REQUEST_TIMEOUT) -> None:
        self.limit, self.idle_timeout, self.request_timeout = limit, idle_timeout, request_timeout
        self._open: dict[socket.socket, Record] = {}
        self._lock = threading.Lock()
        #: idle connections closed to make room for new ones (for reports and tests)
        self.dropped = 0

    @property
    def open_count(self) -> int:
        with self._lock:
            return len(self._open)

    def record(self, sock: socket.socket) -> Record:
        with self._lock:
            return self._open[sock]

    def admit(self, sock: socket.socket) -> bool:
        """Register a new connection (idle, waiting for its first request); at the limit
        close the oldest idle one first. False: over twice the limit with none idle."""
        now = time.monotonic()
        victim = None
        with self._lock:
            if len(self._open) >= self.limit:
                idle = [r for r in self._open.values() if r.idle_since is not None]
                if idle:
                    victim = min(idle, key=lambda r: r.idle_since or 0.0)
                    del self._open[victim.sock]
                    self.dropped += 1
                elif len(self._open) >= 2 * self.limit:
                    return False
            self._open[sock] = Record(sock, now, now + self.idle_timeout)
        if victim is not None:  # its thread's read ends at once (end of file): it closes
            with contextlib.suppress(OSError):
                victim.sock.shutdown(socket.SHUT_RDWR)
        return True

    def waiting(self, sock: socket.socket) -> None:
        """The connection waits for its next request: idle, under the idle deadline."""
        now = time.monotonic()
        with self._lock:
            rec = self._open.get(sock)
            if rec is not None:
                rec.idle_since, rec.deadline = now, now + self.idle_timeout

    def started(self, sock: socket.socket) -> None:
        """A request began arriving: no longer idle, under the request deadline."""
        now = time.monotonic()
        with self._lock:
            rec = self._open.get(sock)
            if rec is not None and rec.idle_since is not None:
                rec.idle_since, rec.deadline = None, now + self.request_timeout

    def deadline(self, sock: socket.socket) -> float:
        """The deadline of ``sock``'s current read (infinite for a socket never admitted:
        a server that does not track connections; a dropped one is shut down instead)."""
        with self._lock:
            rec = self._open.get(sock)
            return rec.deadline if rec is not None else math.inf

    def remove(self, sock: socket.socket) -> None:
        with self._lock:
            self._open.pop(sock, None)

    def close_all(self) -> None:
        """Wake every connection's thread (each read ends) and forget them."""
        with self._lock:
            socks, self._open = list(self._open), {}
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


class DeadlineReader(io.RawIOBase):
    """A connection's socket as raw input whose every read waits at most until the
    connection's deadline (:class:`Connections`); the first bytes of a request move the
    connection from idle to started. Past the deadline a read raises TimeoutError."""

    def __init__(self, sock: socket.socket, connections: Connections) -> None:
        super().__init__()
        self._sock, self._conns = sock, connections

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        left = self._conns.deadline(self._sock) - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request was not received in time")
        self._sock.settimeout(None if left == math.inf else left)
        n = self._sock.recv_into(buffer)
        if n:
            self._conns.started(self._sock)
        return n


__all__ = ["CONNECTION_LIMIT", "IDLE_TIMEOUT", "REQUEST_TIMEOUT", "Connections", "DeadlineReader",
           "Record"]
