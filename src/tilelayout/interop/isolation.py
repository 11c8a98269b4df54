"""Native code that can abort, run in child processes that may die in its place.

Triton's lowering, TVM and the CuTe DSL are C++ built with assertions on: a malformed
input can end the process that calls them (``SIGABRT``: an LLVM assertion or
``report_fatal_error``) instead of raising. The library checks the preconditions it knows
before it calls in (docs/interop/triton.md); a process that must survive any input (the
explorer's server, a notebook kernel answering the widget, a caller who passes
``isolate=True``) runs the call in a child instead, through a :class:`ChildPool`:

* at most ``workers`` child Python processes, started on first use and reused (one call at
  a time each; a child is replaced after ``max_calls`` calls, so a leak cannot grow);
* a call names a function (``"package.module:function"``) and its arguments (pickled); the
  child imports the module, runs the function under the caller's limits and axis table
  (:mod:`tilelayout.core.budget`, :mod:`tilelayout.core.axes`) and sends back the value or
  the exception, which is raised here as it was raised there;
* a child that dies (a signal, an exit) or that outlives ``timeout`` seconds is gone for
  that call: the call raises one :class:`ChildDied` (a ``LayoutError``) naming the input
  and the child's last words (the assertion it printed), and the next call starts a new
  child. The caller keeps running.

A child is ``python -c`` (never a fork of this process, never a re-import of ``__main__``),
in its own session (a Ctrl-C here does not reach it), talking over its stdin and a copy of
its stdout; what native code prints goes to a file the pool reads back when the child dies.
A child whose parent is gone reads end-of-file and exits.

>>> pool = ChildPool(workers=1)
>>> pool.call("math:gcd", 12, 18)
6
>>> pool.call("os:abort", what="a test of an abort")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tilelayout.interop.isolation.ChildDied: a test of an abort ended the child process that ran it (SIGABRT)...
>>> pool.call("math:lcm", 4, 6)   # a new child answers the next call
12
>>> pool.close()
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from typing import IO, Any

from ..core import axes as axes_module
from ..core import budget
from ..core.errors import BudgetError, LayoutError, shown

#: children a pool runs at most, and the seconds one call may take (including the imports
#: the function needs the first time a child runs it)
WORKERS = 2
TIMEOUT = 120.0
#: seconds a new child may take to start (Python, the package and ``preload``)
START_TIMEOUT = 120.0
#: calls a child serves before it is replaced (bounds what a leak in native code can grow)
MAX_CALLS = 500
#: bytes of one message between a pool and its child (a larger answer is refused)
MAX_MESSAGE = 1 << 28
#: characters of the child's last words quoted in a ChildDied message
LAST_WORDS = 300

_HEADER = struct.Struct("<Q")
_CHILD = "from tilelayout.interop.isolation import serve; serve()"


class ChildDied(LayoutError):
    """A call whose child process died (or was stopped at its deadline) before answering:
    its input is one the native code does not survive. One line: the input and the cause."""


class ChildTimeout(ChildDied, BudgetError):
    """A call stopped at the pool's deadline (the child was killed)."""


class _Gone(Exception):
    """The child's pipe closed: it is dead."""


# --------------------------------------------------------------------------- messages


def _frame(obj: Any) -> bytes:
    """``obj`` pickled, with its length in front."""
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    if len(data) > MAX_MESSAGE:
        raise LayoutError(f"a message of {len(data):,} bytes to or from a child process; at most "
                          f"{MAX_MESSAGE:,}")
    return _HEADER.pack(len(data)) + data


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _read_exact(fd: int, n: int, deadline: float | None) -> bytes:
    parts, left = [], n
    while left:
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise _Gone
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def _read(fd: int, deadline: float | None = None) -> Any:
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    if size > MAX_MESSAGE:
        raise _Gone
    return pickle.loads(_read_exact(fd, size, deadline))


# --------------------------------------------------------------------------- the child


def _resolve(name: str) -> Callable[..., Any]:
    module, _, attr = name.partition(":")
    value: Any = importlib.import_module(module)
    for part in attr.split("."):
        value = getattr(value, part)
    return value


