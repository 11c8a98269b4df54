"""A register exchange (:mod:`.exchange`) as CUDA: shuffle rounds, selects, byte permutes.

Every 32-bit word the code builds -- a payload a lane offers, a destination register --
is *assembled* the way the cost model charges it (:mod:`tilelayout.planning.cost_model`):
each thread lists the distinct registers its positions come from, in order of their
names; position ``q`` of that list is one register in every thread or a select among the
candidates (a chain of ``n - 1`` selects on conditions of the thread id); then
``m`` operands are merged by ``m - 1`` byte permutes (``__byte_perm``, PTX ``prmt``) whose
selector may depend on the thread, or one permute when a single register's values move
inside it. A round is ``__shfl_sync`` (``__shfl_xor_sync`` when every lane reads
``lane ^ c``).

>>> import numpy as np
>>> from .cuda_text import Writer
>>> from .exchange import Exchange
>>> t = np.arange(32)
>>> take = np.zeros((32, 1, 2), np.int64); take[:, 0, 0] = 1     # destination <- round 0
>>> ex = Exchange(32, 1, np.zeros((1, 32, 1), np.int64), (t ^ 1)[None], take)
>>> w = Writer("convert")
>>> emit_exchange(w, ex, ["s[0]"])
['t0']
>>> print("\\n".join(w.body))
  // round 1: each lane offers s[0], and reads lane ^ 1
  const uint32_t t0 = __shfl_xor_sync(0xffffffffu, s[0], 1);
  // each destination register from the received words and the thread's own
"""

from __future__ import annotations

import numpy as np

from ..mechanisms.shuffle.byte_permute import operands as operand_lists
from ..mechanisms.shuffle.byte_permute import same_operand_per_position
from .cuda_text import FULL_MASK, Writer
from .exchange import Exchange, per_word
from .thread_values import ANY, fit, fit_condition

WARP = 32


