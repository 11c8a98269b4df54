"""PTX integer instructions over threads, for the shared-memory replay
(:mod:`.ptx_replay`): each operand is a numpy array with one value per thread."""

from __future__ import annotations

import numpy as np

from .ptx_text import ReplayError, is_signed, type_bits

MASK = {8: 0xFF, 16: 0xFFFF, 32: 0xFFFFFFFF, 64: -1}  # int64 arrays: -1 keeps 64 bits


def alu(op: str, a: list[np.ndarray], line: int) -> np.ndarray:
    """Integer ops over threads (``a``: the source operands, all known)."""
    base = op.split(".")[0]
    bits = type_bits(op)
    if base in ("mul", "mad") and ".wide" in op:
        bits *= 2
    mask = MASK.get(bits, MASK[64])
    s = is_signed(op)

    def signed(x: np.ndarray, b: int) -> np.ndarray:
        x = x & MASK.get(b, MASK[64])
        return np.where(x >= 1 << (b - 1), x - (1 << b), x) if b < 64 else x

    if base == "add":
        r = a[0] + a[1]
    elif base == "sub":
        r = a[0] - a[1]
    elif base == "mul" and (".lo" in op or ".wide" in op):
        r = a[0] * a[1]
    elif base == "mad" and (".lo" in op or ".wide" in op):
        r = a[0] * a[1] + a[2]
    elif base == "shl":
        r = np.where(a[1] >= bits, 0, a[0] << np.minimum(a[1], 63))
    elif base == "shr":
        x = signed(a[0], bits) if s else a[0] & mask
        r = x >> np.minimum(a[1], 63)
    elif base in ("and", "or", "xor"):
        r = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[base](a[0], a[1])
    elif base == "not":
        r = ~a[0]
    elif base == "neg":
        r = -a[0]
    elif base in ("min", "max"):
        x, y = (signed(a[0], bits), signed(a[1], bits)) if s else (a[0] & mask, a[1] & mask)
        r = np.minimum(x, y) if base == "min" else np.maximum(x, y)
    elif base == "bfe":
        # PTX ISA "bfe": the signed form sign-extends the field from its top bit (bits
        # past the operand's msb read as the msb)
        pos, length = np.minimum(a[1] & 0xFF, bits - 1), np.minimum(a[2] & 0xFF, bits)
        x = signed(a[0], bits) if s else a[0] & mask
        r = x >> pos & ((1 << length) - 1)
        if s:
            sbit = (x >> np.minimum(pos + length - 1, bits - 1)) & 1
            r = np.where((length > 0) & (sbit == 1), r - (1 << length), r)
    elif base == "bfi":
        pos, length = a[2] & 0xFF, a[3] & 0xFF
        field_ = ((1 << length) - 1) << pos
        r = (a[1] & ~field_) | ((a[0] << pos) & field_)
    elif base == "lop3":
        lut = a[3]
        r = np.zeros_like(a[0])
        for bit in range(8):
            pa, pb, pc = (bit >> 2) & 1, (bit >> 1) & 1, bit & 1
            term = ((a[0] if pa else ~a[0]) & (a[1] if pb else ~a[1]) & (a[2] if pc else ~a[2]))
            r |= np.where((lut >> bit) & 1, term, 0)
    elif base == "prmt":
        r = _prmt(a[0] & MASK[32], a[1] & MASK[32], a[2], op, line)
    else:
        raise ReplayError(f"line {line}: integer op {op} is not evaluated by the replay")
    return r & mask


def _prmt(x: np.ndarray, y: np.ndarray, sel: np.ndarray, op: str, line: int) -> np.ndarray:
    if "." in op.removeprefix("prmt.b32"):
        raise ReplayError(f"line {line}: {op} (a prmt mode) is not evaluated by the replay")
    both = x | (y << 32)
    r = np.zeros_like(x)
    for i in range(4):
        s = (sel >> (4 * i)) & 0xF
        byte = (both >> ((s & 7) * 8)) & 0xFF
        byte = np.where(s & 8, np.where(byte & 0x80, 0xFF, 0), byte)
        r |= byte << (8 * i)
    return r


COMPARE = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
        "gt": np.greater, "ge": np.greater_equal, "lo": np.less, "ls": np.less_equal,
        "hi": np.greater, "hs": np.greater_equal}
