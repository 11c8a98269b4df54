"""Files the CLI writes: atomically, never half-written, never to a directory-looking path.

:func:`write_atomic` writes to a temporary file in the target's directory, flushes it
to disk and renames it over the target only when every byte is written; a failure
(disk full, file-size limit, interrupt) leaves the old file exactly as it was and no
temporary file behind.

>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> write_atomic(d / "a.svg", b"<svg/>")
6
>>> (d / "a.svg").read_bytes(), sorted(p.name for p in d.iterdir())
(b'<svg/>', ['a.svg'])
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from ..core.errors import LayoutError


def check_output_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as a file path: refused if it ends in a separator or names a directory.

    >>> check_output_path("out/x.svg/")
    Traceback (most recent call last):
    ...
    tilelayout.core.errors.LayoutError: output path 'out/x.svg/' ends in a separator; give a file name
    """
    text = os.fspath(path)
    if not text:
        raise LayoutError("output path is empty; give a file name")
    if text.endswith(tuple(s for s in (os.sep, os.altsep) if s)):
        raise LayoutError(f"output path {text!r} ends in a separator; give a file name")
    out = Path(text)
    if out.is_dir():
        raise LayoutError(f"output path {text!r} is a directory; give a file name")
    return out


def write_atomic(path: str | os.PathLike[str], data: bytes) -> int:
    """Write ``data`` to ``path`` atomically; returns the number of bytes written.

    The file keeps the permissions of the file it replaces (new files: 0o666 minus umask).
    Errors are :class:`~tilelayout.LayoutError` naming the path.
    """
    out = check_output_path(path)
    folder = out.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise LayoutError(f"cannot write {out}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        try:
            mode = out.stat().st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, out)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise LayoutError(f"cannot write {out}: {exc.strerror or exc}; "
                              f"the old file (if any) is unchanged") from None
        raise
    return len(data)
