"""distinct_rows / ranked: distinct rows of integer columns as sortable keys."""

import numpy as np

from tilelayout.algebra.distinct import distinct_rows, ranked, row_keys, unique_rows


def test_one_key_per_distinct_row_in_row_order():
    a = np.array([3, 3, 1, 1, 2])
    b = np.array([0, 0, 2, 0, 1])
    keys = distinct_rows([a, b])
    rows = sorted({(int(x), int(y)) for x, y in zip(a, b, strict=True)})
    assert len(keys) == len(rows) and list(keys) == sorted(keys)


def test_keys_with_the_same_ranges_are_comparable():
    ranges = [(0, 9), (0, 9)]
    k1 = distinct_rows([np.array([1, 2]), np.array([3, 4])], ranges)
    k2 = distinct_rows([np.array([2, 5]), np.array([4, 5])], ranges)
    assert set(k1.tolist()) & set(k2.tolist()) == {24}  # the row (2, 4) in both


def test_wide_sparse_columns_are_ranked_first():
    wide = np.array([0, 1 << 61, 0, 1 << 61], dtype=np.int64)
    other = np.array([0, 0, 1 << 61, 0], dtype=np.int64)
    assert len(distinct_rows([wide, other])) == 3
    cols, ranges = ranked([wide])
    assert cols[0].tolist() == [0, 1, 0, 1] and ranges == [(0, 1)]


def test_empty_columns():
    assert distinct_rows([np.array([], dtype=np.int64)]).size == 0


def test_unique_rows_agree_with_numpy_unique_rows():
    rng = np.random.default_rng(0)
    rows = rng.integers(-3, 5, (200, 3))
    want = np.unique(rows, axis=0, return_index=True, return_inverse=True, return_counts=True)
    keys, first, inverse, counts = unique_rows(rows, return_index=True, return_inverse=True,
                                               return_counts=True)
    assert len(keys) == len(want[0]) and first.tolist() == want[1].tolist()
    assert inverse.reshape(-1).tolist() == want[2].reshape(-1).tolist()
    assert counts.tolist() == want[3].tolist()
    # keys that would overflow: numpy's own row sort, the same answer
    wide = np.array([[0, 1 << 61], [1 << 61, 0], [0, 1 << 61]], dtype=np.int64)
    assert unique_rows(wide, return_index=True)[1].tolist() == [0, 1]
    assert unique_rows(np.zeros((0, 2), dtype=np.int64)).size == 0


def test_row_keys_sort_as_the_rows_and_refuse_to_overflow():
    cols = [np.array([1, 0, 1]), np.array([5, 7, 6])]
    keys = row_keys(cols, [(0, 1), (5, 7)])
    assert np.argsort(keys).tolist() == [1, 0, 2]
    assert row_keys(cols, [(0, 1 << 31), (0, 1 << 31)]) is None and row_keys([], []) is None
