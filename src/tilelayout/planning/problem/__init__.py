"""The planning problem: what the entry points accept as operands (layouts, text,
``preset:`` strings), the element type, and the GPU target with what it offers."""
