"""Bad input: every malformed text, bad shape, out-of-range index, bad swizzle parameter
or unknown dtype/mode raises a LayoutError subclass with an actionable message."""

import pytest

import tilelayout as tl

# (text, error class, column, words the message must contain)
BAD_TEXT = [
    ("", tl.LayoutParseError, 1, "expected 'S[...]'"),
    ("   ", tl.LayoutParseError, 1, "empty layout"),
    ("R[2:1]", tl.LayoutParseError, 1, "expected 'S[' starting the shard"),
    ("S(8:1)", tl.LayoutParseError, 2, "expected '[' after S"),
    ("S[8:4@laneid", tl.LayoutParseError, 13, "expected ']' closing S[, found end of input"),
    ("S[(8,2):(4@lane,1)]", tl.UnknownAxisError, 12, "did you mean 'laneid'"),
    ("S[8:1@warpId]", tl.UnknownAxisError, 7, "did you mean 'warpid'"),
    ("S[(8,2):(4,1,2)]", tl.LayoutParseError, 9, "2 extents but 3 strides"),
    ("S[(8,2):4]", tl.LayoutParseError, 9, "2 extents but 1 stride"),
    ("S[0:1]", tl.LayoutParseError, 3, "extent must be >= 1, got 0"),
    ("S[(4,-2)]", tl.LayoutParseError, 6, "extent must be >= 1, got -2"),
    ("S[8@laneid:1]", tl.LayoutParseError, 3, "extents carry no axis"),
    ("S[(8,2:(1,1)]", tl.LayoutParseError, 7, "expected ',' or ')'"),
    ("S[8:1] + R[2:1] + R[2:1]", tl.LayoutParseError, 19, "at most one R[...]"),
    ("S[8:1] + S[2:1]", tl.LayoutParseError, 10, "at most one S[...]"),
    ("S[8:1] + ", tl.LayoutParseError, 10, "expected 'R[', or an offset"),
    ("S[8:1] 5", tl.LayoutParseError, 8, "expected '+' and another term"),
    ("S[8:1] + 5@", tl.LayoutParseError, 12, "expected an axis name after '@'"),
    ("S[8:1] - R[2:1]", tl.LayoutParseError, 10, "a replica cannot be subtracted"),
    ("S[8:1] + 2.5", tl.LayoutParseError, 11, "unexpected character '.'"),
    ("S[8:1] # comment", tl.LayoutParseError, 8, "unexpected character '#'"),
    ("ComposeLayout(S[8:1])", tl.LayoutParseError, 15, "expected 'Swizzle(M, B, S)'"),
    ("ComposeLayout(Swizzle(3,3), S[8:1])", tl.LayoutParseError, 26, "expected ',' after B"),
    ("ComposeLayout(Swizzle(1,3,2), S[8:1])", tl.SwizzleError, 15, "S must be >= swizzle_len B"),
    ("ComposeLayout(Swizzle(-1,0,0), S[8:1])", tl.SwizzleError, 15, "M and B must be >= 0"),
    ("ComposeLayout(Swizzle(3,3,3), S[8:1@laneid])", tl.SwizzleError, 31, "has no 'm' axis"),
    ("ComposeLayout(Swizzle(3,3,3), S[8:1]", tl.LayoutParseError, 37, "closing ComposeLayout("),
    ("ComposeLayout(Swizzle(3,3,3), S[8:1]) + 1", tl.LayoutParseError, 39, "nothing may follow"),
]


@pytest.mark.parametrize("text,cls,column,words", BAD_TEXT, ids=[t[0] or "<empty>" for t in BAD_TEXT])
def test_malformed_text(text, cls, column, words):
    with pytest.raises(cls) as info:
        tl.parse(text)
    err = info.value
    assert isinstance(err, tl.LayoutError) and isinstance(err, ValueError)
    assert words in str(err)
    assert getattr(err, "column", None) == column, str(err)
    assert str(err).startswith(f"column {column}: ")
    assert err.caret().splitlines()[-1] == " " * (column - 1) + "^"


def test_unknown_axis_with_no_near_name_says_how_to_declare():
    with pytest.raises(tl.UnknownAxisError, match=r"axes=\['zzzz'\]"):
        tl.parse("S[2:1@zzzz]")


