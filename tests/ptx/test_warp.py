"""Warp-synchronous instructions and control flow on hand-written PTX: ``shfl.sync`` in
every mode with clamps, segments and the predicate output (against the PTX ISA's
pseudocode, transcribed lane by lane below), ``vote`` / ``activemask`` / ``elect``,
loops and divergent branches that reconverge, and the refusals: a shuffle some lanes of
its member mask never reach, a source lane outside the mask."""

from __future__ import annotations

import numpy as np
import pytest

from .errors import DeadlockError, PtxError
from .ptxkit import run, words

X = (np.arange(32, dtype=np.uint32) * 0x01010101 + 0x1000) & 0xFFFFFFFF


def shfl_reference(mode: str, b: int, c: int, values) -> tuple[list[int], list[bool]]:
    """PTX ISA "shfl.sync", Semantics, for every lane."""
    out, preds = [], []
    for lane in range(32):
        bval, cval, seg = b & 31, c & 31, (c >> 8) & 31
        max_lane = (lane & seg) | (cval & ~seg)
        min_lane = lane & seg
        if mode == "up":
            j = lane - bval
            p = j >= max_lane
        elif mode == "down":
            j = lane + bval
            p = j <= max_lane
        elif mode == "bfly":
            j = lane ^ bval
            p = j <= max_lane
        else:
            j = min_lane | (bval & ~seg)
            p = j <= max_lane
        out.append(int(values[j if p else lane]))
        preds.append(bool(p))
    return out, preds


@pytest.mark.parametrize("mode,b,c", [
    ("idx", 5, 0x1F), ("idx", 37, 0x1F), ("idx", 3, 0x181F), ("up", 1, 0), ("up", 3, 0x1800),
    ("down", 1, 0x1F), ("down", 6, 0x1807), ("bfly", 16, 0x1F), ("bfly", 5, 0x1C1F),
    ("bfly", 1, 0x1E01)])
def test_shfl_sync_modes_clamps_and_segments(mode, b, c):
    got = words(f"shfl.sync.{mode}.b32 %r20|%p1, %r10, {b}, {c}, -1;\n"
                f"selp.b32 %r21, 0x80000000, 0, %p1;\nand.b32 %r20, %r20, 0x7FFFFFFF;\n"
                f"or.b32 %r20, %r20, %r21;", X)
    vals, preds = shfl_reference(mode, b, c, X)
    assert got.tolist() == [v & 0x7FFFFFFF | (p << 31) for v, p in zip(vals, preds)]


def test_shfl_lane_from_a_register_and_a_wrong_lane_is_caught():
    body = "add.s32 %r3, %r2, 7;\nand.b32 %r3, %r3, 31;\nshfl.sync.idx.b32 %r20, %r10, %r3, 31, -1;"
    want = [int(X[(t + 7) % 32]) for t in range(32)]
    assert words(body, X).tolist() == want
    assert words(body.replace("7;", "6;"), X).tolist() != want


def test_shfl_across_warps_stays_in_each_warp():
    x = np.arange(128, dtype=np.uint32)
    got = words("shfl.sync.bfly.b32 %r20, %r10, 1, 31, -1;", x, threads=128)
    assert got.tolist() == [t ^ 1 for t in range(128)]


def test_vote_activemask_and_elect():
    got = words("setp.lt.u32 %p1, %r2, 5;\nvote.sync.ballot.b32 %r20, %p1, -1;\n"
                "vote.sync.all.pred %p2, %p1, -1;\nselp.b32 %r21, 1, 0, %p2;\n"
                "vote.sync.any.pred %p3, %p1, -1;\nselp.b32 %r22, 2, 0, %p3;\n"
                "add.s32 %r20, %r20, %r21;\nadd.s32 %r20, %r20, %r22;")
    assert set(got.tolist()) == {0b11111 + 2}
    got = words("setp.lt.u32 %p1, %r2, 20;\n@%p1 bra $L_in;\nmov.u32 %r20, 0;\nbra $L_out;\n"
                "$L_in:\nactivemask.b32 %r20;\n$L_out:")
    assert got.tolist() == [(1 << 20) - 1] * 20 + [0] * 12
    got = words("elect.sync %r20|%p1, -1;\nselp.b32 %r21, 100, 0, %p1;\nadd.s32 %r20, %r20, %r21;")
    assert got.tolist() == [100] + [0] * 31


