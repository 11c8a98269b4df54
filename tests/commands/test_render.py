"""`tilelayout render`: writes the SVG and refuses bad input clearly."""


from __future__ import annotations

import xml.etree.ElementTree as ET

from tilelayout.cli import main


def test_render_command_writes_svg_and_refuses_clearly(tmp_path, capsys):
    out = tmp_path / "mma.svg"
    assert main(["render", "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "--shape", "16,8",
                 "-o", str(out)]) == 0
    ET.parse(out)
    assert main(["render", "S[8]", "-o", str(tmp_path / "x.gif")]) == 2
    assert "must end in .svg or .png" in capsys.readouterr().err
    assert main(["render", "S[(8,64):(64,1)]", "--dtype", "float16", "--swizzle", "128B",
                 "--text"]) == 0
    assert "72" in capsys.readouterr().out
