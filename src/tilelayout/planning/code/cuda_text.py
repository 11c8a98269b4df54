"""CUDA C++ text of the emitted code: a :class:`Writer` that collects statements, named
constants and the helpers they need, and the spelling of every value that depends on
the thread (:mod:`.thread_values`) as an expression of ``tid`` / ``lane`` / ``warp``.

>>> import numpy as np
>>> from .thread_values import fit, fit_condition
>>> w = Writer("convert")
>>> tid = np.arange(128)
>>> w.value(fit(tid % 32 % 4 * 2 + tid % 32 // 4 * 36 + tid // 32 * 1152), "row")
'lane % 4 * 2 + lane / 4 * 36 + warp * 1152'
>>> w.condition(fit_condition(tid % 4 == 0))
'(lane & 0x3) == 0'
"""

from __future__ import annotations

import re

from .thread_values import Condition, Form

WARP_BITS = 5
FULL_MASK = "0xffffffffu"


class Writer:
    """The statements of one function, its named constants (``constexpr`` arrays in the
    body, tables in the unit's ``NAME_detail`` namespace) and the helpers it uses; a
    working value of the emitter, filled statement by statement."""

    def __init__(self, name: str, barrier: int = 1) -> None:
        self.name = name
        #: the named barrier the code synchronizes its threads with (``bar.sync``)
        self.barrier = barrier
        self.body: list[str] = []
        self.constants: list[str] = []
        self.tables: list[str] = []
        self.helpers: set[str] = set()
        self.headers: set[str] = set()
        self._taken: set[str] = set()
        self._constants: dict[str, str] = {}
        self.level = 1
        #: data-movement instructions the code issues per warp, by kind (its own count)
        self.counts: dict[str, int] = {}

    def fresh(self, base: str) -> str:
        """A new identifier starting with ``base``."""
        name, k = base, 1
        while name in self._taken:
            k += 1
            name = f"{base}{k}"
        self._taken.add(name)
        return name

    def emit(self, text: str = "") -> None:
        for line in text.splitlines() or [""]:
            self.body.append(("  " * self.level + line) if line else "")

    def comment(self, text: str) -> None:
        self.emit("// " + text)

    def open(self, head: str) -> None:
        """Start a block (``head`` ends with ``{``)."""
        self.emit(head)
        self.level += 1

    def close(self) -> None:
        self.level -= 1
        self.emit("}")

    def count(self, kind: str, n: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n

    def constant(self, base: str, values: list[int] | tuple[int, ...], what: str,
                 ctype: str = "uint32_t") -> str:
        """A named ``constexpr`` array in the function body (one comment saying what it
        holds); returns its name."""
        text = f"{ctype} [{len(values)}] = {{{', '.join(_hex(v) for v in values)}}};"
        if text in self._constants:  # the same constants again: one name
            return self._constants[text]
        name = self.fresh(base)
        self._constants[text] = name
        self.constants.append(f"// {what}")
        self.constants.append(f"constexpr {ctype} {name}[{len(values)}] = "
                              f"{{{', '.join(_hex(v) for v in values)}}};")
        return name

    def integer(self, base: str, value: int, what: str) -> str:
        """A named ``constexpr int`` in the function body; returns its name."""
        key = f"int {base} {value}"
        if key not in self._constants:
            name = self.fresh(base)
            self._constants[key] = name
            self.constants.append(f"constexpr int {name} = {value};  // {what}")
        return self._constants[key]

    def table(self, base: str, values: list[int] | tuple[int, ...], what: str) -> str:
        """A named constant table in the unit's detail namespace (read with a thread-
        dependent index: ``__constant__`` memory); returns its qualified name."""
        ctype = "uint16_t" if max(values, default=0) < 1 << 16 else "uint32_t"
        key = f"table {ctype} {tuple(values)}"
        if key in self._constants:  # the same table again: one name
            return self._constants[key]
        name = self.fresh(base)
        self._constants[key] = f"{self.name}_detail::{name}"
        self.tables.append(f"// {what}")
        self.tables.append(f"__constant__ {ctype} {name}[{len(values)}] = "
                           f"{{{', '.join(str(v) for v in values)}}};")
        return f"{self.name}_detail::{name}"

    def named(self, expr: str, base: str, what: str) -> str:
        """``expr`` (a value of the thread) as a named ``const`` computed once at the top
        of the function; the same expression again gets the same name."""
        if re.fullmatch(r"\w+|0x[0-9a-f]+u?|\d+u?", expr):
            return expr
        key = f"named {expr}"
        if key not in self._constants:
            name = self.fresh(base)
            self._constants[key] = name
            self.constants.append(f"const uint32_t {name} = {expr};  // {what}")
        return self._constants[key]

    def uses(self, word: str) -> bool:
        """Whether the body (or its constants) names ``word``."""
        pattern = re.compile(rf"\b{re.escape(word)}\b")
        return any(pattern.search(line) for line in self.body + self.constants)

    # -- values of the thread ---------------------------------------------------------

    def value(self, f: Form, what: str) -> str:
        """``f`` as a C++ expression (named constants declared as needed)."""
        if f.kind == "const":
            return _hex(f.base) + "u"
        if f.kind == "choice":
            assert f.condition is not None
            return f"({self.condition(f.condition)} ? {_hex(f.bits[1])}u : {_hex(f.bits[0])}u)"
        if f.kind == "add":
            return _additive(f)
        if f.kind == "xor" and _permutes_bits(f.bits):
            return _bitfield(f)
        if f.kind == "xor":
            self.helpers.add("xor_bits")
            bits = list(f.bits)
            while bits and not bits[-1]:
                bits.pop()
            name = self.constant(f"k{_camel(what)}Xor", bits,
                                 f"{what}: an XOR of one constant per set bit of the thread id")
            base = f" ^ {_hex(f.base)}u" if f.base else ""
            return f"({self.name}_detail::xor_bits(tid, {name}){base})"
        name = self.table(f"k{_camel(what)}", f.table, f"{what}, per thread")
        return f"{name}[tid]"

    def condition(self, c: Condition) -> str:
        """``c`` as a C++ boolean expression."""
        if c.kind in ("true", "false"):
            return c.kind
        if c.kind == "table":
            per_warp = [sum(c.table[w * 32 + i] << i for i in range(min(32, len(c.table) - w * 32)))
                        for w in range(-(-len(c.table) // 32))]
            if len(per_warp) == 1:
                return f"(({_hex(per_warp[0])}u >> lane) & 1)"
            name = self.table("kThreads", per_warp, "which lanes of each warp take part")
            return f"(({name}[warp] >> lane) & 1)"
        var, mask = _variable(c.mask)
        if c.kind == "cube":
            if bin(mask).count("1") == 1 and var:
                bit = mask.bit_length() - 1
                test = f"({var} >> {bit} & 1)" if bit else f"({var} & 1)"
                return test if c.value else f"!{test}"
            value = c.value >> (WARP_BITS if var == "warp" else 0)
            return f"({var or 'tid'} & {hex(mask)}) == {_hex(value)}"
        if bin(mask).count("1") == 1 and var:
            bit = mask.bit_length() - 1
            test = f"({var} >> {bit} & 1)" if bit else f"({var} & 1)"
            return test if c.value else f"!{test}"
        return f"(__popc({var or 'tid'} & {hex(mask)}) & 1) == {c.value}"


def _variable(mask: int) -> tuple[str, int]:
    """The variable a thread-id mask reads (``lane``, ``warp`` or ``tid``) and the mask
    in its terms."""
    if mask < 1 << WARP_BITS:
        return "lane", mask
    if not mask & ((1 << WARP_BITS) - 1):
        return "warp", mask >> WARP_BITS
    return "", mask


def _hex(v: int) -> str:
    return hex(v) if v >= 16 else str(v)


def _camel(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", text))


def _permutes_bits(bits: tuple[int, ...]) -> bool:
    """Every thread-id bit moves one distinct bit (or none): a bit permutation."""
    ones = [c for c in bits if c]
    return all(c & (c - 1) == 0 for c in ones) and len(set(ones)) == len(ones)


def _bitfield(f: Form) -> str:
    """A bit permutation of the thread id (XOR a constant) as shifted fields:
    ``(lane & 0x1c | (lane & 1) << 1 | lane >> 1 & 1) ^ 1``."""
    by_shift: dict[int, int] = {}
    for i, c in enumerate(f.bits):
        if c:
            d = c.bit_length() - 1 - i
            by_shift[d] = by_shift.get(d, 0) | 1 << i
    masks = sum(by_shift.values())
    var, low = ("lane", 0) if masks < 1 << WARP_BITS else \
        (("warp", WARP_BITS) if not masks & ((1 << WARP_BITS) - 1) else ("tid", 0))
    terms = []
    for d, mask in sorted(by_shift.items(), key=lambda x: -x[0]):
        m = mask >> low
        if d > 0:
            terms.append(f"({var} & {hex(m)}) << {d}")
        elif d < 0:
            terms.append(f"({var} >> {-d} & {hex(m >> -d)})")
        else:
            terms.append(f"({var} & {hex(m)})")
    out = " | ".join(terms) or "0u"
    if f.base:
        out = f"(({out}) ^ {_hex(f.base)}u)" if len(terms) > 1 else f"({out} ^ {_hex(f.base)}u)"
    return out


def _additive(f: Form) -> str:
    """A base plus addends per thread-id bit, as runs of bits scaled by a stride
    (``lane / 4 % 8 * 36``), lane bits and warp bits apart."""
    terms: list[str] = []
    bits = list(f.bits)
    i = 0
    while i < len(bits):
        if not bits[i]:
            i += 1
            continue
        start, stride = i, bits[i]
        end = i + 1
        while end < len(bits) and bits[end] == stride << (end - start) and \
                (end != WARP_BITS):
            end += 1
        var, low = ("lane", start) if start < WARP_BITS else ("warp", start - WARP_BITS)
        width = end - start
        top = WARP_BITS if var == "lane" else None
        text = var
        if low:
            text += f" / {1 << low}"
        if (top is None or low + width < top) and not (var == "warp" and end == len(bits)):
            text += f" % {1 << width}"
        if stride != 1:
            text += f" * {stride}"
        terms.append(text)
        i = end
    out = " + ".join(terms) if terms else ""
    if f.base:
        out = f"{out} + {f.base}" if out else str(f.base)
    return out or "0u"


__all__ = ["FULL_MASK", "Writer"]
