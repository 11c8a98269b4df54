"""Find the runnable code blocks of Markdown pages and run each as a reader would.

A fenced block is run when its info string is ``python``, ``pycon``, ``bash``, ``sh``,
``shell`` or ``console``, or when it has none and starts with a ``$ `` prompt:

* ``python`` whose first line starts with ``>>>``, and ``pycon``: a doctest session, in a
  fresh interpreter; every shown result is compared.
* other ``python``: a script, ``python block.py`` in a fresh interpreter.
* ``bash`` / ``sh`` / ``shell``: a script, ``bash -e -o pipefail -c BLOCK`` in a fresh shell.
* ``console`` and unlabelled ``$ `` blocks: each ``$ command`` (continued by lines ending
  in ``\\``) runs in one fresh shell on a terminal (a pseudo-terminal, as a user types it),
  and what it prints is compared with the lines shown under it.

A script block's output is compared when an unlabelled (or ``text``) fenced block follows
it with nothing but blank lines between: that block is what the script prints. In every
comparison ``...`` stands for any text (doctest's ELLIPSIS) and trailing spaces are
ignored. A block that must not run carries the visible marker
``<!-- not run: REASON -->`` on the line just above its fence.

Every block runs in its own temporary directory, with this interpreter's ``bin`` first on
``PATH`` (so ``tilelayout`` and ``python`` are the ones under test).
"""

from __future__ import annotations

import doctest
import os
import pty
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

RUN_LANGS = {"python", "pycon", "bash", "sh", "shell", "console"}
SKIP = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^\n`]*)$")
TIMEOUT = 300


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, how it runs, and the output shown for it."""

    path: Path
    line: int
    lang: str
    text: str
    output: str | None = None
    skip: str | None = None

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def kind(self) -> str:
        if self.lang == "pycon" or (self.lang == "python" and self.text.lstrip().startswith(">>>")):
            return "doctest"
        if self.lang == "console" or (self.lang == "" and self.text.startswith("$ ")):
            return "console"
        return "python" if self.lang == "python" else "shell"


def _fences(text: str) -> list[tuple[int, str, str, int]]:
    """``(first line number, info, body, index of the line after the closing fence)``."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, start = m["fence"], i
        j = i + 1
        while j < len(lines) and not re.match(rf"^ {{0,3}}{fence[0]}{{{len(fence)},}}\s*$", lines[j]):
            j += 1
        body = "\n".join(line[len(m["indent"]):] for line in lines[start + 1:j])
        out.append((start + 1, m["info"].strip(), body + "\n" if body else "", j + 1))
        i = j + 1
    return out


def blocks(path: Path) -> list[Block]:
    """The runnable blocks of one Markdown page, each with its shown output (if any)."""
    text = path.read_text()
    lines = text.split("\n")
    fences = _fences(text)
    found = []
    for n, (line, info, body, after) in enumerate(fences):
        lang = info.split()[0] if info else ""
        if lang not in RUN_LANGS and not (lang == "" and body.startswith("$ ")):
            continue
        above = lines[line - 2] if line >= 2 else ""
        skip = SKIP.match(above.strip())
        output = None
        if lang not in ("console", "pycon") and not body.lstrip().startswith((">>>", "$ ")) \
                and n + 1 < len(fences):
            nxt_line, nxt_info, nxt_body, _ = fences[n + 1]
            between = lines[after:nxt_line - 1]
            if all(not s.strip() for s in between) and nxt_info in ("", "text") \
                    and not nxt_body.startswith("$ "):
                output = nxt_body
        found.append(Block(path, line, lang, body, output, skip[1] if skip else None))
    return found


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env.setdefault("PYTHONPATH", "")
    env["PYTHONHASHSEED"] = "0"
    env.pop("COLUMNS", None)
    return env


def _matches(want: str, got: str) -> bool:
    norm = lambda s: "\n".join(line.rstrip() for line in s.strip("\n").split("\n")) + "\n"  # noqa: E731
    return doctest.OutputChecker().check_output(norm(want), norm(got), doctest.ELLIPSIS)


def _on_a_terminal(script: str, cwd: Path) -> str:
    """What ``bash -c script`` prints on a terminal (stdout and stderr, as a user sees them)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(["bash", "-c", script], stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=slave, cwd=cwd, env=_env(), close_fds=True)
    os.close(slave)
    chunks = []
    try:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child side closed
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
        proc.wait(timeout=TIMEOUT)
    return b"".join(chunks).decode(errors="replace").replace("\r\n", "\n")


def _console(text: str) -> list[tuple[str, str]]:
    """``(command, shown output)`` pairs of a prompt session."""
    out: list[tuple[str, str]] = []
    lines = text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise AssertionError(f"expected a '$ ' prompt, got {lines[i]!r}")
        cmd = [lines[i][2:]]
        while cmd[-1].endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd.append(lines[i])
        i += 1
        shown = []
        while i < len(lines) and not lines[i].startswith("$ "):
            shown.append(lines[i])
            i += 1
        out.append(("\n".join(cmd), "\n".join(shown)))
    return out


_DOCTEST_DRIVER = """
import doctest, sys
text = sys.stdin.read()
test = doctest.DocTestParser().get_doctest(text, {}, sys.argv[1], sys.argv[1], 0)
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
runner.run(test)
sys.exit(1 if runner.failures else 0)
"""


def run(block: Block, cwd: Path) -> str | None:
    """Run one block; ``None`` when it does what the page says, else why not."""
    env = _env()
    kind = block.kind
    if kind == "console":
        for cmd, shown in _console(block.text):
            got = _on_a_terminal(cmd, cwd)
            if not _matches(shown, got) and shown.strip():
                return f"$ {cmd}\n--- shown:\n{shown}\n--- printed:\n{got}"
            if not shown.strip() and got.strip():
                return f"$ {cmd}\n--- shown nothing, printed:\n{got}"
        return None
    if kind == "doctest":
        done = subprocess.run([sys.executable, "-c", _DOCTEST_DRIVER, block.where], input=block.text,
                              capture_output=True, text=True, cwd=cwd, env=env, timeout=TIMEOUT)
        return None if done.returncode == 0 else done.stdout[-4000:] + done.stderr[-4000:]
    if kind == "python":  # from a file: some tools (triton.jit) read their source back
        script = cwd / "block.py"
        script.write_text(block.text)
        cmd = [sys.executable, str(script)]
    else:
        cmd = ["bash", "-e", "-o", "pipefail", "-c", block.text]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        return f"exit status {done.returncode}\n{done.stderr[-4000:]}"
    if block.output is not None and not _matches(block.output, done.stdout):
        return f"--- shown:\n{block.output}\n--- printed:\n{done.stdout}"
    return None
