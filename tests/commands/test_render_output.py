"""``render -o`` writes atomically: a failed write leaves the old file byte for byte."""

from __future__ import annotations

import resource
import signal
import subprocess
import sys

import pytest

from tilelayout.cli import main
from tilelayout.commands import files

BIG = "S[(64,64):(64,1)]"  # its SVG is far larger than the file-size limit below


def _limit_file_size():  # runs in the child before exec
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a too-big write fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_a_write_cut_short_by_the_file_size_limit_leaves_the_old_file(tmp_path):
    target = tmp_path / "picture.svg"
    old = b"<svg>the user's old picture</svg>\n" * 10
    target.write_bytes(old)
    p = subprocess.run([sys.executable, "-m", "tilelayout.cli", "render", BIG, "-o", str(target)],
                       capture_output=True, text=True, timeout=60, preexec_fn=_limit_file_size)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("tilelayout: error: cannot write") and p.stderr.count("\n") == 1
    assert target.read_bytes() == old
    assert [q.name for q in tmp_path.iterdir()] == ["picture.svg"]  # no temporary file left


def test_a_write_that_raises_leaves_the_old_file(tmp_path, monkeypatch, capsys):
    target = tmp_path / "picture.svg"
    target.write_bytes(b"old")

    def fail(_fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", fail)
    assert main(["render", "S[4:1]", "-o", str(target)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert target.read_bytes() == b"old" and len(list(tmp_path.iterdir())) == 1


def test_a_successful_write_replaces_the_file_and_keeps_its_mode(tmp_path, capsys):
    target = tmp_path / "picture.svg"
    target.write_bytes(b"old")
    target.chmod(0o640)
    assert main(["render", "S[4:1]", "-o", str(target)]) == 0
    assert target.read_bytes().startswith(b"<svg") and target.stat().st_mode & 0o777 == 0o640
    assert len(list(tmp_path.iterdir())) == 1


@pytest.mark.parametrize("name", ["x.svg/", "sub/"])
def test_paths_ending_in_a_separator_are_refused_before_any_work(tmp_path, monkeypatch, capsys,
                                                                 name):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    assert main(["render", "S[4:1]", "-o", name]) == 2
    assert "ends in a separator" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sub"]
    assert list((tmp_path / "sub").iterdir()) == []


def test_a_directory_is_refused(tmp_path, capsys):
    assert main(["render", "S[4:1]", "-o", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
