"""Every docstring example in the library runs and gives the output it shows.

Modules whose examples need an optional third-party tool run them too: the test set-up
installs every tool, so a missing one is a skip (and ``TILELAYOUT_STRICT=1`` fails it).
"""

import doctest
import importlib
import pkgutil

import pytest

import tilelayout

# module -> the optional tool its examples call
NEEDS = {"tilelayout.interop.jax": "jax", "tilelayout.interop.triton": "triton",
         "tilelayout.interop.tvm": "tvm_tirx", "tilelayout.interop.cute": "pycute",
         "tilelayout.explorer.widget": "anywidget"}


def _modules():
    for info in pkgutil.walk_packages(tilelayout.__path__, "tilelayout."):
        yield info.name


@pytest.mark.parametrize("name", sorted(_modules()))
def test_docstring_examples(name):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name], reason=f"{name}'s examples need {NEEDS[name]}")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
    if name in NEEDS:
        assert result.attempted > 0, f"{name} shows no runnable example"
