"""The planner's model of the machine: where every element sits (placement, and the bit
map of a linear layout), who holds what each destination needs (routing), a layout as a
register file, and the numpy machine that executes a plan."""
