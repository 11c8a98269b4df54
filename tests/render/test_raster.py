"""PNG output: a clear error without a rasterizer, real pixels through headless Chromium."""

from __future__ import annotations

import shutil

import pytest

from tilelayout.cli import main


def test_png_without_a_rasterizer_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TILELAYOUT_CHROMIUM", str(tmp_path / "no-such-browser"))
    pytest.importorskip("tilelayout.render.raster")
    try:
        import cairosvg  # noqa: F401
        pytest.skip("cairosvg is installed, so a PNG can always be made")
    except (ImportError, OSError):
        pass
    assert main(["render", "S[8]", "-o", str(tmp_path / "x.png")]) == 2
    assert "cannot write PNG" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("chromium") is None,
                    reason="PNG output rasterizes with Debian's chromium (scripts/ensure-chromium.sh)")
def test_png_through_headless_chromium(tmp_path):
    out = tmp_path / "c.png"
    assert main(["render", "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "--shape", "16,8",
                 "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(data[16:20], "big")
    assert width == 1100
