"""The CLI's atomic file writes."""

import os

import pytest

from tilelayout.commands.files import check_output_path, write_atomic
from tilelayout.core.errors import LayoutError


def test_writes_the_bytes_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "a.svg"
    assert write_atomic(target, b"<svg/>") == 6
    assert target.read_bytes() == b"<svg/>" and os.listdir(tmp_path) == ["a.svg"]


def test_replacing_keeps_the_old_permissions(tmp_path):
    target = tmp_path / "a.txt"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new" and (target.stat().st_mode & 0o777) == 0o640


def test_a_failed_write_leaves_the_old_file(tmp_path):
    target = tmp_path / "missing-dir" / "a.txt"
    with pytest.raises(LayoutError, match="cannot write"):
        write_atomic(target, b"x")
    assert not target.parent.exists()


@pytest.mark.parametrize("bad", ["", "out/", "."])
def test_directory_like_paths_are_refused(bad, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(LayoutError, match="give a file name"):
        check_output_path(bad)


def test_a_plain_name_is_accepted(tmp_path):
    assert check_output_path(tmp_path / "x.png") == tmp_path / "x.png"
