"""A griffe extension for the docs site (mkdocs.yml loads it): the docstring examples,
``>>>`` runs and the output under them, become ``pycon`` code blocks, so that Markdown
shows them as code instead of quoting them and reading ``x[:, 0]`` as a link; Sphinx
roles such as ``:func:`name``` become plain code."""

from __future__ import annotations

import re
from typing import Any

import griffe

#: Sphinx cross-reference roles (``:func:`x```), shown as code on the site
ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc|obj|const):`~?([^`]+)`")


def fence(text: str) -> str:
    """Wrap every doctest run of ``text`` (up to the next blank line) in a pycon fence."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    inside = False
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            inside = not inside
        if inside or not line.lstrip().startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the examples of every object's docstring once the tree is loaded."""

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        _fence_docstring(obj)

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        _fence_docstring(pkg)  # the package root is not an on_object event


def _fence_docstring(obj: griffe.Object) -> None:
    if obj.docstring is not None and "```pycon" not in obj.docstring.value:
        obj.docstring.value = ROLE.sub(r"`\1`", fence(obj.docstring.value))
