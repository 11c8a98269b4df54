"""Index expressions: a layout's forward map as simplified integer arithmetic.

One builder serves two users: the scalar fast path (:mod:`tilelayout.eval.compiled`,
which compiles the Python rendering once per layout and shape) and the code generator
(:mod:`tilelayout.codegen`, which renders the same expressions as C, C++, CUDA and
Triton). The expressions are written the way a kernel engineer would write them:

* iters that are extent 1 are dropped, and a run of consecutive iters on one axis whose
  strides continue each other (``s_k == s_{k+1} * e_{k+1}``) is fused into one digit;
* each digit ``(flat // E) % e`` is read from the fewest logical dimensions that hold
  it (usually one: ``i1 >> 1 & 3``), with no division when ``E`` is the dimension's
  start and no modulo when the digit runs to the dimension's end;
* powers of two become shifts and masks (and ``((x >> a) & M) << c`` one mask and one
  shift), negative strides subtract, and every constant of an axis is folded into one.

>>> import tilelayout as tl
>>> prog = forward_program(tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + 5@warpid"), (8, 16))
>>> [render(e) for e in prog.outputs]
['(i0 << 2) + ((i1 >> 1) & 3)', '(i1 >> 3) + 5', 'i1 & 1']
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.iter import Iter
from ..core.shape import Shape
from .names import local_names

# -- the expression tree ----------------------------------------------------------------
#: binary operators, loosest binding first (the same relative order in Python and C)
_PREC = MappingProxyType({"|": 1, "^": 2, "&": 3, "<<": 4, ">>": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6})
_BITWISE = frozenset({"|", "^", "&", "<<", ">>"})
#: each operator on two constants (Python's floor semantics)
_FOLD = MappingProxyType({"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
                          "%": operator.mod, ">>": operator.rshift, "<<": operator.lshift,
                          "&": operator.and_, "^": operator.xor, "|": operator.or_})


class Expr(NamedTuple):
    """An integer expression: ``op`` is ``"var"``, ``"const"`` or a binary operator (a named
    tuple: it builds several times faster than a frozen dataclass)."""

    op: str
    args: tuple[Expr, ...] = ()
    value: int | str = 0

    def __repr__(self) -> str:
        return render(self)


def var(name: str) -> Expr:
    """A named variable (an argument or a local)."""
    return Expr("var", (), name)


def const(value: int) -> Expr:
    """An integer constant."""
    return Expr("const", (), int(value))


def _is_const(e: Expr, value: int | None = None) -> bool:
    return e.op == "const" and (value is None or e.value == value)


def _pow2(n: int) -> int | None:
    """``k`` when ``n == 2**k`` (n >= 1), else None."""
    return n.bit_length() - 1 if n > 0 and n & (n - 1) == 0 else None


def binary(op: str, a: Expr, b: Expr) -> Expr:
    """``a op b`` with constants folded (Python floor semantics for constants)."""
    if a.op == "const" and b.op == "const":
        return const(_FOLD[op](int(a.value), int(b.value)))
    return Expr(op, (a, b))


def floordiv(a: Expr, n: int) -> Expr:
    """``a // n`` for a non-negative ``a`` (a shift when ``n`` is a power of two)."""
    if n == 1:
        return a
    k = _pow2(n)
    if k is not None:
        if a.op == ">>" and _is_const(a.args[1]):
            return binary(">>", a.args[0], const(int(a.args[1].value) + k))
        return binary(">>", a, const(k))
    return binary("//", a, const(n))


def modulo(a: Expr, n: int) -> Expr:
    """``a % n`` for a non-negative ``a`` (a mask when ``n`` is a power of two)."""
    if n == 1:
        return const(0)
    k = _pow2(n)
    if a.op in ("&", "%") and _is_const(a.args[1]):
        inner = int(a.args[1].value) + (1 if a.op == "&" else 0)  # the inner modulus
        low_mask = a.op == "%" or _pow2(inner) is not None  # x & (2**k - 1) only
        if low_mask and inner % n == 0:  # (x mod M) mod n == x mod n when n divides M
            return modulo(a.args[0], n)
    return binary("&", a, const(n - 1)) if k is not None else binary("%", a, const(n))


def scale(a: Expr, n: int) -> Expr:
    """``a * n`` for ``n >= 1``: a shift for powers of two; ``((x >> s) & M) << c`` becomes
    one mask and at most one shift."""
    if n == 1:
        return a
    if a.op == "const":
        return const(int(a.value) * n)
    c = _pow2(n)
    if c is None:
        return binary("*", a, const(n))
    if a.op == "&" and a.args[0].op == ">>" and _is_const(a.args[1]) and _is_const(a.args[0].args[1]):
        x, s, mask = a.args[0].args[0], int(a.args[0].args[1].value), int(a.args[1].value)
        if s == c:
            return binary("&", x, const(mask << s))
        if s > c:
            return binary("&", binary(">>", x, const(s - c)), const(mask << c))
        return binary("<<", binary("&", x, const(mask << s)), const(c - s))
    return binary("<<", a, const(c))


