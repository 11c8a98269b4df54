"""``tl.plan_conversion`` against Triton on seeded random pairs of Triton distributed
layouts (issue 26; the harness: tests/planning/triton/harness.py).

    nice -n 10 .venv/bin/python benchmarks/bench_vs_triton.py --pairs 1000 --seed 26 --jobs 1

Draws pairs ``0, 1, 2, ...`` of the seed until ``--pairs`` of them are compared (pairs
Triton refuses, aborts on or times out on are recorded and drawn past), prints one line
per pair, then the table of equal / better / worse per metric with the losses grouped by
mechanism and the worst cases of each. Writes the table into docs/data-movement.md between the
``<!-- triton pairs table -->`` markers (atomically; ``--no-docs`` leaves the page alone)
and every record as JSON to ``--json`` (default ``.cache/vs_triton/results.json``).
Triton's measurements are cached in ``.cache/vs_triton/`` (``--no-cache``: compile all);
``--report PATH`` only rewrites the table from a saved ``--json``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.planning.triton.harness import CACHE, TritonSide, our_side  # noqa: E402
from tests.planning.triton.pairs import draw_pair  # noqa: E402
from tests.planning.triton.report import replace_between, table  # noqa: E402

from tilelayout.commands.files import write_atomic  # noqa: E402

DOCS = ROOT / "docs" / "data-movement.md"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=1000, help="pairs to compare (default 1000)")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--jobs", type=int, default=1, help="Triton child processes (default 1)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per Triton compile")
    ap.add_argument("--json", type=Path, default=CACHE / "results.json")
    ap.add_argument("--examples", type=int, default=2,
                    help="worst cases shown per loss mechanism (default 2)")
    ap.add_argument("--report", type=Path, default=None,
                    help="only write the table of a saved --json (no planning, no compiling)")
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--no-docs", action="store_true")
    args = ap.parse_args(argv)
    if args.report is not None:
        saved = json.loads(args.report.read_text())
        return publish(table(saved["records"], saved["seed"], args.examples), args.no_docs)
    records = []
    ok = 0
    start = time.perf_counter()
    indices = itertools.count()
    with TritonSide(args.jobs, args.timeout, None if args.no_cache else CACHE) as side:
        while ok < args.pairs:
            batch = [draw_pair(args.seed, next(indices)) for _ in range(args.pairs - ok)]
            for pair, answer in side.map(batch):
                r = our_side(pair, answer)
                records.append(r)
                ok += "verdict" in r
                v = r.get("verdict", {}).get("overall", r["status"])
                extra = "" if r.get("execute_ok", True) and r.get("agree", True) else \
                    "  EXECUTE WRONG" if not r.get("execute_ok", True) else "  DISAGREE"
                print(f"[{ok:5d}/{args.pairs}] pair {pair.index:5d} {v:8s} {pair.family:18s} "
                      f"{pair.target:7s} {pair.dtype:8s} plan {r.get('plan_s', 0) * 1e3:6.0f} ms"
                      f"{' (cached)' if r.get('cached') else ''}{extra}", flush=True)
    records.sort(key=lambda r: r["pair"]["index"])
    kept, n = [], 0
    for r in records:  # exactly the first --pairs compared pairs (jobs finish out of order)
        if n == args.pairs:
            break
        kept.append(r)
        n += "verdict" in r
    print(f"\n{time.perf_counter() - start:.0f} s")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(args.json, json.dumps({"seed": args.seed, "pairs": args.pairs,
                                        "records": kept}, indent=1).encode())
    print(f"records: {args.json}")
    return publish(table(kept, args.seed, args.examples), args.no_docs)


def publish(text: str, no_docs: bool) -> int:
    print()
    print(text)
    if not no_docs:
        try:
            page = replace_between(DOCS.read_text(), text)
        except ValueError as exc:
            print(f"{DOCS}: {exc}; the table was not written", file=sys.stderr)
            return 2
        write_atomic(DOCS, page.encode())
        print(f"table: {DOCS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
