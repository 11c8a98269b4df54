"""The TMA load on hand-written PTX: one thread arms an mbarrier with the box's bytes and
issues ``cp.async.bulk.tensor ... mbarrier::complete_tx::bytes``, every thread waits on
the phase with ``try_wait.parity``, then reads the box. The right kernel lands the box
swizzled exactly as the reference below says; wrong coordinates, a wrong swizzle, a
wait without arming (or armed with the wrong byte count) or on the wrong parity, and a
read without the wait are each caught."""

from __future__ import annotations

import numpy as np
import pytest

from .async_proxy import TensorMap, swizzled
from .driver import execute
from .errors import DeadlockError, PtxError, RaceError, UnknownInstruction

#: the global tensor: 16 rows of 64 words; the box: 8 rows of 32 words (128 B rows)
ROWS, COLS, BOX = 16, 64, (32, 8)
TENSOR = (np.arange(ROWS * COLS, dtype=np.uint32) * 2654435761 % (1 << 31)).astype(np.uint32)
BOX_BYTES = BOX[0] * BOX[1] * 4
ARM = "\t@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], {nbytes};\n"
LOAD = ("\t@%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile."
        "mbarrier::complete_tx::bytes [%r3+{offset}], [%rd5, {{%r4, %r5}}], [%r2];\n")
WAIT = ("\tmov.u32 %r6, {parity};\n$L_wait:\n"
        "\tmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r6;\n\t@!%p2 bra $L_wait;\n")


def kernel(x: int = 8, y: int = 4, arm: str = ARM, nbytes: int = BOX_BYTES, wait: str = WAIT,
           parity: int = 0, offset: int = 0, load: str = LOAD) -> str:
    """64 threads; thread 0 loads the box at (x, y) (innermost first) into smem; after
    the wait each thread copies 16 bytes of smem to out."""
    return (".version 8.7\n.target sm_90a\n.address_size 64\n"
            ".shared .align 8 .b64 bar;\n.extern .shared .align 1024 .b8 smem[];\n"
            ".visible .entry k(.param .u64 k_out, .param .align 64 .b8 k_map[128])\n"
            ".reqntid 64\n{\n"
            "\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<20>;\n\t.reg .pred %p<8>;\n"
            "\tld.param.u64 %rd1, [k_out];\n\tmov.u32 %r1, %tid.x;\n"
            "\tsetp.eq.u32 %p1, %r1, 0;\n\tmov.u32 %r2, bar;\n"
            "\t@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\n"
            "\t@%p1 fence.mbarrier_init.release.cluster;\n\tbar.sync 0;\n"
            f"\tmov.b64 %rd5, k_map;\n\tmov.u32 %r3, smem;\n\tmov.u32 %r4, {x};\n"
            f"\tmov.u32 %r5, {y};\n"
            + arm.format(nbytes=nbytes) + load.format(offset=offset)
            + wait.format(parity=parity) +
            "\tshl.b32 %r7, %r1, 4;\n\tadd.u32 %r8, %r3, %r7;\n"
            "\tld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r8];\n"
            "\tmul.wide.u32 %rd3, %r1, 16;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
            "\tst.global.v4.u32 [%rd4], {%r10, %r11, %r12, %r13};\n\tret;\n}\n")


def tensor_map(swizzle: str = "128B") -> TensorMap:
    return TensorMap(TENSOR, (COLS, ROWS), (COLS * 4,), BOX, 4, swizzle)


