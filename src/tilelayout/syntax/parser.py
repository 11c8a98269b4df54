"""Text -> layouts (docs/model.md, "Text form"), with errors that name the column and what was expected.

>>> import tilelayout as tl
>>> tl.parse("S[(8,2):(4@laneid,1)] + R[2:4@warpid] + -3@warpid").offset["warpid"]
-3
>>> tl.parse("S[(8,2):(4@lane,1)]")
Traceback (most recent call last):
...
tilelayout.core.errors.UnknownAxisParseError: column 12: unknown axis 'lane'; did you mean ...
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..core import budget
from ..core.axes import AxesSpec, AxisTable, table_of
from ..core.compose import AnySwizzle, ComposeLayout
from ..core.errors import (
    LayoutError,
    LayoutParseError,
    SwizzleParseError,
    UnknownAxisParseError,
)
from ..core.iter import Iter
from ..core.swizzle import Swizzle
from ..core.tile import TileLayout
from ..core.xor_swizzle import XorSwizzle

_TOKEN = re.compile(
    r"""
    (?P<int>-?[0-9]+)
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<punct>[\[\]():,@+\-])
  | (?P<ws>\s+)
  | (?P<bad>.)
    """,
    re.VERBOSE | re.DOTALL,
)


class Token(NamedTuple):
    kind: str  # "int", "name", "punct", "end"
    text: str
    column: int  # 1-based

    def describe(self) -> str:
        return "end of input" if self.kind == "end" else f"'{self.text}'"


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text`` (one regex scan, linear time), ending with an ``end`` token."""
    tokens: list[Token] = []
    append = tokens.append
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "ws":
            continue
        if kind == "bad":
            pos = match.start()
            raise LayoutParseError(f"unexpected character '{text[pos]}'", text, pos + 1)
        append(Token(kind, match.group(), match.start() + 1))  # type: ignore[arg-type]
    append(Token("end", "", len(text) + 1))
    return tokens


#: digits of the longest integer literal (2**256 has 78)
_MAX_DIGITS = 78