def linear(terms: Sequence[tuple[Expr, int]], constant: int = 0) -> Expr:
    """``sum(coef * e) + constant``: positive terms first, negative ones subtracted, one
    folded constant last (or, when that is cheaper, a leading ``x * -c``)."""
    first = _linear(terms, constant, negative_product=False)
    if any(c > 0 for _, c in terms) or not any(c < -1 for _, c in terms):
        return first
    second = _linear(terms, constant, negative_product=True)
    return second if count_ops([second]) < count_ops([first]) else first


def _linear(terms: Sequence[tuple[Expr, int]], constant: int, negative_product: bool) -> Expr:
    pos = [scale(e, c) for e, c in terms if c > 0]
    negs = [(e, c) for e, c in terms if c < 0]
    acc: Expr | None = None
    if negative_product and not pos and negs:
        e, c = negs.pop(0)
        acc = binary("*", e, const(c))
    neg = [scale(e, -c) for e, c in negs]
    if acc is None and not pos and neg and constant > 0:
        acc, constant = const(constant), 0  # 35 - x rather than -x + 35
    for e in pos:
        acc = e if acc is None else binary("+", acc, e)
    for e in neg:
        acc = binary("-", const(0) if acc is None else acc, e)
    if acc is None:
        return const(constant)
    if constant > 0:
        return binary("+", acc, const(constant))
    if constant < 0:
        return binary("-", acc, const(-constant))
    return acc


# -- rendering --------------------------------------------------------------------------
def render(e: Expr, spell: Callable[[int], str] = str, ops: dict[str, str] | None = None) -> str:
    """Source text of ``e``: ``spell`` writes constants, ``ops`` renames operators (C's
    ``/`` for ``//``). Parentheses wherever precedence needs them, and around mixed
    bitwise operators so the text reads unambiguously.

    >>> render(binary("&", binary(">>", var("i1"), const(1)), const(3)))
    '(i1 >> 1) & 3'
    """
    op = e.op
    if op == "var":
        return str(e.value)
    if op == "const":
        return spell(int(e.value))
    a, b = e.args
    if op == "-" and a.op == "const" and a.value == 0:  # negation: -x
        inner = render(b, spell, ops)
        return f"-{inner}" if b.op in ("var", "const") else f"-({inner})"
    sym = ops.get(op, op) if ops else op
    return f"{_operand(a, op, False, spell, ops)} {sym} {_operand(b, op, True, spell, ops)}"


#: per (child, parent, right operand?): parentheses for a looser child, a right operand of
#: an equal non-associative one, or mixed bitwise operators
_WRAP = MappingProxyType({
    (c, p, r): (_PREC[c] < _PREC[p] or (r and _PREC[c] == _PREC[p] and not (p == c and p in "+*|&^"))
                or (c != p and (c in _BITWISE or p in _BITWISE)))
    for c in _PREC for p in _PREC for r in (False, True)})


def _operand(child: Expr, parent: str, right: bool, spell, ops) -> str:
    op = child.op
    if op == "var":
        return str(child.value)
    if op == "const":
        text = spell(int(child.value))
        return f"({text})" if not right and int(child.value) < 0 else text
    text = render(child, spell, ops)
    return f"({text})" if _WRAP[op, parent, right] or (right and _regroups(child, parent)) \
        else text


def _regroups(child: Expr, parent: str) -> bool:
    """Whether ``a parent child`` without parentheses would regroup: the child is the
    parent's own associative operator, but the left edge of its text starts with another
    operator of that precedence (``x * (x % 2 * x)`` is not ``x * x % 2 * x``)."""
    if child.op != parent:
        return False
    left = child.args[0]
    while left.op in _PREC and _PREC[left.op] == _PREC[parent]:
        if left.op != parent:
            return True
        left = left.args[0]
    return False


def count_ops(exprs: Sequence[Expr], locals_: dict[str, Expr] | None = None) -> int:
    """Number of distinct binary operations needed for ``exprs`` (a shared sub-expression
    or local counts once), following locals into their definitions."""
    seen: set[Expr] = set()
    done_locals: set[str] = set()
    locals_ = locals_ or {}

    def walk(e: Expr) -> None:
        if e.op == "var":
            name = str(e.value)
            if name in locals_ and name not in done_locals:
                done_locals.add(name)
                walk(locals_[name])
            return
        if e.op == "const" or e in seen:
            return
        seen.add(e)
        for a in e.args:
            walk(a)

    for e in exprs:
        walk(e)
    return len(seen)


