"""The explorer's JSON encoder: the same text as json.dumps, long lists in slices."""

from __future__ import annotations

import json

from tilelayout.explorer.encoding import dumps


def test_the_same_text_as_json_dumps():
    data = {"a": list(range(10_000)), "b": [{"c": None, "d": [1.5, "x"]}] * 100, "e": "é"}
    assert dumps(data) == json.dumps(data, separators=(",", ":"))
    assert dumps([]) == "[]" and dumps({}) == "{}"
