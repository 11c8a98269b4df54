"""apache/tvm main's own layout unit tests, run on ``tilelayout.tirx`` from their recorded
inputs and expected values (tests/tirx/tvm_units.py names the TVM commit and the files).

Every unit whose answer main defines passes here (150 of the 157 units; the others are
tests/tirx/tvm_units.py's ``UNSUPPORTED``, each with its reason, and the refusal is
checked). The symbolic units run twice: with ``tilelayout.tirx.Var`` here, and with
apache-tvm-tirx's own ``Var`` in a child process (TVM is native code) when it is installed.
The counts against the apache-tvm-tirx 0.1.0a4 wheel, measured once by running TVM's
test file verbatim on both, are in docs/interop/tvm.md.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tilelayout as tl
import tilelayout.tirx as T
from tests.tirx.tvm_units import TVM_COMMIT, UNITS, UNSUPPORTED
from tilelayout import LayoutError
from tilelayout.tirx.symbolic import cast

ROOT = Path(__file__).resolve().parents[2]
KINDS = {"ValueError": ValueError, "AssertionError": AssertionError,
         "RuntimeError": RuntimeError, "TypeError": TypeError, "Exception": Exception}


def swizzle(value: int, per_element: int, swizzle_len: int, atom_len: int, inner: bool) -> int:
    """TIRx's swizzle of one address (the formula of TVM's test helper ``_compose_swizzle``)."""
    chunk = 1 << per_element
    index, mask = value // chunk, (1 << swizzle_len) - 1
    if inner:
        index ^= (index & (mask << atom_len)) >> atom_len
    else:
        index ^= (index & mask) << atom_len
    return index * chunk + value % chunk


FORMULAS = {f"s{b}": (lambda v, b=b: swizzle(v, 3, b, 3, True)) for b in range(4)}
FORMULAS["o3"] = lambda v: swizzle(v, 3, 3, 3, False)


class Range:
    """A TVM-style range (``min``, ``extent``)."""

    def __init__(self, begin, end):
        self.min, self.extent = begin, end - begin


class Unit:
    """Evaluates one unit's expressions and checks (tests/tirx/tvm_units.py's vocabulary)."""

    def __init__(self, make_var=T.Var):
        self.make_var = make_var
        self.vars: dict[str, object] = {}
        self.ints: dict[str, int] = {}

    def var(self, name):
        if name not in self.vars:
            self.vars[name] = self.make_var(name)
        return self.vars[name]

    def names(self):
        return {"cast": cast, **{n: self.var(n) for n in ("x", "y", "n", "flat", "coord", "unused",
                                                       "stage", "warp_offset", "high", "low",
                                                       "value", "v")}}

    def ev(self, x):
        if isinstance(x, list):
            return [self.ev(i) for i in x]
        if isinstance(x, dict):
            return {self.ev(k) if isinstance(k, tuple) else k: self.ev(v) for k, v in x.items()}
        if not isinstance(x, tuple):
            return x
        if not x or not isinstance(x[0], str):  # a plain tuple, such as a region (begin, end)
            return tuple(self.ev(i) for i in x)
        tag, *rest = x
        if tag == "L":
            return T.wrap(tl.parse(rest[0]))
        if tag == "C":
            pe, b, s, tile, inner = rest
            return T.ComposeLayout(pe, b, s, T.TileLayout(tile), inner)
        if tag == "spec":
            return T.TileLayout(self.spec(rest))
        if tag == ".":
            subject, method, args, *kw = rest
            return getattr(self.ev(subject), method)(*self.ev(args), **self.ev(kw[0] if kw else {}))
        if tag == "T":
            target = T
            for part in rest[0].split("."):
                target = getattr(target, part)
            if len(rest) == 1:
                return target
            return target(*self.ev(rest[1]), **self.ev(rest[2] if len(rest) > 2 else {}))
        if tag == "[]":
            return self.ev(rest[0])[self.ev(rest[1])]
        if tag == "attr":
            return getattr(self.ev(rest[0]), rest[1])
        if tag in ("dict", "str"):
            return (dict if tag == "dict" else str)(self.ev(rest[0]))
        if tag == "+":
            return self.ev(rest[0]) + self.ev(rest[1])
        if tag == "I":
            return T.Iter(*rest)
        if tag == "A":
            return T.Axis(rest[0])
        if tag == "V":
            return self.var(rest[0])
        if tag == "E":
            return eval(rest[0], {"__builtins__": {}}, self.names())  # noqa: S307 - recorded data
        if tag == "R":
            return Range(self.ev(rest[0]), self.ev(rest[1]))
        if tag == "n":
            return self.ints[rest[0]]
        if tag == "py":
            return eval(rest[0], {"__builtins__": {}}, dict(self.ints))  # noqa: S307
        raise AssertionError(f"unknown expression {x!r}")

    def spec(self, parts):
        total = None
        for part in parts:
            value = self.part(part)
            total = value if total is None else total + value
        return total

    def stride(self, s):
        if isinstance(s, tuple) and s[0] == "@":
            return s[1] @ T.Axis(s[2])
        if isinstance(s, tuple) and s[0] == "pair":
            return (s[1], s[2])
        return self.ev(s)

    def part(self, p):
        if isinstance(p, int):
            return p
        tag = p[0]
        if tag == "@":
            return p[1] @ T.Axis(p[2])
        if tag == "()":
            return self.spec(p[1:])
        if tag == "E":
            return self.ev(p)
        builder = T.S if tag == "S" else T.R
        extents = tuple(self.ev(e) for e in p[1])
        if p[2] is None:
            return builder[extents]
        return builder[extents:tuple(self.stride(s) for s in p[2])]

    def check(self, c):
        kind, *rest = c
        if kind == "eq":
            a, b = self.ev(rest[0]), self.ev(rest[1])
            assert plain(a) == plain(b), (rest[0], a, b)
        elif kind in ("at", "at0"):
            got, want = self.ev(rest[0]), self.ev(rest[1])
            for k, v in want.items():
                assert (got.get(k, 0) if kind == "at0" else got[k]) == v, (rest[0], got, want)
        elif kind == "none":
            assert self.ev(rest[0]) is None, rest[0]
        elif kind == "notnone":
            assert self.ev(rest[0]) is not None, rest[0]
        elif kind in ("true", "false"):
            assert self.ev(rest[0]) is (kind == "true"), rest[0]
        elif kind == "raises":
            with pytest.raises(KINDS[rest[1]], match=rest[2]) as info:
                self.ev(rest[0])
            assert isinstance(info.value, LayoutError), info.value
        elif kind == "grid":
            ranges = {k: v if isinstance(v, list) else range(v) for k, v in rest[0].items()}
            for values in itertools.product(*ranges.values()):
                self.ints = dict(zip(ranges, values, strict=True))
                for inner in rest[1]:
                    self.check(inner)
        elif kind == "evals":
            expr = self.ev(rest[1])
            for values in itertools.product(*(range(n) for n in rest[0].values())):
                ints = dict(zip(rest[0], values, strict=True))
                want = eval(rest[2], {"__builtins__": {}}, {**FORMULAS, **ints})  # noqa: S307
                assert expr.evaluate({self.var(k): v for k, v in ints.items()}) == want, (ints, expr)
        elif kind in ("kind", "notkind"):
            name = type(self.ev(rest[0])).__name__
            assert (name == rest[1]) is (kind == "kind"), (rest[0], name)
        elif kind in ("has", "hasnot"):
            text = str(self.ev(rest[0]))
            assert (rest[1] in text) is (kind == "has"), (rest[1], text)
        elif kind == "letq":
            let = self.ev(rest[0])
            quotient = let.body
            assert quotient.value == let.var // rest[1], quotient.value
            assert set(map(id, quotient.body.free_vars())) <= {id(let.var), id(quotient.var)}
        elif kind == "threads":
            canon = self.ev(rest[0]).canonicalize()
            iters = [it for it in canon.shard if it.axis.is_thread()]
            assert {it.axis.name for it in iters} == set(rest[1]), canon
            running = 1
            for stride, extent in sorted((it.stride, it.extent) for it in iters):
                assert stride == running, canon
                running *= extent
            assert running == rest[2], canon
        elif kind == "cuda":
            with T.target("cuda"):
                for inner in rest[0]:
                    self.check(inner)
        else:
            raise AssertionError(f"unknown check {c!r}")

    def run(self, checks):
        for c in checks:
            self.check(c)


def plain(x):
    if isinstance(x, tuple | list):
        return [plain(i) for i in x]
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    return x


def test_the_record_is_the_whole_file():
    assert len(UNITS) + len(UNSUPPORTED) == 157 and not UNITS.keys() & UNSUPPORTED.keys()
    assert len(UNITS) == 150 and len(TVM_COMMIT) == 40


@pytest.mark.parametrize("name", list(UNITS))
def test_tvm_unit(name):
    Unit().run(UNITS[name])


@pytest.mark.parametrize("name", list(UNSUPPORTED))
def test_unsupported_unit_is_refused_saying_why(name):
    reason, checks = UNSUPPORTED[name]
    assert reason
    Unit().run(checks)


def _symbolic(x) -> bool:
    if isinstance(x, tuple) and x and x[0] in ("V", "E"):
        return True
    items = x.items() if isinstance(x, dict) else x if isinstance(x, list | tuple) else ()
    return any(_symbolic(i) for i in items)


SYMBOLIC = [n for n, checks in UNITS.items() if _symbolic(checks)]


def _child(names: list[str]) -> dict:
    """The symbolic units with apache-tvm-tirx's ``Var``, in a child process."""
    code = (
        "import json, sys\n"
        "import tvm_tirx.tirx as tir\n"
        "from tests.tirx.test_tvm_units import UNITS, Unit\n"
        "out = {}\n"
        "for name in json.loads(sys.argv[1]):\n"
        "    try:\n"
        "        Unit(lambda n: tir.Var(n, 'int32')).run(UNITS[name]); out[name] = 'pass'\n"
        "    except BaseException as e:\n"
        "        out[name] = f'{type(e).__name__}: {e}'[:300]\n"
        "print(json.dumps(out))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", code, json.dumps(names)], capture_output=True,
                          text=True, timeout=600, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.interop
def test_symbolic_units_with_tvm_vars():
    pytest.importorskip("tvm_tirx", reason="apache-tvm-tirx is not installed")
    assert len(SYMBOLIC) >= 15
    results = _child(SYMBOLIC)
    assert results == dict.fromkeys(SYMBOLIC, "pass"), results
