"""A preset named in one string: ``preset:NAME`` or ``preset:NAME:KEY=VALUE[:KEY=VALUE...]``.

The CLI's layout operands, the library's planning entry points (``tl.plan_conversion``,
``tl.choose_smem_layout``, ``tl.smem_access``) and the explorer read presets this way;
parameters not given take the preset's defaults.

>>> p = from_text("preset:wgmma.m64nNk16.D:n=128")
>>> p.name, p.shape, p.params["n"]
('wgmma.m64nNk16.D', (64, 128), 128)
"""

from __future__ import annotations

from .registry import Preset, PresetError, get, info, parse_params

#: how an operand names a preset
PREFIX = "preset:"


def is_preset_text(text: object) -> bool:
    """Whether ``text`` names a preset (``preset:...``).

    >>> is_preset_text("preset:mma.m16n8k16.C"), is_preset_text("S[(4,8):(8,1)]")
    (True, False)
    """
    return isinstance(text, str) and text.strip().startswith(PREFIX)


def build(name: str, items: list[str], what: str) -> Preset:
    """Preset ``name`` built from ``KEY=VALUE`` texts (the others take their defaults).

    >>> build("mma.m16n8k16.A", ["dtype=float16"], "--param").shape
    (16, 16)
    """
    texts: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise PresetError(f"{what} must look like KEY=VALUE, got {item!r}")
        texts[key.strip()] = value
    params = info(name).defaults
    params.update(parse_params(name, texts))
    return get(name, **params)


def from_text(text: str, what: str = "operand") -> Preset:
    """The preset a ``preset:NAME[:KEY=VALUE...]`` string names (see the module doc)."""
    if not is_preset_text(text):
        raise PresetError(f"{what}: expected 'preset:NAME[:KEY=VALUE...]', got {text[:60]!r}")
    name, *items = text.strip()[len(PREFIX):].split(":")
    if not name.strip():
        raise PresetError(f"{what}: give a preset name after 'preset:' "
                          f"(`tilelayout presets` lists them)")
    return build(name.strip(), items, f"{what}'s preset parameters")
