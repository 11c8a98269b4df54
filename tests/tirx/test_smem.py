"""TIRx's shared-memory constructors on our layouts: the swizzle atom and MMA tiles."""

import pytest

from tilelayout import LayoutError, presets
from tilelayout.tirx.smem import (
    ROW_BITS,
    SwizzleMode,
    mma_atom_layout,
    mma_atom_shape,
    mma_shared_layout,
)


def test_modes_are_tirx_b_values_and_rows_are_16_byte_chunks():
    assert [m.value for m in SwizzleMode] == [0, 1, 2, 3]
    assert {m.name: bits // 8 for m, bits in ROW_BITS.items()} == {
        "SWIZZLE_32B_ATOM": 32, "SWIZZLE_64B_ATOM": 64, "SWIZZLE_128B_ATOM": 128}


@pytest.mark.parametrize(("dtype", "mode", "shape"), [
    ("float16", 3, [8, 64]), ("float16", 1, [8, 16]), ("float32", 2, [8, 16]), ("int8", 3, [8, 128]),
])
def test_the_atom_is_the_swizzle_atom_preset(dtype, mode, shape):
    assert mma_atom_shape(dtype, mode) == shape
    atom = mma_atom_layout(dtype, mode)
    name = {1: "32B", 2: "64B", 3: "128B"}[mode]
    ours = presets.get("smem.swizzle_atom", dtype=dtype if dtype != "int8" else "float8", mode=name)
    for flat in range(shape[0] * shape[1]):
        assert atom.base(flat)["m"] == ours.layout.base(flat)["m"]


def test_the_shared_tile_is_a_permutation_of_its_addresses():
    shape = [128, 128]
    L = mma_shared_layout("float16", SwizzleMode.SWIZZLE_128B_ATOM, shape)
    addresses = {L.base((r, c), shape)["m"] for r in range(128) for c in range(128)}
    assert addresses == set(range(128 * 128))
    assert L.apply(0, 64, shape=shape) == {"m": 8192}  # the second K atom after all rows


def test_no_swizzle_uses_core_matrix_columns():
    L = mma_shared_layout("float16", SwizzleMode.SWIZZLE_NONE, [16, 16])
    assert [L.base((r, 0), (16, 16))["m"] for r in range(3)] == [0, 8, 16]
    assert L.base((0, 8), (16, 16))["m"] == 128


@pytest.mark.parametrize("call", [
    lambda: mma_atom_shape("float16", SwizzleMode.SWIZZLE_NONE),
    lambda: mma_shared_layout("float16", 3, [12, 64]),
    lambda: mma_shared_layout("float16", 3, [8, 48]),
    lambda: mma_atom_layout("float16", 7),
])
def test_refusals(call):
    with pytest.raises(LayoutError):
        call()
