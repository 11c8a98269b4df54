"""Printing, evaluating and converting expressions: ``str`` is valid Python with TIRx's
operators, ``to_c`` C with the code generator's shifts and masks, and ``to_tvm`` the
same expression in apache-tvm-tirx (checked in a child process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tirx.test_symbolic import X, Y, trees
from tilelayout import LayoutError
from tilelayout.tirx import symbolic as S
from tilelayout.tirx.spelling import fresh_var, substitute

ROOT = Path(__file__).resolve().parents[2]


@given(tree=trees(), x=st.integers(0, 300), y=st.integers(0, 300))
@settings(max_examples=300, deadline=None)
def test_python_and_c_texts_evaluate_to_the_value(tree, x, y):
    built, direct = tree
    if isinstance(built, int):
        return
    want = built.evaluate({X: x, Y: y})
    assert eval(str(built), {}, {"x": x, "y": y}) == want  # noqa: S307
    if want >= 0 and all(c >= 0 for c in _constants(built)):  # C's / and % on non-negatives
        c_text = built.to_c().replace("/", "//")
        assert eval(c_text, {}, {"x": x, "y": y}) == want, built.to_c()  # noqa: S307


def _constants(e):
    from tilelayout.tirx.spelling import walk
    return [n.value for n in walk(e) if type(n).__name__ == "IntImm"]


def test_c_uses_shifts_and_masks():
    e = S.add(S.mul(S.floordiv(X, 16), 32), S.floormod(X, 16))
    assert str(e) == "x // 16 * 32 + x % 16" and e.to_c() == "((x >> 4) << 5) + (x & 15)"


def test_evaluate_binds_by_object_or_name_and_substitutes():
    e = S.add(S.mul(X, 3), Y)
    assert e.evaluate({X: 2, "y": 1}) == 7 and e.evaluate(x=1, y=1) == 4
    assert str(e.evaluate({X: 2})) == "y + 6"
    assert str(substitute(e, {X: S.add(Y, 1)})) == "y * 4 + 3"
    assert fresh_var("q", e).name == "q"
    with pytest.raises(LayoutError, match="integer"):
        e.evaluate({X: 1.5})


CHILD = """
import json, sys
import tvm_tirx.tirx as tir
from tests.tirx.symbolic_diff import tvm_value
from tilelayout.tirx import symbolic as S
x, y = S.Var("x"), S.Var("y")
exprs = [S.add(S.mul(x, 64), S.bitwise(S.XOR, y, S.shift(S.SHL, S.bitwise(S.AND, S.add(x, 1), 7), 3))),
         S.add(S.floordiv(x, 8), S.floormod(y, 3)), S.sub(S.mul(x, -3), y), S.cast("int32", x)]
out = []
for e in exprs:
    t = e.to_tvm()
    tx, ty = x.to_tvm(), y.to_tvm()
    out.append([[tvm_value(t, {tx: a, ty: b}), e.evaluate({x: a, y: b})]
                for a in range(-5, 9) for b in range(0, 9, 3)])
    assert tir.analysis.undefined_vars(e)  # TVM's own functions take our expression
print(json.dumps(out))
"""


@pytest.mark.interop
def test_to_tvm_is_the_same_expression():
    pytest.importorskip("tvm_tirx", reason="apache-tvm-tirx is not installed")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    pairs = json.loads(done.stdout.splitlines()[-1])
    assert len(pairs) == 4 and all(a == b for rows in pairs for a, b in rows)
