"""TIRx's error types, as :class:`~tilelayout.LayoutError` subclasses.

TIRx code catches the Python exception its layout functions raise: ``ValueError`` for a
bad constructor argument, ``AssertionError`` where TIRx's Python asserts (``pack``,
``permute_by_groups``, ``to_psum``), ``TypeError`` for a keyword it does not take and
``RuntimeError`` (TVM's ``InternalError``) for a failed check in its C++ core. Each
class here is also a ``LayoutError`` (itself a ``ValueError``), so ``except LayoutError``
keeps catching every refusal and ``except AssertionError`` in pasted TIRx code catches
the same ones TIRx raises.

>>> issubclass(TirxAssertionError, AssertionError), issubclass(TirxAssertionError, LayoutError)
(True, True)
"""

from __future__ import annotations

from ..core.errors import LayoutError, LayoutTypeError, shown


class TirxAssertionError(LayoutError, AssertionError):
    """Where TIRx's Python code asserts (``permute_by_groups``' perm, ``pack``'s
    divisibility, ``to_psum``): an ``AssertionError`` there, a LayoutError here."""


class TirxInternalError(LayoutError, RuntimeError):
    """A check TIRx makes in its C++ core (TVM's ``InternalError``, a ``RuntimeError``):
    incompatible boundaries in ``group_many``, a shape a layout cannot be grouped by."""


class TirxTypeError(LayoutTypeError):
    """A keyword or argument kind TIRx's signature does not take (a ``TypeError`` there)."""


def check_int(value: object, what: str, *, low: int | None = None) -> int:
    """``value`` as an int (a bool, a float or a text refused) at least ``low``, with
    TIRx's ``ValueError`` kind of refusal.

    >>> check_int(3, "cols", low=1)
    3
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TirxTypeError(f"{what} must be an int, got {shown(value)}")
    if value.bit_length() > 64:
        raise LayoutError(f"{what} must fit in 64 bits, got {shown(value)}")
    if low is not None and value < low:
        raise LayoutError(f"{what} must be >= {low}, got {value}")
    return value


def check_ints(values: object, what: str, *, low: int | None = None,
               length: int | None = None) -> tuple[int, ...]:
    """A list or tuple of ints (:func:`check_int` each), of ``length`` entries when given.

    >>> check_ints([64, 8], "shape", low=1, length=2)
    (64, 8)
    """
    if not isinstance(values, list | tuple):
        raise TirxTypeError(f"{what} must be a list or tuple of ints, got {shown(values)}")
    if len(values) > 64:
        raise LayoutError(f"{what} has {len(values)} entries; at most 64 are taken")
    if length is not None and len(values) != length:
        raise LayoutError(f"{what} must have {length} entries, got {len(values)}: "
                          f"{shown(values)}")
    return tuple(check_int(v, f"{what} entry", low=low) for v in values)


__all__ = ["TirxAssertionError", "TirxInternalError", "TirxTypeError", "check_int",
           "check_ints"]