class _Parser:
    def __init__(self, text: str, axes: AxisTable) -> None:
        self.text = text
        self.axes = axes  # the names the text may use
        self.tokens = tokenize(text)
        self.pos = 0

    # -- token helpers ------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def error(self, expected: str, tok: Token | None = None) -> LayoutParseError:
        tok = tok or self.tok
        return LayoutParseError(f"expected {expected}, found {tok.describe()}", self.text, tok.column)

    def take(self, text: str, expected: str | None = None) -> Token:
        if self.tok.text != text or self.tok.kind == "end":
            raise self.error(expected or f"'{text}'")
        tok = self.tok
        self.pos += 1
        return tok

    def at(self, text: str) -> bool:
        return self.tok.kind != "end" and self.tok.text == text

    def int_(self, what: str) -> int:
        if self.tok.kind != "int":
            raise self.error(what)
        digits = len(self.tok.text.lstrip("-"))
        if digits > _MAX_DIGITS:  # checked before int(): no 4,300-digit limit, no slow parse
            raise LayoutParseError(
                f"integer with {digits} digits is too long (layouts hold integers below "
                f"2**{budget.MAX_INT_BITS}, at most {_MAX_DIGITS} digits)", self.text,
                self.tok.column,
            )
        value = int(self.tok.text)
        self.pos += 1
        return value

    # -- grammar ------------------------------------------------------------------
    def layout(self) -> TileLayout | ComposeLayout:
        if self.tok.kind == "name" and self.tok.text == "ComposeLayout":
            result: TileLayout | ComposeLayout = self.compose()
        else:
            result = self.tile()
        if self.tok.kind != "end":
            if isinstance(result, ComposeLayout) and self.tok.text in ("+", "-"):
                raise LayoutParseError(
                    "nothing may follow ComposeLayout(...); put replicas and offsets on the "
                    "tile inside it: ComposeLayout(Swizzle(..), S[...] + R[...] + 5)",
                    self.text, self.tok.column,
                )
            raise self.error("'+' and another term, or end of input")
        return result

    def compose(self) -> ComposeLayout:
        self.pos += 1
        self.take("(", "'(' after ComposeLayout")
        swizzle = self.swizzle()
        self.take(",", "',' between the swizzle and the tile layout")
        tile_tok = self.tok
        tile = self.tile()
        self.take(")", "')' closing ComposeLayout(")
        try:
            return ComposeLayout(swizzle, tile)
        except LayoutError as exc:
            raise SwizzleParseError(str(exc), self.text, tile_tok.column) from None

    def swizzle(self) -> AnySwizzle:
        start = self.tok
        if self.tok.kind == "name" and self.tok.text == "XorSwizzle":
            return self.xor_swizzle()
        if not (self.tok.kind == "name" and self.tok.text == "Swizzle"):
            raise self.error("'Swizzle(M, B, S)' or 'XorSwizzle(image, ...)'")
        self.pos += 1
        self.take("(", "'(' after Swizzle")
        params = [self.int_("an integer M (per_element)")]
        self.take(",", "',' after M")
        params.append(self.int_("an integer B (swizzle_len)"))
        self.take(",", "',' after B")
        params.append(self.int_("an integer S (atom_len)"))
        self.take(")", "')' closing Swizzle(")
        try:
            return Swizzle(*params)
        except LayoutError as exc:
            raise SwizzleParseError(str(exc), self.text, start.column) from None

    def xor_swizzle(self) -> XorSwizzle:
        start = self.tok
        self.pos += 1
        self.take("(", "'(' after XorSwizzle")
        images: list[int] = []
        while not self.at(")"):
            if images:
                self.take(",", "',' or ')' after an XorSwizzle image")
            images.append(self.int_(f"an integer image of address bit {len(images)}"))
        self.take(")", "')' closing XorSwizzle(")
        try:
            return XorSwizzle(images)
        except LayoutError as exc:
            raise SwizzleParseError(str(exc), self.text, start.column) from None

    def tile(self) -> TileLayout:
        if not (self.tok.kind == "name" and self.tok.text == "S"):
            raise self.error("'S[' starting the shard")
        self.pos += 1
        self.take("[", "'[' after S")
        shard = self.iters()
        self.take("]", "']' closing S[")
        replica: list[Iter] | None = None
        offset: dict[str, int] = {}
        while True:
            if self.at("+"):
                self.pos += 1
                sign = 1
            elif self.at("-"):
                self.pos += 1
                sign = -1
            elif self.tok.kind == "int" and self.tok.text.startswith("-"):
                sign = 1  # "S[4] -3" lexes as the integer -3: a negative offset
            else:
                break
            if self.tok.kind == "name" and self.tok.text == "R":
                if sign < 0:
                    raise self.error("'+' before R[ (a replica cannot be subtracted)")
                r_tok = self.tok
                if replica is not None:
                    raise LayoutParseError("a layout has at most one R[...]", self.text, r_tok.column)
                self.pos += 1
                self.take("[", "'[' after R")
                replica = self.iters()
                self.take("]", "']' closing R[")
            elif self.tok.kind == "name" and self.tok.text == "S":
                raise LayoutParseError("a layout has at most one S[...]", self.text, self.tok.column)
            elif self.tok.kind == "int":
                value = sign * self.int_("an offset")
                axis = self.axis_suffix()
                offset[axis] = offset.get(axis, 0) + value
            else:
                raise self.error("'R[', or an offset such as 5 or 5@warpid")
        return TileLayout(shard, replica or (), offset)

    def axis_suffix(self) -> str:
        if not self.at("@"):
            return "m"
        self.pos += 1
        tok = self.tok
        if tok.kind != "name":
            raise self.error("an axis name after '@'")
        if tok.text not in self.axes:
            raise UnknownAxisParseError(self.axes.unknown_message(tok.text), self.text,
                                        tok.column)
        self.pos += 1
        return tok.text

    def int_list(self, what: str) -> tuple[list[int], list[str], Token, list[int]]:
        """A single INT[@AXIS] or a parenthesized list; returns values, axes, the start
        token and the token position of each value."""
        start = self.tok
        values: list[int] = []
        axes: list[str] = []
        toks: list[int] = []
        if self.at("("):
            self.pos += 1
            if self.at(")"):
                self.pos += 1
                return values, axes, start, toks
            while True:
                toks.append(self.pos)
                values.append(self.int_(what))
                axes.append(self.axis_suffix())
                if self.at(","):
                    self.pos += 1
                    continue
                self.take(")", f"',' or ')' in the list of {what}s")
                return values, axes, start, toks
        toks.append(self.pos)
        values.append(self.int_(f"{what}, or '(' starting a list"))
        axes.append(self.axis_suffix())
        return values, axes, start, toks

    def iters(self) -> list[Iter]:
        extents, _, _, positions = self.int_list("an extent")
        for e, k in zip(extents, positions, strict=True):
            column = self.tokens[k].column
            if self.tokens[k + 1].text == "@":
                raise LayoutParseError(
                    "extents carry no axis (write the axis on the stride: 8:4@laneid)",
                    self.text,
                    column,
                )
            if e < 1:
                raise LayoutParseError(f"extent must be >= 1, got {e}", self.text, column)
        if self.at(":"):
            self.pos += 1
            strides, axes, st_tok, _ = self.int_list("a stride")
            if len(strides) != len(extents):
                raise LayoutParseError(
                    f"{len(extents)} extent{'s' if len(extents) != 1 else ''} but "
                    f"{len(strides)} stride{'s' if len(strides) != 1 else ''}",
                    self.text,
                    st_tok.column,
                )
        else:  # no strides: row-major compact on m (suffix products, linear time)
            strides = [1] * len(extents)
            running = 1
            for k in range(len(extents) - 1, -1, -1):
                strides[k] = running
                running *= extents[k]
                if running.bit_length() > budget.MAX_INT_BITS:
                    raise LayoutParseError(
                        f"the extents multiply to 2**{running.bit_length() - 1} or more; "
                        f"layouts hold integers below 2**{budget.MAX_INT_BITS}",
                        self.text, self.tokens[positions[k]].column)
            axes = ["m"] * len(extents)
        return [Iter(e, s, a) for e, s, a in zip(extents, strides, axes, strict=True)]


