"""Generated sources that differ only in their integers share one compiled code
(eval/shared_code.py): every integer the generator writes is a placeholder, the answers
are those of the source compiled as it is, and a template the compiler folds is compiled
per source."""

from __future__ import annotations

import re

import pytest

import tilelayout as tl
from tilelayout.eval.compiled import _head, head_lines, head_values, plan_for
from tilelayout.eval.shared_code import MARK, Literals, code_of, source_of, template_code
from tilelayout.eval.stepwise import evaluators

#: (layout text with {k} where the variants differ, shape): the generator's paths --
#: one and three dims, a replica list unrolled and looped (> 16), a swizzle on m,
#: negative strides and offsets, the default shape
FAMILIES = [
    ("S[(8,16,16,8):(4@laneid,2@warpid,8,1@laneid)] + R[2:1@warpid] + {k}", (128, 128)),
    ("S[(4,{k}):(1,{k2})] + R[(2,3):(1@pid,2@pid)] + -{k}@pid", None),
    ("S[(2,4,8):(-{k},1@laneid,1)] + R[(4,8):(1@warpid,2@pid)] + {k}@pid", (2, 4, 8)),
    ("S[(8,8):(8,1)] + {k}", (64,)),
]


def _swizzled(k: int) -> tl.ComposeLayout:
    return tl.ComposeLayout(tl.Swizzle(3, 0, 3), tl.parse(f"S[(8,8):(8,1)] + {8 * k}"))


def _variants(text: str) -> list[tl.TileLayout]:
    return [tl.parse(text.format(k=k, k2=2 * k + 1)) for k in (3, 5, 6)]


@pytest.mark.parametrize(("text", "shape"), FAMILIES)
def test_one_structure_shares_one_template_with_every_integer_a_placeholder(text, shape):
    plans = [plan_for(L, shape) for L in _variants(text)]
    for method in ("base", "apply"):
        texts = {getattr(p, method).template() for p in plans}
        assert len({t for t, _ in texts}) == 1  # the variants differ only in the integers
        template, values = texts.pop()
        integers = [int(x) for x in re.findall(r"(?<![\w.])\d+", template)]
        assert sorted(integers) == list(range(MARK, MARK + len(values)))  # each one a placeholder
        assert template_code(template, len(values)) is not None  # shared, not compiled per source
        source = getattr(plans[0], method).text()  # the source: its own integers, small here
        assert all(int(x) < MARK for x in re.findall(r"(?<![\w.])\d+", source))


@pytest.mark.parametrize(("text", "shape"), FAMILIES)
def test_shared_code_answers_as_the_layout_does_step_by_step(text, shape):
    for L in _variants(text):
        plan = plan_for(L, shape)
        base, apply = evaluators(L, plan.shape)
        size = 1
        for s in plan.shape:
            size *= s
        for i in range(0, size, max(1, size // 97)):
            assert plan.base.function()(i) == base(i)
            assert plan.apply.function()(i) == apply(i)


def test_a_swizzled_layout_shares_its_template():
    plans = [plan_for(_swizzled(k), None) for k in (1, 2)]
    assert plans[0].base.template()[0] == plans[1].base.template()[0]
    for k, plan in zip((1, 2), plans, strict=True):
        base = evaluators(_swizzled(k), plan.shape)[0]
        assert [plan.base.function()(i) for i in range(64)] == [base(i) for i in range(64)]


def test_a_second_layout_of_the_same_structure_compiles_nothing():
    first, second = (tl.parse(FAMILIES[0][0].format(k=k)) for k in (1001, 1002))  # new values
    plan_for(first, (128, 128)).base.function()
    info = template_code.cache_info()
    plan_for(second, (128, 128)).base.function()
    after = template_code.cache_info()
    assert (after.hits, after.misses) == (info.hits + 1, info.misses)


def test_a_folded_template_is_compiled_per_source():
    spell = Literals()
    template = f"def f(x):\n    return -{spell(3)} + x * {spell(2)}\n"
    assert template_code(template, 2) is None  # -(placeholder) folded into another constant
    for values, want in (((3, 2), 17), ((5, 4), 35)):
        namespace: dict = {}
        exec(code_of(template, values), namespace)  # noqa: S102
        assert namespace["f"](10) == want
        assert source_of(template, values) == f"def f(x):\n    return -{values[0]} + x * {values[1]}\n"


def test_an_integer_not_a_placeholder_is_not_shared():
    template = f"x = {Literals()(41)} + 1"
    assert template_code(template, 1) is None
    namespace: dict = {}
    exec(code_of(template, (41,)), namespace)  # noqa: S102
    assert namespace["x"] == 42


@pytest.mark.parametrize("shape", [(), (7,), (3, 5), (2, 3, 4), (2, 1, 3, 5)])
def test_the_cached_head_is_the_head_of_the_shape(shape):
    spell = Literals()
    lines = _head(shape, spell)
    assert head_values(shape) == spell.values
    assert source_of("\n".join(head_lines(len(shape))), tuple(spell.values)) == source_of(
        "\n".join(lines), tuple(spell.values))
