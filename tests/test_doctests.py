"""Every docstring example in the library runs and gives the output it shows."""

import doctest
import importlib
import pkgutil

import pytest

import tilelayout

# modules whose examples need an optional third-party tool are checked by their own tests
OPTIONAL = ("tilelayout.interop.jax", "tilelayout.interop.triton", "tilelayout.interop.tvm")


def _modules():
    for info in pkgutil.walk_packages(tilelayout.__path__, "tilelayout."):
        if not info.name.startswith(OPTIONAL):
            yield info.name


@pytest.mark.parametrize("name", sorted(_modules()))
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