def parse(text: str, *, axes: AxesSpec = None,
          limits: budget.Limits | None = None) -> TileLayout | ComposeLayout:
    """Parse the text form (docs/model.md) into a :class:`TileLayout` or
    :class:`ComposeLayout`.

    Axis names must be axes of ``axes``: the table in force by default
    (:func:`tilelayout.axes`), a table, or declarations added to the table in force
    (names of device axes, :class:`~tilelayout.Axis` values, a mapping name -> extent).
    Linear time in the length of ``text``; text longer than the ``text`` limit (256 KiB
    by default, see :class:`~tilelayout.Limits`) is refused before it is read.

    >>> import tilelayout as tl
    >>> str(tl.parse("S[ (2,128,112) : (112@TCol, 1@TLane, 1@TCol) ]"))
    'S[(2,128,112):(112@TCol,1@TLane,1@TCol)]'
    >>> tl.parse("S[(2,4):(1@data,1)]", axes=["data"])
    parse('S[(2,4):(1@data,1)]', axes=['data'])
    """
    if not isinstance(text, str):
        raise LayoutError(f"layout text must be a string, got {type(text).__name__}")
    with budget.using(limits):
        budget.check("the layout text has", len(text), "text")
    if not text.strip():
        raise LayoutParseError("empty layout; expected 'S[...]' or 'ComposeLayout(...)'", text, 1)
    return _Parser(text, table_of(axes)).layout()


def parse_tile(text: str, *, axes: AxesSpec = None) -> TileLayout:
    """Parse text that must be a plain :class:`TileLayout` (no swizzle).

    >>> parse_tile("S[8:4@laneid]").shard
    (Iter(extent=8, stride=4, axis='laneid'),)
    """
    layout = parse(text, axes=axes)
    if not isinstance(layout, TileLayout):
        raise LayoutError(f"expected a TileLayout, got a ComposeLayout: {text}")
    return layout
