"""The text form: parsing with positioned errors, and canonical printing."""

from .parser import parse, parse_tile
from .printer import format_layout

__all__ = ["format_layout", "parse", "parse_tile"]
