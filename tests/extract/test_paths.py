"""Language detection, folder walking, the config's globs, and clear errors for unreadable input."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.errors import DefinitionError
from app.extract import detect_language, extract_file, extract_paths, is_source_file
from app.extract.paths import matches

TOOL_PY = 'from fastmcp import FastMCP\nmcp = FastMCP("x")\n\n@mcp.tool\ndef {name}() -> None:\n    """Doc."""\n'


@pytest.mark.parametrize(
    ("name", "language"),
    [("a.py", "python"), ("b.ts", "typescript"), ("c.tsx", "typescript"), ("d.mjs", "javascript"),
     ("e.js", "javascript"), ("f.go", "go"), ("tools.json", None), ("tools.yaml", None), ("README.md", None)],
)
def test_detect_language_by_extension(name: str, language: str | None) -> None:
    assert detect_language(Path(name)) == language
    assert is_source_file(Path(name)) == (language is not None)


def test_detect_language_by_shebang() -> None:
    assert detect_language(Path("server"), "#!/usr/bin/env python3\nprint(1)\n") == "python"
    assert detect_language(Path("server"), "#!/usr/bin/env node\n") == "javascript"
    assert detect_language(Path("server"), "no shebang") is None


@pytest.mark.parametrize(
    ("path", "glob", "expected"),
    [
        ("src/server.py", "src/*.py", True),
        ("src/tools/a.py", "src/*.py", False),
        ("src/tools/a.py", "src/**/*.py", True),
        ("src/a.py", "src/**/*.py", True),
        ("a.py", "**/*.py", True),
        ("deep/er/a.ts", "**/*.ts", True),
        ("deep/er/a.ts", "*.ts", False),
        ("pkg/github/issues.go", "pkg/*/[a-j]*.go", True),
        ("pkg/github/tools.go", "pkg/*/[a-j]*.go", False),
        ("./src/a.py", "src/a.py", False),
        ("src/a.py", "./src/a.py", True),
    ],
)
def test_glob_matching(path: str, glob: str, expected: bool) -> None:
    assert matches(path, [glob]) is expected


def _repo(tmp_path: Path) -> Path:
    for rel in ["src/app.py", "src/tools/more.py", "tests/test_x.py", "node_modules/pkg/index.py", ".venv/x.py"]:
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(TOOL_PY.format(name=target.stem))
    (tmp_path / "src" / "tools.json").write_text('{"tools": []}')
    return tmp_path


def test_folders_skip_dependencies_tests_and_data_files(tmp_path: Path) -> None:
    tools = extract_paths([_repo(tmp_path)])
    assert tools.names() == ["app", "more"]
    assert all(not s.endswith(".json") for s in tools.sources)
    # Globs choose for themselves: test code is read when they ask for it.
    assert extract_paths([tmp_path], root=tmp_path, globs=["tests/*.py"]).names() == ["test_x"]


def test_globs_select_files_relative_to_the_root(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    tools = extract_paths([repo], root=repo, globs=["src/**/*.py"])
    assert tools.names() == ["app", "more"]
    assert tools.sources == ["src/app.py", "src/tools/more.py"]
    assert [t.location.file for t in tools.tools if t.location] == ["src/app.py", "src/tools/more.py"]
    assert extract_paths([repo], root=repo, globs=["src/*.py"]).names() == ["app"]
    assert extract_paths([repo], root=repo, globs=["docs/*.py"]).names() == []


def test_a_file_given_twice_is_read_once(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    assert extract_paths([repo / "src", repo / "src" / "app.py"]).names() == ["app", "more"]


def test_missing_path_names_it(tmp_path: Path) -> None:
    with pytest.raises(DefinitionError, match=r"nope\.py: no such file"):
        extract_paths([tmp_path / "nope.py"])


def test_undecodable_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_bytes(b"x = '\xff\xfe'\n")
    with pytest.raises(DefinitionError, match=r"bad\.py: not UTF-8 text"):
        extract_file(bad)


def test_a_data_file_is_not_source(tmp_path: Path) -> None:
    data = tmp_path / "tools.json"
    data.write_text('{"tools": []}')
    with pytest.raises(DefinitionError, match="not a Python, TypeScript, JavaScript or Go source file"):
        extract_file(data)


def test_syntax_errors_become_findings_not_crashes(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def (:\n")
    tools = extract_file(broken, display_name="broken.py")
    assert tools.tools == []
    assert [(f.rule_id, f.file, f.line) for f in tools.load_findings] == [("TC090", "broken.py", 1)]


def test_text_and_language_can_be_given(tmp_path: Path) -> None:
    tools = extract_file(Path("virtual/server.txt"), text=TOOL_PY.format(name="given"), language="python",
                         display_name="virtual/server.txt")
    assert tools.names() == ["given"]
    assert tools.tools[0].location and tools.tools[0].location.file == "virtual/server.txt"


def test_languages_set_per_glob(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "server").write_text(TOOL_PY.format(name="from_script"))
    (tmp_path / "tools.txt").write_text('{"tools": []}')
    (tmp_path / "app.py").write_text(TOOL_PY.format(name="regular"))
    tools = extract_paths([tmp_path], root=tmp_path, globs=["*.py"], languages={"bin/*": "python", "*.txt": "json"})
    assert tools.names() == ["regular", "from_script"]
    assert tools.sources == ["app.py", "bin/server"]


@pytest.mark.parametrize(
    ("files", "major"),
    [
        ({"uv.lock": '[[package]]\nname = "fastmcp"\nversion = "2.14.3"\n', "pyproject.toml": '"fastmcp>=3"'}, 2),
        ({"pyproject.toml": 'dependencies = ["fastmcp>=2.10,<3"]'}, 2),
        ({"pyproject.toml": 'dependencies = ["fastmcp>=2.3"]'}, 3),
        ({"requirements.txt": "fastmcp==3.1.0\n"}, 3),
        ({"requirements.txt": "httpx\n"}, None),
    ],
)
def test_fastmcp_version_from_the_project(tmp_path: Path, files: dict[str, str], major: int | None) -> None:
    from app.extract.paths import fastmcp_major

    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    for name, content in files.items():
        (project / name).write_text(content)
    assert fastmcp_major(project / "src" / "server.py") == major
