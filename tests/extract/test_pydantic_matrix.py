"""Python type hints read from source give the schema pydantic itself generates for them.

Each row is written twice: as source text (read statically by the extractor) and as the same annotation built
here (handed to pydantic). The expected property comes from pydantic, not from ToolChoice.
"""

from __future__ import annotations

import datetime
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union

import pytest
from pydantic import AnyUrl, Field, create_model

from app.extract import extract_file

_REQUIRED = ...


class Color(str, Enum):  # noqa: UP042 - the way servers write it
    RED = "red"
    BLUE = "blue"


# (annotation and default as source text, annotation object, default)
MATRIX: list[tuple[str, Any, Any]] = [
    ("str", str, _REQUIRED),
    ("int = 3", int, 3),
    ("float", float, _REQUIRED),
    ("bool = False", bool, False),
    ("list[str]", list[str], _REQUIRED),
    ("list[int] | None = None", Optional[list[int]], None),  # noqa: UP045
    ("Optional[str] = None", Optional[str], None),  # noqa: UP045
    ("dict[str, Any]", dict[str, Any], _REQUIRED),
    ("dict[str, int]", dict[str, int], _REQUIRED),
    ("set[str]", set[str], _REQUIRED),
    ("tuple[str, ...]", tuple[str, ...], _REQUIRED),
    ("Literal['a', 'b'] = 'a'", Literal["a", "b"], "a"),
    ("Literal[1, 2]", Literal[1, 2], _REQUIRED),
    ("Literal['only']", Literal["only"], _REQUIRED),
    ("Union[int, str]", Union[int, str], _REQUIRED),  # noqa: UP007
    ("str | int | None = None", Union[str, int, None], None),  # noqa: UP007
    ("Any", Any, _REQUIRED),
    ("datetime.datetime", datetime.datetime, _REQUIRED),
    ("datetime.date", datetime.date, _REQUIRED),
    ("AnyUrl", AnyUrl, _REQUIRED),
    ("Color = Color.RED", Color, Color.RED),
    ("Annotated[str, Field(description='d', min_length=2, max_length=9)]",
     Annotated[str, Field(description="d", min_length=2, max_length=9)], _REQUIRED),
    ("Annotated[int, Field(ge=1, le=10, description='n')] = 5", Annotated[int, Field(ge=1, le=10, description="n")], 5),
    ("Annotated[float, Field(gt=0, lt=1)]", Annotated[float, Field(gt=0, lt=1)], _REQUIRED),
    ("Annotated[list[str], Field(min_length=1, description='xs')]",
     Annotated[list[str], Field(min_length=1, description="xs")], _REQUIRED),
    ("Annotated[Optional[int], Field(ge=0, description='maybe')] = None",
     Annotated[Optional[int], Field(ge=0, description="maybe")], None),  # noqa: UP045
    ("Annotated[str, Field(pattern=r'^[A-Z]+$')]", Annotated[str, Field(pattern=r"^[A-Z]+$")], _REQUIRED),
    ("str = Field(default='x', description='with default')", str, Field(default="x", description="with default")),
    ("list[str] = Field(default_factory=list, description='factory')", list[str],
     Field(default_factory=list, description="factory")),
    ("Annotated[str, Field(title='Custom', examples=['a'])] = 'a'",
     Annotated[str, Field(title="Custom", examples=["a"])], "a"),
]

HEADER = """import datetime
from enum import Enum
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import AnyUrl, Field
{fastmcp_import}


class Color(str, Enum):
    RED = "red"
    BLUE = "blue"


mcp = FastMCP("matrix")


@mcp.tool()
def matrix(
    *,
{params}
) -> None:
    \"\"\"Every row of the matrix as one parameter.\"\"\"
"""


def _source(fastmcp_import: str) -> str:
    params = "\n".join(f"    p{i}: {text}," for i, (text, _a, _d) in enumerate(MATRIX))
    return HEADER.format(fastmcp_import=fastmcp_import, params=params)


def _pydantic_schema(*, dereference: bool) -> dict[str, Any]:
    """pydantic's schema of the matrix; FastMCP's view inlines `$defs` and prunes titles, the SDK's keeps both."""
    fields = {f"p{i}": (annotation, default) for i, (_t, annotation, default) in enumerate(MATRIX)}
    model = create_model("Matrix", **fields)  # type: ignore[call-overload]
    schema = model.model_json_schema()
    if not dereference:
        return schema
    defs = schema.pop("$defs", {})
    schema["properties"] = {name: _inline(prop, defs) for name, prop in schema["properties"].items()}
    return schema


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """Inline `$ref`s (FastMCP dereferences) and drop titles (FastMCP prunes them)."""
    if isinstance(node, list):
        return [_inline(n, defs) for n in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        return _inline({**target, **{k: v for k, v in node.items() if k != "$ref"}}, defs)
    return {
        key: value if key in {"default", "enum", "const", "examples"} else _inline(value, defs)
        for key, value in node.items()
        if key != "title"
    }


@pytest.mark.parametrize("flavour", ["fastmcp", "sdk"])
def test_every_row_matches_pydantic(tmp_path: Path, flavour: str) -> None:
    header = "from fastmcp import FastMCP" if flavour == "fastmcp" else "from mcp.server.fastmcp import FastMCP"
    source = tmp_path / "matrix.py"
    source.write_text(_source(header))
    tools = extract_file(source)
    assert tools.load_findings == []
    schema = tools.tools[0].input_schema
    expected = _pydantic_schema(dereference=flavour == "fastmcp")
    differences = {
        f"p{i} `{MATRIX[i][0]}`": (expected["properties"][f"p{i}"], schema["properties"].get(f"p{i}"))
        for i in range(len(MATRIX))
        if expected["properties"][f"p{i}"] != schema["properties"].get(f"p{i}")
    }
    assert differences == {}
    assert schema.get("required", []) == expected.get("required", [])
    assert schema.get("$defs") == expected.get("$defs")
