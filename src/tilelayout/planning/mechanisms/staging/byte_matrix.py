"""The 8-bit matrix forms of ldmatrix / stmatrix (sm_100a, sm_103a, sm_110a, sm_120a).

Both move 16-byte rows of 8-bit elements, each row's address supplied by one lane, and
are transposing (``.trans`` is mandatory for ``ldmatrix .m16n16``; CUTLASS issues
``stmatrix .m16n8`` with ``.trans`` only). Lane ``t``, byte ``B`` of register ``R``
(docs/hardware.md, *8-bit matrix forms*):

* ``ldmatrix.sync.aligned.m16n16.x{1,2}.trans.shared.b8``: matrix ``R // 2``, memory
  row ``4 (t % 4) + B`` (its address from lane ``16 j + row``), byte ``t // 4 + 8 (R % 2)``;
* ``stmatrix.sync.aligned.m16n8.x{1,2,4}.trans.shared.b8``: matrix ``R``, memory row
  ``2 (t % 4) + B % 2`` (address from lane ``8 j + row``), byte ``t // 4 + 8 (B // 2)``.

One template covers both: a matrix is ``4 G`` rows (``G`` = 4 for the load, 2 for the
store); the rows of lane group ``g = t % 4`` are ``G g .. G g + G - 1``, and lane ``t``
moves ``2 G`` bytes per matrix, byte ``e = G h + k`` at row ``G g + k``, byte
``t // 4 + 8 h`` of the row. :func:`byte_schedule` finds the instructions that move a
register file's elements at given byte addresses, or None.

>>> import numpy as np
>>> t = np.arange(32)
>>> # one m16n8 matrix: lane t's byte e at row 2(t%4) + e%2, column t//4 + 8(e//2)
>>> e = np.arange(4)
>>> addr = 16 * (2 * (t[:, None] % 4) + e % 2) + t[:, None] // 4 + 8 * (e // 2)
>>> table = np.arange(128).reshape(1, 32, 4)
>>> rows, slots, counts = byte_schedule(table, addr.reshape(-1), "m16n8")
>>> counts, slots[0, 0].tolist(), rows[0, 0, :8].tolist()
((1,), [0, 1, 2, 3], [0, 16, 32, 48, 64, 80, 96, 112])
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

#: form -> (G: rows of one lane group per matrix, most matrices per instruction)
FORMS = MappingProxyType({"m16n16": (4, 2), "m16n8": (2, 4)})
#: the load and the store form
LOAD_FORM, STORE_FORM = "m16n16", "m16n8"
WARP = 32
ROW_BYTES = 16


def byte_schedule(table: np.ndarray, addr: np.ndarray, form: str
                  ) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]] | None:
    """``(rows, slots, counts)`` of the ``form`` instructions that move ``table``'s
    elements (``table[w, lane, slot]`` = element, -1 none) at byte addresses ``addr``:
    ``rows[w, q, i]`` the row address lane ``i`` supplies in instruction ``q`` of warp
    ``w`` (-1 none), ``slots[q, j, e]`` the register slot of byte ``e`` of matrix ``j``
    (the same in every lane), ``counts[q]`` its matrices; None when the addresses are
    not rows the form's lane pattern serves."""
    G, most = FORMS[form]
    W = table.shape[0]
    w, lane, slot = np.nonzero(table >= 0)
    if not len(w) or len(w) % (WARP * 2 * G) or table.shape[1] != WARP:
        return None
    chunk, pos = np.divmod(addr[table[w, lane, slot]], ROW_BYTES)
    if np.any(lane // 4 != pos % 8):
        return None
    g, h = lane % 4, pos // 8
    span = int(chunk.max()) + 1
    uniq, inv, count = np.unique(w * span + chunk, return_inverse=True, return_counts=True)
    inv = inv.reshape(-1)
    if np.any(count != ROW_BYTES):
        return None
    n = len(uniq)
    row_g = np.full(n, -1, np.int64)
    row_g[inv] = g
    if np.any(row_g[inv] != g):
        return None
    # a row's bytes h = 0 / 1 sit in one register slot each, the same in all its lanes
    key = np.full((n, 2), -1, np.int64)
    key[inv, h] = slot
    if np.any(key[inv, h] != slot):
        return None
    row_w, row_chunk = np.divmod(uniq, span)
    order = np.lexsort((key[:, 1], key[:, 0], row_g, row_w))
    group = row_w[order] * 4 + row_g[order]
    starts = np.r_[0, np.flatnonzero(np.diff(group)) + 1]
    sizes = np.diff(np.r_[starts, n])
    if len(set(sizes.tolist())) != 1 or sizes[0] % G or \
            len(starts) != 4 * len(np.unique(w)):
        return None
    k = np.zeros(n, np.int64)
    k[order] = np.arange(n) - np.repeat(starts, sizes)
    matrices = int(sizes[0]) // G
    j, kk = np.divmod(k, G)
    slots_of = np.full((matrices, 2 * G), -1, np.int64)
    e = G * h + kk[inv]
    slots_of[j[inv], e] = slot
    if np.any(slots_of[j[inv], e] != slot) or np.any(slots_of < 0):
        return None
    # the instruction fills (empties) whole 32-bit registers, bytes in order: a matrix's
    # bytes 4 r .. 4 r + 3 must be one register's four slots, in order (any other
    # placement would take byte permutes the schedule does not have)
    quads = slots_of.reshape(matrices, -1, 4)
    if np.any(quads % 4 != np.arange(4)) or np.any(quads // 4 != quads[..., :1] // 4):
        return None
    counts, q_of, j_of = split_matrices(matrices, most)
    rows = np.full((W, len(counts), WARP), -1, np.int64)
    rows[row_w, q_of[j], 4 * G * j_of[j] + G * row_g + kk] = row_chunk * ROW_BYTES
    slots = np.full((len(counts), 4, 2 * G), -1, np.int64)
    slots[q_of, j_of] = slots_of
    return rows, slots, counts


def split_matrices(matrices: int, most: int = 4
                   ) -> tuple[tuple[int, ...], np.ndarray, np.ndarray]:
    """``matrices`` issued as the fewest ``.x4`` / ``.x2`` / ``.x1`` instructions of at most
    ``most`` matrices each (any ldmatrix / stmatrix form): the matrices of each
    instruction, and per matrix its instruction and its index in it.

    >>> counts, q_of, j_of = split_matrices(7)
    >>> counts, q_of.tolist(), j_of.tolist()
    ((4, 2, 1), [0, 0, 0, 0, 1, 1, 2], [0, 1, 2, 3, 0, 1, 0])
    """
    counts: list[int] = []
    left = matrices
    while left:
        c = max(x for x in (4, 2, 1) if x <= min(most, left))
        counts.append(c)
        left -= c
    q_of = np.repeat(np.arange(len(counts)), counts)
    j_of = np.concatenate([np.arange(c) for c in counts])
    return tuple(counts), q_of, j_of


def byte_lane_addresses(rows: np.ndarray, form: str, q: int, j: int, e: int) -> np.ndarray:
    """``(warps, 32)``: the byte address lane ``t`` moves as byte ``e`` of matrix ``j``
    of instruction ``q`` (the form's fragment rule, see the module doc).

    >>> rows = np.full((1, 1, 32), -1); rows[0, 0, :8] = 16 * np.arange(8)
    >>> byte_lane_addresses(rows, "m16n8", 0, 0, 3)[0, :5].tolist()
    [24, 56, 88, 120, 25]
    """
    G = FORMS[form][0]
    t = np.arange(WARP)
    hi, k = divmod(e, G)
    base = rows[:, q, 4 * G * j + G * (t % 4) + k]
    return np.where(base >= 0, base + t // 4 + 8 * hi, -1)
