"""``tilelayout map LAYOUT [--shape 8,16] [--json]``: every element -> its coordinates."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterator

import numpy as np

from ..core.shape import format_shape
from ..eval.forward import map_all
from .common import add_command, add_layout_args, layout_args

_CHUNK = 1 << 16


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``map`` subcommand to the CLI's subparsers."""
    p = add_command(sub, "map", run=run, json="one JSON object on stdout",
                    help="every element -> its coordinates",
                    description="Print every logical element and the set of its coordinates.")
    add_layout_args(p)
    p.add_argument("--progress", action="store_true",
                   help="report progress on stderr (default: only for big outputs to a terminal)")


_PROGRESS_MIN = 1 << 18  # elements; smaller maps finish before a progress line helps


def _progress(args: argparse.Namespace, shape: tuple[int, ...]) -> Callable[[int, int], None] | None:
    """A ``(done, total)`` callback printing progress to stderr, or None when not wanted."""
    n = math.prod(shape)
    if not (args.progress or (sys.stderr.isatty() and n >= _PROGRESS_MIN)):
        return None

    def report(done: int, total: int) -> None:
        end = "\n" if done >= total else ""
        sys.stderr.write(f"\r[map] {done:,} / {total:,} elements ({100 * done // total}%){end}")
        sys.stderr.flush()

    return report


def _rows(
    arrays: dict[str, np.ndarray], shape: tuple[int, ...],
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[tuple[tuple[int, ...], list[tuple[int, ...]]]]:
    """Yield (index tuple, sorted list of coordinate tuples), streaming in chunks.

    ``arrays`` is ``map_all(layout, shape)``, evaluated before anything is printed so
    that an error leaves stdout empty (never half a JSON document).
    """
    axes = list(arrays)
    n = math.prod(shape)
    r = next(iter(arrays.values())).shape[-1] if arrays else 1
    flat = {a: v.reshape(n, r) for a, v in arrays.items()}
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        block = np.stack([flat[a][start:stop] for a in axes], axis=-1) if axes else None
        idx = np.stack(np.unravel_index(np.arange(start, stop), shape), axis=-1) if shape else None
        for i in range(stop - start):
            index = tuple(int(x) for x in idx[i]) if idx is not None else ()
            coords = sorted(set(map(tuple, block[i].tolist()))) if block is not None else [()]
            yield index, coords
        if progress:
            progress(stop, n)


def run(args: argparse.Namespace) -> int:
    """Print every element of the layout and its coordinates (a table, or JSON)."""
    named = layout_args(args)
    layout, shape = named.layout, named.shape
    axes = list(layout.axes)
    arrays = map_all(layout, shape)
    out = sys.stdout
    if args.json:
        out.write(json.dumps({"layout": str(layout), "shape": list(shape), "axes": axes})[:-1])
        out.write(', "elements": [')
        for k, (index, coords) in enumerate(_rows(arrays, shape, _progress(args, shape))):
            item = {"index": list(index), "coords": [dict(zip(axes, c, strict=True)) for c in coords]}
            out.write(("," if k else "") + json.dumps(item))
        out.write("]}\n")
        return 0
    out.write(f"layout {layout}\nshape  {format_shape(shape)}\n")
    # one line per coordinate; replicas of an element continue on lines without an index
    index_width = max(len("index"), len(format_shape(shape)) + 1)
    widths = [max(len(a), 6) for a in axes]
    header = "  ".join(f"{a:>{w}}" for a, w in zip(axes, widths, strict=True))
    out.write(f"{'index':<{index_width}}  {header}\n")
    for index, coords in _rows(arrays, shape, _progress(args, shape)):
        for k, c in enumerate(coords):
            label = format_shape(index) if k == 0 else ""
            cells = "  ".join(f"{v:>{w}}" for v, w in zip(c, widths, strict=True))
            out.write(f"{label:<{index_width}}  {cells}\n")
    return 0
