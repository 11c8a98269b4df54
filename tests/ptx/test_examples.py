"""The docstring examples of the interpreter's modules run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("parser", "machine", "semantics", "formats", "driver", "toolchain", "counting",
           "memory")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"tests.ptx.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
