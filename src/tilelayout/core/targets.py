"""GPU target architectures and the features a data-movement plan may use on each.

One frozen table, :data:`TARGETS`: each :class:`Target` names its compute capability, whether
it is an architecture-specific ("a") target, and the instructions and modes it offers, each
feature named in :data:`FEATURES`. The facts and their primary sources (PTX ISA "Target ISA
notes", CUTLASS ``include/cute/arch/config.hpp``) are listed in ``docs/hardware.md``.

Names without the ``a`` suffix are the portable PTX targets (a feature there is offered by
every later target too); ``sm_90a``, ``sm_100a``, ``sm_103a`` and ``sm_120a`` add their
architecture-specific features (``wgmma``, ``tcgen05``, the 8-bit ``ldmatrix`` forms...),
which later generations do not inherit.

>>> t = target("sm90a")
>>> t, t.has("wgmma"), target("sm_100a").has("wgmma")
(target('sm_90a'), True, False)
>>> at_least("sm_89", "sm_80"), at_least("sm_90", "sm_90a")
(True, False)
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from types import MappingProxyType

from .errors import UnknownTargetError, shown


@dataclass(frozen=True)
class Feature:
    """One thing a target may offer: its ``name`` (the key plans ask for), what it is
    (``summary``) and where the fact comes from (``source``, a PTX ISA section or CUTLASS
    file; ``docs/hardware.md``).

    >>> FEATURES["stmatrix"].source
    'PTX ISA 9.7.14.5.16 stmatrix, Target ISA notes: requires sm_90 or higher'
    """

    name: str
    summary: str
    source: str


def _features(*rows: tuple[str, str, str]) -> MappingProxyType[str, Feature]:
    return MappingProxyType({name: Feature(name, summary, source) for name, summary, source in rows})


#: feature name -> :class:`Feature` (docs/hardware.md lists each with its target set)
FEATURES: MappingProxyType[str, Feature] = _features(
    ("ldmatrix", "ldmatrix .m8n8 .b16 (x1/x2/x4, optional .trans)",
     "PTX ISA 9.7.14.5.15 ldmatrix, Target ISA notes: requires sm_75 or higher"),
    ("ldmatrix.b8", "ldmatrix .m16n16 .b8 (.trans) and .m8n16 / .m16n16 with .b8x16 "
     "destinations of packed 6-/4-bit sources",
     "PTX ISA 9.7.14.5.15 ldmatrix, Target ISA notes (sm_100a, sm_101a/sm_110a, sm_103a, "
     "sm_120a families); CUTLASS include/cute/arch/config.hpp CUTE_ARCH_LDSM_SM100A_ENABLED"),
    ("stmatrix", "stmatrix .m8n8 .b16 (x1/x2/x4, optional .trans)",
     "PTX ISA 9.7.14.5.16 stmatrix, Target ISA notes: requires sm_90 or higher"),
    ("stmatrix.b8", "stmatrix .m16n8 .b8 (.trans)",
     "PTX ISA 9.7.14.5.16 stmatrix, Target ISA notes (sm_100a, sm_101a/sm_110a, sm_103a, "
     "sm_120a families); CUTLASS include/cute/arch/config.hpp CUTE_ARCH_STSM_SM100A_ENABLED"),
    ("cp.async", "cp.async: asynchronous global -> shared copies of 4/8/16 bytes per thread",
     "PTX ISA 9.7.9.25.3 cp.async, Target ISA notes: requires sm_80 or higher"),
    ("tma", "the Tensor Memory Accelerator: cp.async.bulk.tensor with a tensor map "
     "(the swizzles of 16-byte atomicity)",
     "PTX ISA 9.7.9.25.5 cp.async.bulk.tensor, Target ISA notes: requires sm_90 or higher; "
     "PTX ISA 5.5.7 swizzling modes"),
    ("tma.swizzle_atomicity", "the 128B TMA swizzle with 32-byte or 64-byte atomicity",
     "PTX ISA 5.5.7 swizzling modes and 9.7.9.27 tensormap.replace .swizzle_atomicity "
     "(sm_100a, sm_110a, sm_120a families); CUDA driver API CUtensorMapSwizzle"),
    ("tma.swizzle_96B", "the 96B TMA swizzle (tensormap swizzle_mode 4)",
     "PTX ISA 5.5.7 swizzling modes and 9.7.9.27 tensormap.replace .swizzle_mode 4: sm_103a"),
    ("wgmma", "wgmma.mma_async: warpgroup MMA reading shared memory through a matrix "
     "descriptor (the swizzles of 16-byte atomicity)",
     "PTX ISA 9.7.15 wgmma, Target ISA notes: requires sm_90a"),
    ("tcgen05", "tcgen05.mma / .ld / .st / .cp and Blackwell tensor memory (TMEM)",
     "PTX ISA 9.7.16 tcgen05, Target ISA notes: sm_100a, sm_101a/sm_110a, sm_103a (and the "
     "sm_100f family); CUTLASS include/cute/arch/config.hpp CUTE_ARCH_TCGEN05_TMEM_ENABLED"),
)


@dataclass(frozen=True)
class Target:
    """A GPU target: ``name`` (canonical, e.g. ``"sm_90a"``), compute capability ``sm``
    (major * 10 + minor), ``arch_specific`` (the ``a`` suffix), ``generation``, the
    ``features`` it offers (names in :data:`FEATURES`) and the ``mma.sync`` shapes and
    operand types it runs (``"m16n8k16.f16"``...). Built only by the table; get one with
    :func:`target`.

    >>> t = target("sm_89")
    >>> t.sm, t.generation, "m16n8k32.e4m3" in t.mma
    (89, 'Ada', True)
    """

    name: str
    sm: int
    arch_specific: bool
    generation: str
    features: frozenset[str]
    mma: tuple[str, ...]

    def has(self, feature: str) -> bool:
        """True when this target offers ``feature`` (a name in :data:`FEATURES`).

        >>> target("sm_80").has("cp.async"), target("sm_80").has("tma")
        (True, False)
        """
        if not isinstance(feature, str) or feature not in FEATURES:
            close = difflib.get_close_matches(feature[:40], list(FEATURES), n=1, cutoff=0.5) \
                if isinstance(feature, str) else []
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UnknownTargetError(f"unknown target feature {shown(feature)}; expected one of "
                                     f"{', '.join(FEATURES)}{hint}")
        return feature in self.features

    def at_least(self, minimum: str | int | Target) -> bool:
        """True when this target runs what ``minimum`` runs: a portable ``minimum`` is met
        by every target of its compute capability or later; an architecture-specific one
        (``sm_90a``) only by itself.

        >>> target("sm_100").at_least("sm_90"), target("sm_100a").at_least("sm_90a")
        (True, False)
        """
        low = target(minimum)
        if low.arch_specific:
            return self.name == low.name
        return self.sm >= low.sm

    def __repr__(self) -> str:
        return f"target({self.name!r})"


def _table(*rows: tuple[str, str, tuple[str, ...], tuple[str, ...]]
           ) -> MappingProxyType[str, Target]:
    """Build the table: each row adds its features and mma shapes to those of the last
    portable row before it (the onion model), arch-specific rows add but pass nothing on."""
    out: dict[str, Target] = {}
    features: frozenset[str] = frozenset()
    mma: tuple[str, ...] = ()
    for name, generation, extra, extra_mma in rows:
        arch = name.endswith("a")
        feats = features | frozenset(extra)
        shapes = mma + tuple(s for s in extra_mma if s not in mma)
        out[name] = Target(name, int(name[3:].rstrip("a")), arch, generation, feats, shapes)
        if not arch:
            features, mma = feats, shapes
    return MappingProxyType(out)


_B8 = ("ldmatrix.b8", "stmatrix.b8")

#: canonical name -> :class:`Target`, oldest first (docs/hardware.md has the sources)
TARGETS: MappingProxyType[str, Target] = _table(
    ("sm_75", "Turing", ("ldmatrix",), ("m16n8k8.f16",)),
    ("sm_80", "Ampere", ("cp.async",),
     ("m16n8k16.f16", "m16n8k16.bf16", "m16n8k8.bf16", "m16n8k8.tf32", "m16n8k16.s8",
      "m16n8k32.s8")),
    ("sm_86", "Ampere", (), ()),
    ("sm_89", "Ada", (), ("m16n8k32.e4m3", "m16n8k32.e5m2", "m16n8k16.e4m3", "m16n8k16.e5m2")),
    ("sm_90", "Hopper", ("stmatrix", "tma"), ()),
    ("sm_90a", "Hopper", ("wgmma",), ()),
    ("sm_100", "Blackwell", ("tma.swizzle_atomicity",), ()),
    ("sm_100a", "Blackwell", ("tcgen05", *_B8), ()),
    ("sm_103", "Blackwell", (), ()),
    ("sm_103a", "Blackwell", ("tcgen05", "tma.swizzle_96B", *_B8), ()),
    ("sm_120", "Blackwell (RTX)", (), ()),
    ("sm_120a", "Blackwell (RTX)", _B8, ("m16n8k32.f8f6f4", "m16n8k64.mxf4")),
)

_SPELLING = re.compile(r"(?:sm|compute|cc)?_?(\d+)(?:\.(\d))?(a?)")


def target(name: str | int | Target) -> Target:
    """The :class:`Target` called ``name``: ``"sm_90"``, ``"sm90"``, ``"SM_90A"``,
    ``"compute_90a"``, ``"9.0"``, ``90`` or a :class:`Target` itself. An unknown name is a
    one-line :class:`~tilelayout.core.errors.UnknownTargetError` naming the nearest ones.

    >>> target(90), target("9.0a"), target("sm_120A")
    (target('sm_90'), target('sm_90a'), target('sm_120a'))
    >>> target("sm_91")
    Traceback (most recent call last):
    ...
    tilelayout.core.errors.UnknownTargetError: unknown target 'sm_91'; did you mean 'sm_90', 'sm_90a'? ...)
    """
    if isinstance(name, Target):
        return name
    sm, arch = None, False
    if isinstance(name, int) and not isinstance(name, bool):
        sm = name if 0 < name < 10_000 else None  # no GPU has more digits (nor is printed)
    elif isinstance(name, str) and len(name) <= 40:
        m = _SPELLING.fullmatch(name.strip().lower())
        if m:
            sm, arch = int(m[1] + (m[2] or "")), bool(m[3])
    found = TARGETS.get(f"sm_{sm}{'a' if arch else ''}") if sm is not None else None
    if found is None:
        if sm is not None:  # the nearest compute capabilities, same suffix first
            close = sorted(TARGETS, key=lambda k: (abs(TARGETS[k].sm - sm),
                                                   TARGETS[k].arch_specific != arch))[:2]
        else:
            close = difflib.get_close_matches(name[:40], list(TARGETS), n=2, cutoff=0.6) \
                if isinstance(name, str) else []
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise UnknownTargetError(f"unknown target {shown(name)}{hint} "
                                 f"(known: {', '.join(TARGETS)})")
    return found


def at_least(t: str | int | Target, minimum: str | int | Target) -> bool:
    """``target(t).at_least(minimum)``: does ``t`` run what ``minimum`` runs?

    >>> at_least("sm_120", "sm_90"), at_least("sm_120", "sm_90a")
    (True, False)
    """
    return target(t).at_least(minimum)


def targets_with(feature: str) -> tuple[Target, ...]:
    """Every target that offers ``feature``, oldest first.

    >>> [t.name for t in targets_with("tcgen05")]
    ['sm_100a', 'sm_103a']
    """
    return tuple(t for t in TARGETS.values() if t.has(feature))