def test_divergent_branches_reconverge_for_a_full_warp_shuffle():
    """Lanes < 16 and the rest take different paths (an if / else), then all 32 shuffle:
    the threads meet again at the join and the shuffle sees every lane."""
    body = ("setp.lt.u32 %p1, %r2, 16;\n@%p1 bra $L_then;\nmul.lo.s32 %r11, %r10, 3;\n"
            "bra $L_join;\n$L_then:\nadd.s32 %r11, %r10, 1000;\n$L_join:\n"
            "shfl.sync.bfly.b32 %r20, %r11, 16, 31, -1;")
    got = words(body, np.arange(32, dtype=np.uint32))
    assert got.tolist() == [3 * (t + 16) for t in range(16)] + [t - 16 + 1000 for t in range(16, 32)]


def test_loops_with_a_different_trip_count_per_lane():
    body = ("mov.u32 %r20, 0;\nmov.u32 %r11, 0;\n$L_loop:\nsetp.ge.u32 %p1, %r11, %r2;\n"
            "@%p1 bra $L_done;\nadd.s32 %r20, %r20, %r11;\nadd.s32 %r11, %r11, 1;\n"
            "bra.uni $L_loop;\n$L_done:\nshfl.sync.idx.b32 %r21, %r20, 31, 31, -1;\n"
            "add.s32 %r20, %r20, %r21;")
    got = words(body)
    assert got.tolist() == [t * (t - 1) // 2 + 31 * 30 // 2 for t in range(32)]


def test_a_shuffle_some_member_lanes_never_reach_is_a_deadlock():
    """Half the warp waits at one shfl.sync, the other half at another: neither can go on
    (the interpreter does not let two shuffle instructions meet)."""
    body = ("setp.lt.u32 %p1, %r2, 16;\n@%p1 bra $L_other;\n"
            "shfl.sync.idx.b32 %r20, %r10, 0, 31, -1;\nbra.uni $L_end;\n$L_other:\n"
            "shfl.sync.idx.b32 %r20, %r10, 1, 31, -1;\n$L_end:")
    with pytest.raises(DeadlockError, match=r"16 threads wait at a warp-synchronous instruction"):
        run(body)
    # lanes that exit are not waited for; the ones left shuffle among themselves
    got = words("setp.lt.u32 %p1, %r2, 16;\n@%p1 bra $L_skip;\n"
                "shfl.sync.idx.b32 %r20, %r10, 16, 31, 0xFFFF0000;\nbra.uni $L_end;\n"
                "$L_skip:\nret;\n$L_end:", np.arange(32, dtype=np.uint32) + 5)
    assert got.tolist() == [0] * 16 + [21] * 16


def test_reading_a_lane_outside_the_member_mask_is_refused():
    with pytest.raises(PtxError, match="does not execute the shuffle"):
        run("setp.lt.u32 %p1, %r2, 16;\n@%p1 bra $L_skip;\n"
            "shfl.sync.idx.b32 %r20, %r10, 0, 31, 0xFFFF0000;\n$L_skip:\nret;", store=False)
    with pytest.raises(PtxError, match="not in its own member mask"):
        words("shfl.sync.idx.b32 %r20, %r10, 0, 31, 0xFFFF;")


def test_endless_loops_stop_with_a_clear_error():
    with pytest.raises(PtxError, match="more than 20000 steps"):
        words("$L:\nbra.uni $L;")
