"""`tilelayout elements-at`: inverse queries from the command line."""


import json

from tests.helpers import TC, run


def test_elements_at_command():
    p = run("elements-at", TC, "laneid=5", "warpid=9", "--shape", "8,16")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["2 element(s) at laneid=5, warpid=9:", "(1, 2) (1, 3)"]
    p = run("elements-at", "--preset", "mma.m16n8k16.C", "laneid=5", "--json")
    assert json.loads(p.stdout)["elements"] == [[1, 2], [1, 3], [9, 2], [9, 3]]
    p = run("elements-at", TC, "laneid5")
    assert p.returncode == 2 and "expected AXIS=VALUE such as laneid=5, got 'laneid5'" in p.stderr
