"""Characters no definition text may hold are refused at load, naming file, line, field and code point.

Every key and string of every tool of ../shared/corpora/servers gets a refused code point (rotating through
the list, so each code point meets thousands of fields); the load must fail with an InputError that names the
file, the line of the field and the field itself, and must not raise anything else.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import SHARED, shared_path

from app.audit.characters import character_problem, check_tool, field_name, shown
from app.audit.loader import load_definitions
from app.audit.models import LineRange, Location, Tool
from app.audit.suite.cases_file import load_cases
from app.errors import CasesError, DefinitionError, InputError

REFUSED = [
    "\ud800", "\udbff", "\udc00", "\udfff",  # lone surrogates, both halves, both ends
    "\x00", "\x01", "\x07", "\x0b", "\x1b", "\x7f", "\x85", "\x9f",  # NUL, C0, DEL, C1
    "\ufdd0", "\ufdef", "\ufffe", "\uffff", "\U0001fffe", "\U0010ffff",  # non-characters
]  # fmt: skip
# Whitespace and readable text, including the invisible characters TC501 reports as findings.
ALLOWED = ["\t", "\n", "\r", " ", "\u00a0", "\u200b", "\u202e", "\ufeff", "\ufffd", "é", "漢", "\U0001f600"]
SERVERS = sorted((SHARED / "corpora" / "servers").glob("*.json"))


def test_each_refused_code_point_is_named() -> None:
    for char in REFUSED:
        problem = character_problem(f"Get the {char}weather.")
        assert problem is not None and f"U+{ord(char):04X} at character 9" in problem, problem
    assert "lone surrogate" in (character_problem("\ud800") or "")
    assert "NUL" in (character_problem("\x00") or "")
    assert "non-character" in (character_problem("\ufffe") or "")
    assert "control character" in (character_problem("\x85") or "")


def test_whitespace_and_readable_text_pass() -> None:
    for char in ALLOWED:
        assert character_problem(f"Get the {char} weather.") is None, repr(char)


def test_shown_text_is_printable_whatever_it_held() -> None:
    text = shown("a\ud800b\x00c")
    assert text == "a\\ud800b\\u0000c"
    text.encode("utf-8")  # a lone surrogate could not be encoded
    assert field_name(("tools", 2, "inputSchema", "properties", "time zone")) == (
        "tools[2].inputSchema.properties['time zone']"
    )


def _places(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], bool]]:
    """(path, is_key) of every string value and every key under `node`."""
    if isinstance(node, str):
        yield path, False
    elif isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key), True
            yield from _places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _places(value, (*path, index))


def _planted(tool: dict[str, Any], path: tuple[Any, ...], is_key: bool, char: str) -> dict[str, Any]:
    copy = json.loads(json.dumps(tool))
    node = copy
    for part in path[:-1]:
        node = node[part]
    last = path[-1]
    if is_key:
        node[f"{last[:2]}{char}{last[2:]}"] = node.pop(last)
    else:
        value = node[last]
        node[last] = f"{value[:3]}{char}{value[3:]}"
    return copy


def _refusals(tools: list[dict[str, Any]], chars: list[str], *, every: bool) -> Iterator[tuple[str, str, str]]:
    """(file name, document text, the code point's U+ name) per planted field."""
    turn = 0
    for number, tool in enumerate(tools):
        for path, is_key in _places(tool):
            for char in chars if every else [chars[turn % len(chars)]]:
                turn += 1
                doc = {"tools": [_planted(tool, path, is_key, char)]}
                # Half the files spell the code point as an escape, half hold it raw (where JSON can).
                text = json.dumps(doc, indent=2, ensure_ascii=turn % 2 == 0 or "\ud800" <= char <= "\udfff")
                yield f"server-{number}.json", text, f"U+{ord(char):04X}"


def _all_tools() -> list[dict[str, Any]]:
    shared_path("corpora", "servers")
    return [tool for path in SERVERS for tool in json.loads(path.read_text(encoding="utf-8"))["tools"]]


def _assert_refused(name: str, text: str, code: str) -> None:
    with pytest.raises(DefinitionError) as caught:
        load_definitions(name, text=text)
    message = str(caught.value)
    assert re.match(rf"{re.escape(name)}:\d+: ", message), message
    assert code in message and ("tools[0]" in message), message
    message.encode("utf-8")
    line = caught.value.line
    assert line is not None and line <= text.count("\n") + 1


def test_every_field_of_every_real_tool_refuses_a_planted_code_point() -> None:
    tools = _all_tools()
    count = 0
    for name, text, code in _refusals(tools, REFUSED, every=False):
        _assert_refused(name, text, code)
        count += 1
    assert len(tools) >= 400 and count > 20_000


@pytest.mark.slow
def test_every_code_point_in_every_field_of_each_servers_first_tool() -> None:
    shared_path("corpora", "servers")
    firsts = [json.loads(path.read_text(encoding="utf-8"))["tools"][0] for path in SERVERS]
    for name, text, code in _refusals(firsts, REFUSED, every=True):
        _assert_refused(name, text, code)


def test_the_line_is_the_fields_line_and_the_field_is_named() -> None:
    tools = [{"name": "a", "description": "fine"}, {"name": "b", "description": "not \u0000 fine"}]
    text = json.dumps({"tools": tools}, indent=2)
    with pytest.raises(DefinitionError) as caught:
        load_definitions("defs.json", text=text)
    assert str(caught.value) == (
        "defs.json:9: tools[1].description holds NUL U+0000 at character 5; remove it or write it as visible text"
    )


def test_a_refused_key_is_named_as_a_key() -> None:
    text = '{"tools": [{"name": "a", "inputSchema": {"type": "object",\n "properties": {"ci\\udfffty": {}}}}]}'
    with pytest.raises(DefinitionError, match=r"^defs\.json:2: the key 'ci\\udfffty' of tools\[0\]\.inputSchema"):
        load_definitions("defs.json", text=text)


def test_yaml_escapes_are_refused_too() -> None:
    text = 'tools:\n  - name: ok\n    description: "a \\x07 bell"\n'
    with pytest.raises(DefinitionError, match=r"^defs\.yml:3: tools\[0\]\.description holds the control character"):
        load_definitions("defs.yml", text=text)


def test_cases_files_refuse_them_as_cases_errors() -> None:
    text = json.dumps({"cases": [{"request": "what time \ud800 is it", "expected_tool": "get_time"}]})
    with pytest.raises(CasesError, match=r"^cases\.json:1: cases\[0\]\.request holds a lone surrogate"):
        load_cases("cases.json", text=text)


def test_a_tool_read_from_source_is_refused_at_its_line() -> None:
    tool = Tool(
        name="get_weather",
        description="Weather \udc00 now.",
        location=Location(
            file="server.py", tool_lines=LineRange(start=4, end=9), description_lines=LineRange(start=6, end=6)
        ),
        input_schema={"type": "object", "properties": {"city": {"type": "string"}}},
    )
    with pytest.raises(InputError, match=r"^server\.py:6: tool 'get_weather' description holds a lone surrogate"):
        check_tool(tool, error=InputError)
    clean = tool.model_copy(update={"description": "Weather now."})
    check_tool(clean, error=InputError)
