"""The scenario suite: realistic kernel data movements, each with the references it is
held to (issue 18).

A scenario is a conversion between two layouts of one tile -- registers to registers,
registers into a shared-memory tile (an epilogue before a TMA store), a shared-memory
tile into registers, or a mesh reshard -- for a target architecture. Its references:

* ``triton``: what Triton 3.9 generates for exactly this movement, compiled for the
  scenario's target on the CPU and replayed (:mod:`.triton_kernels`, :mod:`.ptx_replay`);
  measured in the tests wherever Triton is installed (``scripts/test.sh`` installs it);
* ``hand``: a hand-written kernel's known choice, with the file and lines it comes from
  and its cost worked out from that choice (instructions per warp, bytes, wavefronts);
* ``xla``: for a mesh reshard, the collectives of XLA's compiled program.

Every layout text below is checked against Triton's own lowering of the Gluon layout
named beside it (``gluon_src`` / ``gluon_dst``) in ``test_scenarios.py``.

Costs (:class:`Cost`), per scenario, for our plan and each reference:

* ``smem_bytes``: the shared-memory buffer (Triton: the kernel's allocation);
* ``wavefronts``: of every shared-memory request, summed over the warps (bank model of
  docs/data-movement.md);
* ``instructions``: data-movement instructions *per warp*: shared-memory loads and
  stores (``ld/st.shared`` of any width, ``ldmatrix`` / ``stmatrix``), ``shfl``,
  ``selp`` / ``prmt`` on data, and barriers. Not counted: the dtype conversion itself
  (``cvt``), register packing, address arithmetic; for a store into (a load from) a
  shared tile only that side counts, without the barrier the TMA store needs anyway;
* ``bytes_received``: for a mesh, the most bytes one device receives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import tilelayout as tl


@dataclass(frozen=True)
class Cost:
    smem_bytes: int = 0
    wavefronts: int = 0
    instructions: int = 0
    bytes_received: int = 0
    detail: str = ""

    METRICS = ("smem_bytes", "wavefronts", "instructions", "bytes_received")

    def values(self) -> dict[str, int]:
        return {m: getattr(self, m) for m in self.METRICS}


@dataclass(frozen=True)
class Hand:
    """A hand-written kernel's choice: where it is, what it does, what that costs."""

    source: str
    choice: str
    cost: Cost
    #: the scenario's Triton kernel makes the same choice (layout and instructions): the
    #: test then requires Triton's measured cost to equal ``cost``
    same_as_triton: bool = False


@dataclass(frozen=True)
class Scenario:
    name: str
    src: str
    dst: str
    shape: tuple[int, ...]
    dtype: str
    target: str
    #: the Triton kernel that performs the movement: "convert", "store" or "load"
    triton: str | None = None
    #: the Gluon shared layout of a store / load kernel: ("nvmma", swizzle bytes, bits)
    smem_spec: tuple | None = None
    #: the Gluon layouts the texts come from (checked against Triton's lowering)
    gluon_src: tuple | None = None
    gluon_dst: tuple | None = None
    hand: tuple[Hand, ...] = ()
    #: mesh reshards: (mesh axis sizes, source spec, destination spec)
    xla: tuple | None = None
    warps: int = 4
    notes: str = ""


# -- layouts (Triton's lowering of the Gluon layout named in each comment) ---------------
MMA2 = "S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]"      # mma v2 [4,1], 64x64
DOT_A_K8 = "S[(4,2,8,2,4,8):(1@warpid,8,4@laneid,16,1@laneid,1)]"  # DotOperand(0, mma, 8)
DOT_B_K2 = "S[(8,4,2,8,8):(2,1@laneid,1,16,4@laneid)] + R[4:1@warpid]"  # DotOperand(1, mma, 2)
ROWS_F16 = "S[(4,4,4,8,8):(8,1@warpid,8@laneid,1@laneid,1)]"      # Blocked [1,8] [4,8] [4,1]
COLS_F16 = "S[(8,8,4,4,4):(1@laneid,1,8,1@warpid,8@laneid)]"      # Blocked [8,1] [8,4] [1,4] (0,1)
ROWS_F32 = "S[(8,4,2,16,4):(4,1@warpid,16@laneid,1@laneid,1)]"    # Blocked [1,4] [2,16] [4,1]
COLS_F32 = "S[(16,4,8,4,2):(1@laneid,1,4,1@warpid,16@laneid)]"    # Blocked [4,1] [16,2] [1,4] (0,1)
WGMMA_D = {n: f"S[(4,2,8,{n // 8},4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]"
           for n in (32, 64, 128)}                                    # mma v3 [16,n,16]