# -- building the forward map -----------------------------------------------------------
class Digit(NamedTuple):
    """One (fused) iter: component ``(flat // weight) % extent`` adds ``stride`` to ``axis``."""

    weight: int
    extent: int
    stride: int
    axis: str


def digits(iters: Sequence[Iter]) -> list[Digit]:
    """The iters (outermost first) as digits: extent-1 iters dropped, compact runs on one
    axis fused, stride-0 iters kept (they still occupy their place in the index).

    >>> digits([Iter(4, 8), Iter(8, 1), Iter(1, 5, "pid")])
    [Digit(weight=1, extent=32, stride=1, axis='m')]
    """
    out: list[Digit] = []
    weight = 1
    for it in reversed(iters):
        if it.extent == 1:
            continue
        if out and out[-1].weight * out[-1].extent == weight:
            last = out[-1]
            same = last.axis == it.axis and last.stride * last.extent == it.stride
            zeros = last.stride == 0 and it.stride == 0
            if same or zeros:
                out[-1] = Digit(last.weight, last.extent * it.extent, last.stride, last.axis)
                weight *= it.extent
                continue
        out.append(Digit(weight, it.extent, it.stride, it.axis))
        weight *= it.extent
    return list(reversed(out))


@dataclass
class Program:
    """Straight-line code: ``locals_`` (name -> expression, in definition order) then one
    output expression per axis (``outputs``, in ``axes`` order)."""

    args: tuple[str, ...]
    axes: tuple[str, ...]
    names: tuple[str, ...]
    locals_: dict[str, Expr] = field(default_factory=dict)
    outputs: list[Expr] = field(default_factory=list)

    def ops_per_axis(self) -> list[int]:
        """Distinct arithmetic operations each output needs."""
        return [count_ops([e], self.locals_) for e in self.outputs]


