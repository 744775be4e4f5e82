"""Benchmark: static extraction from generated source.

Run by hand: `python bench/bench_extract.py [--repeat 5]`.
1. One 5,000-line source file per kind (Python FastMCP decorators, Python low-level `Tool(...)` literals,
   TypeScript registerTool + zod, Go mcp-go NewTool, Go go-sdk `mcp.Tool` literals with local schema variables),
   mostly tool definitions with some ordinary code between
   them: time of `extract_file`.
2. A generated repository of 500 source files (Python, TypeScript, Go, mixed with tests and vendored code the
   globs leave out) plus 100 data files: time of `extract_paths` with the config's globs.
Prints one JSON line per measurement (best and median of --repeat runs, tools found).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.extract import extract_file, extract_paths  # noqa: E402

GLOBS = ["src/**/*.py", "src/**/*.ts", "pkg/**/*.go"]


def python_tool(i: int) -> str:
    return f'''
@mcp.tool(tags={{"group{i % 7}", "read"}}, annotations={{"title": "Get item {i}", "readOnlyHint": True}})
async def get_item_{i}(
    ctx: Context,
    item_id: Annotated[str, Field(description="Identifier of item {i}, e.g. 'IT-{i}'.")],
    limit: Annotated[int, Field(description="Maximum results.", ge=1, le=100)] = 10,
    mode: Literal["fast", "full"] = "fast",
    tags: Annotated[list[str] | None, Field(description="Only items with these tags.")] = None,
) -> str:
    """Fetch item {i} with its fields.

    Args:
        item_id: The id.
    """
    result = await ctx.fetch(item_id, limit=limit, mode=mode)
    return str(result)
'''


def python_literal(i: int) -> str:
    return f'''
def tools_{i}() -> list[Tool]:
    return [
        Tool(
            name="get_item_{i}",
            description="Fetch item {i} with its fields.",
            inputSchema={{
                "type": "object",
                "properties": {{
                    "item_id": {{"type": "string", "description": "Identifier of item {i}"}},
                    "limit": {{"type": "integer", "minimum": 1, "maximum": 100}},
                }},
                "required": ["item_id"],
            }},
            annotations=ToolAnnotations(readOnlyHint=True),
        ),
    ]
'''


def ts_tool(i: int) -> str:
    return f'''
server.registerTool(
  "get_item_{i}",
  {{
    title: "Get item {i}",
    description: "Fetch item {i} with its fields. " + HINT,
    inputSchema: {{
      itemId: z.string().describe("Identifier of item {i}"),
      limit: z.number().int().min(1).max(100).default(10).describe("Maximum results"),
      mode: z.enum(["fast", "full"]).optional(),
    }},
    annotations: {{ readOnlyHint: true }},
  }},
  async ({{ itemId }}) => {{
    const data = await fetchItem(itemId);
    return {{ content: [{{ type: "text", text: JSON.stringify(data) }}] }};
  }}
);
'''


def go_tool(i: int) -> str:
    return f'''
func GetItem{i}(t translations.TranslationHelperFunc) (mcp.Tool, server.ToolHandlerFunc) {{
	return mcp.NewTool("get_item_{i}",
			mcp.WithDescription(t("TOOL_GET_ITEM_{i}", "Fetch item {i} with its fields.")),
			mcp.WithString("item_id", mcp.Required(), mcp.Description("Identifier of item {i}")),
			mcp.WithNumber("limit", mcp.Description("Maximum results"), mcp.Min(1), mcp.Max(100)),
		),
		func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {{
			return nil, nil
		}}
}}
'''


def go_sdk_tool(i: int) -> str:
    return f'''
func GetItem{i}(t translations.TranslationHelperFunc) mcp.Tool {{
	schema := &jsonschema.Schema{{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{{
			"item_id": {{Type: "string", Description: "Identifier of item {i}"}},
			"limit":   {{Type: "number", Description: "Maximum results", Minimum: jsonschema.Ptr(1.0)}},
		}},
		Required: []string{{"item_id"}},
	}}
	return mcp.Tool{{
		Name:        "get_item_{i}",
		Description: t("TOOL_GET_ITEM_{i}", "Fetch item {i} with its fields."),
		Annotations: &mcp.ToolAnnotations{{Title: "Get item {i}", ReadOnlyHint: true}},
		InputSchema: schema,
	}}
}}
'''


HEADERS = {
    "python": "from typing import Annotated, Literal\nfrom fastmcp import Context, FastMCP\n"
              "from pydantic import Field\nmcp = FastMCP(name='bench')\n",
    "python-lowlevel": "from mcp.types import Tool, ToolAnnotations\n",
    "typescript": 'import { z } from "zod";\nconst HINT = "Read only.";\n',
    "go": "package bench\n\nimport \"github.com/mark3labs/mcp-go/mcp\"\n",
    "go-sdk": "package bench\n\nimport \"github.com/modelcontextprotocol/go-sdk/mcp\"\n",
}
TOOLS: dict[str, Callable[[int], str]] = {
    "python": python_tool, "python-lowlevel": python_literal, "typescript": ts_tool, "go": go_tool,
    "go-sdk": go_sdk_tool,
}
FILLER = {
    "go-sdk": "\nfunc helper{i}(values []int) int {{\n\treturn len(values) * {i}\n}}\n",
    "python-lowlevel": "\n\ndef helper_{i}(values):\n    return sum(v * {i} for v in values)\n",
    "python": "\n\ndef helper_{i}(values):\n    total = 0\n    for v in values:\n        total += v * {i}\n"
              "    return total\n",
    "typescript": "\nfunction helper{i}(values: number[]): number {{\n"
                  "  return values.reduce((a, b) => a + b * {i}, 0);\n}}\n",
    "go": "\nfunc helper{i}(values []int) int {{\n\ttotal := 0\n\tfor _, v := range values {{\n\t\ttotal += v * {i}\n"
          "\t}}\n\treturn total\n}}\n",
}
SUFFIX = {"python": ".py", "python-lowlevel": ".py", "typescript": ".ts", "go": ".go", "go-sdk": ".go"}


def source(language: str, *, lines: int) -> str:
    parts = [HEADERS[language]]
    i = 0
    while sum(p.count("\n") for p in parts) < lines:
        parts.append(TOOLS[language](i))
        if i % 2 == 0:
            parts.append(FILLER[language].format(i=i))
        i += 1
    return "".join(parts)


def timed(fn: Callable[[], int], repeat: int) -> dict[str, float | int]:
    times, found = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        found = fn()
        times.append(time.perf_counter() - start)
    return {"best_s": round(min(times), 4), "median_s": round(statistics.median(times), 4), "tools": found}


def build_repo(folder: Path) -> None:
    """500 source files: 300 under the globs, 200 outside them (tests, vendored, other folders); 100 data files."""
    layout = [("src/app", "python", 120), ("src/web", "typescript", 100), ("pkg/tools", "go", 80),
              ("tests", "python", 80), ("vendor_copy/lib", "typescript", 60), ("scripts", "go", 60)]
    for base, language, count in layout:
        for n in range(count):
            target = folder / base / f"part{n // 20}" / f"module_{n}{SUFFIX[language]}"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(source(language, lines=120))
    for n in range(100):
        (folder / "data" / f"tools_{n}.json").parent.mkdir(parents=True, exist_ok=True)
        (folder / "data" / f"tools_{n}.json").write_text('{"tools": []}')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for language in ("python", "python-lowlevel", "typescript", "go", "go-sdk"):
            path = folder / f"big_{language}{SUFFIX[language]}"
            path.write_text(source(language, lines=5000))
            line_count = path.read_text().count("\n")
            result = timed(lambda p=path: len(extract_file(p).tools), args.repeat)
            print(json.dumps({"case": f"one {language} file", "lines": line_count, **result}))
        repo = folder / "repo"
        build_repo(repo)
        files = sum(1 for p in repo.rglob("*") if p.is_file())
        result = timed(lambda: len(extract_paths([repo], root=repo, globs=GLOBS).tools), args.repeat)
        print(json.dumps({"case": "repository, globs", "files": files, "globs": GLOBS, **result}))
        result = timed(lambda: len(extract_paths([repo]).tools), args.repeat)
        print(json.dumps({"case": "repository, no globs (all source files)", "files": files, **result}))


if __name__ == "__main__":
    main()