DOT_A_FP8 = "S[(4,2,8,4,4,4):(1@warpid,4,4@laneid,8,1@laneid,1)]"  # DotOperand(0, v3, 4)
TMEM_32X32B = {n: f"S[(4,32,{n}):(1@warpid,1@laneid,1)]" for n in (32, 128)}  # 32x32b.x{n}
TMEM_16X256B = "S[(4,2,2,8,4,4,2):(1@warpid,16,2,4@laneid,4,1@laneid,1)]"   # 16x256b, 128x32
SW64_B16 = {m: f"ComposeLayout(XorSwizzle(1,2,4,8,16,32,72,144,256,512,1024{',2048' * (m == 128)}), "
               f"S[({m},32):(32,1)])" for m in (64, 128)}           # NVMMAShared(64, 16)
SW128_F32 = {m: f"ComposeLayout(XorSwizzle(1,2,4,8,16,36,72,144,256,512,1024{',2048' * (m == 128)}), "
                f"S[({m},32):(32,1)])" for m in (64, 128)}          # NVMMAShared(128, 32)
SW128_B16_64x128 = ("ComposeLayout(XorSwizzle(1,2,4,8,16,32,72,144,288,512,1024,2048,4096), "
                    "S[(64,2,64):(64,4096,1)])")                    # NVMMAShared(128, 16)
SW128_B16_128x128 = ("ComposeLayout(XorSwizzle(1,2,4,8,16,32,72,144,288,512,1024,2048,4096,8192),"
                     " S[(128,2,64):(64,8192,1)])")                 # NVMMAShared(128, 16)
SW128_F16_64x64 = ("ComposeLayout(XorSwizzle(1,2,4,8,16,32,72,144,288,512,1024,2048), "
                   "S[(64,64):(64,1)])")  # NVMMAShared(128, 16) = CuTe Swizzle<3,3,3> on 64x64

G_MMA2 = ("mma", 2, (16, 8))
TMEM = ("tmem", "32x32b")  # TensorMemoryDescriptorType.get_reg_layout(num_warps=4)
G_V3 = {n: ("mma", 3, (16, n, 16)) for n in (32, 64, 128)}

FA2 = "Dao-AILab/flash-attention"
CUTLASS = "NVIDIA/cutlass"

SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "FA2 P reuse: mma.m16n8k16 C (fp32) -> A (fp16)", MMA2, MMA2, (64, 64), "float16",
        "sm_80", triton="convert", gluon_src=G_MMA2, gluon_dst=("dot", 0, G_MMA2, 2),
        hand=(Hand(f"{FA2} csrc/flash_attn/src/flash_fwd_kernel.h:372 and utils.h:200 "
                   f"(convert_layout_acc_Aregs)",
                   "the accumulator registers are re-viewed as the A operand: no movement",
                   Cost(detail="registers re-viewed in place"), same_as_triton=True),)),
    Scenario(
        "FA3 FP8 P: wgmma D (fp32) -> wgmma A registers (e4m3)", WGMMA_D[64], DOT_A_FP8,
        (64, 64), "e4m3", "sm_90a", triton="convert", gluon_src=G_V3[64],
        gluon_dst=("dot", 0, G_V3[64], 4),
        hand=(Hand(f"{FA2} hopper/utils.h:455-484 (permute_Aregs_fp8, called at "
                   f"hopper/mainloop_fwd_sm90_tma_gmma_ws.hpp:1160 for V column-major)",
                   "per 64-bit chunk of P: 2 selects, 2 shfl.sync (width 4), 2 byte "
                   "permutes; 4 chunks per thread",
                   Cost(instructions=24, detail="8 shfl.sync.idx, 8 prmt.b32, 8 selp.b32")),),
        notes="FA3's default path for row-major V (permute_Cregs_fp8, hopper/utils.h:489) "
              "swaps registers only, but permutes P's k order together with V's -- a "
              "different conversion than this one"),
    Scenario(
        "Ada FP8 P: mma.m16n8k16 C (fp32) -> mma.m16n8k32 A (e4m3)", MMA2, DOT_A_FP8,
        (64, 64), "e4m3", "sm_89", triton="convert", gluon_src=G_MMA2,
        gluon_dst=("dot", 0, G_MMA2, 4),
        notes="the same exchange as FA3's: mma.m16n8k32's 8-bit A fragment is wgmma's; "
              "FA3's sm80 mainloop (hopper/mainloop_fwd_sm80.hpp:611) takes the k-permuting "
              "register swap instead"),
    Scenario(
        "CUTLASS sm90 epilogue subtile: wgmma D 64x32 -> bf16 smem, 64B swizzle",
        WGMMA_D[32], SW64_B16[64], (64, 32), "bfloat16", "sm_90a", triton="store",
        smem_spec=("nvmma", 64, 16), gluon_src=G_V3[32], gluon_dst=("nvmma", 64, 16),
        hand=(Hand(f"{CUTLASS} include/cutlass/epilogue/collective/builders/"
                   f"sm90_builder.inl:123-127 (warp-specialized epilogue tile 64x32 for "
                   f"16-bit D), :91-104 + gemm/collective/builders/sm90_common.inl:273-322 "
                   f"(ss_smem_selector: K-major SW64 atom for 32 columns), "
                   f"epilogue/collective/builders/sm90_common.inl:53-55 (SM90_U32x4_STSM_N)",
                   "stmatrix.x4 of the accumulator into a 64B-swizzled 64x32 tile",
                   Cost(4096, 32, 2, detail="2 stmatrix.x4 per warp, conflict-free"), same_as_triton=True),)),
    Scenario(
        "CUTLASS sm90 epilogue subtile: wgmma D 64x32 -> fp32 smem, 128B swizzle",
        WGMMA_D[32], SW128_F32[64], (64, 32), "float32", "sm_90a", triton="store",
        smem_spec=("nvmma", 128, 32), gluon_src=G_V3[32], gluon_dst=("nvmma", 128, 32),
        hand=(Hand(f"{CUTLASS} include/cutlass/epilogue/collective/builders/"
                   f"sm90_builder.inl:123-127 (epilogue tile 64x32), gemm/collective/builders/"
                   f"sm90_common.inl:273-322 (K-major SW128 atom: 32 fp32 = 128 B), "
                   f"epilogue/collective/builders/sm90_common.inl:61-64 "
                   f"(AutoVectorizingCopyWithAssumedAlignment: 8-byte pairs)",
                   "st.shared.v2.b32 of each column pair into a 128B-swizzled 64x32 tile",
                   Cost(8192, 128, 8, detail="8 st.shared.v2.b32 per warp; rows r and r^1 "
                                             "share 16-byte chunks: 2-way"), same_as_triton=True),)),
    Scenario(
        "sm90 epilogue, whole tile: wgmma D 64x128 -> bf16 smem, 128B swizzle (2 boxes)",
        WGMMA_D[128], SW128_B16_64x128, (64, 128), "bfloat16", "sm_90a", triton="store",
        smem_spec=("nvmma", 128, 16), gluon_src=G_V3[128], gluon_dst=("nvmma", 128, 16)),
    Scenario(
        "CUTLASS sm100 epilogue subtile: tcgen05.ld 32x32b.x32 -> bf16 smem, 64B swizzle",
        TMEM_32X32B[32], SW64_B16[128], (128, 32), "bfloat16", "sm_100a", triton="store",
        smem_spec=("nvmma", 64, 16), gluon_src=TMEM, gluon_dst=("nvmma", 64, 16),
        hand=(Hand(f"{CUTLASS} include/cutlass/epilogue/collective/builders/"
                   f"sm100_builder.inl:1000-1036 (EpilogueTileAuto: M = 128 rows of 32dp "
                   f"loads, N = 4096 / 128 = 32), :70-97 (K-major SW64 atom for 32 columns), "
                   f":716-795 (32x32b loads match no stmatrix pattern, :793-795: "
                   f"AutoVectorizingCopyWithAssumedAlignment<128>)",
                   "each lane stores its row as 16-byte vectors into a 64B-swizzled 128x32 tile",
                   Cost(8192, 64, 4, detail="4 st.shared.v4.b32 per warp"), same_as_triton=True),)),
    Scenario(
        "CUTLASS sm100 epilogue subtile: tcgen05.ld 32x32b.x32 -> fp32 smem, 128B swizzle",
        TMEM_32X32B[32], SW128_F32[128], (128, 32), "float32", "sm_100a", triton="store",
        smem_spec=("nvmma", 128, 32), gluon_src=TMEM, gluon_dst=("nvmma", 128, 32),
        hand=(Hand(f"{CUTLASS} include/cutlass/epilogue/collective/builders/"
                   f"sm100_builder.inl:1000-1036 (epilogue tile 128x32), :70-97 (K-major "
                   f"SW128 atom: 32 fp32 = 128 B), :716-795 (AutoVectorizingCopy 16 B)",
                   "each lane stores its row as 16-byte vectors into a 128B-swizzled 128x32 tile",
                   Cost(16384, 128, 8, detail="8 st.shared.v4.b32 per warp"), same_as_triton=True),)),
    Scenario(
        "CUTLASS sm100 epilogue subtile: tcgen05.ld 16x256b -> bf16 smem, 64B swizzle",
        TMEM_16X256B, SW64_B16[128], (128, 32), "bfloat16", "sm_100a", triton="store",
        smem_spec=("nvmma", 64, 16), gluon_src=("tmem", "16x256b"),
        gluon_dst=("nvmma", 64, 16),
        hand=(Hand(f"{CUTLASS} include/cutlass/epilogue/collective/builders/"
                   f"sm100_builder.inl:716-795 (16dp256b loads of a 32-bit accumulator into a "
                   f"16-bit D match stmatrix's thread-value ownership: SM90_U32x4_STSM_N), "
                   f":1000-1036 (epilogue tile 128x32), :70-97 (K-major SW64 atom)",
                   "stmatrix.x4 of the 16dp256b fragment into a 64B-swizzled 128x32 tile",
                   Cost(8192, 64, 4, detail="4 stmatrix.x4 per warp"), same_as_triton=True),)),
    Scenario(
        "sm100 epilogue, whole tile: tcgen05.ld 32x32b.x128 -> bf16 smem, 128B swizzle "
        "(2 boxes)", TMEM_32X32B[128], SW128_B16_128x128, (128, 128), "bfloat16", "sm_100a",
        triton="store", smem_spec=("nvmma", 128, 16), gluon_src=TMEM, gluon_dst=("nvmma", 128, 16)),
    Scenario(
        "V through ldmatrix.trans: 128B-swizzled smem -> mma B (fp16)", SW128_F16_64x64,
        DOT_B_K2, (64, 64), "float16", "sm_80", triton="load", smem_spec=("nvmma", 128, 16),
        gluon_src=("nvmma", 128, 16), gluon_dst=("dot", 1, G_MMA2, 2),
        hand=(Hand(f"{FA2} csrc/flash_attn/src/kernel_traits.h:41 (SmemCopyAtomTransposed = "
                   f"Copy_Atom<SM75_U16x8_LDSM_T>), :72-80 and :93 (V in Swizzle<3,3,3> "
                   f"atoms of 8x64 for a 64-wide head)",
                   "ldmatrix.x4.trans of each 16x16 block of V; every warp loads all of V",
                   Cost(8192, 256, 16, detail="16 ldmatrix.x4.trans per warp"), same_as_triton=True),)),
    Scenario(
        "Triton V: blocked -> dot operand B, kWidth 2 (fp16)", ROWS_F16, DOT_B_K2, (64, 64),
        "float16", "sm_80", triton="convert", gluon_src=("blocked", (1, 8), (4, 8), (4, 1), (1, 0)),
        gluon_dst=("dot", 1, G_MMA2, 2)),
    Scenario(
        "Triton blocked -> dot operand A, kWidth 2 (fp16)", ROWS_F16, MMA2, (64, 64), "float16",
        "sm_80", triton="convert", gluon_src=("blocked", (1, 8), (4, 8), (4, 1), (1, 0)),
        gluon_dst=("dot", 0, G_MMA2, 2)),
    Scenario(
        "Triton blocked -> dot operand A, kWidth 8 (fp16)", ROWS_F16, DOT_A_K8, (64, 64),
        "float16", "sm_80", triton="convert",
        gluon_src=("blocked", (1, 8), (4, 8), (4, 1), (1, 0)), gluon_dst=("dot", 0, G_MMA2, 8)),
    Scenario(
        "fp32 transpose, one warp (32x32)", "S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]",
        (32, 32), "float32", "sm_90", triton="convert", warps=1),
    Scenario(
        "fp16 transpose, one warp (32x32)", "S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]",
        (32, 32), "float16", "sm_90", triton="convert", warps=1),
    Scenario(
        "fp32 transpose, warpgroup (64x64 blocked)", ROWS_F32, COLS_F32, (64, 64), "float32",
        "sm_90", triton="convert", gluon_src=("blocked", (1, 4), (2, 16), (4, 1), (1, 0)),
        gluon_dst=("blocked", (4, 1), (16, 2), (1, 4), (0, 1))),
    Scenario(
        "fp16 transpose, warpgroup (64x64 blocked)", ROWS_F16, COLS_F16, (64, 64), "float16",
        "sm_90", triton="convert", gluon_src=("blocked", (1, 8), (4, 8), (4, 1), (1, 0)),
        gluon_dst=("blocked", (8, 1), (8, 4), (1, 4), (0, 1))),
    Scenario(  # the 8-bit ldmatrix form (sm_100a); Triton 3.9 stores bytes
        "int8 transpose, warpgroup (64x64 blocked)", ROWS_F16, COLS_F16, (64, 64), "int8",
        "sm_100a", triton="convert", gluon_src=("blocked", (1, 8), (4, 8), (4, 1), (1, 0)),
        gluon_dst=("blocked", (8, 1), (8, 4), (1, 4), (0, 1))),
    Scenario(
        "mesh all-to-all: rows over x -> columns over x", "", "", (16, 8), "float32", "sm_90",
        xla=({"x": 2, "y": 4}, ("x", None), (None, "x")), warps=0),
    Scenario(
        "mesh all-to-all: (x, y) -> (y, x)", "", "", (16, 8), "float32", "sm_90",
        xla=({"x": 2, "y": 4}, ("x", "y"), ("y", "x")), warps=0),
    Scenario(
        "mesh collective-permute: rows over (x, y) -> over (y, x)", "", "", (16, 8), "float32",
        "sm_90", xla=({"x": 2, "y": 4}, (("x", "y"), None), (("y", "x"), None)), warps=0),
    Scenario(
        "mesh all-gather: rows over x -> replicated", "", "", (16, 8), "float32", "sm_90",
        xla=({"x": 2, "y": 4}, ("x", None), (None, None)), warps=0),
)


