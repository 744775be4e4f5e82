"""TypeScript/JavaScript tool classes: a base registers `this.name`, `this.description`...; each concrete subclass
(in this file or another, through intermediate bases) is one tool (small sources written here, never run)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.audit.models import ToolSet
from app.extract import extract_file, extract_paths

SDK_ZOD3 = json.dumps({"dependencies": {"@modelcontextprotocol/sdk": "^1.10.0", "zod": "^3.25.0"}})
DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def _write(folder: Path, files: dict[str, str]) -> None:
    (folder / "package.json").write_text(SDK_ZOD3, encoding="utf-8")
    for name, source in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")


def _tools(tools: ToolSet) -> list[dict[str, Any]]:
    return list(tools.to_mcp())


def _findings(tools: ToolSet) -> list[str]:
    return [f"{f.file}:{f.line} {f.message}" for f in tools.load_findings if f.rule_id == "TC090"]


# ---------------------------------------------------------------------------------------------------------------
# The legacy form: `server.tool(this.name, this.description, this.shape, this.hints, handler)`

KENNEL_BASE = """\
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export abstract class KennelTool {
    public abstract name: string;
    protected abstract description: string;
    protected abstract argsShape: Record<string, z.ZodTypeAny>;
    protected hints = { readOnlyHint: true };

    public register(server: McpServer): void {
        const run = async () => ({ content: [] });
        server.tool(this.name, this.description, this.argsShape, this.hints, run);
    }
}
"""

KENNEL_FAMILY = """\
import { z } from "zod";
import { KennelTool } from "../kennelTool.js";

export const KennelArgs = {
    kennel: z.string().describe("Which kennel"),
};

export abstract class DogTool extends KennelTool {
    protected species = "dog";
}
"""

KENNEL_WALK = """\
import { z } from "zod";
import { DogTool, KennelArgs } from "./dogTool.js";

const PREFIX = "kennel";

export class WalkDogTool extends DogTool {
    public name = `${PREFIX}-walk`;
    protected description = "Take a " + "dog for a walk";
    protected argsShape = {
        ...KennelArgs,
        minutes: z.number().describe("How long the walk lasts"),
    };
    protected hints = { readOnlyHint: false, destructiveHint: false };
}

export class FeedDogTool extends DogTool {
    public name = "kennel-feed";
    protected description = `Feed a ${"dog"}`;
    protected argsShape = { ...KennelArgs };
}
"""


def test_each_concrete_subclass_is_one_tool_with_fields_from_itself_then_its_bases(tmp_path: Path) -> None:
    _write(tmp_path, {"src/kennelTool.ts": KENNEL_BASE, "src/dogs/dogTool.ts": KENNEL_FAMILY,
                      "src/dogs/walk.ts": KENNEL_WALK})
    tools = extract_paths([tmp_path])
    kennel = {"type": "string", "description": "Which kennel"}
    assert _tools(tools) == [
        {
            "name": "kennel-walk",
            "description": "Take a dog for a walk",
            "inputSchema": {
                "type": "object",
                "properties": {"kennel": kennel,
                               "minutes": {"type": "number", "description": "How long the walk lasts"}},
                "required": ["kennel", "minutes"],
                "additionalProperties": False,
                "$schema": DRAFT_07,
            },
            "annotations": {"readOnlyHint": False, "destructiveHint": False},
        },
        {
            "name": "kennel-feed",
            "description": "Feed a dog",
            "inputSchema": {"type": "object", "properties": {"kennel": kennel}, "required": ["kennel"],
                            "additionalProperties": False, "$schema": DRAFT_07},
            "annotations": {"readOnlyHint": True},
        },
    ]
    # Located at each subclass's `name` field; the base's registration call is no missed site.
    lines = [(Path(t.location.file).name, t.location.tool_lines.start, t.location.name_lines.start)  # type: ignore
             for t in tools.tools]
    assert lines == [("walk.ts", 7, 7), ("walk.ts", 17, 17)]
    assert _findings(tools) == []


def test_a_subclass_in_the_same_file_as_its_base(tmp_path: Path) -> None:
    source = KENNEL_BASE + """
export class GroomTool extends KennelTool {
    public name = "kennel-groom";
    protected description = "Brush a pet";
    protected argsShape = {};
}
"""
    _write(tmp_path, {"groom.ts": source})
    tools = extract_file(tmp_path / "groom.ts", display_name="groom.ts")
    assert [(t["name"], t["description"], t["annotations"]) for t in _tools(tools)] == [
        ("kennel-groom", "Brush a pet", {"readOnlyHint": True})]


# ---------------------------------------------------------------------------------------------------------------
# The config form: `server.mcpServer.registerTool(this.name, { description: this.description, ... }, handler)`

GARDEN_BASE = """\
import { z } from "zod";

export abstract class GardenTool {
    public abstract name: string;
    protected abstract description: string;
    protected abstract argsShape: z.ZodRawShape;

    protected get annotations() {
        return { title: this.name, readOnlyHint: this.name.startsWith("look") };
    }

