"""docs/data-movement.md: its Python examples print what the page says, and its
`tilelayout smem` transcript is what the command prints."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "data-movement.md").read_text()


def test_python_examples():
    blocks = re.findall(r"```python\n(.*?)```", PAGE, re.S)
    assert len(blocks) >= 4
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(
        optionflags=doctest.NORMALIZE_WHITESPACE)
    globs: dict = {}
    for k, block in enumerate(blocks):   # one namespace for the page, as a reader has
        test = parser.get_doctest(block, globs, f"block{k}", "data-movement.md", 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    assert runner.failures == 0


def test_cli_transcript():
    block = PAGE.split("$ tilelayout smem ")[1].split("```")[0]
    command, *expected = block.strip("\n").splitlines()
    args = re.findall(r'"[^"]*"|\S+', command)
    out = subprocess.run([sys.executable, "-m", "tilelayout.cli", "smem",
                          *(a.strip('"') for a in args)], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == expected


def test_emitted_code_blocks_are_what_the_plans_write():
    import tilelayout as tl

    found = re.findall(r"<!-- code: (\w+) (\w+) = (.*?) -->\n```cuda\n(.*?)```", PAGE, re.S)
    assert len(found) >= 6
    for part, name, expr, block in found:
        unit = eval(expr, {"tl": tl}).code(name=name)  # noqa: S307 (the page's own text)
        if part == "unit":
            assert block == unit, name
        elif part == "function":
            assert block in unit and block.startswith("__device__ __forceinline__ void"), name
            assert block.rstrip().endswith("}"), name
        else:  # an excerpt: its parts between "// ..." lines, in order
            at = 0
            for chunk in re.split(r"\n *// \.\.\..*\n?", block):
                if chunk.strip():
                    at = unit.index(chunk, at) + len(chunk)
