"""Answers of the explorer's API without HTTP: the routes' views run under a request's
limits, refusals put in the page's words (:mod:`.messages`), and the cache of recent
answers the server keeps.

>>> status, data = answer("POST", "/api/explain", {"layout": "S[4:2]", "index": [3]})
>>> status, data["coords"]
(200, [{'m': 6}])
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ..core import budget
from ..core.errors import BudgetError, LayoutError
from . import views
from .messages import for_page
from .request import REQUEST_LIMITS, ApiError


def budget_status(exc: BudgetError) -> int:
    """The HTTP status of a budget that ran out: 503 for time, else 413.

    >>> budget_status(BudgetError("too slow", name="seconds"))
    503
    """
    return 503 if exc.name == "seconds" else 413


def status_of(exc: ApiError) -> int:
    """The HTTP status of a refusal (a budget that ran out: :func:`budget_status`).

    >>> status_of(ApiError("too long", 413))
    413
    """
    cause = exc.__context__
    if isinstance(cause, BudgetError):
        return budget_status(cause)
    return exc.status


def page_error(exc: ApiError) -> dict[str, Any]:
    """The JSON body of a refused request, its message in the page's words.

    >>> page_error(ApiError("bad shape", field="shape"))
    {'error': 'bad shape', 'field': 'shape'}
    """
    body = exc.to_dict()
    body["error"] = for_page(body["error"])
    return body


def answer(method: str, path: str, body: Any = None, *,
           limits: budget.Limits = REQUEST_LIMITS) -> tuple[int, dict[str, Any]]:
    """One API request answered in this process, without HTTP: the server's routes, its
    per-request limits, and its refusals in the page's words, as the
    page's ``?soft=1`` requests get them (a refusal carries ``"status"``). The notebook
    widget's page asks this instead of a server.

    >>> status, data = answer("POST", "/api/explain", {"layout": "S[4:2]", "index": [3]})
    >>> status, data["coords"]
    (200, [{'m': 6}])
    >>> answer("POST", "/api/layout", {"layout": "S[4:1@lane]"})[1]["status"]
    400
    """
    handler = (views.GET if method == "GET" else views.POST).get(path)
    if handler is None:
        return 404, {"error": f"no such API route: {method} {path[:200]}", "status": 404}
    try:
        with budget.limits(limits):
            return 200, handler() if method == "GET" else handler(body)  # type: ignore[call-arg]
    except ApiError as exc:
        status = status_of(exc)
        return status, {**page_error(exc), "status": status}
    except BudgetError as exc:
        status = budget_status(exc)
        return status, {"error": str(exc)[:2000], "status": status}
    except LayoutError as exc:
        return 400, {"error": str(exc)[:2000], "status": 400}


class AnswerCache:
    """Recent 200 answers by ``(route, body bytes)``, least recently used dropped first,
    at most ``capacity`` bytes in all (an answer over a quarter of it is not kept).

    Every POST answer is a pure function of its route and body (the server's limits are
    fixed), so reloading a page or going back to a layout costs nothing.

    >>> c = AnswerCache(100)
    >>> c.put(("/a", b"{}"), b"x" * 10); c.get(("/a", b"{}"))
    b'xxxxxxxxxx'
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[tuple[str, bytes], bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: tuple[str, bytes]) -> bytes | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: tuple[str, bytes], value: bytes) -> None:
        cost = len(value) + len(key[1])
        if cost > self.capacity // 4:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._size -= len(old) + len(key[1])
            self._items[key] = value
            self._size += cost
            while self._size > self.capacity:
                k, v = self._items.popitem(last=False)
                self._size -= len(v) + len(k[1])
