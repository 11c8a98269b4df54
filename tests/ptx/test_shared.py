"""Shared memory and CTA barriers on hand-written PTX: every access width and vector form
against a byte model, a transpose through shared memory across warps, named barriers,
the wavefronts of each request (equal to the address-only replay's), and the races the
interpreter catches: a missing ``bar.sync``, a buffer reused without a second barrier,
lanes of one warp without ``bar.warp.sync``, two lanes storing different values to one
byte, misaligned and out-of-bounds accesses, and a barrier that can never complete."""

from __future__ import annotations

import numpy as np
import pytest

from ..planning.scenarios.ptx_replay import replay
from .errors import DeadlockError, PtxError, RaceError
from .ptxkit import kernel, run, words

X = (np.arange(256, dtype=np.uint64) * 0x9E3779B1 & 0xFFFFFFFF).astype(np.uint32)


def test_transpose_across_warps_with_a_barrier():
    """64 threads store an 8x8 tile transposed, sync, and read it back row-major."""
    body = ("and.b32 %r3, %r1, 7;\nshr.u32 %r4, %r1, 3;\nshl.b32 %r5, %r3, 3;\n"
            "add.s32 %r5, %r5, %r4;\nshl.b32 %r6, %r5, 2;\nmov.u32 %r7, smem;\n"
            "add.s32 %r8, %r7, %r6;\nst.shared.b32 [%r8], %r10;\nbar.sync 0;\n"
            "shl.b32 %r9, %r1, 2;\nadd.s32 %r9, %r7, %r9;\nld.shared.u32 %r20, [%r9];")
    r = run(body, X[:64], threads=64, smem=256)
    t = np.arange(64)
    assert r.buffers[1].tolist() == X[(t % 8) * 8 + t // 8].tolist()
    assert r.counts.uniform()["bar.sync"] == 1
    # the wavefronts of each request are the replay's
    rp = replay(kernel(body, 64))
    assert [a.wavefronts.sum() for a in r.counts.accesses] == [a.wavefronts for a in rp.accesses]
    assert r.counts.wavefronts == rp.wavefronts and r.counts.ideal == rp.ideal
    # without the barrier, warp 1 reads words warp 0 wrote: a race
    with pytest.raises(RaceError, match=r"reads shared byte \d+, which thread \d+ wrote at line "
                                        r"\d+ with no barrier"):
        run(body.replace("bar.sync 0;", ""), X[:64], threads=64, smem=256)


@pytest.mark.parametrize("store,load", [
    ("st.shared.v4.b32 [%r8], {%r10, %r11, %r12, %r13};", "ld.shared.b16 %rs1, [%r9];"),
    ("st.shared.v2.b64 [%r8], {%rd10, %rd11};", "ld.shared.v2.b8 {%rs1, %rs2}, [%r9];"),
    ("st.shared.v4.b16 [%r8], {%rs10, %rs11, %rs12, %rs13};", "ld.shared.v4.b32 "
     "{%r30, %r31, %r32, %r33}, [%r9];"),
    ("st.shared.b8 [%r8], %rs10;", "ld.shared.s8 %rs1, [%r9];"),
])
def test_every_width_against_a_byte_model(store, load):
    """Thread t stores at 16 t, syncs, then loads at a rotated address; the bytes read are
    the model's."""
    body = ("shl.b32 %r8, %r1, 4;\nadd.s32 %r11, %r10, 1;\nadd.s32 %r12, %r10, 2;\n"
            "add.s32 %r13, %r10, 3;\ncvt.u64.u32 %rd10, %r10;\nshl.b64 %rd10, %rd10, 16;\n"
            "or.b64 %rd10, %rd10, 0x55;\nnot.b64 %rd11, %rd10;\ncvt.u16.u32 %rs10, %r10;\n"
            "add.s16 %rs11, %rs10, 7;\nxor.b16 %rs12, %rs10, 0xFF00;\nmov.u16 %rs13, 0x8181;\n"
            f"{store}\nbar.sync 0;\nadd.s32 %r9, %r1, 1;\nand.b32 %r9, %r9, 31;\n"
            f"shl.b32 %r9, %r9, 4;\nadd.s32 %r9, %r9, @OFF@;\n{load}\n")
    vec = load.split()[0]
    off = 0 if "v4.b32" in vec else 8  # a 16-byte load needs a 16-byte aligned address
    body = body.replace("@OFF@", str(off))
    if "v4.b32" in vec:
        body += "xor.b32 %r20, %r30, %r31;\nxor.b32 %r20, %r20, %r32;\nxor.b32 %r20, %r20, %r33;"
    elif "v2.b8" in vec:
        body += "cvt.u32.u16 %r20, %rs1;\ncvt.u32.u16 %r21, %rs2;\nshl.b32 %r21, %r21, 8;\n" \
                "or.b32 %r20, %r20, %r21;"
    else:
        body += "cvt.s32.s16 %r20, %rs1;"
    got = words(body, X[:32], smem=512)
    # the byte model
    mem = np.full(512, 0xCD, np.uint8)
    for t in range(32):
        x = int(X[t])
        if "v4.b32" in store:
            data = b"".join(((x + k) & 0xFFFFFFFF).to_bytes(4, "little") for k in range(4))
        elif "v2.b64" in store:
            a = (x << 16 | 0x55) & (2 ** 64 - 1)
            data = a.to_bytes(8, "little") + (~a & (2 ** 64 - 1)).to_bytes(8, "little")
        elif "v4.b16" in store:
            h = x & 0xFFFF
            data = b"".join(v.to_bytes(2, "little") for v in (h, (h + 7) & 0xFFFF, h ^ 0xFF00,
                                                               0x8181))
        else:
            data = bytes([x & 0xFF])
        mem[16 * t:16 * t + len(data)] = np.frombuffer(data, np.uint8)
    want = []
    for t in range(32):
        a = 16 * ((t + 1) % 32) + off
        if "v4.b32" in vec:
            w = mem[a:a + 16].view(np.uint32)
            want.append(int(w[0] ^ w[1] ^ w[2] ^ w[3]))
        elif "v2.b8" in vec:
            want.append(int(mem[a]) | int(mem[a + 1]) << 8)
        elif "s8" in vec:
            want.append(int(mem[a].astype(np.int8)) & 0xFFFFFFFF)
        else:
            want.append(int(mem[a:a + 2].view(np.int16)[0]) & 0xFFFFFFFF)
    assert got.tolist() == want


def test_the_wrong_address_is_caught_by_the_byte_model():
    body = ("shl.b32 %r8, %r1, 2;\nst.shared.b32 [%r8], %r10;\nbar.sync 0;\n"
            "xor.b32 %r9, %r8, 4;\nld.shared.b32 %r20, [%r9];")
    t = np.arange(32)
    assert words(body, X[:32], smem=128).tolist() == X[t ^ 1].tolist()
    assert words(body.replace("xor.b32 %r9, %r8, 4", "xor.b32 %r9, %r8, 8"), X[:32],
                 smem=128).tolist() != X[t ^ 1].tolist()


def test_a_buffer_reused_without_a_second_barrier_is_a_race():
    """Pass 1 stores and reads; pass 2 overwrites the buffer while another warp may still
    read pass 1: a write after read with no barrier between them."""
    one = ("shl.b32 %r8, %r1, 2;\nst.shared.b32 [%r8], %r10;\nbar.sync 0;\n"
           "xor.b32 %r9, %r8, 128;\nld.shared.b32 %r20, [%r9];\n")
    two = "add.s32 %r11, %r10, 1;\nst.shared.b32 [%r8], %r11;\n"
    with pytest.raises(RaceError, match=r"overwrites shared byte \d+, which thread \d+ read"):
        run(one + two, X[:64], threads=64, smem=256)
    r = run(one + "bar.sync 0;\n" + two, X[:64], threads=64, smem=256)
    assert r.buffers[1].tolist() == X[np.arange(64) ^ 32].tolist()
    assert r.counts.uniform()["bar.sync"] == 2


def test_lanes_of_one_warp_need_bar_warp_sync():
    body = ("shl.b32 %r8, %r1, 2;\nst.shared.b32 [%r8], %r10;\n{sync}"
            "xor.b32 %r9, %r8, 4;\nld.shared.b32 %r20, [%r9];")
    with pytest.raises(RaceError, match="no barrier"):
        words(body.format(sync=""), X[:32], smem=128)
    got = words(body.format(sync="bar.warp.sync -1;\n"), X[:32], smem=128)
    assert got.tolist() == X[np.arange(32) ^ 1].tolist()


def test_one_instruction_storing_different_values_to_a_byte_is_refused():
    with pytest.raises(RaceError, match="store different values to shared byte 0 in one"):
        words("mov.u32 %r8, 0;\nst.shared.b32 [%r8], %r10;\nmov.u32 %r20, 0;", X[:32], smem=64)
    # the same value from every lane (a replicated element) is fine
    got = words("mov.u32 %r8, 0;\nmov.u32 %r11, 7;\nst.shared.b32 [%r8], %r11;\nbar.warp.sync -1;\n"
                "ld.shared.b32 %r20, [%r8];", X[:32], smem=64)
    assert got.tolist() == [7] * 32


def test_misaligned_and_out_of_bounds_accesses_are_refused():
    with pytest.raises(PtxError, match="misaligned"):
        words("shl.b32 %r8, %r1, 4;\nadd.s32 %r8, %r8, 4;\n"
              "st.shared.v4.b32 [%r8], {%r10, %r10, %r10, %r10};\nmov.u32 %r20, 0;", smem=1024)
    with pytest.raises(PtxError, match="outside the 64 bytes of shared memory"):
        words("shl.b32 %r8, %r1, 2;\nst.shared.b32 [%r8], %r10;\nmov.u32 %r20, 0;", smem=64)
    with pytest.raises(PtxError, match="outside every buffer"):
        words("ld.global.u32 %r20, [%rd4+4096];")


def test_named_barriers_with_a_thread_count():
    """Warps 0-1 exchange through barrier 1 (64 threads) while warps 2-3 use barrier 2;
    a count no group can reach is a deadlock."""
    body = ("shr.u32 %r3, %r1, 6;\nadd.s32 %r4, %r3, 1;\nshl.b32 %r8, %r1, 2;\n"
            "st.shared.b32 [%r8], %r10;\nbar.sync %r4, 64;\nxor.b32 %r9, %r8, 128;\n"
            "ld.shared.b32 %r20, [%r9];")
    r = run(body, X[:128], threads=128, smem=512)
    assert r.buffers[1].tolist() == X[np.arange(128) ^ 32].tolist()
    with pytest.raises(DeadlockError, match="wait at a barrier"):
        run(body.replace("64;", "96;"), X[:128], threads=128, smem=512)
    # bar.arrive (producer) + bar.sync (consumer) on one barrier
    prod = ("setp.lt.u32 %p1, %r1, 32;\nshl.b32 %r8, %r1, 2;\n@%p1 st.shared.b32 [%r8], %r10;\n"
            "@%p1 bar.arrive 3, 64;\n@!%p1 bar.sync 3, 64;\nand.b32 %r9, %r8, 127;\n"
            "ld.shared.b32 %r20, [%r9];")
    r = run(prod, X[:64], threads=64, smem=256)
    assert r.buffers[1].tolist() == X[:32].tolist() * 2
    with pytest.raises(RaceError):  # consumers that only arrive do not wait for the data
        run(prod.replace("@!%p1 bar.sync", "@!%p1 bar.arrive"), X[:64], threads=64, smem=256)


@pytest.mark.parametrize("stride,vec", [(4, 1), (128, 1), (8, 2), (16, 4), (272, 4), (2, 1)])
def test_wavefronts_equal_the_bank_model_and_the_replay(stride, vec):
    ty = "b16" if stride == 2 else "b32"
    regs = {1: "%rs10" if ty == "b16" else "%r10", 2: "{%r10, %r10}",
            4: "{%r10, %r10, %r10, %r10}"}[vec]
    v = f".v{vec}" if vec > 1 else ""
    body = (f"mul.lo.s32 %r8, %r1, {stride};\ncvt.u16.u32 %rs10, %r10;\n"
            f"st.shared{v}.{ty} [%r8], {regs};\nmov.u32 %r20, 0;")
    r = run(body, X[:32], smem=32 * max(stride, 16))
    rp = replay(kernel(body))
    assert r.counts.wavefronts == rp.wavefronts and r.counts.ideal == rp.ideal
    assert r.counts.shared_by_kind() == {f"st.shared{v}.{ty}": 1}
