"""Benchmark: static extraction over whole real repositories, against an independent count of registration sites.

Run by hand: `PYTHONPATH=. python bench/bench_extract_repos.py REPO_DIR... [--real DIR=TOOLS.json] [--json]`, or
with the folders in `TOOLCHOICE_BENCH_REPOS` (separated by `:`). The repositories are fetched by the person running
this (never committed). Per repository it prints: registration sites, sites with a tool extracted, tools extracted,
exact matches with a real `tools/list` where one is known, TC090 findings, seconds.

Registration sites are counted without the extractor, by the line patterns in `SITE_PATTERNS` (a grep):
- Python: `@x.tool` decorators, the call form `x.tool(...)(handler)`, `x.add_tool(...)` (unless its argument is a
  variable assigned from `Tool.from_function(...)` in the same file, which is counted instead), `Tool.from_function(`,
  and low-level `Tool(name=...)`.
- TypeScript/JavaScript: `x.registerTool(`, `x.tool("name", ...)`, and tools built by helpers: object entries
  `name: tool({` / `name: injectableTool({`, and `tool({ name: ...`.
- Go: mcp-go `NewTool("name"` and struct literals `pkg.Tool{` / `Tool{` (go-sdk, wrapper types).
Files under test, example, dependency and dot folders, and test files, are skipped, as the extractor skips them.
A site counts as extracted when its file yields a tool: per file, min(sites, tools whose location is that file).

Exact match (where `--real` or a corpus file under ../shared/corpora/servers names the repository in its
`source.repo`): a real tool whose name, description and inputSchema equal an extracted tool's (a name defined
twice in the source, e.g. behind a feature flag, matches when one of its definitions does; `--json` lists them).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.extract import extract_paths  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "servers"
SKIP_DIRS = {"node_modules", "vendor", "dist", "build", "tests", "test", "__tests__", "testdata", "examples",
             "example", "docs", "e2e", "fixtures", "site-packages", "venv"}
TEST_FILE = re.compile(r"(^test_.*\.py$|_test\.(py|go)$|\.(test|spec)\.[cm]?[jt]sx?$|^conftest\.py$)")
SITE_PATTERNS: dict[str, list[re.Pattern[str]]] = {
    "py": [
        re.compile(r"^\s*@[\w.]+\.tool\b"),
        re.compile(r"^\s*(?:\w+\s*=\s*)?[\w.]*\w\.tool\(.*"),
        re.compile(r"\.add_tool\(\s*(?!\w+\s*\))"),
        re.compile(r"\bTool\.from_function\("),
        re.compile(r"\bTool\(\s*name\s*="),
    ],
    "ts": [
        re.compile(r"\.registerTool\("),
        re.compile(r"\.tool\(\s*['\"`]"),
        re.compile(r"^\s*['\"]?\w+['\"]?\s*:\s*\w*[tT]ool\(\s*\{"),
        re.compile(r"\b\w*[tT]ool\(\s*\{\s*name\s*:"),
    ],
    "go": [
        re.compile(r"\bNewTool\(\s*\""),
        re.compile(r"(?<!\[\])\b(?:\w+\.)?Tool\{"),
    ],
}
_SUFFIX = {".py": "py", ".ts": "ts", ".mts": "ts", ".tsx": "ts", ".js": "ts", ".mjs": "ts", ".go": "go"}
_FROM_FUNCTION_VAR = re.compile(r"^\s*(\w+)\s*=\s*(?:\w+\.)?Tool\.from_function\(", re.M)
_ADD_TOOL_VAR = re.compile(r"\.add_tool\(\s*(\w+)\s*\)")


def source_files(repo: Path) -> list[Path]:
    out: list[Path] = []
    for folder, dirs, files in os.walk(repo):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS)
        out.extend(Path(folder) / f for f in sorted(files) if Path(f).suffix in _SUFFIX and not TEST_FILE.search(f))
    return out


def count_sites(repo: Path) -> Counter[str]:
    """Registration sites per file (absolute posix path), by the line patterns above."""
    sites: Counter[str] = Counter()
    for path in source_files(repo):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        patterns = SITE_PATTERNS[_SUFFIX[path.suffix]]
        n = sum(1 for line in text.splitlines() if any(p.search(line) for p in patterns))
        if path.suffix == ".py":  # `add_tool(var)` of a `var = Tool.from_function(...)` is that one site
            assigned = set(_FROM_FUNCTION_VAR.findall(text))
            n += sum(1 for var in _ADD_TOOL_VAR.findall(text) if var not in assigned)
        if n:
            sites[path.resolve().as_posix()] = n
    return sites


def real_tools(repo: Path, given: dict[str, Path]) -> tuple[list[dict[str, Any]], str] | None:
    if repo.name in given:
        path = given[repo.name]
    else:
        found = [p for p in sorted(CORPUS.glob("*.json"))
                 if str(json.loads(p.read_text()).get("source", {}).get("repo", "")).endswith("/" + repo.name)]
        if not found:
            return None
        path = found[0]
    data = json.loads(path.read_text())
    return (data["tools"] if isinstance(data, dict) else data), path.name


def measure(repo: Path, given: dict[str, Path]) -> dict[str, Any]:
    sites = count_sites(repo)
    start = time.perf_counter()
    toolset = extract_paths([repo])
    seconds = time.perf_counter() - start
    per_file: Counter[str] = Counter()
    for tool in toolset.tools:
        if tool.location is not None:
            per_file[Path(tool.location.file).resolve().as_posix()] += 1
    covered = sum(min(n, per_file[f]) for f, n in sites.items())
    row: dict[str, Any] = {
        "repo": repo.name,
        "sites": sum(sites.values()),
        "sites_extracted": covered,
        "sites_pct": round(100 * covered / max(1, sum(sites.values())), 1),
        "tools": len(toolset.tools),
        "tc090": sum(1 for f in toolset.load_findings if f.rule_id == "TC090"),
        "seconds": round(seconds, 2),
        "missed_files": sorted(
            (f"{Path(f).relative_to(repo.resolve())}", n, per_file[f]) for f, n in sites.items() if per_file[f] < n
        ),
    }
    real = real_tools(repo, given)
    if real is not None:
        tools, corpus_name = real
        listed: dict[str, list[dict[str, Any]]] = {}
        for tool in toolset.to_mcp():
            listed.setdefault(tool["name"], []).append(tool)
        names = [t["name"] for t in tools if t["name"] in listed]
        exact = [t["name"] for t in tools if any(_same(t, got) for got in listed.get(t["name"], []))]
        row.update({"real": corpus_name, "real_tools": len(tools), "name_matches": len(names),
                    "defined_twice": sorted(n for n, defs in listed.items() if len(defs) > 1),
                    "exact": len(exact), "exact_pct": round(100 * len(exact) / max(1, len(tools)), 1),
                    "not_exact": sorted(set(t["name"] for t in tools) - set(exact))})
    return row


def _same(real: dict[str, Any], got: dict[str, Any]) -> bool:
    return all(real.get(k) == got.get(k) for k in ("name", "description")) and \
        real.get("inputSchema", {"type": "object"}) == got.get("inputSchema", {"type": "object"})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("repos", nargs="*", type=Path)
    ap.add_argument("--real", action="append", default=[], metavar="DIR=TOOLS.json",
                    help="the real tools/list of the repository in folder DIR (by folder name)")
    ap.add_argument("--json", action="store_true", help="print every row as JSON, with the files missed")
    args = ap.parse_args()
    repos = args.repos or [Path(p) for p in os.environ.get("TOOLCHOICE_BENCH_REPOS", "").split(":") if p]
    if not repos:
        ap.error("give repository folders as arguments or in TOOLCHOICE_BENCH_REPOS")
    given = {Path(k).name: Path(v) for k, _, v in (item.partition("=") for item in args.real)}
    print(f"{'repo':28} {'sites':>6} {'found':>6} {'%':>6} {'tools':>6} {'exact':>11} {'TC090':>6} {'s':>6}")
    for repo in repos:
        row = measure(repo, given)
        if args.json:
            print(json.dumps(row))
            continue
        exact = f"{row['exact']}/{row['real_tools']}" if "real" in row else "-"
        print(f"{row['repo']:28} {row['sites']:>6} {row['sites_extracted']:>6} {row['sites_pct']:>6} "
              f"{row['tools']:>6} {exact:>11} {row['tc090']:>6} {row['seconds']:>6}")


if __name__ == "__main__":
    main()
