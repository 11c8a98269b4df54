"""The PTX shared-memory replay on hand-written kernels whose answers are known."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl

from .ptx_replay import ReplayError, replay


def kernel(body: str, threads: int = 32, target: str = "sm_90") -> str:
    return (f".version 8.0\n.target {target}\n.address_size 64\n"
            f".extern .shared .align 16 .b8 global_smem[];\n"
            f".visible .entry k(\n\t.param .u64 k_param_0\n)\n.reqntid {threads}\n{{\n"
            f"\t.reg .b32 %r<64>;\n\t.reg .pred %p<8>;\n\tmov.u32 %r1, %tid.x;\n"
            f"\tmov.b32 %r2, global_smem;\n{body}\n\tret;\n}}\n")


def one(body: str, threads: int = 32):
    r = replay(kernel(body, threads))
    return r.wavefronts, r.ideal, r.counts


def test_words_strided_by_lane():
    # lane l stores word l: one wavefront; 128-byte stride: every lane in bank 0
    assert one("shl.b32 %r3, %r1, 2;\nst.shared.b32 [%r3], %r9;") == (1, 1, {"st.shared.b32": 1})
    assert one("shl.b32 %r3, %r1, 7;\nst.shared.b32 [%r3], %r9;")[:2] == (32, 1)
    # the base symbol and an immediate offset do not move banks
    assert one("shl.b32 %r3, %r1, 2;\nadd.s32 %r4, %r2, %r3;\nld.shared.b32 %r5, [%r4+256];"
               )[:2] == (1, 1)


def test_vector_widths_and_sub_word_accesses():
    # 16 B per lane, contiguous: 4 phases of 8 lanes, one wavefront each
    assert one("shl.b32 %r3, %r1, 4;\nst.shared.v4.b32 [%r3], {%r9, %r10, %r11, %r12};") \
        == (4, 4, {"st.shared.v4.b32": 1})
    # 8 B per lane at a 256-byte stride: 16 lanes per phase all in banks 0-1
    assert one("shl.b32 %r3, %r1, 8;\nld.shared.v2.b32 {%r5, %r6}, [%r3];")[:2] == (32, 2)
    # 2 B per lane, contiguous: 16 words, conflict-free; lanes 2l, 2l+1 share a word
    assert one("shl.b32 %r3, %r1, 1;\nst.shared.b16 [%r3], %r9;")[:2] == (1, 1)
    # v2.b16 (4 B) at an 8-byte stride: 2 lanes per even bank -> 2-way
    assert one("shl.b32 %r3, %r1, 3;\nst.shared.v2.b16 [%r3], {%r9, %r10};")[:2] == (2, 1)


def test_matrices_are_eight_row_phases():
    # ldmatrix.x4: lane l gives row l of matrix l/8; rows 16 B apart: 4 wavefronts
    assert one("shl.b32 %r3, %r1, 4;\n"
               "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r5, %r6, %r7, %r8}, [%r3];") \
        == (4, 4, {"ldmatrix.x4": 1})
    # rows 128 B apart: the 8 rows of a matrix share 4 banks -> 8 wavefronts per matrix
    assert one("shl.b32 %r3, %r1, 7;\n"
               "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r5, %r6, %r7, %r8}, [%r3];"
               )[:2] == (32, 4)
    # .x1 reads only lanes 0-7's addresses (the rest may be anything)
    assert one("shl.b32 %r3, %r1, 7;\nand.b32 %r4, %r1, 7;\nsetp.lt.u32 %p1, %r1, 8;\n"
               "selp.b32 %r5, 16, 128, %p1;\nmul.lo.s32 %r6, %r1, %r5;\n"
               "stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r6], {%r9};") \
        == (1, 1, {"stmatrix.x1": 1})
    # 8 rows of 128 B: chunk 0 of every row sits in banks 0-3 (8-way per matrix); the
    # 128B swizzle puts row r's chunk 0 at chunk r: conflict-free
    rows = "and.b32 %r3, %r1, 7;\nshl.b32 %r4, %r3, 7;\n"
    load = "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r8, %r9}, [%r7];"
    assert one(rows + "mov.u32 %r6, 0;\nor.b32 %r7, %r4, %r6;\n" + load)[:2] == (16, 2)
    assert one(rows + "shl.b32 %r6, %r3, 4;\nor.b32 %r7, %r4, %r6;\n" + load)[:2] == (2, 2)


def test_warps_add_up_and_predicates_mask_lanes():
    # 2 warps, each lane its own word: 1 wavefront per warp
    r = replay(kernel("shl.b32 %r3, %r1, 2;\nst.shared.b32 [%r3], %r9;", threads=64))
    assert (r.warps, r.wavefronts, r.ideal, r.counts) == (2, 2, 2, {"st.shared.b32": 1})
    assert r.footprint == 64 * 4
    # lanes >= 16 inactive; the active ones 256 B apart -> 16-way
    w, i, _ = one("shl.b32 %r3, %r1, 8;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 st.shared.b32 [%r3], %r9;")
    assert (w, i) == (16, 1)
    w, i, _ = one("shl.b32 %r3, %r1, 8;\nsetp.lt.u32 %p1, %r1, 16;\n@!%p1 st.shared.b32 [%r3], %r9;")
    assert (w, i) == (16, 1)


def test_integer_ops():
    """bfe, lop3, prmt, mad, shr, cvt, sub / neg on thread indices are evaluated exactly:
    each builds lane * 4 another way (one wavefront); a wrong result would conflict."""
    for body in ("bfe.u32 %r3, %r1, 0, 5;\nshl.b32 %r4, %r3, 2;",
                 "lop3.b32 %r3, %r1, 31, -1, 0x80;\nmad.lo.s32 %r4, %r3, 4, 0;",  # a & b & c
                 "prmt.b32 %r3, %r1, 0, 0x3210;\nmul.lo.s32 %r4, %r3, 4;",
                 "shl.b32 %r3, %r1, 5;\nshr.u32 %r4, %r3, 3;",
                 "cvt.u64.u32 %rd1, %r1;\nshl.b64 %rd2, %rd1, 2;\ncvt.u32.u64 %r4, %rd2;",
                 "sub.s32 %r3, 0, %r1;\nneg.s32 %r5, %r3;\nshl.b32 %r4, %r5, 2;"):
        r = replay(kernel(body + "\nst.shared.b32 [%r4], %r9;"))
        assert r.accesses[0].addresses.tolist() == [4 * lane for lane in range(32)], body
        assert r.wavefronts == 1


def test_integer_literals_of_every_ptx_form():
    """PTX ISA "Integer Constants": Triton writes ``prmt`` selectors as ``0x7701U``; a
    leading 0 is octal, ``0b`` binary."""
    for imm in ("0x80U", "128", "128U", "0200", "0b10000000"):
        r = replay(kernel(f"mov.u32 %r3, {imm};\nshl.b32 %r4, %r1, 2;\nadd.s32 %r5, %r4, %r3;\n"
                          f"st.shared.b32 [%r5], %r9;"))
        assert r.accesses[0].addresses.tolist() == [128 + 4 * lane for lane in range(32)], imm


def test_signed_bit_field_extract_sign_extends():
    """PTX ISA "bfe": ``bfe.s32`` replicates the field's top bit (Triton masks with it:
    ``bfe.s32 x, tid, 3, 1`` then ``and`` a constant selects the constant for lane bit
    3); ``bfe.u32`` does not, and a zero length gives 0."""
    for body, want in (("bfe.s32 %r3, %r1, 3, 1;\nand.b32 %r4, %r3, 1040;",
                        [1040 * (lane >> 3 & 1) for lane in range(32)]),
                       ("bfe.u32 %r3, %r1, 3, 1;\nand.b32 %r4, %r3, 1040;", [0] * 32),
                       ("bfe.s32 %r3, %r1, 2, 2;\nand.b32 %r4, %r3, 1023;",
                        [[0, 1, 1022, 1023][lane >> 2 & 3] for lane in range(32)]),
                       ("bfe.s32 %r3, %r1, 2, 0;\nadd.s32 %r4, %r3, 0;", [0] * 32)):
        r = replay(kernel(body + "\nshl.b32 %r5, %r4, 0;\nst.shared.b8 [%r5+2048], %r9;"))
        assert r.accesses[0].addresses.tolist() == [2048 + a for a in want], body


def test_data_instructions_are_counted_address_arithmetic_is_not():
    body = ("ld.global.b32 %r10, [k_param_0];\nld.global.b32 %r11, [k_param_0+4];\n"
            "prmt.b32 %r12, %r10, %r11, 0x5410;\n"         # data, then stored to smem: counted
            "prmt.b32 %r17, %r10, %r11, 0x3210;\n"         # data, only to global: not counted
            "st.global.b32 [k_param_0], %r17;\n"
            "prmt.b32 %r13, %r1, 0, 0x3210;\n"             # thread index: arithmetic
            "setp.eq.s32 %p1, %r13, 0;\nselp.b32 %r14, %r10, %r11, %p1;\n"  # sent: counted
            "shfl.sync.idx.b32 %r15, %r14, %r13, 31, -1;\n"
            "selp.b32 %r18, %r15, %r10, %p1;\n"            # on received data: counted
            "shl.b32 %r19, %r1, 2;\nst.shared.b32 [%r19], %r12;\n"
            "cvt.rn.f16x2.f32 %r16, %r10, %r11;\nbar.sync 0;\nbar.warp.sync -1;")
    assert one(body)[2] == {"prmt.b32": 1, "selp.b32": 2, "shfl.sync.idx": 1,
                            "st.shared.b32": 1, "cvt.rn.f16x2.f32": 1, "bar.sync": 1,
                            "bar.warp.sync": 1}


def test_a_chain_of_permutes_packing_a_stored_word_counts_whole():
    """Four bytes packed by three prmt (two pairs, then the pairs) and stored: all three
    count, once each, however many stores use them (Triton's 8-bit staging packs so)."""
    body = ("ld.global.b32 %r10, [k_param_0];\nld.global.b32 %r11, [k_param_0+4];\n"
            "ld.global.b32 %r20, [k_param_0+8];\nld.global.b32 %r21, [k_param_0+12];\n"
            "prmt.b32 %r12, %r10, %r11, 0x3340;\nprmt.b32 %r13, %r20, %r21, 0x3340;\n"
            "prmt.b32 %r14, %r12, %r13, 0x5410;\nmov.b32 %r15, %r14;\n"
            "shl.b32 %r19, %r1, 2;\nst.shared.b32 [%r19], %r15;\n"
            "st.shared.b32 [%r19+128], %r14;")
    assert one(body)[2] == {"prmt.b32": 3, "st.shared.b32": 2}


def test_a_select_widened_to_be_shuffled_counts():
    """Seed 29's harness pair 475: Triton selects 8-bit values in 16-bit registers, then
    widens each (cvt.u32.u16, and.b32 255) to shuffle it: the select counts; an ``and``
    with a register (arithmetic on data) passes nothing on."""
    body = ("ld.global.b32 %r10, [k_param_0];\nld.global.b32 %r11, [k_param_0+4];\n"
            "and.b32 %r3, %r1, 1;\nsetp.ne.b32 %p1, %r3, 0;\n"
            "selp.b32 %r12, %r10, %r11, %p1;\nand.b32 %r13, %r12, 255;\n"
            "shfl.sync.idx.b32 %r14, %r13, %r3, 31, -1;\n"
            "selp.b32 %r15, %r11, %r10, %p1;\nand.b32 %r16, %r15, %r10;\n"
            "shfl.sync.idx.b32 %r17, %r16, %r3, 31, -1;")
    assert one(body)[2] == {"selp.b32": 1, "shfl.sync.idx": 2}


def test_inline_asm_scopes_shadow_registers():
    body = ("shl.b32 %r3, %r1, 2;\n{\n.reg .b32 %r3;\nmov.u32 %r3, 4096;\n"
            "st.shared.b32 [%r3], %r9;\n}\nst.shared.b32 [%r3], %r9;")
    r = replay(kernel(body))
    assert [a.wavefronts for a in r.accesses] == [1, 1]
    assert set(r.accesses[0].addresses.tolist()) == {4096}
    assert r.accesses[1].addresses.tolist() == [4 * lane for lane in range(32)]


def test_refusals_are_one_line_layout_errors():
    with pytest.raises(ReplayError, match=r"line \d+: the address of st.shared.b32 depends on "
                                          r"data \(%r10: line \d+: ld.global"):
        replay(kernel("ld.global.b32 %r10, [k_param_0];\nst.shared.b32 [%r10], %r9;"))
    with pytest.raises(ReplayError, match="control flow"):
        replay(kernel("$L_loop:\nadd.s32 %r1, %r1, 1;\n@%p1 bra $L_loop;"))
    with pytest.raises(ReplayError, match="read before it is written"):
        replay(kernel("st.shared.b32 [%r40], %r9;"))
    with pytest.raises(ReplayError, match=r"line \d+: integer op mul.hi.u32 is not evaluated"):
        replay(kernel("mul.hi.u32 %r3, %r1, 5;\nst.shared.b32 [%r3], %r9;"))
    with pytest.raises(ReplayError, match=r"line \d+: barrier.sync.aligned is an instruction "
                                          r"the replay does not know"):
        replay(kernel("barrier.sync.aligned 0;"))  # known to PTX, not taught to the replay
    with pytest.raises(ReplayError, match=r"line \d+: fma.rn.f32 is an instruction"):
        replay(kernel("fma.rn.f32 %r3, %r9, %r9, %r9;"))  # data, but never guessed
    with pytest.raises(ReplayError, match="no .reqntid"):
        replay(kernel("").replace(".reqntid 32", ""))
    assert issubclass(ReplayError, tl.LayoutError)


def test_agrees_with_the_bank_model_on_random_addresses():
    """Every request is the bank model's answer for its 32 lane addresses."""
    rng = np.random.default_rng(0)
    for nbytes, op in ((4, "b32"), (8, "v2.b32"), (16, "v4.b32")):
        table = rng.integers(0, 64, 32) * nbytes
        body = "".join(f"setp.eq.s32 %p1, %r1, {lane};\nselp.b32 %r3, {int(a)}, %r3, %p1;\n"
                       for lane, a in enumerate(table))
        regs = {4: "%r9", 8: "{%r9, %r10}", 16: "{%r9, %r10, %r11, %r12}"}[nbytes]
        r = replay(kernel("mov.u32 %r3, 0;\n" + body + f"st.shared.{op} [%r3], {regs};"))
        assert r.wavefronts == tl.smem_wavefronts([int(a) for a in table], nbytes)
