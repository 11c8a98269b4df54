"""TIRx's Trainium layouts: every element of ``trainium(annotation, shape)`` at its SBUF
partition and free offset, and ``to_psum`` splitting the free axis into 512-element banks
without moving an element."""

from __future__ import annotations

import itertools
import math

import pytest

import tilelayout.tirx as T
from tilelayout import LayoutError


@pytest.mark.parametrize("annotation,shape", [("PF", (128, 64)), ("FP", (8, 16)),
                                              ("FPF", (2, 256, 4)), ("FPPF", (2, 4, 32, 8))])
def test_partitions_and_free_offsets_are_row_major_among_themselves(annotation, shape):
    L = T.TileLayout.trainium(annotation, shape)
    p_dims = [n for n, c in zip(shape, annotation) if c == "P"]
    f_dims = [n for n, c in zip(shape, annotation) if c == "F"]
    p_total = 1
    for n in p_dims:
        p_total *= n
    for coord in itertools.islice(itertools.product(*(range(n) for n in shape)), 0, None, 7):
        p_idx = [c for c, a in zip(coord, annotation) if a == "P"]
        f_idx = [c for c, a in zip(coord, annotation) if a == "F"]
        want_p = want_f = 0
        for c, n in zip(p_idx, p_dims):
            want_p = want_p * n + c
        for c, n in zip(f_idx, f_dims):
            want_f = want_f * n + c
        if p_total > 128:  # the high part of a single P dimension moves to F, outermost
            want_f += (want_p // 128) * math.prod(f_dims)
            want_p %= 128
        got = L.apply(*coord, shape=list(shape))
        assert (got.get("P", 0), got.get("F", 0)) == (want_p, want_f), coord


def test_to_psum_moves_no_element():
    L = T.TileLayout.trainium("FP", (2048, 8))
    P = L.to_psum()
    assert str(P) == "S[(4,512,8):(1@Bank,1@F,1@P)]"
    for flat in range(0, L.size(), 13):
        a, b = L.apply(flat), P.apply(flat)
        assert a["F"] == b["Bank"] * 512 + b["F"] and a["P"] == b["P"]
    assert T.TileLayout.trainium("PF", (128, 1024), is_psum=True).size("Bank") == 2


@pytest.mark.parametrize("call,message", [
    (lambda: T.TileLayout.trainium("PX", (4, 4)), "'P' and 'F'"),
    (lambda: T.TileLayout.trainium("PF", (4,)), "same length"),
    (lambda: T.TileLayout.trainium("PF", (200, 4)), "multiple of 128"),
    (lambda: T.TileLayout.trainium("PPF", (16, 16, 4)), "less than or equal to 128"),
    (lambda: T.TileLayout(T.S[(8, 700):(1 @ T.P, 1 @ T.F)]).to_psum(), "whole 512-element banks"),
])
def test_refusals_are_tirx_assertion_errors(call, message):
    with pytest.raises(AssertionError, match=message):
        call()
    with pytest.raises(LayoutError):
        call()
