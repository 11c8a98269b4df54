"""CUTLASS's pycute unit-test cases, transcribed as data (facts, not code).

Source: NVIDIA/cutlass ``test/python/pycute/`` — ``test_coalesce.py``,
``test_complement.py``, ``test_composition.py``, ``test_left_inverse.py``,
``test_right_inverse.py`` (each case is the ``Layout(shape, stride)`` a ``helper_test_*``
call receives; ``Layout(shape)`` there has CuTe's default column-major compact stride,
written out here as ``None``). ``test_int_tuple.py`` and ``test_typing.py`` test
pycute's integer-tuple helpers and Python typing, not layouts, so they have no layout
case to transcribe.

Each entry is ``(shape, stride)`` (``stride`` ``None``: compact column-major).
"""

from __future__ import annotations

#: test_coalesce.py: helper_test_coalesce(layout)
COALESCE = [
    (1, 0), (1, 1), ((2, 4), None), ((2, 4, 6), None), ((2, 4, 6), (1, 6, 2)),
    ((2, 1, 6), (1, 7, 2)), ((2, 1, 6), (4, 7, 8)), ((2, (4, 6)), None), ((2, 4), (4, 1)),
    ((2, 4, 6), (24, 6, 1)), ((2, 1, 3), (2, 4, 4)), (((2, 2), (2, 2)), ((1, 4), (8, 32))),
]

#: test_complement.py: helper_test_complement(layout)
COMPLEMENT = [
    (1, 0), (1, 1), (4, 0), ((2, 4), (1, 2)), ((2, 3), (1, 2)), ((2, 4), (1, 4)),
    ((2, 4, 8), (8, 1, 64)), (((2, 2), (2, 2)), ((1, 4), (8, 32))), ((2, (3, 4)), (3, (1, 6))),
    ((4, 6), (1, 6)), ((4, 10), (1, 10)),
]

#: test_composition.py: helper_test_composition(layoutA, layoutB)
COMPOSITION = [
    ((1, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 1), (1, 0)), ((1, 1), (1, 1)),
    ((4, None), (4, None)), ((4, 2), (4, None)), ((4, None), (4, 2)), ((4, 0), (4, None)),
    ((4, None), (4, 0)), ((1, 0), (4, None)), ((4, None), (1, 0)), ((4, None), (2, None)),
    ((4, 2), (2, None)), ((4, None), (2, 2)), ((4, 2), (2, 2)), ((12, None), ((4, 3), None)),
    ((12, 2), ((4, 3), None)), ((12, None), ((4, 3), (3, 1))), ((12, 2), ((4, 3), (3, 1))),
    ((12, None), ((2, 3), (2, 4))), (((4, 3), None), ((4, 3), None)), (((4, 3), None), (12, None)),
    (((4, 3), None), (6, 2)), (((4, 3), None), ((6, 2), (2, 1))), (((4, 3), (3, 1)), ((4, 3), None)),
    (((4, 3), (3, 1)), (12, None)), (((4, 3), (3, 1)), (6, 2)), (((4, 3), (3, 1)), ((6, 2), (2, 1))),
    (((8, 8), None), (((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32)))),
    (((8, 8), (8, 1)), (((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32)))),
    ((((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32))), (8, 4)),
    (((4, 2), (1, 16)), ((4, 2), (2, 1))), (((2, 2), (2, 1)), ((2, 2), (2, 1))),
    (((4, 8, 2), None), ((2, 2, 2), (2, 8, 1))), (((4, 8, 2), (2, 8, 1)), ((2, 2, 2), (1, 8, 2))),
    (((4, 8, 2), (2, 8, 1)), ((4, 2, 2), (2, 8, 1))),
    (((4, 6, 8), (1, 4, 7)), (6, 1)),                    # "Pre-coalesced LHS"
    (((4, 6, 8, 10), (2, 3, 5, 7)), (6, 12)),            # "Mid-layout truncation"
]

#: test_left_inverse.py: helper_test_left_inverse(layout)
LEFT_INVERSE = [
    (1, 0), ((1, 1), (0, 0)), (1, 1), (4, 1), (4, 2), ((8, 4), (1, 8)), ((8, 4), (4, 1)),
    ((2, 4, 6), (1, 2, 8)), ((2, 4, 6), (4, 1, 8)), ((4, 2), (1, 16)),
]

#: test_right_inverse.py: helper_test_right_inverse(layout)
RIGHT_INVERSE = [
    (1, 0), ((1, 1), (0, 0)), ((3, 7), (0, 0)), (1, 1), (4, 0), (4, 1), (4, 2), ((2, 4), (0, 2)),
    ((8, 4), (1, 8)), ((8, 4), (4, 1)), ((2, 4, 6), (1, 2, 8)), ((2, 4, 6), (4, 1, 8)),
    ((4, 2), (1, 16)),
]
