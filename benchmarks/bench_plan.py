"""Conversion planning over every pair of register-fragment / shared-memory presets that
hold the same number of elements (each preset with its defaults plus a few common
parameter choices), as float16.

Measures, in one run, per pair (the fastest of 3 runs, CPU time: the machine is shared):

* ``plan_conversion`` (target < 50 ms for every pair);
* for the pairs that stage through shared memory, ``choose_smem_layout`` alone on the
  same pair (the share of the plan spent choosing the layout), with the ratio;
* ``plan.execute()`` (the numpy machine model moving every element's own index);
* which instructions the staged sides use (plain / packed ``st``/``ld.shared``,
  ``ldmatrix`` / ``stmatrix``);
* ``plan_conversion`` over the scenario suite (``tests/planning/scenarios/suite.py``:
  FlashAttention, CUTLASS epilogues, Triton conversions, transposes, mesh reshards), and
  the median and maximum over the suite and the preset pairs together.

Run: .venv/bin/python benchmarks/bench_plan.py [--scenarios]   (--scenarios: the suite only)
"""

from __future__ import annotations

import itertools
import statistics
import sys
from pathlib import Path

import tilelayout as tl
from bench_smem import best  # the shared timing helper (CPU time, fastest run)
from tilelayout import presets
from tilelayout.planning.model.threads import writer_of

#: presets that place a tile on threads (or in shared memory), with extra parameters
EXTRA = {"mma.m16n8k16.A": [{"dtype": "float16"}], "mma.m16n8k16.B": [{"dtype": "float16"}],
         "mma.m16n8k8.A": [{"dtype": "float16"}], "mma.m16n8k8.B": [{"dtype": "float16"}],
         "mma.m16n8k32.A": [{"dtype": "int8"}], "mma.m16n8k32.B": [{"dtype": "int8"}],
         "ldmatrix.x2": [{"trans": True}], "ldmatrix.x4": [{"trans": True}],
         "wgmma.m64nNk16.D": [{"n": 8}, {"n": 16}, {"n": 64}],
         "tcgen05.ld.32x32b": [{"num": 8}, {"num": 64}], "tcgen05.ld.16x256b": [{"num": 4}],
         "smem.tile": [{"dtype": "float16", "mode": "128B", "shape": (64, 64)},
                       {"dtype": "float16", "mode": "none", "shape": (16, 16)}]}
SKIP = ("tmem.", "trainium.", "mesh.", "case.tmem", "case.scale", "smem.swizzle_atom")


def layouts() -> list[tuple[str, object, tuple[int, ...]]]:
    out = []
    for name in presets.names():
        if name.startswith(SKIP):
            continue
        for params in [{}] + EXTRA.get(name, []):
            try:
                p = presets.get(name, **{**presets.info(name).defaults, **params})
            except tl.LayoutError:
                continue
            out.append((f"{name}{params or ''}", p.layout, p.shape))
    return out


def scenario_times() -> list[tuple[float, str]]:
    """(fastest planning time, name) of every scenario of the suite."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.planning.scenarios.suite import SCENARIOS, plan

    return [(best(lambda s=s: plan(s), 3), s.name) for s in SCENARIOS]


def report_scenarios(times: list[tuple[float, str]]) -> None:
    ms = [t * 1e3 for t, _ in times]
    print(f"scenario suite: {len(ms)} scenarios; plan_conversion median "
          f"{statistics.median(ms):.1f} ms, max {max(ms):.1f} ms (target < 50 ms)")
    for t, name in sorted(times, reverse=True)[:3]:
        print(f"  {t * 1e3:6.1f} ms  {name}")


def main() -> None:
    suite = scenario_times()
    report_scenarios(suite)
    if "--scenarios" in sys.argv[1:]:
        return
    built = layouts()
    pairs = [(a, b) for a, b in itertools.permutations(built, 2)
             if a[1].size() == b[1].size() and ("@" in str(a[1]) or "@" in str(b[1]))]
    rows = []
    kinds: dict[str, int] = {}  # the instructions staged plans use
    refused = 0
    for a, b in pairs:
        try:
            plan = tl.plan_conversion(a[1], b[1], a[2], "float16")
        except tl.LayoutError:  # e.g. AMD's 64-lane wavefronts: no CUDA warp holds them
            refused += 1
            continue
        for side in ("store_instruction", "load_instruction"):
            if side in plan.costs:
                k = plan.costs[side]
                kinds[k] = kinds.get(k, 0) + 1
        t_plan = best(lambda a=a, b=b: tl.plan_conversion(a[1], b[1], a[2], "float16"), 3)
        t_exec = best(plan.execute, 3)
        t_choose = None
        if plan.smem is not None and plan.smem.family != "given":  # a layout was chosen
            t_choose = best(lambda a=a, b=b: tl.choose_smem_layout(
                writer_of(a[1]), b[1], a[2], "float16"), 3)
        rows.append((t_plan, t_choose, t_exec, a[0], b[0], plan.kind, plan.mechanism))
    plans = [r[0] * 1e3 for r in rows]
    both = plans + [t * 1e3 for t, _ in suite]
    print(f"suite + preset pairs ({len(both)} plans; {refused} preset pairs refused): median "
          f"{statistics.median(both):.1f} ms, max {max(both):.1f} ms")
    print(f"{len(rows)} pairs of {len(built)} presets")
    print(f"plan_conversion: median {statistics.median(plans):.1f} ms, "
          f"max {max(plans):.1f} ms (target < 50 ms); over 50 ms: "
          f"{sum(p > 50 for p in plans)}")
    staged = [r for r in rows if r[1] is not None]
    if staged:
        share = [r[1] / r[0] for r in staged]
        print(f"staged pairs: {len(staged)}; choose_smem_layout alone is "
              f"{statistics.median(share):.2f}x the whole plan (median)")
    print("instructions of the staged sides: "
          + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"execute(): median {statistics.median(r[2] * 1e3 for r in rows):.1f} ms, "
          f"max {max(r[2] * 1e3 for r in rows):.1f} ms")
    by_kind: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        by_kind.setdefault((r[5], r[6]), []).append(r[0] * 1e3)
    print("\n| kind / mechanism | pairs | median | max |\n|---|---|---|---|")
    for (kind, mech), ts in sorted(by_kind.items()):
        print(f"| {kind} / {mech} | {len(ts)} | {statistics.median(ts):.1f} ms | "
              f"{max(ts):.1f} ms |")
    print("\nslowest five:")
    for r in sorted(rows, reverse=True)[:5]:
        print(f"  {r[0] * 1e3:6.1f} ms  {r[3]} -> {r[4]}  ({r[5]} / {r[6]})")


if __name__ == "__main__":
    main()