def _failure(exc: BaseException) -> tuple[Any, ...]:
    """An exception as data the parent rebuilds: its class by name, args, attributes."""
    cls = type(exc)
    args: tuple[Any, ...] = exc.args
    state = {k: v for k, v in vars(exc).items() if not k.startswith("__")}
    try:
        pickle.dumps((args, state))
    except Exception:  # noqa: BLE001 (unpicklable details: keep the message)
        args, state = (str(exc),), {}
    where = traceback.format_exception(exc)[-3:]
    return ("raise", cls.__module__, cls.__qualname__, args, state, "".join(where)[-2000:])


def serve() -> None:
    """A child's main loop (``python -c``): answer calls until the parent closes the pipe."""
    requests, answers = os.dup(0), os.dup(1)
    quiet = os.open(os.devnull, os.O_RDONLY)
    os.dup2(quiet, 0)
    os.dup2(2, 1)  # prints (Python's and native code's) go to the pool's stderr file
    sys.stdout = sys.stderr
    path, preload = _read(requests)
    sys.path[:] = path
    for module in preload:
        importlib.import_module(module)
    _write(answers, _frame(("ready", os.getpid())))
    while True:
        try:
            name, args, kwargs, limits, table = _read(requests)
        except _Gone:
            return
        with contextlib.suppress(OSError):  # each call's last words start empty
            os.ftruncate(2, 0)
            os.lseek(2, 0, os.SEEK_SET)
        try:
            with budget.limits(limits), table:
                reply: tuple[Any, ...] = ("ok", _resolve(name)(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 (every failure goes back to the caller)
            reply = _failure(exc)
        try:
            data = _frame(reply)
        except Exception as exc:  # noqa: BLE001 (an answer that cannot be sent)
            data = _frame(_failure(LayoutError(
                f"the answer of {name} cannot be sent back from the child process: {exc}")))
        _write(answers, data)


def _rebuild(module: str, qualname: str, args: tuple[Any, ...], state: dict[str, Any],
             where: str) -> BaseException:
    """The child's exception, raised here as it was raised there (its class, args and
    attributes); a class this process cannot name becomes a RuntimeError with its text."""
    try:
        cls: Any = _resolve(f"{module}:{qualname}")
    except Exception:  # noqa: BLE001
        cls = None
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        return RuntimeError(f"{qualname}: {' '.join(map(str, args))}")
    exc = cls.__new__(cls)
    exc.args = args
    with contextlib.suppress(Exception):
        vars(exc).update(state)
    if not isinstance(exc, LayoutError):
        exc.add_note(f"raised in a child process:\n{where}")
    return exc


# --------------------------------------------------------------------------- the parent


def _signal_name(code: int | None) -> str:
    if code is None:
        return "no exit status"
    if code < 0:
        with contextlib.suppress(ValueError):
            return signal.Signals(-code).name
        return f"signal {-code}"
    return f"exit status {code}"


class _Child:
    """One child process: its pipes, its stderr file, how many calls it served."""

    def __init__(self, preload: tuple[str, ...], start_timeout: float) -> None:
        # kept open (not a with block): read after the child dies
        self.stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        self.proc = subprocess.Popen([sys.executable, "-c", _CHILD], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr,
                                     start_new_session=True, close_fds=True)
        self.calls = 0
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.send, self.receive = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        try:
            path = [os.path.abspath(p) if isinstance(p, str) else p for p in sys.path]
            _write(self.send, _frame((path, preload)))
            _read(self.receive, time.monotonic() + start_timeout)
        except (OSError, _Gone, TimeoutError, EOFError):
            words = self.last_words()
            self.kill()
            raise ChildDied(f"a child process did not start ({words or 'no output'})") from None

    def call(self, request: bytes, timeout: float) -> Any:
        self.calls += 1
        try:
            _write(self.send, request)
        except OSError:
            raise _Gone from None
        return _read(self.receive, time.monotonic() + timeout)

    def last_words(self) -> str:
        """The end of what the child printed in its last call, on one line."""
        with contextlib.suppress(OSError, ValueError):
            self.stderr.seek(0, os.SEEK_END)
            size = self.stderr.tell()
            self.stderr.seek(max(0, size - 4 * LAST_WORDS))
            lines = self.stderr.read().decode("utf-8", "replace").splitlines()
            text = " / ".join(line.strip() for line in lines if line.strip())
            return text[-LAST_WORDS:]
        return ""

    def status(self) -> str:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        return _signal_name(self.proc.returncode)

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout, self.stderr):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]


