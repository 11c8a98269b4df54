"""The shared-memory swizzle modes of TMA / wgmma / tcgen05: one table, read everywhere.

Each row (:class:`SwizzleModeInfo`) gives a mode's byte sizes (the swizzled row, the unit kept
whole, the 8-row atom), its pattern as CuTe's ``Swizzle<B, M, S>`` on byte addresses, and how
each encoding spells it: the TMA tensor map (driver enum and ``tensormap.replace`` fields),
the wgmma and tcgen05 shared-memory descriptors, CuTe and Triton. The facts and their PTX ISA /
CUTLASS sources are in ``docs/hardware.md``; the target that first offers a mode is the first
with its ``feature`` (:mod:`tilelayout.core.targets`).

>>> m = mode_info("128b_atom32b")
>>> m.name, m.span_bytes, m.atomicity_bytes, m.byte_swizzle, m.tcgen05, m.wgmma
('128B_atom32B', 128, 32, (5, 2, 2), 1, None)
>>> list(SWIZZLE_MODE_TABLE)
['none', '32B', '64B', '128B', '128B_atom32B', '128B_atom64B', '96B']
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .errors import DtypeError, shown
from .targets import Target, target, targets_with

#: the encodings a mode may have, in the order :meth:`SwizzleModeInfo.encodings` lists them
ENCODINGS = MappingProxyType({"tma": "TMA tensor map", "wgmma": "wgmma descriptor",
                              "tcgen05": "tcgen05 descriptor", "cute": "CuTe",
                              "triton": "Triton NVMMASharedLayout"})


@dataclass(frozen=True)
class SwizzleModeInfo:
    """One hardware swizzle mode (``docs/hardware.md`` gives each field's source).

    * ``span_bytes``: bytes of one swizzled row of the K-major atom; ``atom_rows`` rows make
      the atom (PTX ISA 9.7.15.5.1.2); ``atomicity_bytes``: the unit kept whole.
    * ``byte_swizzle``: ``(M, B, S)`` of CuTe's ``Swizzle<B, M, S>`` on byte addresses.
    * ``tma_enum`` / ``tma_driver``: the ``CUtensorMapSwizzle`` name and value (None: not in
      the driver enum); ``tensormap_mode`` / ``tensormap_atomicity``: the
      ``tensormap.replace`` ``.swizzle_mode`` / ``.swizzle_atomicity`` field values.
    * ``wgmma`` / ``tcgen05``: the shared-memory descriptor's swizzle field value (None: not
      encodable), ``tcgen05_note`` a restriction; ``cute``: CuTe's atom (K-/MN-major);
      ``triton``:
      ``NVMMASharedLayout(swizzle_byte_width=...)``.
    * ``max_row_bytes``: the widest tile row the mode takes (None: no limit of its own);
      ``feature``: the :data:`~tilelayout.core.targets.FEATURES` name that offers it.
    """

    name: str
    span_bytes: int
    atomicity_bytes: int
    atom_rows: int
    byte_swizzle: tuple[int, int, int]
    tma_enum: str | None
    tma_driver: int | None
    tensormap_mode: int
    tensormap_atomicity: int
    wgmma: int | None
    tcgen05: int | None
    tcgen05_note: str
    cute: str | None
    triton: int | None
    max_row_bytes: int | None
    feature: str

    @property
    def swizzle_len(self) -> int:
        """B: how many line bits the mode XORs in (0 = no swizzle).

        >>> [m.swizzle_len for m in SWIZZLE_MODE_TABLE.values()]
        [0, 1, 2, 3, 2, 1, 1]
        """
        return self.byte_swizzle[1]

    @property
    def repeat_bytes(self) -> int:
        """Bytes after which the pattern repeats (the base alignment it needs): 2**(M+B+S).

        >>> mode_info("128B").repeat_bytes, mode_info("96B").repeat_bytes
        (1024, 256)
        """
        m, b, s = self.byte_swizzle
        return 1 << (m + b + s)

    @property
    def first_target(self) -> Target:
        """The oldest target that offers this mode (the first with its ``feature``).

        >>> mode_info("128B").first_target, mode_info("96B").first_target
        (target('sm_90'), target('sm_103a'))
        """
        return targets_with(self.feature)[0]

    def describe(self) -> str:
        """One line: the row and unit sizes, the first target, the descriptors that take it.

        >>> mode_info("64B").describe()
        '8 x 64-byte rows of 16-byte units; TMA from sm_90; wgmma descriptor 2; tcgen05 descriptor 4'
        >>> mode_info("96B").describe()
        '8 x 32-byte rows of 16-byte units; TMA on sm_103a only'
        """
        first = self.first_target
        since = f"on {first.name} only" if first.arch_specific else f"from {first.name}"
        takers = [f"{ENCODINGS[k]} {v}" for k, v in self.encodings().items()
                  if v is not None and k in ("wgmma", "tcgen05")]
        return "; ".join([f"{self.atom_rows} x {self.span_bytes}-byte rows of "
                          f"{self.atomicity_bytes}-byte units", f"TMA {since}", *takers])

    def encodings(self) -> MappingProxyType[str, str | None]:
        """Encoding (a key of :data:`ENCODINGS`) -> how it spells this mode, or None when it
        cannot.

        >>> dict(mode_info("64B").encodings())["wgmma"], mode_info("96B").encodings()["cute"]
        ('2', None)
        """
        if self.tma_enum is not None:
            tma = f"{self.tma_enum} (driver value {self.tma_driver}; "
        else:
            tma = "tensormap.replace only ("
        tma += f"swizzle_mode {self.tensormap_mode}, swizzle_atomicity {self.tensormap_atomicity})"
        m, b, sh = self.byte_swizzle
        tcgen05 = None if self.tcgen05 is None else " ".join(
            filter(None, (str(self.tcgen05), self.tcgen05_note)))
        return MappingProxyType({
            "tma": tma,
            "wgmma": None if self.wgmma is None else str(self.wgmma),
            "tcgen05": tcgen05,
            "cute": None if self.cute is None else f"{self.cute} = Swizzle<{b},{m},{sh}> on bytes",
            "triton": None if self.triton is None else f"swizzle_byte_width={self.triton}",
        })


def _table(*rows: SwizzleModeInfo) -> MappingProxyType[str, SwizzleModeInfo]:
    return MappingProxyType({r.name: r for r in rows})


_MN_ONLY = "(MN-major operands only, PTX ISA 9.7.16.10.6 Table 55)"

#: mode name -> :class:`SwizzleModeInfo`: THE swizzle-mode table (docs/hardware.md)
SWIZZLE_MODE_TABLE: MappingProxyType[str, SwizzleModeInfo] = _table(
    SwizzleModeInfo("none", 16, 16, 8, (4, 0, 3), "CU_TENSOR_MAP_SWIZZLE_NONE", 0, 0, 0,
                    0, 0, "", "Layout_{K,MN}_INTER_Atom", 0, None, "tma"),
    SwizzleModeInfo("32B", 32, 16, 8, (4, 1, 3), "CU_TENSOR_MAP_SWIZZLE_32B", 1, 1, 0,
                    3, 6, "", "Layout_{K,MN}_SW32_Atom", 32, None, "tma"),
    SwizzleModeInfo("64B", 64, 16, 8, (4, 2, 3), "CU_TENSOR_MAP_SWIZZLE_64B", 2, 2, 0,
                    2, 4, "", "Layout_{K,MN}_SW64_Atom", 64, None, "tma"),
    SwizzleModeInfo("128B", 128, 16, 8, (4, 3, 3), "CU_TENSOR_MAP_SWIZZLE_128B", 3, 3, 0,
                    1, 2, "", "Layout_{K,MN}_SW128_Atom", 128, None, "tma"),
    SwizzleModeInfo("128B_atom32B", 128, 32, 8, (5, 2, 2), "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
                    4, 3, 1, None, 1, _MN_ONLY, "Layout_MN_SW128_32B_Atom",
                    None, None, "tma.swizzle_atomicity"),
    SwizzleModeInfo("128B_atom64B", 128, 64, 8, (6, 1, 1), "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
                    6, 3, 3, None, None, "", None, None, None, "tma.swizzle_atomicity"),
    SwizzleModeInfo("96B", 32, 16, 8, (4, 1, 3), None, None, 4, 0, None, None, "", None, None,
                    96, "tma.swizzle_96B"),
)

#: mode names, in table order (what CLI help, presets and the page offer)
MODE_NAMES: tuple[str, ...] = tuple(SWIZZLE_MODE_TABLE)
#: the ``NVMMASharedLayout(swizzle_byte_width=...)`` values, in table order: the Triton column
TRITON_WIDTHS: tuple[int, ...] = tuple(m.triton for m in SWIZZLE_MODE_TABLE.values()
                                       if m.triton is not None)


def mode_info(mode: str) -> SwizzleModeInfo:
    """The table row of ``mode`` (case-insensitive; "128" and "128b" are accepted for
    "128B"); an unknown mode is a one-line :class:`~tilelayout.core.errors.DtypeError`.

    >>> mode_info("128").name, mode_info("none").span_bytes
    ('128B', 16)
    """
    key = str(mode).strip().lower()
    for name, info in SWIZZLE_MODE_TABLE.items():
        if key in (name.lower(), name.lower().rstrip("b")):
            return info
    raise DtypeError(f"unknown swizzle mode {shown(mode)}; expected one of {', '.join(MODE_NAMES)}")


def modes_help() -> str:
    """The mode names as one slash-separated word (for help strings).

    >>> modes_help()
    'none/32B/64B/128B/128B_atom32B/128B_atom64B/96B'
    """
    return "/".join(MODE_NAMES)


def modes_on(t: str | int | Target, encoding: str = "tma") -> tuple[SwizzleModeInfo, ...]:
    """The modes target ``t`` can use through ``encoding``: ``"tma"`` (a tensor map: ``t``
    offers the mode's feature), ``"wgmma"`` or ``"tcgen05"`` (``t`` runs the instruction and
    its shared-memory descriptor has a value for the mode).

    >>> [m.name for m in modes_on("sm_100a")]
    ['none', '32B', '64B', '128B', '128B_atom32B', '128B_atom64B']
    >>> [m.name for m in modes_on("sm_90a", "wgmma")], modes_on("sm_90", "wgmma")
    (['none', '32B', '64B', '128B'], ())
    """
    tt = target(t)
    if encoding not in ("tma", "wgmma", "tcgen05"):
        raise DtypeError(f"unknown swizzle encoding {shown(encoding)}; expected tma, wgmma or "
                         f"tcgen05")
    if encoding == "tma":
        return tuple(m for m in SWIZZLE_MODE_TABLE.values() if tt.has(m.feature))
    if not tt.has(encoding):
        return ()
    return tuple(m for m in SWIZZLE_MODE_TABLE.values() if getattr(m, encoding) is not None)
