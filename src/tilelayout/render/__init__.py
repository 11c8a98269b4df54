"""Pictures and text tables of layouts (shared colours with the explorer)."""
