"""digits_layout: per-dimension mixed-radix digits concatenated into one shard."""

import itertools

import tilelayout as tl
from tilelayout.presets.digits import digits_layout, dim_size


def test_each_dimension_evaluates_as_its_digits_say():
    rows = [(2, 2, "m"), (8, 4, "laneid")]      # row = 8 h + g -> m += 2h, laneid += 4g
    cols = [(4, 1, "laneid"), (2, 1, "m")]      # col = 2 q + b -> laneid += q, m += b
    L = digits_layout(rows, cols)
    for row, col in itertools.product(range(16), range(8)):
        h, g = divmod(row, 8)
        q, b = divmod(col, 2)
        assert L.base((row, col), (16, 8)) == {"m": 2 * h + b, "laneid": 4 * g + q}
    assert (dim_size(rows), dim_size(cols)) == (16, 8)


def test_extent_one_digits_drop_but_keep_an_axis_alive():
    assert digits_layout([(32, 1, "laneid")], [(1, 1, "m")]) == tl.parse("S[(32,1):(1@laneid,1)]")
    assert digits_layout([(4, 1, "m"), (1, 9, "m")]) == tl.parse("S[4:1]")


def test_replica_and_offset():
    L = digits_layout([(4, 1, "m")], replica=[(2, 1, "pid"), (1, 5, "pid")], offset={"m": 3})
    assert L == tl.parse("S[4:1] + R[2:1@pid] + 3")
