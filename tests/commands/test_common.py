"""The shared layout options: read, never written (commands see one frozen answer)."""

from __future__ import annotations

import argparse

from tilelayout.cli import build_parser
from tilelayout.commands.common import layout_args, layout_from_args, shape_from_args


def test_layout_args_reads_the_arguments_without_writing_them():
    args = build_parser().parse_args(["map", "--preset", "smem.tile", "--shape", "8,64"])
    before = dict(vars(args))
    named = layout_args(args)
    assert vars(args) == before  # nothing added (no preset_object), dtype untouched
    assert named.preset is not None and named.dtype == named.preset.dtype
    assert named.shape == (8, 64) and named.layout == layout_from_args(args)
    assert shape_from_args(args, named.layout) == named.shape


def test_elements_at_and_presets_leave_their_arguments_alone(capsys):
    parser = build_parser()
    for argv in (["elements-at", "--preset", "mma.m16n8k16.A", "--param", "dtype=float16", "laneid=5"],
                 ["presets", "mma.m16n8k16.A"]):
        args = parser.parse_args(argv)
        before = argparse.Namespace(**vars(args))
        assert args.run(args) in (0, None)
        assert vars(args) == vars(before)
    out = capsys.readouterr().out
    assert "(1, 1)" in out or "laneid" in out
