"""Data movement: shared-memory access through distributed layouts, shared-memory layout
choice, layout-conversion plans (docs/data-movement.md)."""
