"""Each fixture source file yields exactly the tools written next to it (`*.expected.json`, what an MCP client
receives) and exactly the TC090 findings of `*.findings.json` (none when that file is absent)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.audit.models import ToolSet
from app.extract import extract_file, extract_paths

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "extract"
EXPECTED = sorted(FIXTURES.rglob("*.expected.json"))


def _source_of(expected: Path) -> Path:
    """`a.py.expected.json` belongs to `a.py`; `<folder>/tools.expected.json` to the whole folder."""
    name = expected.name.removesuffix(".expected.json")
    return expected.parent if name == "tools" else expected.parent / name


def _extract(source: Path) -> ToolSet:
    if source.is_dir():
        return extract_paths([source], root=FIXTURES)
    return extract_file(source, display_name=source.relative_to(FIXTURES).as_posix())


def _findings(tools: ToolSet) -> list[dict[str, Any]]:
    return [{"line": f.line, "tool": f.tool, "parameter": f.parameter, "message": f.message}
            for f in tools.load_findings]


def _differences(expected: Any, got: Any, path: str = "") -> list[str]:
    """Every place where two JSON values differ, named by its path (so a failure says what is wrong)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        out: list[str] = []
        for key in sorted(set(expected) | set(got)):
            where = f"{path}.{key}"
            if key not in got:
                out.append(f"{where}: missing (expected {json.dumps(expected[key])[:120]})")
            elif key not in expected:
                out.append(f"{where}: unexpected {json.dumps(got[key])[:120]}")
            else:
                out.extend(_differences(expected[key], got[key], where))
        return out
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        pairs = enumerate(zip(expected, got, strict=True))
        return [d for i, (e, g) in pairs for d in _differences(e, g, f"{path}[{i}]")]
    if expected != got or type(expected) is not type(got):
        return [f"{path}: expected {json.dumps(expected)[:160]}, got {json.dumps(got)[:160]}"]
    return []


def test_fixtures_exist_for_every_language() -> None:
    folders = {p.relative_to(FIXTURES).parts[0] for p in EXPECTED}
    assert folders == {"python", "typescript", "go"}


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_fixture_tools_are_what_a_client_receives(expected: Path) -> None:
    tools = _extract(_source_of(expected))
    want = json.loads(expected.read_text(encoding="utf-8"))
    got = {"tools": tools.to_mcp()}
    assert [t["name"] for t in got["tools"]] == [t["name"] for t in want["tools"]], "tool names or order differ"
    assert _differences(want, got) == []


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_fixture_findings(expected: Path) -> None:
    tools = _extract(_source_of(expected))
    findings_file = Path(str(expected).removesuffix(".expected.json") + ".findings.json")
    if expected.name == "tools.expected.json":
        findings_file = expected.parent / "tools.findings.json"
    want = json.loads(findings_file.read_text(encoding="utf-8")) if findings_file.exists() else []
    assert _findings(tools) == want
    for finding in tools.load_findings:
        assert finding.rule_id == "TC090"
        assert finding.severity.value == "warning" and finding.dimension.value == "input"
        assert finding.file and finding.line and finding.line >= 1


def test_extraction_is_deterministic() -> None:
    first = extract_paths([FIXTURES], root=FIXTURES)
    second = extract_paths([FIXTURES], root=FIXTURES)
    assert first.model_dump(mode="json") == second.model_dump(mode="json")
    assert first.sources == sorted(first.sources, key=lambda s: (s.split("/")[:-1], s))
