"""CuTe thread-value layouts both ways: (thread, value) -> column-major element index,
inverted into our layouts and written back; replicas, permutes and refusals."""

import itertools

import pytest

import tilelayout as tl
from tilelayout.algebra.cute import CuteLayout
from tilelayout.core.errors import LayoutError
from tilelayout.interop.cute_tv import from_cute_tv, thread_axes, to_cute_tv

SM80_C = "((4,8),(2,2)):((32,1),(16,8))"  # CUTLASS SM80_16x8_Row CLayout (16 x 8)


def test_every_element_sits_where_the_tv_layout_says():
    tv = CuteLayout(((4, 8), (2, 2)), ((32, 1), (16, 8)))
    L = from_cute_tv(SM80_C, (16, 8))
    for t, v in itertools.product(range(32), range(4)):
        idx = tv(t, v)  # column-major index m + 16 n
        m, n = idx % 16, idx // 16
        c = L.base((m, n), (16, 8))
        assert (int(c["laneid"]), int(c["m"])) == (t, v)


def test_round_trip_both_ways():
    L = from_cute_tv(SM80_C, (16, 8))
    assert str(L) == "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]" and to_cute_tv(L, (16, 8)) == SM80_C
    for text in ("S[32:1@laneid]", "S[(4,8):(8@laneid,1@laneid)]",
                 "S[(8,2,4,2):(4@laneid,2,1@laneid,1)]"):
        M = tl.parse(text)
        shape = M.check_shape(None)
        back = from_cute_tv(to_cute_tv(M), shape)  # CuTe's size-1 value mode stays an iter
        ours, theirs = M.map_all(shape), back.map_all(shape)
        assert (theirs["laneid"] == ours["laneid"]).all()
        assert (theirs["m"] == ours.get("m", 0)).all()  # no m axis: every value is slot 0


def test_stride_zero_modes_are_replicas():
    L = from_cute_tv("(2,4):(0,1)", (4,))  # two threads hold the same four values
    assert L.replica_count == 2 and L.map_all((4,))["laneid"].shape == (4, 2)


def test_permute_gives_the_k_by_n_operand():
    L = from_cute_tv(SM80_C, (16, 8))
    P = from_cute_tv(SM80_C, (16, 8), permute=(1, 0))
    assert P.base((3, 5), (8, 16)) == L.base((5, 3), (16, 8))


def test_thread_axes_outermost_first():
    assert thread_axes(tl.parse("S[(4,8,2):(1@wid_in_wg,1@laneid,1)]")) == ("wid_in_wg", "laneid")
    assert thread_axes(tl.parse("S[(8,64):(64,1)]")) == ()
    tv = to_cute_tv(tl.parse("S[(4,32,2):(1@wid_in_wg,1@laneid,1)]"),
                    thread_axis=("wid_in_wg", "laneid"))
    # thread = lane + 32 * warp (lane fastest); the column-major index of (w, l, v) over
    # (4, 32, 2) is w + 4 l + 128 v
    assert tv == "((32,4),2):((4,1),128)"


@pytest.mark.parametrize("text", ["S[(8,64):(64,1)]", "S[32:1@laneid] + R[2:1@warpid]",
                                  "S[(4,8):(1@laneid,1@pid)]", "S[32:2@laneid]"])
def test_what_has_no_tv_layout_is_refused(text):
    with pytest.raises(LayoutError):
        to_cute_tv(tl.parse(text))


@pytest.mark.parametrize("src,shape", [(SM80_C, (16, 4)), ("(32,4):(1,16)", (16, 8)),
                                       ("Sw<1,1,1> o (2,2):(1,2)", (4,)), ("8:1", (8,))])
def test_tv_layouts_that_do_not_cover_the_tile_are_refused(src, shape):
    with pytest.raises(LayoutError):
        from_cute_tv(src, shape)
