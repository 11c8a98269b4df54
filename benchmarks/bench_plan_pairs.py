"""Planning time over the Triton harness's pairs and the scenario suite, on two commits
side by side in one run (issue 26: median <= 5 ms, maximum <= 100 ms per plan).

The pairs are the ones ``benchmarks/bench_vs_triton.py --json FILE`` compared (their
layouts as our text, as Triton lowered them: no Triton is needed here); the scenario
suite is ``tests/planning/scenarios/suite.py``'s (its layouts as text, read from this
working tree). Each revision (``--before``, default the commit before this session's
planner work, ``--after``, default ``.``: this working tree) is extracted with ``git
archive`` (``bench_commits.checkout``) and plans every pair in a fresh process with
``PYTHONPATH=<checkout>/src``, CPU time per plan (``time.process_time``, the fastest of
``--repeat`` calls after one warm-up of the imports). Every call is *cold*: the planning
path's ``functools`` caches are emptied before it, so a repeat or an earlier pair never
answers from memory (``--warm`` keeps them, as a compiler's process would); rounds alternate (before, after,
after, before, ...) so the machine's noise falls on both. A pair a revision refuses (a
``LayoutError``) is counted and left out of its times.

Run: .venv/bin/python benchmarks/bench_plan_pairs.py --records .cache/vs_triton/results.json
     [--before REV] [--after REV] [--rounds N] [--repeat K] [--warm] [--dst-packing P]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_commits import checkout

ROOT = Path(__file__).resolve().parent.parent
#: main when this session's planner work began (issue 26)
BEFORE = "198d8bc"


def pairs(records: Path) -> list[list]:
    """``[src, dst, shape, dtype, target, name]`` of every compared harness pair, then of
    every scenario whose operands are text or layouts."""
    data = json.loads(records.read_text())
    out = [[r["layouts"]["src"], r["layouts"]["dst"], r["pair"]["shape"], r["pair"]["dtype"],
            r["pair"]["target"], f"pair {r['pair']['index']}"]
           for r in data["records"] if r.get("status") == "ok"]
    sys.path.insert(0, str(ROOT))
    from tests.planning.scenarios.suite import SCENARIOS, layouts

    for s in SCENARIOS:
        # a mesh reshard's layouts are built from its partition specs in the worker (their
        # mesh axes exist only there)
        src, dst = layouts(s) if s.xla is None else ("", "")
        out.append([str(src), str(dst), list(s.shape), s.dtype, s.target, f"scenario {s.name}",
                    s.xla])
    return out


def _caches() -> list:
    """The memoized functions of the checkout's planning path (its ``functools`` caches,
    after one plan has imported every module it uses)."""
    import functools
    import gc

    import tilelayout as tl

    tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32),
                       "float32")
    skip = ("tilelayout.interop", "tilelayout.explorer")
    return [o for o in gc.get_objects() if isinstance(o, functools._lru_cache_wrapper)
            and getattr(o, "__module__", "").startswith("tilelayout")
            and not getattr(o, "__module__", "").startswith(skip)]


def worker(path: str, repeat: int, cold: bool = True, packing: str = "unpacked") -> None:
    """In the checkout's process: plan every pair, print its CPU times as JSON (``cold``:
    every call with the planning path's caches emptied first; ``packing``: the harness
    pairs' ``dst_packing``, as ``bench_vs_triton.py`` plans them, where the checkout's
    ``plan_conversion`` takes it -- the scenarios are planned packed)."""
    import inspect
    import time

    import tilelayout as tl

    takes = "dst_packing" in inspect.signature(tl.plan_conversion).parameters

    items = json.loads(Path(path).read_text())
    times: list[float | None] = []
    caches = _caches() if cold else []

    def tupled(x):
        return tuple(tupled(v) for v in x) if isinstance(x, list) else x

    for src, dst, shape, dtype, target, name, *xla in items:
        best = None
        kw = {"dst_packing": packing} if takes and name.startswith("pair") else {}
        if xla and xla[0]:
            from tilelayout.interop.jax import from_partition_spec

            mesh, a, b = xla[0]
            src, dst = (from_partition_spec(tupled(spec), mesh, tuple(shape)) for spec in (a, b))
        try:
            for _ in range(repeat):
                for c in caches:  # no memory of an earlier call (of this pair or another)
                    c.cache_clear()
                t0 = time.process_time()
                tl.plan_conversion(src, dst, tuple(shape) if shape else None, dtype,
                                   target=target, **kw)
                t = time.process_time() - t0
                best = t if best is None else min(best, t)
        except tl.LayoutError:
            best = None
        times.append(best)
    print(json.dumps({"file": tl.__file__, "times": times}))


def run(src: Path, path: str, repeat: int, warm: bool = False,
        packing: str = "unpacked") -> list[float | None]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(src)
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", path,
                           "--repeat", str(repeat), "--dst-packing", packing]
                          + (["--warm"] if warm else []), env=env,
                          capture_output=True, text=True, cwd=src.parent)
    if proc.returncode:
        raise SystemExit(f"the worker failed on {src}:\n{proc.stderr[-3000:]}")
    answer = json.loads(proc.stdout.strip().splitlines()[-1])
    if not Path(answer["file"]).resolve().is_relative_to(src.resolve()):
        raise SystemExit(f"the worker imported {answer['file']}, not the checkout {src}")
    return answer["times"]


def summary(ms: list[float]) -> str:
    ms = sorted(ms)
    pick = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]  # noqa: E731
    return (f"{statistics.median(ms):.2f} | {pick(0.9):.1f} | {pick(0.99):.1f} | "
            f"{ms[-1]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=Path, help="bench_vs_triton.py's --json output")
    ap.add_argument("--before", default=BEFORE)
    ap.add_argument("--after", default=".")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--warm", action="store_true",
                    help="keep the planning path's caches between calls (default: cold)")
    ap.add_argument("--dst-packing", choices=("packed", "unpacked"), default="unpacked",
                    help="the harness pairs' dst_packing where a revision takes it (default "
                         "unpacked, as bench_vs_triton.py plans them)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a.worker, a.repeat, cold=not a.warm, packing=a.dst_packing)
        return
    if a.records is None or not a.records.exists():
        raise SystemExit("give --records: the JSON that benchmarks/bench_vs_triton.py --json "
                         "wrote (its pairs' layouts as text)")
    items = pairs(a.records)
    with tempfile.TemporaryDirectory(prefix="bench-plan-pairs-") as tmp:
        path = str(Path(tmp) / "pairs.json")
        Path(path).write_text(json.dumps(items))
        sides = {"before": checkout(a.before, Path(tmp)), "after": checkout(a.after, Path(tmp))}
        best: dict[str, list[float | None]] = {}
        order = ["before", "after"]
        for r in range(a.rounds):
            for side in (order if r % 2 == 0 else order[::-1]):
                rev = a.before if side == "before" else a.after
                print(f"[bench] round {r + 1}/{a.rounds}: {side} ({rev})", file=sys.stderr,
                      flush=True)
                got = run(sides[side], path, a.repeat, a.warm, a.dst_packing)
                prev = best.get(side)
                best[side] = got if prev is None else [
                    None if x is None or y is None else min(x, y) for x, y in zip(prev, got, strict=True)]
    harness = [i for i, it in enumerate(items) if it[5].startswith("pair")]
    suite = [i for i, it in enumerate(items) if it[5].startswith("scenario")]
    print(f"{len(harness)} harness pairs and {len(suite)} scenarios; CPU ms per plan, the "
          f"fastest of {a.repeat} {'warm' if a.warm else 'cold'} calls in each of {a.rounds} "
          f"rounds; harness pairs with dst_packing={a.dst_packing!r} where a revision takes "
          f"it\n")
    print("| revision | plans | refused | median | p90 | p99 | max |\n|---|---|---|---|---|---|---|")
    for side in ("before", "after"):
        rev = a.before if side == "before" else a.after
        for label, idx in (("harness", harness), ("scenarios", suite), ("both", harness + suite)):
            ms = [best[side][i] * 1e3 for i in idx if best[side][i] is not None]
            refused = sum(best[side][i] is None for i in idx)
            print(f"| {rev} {label} | {len(ms)} | {refused} | {summary(ms)} |")
    both = [i for i in harness + suite if best["before"][i] is not None and best["after"][i] is not None]
    ratio = [best["after"][i] / best["before"][i] for i in both if best["before"][i] > 0]
    print(f"\nafter / before per plan (both answered, {len(ratio)}): median "
          f"{statistics.median(ratio):.3f}x")
    slow = sorted(((best["after"][i], items[i][5]) for i in harness + suite
                   if best["after"][i] is not None), reverse=True)[:5]
    print("slowest after: " + "; ".join(f"{t * 1e3:.0f} ms {n}" for t, n in slow))


if __name__ == "__main__":
    main()
