"""Every plan's emitted CUDA, proven on the CPU: compiled by nvcc for its target, its PTX
executed by the interpreter of ``tests/ptx`` (two fillings of exact values), every
destination slot checked, and the executed instructions and wavefronts per warp compared
with the plan's claimed costs.

The population (``tests/planning/code/population.py``): the scenario suite on its own
targets; every preset pair the planner accepts (``benchmarks/bench_plan.py``'s
enumeration) as int8, float16, float32 and float64; the float32 accumulators converted to
bf16 / fp16 / e4m3 (into every preset of as many elements and into TMA); TMA loads (both
global orders) into every register preset as int8 .. float64, each executed through its
``NAME_tma_load`` and a model of the tensor map; seeded random
pairs on 1, 4 and 8 warps -- each on sm_80, sm_89, sm_90a and sm_100a where the plan
exists. Prints the units compiled, elements checked, wrong ones (must be 0), every
difference between measured and claimed counts by its reason (``emitted.REASONS``),
the unexplained ones in full, and the time.

``--sass`` prints the scenario suite's machine code counts (ptxas + nvdisasm: SHFL,
PRMT, SEL, LDSM, STSM, STS, LDS, BAR, ...) beside the plans' claims (the shared-memory
requests claimed are over all warps, the SASS counts per warp).

Run: .venv/bin/python benchmarks/bench_emit.py [--random N] [--arch sm_90a ...] [--quick]
     [--dst-packing unpacked] [--sass]
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.planning.code import population  # noqa: E402
from tests.planning.code.emitted import REASONS, compile_batch, explain, prove  # noqa: E402
from tests.planning.scenarios.suite import SCENARIOS  # noqa: E402
from tests.planning.scenarios.suite import plan as scenario_plan  # noqa: E402
from tests.ptx import toolchain  # noqa: E402

import tilelayout as tl  # noqa: E402

BATCH = 60


def toolchain_arch(target: str) -> str:
    """The compile target of a plan's target: sm_90 / sm_100 plans compile for the
    arch-specific sm_90a / sm_100a (the toolchain's targets)."""
    return target + "a" if target in ("sm_90", "sm_100") else target


def plans_for(arch: str, random_n: int, quick: bool, packing: str = "packed"):
    """``(label, plan)`` of the population on ``arch`` (plans the planner refuses, or
    with no code, are counted apart); all but the scenarios with ``dst_packing=packing``."""
    refused = collections.Counter()
    kw = {"dst_packing": packing}
    out = []
    for s in SCENARIOS:
        if s.xla is None and toolchain_arch(s.target) == arch:
            out.append((f"scenario: {s.name}", scenario_plan(s)))
    pairs = population.preset_pairs()
    for dtype in population.DTYPES:
        for name, a, b, shape in (pairs[::7] if quick else pairs):
            try:
                out.append((f"{name} ({dtype})", tl.plan_conversion(a, b, shape, dtype,
                                                                    target=arch, **kw)))
            except tl.LayoutError:
                refused["preset pair refused by the planner"] += 1
    for name, a, b, dtype in population.converted_pairs():
        try:
            out.append((name, tl.plan_conversion(a, b, dtype=dtype, target=arch, **kw)))
        except tl.LayoutError:
            refused["converted pair refused by the planner"] += 1
    tma = population.tma_source_pairs()
    for name, a, b, shape, dtype in (tma[::7] if quick else tma):
        try:
            out.append((name, tl.plan_conversion(a, b, shape, dtype, target=arch, **kw)))
        except tl.LayoutError:
            refused["TMA load refused by the planner"] += 1
    for name, a, b, shape, dtype in population.random_pairs(random_n):
        out.append((f"{name}: {a} -> {b} ({dtype})", tl.plan_conversion(a, b, shape, dtype,
                                                                        target=arch, **kw)))
    return out, refused


def run(arch: str, random_n: int, quick: bool, packing: str = "packed") -> dict:
    t0 = time.perf_counter()
    items, refused = plans_for(arch, random_n, quick, packing)
    coded = []
    for label, p in items:
        try:
            p.code(harness=True)
            coded.append((label, p))
        except tl.LayoutError as exc:
            refused[f"no code: {str(exc)[:60]}"] += 1
    units = checked = wrong = tma_units = 0
    reasons: collections.Counter = collections.Counter()
    unexplained = []
    for i in range(0, len(coded), BATCH):
        chunk = {f"u{i + k}": p for k, (_, p) in enumerate(coded[i:i + BATCH])}
        ptx = compile_batch(chunk, arch)
        for k, (label, p) in zip(chunk, coded[i:i + BATCH], strict=True):
            try:
                proof = prove(p, arch, name=k, ptx=ptx)
            except tl.LayoutError as exc:  # the interpreter refused the code
                unexplained.append((label, "refused by the interpreter", str(exc)[:200]))
                continue
            units += 1
            tma_units += "tma boxes" in proof.claimed
            checked += proof.checked
            wrong += proof.wrong
            if proof.wrong:
                unexplained.append((label, "wrong elements", proof.wrong))
            for key, why in explain(p, proof).items():
                reasons[(key, why)] += 1
                if why == "unexplained":
                    unexplained.append((label, key, proof.differences()[key]))
    return {"arch": arch, "units": units, "tma_units": tma_units, "checked": checked,
            "wrong": wrong,
            "reasons": reasons, "unexplained": unexplained, "refused": refused,
            "seconds": time.perf_counter() - t0}


SASS_OPS = ("SHFL", "PRMT", "SEL", "FSEL", "LDSM", "STSM", "STS", "LDS", "BAR", "F2FP")


def sass_table() -> None:
    """The scenario suite's units in machine code (ptxas + nvdisasm): SASS opcode counts
    beside the plan's claims per warp."""
    print("SASS of each whole test kernel (its copy of a shared-memory tile adds LDS / STS "
          "and one BAR; __syncwarp has no SASS); the plan's shared-memory requests are "
          "over all warps, everything else per warp")
    print("| scenario | target | plan | SASS per warp |\n|---|---|---|---|")
    for i, s in enumerate(SCENARIOS):
        if s.xla is not None:
            continue
        p = scenario_plan(s)
        arch = toolchain_arch(s.target)
        name = f"s{i}"
        ptx = compile_batch({name: p}, arch)
        sass = toolchain.sass_of(ptx, arch, f"{name}_kernel")
        if sass is None:
            print("bench_emit: ptxas / nvdisasm are not installed")
            return
        c = p.costs
        claim = ", ".join(f"{k} {c[k]}" for k in ("shuffle_instructions", "shuffle_selects",
                                                   "byte_permutes", "store_requests",
                                                   "load_requests", "barriers",
                                                   "conversions") if c.get(k))
        got = ", ".join(f"{o} {sass[o]}" for o in SASS_OPS if sass.get(o))
        print(f"| {s.name} | {arch} | {claim or 'nothing moves'} | {got or '-'} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", nargs="*", default=list(toolchain.TARGETS))
    ap.add_argument("--random", type=int, default=600, help="random pairs per target")
    ap.add_argument("--quick", action="store_true", help="every 7th preset pair only")
    ap.add_argument("--dst-packing", choices=("packed", "unpacked"), default="packed",
                    help="plan all but the scenarios with this dst_packing (unpacked: each "
                         "destination value in a register of its own)")
    ap.add_argument("--sass", action="store_true",
                    help="only the scenario suite's SASS counts beside the plans' claims")
    args = ap.parse_args()
    if toolchain.tools().nvcc is None:
        print("bench_emit: nvcc is not installed (run scripts/ensure-cuda.sh)")
        return
    if args.sass:
        sass_table()
        return
    total = collections.Counter()
    for arch in args.arch:
        r = run(arch, args.random, args.quick, args.dst_packing)
        total.update(units=r["units"], checked=r["checked"], wrong=r["wrong"],
                     tma_units=r["tma_units"])
        print(f"{arch}: {r['units']} units compiled and executed ({r['tma_units']} through "
              f"their TMA load), {r['checked']} elements checked, {r['wrong']} wrong "
              f"({r['seconds']:.0f} s)")
        for (key, why), n in sorted(r["reasons"].items()):
            print(f"  measured != claimed: {n} x {key}: {why}")
        for k, n in sorted(r["refused"].items()):
            print(f"  {n} x {k}")
        for row in r["unexplained"][:20]:
            print("  UNEXPLAINED", *row)
    print(f"all: {total['units']} units ({total['tma_units']} TMA loads), {total['checked']} "
          f"elements checked, {total['wrong']} wrong")
    print("reasons: " + "; ".join(f"{k}: {v}" for k, v in REASONS.items()))


if __name__ == "__main__":
    main()