class _Digits:
    """Reads digits of the row-major flat index of ``dims`` from the fewest dimensions."""

    def __init__(self, prog: Program, dims: Sequence[int], names: Sequence[str]) -> None:
        self.prog = prog
        self.dims = tuple(dims)
        self.names = tuple(names)
        bounds = [1]
        for s in reversed(self.dims):
            bounds.append(bounds[-1] * s)
        self.bounds = bounds  # bounds[t]: weight of the t-th dimension from the inside

    def _group(self, lo: int, hi: int) -> Expr:
        d = len(self.dims)
        if hi - lo == 1:
            return var(self.names[d - 1 - lo])
        name = f"g{lo}_{hi}" if self.names[0] != "r" else f"q{lo}_{hi}"
        if name not in self.prog.locals_:
            base = self.bounds[lo]
            terms = [(var(self.names[d - 1 - t]), self.bounds[t] // base) for t in range(lo, hi)]
            self.prog.locals_[name] = linear(terms[::-1])
        return var(name)

    def digit(self, weight: int, extent: int) -> Expr:
        b = self.bounds
        top = weight * extent
        lo = hi = 0
        for t, bt in enumerate(b):  # lo: the last bound dividing weight; hi: the first top divides
            if bt <= weight and weight % bt == 0:
                lo = t
            if not hi and bt >= top and bt % top == 0:
                hi = t
        # skip size-1 dimensions at either end of the group
        while hi - 1 > lo and b[hi - 1] >= top and b[hi - 1] % top == 0:
            hi -= 1
        g = self._group(lo, hi)
        x = floordiv(g, weight // b[lo])
        return x if top == b[hi] else modulo(x, extent)


def xor_images(layout: Layout) -> tuple[int, ...] | None:
    """The swizzle of ``layout`` as XOR images of the low address bits (None without one).

    ``Swizzle(M, B, S)``: bit ``k`` in ``[M+S, M+S+B)`` maps to ``2**k | 2**(k-S)``.
    """
    if not isinstance(layout, ComposeLayout):
        return None
    sw = layout.swizzle
    images = getattr(sw, "images", None)
    if images is not None:
        return tuple(int(x) for x in images)
    m, b, s = sw.per_element, sw.swizzle_len, sw.atom_len
    if b == 0:
        return ()
    n = m + s + b
    return tuple((1 << k) | (1 << (k - s)) if k >= m + s else 1 << k for k in range(n))


def xor_expr(x: Expr, images: Sequence[int]) -> Expr:
    """``x`` with the low ``len(images)`` bits mapped through ``images`` (XOR-linear),
    higher bits unchanged: ``x ^ ((x & mask) >> s) ^ ...``, one term per run of bits that
    move by the same shift.

    >>> render(xor_expr(var("m"), (1, 2, 4, 8, 16, 32, 64 | 8, 128 | 16, 256 | 32)))
    'm ^ ((m & 448) >> 3)'
    """
    groups: dict[int, int] = {}  # shift -> mask of source bits moving by it
    singles: list[tuple[int, int]] = []
    for k, img in enumerate(images):
        extra = img ^ (1 << k)
        if extra == 0:
            continue
        if _pow2(extra) is not None:
            shift = k - (extra.bit_length() - 1)
            groups[shift] = groups.get(shift, 0) | (1 << k)
        else:
            singles.append((k, extra))
    terms: list[Expr] = []
    for shift, mask in sorted(groups.items(), reverse=True):
        masked = binary("&", x, const(mask))
        if shift > 0:
            terms.append(binary(">>", masked, const(shift)))
        else:
            terms.append(binary("<<", masked, const(-shift)))
    for k, extra in singles:
        bit = binary("&", binary(">>", x, const(k)), const(1)) if k else binary("&", x, const(1))
        terms.append(binary("*", bit, const(extra)))
    out = x
    for t in terms:
        out = binary("^", out, t)
    return out


def forward_program(
    layout: Layout,
    shape: Shape,
    args: Sequence[str] | None = None,
    replica_arg: str = "r",
    *,
    replicas: bool = True,
    swizzle: bool = True,
) -> Program:
    """The forward map of ``layout`` over the (admitted) ``shape`` as straight-line code:
    arguments ``i0..`` (and ``r`` when the replica count is > 1), one output per axis.
    ``replicas=False`` / ``swizzle=False`` leave out the replica terms / the swizzle."""
    tile = tile_of(layout)
    dims = tuple(shape)
    names = tuple(args) if args is not None else tuple(f"i{k}" for k in range(len(dims)))
    reps = tile.replica_count if replicas else 1
    arg_names = names + ((replica_arg,) if reps > 1 else ())
    prog = Program(arg_names, tile.axes, local_names(tile.axes))
    terms: dict[str, list[tuple[Expr, int]]] = {a: [] for a in tile.axes}
    shard = _Digits(prog, dims, names)
    for d in digits(tile.shard):
        if d.stride:
            terms[d.axis].append((shard.digit(d.weight, d.extent), d.stride))
    if reps > 1:
        rep = _Digits(prog, (reps,), (replica_arg,))
        for d in digits(tile.replica):
            if d.stride:
                terms[d.axis].append((rep.digit(d.weight, d.extent), d.stride))
    images = xor_images(layout) if swizzle else None
    offset = tile.offset
    for a, name in zip(tile.axes, prog.names, strict=True):
        value = linear(terms[a], offset.get(a, 0))
        if a == "m" and images:
            if value.op != "const" and not (value.op == "var" and value.value in arg_names):
                prog.locals_[name] = value
                value = var(name)
            value = xor_expr(value, images)
        prog.outputs.append(value)
    _inline_single_use(prog)
    return prog


def _substitute(e: Expr, table: dict[str, Expr]) -> Expr:
    if e.op == "var":
        return table.get(str(e.value), e)
    if e.op == "const":
        return e
    return Expr(e.op, tuple(_substitute(a, table) for a in e.args))


def _inline_single_use(prog: Program) -> None:
    """Fold locals used once (a group read by a single digit) into their user."""
    if not prog.locals_:  # the usual case: each digit read from one dimension
        return
    uses: dict[str, int] = dict.fromkeys(prog.locals_, 0)

    def count(e: Expr) -> None:
        if e.op == "var" and e.value in uses:
            uses[str(e.value)] += 1
        for a in e.args:
            count(a)

    for e in list(prog.locals_.values()) + prog.outputs:
        count(e)
    table = {n: e for n, e in prog.locals_.items() if uses[n] <= 1}
    if not table:
        return
    for n in table:  # later locals may use earlier ones: resolve in order
        table[n] = _substitute(table[n], table)
    prog.locals_ = {n: _substitute(e, table) for n, e in prog.locals_.items() if n not in table}
    prog.outputs = [_substitute(e, table) for e in prog.outputs]


def naive_ops(layout: Layout, shape: Shape, replicas: bool = True) -> list[int]:
    """Operations per axis of the textbook expansion: flatten the index row-major, then
    ``(flat // E_k) % e_k * s_k`` per iter (shard and replica), plus the offset and the
    swizzle; no simplification. The baseline of the operation-count benchmark."""
    tile = tile_of(layout)
    flat = 2 * (len(shape) - 1)
    images = xor_images(layout)
    out = []
    for a in tile.axes:
        n = sum(1 for it in tile.shard if it.axis == a)
        t = sum(1 for it in tile.replica if it.axis == a) if replicas else 0
        ops = 4 * (n + t) + (flat if n else 0) + (1 if tile.offset.get(a, 0) else 0)
        if a == "m" and images:
            ops += count_ops([xor_expr(var("m"), images)])
        out.append(ops)
    return out
