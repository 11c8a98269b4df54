"""`tilelayout explain`: the four steps for one element."""


import json

from tests.helpers import TC, run


def test_explain_command():
    p = run("explain", TC, "--shape", "8,16", "--at", "7,15")
    assert p.returncode == 0, p.stderr
    assert "2. split     by (8, 2, 4, 2): c = (7, 1, 3, 1)" in p.stdout
    p = run("explain", TC, "--shape", "8,16", "--at", "127", "--json")
    assert json.loads(p.stdout)["index"] == [7, 15]
