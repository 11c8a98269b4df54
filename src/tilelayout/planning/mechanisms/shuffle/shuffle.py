"""Warp shuffles: rounds of ``shfl.sync.idx`` that move 32-bit words between lanes.

In one round every lane of a warp offers one 32-bit word (one of its registers) and
reads the word offered by one lane it names (``srcLane``). A set of transfers
*sender lane -> receiver lane* fits in the fewest rounds when each round is a matching
(a lane sends one word and receives one word per round). For a warp whose transfer
multigraph has maximum degree ``D`` (the most words one lane sends or receives), Kőnig's
edge-colouring theorem gives exactly ``D`` rounds; :func:`schedule` finds them by
peeling perfect matchings off the ``D``-regular completion of the 32 x 32 count matrix.

>>> import numpy as np
>>> lanes = np.arange(32)
>>> r = schedule(np.zeros(32, int), lanes, np.zeros(32, int), (lanes + 1) % 32)
>>> r.rounds, r.src_lane[0, 0, :4].tolist()
(1, [31, 0, 1, 2])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ....core import budget
from ....core.frozen import freeze_fields
from ...model.placement import WARP


@dataclass(frozen=True)
class ShuffleSchedule:
    """``rounds`` rounds for ``warps`` warps: ``src_lane``, ``send_word`` of shape
    ``(rounds, warps, 32)`` (-1 where a lane takes no part) and, per transfer (edge),
    its round (``edge_round``)."""

    rounds: int
    src_lane: np.ndarray
    send_word: np.ndarray
    edge_round: np.ndarray
    lower_bound: int

    def __post_init__(self) -> None:
        freeze_fields(self)  # its arrays are read-only views


def _complete(c: np.ndarray, degree: int) -> np.ndarray:
    """Dummy counts that make the count matrix ``c`` ``degree``-regular."""
    row = degree - c.sum(axis=1)
    col = degree - c.sum(axis=0)
    pad = np.zeros_like(c)
    j = 0
    for i in range(len(row)):
        while row[i] > 0:
            while col[j] == 0:
                j += 1
            t = min(row[i], col[j])
            pad[i, j] += t
            row[i] -= t
            col[j] -= t
    return pad


def _matching(support: np.ndarray, prev: list[int]) -> list[int]:
    """A perfect matching (receiver of each sender) on ``support``, warm-started."""
    n = len(support)
    rows, cols = np.nonzero(support)
    ends = np.searchsorted(rows, np.arange(n + 1)).tolist()
    flat = cols.tolist()
    adj = [flat[ends[i]:ends[i + 1]] for i in range(n)]
    owner = [-1] * n  # receiver -> sender
    match = [-1] * n
    for i, j in enumerate(prev):
        if j >= 0 and support[i, j] and owner[j] < 0:
            owner[j], match[i] = i, j

    def augment(i: int, seen: list[bool]) -> bool:
        for j in adj[i]:
            if not seen[j]:
                seen[j] = True
                if owner[j] < 0 or augment(owner[j], seen):
                    owner[j], match[i] = i, j
                    return True
        return False

    for i in range(n):
        if match[i] < 0:
            augment(i, [False] * n)
    return match


def _rounds_of(c: np.ndarray) -> list[list[int]]:
    """Per round, the receiver of each sender (-1 = idle or a dummy transfer)."""
    degree = int(max(c.sum(axis=1).max(initial=0), c.sum(axis=0).max(initial=0)))
    real = c.copy()
    total = real + _complete(c, degree)
    out: list[list[int]] = []
    prev = [-1] * len(c)
    lanes = np.arange(len(c))
    # transposes and rotations decompose into XOR / cyclic lane patterns: try those first
    families = np.concatenate([lanes[None, :] ^ lanes[:, None],
                               (lanes[None, :] + lanes[:, None]) % len(c)])
    while len(out) < degree:
        fits = (total[lanes[None, :], families] > 0).all(axis=1)
        match = (families[int(np.argmax(fits))] if fits.any()
                 else np.asarray(_matching(total > 0, prev)))
        # the same round again while its transfers remain: the first fitting pattern
        # stays the first (counts only fall), and the warm-started matching returns
        # itself while all its edges remain, so this is the round-by-round schedule
        for _ in range(int(total[lanes, match].min())):
            total[lanes, match] -= 1
            moved = real[lanes, match] > 0
            real[lanes[moved], match[moved]] -= 1
            out.append(np.where(moved, match, -1).tolist())
        prev = match.tolist()
    return out


def degree(warp: np.ndarray, sender: np.ndarray, receiver: np.ndarray) -> int:
    """The fewest rounds for these transfers: the most words one lane sends or receives
    in one warp (Kőnig; :func:`schedule` reaches it).

    >>> degree(np.zeros(3, int), np.array([0, 0, 1]), np.array([1, 2, 2]))
    2
    """
    if not len(warp):
        return 0
    out = np.bincount(warp * WARP + sender).max()
    inc = np.bincount(warp * WARP + receiver).max()
    return int(max(out, inc))


def schedule(warp: np.ndarray, sender: np.ndarray, word: np.ndarray,
             receiver: np.ndarray) -> ShuffleSchedule:
    """Rounds for the transfers ``(warp, sender lane, word) -> receiver lane``.

    Each transfer is one 32-bit word read by one receiver; the same word read by two
    receivers is two transfers (they may share a round). Warps are numbered
    ``0..max(warp)``; every warp runs the same number of rounds (the slowest warp's).
    """
    warp, sender, word, receiver = (np.asarray(a, dtype=np.int64)
                                    for a in (warp, sender, word, receiver))
    warps = int(warp.max(initial=-1)) + 1
    edge_round = np.full(len(warp), -1, dtype=np.int64)
    per_warp: list[list[list[int]]] = []
    cache: dict[bytes, list[list[int]]] = {}
    lower = 0
    counts = np.bincount((warp * WARP + sender) * WARP + receiver,
                         minlength=warps * WARP * WARP).reshape(warps, WARP, WARP)
    for w in range(warps):
        budget.checkpoint()
        c = counts[w]
        key = c.tobytes()
        if key not in cache:
            cache[key] = _rounds_of(c)
        per_warp.append(cache[key])
        lower = max(lower, int(c.sum(axis=1).max(initial=0)), int(c.sum(axis=0).max(initial=0)))
    rounds = max((len(r) for r in per_warp), default=0)
    src_lane = np.full((rounds, warps, WARP), -1, dtype=np.int64)
    send_word = np.full((rounds, warps, WARP), -1, dtype=np.int64)
    for w, plan in enumerate(per_warp):
        idx = np.flatnonzero(warp == w)
        # pending transfers per (sender, receiver), consumed round by round
        pending: dict[tuple[int, int], list[int]] = {}
        for e in idx.tolist():
            pending.setdefault((int(sender[e]), int(receiver[e])), []).append(e)
        for k, row in enumerate(plan):
            for s, r in enumerate(row):
                if r < 0:
                    continue
                e = pending[(s, r)].pop()
                edge_round[e] = k
                src_lane[k, w, r] = s
                send_word[k, w, s] = word[e]
    return ShuffleSchedule(rounds, src_lane, send_word, edge_round, lower)
