"""tl.codegen: generated Python computes every coordinate of every element (and its
inverse), in every language's spelling; bad names and languages are refused."""

import itertools

import pytest

import tilelayout as tl
from tilelayout.codegen.generate import CodegenError, codegen
from tilelayout.codegen.languages import LANGUAGES

LAYOUTS = [
    ("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid", (8, 16)),
    ("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])", (8, 64)),
    ("S[(3,5):(-5,1)] + 20", (15,)),
    ("S[(4,4):(1@pid,4)] + R[(2,2):(1@warpid,2@warpid)]", (4, 4)),
]


def _function(code, name="layout_fn"):
    scope: dict = {}
    exec(code, scope)
    return scope[name]


@pytest.mark.parametrize(("text", "shape"), LAYOUTS)
def test_forward_python_gives_every_coordinate(text, shape):
    L = tl.parse(text)
    f = _function(codegen(L, shape))
    reps = L.tile_layout.replica_count if isinstance(L, tl.ComposeLayout) else L.replica_count
    for index in itertools.product(*(range(n) for n in shape)):
        want = {tuple(c[a] for a in L.axes) for c in L.apply(index, shape)}
        got = {tuple(f(*index, r)) if reps > 1 else tuple(f(*index)) for r in range(reps)}
        assert got == want, index


def test_the_inverse_returns_the_flat_index_or_minus_one():
    L = tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]")
    inv = _function(codegen(L, (16, 8), inverse=True))
    hits = {}
    for m, lane in itertools.product(range(-1, 5), range(-1, 33)):
        hits[(m, lane)] = inv(m, lane)
    for flat in range(128):
        c = L.base(flat)
        assert hits.pop((c["m"], c["laneid"])) == flat
    assert set(hits.values()) == {-1}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_names_the_function_and_each_axis(lang):
    L = tl.parse("S[(8,4):(4@laneid,1)]")
    code = codegen(L, lang=lang, name="my_map")
    assert "my_map" in code and "laneid" in code
    if lang == "triton":
        assert "@triton.jit\ndef my_map(" in code
    if lang in ("c", "cpp", "cuda"):
        assert "long long" in code and code.rstrip().endswith("}")


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"name": "not a name"}, "name"), ({"name": "for"}, "name"), ({"lang": "rust"}, "rust"),
])
def test_refusals_are_codegen_errors(kwargs, says):
    with pytest.raises(CodegenError, match=says):
        codegen(tl.parse("S[4:1]"), **kwargs)


def test_text_is_parsed_and_methods_agree():
    assert codegen("S[4:1]") == tl.parse("S[4:1]").codegen()