def _kill_all(children: list[_Child]) -> None:
    for child in children:
        child.kill()
    children.clear()


class ChildPool:
    """Up to ``workers`` reusable child processes that run named functions for this one.

    ``timeout`` bounds one call in seconds (the child is killed past it), ``preload``
    names modules each child imports when it starts (before its first call).
    """

    def __init__(self, workers: int = WORKERS, timeout: float = TIMEOUT,
                 preload: tuple[str, ...] = (), max_calls: int = MAX_CALLS) -> None:
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise LayoutError(f"a pool needs workers >= 1, got {shown(workers)}")
        self.workers, self.timeout, self.preload, self.max_calls = workers, timeout, preload, max_calls
        self._idle: list[_Child] = []
        self._alive = 0
        self._closed = False
        self._lock = threading.Condition()
        #: calls whose child died or timed out (for reports and tests)
        self.deaths = 0
        self._finalizer = weakref.finalize(self, _kill_all, self._idle)

    def _take(self, wait: float) -> _Child:
        deadline = time.monotonic() + wait
        with self._lock:
            while not self._closed and not self._idle and self._alive >= self.workers:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BudgetError(f"all {self.workers} child processes are busy; try again",
                                      name="seconds", cost=wait, limit=wait)
                self._lock.wait(left)
            if self._closed:
                raise LayoutError("this pool of child processes is closed")
            if self._idle:
                return self._idle.pop()
            self._alive += 1
        try:
            return _Child(self.preload, max(START_TIMEOUT, self.timeout))
        except BaseException:
            self._release(None)
            raise

    def _release(self, child: _Child | None) -> None:
        """Give ``child`` back (None: it is gone), waking a caller waiting for one."""
        with self._lock:
            if child is not None and not self._closed and child.calls < self.max_calls:
                self._idle.append(child)
            else:
                self._alive -= 1
                if child is not None:
                    child.kill()
            self._lock.notify()

    def call(self, function: str, *args: Any, what: str | None = None,
             timeout: float | None = None, **kwargs: Any) -> Any:
        """``function(*args, **kwargs)`` run in a child; its value, or its exception raised
        here. ``what`` names the input in a :class:`ChildDied` message (default: the call)."""
        limit = self.timeout if timeout is None else timeout
        what = what or f"{function}({', '.join(shown(a, 40) for a in args)})"
        try:
            request = _frame((function, args, kwargs, budget.current(), axes_module.current()))
        except Exception as exc:  # noqa: BLE001
            raise LayoutError(f"{what}: its arguments cannot be sent to a child process "
                              f"({type(exc).__name__}: {exc})") from None
        child = self._take(limit)
        try:
            reply = child.call(request, limit)
        except TimeoutError:
            child.kill()
            self._release(None)
            self.deaths += 1
            raise ChildTimeout(f"{what} took longer than {limit:g} seconds in its child process "
                               f"(stopped)", name="seconds", cost=limit, limit=limit) from None
        except (_Gone, EOFError, pickle.UnpicklingError):
            status, words = child.status(), child.last_words()
            child.kill()
            self._release(None)
            self.deaths += 1
            raise ChildDied(f"{what} ended the child process that ran it ({status}"
                            f"{': ' + words if words else ''})") from None
        except BaseException:  # interrupted while waiting: the child's state is unknown
            child.kill()
            self._release(None)
            raise
        self._release(child)
        if reply[0] == "ok":
            return reply[1]
        raise _rebuild(*reply[1:])

    def close(self) -> None:
        """Stop every idle child (a busy one stops when its call returns)."""
        with self._lock:
            self._closed = True
            self._alive -= len(self._idle)
            _kill_all(self._idle)
            self._lock.notify_all()


@functools.cache  # one pool per process, made on first use (its children start lazily)
def default_pool() -> ChildPool:
    """The process's pool: what ``isolate=True``, the explorer's server and the notebook
    widget use (:data:`WORKERS` children, :data:`TIMEOUT` seconds a call)."""
    return ChildPool()


def isolated(function: str, *args: Any, what: str | None = None, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)`` in a child of :func:`default_pool`.

    >>> isolated("math:factorial", 5)
    120
    """
    return default_pool().call(function, *args, what=what, **kwargs)


__all__ = ["ChildDied", "ChildPool", "ChildTimeout", "default_pool", "isolated", "serve"]
