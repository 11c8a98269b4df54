"""The Triton limits table: the int32 bound is the one Triton's lowering asserts (a
dimension of 2**31 aborts it, 2**30 lowers) and the warp sizes are NVIDIA's and AMD's."""

from __future__ import annotations

import pytest

from tilelayout.core.triton_limits import MAX_LOG2, WARP_SIZES
from tilelayout.interop.isolation import ChildDied, ChildPool


def test_the_table():
    assert MAX_LOG2 == 30 and WARP_SIZES == (32, 64)


def test_tritons_lowering_overflows_just_past_the_bound():
    ttgl = pytest.importorskip("triton.experimental.gluon.language")
    pool = ChildPool(workers=1)
    try:
        blocked = ttgl.BlockedLayout([1], [32], [1], [0])
        ok = pool.call("tilelayout.interop.gluon:triton_bases", blocked, [1 << MAX_LOG2])
        assert len(ok["register"]) == MAX_LOG2 - 5
        with pytest.raises(ChildDied, match="SIGABRT"):  # Triton itself, unchecked: it aborts
            pool.call("tilelayout.interop.gluon:triton_bases", blocked, [1 << (MAX_LOG2 + 1)])
    finally:
        pool.close()
