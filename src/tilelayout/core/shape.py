"""Logical shapes and indices: validation and row-major flattening."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from .errors import IndexOutOfRangeError, ShapeError, shown
from .iter import as_int

Shape = tuple[int, ...]
Index = int | Sequence[int]


def _from_array(value: object) -> object:
    """A 1-D array-like (numpy array) as a tuple, a 0-d one as its scalar; else unchanged."""
    ndim = getattr(value, "ndim", None)
    if isinstance(ndim, int) and hasattr(value, "tolist") and not isinstance(value, Sequence):
        return value.tolist() if ndim == 0 else tuple(value.tolist())  # type: ignore[attr-defined]
    return value


def int_tuple(text: str, what: str = "shape") -> tuple[int, ...]:
    """Integers written as text: ``"8,16"`` (or ``"8x16"``, ``"8×16"``, ``"8 16"``,
    ``"(8, 16)"``, ``"[8,16]"``) -> ``(8, 16)``; the one parser of "8,16" lists that the
    command line, the explorer and preset parameters share.

    An empty text (or ``"()"``) is the empty tuple; an empty entry is an error naming
    ``what`` (e.g. ``"--shape"``).

    >>> int_tuple("(8, 16)", "--shape"), int_tuple("8x16", "--shape"), int_tuple("7,", "--at")
    ((8, 16), (8, 16), (7,))
    """
    cleaned = text.strip()
    if cleaned[:1] + cleaned[-1:] in ("()", "[]"):
        cleaned = cleaned[1:-1].strip()
    if not cleaned:
        return ()
    if cleaned.endswith(","):
        cleaned = cleaned[:-1].rstrip()  # one trailing comma, as in (8,)
    if len(cleaned) > 1000 or not _INT_LIST.fullmatch(cleaned):  # "8 16 x" is not (8, 16)
        raise ShapeError(f"{what} must be comma-separated integers like 8,16; "
                         f"got {text[:60]!r}")
    return tuple(int(p) for p in _SEPARATOR.split(cleaned))


_SEPARATOR = re.compile(r"\s*[,x×]\s*|\s+")
_INT_LIST = re.compile(r"-?[0-9]{1,30}(?:(?:\s*[,x×]\s*|\s+)-?[0-9]{1,30})*")


def as_shape(shape: int | str | Sequence[int]) -> Shape:
    """A shape as a tuple of positive ints (a bare int is a 1-D shape; numpy ints and
    1-D integer arrays are accepted; text is read by :func:`int_tuple`, ``"8,16"``).
    Bools, floats and other values are refused, never truncated.

    >>> as_shape(8), as_shape([8, 16]), as_shape("8x16")
    ((8,), (8, 16), (8, 16))
    """
    shape = _from_array(shape)  # type: ignore[assignment]
    if isinstance(shape, str):
        return as_shape(int_tuple(shape, "shape"))
    if isinstance(shape, bytes | bytearray):
        raise ShapeError(f"shape must be a tuple of integers, got {shown(shape)}")
    if not isinstance(shape, Sequence):
        try:
            return (_positive(as_int(shape, "shape"), shape),)
        except Exception:
            raise ShapeError(f"shape must be a tuple of integers, got {shown(shape)}") from None
    out = []
    for s in shape:
        try:
            v = as_int(s, "shape entry")
        except Exception:
            raise ShapeError(f"shape entries must be integers, got {shown(tuple(shape))}") from None
        out.append(_positive(v, shape))
    return tuple(out)


def _positive(v: int, shape: object) -> int:
    if v < 1:
        raise ShapeError(f"shape entries must be >= 1, got {shown(shape)}")
    return v


def shape_arg(shape: int | str | Sequence[int] | None) -> Shape | None:
    """A shape argument as given to an entry point: None (the default), or
    :func:`as_shape` of it (a sequence, an int or text such as ``"8,16"``).

    >>> shape_arg(None), shape_arg("(64, 64)")
    (None, (64, 64))
    """
    return None if shape is None else as_shape(shape)


def admit(shape: int | str | Sequence[int] | None, size: int, default: Shape) -> Shape:
    """Validate that ``shape`` has ``size`` elements; ``None`` means ``default``."""
    if shape is None:
        return default
    s = as_shape(shape)
    n = math.prod(s)
    if n != size:
        raise ShapeError(
            f"shape {format_shape(s)} has {n} element{'s' if n != 1 else ''} but the layout "
            f"has {size} "
            f"(the product of its shard extents); a shape is admitted only if the counts match"
        )
    return s


def flat_index(index: Index, shape: Shape) -> int:
    """Row-major flat index of ``index`` in ``shape``; a bare int is already flat.

    A tuple, list or 1-D integer array is one entry per dimension; never wrapped.

    >>> flat_index((7, 15), (8, 16)), flat_index(127, (8, 16))
    (127, 127)
    """
    index = _from_array(index)  # type: ignore[assignment]
    if isinstance(index, str):
        raise IndexOutOfRangeError(f"an index is integers, got the string {shown(index)}")
    size = math.prod(shape)
    if not isinstance(index, Sequence):
        i = as_int(index, "index")
        if not 0 <= i < size:
            raise IndexOutOfRangeError(f"flat index {i} is outside [0, {size})")
        return i
    idx = tuple(as_int(x, "index entry") for x in index)
    if len(idx) != len(shape):
        raise IndexOutOfRangeError(
            f"index {format_shape(idx)} has {len(idx)} entries but shape "
            f"{format_shape(shape)} has {len(shape)}"
        )
    flat = 0
    for d, (x, s) in enumerate(zip(idx, shape, strict=True)):
        if not 0 <= x < s:
            raise IndexOutOfRangeError(
                f"index {format_shape(idx)} is outside shape {format_shape(shape)} "
                f"(entry {d} must be in [0, {s}))"
            )
        flat = flat * s + x
    return flat


def unflatten(flat: int, shape: Shape) -> Shape:
    """The multi-dimensional index of ``flat`` in ``shape`` (row-major)."""
    out = []
    for s in reversed(shape):
        flat, r = divmod(flat, s)
        out.append(r)
    return tuple(reversed(out))


def format_shape(shape: Sequence[int]) -> str:
    """``(8, 16)``-style text for a shape or index."""
    return "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
