"""Forward evaluation (property-based): map_all == apply == the reference document's four steps."""

import itertools
import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import tilelayout as tl
from tests.strategies import layout_shape_index, layouts, shapes_for


def four_steps(layout, index, shape):
    """A direct transcription of the reference document's four steps."""
    swizzle = None
    if isinstance(layout, tl.ComposeLayout):
        swizzle, layout = layout.swizzle, layout.tile_layout
    # 1. flatten row-major
    flat = sum(x * math.prod(shape[d + 1 :]) for d, x in enumerate(index))
    # 2. split: c_k = floor(flat / prod_{l>k} e_l) mod e_k
    ext = [it.extent for it in layout.shard]
    c = [(flat // math.prod(ext[k + 1 :])) % ext[k] for k in range(len(ext))]
    # 3. accumulate + offset
    axes = []
    for it in layout.shard + layout.replica:
        if it.axis not in axes:
            axes.append(it.axis)
    axes += [a for a in layout.offset if a not in axes]
    base = {a: sum(ck * it.stride for ck, it in zip(c, layout.shard) if it.axis == a)
            + layout.offset.get(a, 0) for a in axes}
    # 4. every replica combination
    out = set()
    for r in itertools.product(*(range(it.extent) for it in layout.replica)):
        coord = dict(base)
        for rt, it in zip(r, layout.replica):
            coord[it.axis] += rt * it.stride
        if swizzle is not None:
            coord["m"] = swizzle.apply(coord["m"])
        out.add(tuple(sorted(coord.items())))
    return out


@given(layout_shape_index())
def test_apply_equals_the_four_steps(case):
    L, shape, index = case
    got = {tuple(sorted(c.items())) for c in L.apply(index, shape)}
    assert got == four_steps(L, index, shape)


@given(layout_shape_index())
def test_flat_index_equals_tuple_index(case):
    L, shape, index = case
    flat = int(np.ravel_multi_index(index, shape)) if shape else 0
    assert L.apply(flat, shape) == L.apply(index, shape)
    assert L.base(flat) == L.base(index, shape)


@given(layout_shape_index())
def test_base_is_first_replica(case):
    L, shape, index = case
    coords = L.apply(index, shape)
    assert coords[0] == L.base(index, shape)


@given(layouts(), st.data())
def test_map_all_equals_apply_everywhere(L, data):
    shape = data.draw(shapes_for(L.size()))
    arrays = L.map_all(shape)
    assert list(arrays) == list(L.axes)
    R = L.replica_count
    for a in arrays.values():
        assert a.shape == (*shape, R) and a.dtype == np.int64
    for index in itertools.product(*(range(s) for s in shape)):
        expected = {tuple(sorted(c.items())) for c in L.apply(index, shape)}
        got = {
            tuple(sorted((a, int(arrays[a][index + (r,)])) for a in arrays))
            for r in range(R)
        }
        assert got == expected
