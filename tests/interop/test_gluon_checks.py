"""What Triton's lowering accepts, checked before it runs (issue 29): every abort
reproducer of the issue is one LayoutError of one line in this process, and each is a real
abort (Triton's own lowering of the same input, unchecked, ends a child process). Layouts
Triton does lower pass the checks."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout.interop import InteropError
from tilelayout.interop.isolation import ChildDied, ChildPool

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")
from triton.experimental.gluon import language as ttgl  # noqa: E402
from triton.experimental.gluon.language import amd  # noqa: E402

from tilelayout.interop.gluon import lower, triton_bases  # noqa: E402
from tilelayout.interop.gluon_checks import check_lowering, tile_bits  # noqa: E402
from tilelayout.interop.triton import from_triton, to_gluon, to_triton_bases  # noqa: E402

from .test_gluon import OBJECTS  # noqa: E402

MMA_3_WARPS = ttgl.NVMMADistributedLayout([2, 0], [3, 1], [16, 8])
#: (object, shape, words of the refusal): the issue's abort reproducers
REPRODUCERS = [
    (MMA_3_WARPS, (32, 32), r"warps_per_cta=\[3, 1\]: expected 2 powers of two"),
    (ttgl.NVMMADistributedLayout([2, 0], [0, 1], [16, 8]), (32, 32), r"warps_per_cta=\[0, 1\]"),
    (ttgl.SliceLayout(0, MMA_3_WARPS), (32,), r"warps_per_cta=\[3, 1\]"),
    (ttgl.DotOperandLayout(0, MMA_3_WARPS, 2), (32, 32), r"warps_per_cta=\[3, 1\]"),
    (amd.AMDMFMALayout(3, [32, 32, 8], True, [3, 1]), (64, 64), r"warps_per_cta=\[3, 1\]"),
    (ttgl.NVMMADistributedLayout([2, 0], [2, 2], [16]), (32, 32), r"instr_shape \[16\]: expected 2"),
    (ttgl.SwizzledSharedLayout(2, 1, 1, [0]), (32, 32), r"order=\[0\]: expected a permutation of the 2"),
    (ttgl.NVMMASharedLayout(64, 64, 3, True), (8, 8, 2), r"collapses to 2 x 64; Triton needs at least 8"),
    (ttgl.NVMMASharedLayout(32, 16, 3, True), (8, 8, 2), r"needs 16 contiguous elements along dimension 0"),
    (amd.AMDWMMALayout(1, True, [[1, 0], [1048576, 0]]), (32, 16), r"bases must be 1, 2, 4"),
    (amd.AMDWMMALayout(1, False, [[4, 0]], [[8, 0]]), (256, 1), r"bases must be 1, 2, 4"),
    (amd.AMDWMMALayout(2, False, [[0, 64]]), (32, 32), r"bases must be 1, 2, 4"),  # outside
    (ttgl.BlockedLayout([1], [32], [4], [0]), (1 << 31,), r"power-of-two shapes of at most 2\*\*30"),
    (ttgl.BlockedLayout([1, 1], [1, 32], [4, 1], [1, 0]), (1 << 16, 1 << 16), r"at most 2\*\*30"),
    (ttgl.BlockedLayout([8, 2, 8], [4, 32, 4], [4, 4, 1], [2, 0, 1]), (8, 4, 1 << 20),
     r"would need more than 2\*\*30 positions"),
    (ttgl.BlockedLayout([1, 1], [8, 4], [1, 1], [0, 1], [[3, 0]]), (32, 32),
     r"cga_layout basis \[3, 0\]: expected one power of two"),
    (ttgl.SwizzledSharedLayout(8, 4, 0, [0, 1]), (64, 64), r"max_phase=0: expected an int from 1"),
]


@pytest.fixture(scope="module")
def pool():
    p = ChildPool(workers=2)
    yield p
    p.close()


@pytest.mark.parametrize("obj, shape, words", REPRODUCERS, ids=lambda x: type(x).__name__
                         if not isinstance(x, tuple | str) else None)
def test_each_reproducer_is_one_line_here_and_an_abort_in_triton(pool, obj, shape, words):
    with pytest.raises(InteropError, match=words) as info:
        from_triton(obj, shape)
    assert "\n" not in str(info.value)
    with pytest.raises(ChildDied, match="SIGABRT|SIGFPE"):  # Triton itself, unchecked
        pool.call("tilelayout.interop.gluon:triton_bases", obj, list(shape))


def test_a_cta_split_candidate_is_refused_and_to_gluon_answers_with_tritons_bases():
    layout = tl.parse("S[(4,4,2,2):(4,1@cbx,2,1)]")
    blocked = ttgl.BlockedLayout([1, 1], [1, 1], [1, 1], [1, 0], [[3, 0]])
    with pytest.raises(InteropError, match="cga_layout"):
        check_lowering(blocked, [32, 2])
    obj = to_gluon(layout, (32, 2))
    assert to_triton_bases(layout, (32, 2)) == {k: v for k, v in triton_bases(obj, [32, 2]).items() if v}


@pytest.mark.parametrize("obj, shape", OBJECTS, ids=lambda x: type(x).__name__ if not
                         isinstance(x, tuple) else "x".join(map(str, x)))
def test_what_triton_lowers_passes(obj, shape):
    check_lowering(obj, list(shape))
    assert lower(obj, shape) is not None


def test_the_int32_bound_counts_the_tile_where_it_is_larger_than_the_shape():
    assert tile_bits(ttgl.BlockedLayout([1, 4], [4, 8], [2, 2], [1, 0]), 2) == [3, 6]
    check_lowering(ttgl.BlockedLayout([1, 4], [4, 8], [2, 2], [1, 0]), [1 << 12, 1 << 12])
    with pytest.raises(InteropError, match="more than 2"):
        check_lowering(ttgl.BlockedLayout([1, 4], [4, 8], [2, 2], [1, 0]), [1 << 28, 4])


def test_arguments_of_the_wrong_kind_are_one_line_refusals():
    blocked = OBJECTS[0][0]
    for shape in [(True, 64), ("a", 64), 64.0, (None, 64), [[64], [64]], "64,x"]:
        with pytest.raises(tl.LayoutError) as info:
            from_triton(blocked, shape)
        assert "\n" not in str(info.value)
    assert from_triton(blocked, "64,64") == from_triton(blocked, (64, 64))
    with pytest.raises(InteropError, match="in_dims must map names"):
        from_triton(blocked, (64, 64), 5)
    for bad in [None, "S[4", 3]:
        with pytest.raises(tl.LayoutError):
            to_gluon(bad)
    assert type(to_gluon("S[4]")).__name__ == "SwizzledSharedLayout"
    with pytest.raises(InteropError, match="non-empty list"):
        to_gluon(tl.parse("S[():()] + R[2:1@warpid]"))


def test_isolate_runs_the_lowering_in_a_child():
    obj, shape = OBJECTS[0]
    assert from_triton(obj, shape, isolate=True) == from_triton(obj, shape)
    assert to_gluon(from_triton(obj, shape), shape, isolate=True) == obj


def test_a_shape_of_true_is_refused_and_one_is_tritons_own():
    """issue 29: from_triton(BlockedLayout(...), (True, 64)) read True as 1."""
    blocked = ttgl.BlockedLayout([1, 4], [4, 8], [2, 2], [1, 0])
    with pytest.raises(tl.LayoutError, match="shape entries must be integers"):
        from_triton(blocked, (True, 64))
    assert to_triton_bases(from_triton(blocked, (1, 64)), (1, 64)) == \
        {k: v for k, v in triton_bases(blocked, [1, 64]).items() if v}