def emit_exchange(w: Writer, ex: Exchange, own: list[str], unpacked: bool = False
                  ) -> list[str | None]:
    """Emit the rounds and the destination words of ``ex``; ``own``: the expressions of
    the thread's source words. Returns each destination word's expression (None: the
    word takes nothing in any thread); ``unpacked``: each destination *unit's* instead
    (:func:`word_units`), for a destination held one value to a register."""
    pw = per_word(ex.bits)
    names = list(own) + ["0u"] * (ex.words - len(own))  # words no source slot fills
    for k in range(ex.rounds):
        pay = ex.payload[k]
        op = np.where(pay >= 0, pay // pw, -1)
        pos = np.where(pay >= 0, pay % pw, -1)
        lane = _lanes(w, ex.src_lane[k], k)
        used = sorted(set(op[op >= 0].tolist()))
        packed = any(len(set(op[t][op[t] >= 0].tolist())) > 1 or
                     (op[t] >= 0).any() and (pos[t][op[t] >= 0] != np.flatnonzero(op[t] >= 0)).any()
                     for t in range(ex.threads))
        what = " or ".join(names[i] for i in used) if not packed else \
            "values of " + " and ".join(names[i] for i in used) + " packed into one word"
        reads = f"lane ^ {lane[1]}" if lane[0] == "xor" else f"lane {lane[1]}"
        w.comment(f"round {k + 1}: each lane offers {what or 'nothing'}, and reads {reads}")
        sent = assemble(w, op, pos, names, f"send{k}", ex.bits) or "0u"
        temp = w.fresh(f"t{k}")
        if lane[0] == "xor":
            w.emit(f"const uint32_t {temp} = __shfl_xor_sync({FULL_MASK}, {sent}, {lane[1]});")
        else:
            w.emit(f"const uint32_t {temp} = __shfl_sync({FULL_MASK}, {sent}, {lane[1]});")
        w.count("shfl")
        names.append(temp)
    if ex.rounds:
        w.comment("each destination register from the received words and the thread's own")
    return destination(w, ex, names, unpacked)


def destination(w: Writer, ex: Exchange, names: list[str], unpacked: bool
                ) -> list[str | None]:
    """The destination words of ``ex`` from the registers ``names`` (the thread's words,
    then one per round), or with ``unpacked`` its units (:func:`word_units`)."""
    pw = per_word(ex.bits)
    units = ex.take.shape[1]
    out: list[str | None] = []
    for j in range(-(-units // pw)):
        sl = slice(j * pw, min((j + 1) * pw, units))
        op = np.full((ex.threads, pw), -1, dtype=np.int64)
        pos = np.full((ex.threads, pw), -1, dtype=np.int64)
        n = sl.stop - sl.start
        op[:, :n] = ex.take[:, sl, 0]
        pos[:, :n] = ex.take[:, sl, 1]
        if unpacked and pw > 1:
            out += word_units(w, op, pos, names, f"d{j}", ex.bits)[:n]
        else:
            out.append(assemble(w, op, pos, names, f"d{j}", ex.bits))
    return out


def word_units(w: Writer, op: np.ndarray, pos: np.ndarray, names: list[str], tag: str,
          bits: int) -> list[str | None]:
    """The units of a word as :func:`assemble` would build it (``op`` / ``pos`` as
    there), each in the low bits of an expression of its own, for a destination that
    holds its values one to a register: the same operands (and selects), and each unit
    shifted out of its operand -- no byte permute -- wherever every thread takes unit
    ``p`` from the same operand of its list (or the word has one operand); else the
    packed word, shifted."""
    threads, pw = op.shape
    lists, rank, m = operand_lists(op)
    if m == 0:
        return [None] * pw
    if m > 1 and not same_operand_per_position(rank):
        word = assemble(w, op, pos, names, tag, bits)
        return [None if (op[:, p] < 0).all() else _shifted(w, word, np.full(threads, p), bits)
                for p in range(pw)]
    operands = _muxed(w, lists, m, names, tag)
    out: list[str | None] = []
    for p in range(pw):
        live = rank[:, p] >= 0
        if not live.any():
            out.append(None)
            continue
        out.append(_shifted(w, operands[int(rank[live, p][0])], pos[:, p], bits))
    return out


def _shifted(w: Writer, word: str | None, pos: np.ndarray, bits: int) -> str:
    """``word`` shifted down by ``pos[t]`` units of ``bits`` (-1: any) in each thread."""
    assert word is not None
    f = fit(np.where(pos >= 0, pos * bits, ANY))
    if f.kind == "const":
        return word if not f.base else f"({word} >> {f.base})"
    amount = w.named(w.value(f, "shift"), "shift", "how far up in its register this "
                     "thread's value sits")
    return f"({word} >> {amount})"


def _lanes(w: Writer, src_lane: np.ndarray, k: int) -> tuple[str, str]:
    """``("xor", c)`` when every lane that reads reads ``lane ^ c``, else ``("idx",
    expression)`` of the lane each thread reads."""
    t = np.arange(len(src_lane))
    known = src_lane >= 0
    if known.any():
        c = np.unique((src_lane ^ (t % WARP))[known])
        if len(c) == 1 and 0 < int(c[0]) < WARP:
            return "xor", str(int(c[0]))
    expr = w.value(fit(np.where(known, src_lane, ANY)), "source lane")
    return "idx", w.named(expr, "from_lane", "the lane this thread reads in a round")


def assemble(w: Writer, op: np.ndarray, pos: np.ndarray, names: list[str], tag: str,
             bits: int) -> str | None:
    """The expression of a word whose position ``p`` in thread ``t`` is position
    ``pos[t, p]`` of register ``names[op[t, p]]`` (-1: any), emitting the selects and
    byte permutes it needs (see the module doc); None when no thread needs it."""
    threads, pw = op.shape
    lists, rank, m = operand_lists(op)  # rank: each position's operand index
    if m == 0:
        return None
    operands = _muxed(w, lists, m, names, tag)
    nb = max(1, bits // 8) if bits < 32 else 4
    if m == 1:
        assigned = op >= 0
        if (pos[assigned] == np.nonzero(assigned)[1]).all():
            return operands[0]
        sel = _selector(rank, pos, 0, pw, nb)
        out = w.fresh(tag)
        w.emit(f"const uint32_t {out} = __byte_perm({operands[0]}, {operands[0]}, "
               f"{_sel_text(w, sel, tag)});")
        w.count("prmt")
        return out
    acc = operands[0]
    for step in range(m - 1):
        sel = _selector(rank, pos, step, pw, nb)
        out = w.fresh(tag if step == m - 2 else f"{tag}_p{step}")
        w.emit(f"const uint32_t {out} = __byte_perm({acc}, {operands[step + 1]}, "
               f"{_sel_text(w, sel, tag)});")
        w.count("prmt")
        acc = out
    return acc


def _muxed(w: Writer, lists: np.ndarray, m: int, names: list[str], tag: str) -> list[str]:
    """The expressions of a word's ``m`` operands: operand ``q`` is register
    ``names[lists[t, q]]`` in thread ``t`` (:func:`operand_lists`; -1: any), selected
    where it differs between threads."""
    return [_mux(w, lists[:, q], names, f"{tag}_{q}" if m > 1 else tag) for q in range(m)]


def _selector(rank: np.ndarray, pos: np.ndarray, step: int, pw: int, nb: int
              ) -> np.ndarray:
    """The ``prmt`` selector of permute ``step`` in every thread (-1: any): step 0
    merges operands 0 and 1, step ``s`` the result so far with operand ``s + 1``
    (the rule of :meth:`~tilelayout.planning.mechanisms.shuffle.byte_permute.BytePermute.selector`)."""
    threads = rank.shape[0]
    out = np.full(threads, ANY, dtype=np.int64)
    for t in range(threads):
        if (rank[t] < 0).all():
            continue
        sel = 0
        for i in range(pw):
            p, q = int(rank[t, i]), int(pos[t, i])
            if p < 0:
                src = i
            elif step == 0:
                src = q + (pw if p == 1 else 0)
            else:
                src = i if p <= step else pw + q
            for b in range(nb):
                sel |= (src * nb + b) << (4 * (i * nb + b))
        out[t] = sel
    return out


def _sel_text(w: Writer, sel: np.ndarray, tag: str) -> str:
    f = fit(sel)
    if f.kind == "const":
        return hex(f.base)
    return w.named(w.value(f, "byte selector"), "selector",
                   "a prmt selector that depends on the thread")


def _mux(w: Writer, cand: np.ndarray, names: list[str], tag: str) -> str:
    """The register ``names[cand[t]]`` of every thread (-1: any): the register itself
    when every thread takes the same one, else a chain of selects."""
    used = sorted(set(cand[cand >= 0].tolist()))
    if len(used) == 1:
        return names[used[0]]
    out = w.fresh(tag)
    first = names[used[0]]
    if len(used) == 2:
        cond = fit_condition(np.where(cand >= 0, cand == used[1], ANY))
        w.emit(f"const uint32_t {out} = {w.condition(cond)} ? {names[used[1]]} : {first};")
        w.count("select")
        return out
    w.emit(f"uint32_t {out} = {first};")
    for i, name in enumerate(used[1:], start=1):
        # true where this register is taken, false where an earlier one is; later ones
        # overwrite, so any value will do there
        want = np.where(cand == name, 1, np.where((cand >= 0) & np.isin(cand, used[:i]), 0, ANY))
        w.emit(f"{out} = {w.condition(fit_condition(want))} ? {names[name]} : {out};")
        w.count("select")
    return out


__all__ = ["assemble", "destination", "emit_exchange", "word_units"]