#: a store (load) kernel's side: the instructions that write (read) the shared tile
SIDES = {"store": ("st.shared", "stmatrix"), "load": ("ld.shared", "ldmatrix")}


def replay_cost(r: Any, smem_bytes: int, kind: str = "convert") -> Cost:
    """Triton's code in the suite's terms (see the module doc), from its replayed PTX
    (``r``: a :class:`.ptx_replay.Replay`) and its shared-memory allocation: for a
    ``"store"`` / ``"load"`` kernel only that side's accesses and no barriers."""
    side = SIDES.get(kind)
    accesses = [a for a in r.accesses if side is None or a.name.startswith(side)]
    moves = r.count("shfl", "selp", "prmt") + (0 if side else r.count("bar.sync",
                                                                       "bar.warp.sync"))
    counts: dict[str, int] = {}
    for a in accesses:
        counts[a.name] = counts.get(a.name, 0) + 1
    for k, n in r.counts.items():
        if k.startswith(("shfl", "selp", "prmt")) or not side and k.startswith("bar"):
            counts[k] = n
    detail = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "none"
    return Cost(smem_bytes if accesses else 0, sum(a.wavefronts for a in accesses),
                len(accesses) + moves, detail=detail)


def layouts(s: Scenario) -> tuple[tl.Layout, tl.Layout]:
    """The scenario's two layouts (a mesh reshard's from its partition specs)."""
    if s.xla is not None:
        from tilelayout.interop.jax import from_partition_spec

        mesh, a, b = s.xla
        return (from_partition_spec(a, mesh, s.shape), from_partition_spec(b, mesh, s.shape))
    return tl.parse(s.src), tl.parse(s.dst)


