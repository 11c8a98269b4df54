"""Benchmark index-code generation and the compiled scalar path (issue 10).

Measures, in one run:
  1. per-call cost of ``base`` and ``apply`` (the compiled per-layout plans) against
     pycute's ``Layout.__call__`` (from the nvidia-cutlass wheel) on the same (128,128)
     row-major layout, and ``apply`` of a 4-iter + replica layout against pycute on the
     same 4-mode (128,128) layout;
  2. arithmetic operations per axis of the generated forward expressions (distinct
     operations, a shared sub-expression counted once) against a naive per-iter
     expansion (flatten, then ``(flat // E) % e * s`` per iter) and against TVM TIRx's
     symbolic ``apply`` (``apache-tvm-tirx``, simplified by TVM's own arithmetic
     analyzer) on every preset (case studies included) and seeded random layouts.

Run:  .venv/bin/python benchmarks/bench_codegen.py [--quick]
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable

import tilelayout as tl
from bench_map_all import timeit  # the shared timing helper (median seconds per call)
from tilelayout import presets
from tilelayout.eval.expressions import forward_program, naive_ops

ROW = "S[(128,128):(128,1)]"
FOUR = "S[(8,16,16,8):(4@laneid,2@warpid,8,1@laneid)] + R[2:1@warpid]"


def per_call(fn: Callable[[], object], number: int, repeat: int = 7) -> float:
    """Median microseconds per call."""
    return timeit(fn, repeat, number) * 1e6


def speed(number: int) -> list[tuple[str, float, float]]:
    from pycute import Layout

    row = tl.parse(ROW)
    four = tl.parse(FOUR)
    p_row = Layout((128, 128), (128, 1))
    p_four = Layout(((8, 16), (16, 8)), ((4, 2), (8, 1)))
    idx = (37, 101)
    rows = []
    t_p = per_call(lambda: p_row(idx), number)
    rows.append((f"`base` {ROW}", per_call(lambda: row.base(idx), number), t_p))
    rows.append((f"`apply` {ROW}", per_call(lambda: row.apply(idx), number), t_p))
    t_p4 = per_call(lambda: p_four(idx), number)
    rows.append((f"`apply` {FOUR} over (128,128)",
                 per_call(lambda: four.apply(idx, (128, 128)), number), t_p4))
    rows.append((f"`base` {FOUR} over (128,128)",
                 per_call(lambda: four.base(idx, (128, 128)), number), t_p4))
    return rows


# -- operation counts -------------------------------------------------------------------
def _tvm_ops(layout, shape) -> list[int] | None:
    try:
        from tvm_tirx import tirx

        from tilelayout.interop.tvm import to_tvm
    except ImportError:
        return None
    try:
        theirs = to_tvm(layout)
    except tl.LayoutError:
        return None
    args = [tirx.Var(f"i{k}", "int32") for k in range(len(shape))]
    out = theirs.apply(*args, shape=list(shape))
    got = {str(k): v for k, v in out.items()}
    return [_count_tvm(got[a]) if a in got else 0 for a in layout.axes]


def _count_tvm(expr) -> int:
    seen: set[str] = set()

    def walk(e) -> None:
        kind = type(e).__name__
        if kind in ("Var", "IntImm", "SizeVar"):
            return
        if kind in ("Cast", "Let"):  # no arithmetic of their own
            for field in ("value", "body"):
                if hasattr(e, field):
                    walk(getattr(e, field))
            return
        key = str(e)
        if key in seen:
            return
        seen.add(key)
        for field in ("a", "b", "condition", "true_value", "false_value"):
            if hasattr(e, field):
                walk(getattr(e, field))
        for x in getattr(e, "args", ()) or ():
            walk(x)

    walk(expr)
    return len(seen)


def corpus(random_count: int) -> list[tuple[str, object, tuple[int, ...]]]:
    out = []
    for name in presets.names():
        p = presets.default(name)
        out.append((name, p.layout, p.shape))
    for mode in ("32B", "64B", "128B"):
        p = presets.get("smem.tile", dtype="float16", mode=mode, shape=(64, 64))
        out.append((f"smem.tile float16 {mode} 64x64", p.layout, p.shape))
    rng = random.Random(5)
    axes = ("m", "laneid", "warpid")
    for k in range(random_count):
        its = [tl.Iter(rng.choice([2, 3, 4, 5, 8, 16]), rng.choice([-4, -1, 1, 2, 3, 8, 16, 64]),
                       rng.choice(axes)) for _ in range(rng.randint(1, 4))]
        lay = tl.TileLayout(its, [], {rng.choice(axes): rng.randint(-9, 9)})
        if k % 5 == 4:  # a swizzled shared-memory tile with an offset
            rows, cols = rng.choice([(8, 64), (16, 32), (4, 128)])
            b = rng.randint(1, 3)
            lay = tl.ComposeLayout(tl.Swizzle(rng.randint(0, 3), b, 3),
                                   tl.parse(f"S[({rows},{cols}):({cols},1)] + {rng.randint(0, 9) * 8}"))
        size = lay.size()
        shape = lay.default_shape
        if k % 2 and size % 4 == 0:
            shape = (4, size // 4)
        out.append((f"random{k}", lay, shape))
    return out


def op_counts(random_count: int):
    rows = []
    for name, layout, shape in corpus(random_count):
        ours = forward_program(layout, shape, replicas=False).ops_per_axis()
        naive = naive_ops(layout, shape, replicas=False)
        tvm = _tvm_ops(layout, shape)
        rows.append((name, layout, shape, ours, naive, tvm))
    return rows


def main() -> None:
    quick = "--quick" in sys.argv
    print("## Scalar evaluation (us per call, median of 7)\n")
    print("| call | tilelayout | pycute `Layout.__call__` | ratio (ours / pycute) |")
    print("|---|---|---|---|")
    for what, ours, theirs in speed(2000 if quick else 20000):
        print(f"| {what} | {ours:.2f} | {theirs:.2f} | {ours / theirs:.2f}x |")
    rows = op_counts(10 if quick else 40)
    print("\n## Operations per axis (forward, replica-free; distinct operations)\n")
    print("| layout | shape | axes | ours | naive | TVM TIRx |")
    print("|---|---|---|---|---|---|")
    worse = 0
    totals = [0, 0, 0, 0]
    for name, layout, shape, ours, naive, tvm in rows:
        if tvm is not None and any(o > t for o, t in zip(ours, tvm, strict=True)):
            worse += 1
        totals[0] += sum(ours)
        totals[1] += sum(naive)
        if tvm is not None:
            totals[2] += sum(tvm)
            totals[3] += sum(ours)
        if not name.startswith("random") or int(name[6:]) < 8:
            t = "/".join(map(str, tvm)) if tvm is not None else "n/a"
            print(f"| {name} | {shape} | {','.join(layout.axes)} | {'/'.join(map(str, ours))} | "
                  f"{'/'.join(map(str, naive))} | {t} |")
    n_tvm = sum(r[5] is not None for r in rows)
    print(f"\n{len(rows)} layouts; totals: ours {totals[0]}, naive {totals[1]} "
          f"({totals[1] / max(totals[0], 1):.1f}x ours); on the {n_tvm} TIRx accepts: ours "
          f"{totals[3]}, TVM {totals[2]}; layouts where ours is larger on some axis: {worse}")


if __name__ == "__main__":
    main()