def run(ptx: str, tmap=None):
    out = np.zeros(BOX_BYTES // 4, np.uint32)
    return execute(ptx, "k", 64, [out, tensor_map() if tmap is None else tmap],
                   smem_bytes=BOX_BYTES)


def expected(x: int, y: int, chunk_swizzle: bool = True) -> np.ndarray:
    """The words in shared memory: box row r (global row y + r, columns x .. x + 31) is
    128 bytes at r * 128, and with the 128B swizzle its 16-byte chunk j sits at chunk
    j ^ (r % 8) of the row (PTX ISA 5.5.7, "Swizzling modes")."""
    box = TENSOR.reshape(ROWS, COLS)[y:y + BOX[1], x:x + BOX[0]]
    chunks = box.reshape(BOX[1], 8, 4)
    out = np.empty_like(chunks)
    for r in range(BOX[1]):
        for j in range(8):
            out[r, j ^ (r % 8) if chunk_swizzle else j] = chunks[r, j]
    return out.reshape(-1)


def test_the_box_lands_swizzled_after_the_wait():
    r = run(kernel())
    assert r.buffers[0].tolist() == expected(8, 4).tolist()
    (ev,) = r.events
    assert ev.threads == (0,) and ev.operands["tensor_map"] == "k_map"
    assert ev.operands["coords"] == [8, 4] and ev.operands["smem"] % 1024 == 0
    n = r.counts.uniform(movement=False)
    assert r.counts.most("cp.async.bulk.tensor") == 1 and n["bar.sync"] == 1
    assert r.unwritten_reads == 0


def test_the_swizzle_follows_the_tensor_map():
    r = run(kernel(), tensor_map("none"))
    assert r.buffers[0].tolist() == expected(8, 4, chunk_swizzle=False).tolist()
    assert r.buffers[0].tolist() != expected(8, 4).tolist()  # a wrong swizzle is seen
    # the 64B / 32B patterns on the address (docs/hardware.md, "Swizzle modes")
    a = np.arange(0, 1024, 16)
    row = {m: (swizzled(a, m) // 16 % 8).reshape(8, 8).tolist() for m in ("32B", "64B")}
    assert row["64B"][2] == [2, 3, 0, 1, 6, 7, 4, 5] == row["64B"][6]
    assert row["32B"][1] == [1, 0, 3, 2, 5, 4, 7, 6] and row["32B"][2] == list(range(8))
    assert (swizzled(a, "CU_TENSOR_MAP_SWIZZLE_NONE") == a).all()


def test_wrong_coordinates_load_another_box_and_outside_is_zero():
    assert run(kernel(4, 8)).buffers[0].tolist() != expected(8, 4).tolist()
    assert run(kernel(4, 8)).buffers[0].tolist() == expected(4, 8).tolist()
    # the box at x = 48 reaches 16 columns past the tensor's 64: those read as zero
    got = run(kernel(48, 0)).buffers[0].reshape(BOX[1], 8, 4)
    for r in range(BOX[1]):
        assert (got[r, [j ^ (r % 8) for j in range(4, 8)]] == 0).all()
        assert (got[r, r % 8] == TENSOR.reshape(ROWS, COLS)[r, 48:52]).all()


def test_waiting_without_arming_or_with_the_wrong_bytes_deadlocks():
    with pytest.raises(DeadlockError, match="mbarrier whose phase can never complete"):
        run(kernel(arm=""))
    for nbytes in (BOX_BYTES * 2, BOX_BYTES // 2):  # the tx-count never returns to zero
        with pytest.raises(DeadlockError, match="mbarrier"):
            run(kernel(nbytes=nbytes))


def test_reading_without_the_wait_is_a_race_and_the_wrong_parity_deadlocks():
    with pytest.raises(RaceError, match="thread 0 reads shared byte .* which thread 64"):
        run(kernel(wait=""))
    # the load completed phase 0 before anyone waits: parity 1 names the next phase,
    # which nobody completes
    with pytest.raises(DeadlockError, match="mbarrier"):
        run(kernel(parity=1))
    # a CTA barrier does not order the async proxy's writes
    with pytest.raises(RaceError):
        run(kernel(wait="\tbar.sync 0;\n"))


def test_bad_operands_are_refused():
    with pytest.raises(PtxError, match="not 128-byte aligned"):
        run(kernel(offset=16))
    with pytest.raises(PtxError, match="no tensor-map model for k_map"):
        execute(kernel(), "k", 64, [np.zeros(256, np.uint32), b"\0" * 128], smem_bytes=1024)
    with pytest.raises(UnknownInstruction):
        run(kernel(load=LOAD.replace("::bytes", "::bytes.multicast::cluster")))
    with pytest.raises(PtxError, match="at most the 64B span"):
        TensorMap(TENSOR, (COLS, ROWS), (COLS * 4,), BOX, 4, "64B")
    with pytest.raises(PtxError, match="expected a swizzle"):
        TensorMap(TENSOR, (COLS, ROWS), (COLS * 4,), BOX, 4, "256B")


def test_a_wait_returns_false_when_nobody_else_can_run():
    """try_wait may time out (PTX ISA "mbarrier.try_wait"): a thread that then arrives
    itself completes the phase, so this is no deadlock."""
    body = (".version 8.7\n.target sm_90a\n.address_size 64\n.shared .align 8 .b64 bar;\n"
            ".visible .entry k(.param .u64 k_out)\n.reqntid 32\n{\n"
            "\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<4>;\n"
            "\tld.param.u64 %rd1, [k_out];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, bar;\n"
            "\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 mbarrier.init.shared::cta.b64 [%r2], 32;\n"
            "\tbar.sync 0;\n\tmov.u32 %r6, 0;\n\tmov.u32 %r7, 1;\n"
            "\tmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r6;\n"
            "\t@%p2 bra $L_done;\n\tmov.u32 %r7, 2;\n"
            "\tmbarrier.arrive.shared::cta.b64 _, [%r2];\n$L_again:\n"
            "\tmbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], %r6;\n"
            "\t@!%p3 bra $L_again;\n$L_done:\n"
            "\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
            "\tst.global.u32 [%rd4], %r7;\n\tret;\n}\n")
    r = execute(body, "k", 32, [np.zeros(32, np.uint32)])
    assert r.buffers[0].tolist() == [2] * 32  # every thread saw false once, then arrived
