"""CuTe's algebra against the CUTLASS Python DSL (``nvidia-cutlass-dsl``, the C++ CuTe
algebra behind ``cutlass.cute``), on CUTLASS's pycute test cases (tests/algebra/
cute_cases.py) and on products and divides, including ``blocked_product`` and
``raked_product``, which pycute does not have.

The DSL builds static layouts while a ``@cute.jit`` function is traced; that needs no
GPU (nothing is launched), so each check traces one function that calls the DSL and
records its printed results, which are then compared with ours as functions."""

from __future__ import annotations

import pytest

from tilelayout.algebra import cute as C
from tilelayout.core.errors import AlgebraError
from tilelayout.interop.cute import from_cute, parse_cute, to_cute_dsl

from ..algebra.cute_cases import COALESCE, COMPLEMENT, COMPOSITION, LEFT_INVERSE, RIGHT_INVERSE

cute = pytest.importorskip("cutlass.cute", reason="the CuTe DSL ships in the optional 'cute-dsl' extra")
pycute = pytest.importorskip("pycute", reason="pycute ships in the optional 'cute' extra")


def _full(case):
    """``(shape, stride)`` with CuTe's compact column-major default filled in."""
    shape, stride = case
    if stride is None:
        layout = pycute.Layout(shape)
        return layout.shape, layout.stride
    return shape, stride


def _dsl(case):
    shape, stride = _full(case)
    return cute.make_layout(shape, stride=stride)


def _values(text: str) -> list[int]:
    _, shape, stride = parse_cute(text)
    layout = pycute.Layout(shape, stride)
    return [layout(i) for i in range(pycute.size(layout))]


def _run(body) -> dict:
    """Trace ``body(out)`` under ``@cute.jit`` (no GPU, no launch) and return ``out``."""
    out: dict = {}

    @cute.jit
    def traced():
        body(out)

    traced()
    return out


def _record(out: dict, key, fn, *args) -> None:
    try:
        out[key] = str(fn(*args))
    except Exception as exc:  # the DSL's static assertions raise; CuTe refuses the input
        out[key] = exc


def _agree(ours_fn, theirs, key, *args) -> None:
    want = theirs[key]
    try:
        got = ours_fn(*args)
    except AlgebraError:
        assert isinstance(want, Exception), (key, want)   # refused only where CuTe refuses
        return
    assert not isinstance(want, Exception), (key, got, want)
    assert _values(str(got)) == _values(want), (key, str(got), want)


def test_cutlass_cases_against_the_dsl():
    def body(out):
        for k, c in enumerate(COALESCE):
            _record(out, ("coalesce", k), cute.coalesce, _dsl(c))
        for k, c in enumerate(COMPLEMENT):
            _record(out, ("complement", k), cute.complement, _dsl(c), 1)
        for k, (a, b) in enumerate(COMPOSITION):
            _record(out, ("composition", k), cute.composition, _dsl(a), _dsl(b))
        for k, c in enumerate(LEFT_INVERSE):
            _record(out, ("left_inverse", k), cute.left_inverse, _dsl(c))
        for k, c in enumerate(RIGHT_INVERSE):
            _record(out, ("right_inverse", k), cute.right_inverse, _dsl(c))

    theirs = _run(body)
    assert len(theirs) == 84
    for k, c in enumerate(COALESCE):
        _agree(C.coalesce, theirs, ("coalesce", k), C.CuteLayout(*_full(c)))
    for k, c in enumerate(COMPLEMENT):
        _agree(C.complement, theirs, ("complement", k), C.CuteLayout(*_full(c)))
    for k, (a, b) in enumerate(COMPOSITION):
        _agree(C.composition, theirs, ("composition", k), C.CuteLayout(*_full(a)), C.CuteLayout(*_full(b)))
    for k, c in enumerate(LEFT_INVERSE):
        _agree(C.left_inverse, theirs, ("left_inverse", k), C.CuteLayout(*_full(c)))
    for k, c in enumerate(RIGHT_INVERSE):
        _agree(C.right_inverse, theirs, ("right_inverse", k), C.CuteLayout(*_full(c)))
    assert not any(isinstance(v, Exception) for v in theirs.values())


_BLOCKS = [((2, 5), (5, 1)), ((4, 3), (3, 1)), ((2, 2), (1, 2)), (8, 1), ((8, 8), (8, 1)),
           (((2, 2), 4), ((1, 8), 2)), ((4, 8, 2), (2, 8, 1))]
_TILERS = [((3, 4), (1, 3)), (2, 1), ((2, 2), (1, 4)), (4, 2), ((2, 3), (3, 1))]
_OPS = ["logical_product", "blocked_product", "raked_product", "zipped_product", "tiled_product",
        "logical_divide", "zipped_divide", "tiled_divide"]


