"""The version, written once and read by the package, the CLI and the build."""

import re
import tomllib
from pathlib import Path

import tilelayout as tl
from tilelayout.cli import main
from tilelayout.core.version import __version__


def test_one_version_everywhere(capsys):
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__) and tl.__version__ == __version__
    try:
        main(["--version"])
    except SystemExit as stop:
        assert stop.code in (0, None)
    assert __version__ in capsys.readouterr().out
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]
    assert "version" in project.get("dynamic", []) or project.get("version") == __version__
