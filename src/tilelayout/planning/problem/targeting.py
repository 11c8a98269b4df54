"""The GPU target a plan is made for: what the operands need, the default, and which
instructions and hardware swizzle paths the target lets a plan use.

``target=`` (``"sm_80"``, ``"sm_90a"``, ``90`` ... any name :func:`tilelayout.core.targets.
target` reads) decides:

* the instruction kinds of a staging: ``ldmatrix`` (sm_75+), ``stmatrix`` (sm_90+);
  ``ld/st.shared`` vectors everywhere;
* which hardware paths accept a shared-memory layout (``accepted_by``): TMA on sm_90+
  (its 128B modes with 32- or 64-byte atomicity on sm_100+), wgmma descriptors on
  sm_90a, tcgen05 descriptors on sm_100a / sm_103a. Every swizzle is a plain XOR layout
  ``ld/st.shared`` may use on any target; a tie goes to the layout more paths accept.

Operands made from presets need a target (:func:`needs`): ``wgmma.*`` runs on sm_90a,
``tcgen05.*`` / ``tmem.*`` on sm_100a or sm_103a, ``ldmatrix.m16n16`` / ``m8n16`` need the
8-bit ldmatrix forms, an ``mma.*`` shape the targets whose ``mma.sync`` runs it (a
``smem.*`` tile is a plain XOR layout to ``ld/st.shared``: it needs nothing). With no
``target=``, the plan is made for :data:`DEFAULT` when it runs every operand, else for the
oldest target that does; the result states which and why. A ``target=`` that cannot run
an operand is a one-line error naming both. The facts and their sources are in
``docs/hardware.md`` (``tilelayout.core.targets``).

>>> choice = resolve_target(None, needs("tcgen05.ld.32x32b"))
>>> choice.name, choice.why
('sm_100a', 'tcgen05.ld.32x32b needs tcgen05')
>>> resolve_target("sm_90").allows("stmatrix"), resolve_target("sm_80").allows("stmatrix")
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ...core.errors import LayoutError
from ...core.targets import TARGETS, Target, target

#: the target a plan is made for when neither ``target=`` nor an operand names one:
#: Hopper, the oldest target with both ldmatrix and stmatrix, TMA and wgmma
DEFAULT = "sm_90a"

#: preset name prefix -> the target feature its layout needs
_FEATURE_OF_PRESET = (("wgmma.", "wgmma"), ("tcgen05.", "tcgen05"), ("tmem.", "tcgen05"),
                      ("ldmatrix.m16n16", "ldmatrix.b8"), ("ldmatrix.m8n16", "ldmatrix.b8"),
                      ("ldmatrix.", "ldmatrix"))
#: element type -> its mma.sync operand-type suffix (Target.mma)
_MMA_TYPE = MappingProxyType({"float16": "f16", "bfloat16": "bf16", "tfloat32": "tf32", "int8": "s8",
                              "e4m3": "e4m3", "e5m2": "e5m2"})


@dataclass(frozen=True)
class Need:
    """What one operand needs: ``what`` (the preset), a target ``test`` name (a feature
    in :data:`tilelayout.core.targets.FEATURES` or ``mma:<shape>[.<type>]``)."""

    what: str
    test: str

    def met_by(self, t: Target) -> bool:
        if self.test.startswith("mma:"):
            key = self.test[4:]
            return any(m == key or m.startswith(key + ".") for m in t.mma)
        return t.has(self.test)

    def __str__(self) -> str:
        if self.test.startswith("mma:"):
            return f"{self.what} needs mma.sync {self.test[4:]}"
        return f"{self.what} needs {self.test}"


@dataclass(frozen=True)
class TargetChoice:
    """The target a plan is made for: ``target``, and ``why`` (given, the default, or the
    operand that needs it)."""

    target: Target
    why: str

    @property
    def name(self) -> str:
        return self.target.name

    def allows(self, feature: str) -> bool:
        """Whether the target offers ``feature`` (a :data:`~tilelayout.core.targets.FEATURES`
        name)."""
        return self.target.has(feature)

    def matrix_sides(self, b8: bool = False) -> tuple[str, ...]:
        """The staging sides that may use matrix instructions: ``"reader"`` (ldmatrix),
        ``"writer"`` (stmatrix); ``b8``: their 8-bit forms."""
        suffix = ".b8" if b8 else ""
        return tuple(who for who, f in (("reader", "ldmatrix"), ("writer", "stmatrix"))
                     if self.allows(f + suffix))


def needs(preset: str | None, params: dict | None = None) -> tuple[Need, ...]:
    """What a preset's layout needs of the target (empty: runs anywhere).

    >>> [str(n) for n in needs("wgmma.m64nNk16.D")]
    ['wgmma.m64nNk16.D needs wgmma']
    >>> [str(n) for n in needs("mma.m16n8k16.A", {"dtype": "bfloat16"})]
    ['mma.m16n8k16.A needs mma.sync m16n8k16.bf16']
    """
    if not preset:
        return ()
    params = params or {}
    for prefix, feature in _FEATURE_OF_PRESET:
        if preset.startswith(prefix):
            return (Need(preset, feature),)
    if preset.startswith("mma."):
        shape = preset.split(".")[1]
        kind = _MMA_TYPE.get(str(params.get("dtype", "")))
        return (Need(preset, f"mma:{shape}" + (f".{kind}" if kind else "")),)
    return ()


def resolve_target(given: str | int | Target | None, wanted: Sequence[Need] = ()
                   ) -> TargetChoice:
    """The target for operands that need ``wanted`` (see :func:`needs`). ``given`` wins
    but must run every operand; else :data:`DEFAULT` if it does, else the oldest target
    that does."""
    wanted = list(dict.fromkeys(wanted))  # one operand named twice needs it once
    if given is not None:
        t = target(given)
        for n in wanted:
            if not n.met_by(t):
                raise LayoutError(f"{n.what} needs {_runs(n)} ({n.test.removeprefix('mma:')}"
                                  f"); the target given is {t.name}")
        return TargetChoice(t, "given")
    default = target(DEFAULT)
    if all(n.met_by(default) for n in wanted):
        return TargetChoice(default, "the default")
    for t in TARGETS.values():
        if all(n.met_by(t) for n in wanted):
            return TargetChoice(t, "; ".join(str(n) for n in wanted if not n.met_by(default)))
    raise LayoutError("no target runs every operand: " + "; ".join(str(n) for n in wanted))


def _runs(n: Need) -> str:
    able = [t for t in TARGETS.values() if n.met_by(t)]
    if not able:
        return "a target tilelayout does not know"
    if not able[0].arch_specific:
        return f"{able[0].name} or newer"
    return " or ".join(t.name for t in able)


def kinds_for(on: TargetChoice | None, store: bool) -> tuple[str, ...]:
    """The instruction kinds a staging side may use on the target: vectors and packed
    registers everywhere; ``matrix`` where the target has stmatrix (stores) / ldmatrix
    (loads), ``matrix.b8`` where it has their 8-bit forms; None: every kind.

    >>> kinds_for(resolve_target("sm_80"), store=True)
    ('vector', 'packed')
    >>> kinds_for(resolve_target("sm_100a"), store=True)
    ('vector', 'packed', 'matrix', 'matrix.b8')
    """
    kinds: tuple[str, ...] = ("vector", "packed")
    if on is None or on.allows("stmatrix" if store else "ldmatrix"):
        kinds += ("matrix",)
    if on is None or on.allows("stmatrix.b8" if store else "ldmatrix.b8"):
        kinds += ("matrix.b8",)
    return kinds
