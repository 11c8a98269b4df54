"""A lane exchange by bit transpositions (:mod:`.transpose`) as CUDA: the packed
registers, the selects (or byte permutes) of every transposition before and after the
shuffles, one ``__shfl_xor_sync`` / ``__shfl_sync`` per register, or the ``ship`` form's
one shuffle per pair of registers -- each stage a loop over the registers that nvcc
unrolls, so every select, permute and shuffle in it is one PTX instruction.

>>> from tilelayout.planning.model.bits import ThreadBits
>>> from tilelayout.planning.mechanisms.shuffle.warp_transpose import decompose
>>> from .cuda_text import Writer
>>> from .transpose import lane_transpose
>>> src = ThreadBits((1,), (2, 4, 8, 16, 32), (), 6)            # lane 0 holds 0, 1
>>> dst = ThreadBits((2,), (1, 4, 8, 16, 32), (), 6)            # lane 0 holds 0, 2
>>> units = lambda tb: np.array([[tb.element(r, t, 0) for r in range(2)] for t in range(32)])
>>> tr = lane_transpose(decompose(src, dst, 32), src, dst, 32, units(src), units(dst))
>>> w = Writer("convert")
>>> emit_transpose(w, tr, ["s[0]", "s[1]"])
['v[0]', 'v[1]']
>>> w.counts
{'shfl': 1, 'select': 3}
"""

from __future__ import annotations

import numpy as np

from .cuda_staging import pack
from .cuda_text import FULL_MASK, Writer
from .thread_values import ANY, fit, fit_condition
from .transpose import LaneTranspose, Select

WARP = 32
#: the code's count of the byte permutes that pack or unpack sub-word values (Triton
#: holds them unpacked: the plan's costs count none)
PACKING = "prmt (packing)"


def emit_transpose(w: Writer, tr: LaneTranspose, own: list[str], unpacked: bool = False
                   ) -> list[str | None]:
    """Emit ``tr``'s stages; ``own``: the expressions of the thread's source words.
    Returns each destination word's expression (None: no thread takes it); ``unpacked``:
    each destination unit's instead, shifted out of its register (no byte permute)."""
    wide = tr.reg_bytes == 8
    ctype = "uint64_t" if wide else "uint32_t"
    regs = w.integer("kRegs", tr.regs, "64-bit registers per thread" if wide else
                     "packed 32-bit registers per thread")
    values = ("one 64-bit value" if wide else
              f"{1 << tr.pack} values of {tr.bits} bits" if tr.pack else "one value")
    w.comment(f"pack: {tr.regs} registers in the order the transpositions pair them "
              f"({values} each)")
    items = [_gathered(w, tr.gather[q], own, wide, tr.bits == 16) for q in range(tr.regs)]
    w.emit(f"{ctype} v[{regs}] = {{{', '.join(items)}}};")
    if tr.form == "ship":
        _ship(w, tr, ctype, regs)
    elif tr.form == "gather":
        _gather(w, tr, ctype)
    else:
        for k, s in enumerate(tr.pre):
            _select(w, s, ctype, regs, tr.regs, f"transposition {k + 1} before the shuffles")
        _shuffles(w, tr, regs)
        for k, s in enumerate(tr.post):
            _select(w, s, ctype, regs, tr.regs, f"transposition {k + 1} after the shuffles")
    sixteen = tr.bits == 16  # 16-bit halves move by mov.b32, not prmt
    if unpacked and not wide and tr.bits < 32:
        return [u for k in range(tr.scatter.shape[0]) for u in _units(tr.scatter[k], tr.bits)]
    return [_scattered(w, tr.scatter[k], wide, sixteen) for k in range(tr.scatter.shape[0])]


