"""compose / complement / inverse / max_common_vector cost iters, not elements (issue 9).

Measures each on layouts of 2**7 elements and of 2**37 elements with the same iter
structure and reports the ratio (should be within 2x); as the alternative in the same
run, the brute-force answer on the small layout (evaluating every element with numpy).

Run: .venv/bin/python benchmarks/bench_foundations.py
"""

from __future__ import annotations

import timeit

import numpy as np

import tilelayout as tl


def best(fn, number=200, repeat=9) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def cases(scale: int):
    a = b = 1 << scale  # a (8a, 4b) tile: 2**(2 * scale + 5) elements
    outer = tl.parse(f"S[({a},4,8,{b},4):({4 * b},1@warpid,4@laneid,4,1@laneid)]")
    inner = tl.parse(f"S[({b},4,{a},8,4):(4,1,{128 * b},{16 * b},{4 * b})]")  # a permutation
    store = tl.parse(f"S[({a},8,{b},4):({32 * b},{4 * b},4,1)]")
    load = tl.parse(f"S[({a},8,{b},4):({32 * b},4,32,1)]")
    shape = (a * 8, b * 4)
    return outer, inner, store, load, shape


def main() -> None:
    rows = []
    for scale in (1, 16):
        outer, inner, store, load, shape = cases(scale)
        n = store.size()
        t_compose = best(lambda o=outer, i=inner: tl.compose(o, i))
        t_complement = best(lambda o=outer: tl.complement(o, "laneid", 1024))
        t_inverse = best(lambda s=store, sh=shape: tl.inverse(s, sh))
        t_mcv = best(lambda a=store, b=load, sh=shape: tl.max_common_vector(a, b, sh))
        rows.append((n, t_compose, t_complement, t_inverse, t_mcv))
    names = ("compose", "complement", "inverse", "max_common_vector")
    print(f"{'elements':>10} " + " ".join(f"{h:>18}" for h in names))
    for n, *ts in rows:
        print(f"{'2**' + str(n.bit_length() - 1):>10} " + " ".join(f"{t * 1e6:>16.1f}us" for t in ts))
    ratios = [big / small for small, big in zip(rows[0][1:], rows[1][1:], strict=True)]
    print("ratio big / small: " + ", ".join(f"{r:.2f}x" for r in ratios)
          + ("  (within 2x)" if max(ratios) <= 2 else "  (NOT within 2x)"))

    # the alternative on the small case: brute force with numpy over every element
    outer, inner, store, load, shape = cases(1)

    def brute_compose():
        flat = inner.map_all()["m"].reshape(-1)
        return {a: v.reshape(-1)[flat] for a, v in outer.map_all().items()}

    def brute_inverse():
        m = store.map_all(shape)["m"].reshape(-1)
        inv = np.empty_like(m)
        inv[m] = np.arange(m.size)
        return inv

    def brute_mcv():
        a, b = store.map_all(shape)["m"].reshape(-1), load.map_all(shape)["m"].reshape(-1)
        at = np.empty_like(b)
        at[b] = np.arange(b.size)
        ok = a[at] == np.arange(b.size)
        return int(np.argmin(ok)) if not ok.all() else b.size

    assert brute_mcv() == tl.max_common_vector(store, load, shape)
    for name, fast, slow in (
        ("compose", lambda: tl.compose(outer, inner), brute_compose),
        ("inverse", lambda: tl.inverse(store, shape), brute_inverse),
        ("max_common_vector", lambda: tl.max_common_vector(store, load, shape), brute_mcv),
    ):
        tf, ts = best(fast), best(slow)
        print(f"{name} on 2**{store.size().bit_length() - 1} elements: {tf * 1e6:.1f}us; "
              f"numpy brute force {ts * 1e6:.1f}us ({ts / tf:.1f}x), impossible at 2**37")


if __name__ == "__main__":
    main()
