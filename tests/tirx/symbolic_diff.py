"""Symbolic ``apply`` of ``tilelayout.tirx`` against apache-tvm-tirx's, on random layouts.

Each case is a random layout (a TileLayout over memory and thread axes, with replicas
and offsets; or a ComposeLayout of TIRx's swizzle over a tile on ``m``) built through
TIRx's spelling in both libraries, and one of the three forms of ``apply`` -- a flat
index, one index per shard iter, or a coordinate with a shape -- called with variables
(ours: ``tilelayout.tirx.Var``; TVM's: ``tvm_tirx.tirx.Var``). Both expressions are then
evaluated at random bindings, TVM's by an evaluator of its node types written here
(:func:`tvm_value`, independent of ours), and the values compared axis by axis.

Bindings: any integer for a TileLayout's flat and per-iter forms (TIRx's arithmetic is
exact there: an index past the tile keeps counting); inside the shape for the shaped form
and for a ComposeLayout's per-iter form (TIRx's bounded normal form assumes each index
inside its extent). Runs where TVM is imported: a child process (tests and benchmarks).
"""

from __future__ import annotations

import math
import random
from typing import Any

AXES = ("m", "m", "m", "laneid", "warpid", "wid_in_wg", "TLane")


def random_case(rng: random.Random) -> dict[str, Any]:
    """One random case as data (the layout's iters, the form and the shape)."""
    compose = rng.random() < 0.4
    axes = ("m",) if compose else AXES
    shard = [(rng.choice([1, 2, 2, 3, 4, 4, 8]), rng.choice([0, 1, 1, 2, 3, 4, 8, 16, 64, -1, -2]),
              rng.choice(axes)) for _ in range(rng.randint(1, 4))]
    if compose and all(a != "m" for _, _, a in shard):
        shard[0] = (shard[0][0], 1, "m")
    replica = [] if compose else [(rng.choice([2, 3]), rng.randint(-3, 8), rng.choice(AXES))
                                  for _ in range(rng.choice([0, 0, 1]))]
    offset = {rng.choice(axes): rng.randint(-4, 80) for _ in range(rng.randint(0, 2))}
    case = {"shard": shard, "replica": replica, "offset": offset, "compose": None,
            "form": rng.choice(["flat", "iters", "shape"])}
    if compose:
        b = rng.randint(0, 3)
        case["compose"] = (rng.randint(0, 3), b, rng.randint(max(b, 1), 4), rng.random() < 0.7)
    if case["form"] == "shape":
        case["shape"] = _shape(rng, [e for e, _, _ in shard])
    return case


def _shape(rng: random.Random, extents: list[int]) -> list[int]:
    """A shape of the layout's size: its extents merged in runs (so it groups) or, half
    the time, any factorization (which may not)."""
    size = math.prod(extents)
    if rng.random() < 0.5:
        out, k = [], 0
        while k < len(extents):
            n = rng.randint(1, len(extents) - k)
            out.append(math.prod(extents[k:k + n]))
            k += n
        return out
    out, rest = [], size
    for p in (2, 3):
        while rest % p == 0 and rng.random() < 0.6:
            out.append(p)
            rest //= p
    return [*out, rest] if rest > 1 or not out else out


def build(case: dict[str, Any], lib: Any) -> Any:
    """The case's layout in ``lib`` (``tilelayout.tirx`` or ``tvm_tirx.tirx.layout``)."""
    def part(builder, iters):
        return builder[tuple(e for e, _, _ in iters):tuple(s @ lib.Axis.get(a) for _, s, a in iters)]
    spec = part(lib.S, case["shard"])
    if case["replica"]:
        spec = spec + part(lib.R, case["replica"])
    for a, v in case["offset"].items():
        spec = spec + v @ lib.Axis.get(a)
    tile = lib.TileLayout(spec)
    if case["compose"] is None:
        return tile
    m, b, s, inner = case["compose"]
    return lib.ComposeLayout(m, b, s, tile, inner)


def coords(case: dict[str, Any], make_var: Any) -> tuple[list[Any], dict[str, Any]]:
    """The variables for the case's form, and the ``apply`` keywords."""
    if case["form"] == "flat":
        return [make_var("f")], {}
    if case["form"] == "iters":
        return [make_var(f"c{k}") for k in range(len(case["shard"]))], {}
    return [make_var(f"d{k}") for k in range(len(case["shape"]))], {"shape": case["shape"]}


def bindings(case: dict[str, Any], rng: random.Random) -> list[int]:
    """Random values of the case's variables (see the module docstring for the ranges)."""
    size = math.prod(e for e, _, _ in case["shard"])
    if case["form"] == "flat":
        return [rng.randint(-2 * size, 3 * size)]
    if case["form"] == "iters" and case["compose"] is None:
        return [rng.randint(-3, e + 3) for e, _, _ in case["shard"]]
    if case["form"] == "iters":
        return [rng.randrange(e) for e, _, _ in case["shard"]]
    return [rng.randrange(n) for n in case["shape"]]


