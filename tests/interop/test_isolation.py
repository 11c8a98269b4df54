"""The child-process pool (issue 29): a call runs in a child and comes back as it would have
here (value, exception class and attributes, the caller's limits and axes); a child that
aborts, exits or hangs is one ChildDied / ChildTimeout naming the input, and the pool serves
the next call with a new child; a child whose parent is gone exits."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import tilelayout as tl
from tilelayout.core.errors import BudgetError, LayoutError, LayoutParseError
from tilelayout.interop.isolation import ChildDied, ChildPool, ChildTimeout, default_pool


@pytest.fixture(scope="module")
def pool():
    p = ChildPool(workers=2, timeout=60)
    yield p
    p.close()


def test_a_call_answers_with_the_functions_value(pool):
    assert pool.call("tilelayout.syntax:parse", "S[(4,8):(8,1)]") == tl.parse("S[(4,8):(8,1)]")
    assert pool.call("math:gcd", 12, 18) == 6


def test_exceptions_come_back_with_their_class_and_attributes(pool):
    with pytest.raises(LayoutParseError) as info:
        pool.call("tilelayout.syntax:parse", "S[4:2")
    assert info.value.column == 6 and "closing S[" in str(info.value)
    with pytest.raises(ValueError, match="invalid literal") as raw:
        pool.call("builtins:int", "x")
    assert not isinstance(raw.value, LayoutError)  # a bug stays a bug, with the child's trace
    assert "raised in a child process" in raw.value.__notes__[0]


def test_the_callers_limits_and_axes_hold_in_the_child(pool):
    with tl.limits(elements=8), pytest.raises(BudgetError, match="over the limit of 8"):
        pool.call("tilelayout.eval.forward:map_all", tl.parse("S[16:1]"))
    with tl.axes(dp=4):
        assert str(pool.call("tilelayout.syntax:parse", "S[4:1@dp]")) == "S[4:1@dp]"
    with pytest.raises(LayoutError, match="dp"):
        pool.call("tilelayout.syntax:parse", "S[4:1@dp]")


def test_an_abort_is_one_layout_error_and_the_next_call_gets_a_new_child(pool):
    deaths = pool.deaths
    with pytest.raises(ChildDied, match=r"^the test input ended the child process that ran it "
                                        r"\(SIGABRT"):
        pool.call("os:abort", what="the test input")
    with pytest.raises(ChildDied, match=r"exit status 3"):
        pool.call("os:_exit", 3)
    assert pool.deaths == deaths + 2
    assert pool.call("math:lcm", 4, 6) == 12


def test_tritons_own_abort_names_the_input_and_quotes_llvm():
    pytest.importorskip("triton.experimental.gluon")
    from triton.experimental.gluon import language as ttgl

    p = ChildPool(workers=1)
    try:
        # rank-3 transposed NVMMA shared layout on (8, 8, 2): Triton's report_fatal_error
        obj = ttgl.NVMMASharedLayout(32, 16, 3, True)
        with pytest.raises(ChildDied) as info:
            p.call("tilelayout.interop.gluon:triton_bases", obj, [8, 8, 2], what="NVMMA on 8x8x2")
        message = str(info.value)
        assert message.startswith("NVMMA on 8x8x2 ended the child process")
        assert "SIGABRT: LLVM ERROR" in message and "\n" not in message
        ok = ttgl.BlockedLayout([1, 2], [8, 4], [1, 1], [1, 0])
        assert p.call("tilelayout.interop.gluon:triton_bases", ok, [8, 8])["register"] == [[0, 1]]
    finally:
        p.close()


def test_a_hang_is_stopped_at_the_deadline(pool):
    with pytest.raises(ChildTimeout, match="took longer than 1 seconds") as info:
        pool.call("time:sleep", 60, timeout=1)
    assert isinstance(info.value, BudgetError) and info.value.name == "seconds"
    assert pool.call("math:gcd", 2, 4) == 2


def test_calls_from_threads_share_a_bounded_pool():
    p = ChildPool(workers=1)
    out: list[int] = []
    try:
        threads = [threading.Thread(target=lambda k=k: out.append(p.call("math:factorial", k)))
                   for k in range(1, 6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(out) == [1, 2, 6, 24, 120]
        assert p._alive == 1  # one child served all five
    finally:
        p.close()
    with pytest.raises(LayoutError, match="closed"):
        p.call("math:gcd", 1, 1)


def test_a_child_is_replaced_after_max_calls():
    p = ChildPool(workers=1, max_calls=2)
    try:
        pids = [p.call("os:getpid") for _ in range(4)]
        assert pids[0] == pids[1] != pids[2] == pids[3]
    finally:
        p.close()


def test_unpicklable_arguments_and_answers_are_layout_errors(pool):
    with pytest.raises(LayoutError, match="cannot be sent to a child process"):
        pool.call("builtins:len", threading.Lock())
    with pytest.raises(LayoutError, match="cannot be sent back"):
        pool.call("threading:Lock")


def test_a_child_whose_parent_died_exits(tmp_path):
    script = textwrap.dedent("""
        import os
        from tilelayout.interop.isolation import ChildPool
        print(ChildPool(workers=1).call("os:getpid"), flush=True)
        os._exit(0)  # no close, no finalizers: the child only sees its pipe close
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    child = int(run.stdout.split()[0])
    for _ in range(300):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"child {child} still running after its parent exited")


def test_the_default_pool_is_one_per_process():
    assert default_pool() is default_pool()
    assert default_pool().call("math:gcd", 9, 6) == 3
