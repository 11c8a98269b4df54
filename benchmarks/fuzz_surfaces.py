"""Long seeded fuzz campaigns over the newer surfaces (issue 29), each trial in a child
process with a time limit (tests/fuzz/runner.py): tirx, algebra.cute, interop cute /
triton / gluon / jax, the triton.* / amd.* presets, the widget, targets and the planning
entry points. Prints the counts per surface and outcome, and examples of every bad one.

    nice -n 10 .venv/bin/python benchmarks/fuzz_surfaces.py --trials 20000 --seed 29
    .venv/bin/python benchmarks/fuzz_surfaces.py --surfaces interop.gluon --trials 500
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz.runner import SURFACES, run, seeded  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=2000, help="trials in all (split over surfaces)")
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--surfaces", default=",".join(SURFACES), help="comma-separated names")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds a trial may take")
    args = ap.parse_args()
    names = [s for s in args.surfaces.split(",") if s]
    unknown = sorted(set(names) - set(SURFACES))
    if unknown:
        ap.error(f"unknown surfaces {unknown}; known: {', '.join(SURFACES)}")
    trials = seeded(names, -(-args.trials // len(names)), args.seed)
    last = [time.monotonic()]

    def progress(n: int, report) -> None:
        if time.monotonic() - last[0] > 60:
            last[0] = time.monotonic()
            bad = sum(report.bad(s) for s in names)
            print(f"[{n}/{len(trials)}] {bad} bad so far", file=sys.stderr, flush=True)

    report = run(trials, workers=args.workers, timeout=args.timeout, progress=progress)
    print(f"{len(trials)} trials, seed {args.seed}, {report.seconds:.0f} s, "
          f"timeout {args.timeout:g} s per trial\n")
    print(report.table())
    if report.examples:
        print("\nExamples:\n" + report.failures())
    return 1 if any(report.bad(s) for s in names) else 0


if __name__ == "__main__":
    sys.exit(main())