def _definition(op: str, a, t) -> list[int | None]:
    """The op's 1-D function from CuTe's definition, element by element (pycute evaluates
    the pieces; ``None`` where the definition leaves the value to CuTe's unbounded mode).
    The divides are ``A(I(i))`` with ``I = (T, complement(T, size A))``; the products
    ``A(i % |A|) + C(T(i // |A|))`` with ``C = complement(A, |A| * cosize T)``; zipped and
    tiled forms regroup modes, which keeps the 1-D function."""
    if op.endswith("divide"):
        idx = pycute.make_layout(t, pycute.complement(t, pycute.size(a)))
        return [a(idx(i)) if idx(i) < pycute.size(a) else None for i in range(pycute.size(idx))]
    c = pycute.complement(a, pycute.size(a) * pycute.cosize(t))
    n = pycute.size(a)
    return [a(i % n) + c(t(i // n)) if t(i // n) < pycute.size(c) else None
            for i in range(n * pycute.size(t))]


def _differs(values: list[int], definition: list[int | None]) -> bool:
    return len(values) != len(definition) or any(
        d is not None and v != d for v, d in zip(values, definition, strict=True))


def test_products_and_divides_against_the_dsl():
    def body(out):
        for i, a in enumerate(_BLOCKS):
            for j, t in enumerate(_TILERS):
                for op in _OPS:
                    _record(out, (op, i, j), getattr(cute, op), _dsl(a), _dsl(t))

    theirs = _run(body)
    answered = refused = 0
    for i, a in enumerate(_BLOCKS):
        for j, t in enumerate(_TILERS):
            for op in _OPS:
                want = theirs[(op, i, j)]
                try:
                    got = getattr(C, op)(C.CuteLayout(*a), C.CuteLayout(*t))
                except AlgebraError:
                    # refused only where CuTe refuses too or its answer is not its definition
                    base = "logical_product" if op in ("blocked_product", "raked_product") else op
                    plain = theirs[(base, i, j)]
                    assert isinstance(plain, Exception) or _differs(
                        _values(plain), _definition(base, pycute.Layout(*a), pycute.Layout(*t))), (op, a, t)
                    refused += 1
                    continue
                assert not isinstance(want, Exception), (op, a, t, got, want)
                assert _values(str(got)) == _values(want), (op, a, t, str(got), want)
                answered += 1
    assert answered > 200 and refused < answered
    # CuTe's documentation example, printed by the DSL itself
    assert theirs[("blocked_product", 0, 0)] == "((2,3),(5,4)):((5,10),(1,30))"
    assert str(C.blocked_product(C.CuteLayout((2, 5), (5, 1)), C.CuteLayout((3, 4), (1, 3)))) \
        == theirs[("blocked_product", 0, 0)]


def test_dsl_layouts_convert_both_ways():
    import tilelayout as tl

    ours = tl.parse("S[(8,4,1,2):(1,32,7,16)]")

    def body(out):
        layout = cute.make_layout(((4, 8), (2, 1)), stride=((32, 1), (16, 7)))
        out["from"] = from_cute(layout)
        out["to"] = str(to_cute_dsl(ours, ((4, 8), (2, 1))))

    got = _run(body)
    assert got["from"] == ours
    assert got["to"] == "((4,8),(2,1)):((32,1),(16,7))"


def test_dsl_composed_layouts():
    import tilelayout as tl

    ours = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    negative = from_cute("Swizzle<3,4,-3> o (8,64):(64,1)")

    def body(out):
        for name, (b, m, s) in (("pos", (3, 3, 3)), ("neg", (3, 4, -3))):
            layout = cute.make_composed_layout(cute.make_swizzle(b, m, s), 0,
                                               cute.make_layout((8, 64), stride=(64, 1)))
            out[name] = from_cute(layout)
            out[name + "-comp"] = str(cute.composition(layout, cute.make_layout((8, 8), stride=(64, 1))))
            out[name + "-div"] = str(cute.zipped_divide(layout, (8, 8)))
        out["to"] = str(to_cute_dsl(ours, (8, 64)))

    got = _run(body)
    assert got["pos"] == ours and got["neg"] == negative
    assert got["to"] == "S<3,3,3> o 0 o (8,64):(64,1)"
    for name, src in (("pos", ours), ("neg", negative)):
        comp = C.composition(src, C.CuteLayout((8, 8), (64, 1)))
        div = C.zipped_divide(src, (8, 8))
        # the DSL prints "S<B,M,S> o offset o layout"; the layouts after the swizzle agree
        assert got[name + "-comp"].split(" o ")[-1] == str(comp.inner)
        assert got[name + "-div"].split(" o ")[-1] == str(div.inner)
        assert comp.swizzle == div.swizzle == src.swizzle