L = tl.parse("S[(8,16):(16,1)]")


def test_a_shape_as_text_is_read():
    assert L.apply(17, "8,16") == L.apply(17, (8, 16)) and L.map_all("8x16")["m"].shape[:2] == (8, 16)


@pytest.mark.parametrize(
    "shape,words",
    [
        ((8, 8), "shape (8, 8) has 64 elements but the layout has 128"),
        ((8, 0, 16), "shape entries must be >= 1"),
        ((8, -16), "shape entries must be >= 1"),
        ("8,x", "shape must be comma-separated integers"),
        ("8,8", "shape (8, 8) has 64 elements but the layout has 128"),
        ((8.0, 16), "shape entries must be integers"),
    ],
)
def test_bad_shape(shape, words):
    with pytest.raises(tl.ShapeError, match=words.replace("(", r"\(").replace(")", r"\)")):
        L.apply(0, shape)
    with pytest.raises(tl.ShapeError):
        L.map_all(shape)


@pytest.mark.parametrize(
    "index,words",
    [
        ((8, 0), r"index \(8, 0\) is outside shape \(8, 16\) \(entry 0 must be in \[0, 8\)\)"),
        ((0, -1), r"entry 1 must be in \[0, 16\)"),
        ((1, 2, 3), "has 3 entries but shape"),
        (128, r"flat index 128 is outside \[0, 128\)"),
        (-1, r"flat index -1 is outside"),
    ],
)
def test_index_out_of_range_never_wraps(index, words):
    with pytest.raises(tl.IndexOutOfRangeError, match=words):
        L.apply(index, (8, 16))
    with pytest.raises(IndexError):
        L.base(index, (8, 16))


@pytest.mark.parametrize(
    "args,words",
    [((1, 3, 2), "S must be >= swizzle_len"), ((-1, 0, 0), "M and B"), ((0, -1, 0), "M and B"),
     ((1.5, 0, 0), "must be an integer")],
)
def test_bad_swizzle_parameters(args, words):
    with pytest.raises(tl.LayoutError, match=words):
        tl.Swizzle(*args)


@pytest.mark.parametrize("dtype,mode,words", [
    ("float12", "128B", "unknown dtype 'float12'; expected one of float8, float16"),
    ("float16", "256B", "unknown swizzle mode '256B'; expected one of none, 32B, 64B, 128B"),
])
def test_unknown_dtype_or_mode(dtype, mode, words):
    with pytest.raises(tl.DtypeError, match=words):
        tl.Swizzle.for_dtype(dtype, mode)


@pytest.mark.parametrize("build,words", [
    (lambda: tl.Iter(0, 1, "m"), "extent must be >= 1"),
    (lambda: tl.Iter(2, 1, "la ne"), "an axis name is an identifier"),
    (lambda: tl.Iter(2, True, "m"), "stride must be an integer"),
    (lambda: tl.TileLayout([(2, 1, "m")], offset={"no-pe": 1}), "an axis name is an identifier"),
    (lambda: tl.axis("lane"), "unknown axis 'lane'; did you mean 'laneid'"),
    (lambda: tl.TileLayout([(2,)]), "expected an Iter or"),
    (lambda: tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[4:1@pid]")), "no 'm' axis"),
    (lambda: tl.declare_axis("laneid", kind="device"), "already declared as thread"),
    (lambda: tl.declare_axis("two words"), "an axis name is an identifier"),
    (lambda: tl.declare_axis("q1", kind="memoryy"), "kind must be one of"),
    (lambda: tl.bank_map(tl.parse("S[4:1@laneid]"), "float16"), "needs a shared-memory address"),
])
def test_bad_construction(build, words):
    with pytest.raises(tl.LayoutError, match=words):
        build()


def test_int64_overflow_is_refused_in_vector_path_but_exact_in_scalar_path():
    big = tl.parse(f"S[(2,2):({2**62},1)]")
    assert big.apply(3) == ({"m": 2**62 + 1},)
    with pytest.raises(tl.LayoutOverflowError, match="beyond int64"):
        big.map_all()


def test_non_string_text():
    with pytest.raises(tl.LayoutError, match="must be a string"):
        tl.parse(42)
