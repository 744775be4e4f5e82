"""The versioned JSON export of an audit or a comparison (schema: app/schemas/export.schema.json).

Top level: `schema_version` ("toolchoice.export/1"), `kind` ("audit" | "comparison"), `mode`
("synthetic" | "live_model"), `provenance` (scored and exploratory case counts by label),
`suite_hash`, `selector` (name, profile hash, settings), then `report` (an audit) or `comparison`.
The JSON is stable: sorted keys, no timestamps; the same audit gives the same bytes.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from app.audit.results import AuditReport, Comparison

SCHEMA_VERSION = "toolchoice.export/1"


class Export(BaseModel):
    schema_version: str = SCHEMA_VERSION
    kind: str
    mode: str
    provenance: dict[str, dict[str, int]]
    suite_hash: str
    selector: dict[str, Any]
    report: AuditReport | None = None
    comparison: Comparison | None = None


def to_export(result: AuditReport | Comparison) -> Export:
    head = result.head if isinstance(result, Comparison) else result
    return Export(
        kind="comparison" if isinstance(result, Comparison) else "audit",
        mode=head.mode.value,
        provenance=head.provenance.model_dump(),
        suite_hash=head.suite_hash,
        selector=head.selector.model_dump(mode="json"),
        report=result if isinstance(result, AuditReport) else None,
        comparison=result if isinstance(result, Comparison) else None,
    )


def export_json(result: AuditReport | Comparison, *, indent: int | None = 2) -> str:
    data = to_export(result).model_dump(mode="json", by_alias=True)
    return json.dumps(data, indent=indent, sort_keys=True, ensure_ascii=False) + "\n"


def export_schema() -> dict[str, Any]:
    """The JSON Schema of the export, generated from the models (the shipped file is kept equal by a test)."""
    return Export.model_json_schema(mode="serialization", by_alias=True)


def load_export(text: str) -> Export:
    """Read an export back (for `toolchoice report` and the report page)."""
    return Export.model_validate_json(text)
