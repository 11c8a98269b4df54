"""PTX text for the shared-memory replay (:mod:`.ptx_replay`): the entry function's
statements, operands, immediates and instruction types."""

from __future__ import annotations

import re

import tilelayout as tl


class ReplayError(tl.LayoutError):
    """The PTX holds something the replay does not evaluate."""


REG = re.compile(r"%[A-Za-z_]\w*(?:\.[xyz])?")
MEM = re.compile(r"^\[\s*([^\]+\-\s]+)\s*(?:([+-])\s*(-?(?:0x[0-9a-fA-F]+|\d+)))?\s*\]$")
#: special registers of a one-CTA, one-dimensional launch (%tid.x, %laneid, %warpid
#: and %ntid.x are set per thread by the replay)
SPECIAL = {"%tid.y": 0, "%tid.z": 0, "%ctaid.x": 0, "%ctaid.y": 0, "%ctaid.z": 0,
           "%nctaid.x": 1, "%nctaid.y": 1, "%nctaid.z": 1, "%ntid.y": 1, "%ntid.z": 1,
           "%clusterid.x": 0, "%cluster_ctarank": 0}


def body(ptx: str) -> tuple[list[tuple[int, str]], dict[str, int], str]:
    """The statements of the (single) entry function with their line numbers, the shared
    symbols, and the target."""
    target = m.group(1) if (m := re.search(r"^\s*\.target\s+(\w+)", ptx, re.M)) else "?"
    shared = {s: 0 for s in re.findall(r"\.shared\s+(?:\.align\s+\d+\s+)?\.\w+\s+(\w+)", ptx)}
    lines = ptx.splitlines()
    start = next((i for i, ln in enumerate(lines) if ".entry" in ln), None)
    if start is None:
        raise ReplayError("no .entry function in the PTX")
    out: list[tuple[int, str]] = []
    depth, begun = 0, False
    for no, raw in enumerate(lines[start:], start + 1):
        text = raw.split("//")[0].strip()
        if not begun:
            if "{" not in text:
                continue
            begun, text = True, text[text.index("{") + 1:]
            depth = 1
        for piece in text.split(";"):
            piece = piece.strip()
            while piece[:1] in ("{", "}"):  # a scope, never an operand at a statement start
                depth += 1 if piece[0] == "{" else -1
                if depth == 0:
                    return out, shared, target
                out.append((no, piece[0]))
                piece = piece[1:].strip()
            if piece:
                out.append((no, piece))
    raise ReplayError("the entry function's braces do not close")


def threads_of(ptx: str, threads: int | None) -> int:
    if threads is not None:
        return threads
    if m := re.search(r"\.reqntid\s+(\d+)", ptx):
        return int(m.group(1))
    raise ReplayError("the PTX has no .reqntid: pass threads=")


def split_operands(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


_INT = re.compile(r"(-?)(?:0[xX]([0-9a-fA-F]+)|0[bB]([01]+)|0([0-7]+)|([1-9][0-9]*|0))U?")


def parse_int(text: str) -> int | None:
    """An integer literal (PTX ISA "Integer Constants": hexadecimal ``0x``, binary
    ``0b``, octal with a leading ``0``, decimal; an optional ``U`` suffix), else ``None``.

    >>> parse_int("0x7701U"), parse_int("-16"), parse_int("010"), parse_int("%r1")
    (30465, -16, 8, None)
    """
    m = _INT.fullmatch(text.strip())
    if m is None:
        return None
    sign, hexa, binary, octal, dec = m.groups()
    value = (int(hexa, 16) if hexa is not None else int(binary, 2) if binary is not None
             else int(octal, 8) if octal is not None else int(dec))
    return -value if sign else value


def type_bits(op: str) -> int:
    for part in reversed(op.split(".")):
        if m := re.fullmatch(r"[bsuf](\d+)", part):
            return int(m.group(1))
    return 32


def is_signed(op: str) -> bool:
    return any(p.startswith("s") and p[1:].isdigit() for p in op.split("."))
