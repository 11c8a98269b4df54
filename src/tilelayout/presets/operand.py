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


def build(name: str, items: list[str], what: str, *, spell: str = "{key}={value}",
          fill_required: bool = False) -> Preset:
    """Preset ``name`` built from ``KEY=VALUE`` texts (the others take their defaults).

    A required parameter (``dtype`` of an mma A or B operand, as :func:`get` requires it)
    must be among them, unless ``fill_required`` (then its default is taken, as for showing
    the preset); the refusal spells the missing item with ``spell`` (``{key}``,
    ``{value}``: how the caller writes one, e.g. ``"--param {key}={value}"``).

    >>> build("mma.m16n8k16.A", ["dtype=float16"], "--param").shape
    (16, 16)
    >>> build("mma.m16n8k16.A", [], "--param", spell="--param {key}={value}")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tilelayout.presets.params.PresetError: preset mma.m16n8k16.A needs its dtype: add --param dtype=...
    """
    texts: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise PresetError(f"{what} must look like KEY=VALUE, got {item!r}")
        texts[key.strip()] = value
    entry = info(name)
    for p in entry.params:
        if p.required and p.name not in texts and not fill_required:
            choices = "" if p.choices is None else f" (one of {', '.join(map(p.text, p.choices))})"
            raise PresetError(f"preset {name} needs its {p.name}: add "
                              f"{spell.format(key=p.name, value=p.text(p.default))}{choices}")
    params = entry.defaults
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
    return build(name.strip(), items, f"{what}'s preset parameters",
                 spell=f"{PREFIX}{name.strip()}:{{key}}={{value}}")
