"""The hand-written references are the scenarios' conversions: FlashAttention-3's FP8
register permute, run as its source does it on our layouts, delivers exactly the wgmma
A fragment, with the instruction counts the suite records."""

from __future__ import annotations

import numpy as np

import tilelayout as tl

from .suite import DOT_A_FP8, SCENARIOS, WGMMA_D

WARP = 32


def registers(text: str, shape) -> np.ndarray:
    """[warp, lane, slot] -> flat element index."""
    layout = tl.parse(text)
    maps = layout.map_all(shape)
    n = int(np.prod(shape))
    warp = np.asarray(maps["warpid"]).reshape(n)
    lane = np.asarray(maps["laneid"]).reshape(n)
    slot = np.asarray(maps["m"]).reshape(n)
    out = np.full((warp.max() + 1, WARP, slot.max() + 1), -1, dtype=np.int64)
    out[warp, lane, slot] = np.arange(n)
    return out


def byte_perm(x: list, y: list, selector: int) -> list:
    """CUDA ``__byte_perm(x, y, s)``: byte i of the result is byte ``s >> 4i & 7`` of y:x."""
    both = x + y
    return [both[(selector >> (4 * i)) & 7] for i in range(4)]


def permute_aregs_fp8(frag: np.ndarray) -> tuple[np.ndarray, dict[str, int]]:
    """FlashAttention-3 hopper/utils.h:455-484 on one warp's 8-bit fragments
    ``frag[lane, byte]``: per 64-bit chunk, lanes 0 and 3 of each quad offer (upper, lower),
    lanes 1 and 2 (lower, upper); each lane reads upper0 from quad lane {0,3,1,2}[q] and
    lower0 from that lane ^ 1 (two __shfl_sync of width 4), then byte-permutes both
    words. Returns the fragments and the instructions per warp."""
    out = frag.copy()
    upper_map = [0, 3, 1, 2]
    counts = {"shfl": 0, "prmt": 0, "selp": 0}
    def offered(lane: int, c: int, first: bool) -> list:
        """The word lane offers in chunk c: upper0 (first) or lower0."""
        up, lo = list(frag[lane, 8 * c: 8 * c + 4]), list(frag[lane, 8 * c + 4: 8 * c + 8])
        keep = lane % 4 in (0, 3)
        return (up if keep else lo) if first else (lo if keep else up)

    for c in range(frag.shape[1] // 8):
        for lane in range(WARP):
            q, base = lane % 4, lane - lane % 4
            u0 = offered(base + upper_map[q], c, True)
            l0 = offered(base + (upper_map[q] ^ 1), c, False)
            keep = q in (0, 3)
            out[lane, 8 * c: 8 * c + 4] = byte_perm(u0, l0, 0x5410 if keep else 0x1054)
            out[lane, 8 * c + 4: 8 * c + 8] = byte_perm(u0, l0, 0x7632 if keep else 0x3276)
        counts["selp"] += 2  # upper0 / lower0 picked by lane_03
        counts["shfl"] += 2
        counts["prmt"] += 2
    return out, counts


def test_fa3_permute_aregs_fp8_is_the_d_to_a_conversion():
    shape = (64, 64)
    d = registers(WGMMA_D[64], shape)   # fp32 accumulator, converted to fp8 in slot order
    a = registers(DOT_A_FP8, shape)     # the wgmma A fragment (e4m3)
    for w in range(d.shape[0]):
        got, counts = permute_aregs_fp8(d[w])
        assert (got == a[w]).all()
    scenario = next(s for s in SCENARIOS if s.name.startswith("FA3 FP8 P"))
    recorded = scenario.hand[0].cost
    assert sum(counts.values()) == recorded.instructions
    assert recorded.detail == (f"{counts['shfl']} shfl.sync.idx, {counts['prmt']} prmt.b32, "
                               f"{counts['selp']} selp.b32")
    # without the permute the bytes are not where A wants them
    assert not (d[0] == a[0]).all()