_BINARY = {"Add": lambda a, b: a + b, "Sub": lambda a, b: a - b, "Mul": lambda a, b: a * b,
           "FloorDiv": lambda a, b: a // b, "FloorMod": lambda a, b: a % b,
           "BitwiseXor": lambda a, b: a ^ b, "BitwiseAnd": lambda a, b: a & b,
           "BitwiseOr": lambda a, b: a | b, "LShift": lambda a, b: a << b,
           "RShift": lambda a, b: a >> b, "Min": min, "Max": max}
_CALLS = {"tirx.bitwise_xor": _BINARY["BitwiseXor"], "tirx.bitwise_and": _BINARY["BitwiseAnd"],
          "tirx.bitwise_or": _BINARY["BitwiseOr"], "tirx.shift_left": _BINARY["LShift"],
          "tirx.shift_right": _BINARY["RShift"]}


def tvm_value(expr: Any, env: dict[Any, int]) -> int:
    """The value of apache-tvm-tirx expression ``expr`` with its variables bound by
    ``env`` (TVM variable -> int; matched with ``same_as``): Python's floor semantics."""
    kind = type(expr).__name__
    if isinstance(expr, int):
        return expr
    if kind == "IntImm":
        return int(expr.value)
    if kind == "Var":
        for var, value in env.items():
            if var.same_as(expr):
                return value
        raise KeyError(expr)
    if kind in _BINARY:
        return _BINARY[kind](tvm_value(expr.a, env), tvm_value(expr.b, env))
    if kind == "Call" and str(expr.op.name) in _CALLS:
        return _CALLS[str(expr.op.name)](tvm_value(expr.args[0], env), tvm_value(expr.args[1], env))
    if kind == "Let":
        return tvm_value(expr.body, {**env, expr.var: tvm_value(expr.value, env)})
    if kind == "Cast":
        return tvm_value(expr.value, env)
    raise TypeError(f"no evaluator for TVM node {kind}: {expr}")


def compare(n_layouts: int, n_bindings: int, seed: int) -> dict[str, Any]:
    """Run ``n_layouts`` random cases with ``n_bindings`` bindings each; the counts (by
    kind and form), and the first mismatches. Needs apache-tvm-tirx (run it in a child)."""
    import tvm_tirx.tirx as tir  # the child process's optional tool
    import tvm_tirx.tirx.layout as tv

    import tilelayout.tirx as T

    rng = random.Random(seed)
    counts: dict[str, int] = {"layouts": 0, "bindings": 0, "values": 0, "refused": 0,
                              "mismatches": 0}
    mismatches: list[str] = []
    for _ in range(n_layouts):
        case = random_case(rng)
        ours_vars, kw = coords(case, T.Var)
        theirs_vars, _ = coords(case, lambda n: tir.Var(n, "int32"))
        try:
            theirs = build(case, tv).apply(*theirs_vars, **kw)
        except Exception:  # noqa: BLE001 - TIRx refuses some random layouts (scope checks)
            counts["refused"] += 1
            continue
        ours = build(case, T).apply(*ours_vars, **kw)
        kind = f"{'compose' if case['compose'] else 'tile'} {case['form']}"
        counts[kind] = counts.get(kind, 0) + 1
        counts["layouts"] += 1
        for _ in range(n_bindings):
            values = bindings(case, rng)
            env_t = dict(zip(theirs_vars, values, strict=True))
            env_o = dict(zip(ours_vars, values, strict=True))
            counts["bindings"] += 1
            for axis, expr in theirs.items():
                want = tvm_value(expr, env_t)
                mine = ours.get(str(axis), 0)
                got = mine if isinstance(mine, int) else mine.evaluate(env_o)
                counts["values"] += 1
                counts["mismatches"] += got != want
                if got != want and len(mismatches) < 10:
                    mismatches.append(f"{case} at {values}: {axis} ours {got} ({mine}) TVM {want} "
                                      f"({expr})")
            extra = [a for a in ours if a not in {str(k) for k in theirs}]
            for axis in extra:  # axes TIRx leaves out of the result are 0 in ours
                mine = ours[axis]
                got = mine if isinstance(mine, int) else mine.evaluate(env_o)
                counts["mismatches"] += got != 0
                if got != 0 and len(mismatches) < 10:
                    mismatches.append(f"{case}: ours has {axis} = {got}, TVM leaves it out")
    return {"counts": counts, "mismatches": mismatches}
