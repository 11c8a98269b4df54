"""The asynchronous proxy on hand-written PTX: a TMA store (``cp.async.bulk.tensor``) is
recorded with its tensor map, coordinates and a copy of shared memory; shared bytes
written without a ``fence.proxy.async`` after them, or by another thread without a
barrier before the store, are refused; ``mbarrier`` arrive / wait orders memory like a
barrier."""

from __future__ import annotations

import numpy as np
import pytest

from .driver import execute
from .errors import PtxError, RaceError

HEAD = (".version 8.7\n.target sm_90a\n.address_size 64\n"
        ".extern .shared .align 1024 .b8 smem[];\n"
        ".visible .entry k(.param .u64 k_in, .param .align 64 .b8 k_map[128])\n.reqntid 64\n{\n"
        "\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<20>;\n\t.reg .pred %p<8>;\n"
        "\tld.param.u64 %rd1, [k_in];\n\tmov.u32 %r1, %tid.x;\n"
        "\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
        "\tld.global.u32 %r10, [%rd4];\n\tshl.b32 %r8, %r1, 2;\n"
        "\tst.shared.b32 [%r8], %r10;\n")
STORE = ("\tmov.b64 %rd5, k_map;\n\tsetp.eq.u32 %p1, %r1, 0;\n\tmov.u32 %r2, 64;\n"
         "\tmov.u32 %r3, 8;\n"
         "\t@%p1 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd5, {%r2, %r3}], [%r4];\n"
         "\tcp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group.read 0;\n\tret;\n}\n")


def _run(middle: str):
    x = np.arange(64, dtype=np.uint32) * 3
    return execute(HEAD + middle + "\tmov.u32 %r4, smem;\n" + STORE, "k", 64,
                   [x, b"\x01" * 128], smem_bytes=256), x


def test_a_tma_store_is_recorded_with_its_operands():
    r, x = _run("\tfence.proxy.async.shared::cta;\n\tbar.sync 0;\n")
    (ev,) = r.events
    assert ev.threads == (0,) and ev.operands["tensor_map"] == ["k_map"]
    assert ev.operands["coords"] == [[64, 8]] and ev.operands["smem"] == [0]
    assert ev.operands["shared"][:256].view(np.uint32).tolist() == x.tolist()
    assert r.counts.uniform(movement=True)["fence.proxy.async.shared::cta"] == 1


def test_a_missing_fence_or_barrier_is_refused():
    with pytest.raises(PtxError, match="no fence.proxy.async after it"):
        _run("\tbar.sync 0;\n")
    with pytest.raises(PtxError, match="no barrier between them"):
        _run("\tfence.proxy.async.shared::cta;\n")


def test_mbarrier_arrive_and_wait_order_memory():
    body = (".version 8.7\n.target sm_90a\n.address_size 64\n"
            ".shared .align 8 .b64 bar;\n.extern .shared .align 16 .b8 smem[];\n"
            ".visible .entry k(.param .u64 k_in, .param .u64 k_out)\n.reqntid 64\n{\n"
            "\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<20>;\n\t.reg .pred %p<8>;\n"
            "\tld.param.u64 %rd1, [k_in];\n\tld.param.u64 %rd2, [k_out];\n"
            "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 4;\n"
            "\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 mbarrier.init.shared.b64 [bar], 32;\n"
            "\tbar.sync 0;\n\tsetp.lt.u32 %p2, %r1, 32;\n\t@!%p2 bra $L_consumer;\n"
            "\tadd.s64 %rd4, %rd1, %rd3;\n\tld.global.u32 %r10, [%rd4];\n"
            "\tshl.b32 %r8, %r1, 2;\n\tst.shared.b32 [smem+0], %r10;\n"
            "\tmbarrier.arrive.shared.b64 %rd9, [bar];\n\tret;\n"
            "$L_consumer:\n\tmov.u32 %r5, 0;\n"
            "$L_wait:\n\tmbarrier.try_wait.parity.shared.b64 %p3, [bar], %r5;\n"
            "\t@!%p3 bra $L_wait;\n\tld.shared.u32 %r20, [smem+0];\n"
            "\tadd.s64 %rd5, %rd2, %rd3;\n\tst.global.u32 [%rd5], %r20;\n\tret;\n}\n")
    x = np.full(64, 7, np.uint32)  # every producer stores the same value to one word
    r = execute(body, "k", 64, [x, np.zeros(64, np.uint32)], smem_bytes=16)
    assert r.buffers[1][32:].tolist() == [7] * 32
    with pytest.raises(RaceError):  # consumers that do not wait read unordered data
        no_wait = body.replace("\tmbarrier.try_wait.parity.shared.b64 %p3, [bar], %r5;\n"
                               "\t@!%p3 bra $L_wait;\n", "")
        execute(no_wait, "k", 64,
                [x, np.zeros(64, np.uint32)], smem_bytes=16)