    register(server: { mcpServer: any }) {
        server.mcpServer.registerTool(
            this.name,
            { description: this.description, inputSchema: this.argsShape, annotations: this.annotations },
            async () => ({ content: [] }),
        );
    }
}
"""

GARDEN_TOOLS = """\
import { z } from "zod";
import { GardenTool } from "./gardenTool.js";

export class WaterTool extends GardenTool {
    name = "garden-water";
    description = "Water one bed of the garden";
    argsShape = { bed: z.number().int() };
}

export class UnfinishedTool extends GardenTool {
    description = "No name: never registered on its own";
    argsShape = {};
}

export abstract class PlantTool extends GardenTool {
    name = "garden-plant";
}

export class HelperOfNoTool {
    name = "not-a-tool";
}
"""


def test_a_getter_is_a_finding_and_classes_without_a_name_or_abstract_give_no_tool(tmp_path: Path) -> None:
    _write(tmp_path, {"gardenTool.ts": GARDEN_BASE, "tools.ts": GARDEN_TOOLS})
    tools = extract_file(tmp_path / "tools.ts", display_name="tools.ts")
    assert _tools(tools) == [{
        "name": "garden-water",
        "description": "Water one bed of the garden",
        "inputSchema": {"type": "object", "properties": {"bed": {"type": "integer"}}, "required": ["bed"],
                        "additionalProperties": False, "$schema": DRAFT_07},
    }]
    (finding,) = _findings(tools)
    assert finding.startswith("tools.ts:")
    assert "`annotations` of tool `garden-water`" in finding


def test_the_base_file_alone_gives_no_tool_and_no_finding(tmp_path: Path) -> None:
    _write(tmp_path, {"gardenTool.ts": GARDEN_BASE})
    tools = extract_paths([tmp_path])
    assert _tools(tools) == []
    assert _findings(tools) == []


def test_a_name_known_only_at_run_time_is_a_finding(tmp_path: Path) -> None:
    source = """\
import { GardenTool } from "./gardenTool.js";

export class PruneTool extends GardenTool {
    name = process.env.PRUNE_NAME ?? "prune";
    description = "Prune the hedges";
    argsShape = {};
}
"""
    _write(tmp_path, {"gardenTool.ts": GARDEN_BASE, "prune.ts": source})
    tools = extract_file(tmp_path / "prune.ts", display_name="prune.ts")
    assert _tools(tools) == []
    (finding,) = _findings(tools)
    assert "the name of tool class `PruneTool`" in finding


def test_a_description_from_a_method_is_a_finding(tmp_path: Path) -> None:
    source = KENNEL_BASE + """
export class CountTool extends KennelTool {
    name = "kennel-count";
    description = this.describe();
    argsShape = {};
    describe() { return "Count the dogs"; }
}
"""
    _write(tmp_path, {"count.ts": source})
    tools = extract_file(tmp_path / "count.ts", display_name="count.ts")
    assert [t["name"] for t in _tools(tools)] == ["kennel-count"]
    assert "description" not in _tools(tools)[0]
    assert any("`kennel-count`" in f for f in _findings(tools))


# ---------------------------------------------------------------------------------------------------------------
# JavaScript: class fields without types

def test_javascript_tool_classes(tmp_path: Path) -> None:
    base = """\
import { z } from "zod";

export class ShelfTool {
  register(server) {
    server.tool(this.name, this.description, this.argsShape, async () => ({ content: [] }));
  }
}
"""
    tools_source = """\
import { z } from "zod";
import { ShelfTool } from "./shelfTool.js";

export class DustTool extends ShelfTool {
  name = "shelf-dust";
  description = "Dust one shelf";
  argsShape = { shelf: z.string() };
}
"""
    _write(tmp_path, {"shelfTool.js": base, "dust.js": tools_source})
    tools = extract_file(tmp_path / "dust.js", display_name="dust.js")
    assert [(t["name"], t["description"], sorted(t["inputSchema"]["properties"])) for t in _tools(tools)] == [
        ("shelf-dust", "Dust one shelf", ["shelf"])]


def test_a_base_first_reached_through_a_long_import_chain_is_read_again_when_imported_directly(
    tmp_path: Path,
) -> None:
    # `entry.ts` reaches `middle.ts` three imports deep, where its own imports are no longer followed; `pond.ts`
    # imports it directly, and then sees the registering base that `middle.ts` imports.
    _write(tmp_path, {
        "kennelTool.ts": KENNEL_BASE,
        "middle.ts": 'import { KennelTool } from "./kennelTool.js";\n'
                     "export abstract class PondTool extends KennelTool {}\n",
        "hop2.ts": 'import { PondTool } from "./middle.js";\nexport const TWO = 2;\n',
        "hop1.ts": 'import { TWO } from "./hop2.js";\nexport const ONE = TWO - 1;\n',
        "entry.ts": 'import { ONE } from "./hop1.js";\nexport const ZERO = ONE - 1;\n',
        "pond.ts": """\
import { PondTool } from "./middle.js";

export class SkimTool extends PondTool {
    name = "pond-skim";
    description = "Skim leaves off the pond";
    argsShape = {};
}
""",
    })
    tools = extract_paths([tmp_path])
    assert [t["name"] for t in _tools(tools)] == ["pond-skim"]
