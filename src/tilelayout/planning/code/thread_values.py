"""Values that depend on the thread: a closed form for each, as the emitted code computes it.

A plan's code needs, per CTA thread, a shared-memory address, a lane to read in a
shuffle, a ``prmt`` selector, whether the thread takes part in an instruction. Each is
given as one value per thread id (``-1``: any value will do) and fitted to the simplest
form that holds for every thread (:func:`fit`):

* ``const``: the same value everywhere;
* ``choice``: two values, picked by a condition (:func:`fit_condition`);
* ``add``: a base plus one addend per set thread-id bit (a strided tile's address:
  ``lane % 4 * 8 + lane / 4 * 36``);
* ``xor``: a base XOR one constant per set thread-id bit (a swizzled address, a lane
  pattern): the named XOR constants of the code;
* ``table``: a value per thread, read from a constant table (the last resort).

Conditions (:func:`fit_condition`, values 0 / 1 / -1 for any) are ``true`` / ``false``,
a ``cube`` (``(tid & M) == V``), a ``parity`` (``__popc(tid & M) & 1``) or a bit
``table``.

>>> import numpy as np
>>> tid = np.arange(64)
>>> fit((tid % 32) * 4 + 512 * (tid // 32)).kind
'add'
>>> f = fit((tid % 8) ^ (tid // 8 % 8))           # a 3-bit XOR swizzle
>>> f.kind, f.bits[:6]
('xor', (1, 2, 4, 1, 2, 4))
>>> fit_condition((tid % 4 == 0) | (tid % 4 == 3)).kind    # FA3's lanes 0 and 3 of a quad
'parity'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: any value will do for this thread
ANY = -1


@dataclass(frozen=True)
class Form:
    """A value of the thread id ``t`` (see the module doc): ``kind`` and its constants.

    ``base`` and ``bits`` (one per thread-id bit) for ``add`` / ``xor``; ``choice``: the
    value ``bits[1]`` where ``condition`` holds, else ``bits[0]``; ``table`` one value per
    thread."""

    kind: str
    base: int = 0
    bits: tuple[int, ...] = ()
    table: tuple[int, ...] = ()
    condition: Condition | None = None

    def value(self, t: int) -> int:
        """The value for thread ``t``.

        >>> Form("xor", 5, (1, 6)).value(3)
        2
        """
        if self.kind == "const":
            return self.base
        if self.kind == "table":
            return self.table[t]
        if self.kind == "choice":
            assert self.condition is not None
            return self.bits[1] if self.condition.holds(t) else self.bits[0]
        out = self.base
        for i, c in enumerate(self.bits):
            if t >> i & 1:
                out = out + c if self.kind == "add" else out ^ c
        return out

    def values(self, threads: int) -> np.ndarray:
        return np.array([self.value(t) for t in range(threads)], dtype=np.int64)


@dataclass(frozen=True)
class Condition:
    """A condition on the thread id (see the module doc): ``true``, ``false``, ``cube``
    (``t & mask == value``), ``parity`` (``popcount(t & mask) % 2 == value``), ``table``
    (one bit per thread)."""

    kind: str
    mask: int = 0
    value: int = 0
    table: tuple[int, ...] = ()

    def holds(self, t: int) -> bool:
        """Whether the condition holds for thread ``t``.

        >>> Condition("parity", 3, 1).holds(1), Condition("cube", 6, 4).holds(5)
        (True, True)
        """
        if self.kind in ("true", "false"):
            return self.kind == "true"
        if self.kind == "cube":
            return t & self.mask == self.value
        if self.kind == "parity":
            return bin(t & self.mask).count("1") % 2 == self.value
        return bool(self.table[t])


def _tid_bits(n: int) -> int:
    return max(1, (n - 1).bit_length())


def _xor_form(values: np.ndarray, known: np.ndarray) -> Form | None:
    """``v(t) = base ^ XOR of bits[i] over the set bits i of t`` on the known threads
    (Gaussian elimination over F2, every output bit at once), or None."""
    nb = _tid_bits(len(values))
    rows: dict[int, tuple[int, int]] = {}  # leading unknown -> (unknowns mask, value)
    for t in np.flatnonzero(known).tolist():
        mask, rhs = 1 | (t << 1), int(values[t])  # unknown 0 is the base
        while mask:
            top = mask.bit_length() - 1
            if top not in rows:
                rows[top] = (mask, rhs)
                break
            mask ^= rows[top][0]
            rhs ^= rows[top][1]
        else:
            if rhs:
                return None
    solved = [0] * (nb + 1)
    for top in sorted(rows):  # lower unknowns are solved first; free ones are 0
        mask, rhs = rows[top]
        low = mask ^ (1 << top)
        while low:
            b = low.bit_length() - 1
            rhs ^= solved[b]
            low ^= 1 << b
        solved[top] = rhs
    return Form("xor", solved[0], tuple(solved[1:]))


def _add_form(values: np.ndarray, known: np.ndarray) -> Form | None:
    """``v(t) = base + sum of bits[i] over the set bits i of t`` on the known threads."""
    nb = _tid_bits(len(values))
    t = np.flatnonzero(known)
    a = np.concatenate([np.ones((len(t), 1)), (t[:, None] >> np.arange(nb)) & 1], axis=1)
    sol, *_ = np.linalg.lstsq(a.astype(np.float64), values[t].astype(np.float64), rcond=None)
    sol = np.rint(sol).astype(np.int64)
    if not np.array_equal(a.astype(np.int64) @ sol, values[t]):
        return None
    return Form("add", int(sol[0]), tuple(int(x) for x in sol[1:]))


def _simple(f: Form) -> bool:
    """An additive form whose addends are powers of two scaled runs (a strided tile),
    rather than arbitrary integers (then the XOR form reads better if one exists)."""
    return all(c >= 0 for c in f.bits)


def fit(values: np.ndarray) -> Form:
    """The simplest :class:`Form` equal to ``values`` (one per thread id, ``-1`` = any)
    on every thread that needs a value (see the module doc).

    >>> fit(np.array([7, -1, 7, 7])).kind, fit(np.array([3, 2, 1, 0])).kind   # 3 ^ t
    ('const', 'xor')
    >>> fit(np.array([0, 9, 4, 1])).kind
    'table'
    """
    values = np.asarray(values, dtype=np.int64)
    known = values != ANY
    if not known.any():
        return Form("const", 0)
    distinct = np.unique(values[known])
    if len(distinct) == 1:
        return Form("const", int(distinct[0]))
    if len(distinct) == 2:
        cond = fit_condition(np.where(known, values == distinct[1], ANY))
        if cond.kind in ("cube", "parity") and bin(cond.mask).count("1") <= 2:
            return Form("choice", 0, (int(distinct[0]), int(distinct[1])), condition=cond)
    add = _add_form(values, known)
    if add is not None and _simple(add):
        return add
    xor = _xor_form(values, known)
    if xor is not None:
        return xor
    if add is not None:
        return add
    return Form("table", table=tuple(int(v) if k else 0 for v, k in zip(values, known,
                                                                            strict=True)))


def fit_condition(values: np.ndarray) -> Condition:
    """The simplest :class:`Condition` that holds exactly on the threads where ``values``
    is 1 and fails where it is 0 (``-1``: either).

    >>> fit_condition(np.array([1, 0, 1, 0])).kind, fit_condition(np.array([1, 1, 0, 0])).mask
    ('cube', 2)
    """
    values = np.asarray(values, dtype=np.int64)
    on, off = np.flatnonzero(values == 1), np.flatnonzero(values == 0)
    if not len(off):
        return Condition("true")
    if not len(on):
        return Condition("false")
    nb = _tid_bits(len(values))
    full = (1 << nb) - 1
    # the smallest cube holding every true thread (the bits they all agree on)
    mask = full
    for t in on[1:].tolist():
        mask &= ~(t ^ int(on[0]))
    value = int(on[0]) & mask
    if not ((off & mask) == value).any():
        return Condition("cube", mask, value)
    parity = _xor_form(values.clip(0), values >= 0)
    if parity is not None and parity.base in (0, 1) and all(c in (0, 1) for c in parity.bits):
        m = sum(1 << i for i, c in enumerate(parity.bits) if c)
        return Condition("parity", m, 1 ^ parity.base)  # 1 = base ^ parity(t & m)
    return Condition("table", table=tuple(int(v == 1) for v in values))


__all__ = ["ANY", "Condition", "Form", "fit", "fit_condition"]
