"""``tilelayout.tirx``'s symbolic ``apply`` against apache-tvm-tirx's, on a fixed seeded
sample of random layouts (tests/tirx/symbolic_diff.py): the values of both expressions at
random bindings, axis by axis. TVM runs in a child process (native code). The population
run -- 10,000 bindings over 500 layouts -- is ``benchmarks/bench_tirx_apply.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("tvm_tirx", reason="apache-tvm-tirx is not installed (the tvm extra)")
pytestmark = pytest.mark.interop

ROOT = Path(__file__).resolve().parents[2]


def run_child(layouts: int, per_layout: int, seed: int) -> dict:
    """:func:`tests.tirx.symbolic_diff.compare` in a child process."""
    code = ("import json, sys\n"
            "from tests.tirx.symbolic_diff import compare\n"
            "print(json.dumps(compare(*map(int, sys.argv[1:]))))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", code, str(layouts), str(per_layout), str(seed)],
                          capture_output=True, text=True, timeout=900, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_symbolic_apply_equals_tvm_at_random_bindings():
    found = run_child(60, 8, seed=2026)
    counts = found["counts"]
    assert counts["mismatches"] == 0, found["mismatches"]
    assert counts["layouts"] >= 55 and counts["bindings"] >= 440, counts
    kinds = {k for k in counts if k.startswith(("tile ", "compose "))}
    assert kinds == {f"{k} {f}" for k in ("tile", "compose") for f in ("flat", "iters", "shape")}
