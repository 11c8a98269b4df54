"""Errors raised for bad input.

Every error the library raises because of what a user wrote or asked is a
:class:`LayoutError` (a ``ValueError``), so callers can catch one class and print
its message, which always says what was expected and what was given.
"""

from __future__ import annotations


def shown(value: object, width: int = 60) -> str:
    """A short ``repr`` of a user's value for an error message: never raises (a huge
    int or an odd object must not break the message), cut to ``width`` characters.

    >>> shown(10 ** 5000)
    'an int of 16610 bits'
    >>> shown("x" * 100)[-5:]
    'x...'
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"an int of {value.bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 (any repr failure: show the type)
        return f"a {type(value).__name__}"
    return text if len(text) <= width else text[: width - 3] + "..."


class LayoutError(ValueError):
    """Base class of every error raised for bad input."""


class LayoutParseError(LayoutError):
    """Malformed layout text. ``column`` is 1-based; ``text`` is the input."""

    def __init__(self, message: str, text: str = "", column: int = 0) -> None:
        self.reason = message
        self.text = text
        self.column = column
        where = f"column {column}: " if column else ""
        super().__init__(f"{where}{message}")

    def caret(self) -> str:
        """The input with a caret under the failing column (two lines)."""
        if not self.column:
            return self.text
        return f"{self.text}\n{' ' * (self.column - 1)}^"


class UnknownAxisError(LayoutError):
    """An axis name that is not in the registry."""


class ShapeError(LayoutError):
    """A logical shape that the layout does not admit, or a malformed shape."""


class IndexOutOfRangeError(LayoutError, IndexError):
    """A logical index outside the shape (never wrapped silently)."""


class SwizzleError(LayoutError):
    """Bad swizzle parameters, or a swizzle applied where it has no meaning."""


class DtypeError(LayoutError):
    """An unknown element type or swizzle mode."""


class LayoutOverflowError(LayoutError, OverflowError):
    """A vectorized evaluation whose values would not fit in int64."""


class AlgebraError(LayoutError):
    """An algebra operation whose preconditions do not hold (e.g. shapes do not divide)."""


class LayoutTypeError(LayoutError, TypeError):
    """An argument of the wrong type (e.g. ``ComposeLayout(tile, swizzle)``)."""


class UnknownAxisParseError(LayoutParseError, UnknownAxisError):
    """An unknown axis name inside layout text (carries the column)."""


class SwizzleParseError(LayoutParseError, SwizzleError):
    """A bad swizzle inside layout text (carries the column)."""


class BudgetError(LayoutError):
    """Work over a resource limit, refused before it starts (or cut off at its deadline).

    ``what`` names the work, ``cost`` and ``limit`` are in the limit's unit and ``name``
    is the :class:`~tilelayout.Limits` field that raises it (see ``docs/limits.md``).
    """

    def __init__(self, message: str, *, name: str = "", cost: float = 0, limit: float = 0
                 ) -> None:
        super().__init__(message)
        self.name = name
        self.cost = cost
        self.limit = limit


class TooManyElementsError(BudgetError, AlgebraError):
    """A query that matches more elements than the caller's ``limit`` allows (raise the
    limit, pass ``None``, or count instead); still an :class:`AlgebraError`, as before."""


class UnknownTargetError(LayoutError):
    """An unknown GPU target name or target feature (``tilelayout.core.targets``)."""
