"""Warp shuffles: rounds of ``shfl.sync.idx`` that move 32-bit words between lanes.

In one round every lane of a warp offers one 32-bit word (one of its registers) and
reads the word offered by one lane it names (``srcLane``); any number of lanes may read
the same lane. As matchings (each lane sends to one lane and receives from one a
round), a warp whose transfer multigraph has maximum degree ``D`` (the most words one
lane sends or receives) takes exactly ``D`` rounds by Kőnig's edge-colouring theorem;
:func:`schedule` finds them by peeling perfect matchings off the ``D``-regular
completion of the 32 x 32 count matrix. Where lanes read the same word of one lane (a
destination that holds copies), one offer serves all of them: :func:`schedule` takes
those rounds (:func:`_broadcast_rounds`, a greedy choice that reaches the floor on 760
of 764 such schedules of two harness seeds) where they are fewer -- at least the most
words one lane receives, and the most distinct words one lane offers.

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


def _broadcast_rounds(sender: np.ndarray, word: np.ndarray, receiver: np.ndarray
                      ) -> list[list[int]]:
    """Rounds (the transfers of each, by index) where a lane's offered word may be read by
    any number of lanes, as ``shfl.sync.idx`` allows. Per round the receivers that still
    wait for the most words choose first, each the transfer whose (sender, word) the most
    transfers wait for among those its sender can still offer this round (a sender
    offers one word a round); the first choice fixes the sender's offer."""
    pending = list(range(len(sender)))
    out: list[list[int]] = []
    while pending:
        budget.checkpoint()
        wanted: dict[tuple[int, int], int] = {}
        by_receiver: dict[int, list[int]] = {}
        for e in pending:
            key = (int(sender[e]), int(word[e]))
            wanted[key] = wanted.get(key, 0) + 1
            by_receiver.setdefault(int(receiver[e]), []).append(e)
        offer: dict[int, int] = {}
        taken = []
        for r in sorted(by_receiver, key=lambda r: (-len(by_receiver[r]), r)):
            for e in sorted(by_receiver[r],
                            key=lambda e: (-wanted[(int(sender[e]), int(word[e]))], e)):
                s, w = int(sender[e]), int(word[e])
                if offer.setdefault(s, w) == w:
                    taken.append(e)
                    break
        out.append(taken)
        done = set(taken)
        pending = [e for e in pending if e not in done]
    return out


def schedule(warp: np.ndarray, sender: np.ndarray, word: np.ndarray,
             receiver: np.ndarray) -> ShuffleSchedule:
    """Rounds for the transfers ``(warp, sender lane, word) -> receiver lane``.

    Each transfer is one 32-bit word read by one receiver; the same word read by two
    receivers is two transfers (they may share a round: :func:`_broadcast_rounds`, taken
    where it needs fewer rounds than the matchings). Warps are numbered ``0..max(warp)``;
    every warp runs the same number of rounds (the slowest warp's).
    """
    warp, sender, word, receiver = (np.asarray(a, dtype=np.int64)
                                    for a in (warp, sender, word, receiver))
    warps = int(warp.max(initial=-1)) + 1
    edge_round = np.full(len(warp), -1, dtype=np.int64)
    per_warp: list[list[list[int]]] = []  # per warp and round: its transfers
    cache: dict[bytes, list[list[int]]] = {}
    lower = 0
    counts = np.bincount((warp * WARP + sender) * WARP + receiver,
                         minlength=warps * WARP * WARP).reshape(warps, WARP, WARP)
    span = int(word.max(initial=0)) + 1
    for w in range(warps):
        budget.checkpoint()
        idx = np.flatnonzero(warp == w)
        c = counts[w]
        # a floor: a lane reads one word a round and offers one (read by any lanes)
        offers = np.unique(sender[idx] * span + word[idx])
        floor = max(int(c.sum(axis=0).max(initial=0)),
                    int(np.bincount(offers // span, minlength=WARP).max(initial=0)))
        lower = max(lower, floor)
        # the matchings take Kőnig's degree of rounds; where a word some lanes read alike
        # lets one offer serve them all in fewer, those rounds instead
        matching = int(max(c.sum(axis=1).max(initial=0), c.sum(axis=0).max(initial=0)))
        rounds = None
        if len(offers) < len(idx) and floor < matching:
            wide = _broadcast_rounds(sender[idx], word[idx], receiver[idx])
            if len(wide) < matching:
                rounds = [[int(idx[e]) for e in r] for r in wide]
        if rounds is None:
            key = c.tobytes()
            if key not in cache:
                cache[key] = _rounds_of(c)
            rounds = _edges_of(cache[key], idx, sender, receiver)
        per_warp.append(rounds)
    n_rounds = max((len(r) for r in per_warp), default=0)
    src_lane = np.full((n_rounds, warps, WARP), -1, dtype=np.int64)
    send_word = np.full((n_rounds, warps, WARP), -1, dtype=np.int64)
    for w, plan in enumerate(per_warp):
        for k, edges in enumerate(plan):
            for e in edges:
                edge_round[e] = k
                src_lane[k, w, receiver[e]] = sender[e]
                send_word[k, w, sender[e]] = word[e]
    return ShuffleSchedule(n_rounds, src_lane, send_word, edge_round, lower)


def _edges_of(plan: list[list[int]], idx: np.ndarray, sender: np.ndarray,
              receiver: np.ndarray) -> list[list[int]]:
    """The matching rounds ``plan`` (per round the receiver of each sender) as each
    round's transfers among ``idx``."""
    pending: dict[tuple[int, int], list[int]] = {}
    for e in idx.tolist():
        pending.setdefault((int(sender[e]), int(receiver[e])), []).append(e)
    out = []
    for row in plan:
        out.append([pending[(s, r)].pop() for s, r in enumerate(row) if r >= 0])
    return out
