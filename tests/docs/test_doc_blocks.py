"""Every runnable code block of README.md and docs/ runs as written and prints what the page
shows (see :mod:`tests.docs.doc_blocks` for the conventions), and the checker fails on a
deliberately broken page."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.doc_blocks import blocks, run

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
ALL = [b for page in PAGES for b in blocks(page)]
#: at most this many blocks may be marked ``<!-- not run: ... -->``
MAX_NOT_RUN = 4


def _id(block) -> str:
    return f"{block.path.relative_to(ROOT)}:{block.line}"


@pytest.mark.parametrize("block", [b for b in ALL if not b.skip], ids=_id)
def test_block_runs_as_written(block, tmp_path):
    problem = run(block, tmp_path)
    assert problem is None, f"{_id(block)} ({block.kind}) does not do what the page shows:\n{problem}"


def test_the_blocks_that_do_not_run_are_few_and_say_why():
    skipped = [b for b in ALL if b.skip]
    assert len(skipped) <= MAX_NOT_RUN, [_id(b) for b in skipped]
    assert all(len(b.skip.split()) >= 3 for b in skipped), [(_id(b), b.skip) for b in skipped]
    assert len(ALL) - len(skipped) >= 35  # the finder still finds the pages' blocks


PAGE = """# A page

<!-- not run: it would start a server -->
```bash
tilelayout serve
```

```python
import tilelayout as tl
print(tl.parse("S[4:1]"))
```

```
S[4:1]
```

```python
>>> import tilelayout as tl
>>> tl.parse("S[4:1]").apply(3)
({m: 3},)
```

```console
$ tilelayout map "S[2:1]"
...
(1,)        1
```
"""


def test_the_checker_passes_a_correct_page_and_fails_each_broken_copy(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE)
    found = blocks(page)
    assert [(b.kind, b.skip) for b in found] == [
        ("shell", "it would start a server"), ("python", None), ("doctest", None),
        ("console", None)]
    assert found[1].output == "S[4:1]\n"
    assert [run(b, tmp_path) for b in found[1:]] == [None, None, None]
    broken = {
        "a name the block never defines": PAGE.replace("import tilelayout as tl\nprint",
                                                       "print"),
        "a different printed output": PAGE.replace("```\nS[4:1]\n```", "```\nS[4:2]\n```"),
        "a wrong doctest result": PAGE.replace("({m: 3},)", "({m: 4},)"),
        "a failing command": PAGE.replace('map "S[2:1]"', 'map "S[2:1@nope]"'),
        "a different command output": PAGE.replace("(1,)        1", "(1,)        7"),
    }
    for what, text in broken.items():
        page.write_text(text)
        problems = [run(b, tmp_path) for b in blocks(page) if not b.skip]
        assert any(p is not None for p in problems), what
