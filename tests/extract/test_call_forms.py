"""Tools registered by calls whose handlers live in other modules: what is found there is reported there."""

from __future__ import annotations

from pathlib import Path

from app.extract import extract_paths

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "extract"


def test_a_handler_modules_problem_names_that_module_and_line() -> None:
    tools = extract_paths([FIXTURES / "python" / "call_forms"], root=FIXTURES)
    [finding] = [f for f in tools.load_findings if f.parameter == "folder"]
    assert finding.file == "python/call_forms/handlers.py" and finding.tool == "archive_note"
    line = (FIXTURES / "python" / "call_forms" / "handlers.py").read_text().splitlines()[finding.line - 1]  # type: ignore[operator]
    assert "os.environ.get" in line
    archive = next(t for t in tools.tools if t.name == "archive_note")
    assert archive.location is not None and archive.location.file == "python/call_forms/server.py"
    assert archive.properties["folder"] == {"type": "string"}  # its default is left out and said so, not guessed
