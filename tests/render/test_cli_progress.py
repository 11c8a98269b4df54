"""Long `tilelayout map` enumerations: streamed output, progress on stderr when asked
(or when stderr is a terminal and the map is big)."""

from tilelayout.cli import main


def test_map_reports_progress_on_stderr_only_when_asked(capsys):
    assert main(["map", "S[(256,512):(512,1)]", "--json", "--progress"]) == 0
    captured = capsys.readouterr()
    assert captured.err.endswith("[map] 131,072 / 131,072 elements (100%)\n")
    assert "65,536 / 131,072" in captured.err  # one report per streamed chunk
    assert captured.out.rstrip().endswith('{"m": 131071}]}]}')
    assert main(["map", "S[(256,512):(512,1)]"]) == 0
    assert "[map]" not in capsys.readouterr().err  # not a terminal, not asked
