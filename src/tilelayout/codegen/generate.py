"""``tl.codegen``: a layout's index map as source code you can paste into a kernel.

Forward: ``NAME(i0, ..., ik[, r])`` -> one value per axis of ``L.axes`` (Python and
Triton return a tuple; C, C++ and CUDA write ``out[NAXES]``). ``r`` is the replica
combination (row-major over the replica iters, the last axis of ``map_all``) and is an
argument only when the layout has more than one. Inverse (``inverse=True``):
``NAME(<one value per axis>)`` -> the logical flat index there, or -1.

>>> import tilelayout as tl
>>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
>>> print(codegen(L, (8, 16), lang="cuda"))  # doctest: +NORMALIZE_WHITESPACE
__host__ __device__ inline void layout_fn(long long i0, long long i1, long long r, long long *out) {
    // layout: S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid
    // shape: (8, 16); r in [0, 2); out[3] = {laneid, warpid, m}
    out[0] = (i0 << 2) + ((i1 >> 1) & 3);  // laneid
    out[1] = (i1 >> 3) + (r << 2) + 5;  // warpid
    out[2] = i1 & 1;  // m
}
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Sequence

from ..core import budget
from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.errors import LayoutError, LayoutOverflowError
from ..core.shape import Shape, format_shape
from ..core.tile import TileLayout
from ..eval.expressions import forward_program
from ..eval.forward import value_bound
from ..eval.names import C_WORDS
from ..syntax.parser import parse
from .inverse import check_invertible, inverse_body
from .languages import BY_NAME, LANGUAGES, Language

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class CodegenError(LayoutError):
    """A code-generation request that cannot be served (language, name, value range)."""


def _language(lang: str) -> Language:
    key = str(lang).strip().lower()
    key = {"c++": "cpp", "py": "python"}.get(key, key)
    if key not in BY_NAME:
        raise CodegenError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    return BY_NAME[key]


def _check_name(name: str) -> str:
    if (not isinstance(name, str) or not _NAME.match(name) or keyword.iskeyword(name)
            or name in C_WORDS):
        raise CodegenError(f"function name must be an identifier that is no keyword of the target "
                           f"languages, like layout_fn; got {name!r}")
    return name


def _as_layout(layout: Layout | str) -> Layout:
    if isinstance(layout, str):
        return parse(layout)
    if not isinstance(layout, (TileLayout, ComposeLayout)):
        raise CodegenError(f"codegen needs a layout (or its text), got {type(layout).__name__}")
    return layout


def _wide(layout: Layout, shape: Shape) -> bool:
    """Whether some value or flat index may leave int32 (Triton then computes in int64)."""
    tile = tile_of(layout)
    return max(value_bound(layout), tile.size() * 2, tile.replica_count) >= (1 << 31)


def codegen(
    layout: Layout | str,
    shape: Sequence[int] | None = None,
    lang: str = "python",
    name: str = "layout_fn",
    inverse: bool = False,
    *,
    limits: budget.Limits | None = None,
) -> str:
    """Source code of the layout's index map in ``lang`` (python, c, cpp, cuda, triton).

    ``inverse=True`` gives the map from one value per axis back to the logical flat index
    (-1 where no element sits); refused when two elements share a coordinate (checking
    that scans every element and replica: the ``elements`` limit, raised with ``limits=``
    or ``tl.limits(elements=...)``).

    >>> import tilelayout as tl
    >>> print(codegen(tl.parse("S[(8,4):(4@laneid,1@laneid)] + 1@warpid")))
    def layout_fn(i0, i1):
        # layout: S[(8,4):(4@laneid,1@laneid)] + 1@warpid
        # shape: (8, 4); returns (laneid, warpid)
        laneid = (i0 << 2) + i1
        warpid = 1
        return laneid, warpid
    <BLANKLINE>
    """
    layout = _as_layout(layout)
    language = _language(lang)
    fname = _check_name(name)
    s = layout.check_shape(shape)
    tile = tile_of(layout)
    if language.family != "python" and value_bound(layout) >= (1 << 62):
        raise LayoutOverflowError(
            f"values of {layout} reach about 2**{value_bound(layout).bit_length()}, beyond "
            f"64-bit integers; generate Python (exact integers) instead"
        )
    if inverse:
        with budget.using(limits):
            check_invertible(layout, s)
        args, body = inverse_body(layout, s, language)
        returns = "returns the flat index, or -1 where no element sits"
        intro = [f"shape: {format_shape(s)}; arguments: {', '.join(args) or 'none'}; {returns}"]
        lines = _function(language, fname, args, layout, intro, body, True, s)
        return "\n".join(lines) + "\n"
    prog = forward_program(layout, s)
    names = prog.names
    reps = tile.replica_count
    rep_note = f"; r in [0, {reps})" if reps > 1 else ""
    body: list[str] = []
    if language.family == "c":
        for n, e in prog.locals_.items():
            body.append(f"    long long {n} = {language.expr(e)};")
        for k, (a, e) in enumerate(zip(tile.axes, prog.outputs, strict=True)):
            body.append(f"    out[{k}] = {language.expr(e)};  // {a}")
        intro = [f"shape: {format_shape(s)}{rep_note}; out[{len(names)}] = {{{', '.join(tile.axes)}}}"]
    else:
        for n, e in prog.locals_.items():
            body.append(f"    {n} = {language.expr(e)}")
        for n, e in zip(names, prog.outputs, strict=True):
            if not (e.op == "var" and e.value == n):
                body.append(f"    {n} = {language.expr(e)}")
        ret = ", ".join(names) + ("," if len(names) == 1 else "")
        body.append(f"    return {ret}" if names else "    return ()")
        intro = [f"shape: {format_shape(s)}{rep_note}; returns ({', '.join(tile.axes)})"]
    lines = _function(language, fname, list(prog.args), layout, intro, body, False, s)
    return "\n".join(lines) + "\n"


def _function(lang: Language, name: str, args: list[str], layout: Layout, intro: list[str],
              body: list[str], returns_value: bool, shape: Shape) -> list[str]:
    lines: list[str] = []
    if lang.family == "triton":
        lines += ["import triton", "import triton.language as tl", "", ""]
    lines += lang.header(name, args, returns_value)
    lines.append("    " + lang.comment(f"layout: {layout}"))
    lines += ["    " + lang.comment(t) for t in intro]
    if lang.family == "triton" and _wide(layout, shape):
        lines += [f"    {a} = {a}.to(tl.int64)" for a in args]
    lines += body
    if returns_value:
        final = {"python": "return flat if ok else -1", "c": "return ok ? flat : -1;",
                 "triton": "return tl.where(ok, flat, -1)"}[lang.family]
        lines.append("    " + final)
    lines += lang.footer()
    return lines
