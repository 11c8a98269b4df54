"""Pictures and text tables of layouts (shared colours with the explorer).

:func:`physical_view` is the one physical grid: the SVG renderer draws it and the
explorer's API sends it (``PhysicalView.to_dict()``) for the page to draw.
"""

from .physical import PhysicalView, physical_view

__all__ = ["PhysicalView", "physical_view"]
