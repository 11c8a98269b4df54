"""How each target language spells the generated code: constants, operators, booleans,
declarations, loops, function headers.

The expressions themselves come from :mod:`tilelayout.eval.expressions`; this module
only writes them down. Python and Triton share Python's operators; C, C++ and CUDA
share C's, with 64-bit ``long long`` arithmetic.

>>> C.constant(1 << 40), PYTHON.constant(1 << 40)
('1099511627776LL', '1099511627776')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ..eval.expressions import Expr, render

LANGUAGES = ("python", "c", "cpp", "cuda", "triton")


@dataclass(frozen=True)
class Language:
    """The spelling rules of one target."""

    name: str
    family: str  # "python", "c" or "triton"

    # -- expressions ------------------------------------------------------------------
    def constant(self, v: int) -> str:
        if self.family == "c" and not -(1 << 31) <= v < (1 << 31):
            return f"{v}LL"
        return str(v)

    def expr(self, e: Expr) -> str:
        ops = {"//": "/"} if self.family == "c" else None
        return render(e, self.constant, ops)

    def both(self, conds: Sequence[str]) -> str:
        if not conds:
            return {"python": "True", "c": "1", "triton": "True"}[self.family]
        if len(conds) == 1:
            return conds[0]
        joint = {"python": " and ", "c": " && ", "triton": " & "}[self.family]
        return joint.join(f"({c})" if " " in c else c for c in conds)

    def either(self, a: str, b: str) -> str:
        return {"python": f"{a} or {b}", "c": f"{a} || {b}", "triton": f"{a} | {b}"}[self.family]

    def negate(self, a: str) -> str:
        return {"python": f"not {a}", "c": f"!{a}", "triton": f"~{a}"}[self.family]

    def select(self, cond: str, a: str, b: str) -> str:
        if self.family == "python":
            return f"{a} if {cond} else {b}"
        if self.family == "c":
            return f"{cond} ? {a} : {b}"
        return f"tl.where({cond}, {a}, {b})"

    # -- statements ------------------------------------------------------------------
    def comment(self, text: str) -> str:
        return f"# {text}" if self.family != "c" else f"// {text}"

    def assign(self, name: str, text: str, declare: bool, boolean: bool = False) -> str:
        if self.family == "c":
            kind = "int" if boolean else "long long"
            return f"{kind} {name} = {text};" if declare else f"{name} = {text};"
        return f"{name} = {text}"

    def loop(self, var: str, count: int) -> str:
        if self.family == "c":
            return f"for (long long {var} = 0; {var} < {self.constant(count)}; ++{var}) {{"
        return f"for {var} in range({count}):"

    def end_loop(self) -> str | None:
        return "}" if self.family == "c" else None

    def header(self, name: str, args: Sequence[str], returns_value: bool) -> list[str]:
        """Opening lines of the function (decorator / qualifiers and signature)."""
        if self.family == "python":
            return [f"def {name}({', '.join(args)}):"]
        if self.family == "triton":
            return ["@triton.jit", f"def {name}({', '.join(args)}):"]
        qual = "__host__ __device__ inline" if self.name == "cuda" else "static inline"
        params = [f"long long {a}" for a in args]
        if not returns_value:
            params.append("long long *out")
        ret = "long long" if returns_value else "void"
        return [f"{qual} {ret} {name}({', '.join(params) or 'void'}) {{"]

    def footer(self) -> list[str]:
        return ["}"] if self.family == "c" else []


PYTHON = Language("python", "python")
C = Language("c", "c")
CPP = Language("cpp", "c")
CUDA = Language("cuda", "c")
TRITON = Language("triton", "triton")
BY_NAME = MappingProxyType({lang.name: lang for lang in (PYTHON, C, CPP, CUDA, TRITON)})
