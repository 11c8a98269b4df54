"""tilelayout.tirx's symbolic ``apply`` against apache-tvm-tirx's over a population:
500 random layouts (TileLayouts over memory and thread axes with replicas and offsets,
ComposeLayouts of TIRx's swizzle), each applied to variables in one of the three forms,
then both expressions evaluated at 20 random bindings (10,000 bindings), axis by axis
(tests/tirx/symbolic_diff.py). TVM runs in a child process.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_tirx_apply.py [layouts] [per_layout] [seed]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.tirx.test_apply_differential import run_child  # noqa: E402


def main() -> None:
    layouts, per_layout, seed = (int(a) for a in (sys.argv[1:] + ["500", "20", "7"])[:3])
    start = time.perf_counter()
    found = run_child(layouts, per_layout, seed)
    counts = found["counts"]
    print(json.dumps(counts, indent=1, sort_keys=True))
    for line in found["mismatches"]:
        print("MISMATCH", line)
    print(f"{counts['bindings']} bindings over {counts['layouts']} layouts, "
          f"{counts['values']} values, {counts['mismatches']} mismatches, "
          f"{time.perf_counter() - start:.1f} s")
    sys.exit(1 if counts["mismatches"] else 0)


if __name__ == "__main__":
    main()
