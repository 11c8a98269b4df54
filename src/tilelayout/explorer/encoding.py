"""The explorer's JSON answers, encoded so one large answer does not hold the interpreter.

>>> dumps({"a": [1, 2], "b": None})
'{"a":[1,2],"b":null}'
"""

from __future__ import annotations

import json
from typing import Any

#: list length above which :func:`dumps` encodes a list in slices
_SLICE = 4096


def dumps(data: Any) -> str:
    """Compact JSON, long lists encoded a slice at a time.

    The same text as ``json.dumps(data, separators=(",", ":"))``, but a 1.5 MB answer is
    made of many short encoder calls instead of one long one, so the other workers'
    threads get the interpreter between them (one long C call would hold it throughout).

    >>> dumps({"a": list(range(5)), "b": [{"c": None}]})
    '{"a":[0,1,2,3,4],"b":[{"c":null}]}'
    """
    if isinstance(data, dict):
        return "{" + ",".join(json.dumps(str(k)) + ":" + dumps(v) for k, v in data.items()) + "}"
    if isinstance(data, list | tuple) and len(data) > _SLICE:
        return "[" + ",".join(dumps(list(data[i:i + _SLICE]))[1:-1]
                              for i in range(0, len(data), _SLICE)) + "]"
    if isinstance(data, list | tuple) and any(isinstance(v, dict | list) for v in data[:64]):
        return "[" + ",".join(dumps(v) for v in data) + "]"
    return json.dumps(data, separators=(",", ":"))


__all__ = ["dumps"]