def packing_permutes(gather: np.ndarray, scatter: np.ndarray, bits: int) -> tuple[int, int]:
    """The byte permutes the code writes to pack the source words into the exchange's
    registers and the destination words out of them (:func:`emit_transpose`'s; ``gather``
    and ``scatter``: :func:`.transpose.packing_tables`) -- none where whole words, 16-bit
    halves or shifts do it -- as ``(all, destination)``: a destination held one value to
    a register needs none of the second (:func:`_units`). A plan claims them beside its
    shuffles."""
    w = Writer("count")
    wide, sixteen = bits > 32, bits == 16
    own = [f"s[{i}]" for i in range(int(max(gather.max(initial=0), 0)) // 4 + 1)]
    for q in range(gather.shape[0]):
        _gathered(w, gather[q], own, wide, sixteen)
    gathered = w.counts.get(PACKING, 0)
    for k in range(scatter.shape[0]):
        _scattered(w, scatter[k], wide, sixteen)
    n = w.counts.get(PACKING, 0)
    return n, n - gathered


def _units(labels: np.ndarray, bits: int) -> list[str | None]:
    """The units of a destination word (``labels``: register bytes, -1 for bytes no
    thread takes), each shifted down out of the register that holds it."""
    nb = bits // 8
    out: list[str | None] = []
    for p in range(len(labels) // nb):
        got = [int(x) for x in labels[p * nb:(p + 1) * nb]]
        if all(x < 0 for x in got):
            out.append(None)
            continue
        q, b = divmod(got[0], 4)
        assert all(x == got[0] + i for i, x in enumerate(got)), "a value split across bytes"
        out.append(f"v[{q}]" if not b else f"(v[{q}] >> {8 * b})")
    return out


def _gathered(w: Writer, labels: np.ndarray, own: list[str], wide: bool, sixteen: bool) -> str:
    """One packed register from the thread's source words (``labels``: word * 4 + byte
    of every byte, :data:`~.transpose.ZERO` for zero)."""
    words = [_word(w, labels[h * 4:(h + 1) * 4], own, sixteen) for h in range(len(labels) // 4)]
    if wide:
        return f"static_cast<uint64_t>({words[1]}) << 32 | {words[0]}"
    return words[0]


def _halves(labels: np.ndarray) -> list[tuple[int, int] | None] | None:
    """``labels`` (4 byte labels: word * 4 + byte) as two 16-bit halves ``(word, half)``
    (None: any), or None when a half is not one whole half of a word."""
    out: list[tuple[int, int] | None] = []
    for h in (0, 1):
        a, b = int(labels[2 * h]), int(labels[2 * h + 1])
        if a < 0 and b < 0:
            out.append(None)
        elif a >= 0 and a % 2 == 0 and b == a + 1:
            out.append((a // 4, a % 4 // 2))
        else:
            return None
    return out


def _mov_pack(w: Writer, halves: list[tuple[int, int] | None], names: list[str]) -> str:
    """A word of two 16-bit halves of ``names``' words: ``mov.b32`` moves (the
    ``halves`` helper), no byte permute."""
    lo, hi = (x or next(y for y in halves if y) for x in halves)
    w.helpers.add("halves")
    return f"{w.name}_detail::halves<{lo[1]}, {hi[1]}>({names[lo[0]]}, {names[hi[0]]})"


def _word(w: Writer, labels: np.ndarray, own: list[str], sixteen: bool) -> str:
    """A 32-bit word of the source bytes ``labels``: a source word itself (its other
    bytes are never read), two 16-bit halves by register moves, or one byte permute of
    two."""
    used = sorted({int(x) // 4 for x in labels if x >= 0})
    shift = {int(x) % 4 - b for b, x in enumerate(labels) if x >= 0}
    if len(used) == 1 and len(shift) == 1 and min(shift) >= 0:
        k = shift.pop()  # the values sit k bytes up in the word
        return own[used[0]] if not k else f"({own[used[0]]} >> {8 * k})"
    pair = _halves(labels) if sixteen else None
    if pair is not None:
        return _mov_pack(w, pair, own)
    if len(used) > 2:
        return _chained(w, labels, 4, own)
    operands = [own[i] for i in used] + [own[used[0]]] * (2 - len(used))
    sel = 0
    for b, x in enumerate(labels):
        pick = b if x < 0 else used.index(int(x) // 4) * 4 + int(x) % 4
        sel |= pick << (4 * b)
    w.count(PACKING)
    return f"__byte_perm({operands[0]}, {operands[1]}, {hex(sel)})"


def _scattered(w: Writer, labels: np.ndarray, wide: bool, sixteen: bool) -> str | None:
    """A destination word from the packed registers (``labels``: register bytes, -1
    for bytes no thread takes), or None."""
    if (labels < 0).all():
        return None
    nb = 8 if wide else 4
    used = sorted({int(x) // nb for x in labels if x >= 0})
    halves = sorted({int(x) % nb // 4 for x in labels if x >= 0})
    if len(used) == 1 and len(halves) == 1 and all(
            x < 0 or x % 4 == b for b, x in enumerate(labels)):
        q, h = used[0], halves[0]
        if wide:
            return f"static_cast<uint32_t>(v[{q}]{' >> 32' if h else ''})"
        return f"v[{q}]"
    shift = {b - int(x) % nb for b, x in enumerate(labels) if x >= 0}
    if not wide and len(used) == 1 and len(shift) == 1 and min(shift) > 0:
        return f"(v[{used[0]}] << {8 * shift.pop()})"  # the values k bytes up
    pair = _halves(labels) if sixteen and not wide else None
    if pair is not None:
        return _mov_pack(w, pair, [f"v[{q}]" for q in range(int(labels.max()) // 4 + 1)])
    if wide:
        raise AssertionError("a 64-bit destination word from more than one register")
    if len(used) > 2:
        return _chained(w, labels, nb, [f"v[{q}]" for q in range(max(used) + 1)])
    operands = [f"v[{q}]" for q in used] + [f"v[{used[0]}]"] * (2 - len(used))
    sel = 0
    for b, x in enumerate(labels):
        pick = b if x < 0 else used.index(int(x) // nb) * 4 + int(x) % 4
        sel |= pick << (4 * b)
    w.count(PACKING)
    return f"__byte_perm({operands[0]}, {operands[1]}, {hex(sel)})"


def _chained(w: Writer, labels: np.ndarray, nb: int, names: list[str]) -> str:
    """A word of the bytes of three or four registers ``names[q]`` (``labels``: register
    * ``nb`` + byte; e.g. values a one-sided transposition left one to a register): the
    staging's byte packing (:func:`.cuda_staging.pack`), one permute per further
    register, counted as packing."""
    parts = [None if x < 0 else (names[int(x) // nb], int(x) % nb) for x in labels]
    out = pack(w, parts, 8, count=PACKING)
    assert out is not None
    return out


def _select(w: Writer, s: Select, ctype: str, regs: str, n: int, when: str) -> None:
    """One select stage: in every pair ``(r, r | bit)`` the threads where ``trade``
    holds swap the pair (selects) or rebuild it by byte permutes."""
    bit = 1 << s.reg
    cond = w.condition(fit_condition(np.where(s.trade == ANY, ANY, s.trade)))
    how = ("trade registers r and r ^ " + str(bit) if s.plain else
           f"rebuild registers r and r ^ {bit} from both by byte permutes")
    lane = np.arange(len(s.trade)) % WARP
    bits = [k for k in range(5) if ((s.trade == ANY) | (s.trade == (lane >> k & 1))).all()]
    against = f"lane bit {bits[0]}" if bits else "a lane bit"
    w.comment(f"{when}: register bit {s.reg} against {against} -- where {cond}, {how}")
    w.open("{")
    w.emit(f"const bool trade = {cond};")
    if not s.plain:
        w.emit(f"const uint32_t low_sel = trade ? {hex(s.alt_top)}u : {hex(s.top)}u;")
        w.emit(f"const uint32_t high_sel = trade ? {hex(s.alt_bot)}u : {hex(s.bot)}u;")
    w.emit("#pragma unroll")
    w.open(f"for (int r = 0; r < {regs}; ++r) {{")
    w.emit(f"if (r & {bit}) continue;")
    w.emit(f"const {ctype} a = v[r], b = v[r | {bit}];")
    if s.plain:
        w.emit("v[r] = trade ? b : a;")
        w.emit(f"v[r | {bit}] = trade ? a : b;")
        w.count("select", n)
    else:
        w.emit("v[r] = __byte_perm(a, b, low_sel);")
        w.emit(f"v[r | {bit}] = __byte_perm(a, b, high_sel);")
        w.count("prmt", n)
    w.close()
    w.close()


def _gather(w: Writer, tr: LaneTranspose, ctype: str) -> None:
    """The ``gather`` form: every register the destination reads takes its value from one
    of its candidate source registers -- each candidate shuffled from the lane that holds
    the value there (all shuffles first, every lane taking part), then selects keep the
    one this lane needs."""
    assert tr.cand is not None and tr.cand_lane is not None and tr.choose is not None
    words = 2 if tr.reg_bytes == 8 else 1
    w.comment("the gather: each register reads each register it may come from (its "
              "transposed register bits flipped) from the lane holding the value there; "
              "a select keeps the one this lane needs")
    picks = []
    for q in range(tr.regs):
        used = [c for c in range(tr.cand.shape[1]) if tr.cand[q, c] >= 0]
        if not used:
            continue
        names = []
        for c in used:
            src = w.named(w.value(fit(tr.cand_lane[q, c]), "source lane"), "from_lane",
                          "a lane the gather reads")
            name = w.fresh(f"in{q}_from{int(tr.cand[q, c])}")
            w.emit(f"const {ctype} {name} = __shfl_sync({FULL_MASK}, v[{int(tr.cand[q, c])}], "
                   f"{src});")
            w.count("shfl", words)
            names.append(name)
        expr = names[0]
        for c, name in zip(used[1:], names[1:], strict=True):
            keep = np.where(tr.choose[q] == ANY, ANY, (tr.choose[q] == c).astype(np.int64))
            expr = f"{w.condition(fit_condition(keep))} ? {name} : {expr}"
            w.count("select")
        picks.append((q, expr))
    for q, expr in picks:
        w.emit(f"v[{q}] = {expr};")


def _shuffles(w: Writer, tr: LaneTranspose, regs: str) -> None:
    """One shuffle per register that reads another lane: ``__shfl_xor_sync`` with a
    register's constant when every lane reads ``lane ^ c``, else ``__shfl_sync`` from
    one lane expression XOR a register's constant (each register its own expression
    where no such split holds)."""
    lane = np.arange(tr.threads) % WARP
    moved = [q for q in range(tr.regs) if (tr.src_lane[q] >= 0).any()]
    if not moved:
        return
    words = 2 if tr.reg_bytes == 8 else 1
    xors = _constant_xor(tr.src_lane, lane, moved)
    if xors is not None:
        table = w.constant("kLaneXor", [xors.get(q, 0) for q in range(tr.regs)],
                           "the lane bits each register's shuffle flips")
        w.comment(f"the shuffles: register r of every lane reads register r of lane ^ "
                  f"{table}[r]")
        w.emit("#pragma unroll")
        w.open(f"for (int r = 0; r < {regs}; ++r) {{")
        w.emit(f"if ({table}[r]) v[r] = __shfl_xor_sync({FULL_MASK}, v[r], {table}[r]);")
        w.close()
        w.count("shfl", len(xors) * words)
        return
    split = _split(tr.src_lane, moved)
    if split is not None:
        base, consts = split
        src = w.named(w.value(fit(base), "source lane"), "from_lane",
                      "the lane the registers read in the shuffles")
        lane_of = src
        if any(consts.values()):
            table = w.constant("kLaneXor", [consts.get(q, 0) for q in range(tr.regs)],
                               "the lane bits each register's shuffle flips")
            lane_of = f"{src} ^ {table}[r]"
        w.comment(f"the shuffles: register r of every lane reads register r of lane {lane_of}")
        w.emit("#pragma unroll")
        w.open(f"for (int r = 0; r < {regs}; ++r) {{")
        w.emit(f"v[r] = __shfl_sync({FULL_MASK}, v[r], {lane_of});")
        w.close()
        w.count("shfl", tr.regs * words)
        return
    w.comment("the shuffles: each register reads its own lane")
    for q in moved:
        src = w.named(w.value(fit(tr.src_lane[q]), "source lane"), "from_lane",
                      f"the lane register {q} reads in the shuffles")
        w.emit(f"v[{q}] = __shfl_sync({FULL_MASK}, v[{q}], {src});")
        w.count("shfl", words)


def _constant_xor(src_lane: np.ndarray, lane: np.ndarray, moved: list[int]
                  ) -> dict[int, int] | None:
    """``{register: c}`` when every register reads ``lane ^ c`` (c a nonzero constant)
    in every thread that reads, else None."""
    out = {}
    for q in moved:
        known = src_lane[q] >= 0
        c = np.unique(src_lane[q][known] ^ lane[known])
        if len(c) != 1 or not c[0]:
            return None
        out[q] = int(c[0])
    return out


def _split(src_lane: np.ndarray, moved: list[int]
           ) -> tuple[np.ndarray, dict[int, int]] | None:
    """``(base, {register: c})`` with ``src_lane[q] = base ^ c[q]`` in every thread
    where the register reads (``base``: -1 where no register reads), else None."""
    ref = moved[0]
    consts = {ref: 0}
    for q in moved[1:]:
        both = (src_lane[q] >= 0) & (src_lane[ref] >= 0)
        c = np.unique(src_lane[q][both] ^ src_lane[ref][both])
        if len(c) > 1:
            return None
        consts[q] = int(c[0]) if len(c) else 0
    base = np.full(src_lane.shape[1], ANY, dtype=np.int64)
    for q in moved:
        known = (src_lane[q] >= 0) & (base == ANY)
        base[known] = src_lane[q][known] ^ consts[q]
    for q in moved:
        known = src_lane[q] >= 0
        if ((base[known] ^ consts[q]) != src_lane[q][known]).any():
            return None
    return base, consts


def _ship(w: Writer, tr: LaneTranspose, ctype: str, regs: str) -> None:
    """The ``ship`` form (:class:`~.transpose.Ship`): every pair of registers sends one
    value across the lane bit and rebuilds both from it."""
    t = tr.ship
    assert t is not None
    bit = 1 << t.reg
    cond = w.condition(fit_condition(np.arange(tr.threads) % WARP >> t.lane & 1))
    w.comment(f"ship: register bit {t.reg} against lane bit {t.lane} -- every pair of "
              f"registers sends one value to lane ^ {1 << t.lane} and keeps the other")
    w.open("{")
    w.emit(f"const bool high = {cond};")
    if not t.plain:
        for name, (clear, set_) in (("ship_sel", t.send), ("low_sel", t.low),
                                    ("high_sel", t.high)):
            w.emit(f"const uint32_t {name} = high ? {hex(set_)}u : {hex(clear)}u;")
    w.emit("#pragma unroll")
    w.open(f"for (int r = 0; r < {regs}; ++r) {{")
    w.emit(f"if (r & {bit}) continue;")
    w.emit(f"const {ctype} a = v[r], b = v[r | {bit}];")
    sent = "high ? a : b" if t.plain else "__byte_perm(a, b, ship_sel)"
    w.emit(f"const {ctype} got = __shfl_xor_sync({FULL_MASK}, {sent}, {1 << t.lane});")
    if t.plain:
        w.emit("v[r] = high ? got : a;")
        w.emit(f"v[r | {bit}] = high ? b : got;")
    else:
        w.emit("v[r] = __byte_perm(a, got, low_sel);")
        w.emit(f"v[r | {bit}] = __byte_perm(b, got, high_sel);")
    w.close()
    w.close()
    pairs = tr.regs // 2
    w.count("shfl", pairs * (2 if tr.reg_bytes == 8 else 1))
    w.count("select" if t.plain else "prmt", 3 * pairs)


__all__ = ["PACKING", "emit_transpose", "packing_permutes"]
