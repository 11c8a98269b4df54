"""Warp shuffle schedules: Kőnig's bound reached, each round a matching, every word moved."""

import numpy as np
import pytest

from tilelayout.planning.mechanisms.shuffle.shuffle import degree, schedule

RNG = np.random.default_rng(7)


def _check(warp, sender, word, receiver):
    s = schedule(warp, sender, word, receiver)
    assert s.rounds == s.lower_bound == degree(warp, sender, receiver)
    assert s.src_lane.shape == s.send_word.shape == (s.rounds, int(warp.max()) + 1, 32)
    for i, (w, snd, wd, rcv) in enumerate(zip(warp, sender, word, receiver, strict=True)):
        r = s.edge_round[i]
        assert 0 <= r < s.rounds
        assert s.src_lane[r, w, rcv] == snd          # the receiver names its sender
        assert s.send_word[r, w, snd] == wd          # the sender offers that word
    return s


def test_a_rotation_takes_one_round():
    lanes = np.arange(32)
    s = _check(np.zeros(32, int), lanes, np.zeros(32, int), (lanes + 1) % 32)
    assert s.rounds == 1 and s.src_lane[0, 0, :4].tolist() == [31, 0, 1, 2]


def test_a_transpose_of_words_takes_as_many_rounds_as_its_degree():
    # lane l sends word k to lane (l + k) % 32 for k < 4: each lane sends and receives 4
    lane = np.repeat(np.arange(32), 4)
    word = np.tile(np.arange(4), 32)
    _check(np.zeros(128, int), lane, word, (lane + word) % 32)


@pytest.mark.parametrize("seed", range(5))
def test_random_transfers_over_two_warps(seed):
    rng = np.random.default_rng(seed)
    n = 200
    warp = rng.integers(0, 2, n)
    sender, receiver = rng.integers(0, 32, n), rng.integers(0, 32, n)
    word = rng.integers(0, 8, n)
    # one word per (warp, sender, word) may go to many receivers but a receiver reads it once
    key = np.unique(np.stack([warp, sender, word, receiver]), axis=1)
    _check(*key)


def test_no_transfers_no_rounds():
    empty = np.array([], dtype=np.int64)
    assert degree(empty, empty, empty) == 0


def _rounds_one_by_one(c: np.ndarray) -> list[list[int]]:
    """The schedule's rounds found one round at a time (a pattern or a warm-started
    matching per round): what repeating a round while its transfers remain must equal."""
    from tilelayout.planning.mechanisms.shuffle.shuffle import _complete, _matching

    deg = int(max(c.sum(axis=1).max(initial=0), c.sum(axis=0).max(initial=0)))
    real, total = c.copy(), c + _complete(c, deg)
    lanes = np.arange(len(c))
    families = np.concatenate([lanes[None, :] ^ lanes[:, None],
                               (lanes[None, :] + lanes[:, None]) % len(c)])
    out, prev = [], [-1] * len(c)
    for _ in range(deg):
        fits = (total[lanes[None, :], families] > 0).all(axis=1)
        match = (families[int(np.argmax(fits))] if fits.any()
                 else np.asarray(_matching(total > 0, prev)))
        total[lanes, match] -= 1
        moved = real[lanes, match] > 0
        real[lanes[moved], match[moved]] -= 1
        out.append(np.where(moved, match, -1).tolist())
        prev = match.tolist()
    return out


@pytest.mark.parametrize("seed", range(30))
def test_repeated_rounds_are_the_round_by_round_schedule(seed):
    from tilelayout.planning.mechanisms.shuffle.shuffle import _rounds_of

    rng = np.random.default_rng(seed)
    c = np.zeros((32, 32), np.int64)
    kind = seed % 3
    if kind == 0:  # a multiple of a permutation plus noise
        c[np.arange(32), rng.permutation(32)] = rng.integers(1, 6)
        c += rng.integers(0, 2, (32, 32)) * (rng.random((32, 32)) < 0.05)
    elif kind == 1:  # an XOR pattern repeated
        c[np.arange(32), np.arange(32) ^ int(rng.integers(1, 32))] = 3
    else:
        c = rng.integers(0, 3, (32, 32)) * (rng.random((32, 32)) < 0.1)
    assert _rounds_of(c) == _rounds_one_by_one(c)


def test_a_word_many_lanes_read_is_offered_once_a_round():
    # lanes 0..3 each offer one word that 8 lanes read (a destination holding copies): as
    # matchings (one reader per sender a round) that is 8 rounds; one shfl.sync.idx lets
    # every reader take it, so 1 round does
    import numpy as np

    from tilelayout.planning.mechanisms.shuffle.shuffle import schedule

    receiver = np.arange(32)
    sender = receiver // 8
    s = schedule(np.zeros(32, int), sender, np.zeros(32, int), receiver)
    assert s.rounds == s.lower_bound == 1
    assert (s.src_lane[0, 0] == sender).all() and (s.send_word[0, 0, :4] == 0).all()


def test_broadcast_rounds_deliver_every_transfer_and_never_take_more_than_matchings():
    import numpy as np

    from tilelayout.planning.mechanisms.shuffle.shuffle import schedule

    rng = np.random.default_rng(3)
    for _ in range(60):
        n = int(rng.integers(1, 120))
        warp = rng.integers(0, 2, n)
        sender, word = rng.integers(0, 32, n), rng.integers(0, 3, n)
        receiver = rng.integers(0, 32, n)
        keys = np.unique(np.stack([warp, receiver, sender, word], 1), axis=0)  # distinct asks
        warp, receiver, sender, word = keys.T
        s = schedule(warp, sender, word, receiver)
        k = s.edge_round
        assert (k >= 0).all()
        # each transfer: its receiver reads its sender in its round, which offers its word
        assert (s.src_lane[k, warp, receiver] == sender).all()
        assert (s.send_word[k, warp, sender] == word).all()
        assert s.rounds >= s.lower_bound