def plan(s: Scenario) -> tl.ConversionPlan:
    """Our plan for the scenario, made for its target."""
    src, dst = layouts(s)
    return tl.plan_conversion(src, dst, s.shape, s.dtype, target=s.target)


def our_cost(p: tl.ConversionPlan) -> Cost:
    """The plan's costs in the suite's terms (see the module doc)."""
    c = p.costs
    if p.mechanism == "warp-shuffle":
        parts = {"shfl": c.get("shuffle_instructions", 0), "selects": c.get("shuffle_selects", 0),
                 "prmt": c.get("byte_permutes", 0), "packs": c.get("shuffle_packs", 0)}
        return Cost(instructions=sum(int(v) for v in parts.values()),
                    detail=", ".join(f"{v} {k}" for k, v in parts.items() if v or k == "shfl"))
    if p.mechanism == "collective":
        return Cost(bytes_received=int(c.get("bytes_received", 0)), detail=p.collective or "")
    if p.mechanism == "registers":  # lane-dependent registers and sub-word bytes
        parts = {"selects": c.get("shuffle_selects", 0), "prmt": c.get("byte_permutes", 0)}
        return Cost(instructions=sum(int(v) for v in parts.values()),
                    detail=", ".join(f"{v} {k}" for k, v in parts.items() if v) or "registers")
    if p.mechanism != "shared-memory":
        return Cost(detail=p.mechanism)
    # a plan on bits knows its instructions per warp without building its route (which a
    # tile of millions of replica rows would need a raised element limit for)
    bits = getattr(p, "_bits", None)
    staging = bits.staging if bits is not None and bits.staging is not None else \
        p._route.staging
    n = staging.store.per_warp + staging.load.per_warp + int(c.get("barriers", 0)) + \
        int(c.get("byte_permutes", 0))
    parts = [f"{c['byte_permutes']} prmt" if c.get("byte_permutes") else "",
             f"{staging.store.per_warp} {c['store_instruction']}" if staging.store.per_warp
             else "", f"{staging.load.per_warp} {c['load_instruction']}"
             if staging.load.per_warp else "",
             f"{c['barriers']} barrier(s)" if c.get("barriers") else "",
             f"{c['passes']} passes" if c.get("passes", 1) > 1 else ""]
    return Cost(int(c.get("smem_bytes", 0)), int(c.get("wavefronts", 0)), n,
                detail=", ".join(x for x in parts if x))


#: scenarios where our plan is worse than the best reference, with both sides measured
#: and why. ``test_scenarios`` fails when a loss is missing here, and when a listed one
#: is no longer a loss (or its numbers changed).
KNOWN_LOSSES: dict[str, dict[str, Any]] = {}
