"""General Python mechanisms, each on small sources written here: tool classes, handler aliases and wrappers,
settings defaults, the server library of an imported server object, and docstrings as each library sends them."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.extract import extract_paths
from app.extract.python.docstrings import DocStyle, compiled_docstring, doc_style
from app.extract.python.project import strips_docstrings
from tests.extract.py_sources import listed, messages, write_sources

_write, _tool, _messages = write_sources, listed, messages


# -- 1. tool classes ------------------------------------------------------------------------------------------
HANDLER_BASE = '''
from mcp.types import Tool


class PlantHandler:
    def __init__(self, name: str):
        self.name = name
'''

HANDLERS = '''
from mcp.types import Tool

from .base import PlantHandler

WATER_TEXT = "Water one plant of the greenhouse."


class WaterPlant(PlantHandler):
    def __init__(self):
        super().__init__("water_plant")

    def get_tool_description(self) -> Tool:
        return Tool(name=self.name, description=WATER_TEXT,
                    inputSchema={"type": "object", "properties": {"litres": {"type": "number"}}})


class PrunePlant(PlantHandler):
    def __init__(self, name: str = "prune_plant"):
        super().__init__(name)

    def get_tool_description(self) -> Tool:
        return Tool(name=self.name, description="Cut back one plant.", inputSchema={"type": "object"})
'''


def test_a_tool_class_named_by_its_init_arguments_through_a_base_of_another_module(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": HANDLER_BASE, "pkg/handlers.py": HANDLERS})
    tools = extract_paths([folder])
    assert [t.name for t in tools.tools] == ["water_plant", "prune_plant"]
    assert _tool(tools, "water_plant")["description"] == "Water one plant of the greenhouse."
    water = next(t for t in tools.tools if t.name == "water_plant")
    assert water.location is not None and water.location.name_lines is not None
    line = (folder / "pkg/handlers.py").read_text().splitlines()[water.location.name_lines.start - 1]
    assert '"water_plant"' in line
    assert tools.load_findings == []


ATTRIBUTE_TOOLS = '''
from mcp.types import Tool


class KitchenTool:
    name: str
    description: str
    schema: dict = {"type": "object"}

    def to_tool(self) -> Tool:
        return Tool(name=self.name, description=self.description, inputSchema=self.schema)


class BoilKettle(KitchenTool):
    name = "boil_kettle"
    description = "Boil the kettle once."


class ListSpices(KitchenTool):
    name = "list_spices"

    @property
    def description(self) -> str:
        return "Every spice on the rack."
'''


def test_class_attributes_read_by_a_base_method_give_one_tool_per_subclass(tmp_path: Path) -> None:
    tools = extract_paths([_write(tmp_path, {"kitchen.py": ATTRIBUTE_TOOLS})])
    assert [(t.name, t.description) for t in tools.tools] == [
        ("boil_kettle", "Boil the kettle once."), ("list_spices", "Every spice on the rack.")]
    assert tools.load_findings == []


def test_subclasses_in_another_file_inherit_the_tool_building_method(tmp_path: Path) -> None:
    base = ATTRIBUTE_TOOLS.split("class BoilKettle")[0]
    subclasses = '''
        from .base import KitchenTool


        class ChopOnion(KitchenTool):
            name = "chop_onion"
            description = "Chop one onion finely."
    '''
    folder = _write(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": base, "pkg/chop.py": subclasses})
    tools = extract_paths([folder])
    assert [(t.name, t.description) for t in tools.tools] == [("chop_onion", "Chop one onion finely.")]
    [chop] = tools.tools
    assert chop.location is not None and chop.location.file.endswith("chop.py")


def test_a_name_given_only_where_the_class_is_built_is_a_finding(tmp_path: Path) -> None:
    source = '''
        from mcp.types import Tool


        class Lamp:
            def __init__(self, label: str):
                self.label = label

            def tool(self) -> Tool:
                return Tool(name=self.label, description="Switch a lamp.", inputSchema={"type": "object"})
    '''
    tools = extract_paths([_write(tmp_path, {"lamps.py": source})])
    assert tools.tools == []
    [message] = _messages(tools)
    assert "`label` is passed to `Lamp(...)` where it is built" in message


# -- 2. aliases, wrappers, settings ------------------------------------------------------------------------------
SETTINGS_SERVER = '''
from mcp.server.fastmcp import FastMCP
from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    search_text: str = "Search the recipe box by words."


settings = Settings()


class RecipeServer(FastMCP):
    def __init__(self) -> None:
        super().__init__("recipes")
        search_alias = self.search
        self.tool(search_alias, name="search_recipes", description=settings.search_text)

    def search(self, words: str) -> list[str]:
        """Find recipes."""
        return []
'''


def test_a_local_alias_of_a_method_and_a_settings_default(tmp_path: Path) -> None:
    tools = extract_paths([_write(tmp_path, {".python-version": "3.12\n", "recipes.py": SETTINGS_SERVER})])
    [tool] = tools.tools
    assert tool.name == "search_recipes" and tool.description == "Search the recipe box by words."
    assert list(tool.properties) == ["words"]
    [message] = _messages(tools)
    assert "settings field `Settings.search_text`" in message and "environment variable" in message


WRAPPED = '''
import functools

from fastmcp import FastMCP

from timing import timed

mcp = FastMCP("garden")
RAKE_TEXT = "Rake the leaves of one bed."


def logged(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        return fn(*args, **kwargs)
    return inner


def rake(bed: str) -> str:
    return bed


def sweep(path: str) -> str:
    """Sweep a path."""
    return path


def setup() -> None:
    handler = logged(rake)
    mcp.tool(name="rake_bed", description=RAKE_TEXT)(handler)
    other = timed(sweep)
    mcp.tool(name="sweep_path")(other)
'''


def test_a_handler_through_a_wrapper_keeps_the_wrapped_functions_parameters(tmp_path: Path) -> None:
    tools = extract_paths([_write(tmp_path, {"garden.py": WRAPPED})])
    assert [(t.name, t.description, list(t.properties)) for t in tools.tools] == [
        ("rake_bed", "Rake the leaves of one bed.", ["bed"]), ("sweep_path", "Sweep a path.", ["path"])]
    [finding] = tools.load_findings
    assert finding.tool == "sweep_path" and "`timed(sweep)` wraps the handler" in finding.message


def test_a_class_attribute_as_description(tmp_path: Path) -> None:
    source = '''
        from fastmcp import FastMCP

        mcp = FastMCP("shed")


        class Texts:
            OIL: str = "Oil the hinges of the shed door."


        @mcp.tool(description=Texts.OIL)
        def oil_hinges() -> str:
            return ""
    '''
    tools = extract_paths([_write(tmp_path, {"shed.py": source})])
    assert [t.description for t in tools.tools] == ["Oil the hinges of the shed door."]


# -- 3. the library of an imported server object ------------------------------------------------------------------
TOOLS_MODULE = '''
from .server import mcp


@mcp.tool()
def count_bees(hive: str) -> int:
    """Count the bees of one hive."""
    return 0
'''


@pytest.mark.parametrize(("server", "sdk"), [
    ("from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('hives')\n", True),
    ("from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer('hives')\n", True),
    ("from fastmcp import FastMCP\n\nmcp = FastMCP('hives')\n", False),
])
def test_the_library_is_that_of_the_module_building_the_server(tmp_path: Path, server: str, sdk: bool) -> None:
    folder = _write(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": server, "pkg/tools.py": TOOLS_MODULE})
    [tool] = extract_paths([folder / "pkg" / "tools.py"]).tools
    assert (tool.input_schema.get("title") == "count_beesArguments") is sdk
    assert ("additionalProperties" in tool.input_schema) is not sdk


def test_the_library_is_followed_through_a_package_reexport(tmp_path: Path) -> None:
    folder = _write(tmp_path, {
        "pkg/__init__.py": "from .app import mcp\n",
        "pkg/app.py": "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('hives')\n",
        "pkg/tools/__init__.py": "",
        "pkg/tools/bees.py": TOOLS_MODULE.replace("from .server import mcp", "from pkg import mcp"),
    })
    [tool] = extract_paths([folder / "pkg" / "tools" / "bees.py"]).tools
    assert tool.input_schema.get("title") == "count_beesArguments"


# -- 4. docstrings as each library sends them --------------------------------------------------------------------
DOCUMENTED = '''
{imports}

mcp = FastMCP("tides")


@mcp.tool()
def high_tide(harbour: str) -> str:
    """Tell when the next high tide comes.

    Args:
        harbour: Name of the harbour.
    """
    return ""
'''
RAW = "Tell when the next high tide comes.\n\n    Args:\n        harbour: Name of the harbour.\n    "
STRIPPED = "Tell when the next high tide comes.\n\nArgs:\n    harbour: Name of the harbour.\n"
CLEANED = "Tell when the next high tide comes.\n\nArgs:\n    harbour: Name of the harbour."
SDK = "from mcp.server.fastmcp import FastMCP"
STANDALONE = "from fastmcp import FastMCP"


def _lock(version: str) -> str:
    return f'version = 1\n\n[[package]]\nname = "fastmcp"\nversion = "{version}"\n'


@pytest.mark.parametrize(("imports", "project", "description", "parameter"), [
    (SDK, {".python-version": "3.12\n"}, RAW, None),
    (SDK, {".python-version": "3.13.1\n"}, STRIPPED, None),
    (SDK, {"pyproject.toml": '[project]\nrequires-python = ">=3.11,<3.13"\n'}, RAW, None),
    (SDK, {"pyproject.toml": '[project]\nrequires-python = ">=3.13"\n'}, STRIPPED, None),
    (STANDALONE, {".python-version": "3.12\n", "uv.lock": _lock("2.8.1")}, RAW, None),
    (STANDALONE, {".python-version": "3.12\n", "uv.lock": _lock("2.12.0")}, CLEANED, None),
    (STANDALONE, {"uv.lock": _lock("3.1.0")}, CLEANED, None),
    (STANDALONE, {"uv.lock": _lock("3.3.0")}, "Tell when the next high tide comes.", "Name of the harbour."),
    (STANDALONE, {"requirements.txt": "fastmcp>=2.3,<3\n"}, CLEANED, None),
])
def test_a_docstring_is_sent_as_the_library_and_python_send_it(
        tmp_path: Path, imports: str, project: dict[str, str], description: str, parameter: str | None) -> None:
    folder = _write(tmp_path, {**project, "tides.py": DOCUMENTED.format(imports=imports)})
    tools = extract_paths([folder / "tides.py"])
    [tool] = tools.tools
    assert tool.description == description
    assert tool.properties["harbour"].get("description") == parameter
    assert tools.load_findings == []


def test_an_unknown_python_shows_the_stripped_docstring_and_says_so(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"pyproject.toml": '[project]\nrequires-python = ">=3.10"\n',
                               "tides.py": DOCUMENTED.format(imports=SDK)})
    tools = extract_paths([folder / "tides.py"])
    assert tools.tools[0].description == STRIPPED
    [finding] = tools.load_findings
    assert finding.tool == "high_tide" and finding.line == 8 and "Python 3.13+ strips" in finding.message


def test_a_one_line_docstring_needs_no_python_version(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"tides.py": DOCUMENTED.format(imports=SDK).replace(
        '"""Tell when the next high tide comes.\n\n    Args:\n        harbour: Name of the harbour.\n    """',
        '"""Tell when the next high tide comes."""')})
    tools = extract_paths([folder / "tides.py"])
    assert tools.tools[0].description == "Tell when the next high tide comes." and tools.load_findings == []


def test_compiled_docstring_matches_python_313() -> None:
    # What CPython 3.13 keeps in __doc__ (checked against its interpreter when this was written).
    raw = "  First.\n\n        Deeper.\n\tTabbed.\n    \n    Args:\n        a: thing\n      "
    assert compiled_docstring(raw) == "First.\n\n    Deeper.\n    Tabbed.\n\nArgs:\n    a: thing\n  "
    assert compiled_docstring("\n    Second line.\n    More.") == "\nSecond line.\nMore."


def test_the_docstring_style_per_library_and_version() -> None:
    assert doc_style(sdk=True, fastmcp_major=3, fastmcp_version=None) is DocStyle.RAW
    assert doc_style(sdk=False, fastmcp_major=1, fastmcp_version=None) is DocStyle.RAW
    assert doc_style(sdk=False, fastmcp_major=2, fastmcp_version=(2, 8, 1)) is DocStyle.RAW
    assert doc_style(sdk=False, fastmcp_major=2, fastmcp_version=None) is DocStyle.GETDOC
    assert doc_style(sdk=False, fastmcp_major=3, fastmcp_version=(3, 2, 3)) is DocStyle.GETDOC
    assert doc_style(sdk=False, fastmcp_major=3, fastmcp_version=None) is DocStyle.PARSED


def test_the_nearest_project_root_decides_the_python(tmp_path: Path) -> None:
    _write(tmp_path, {"pyproject.toml": '[project]\nrequires-python = ">=3.13"\n',
                      "inner/pyproject.toml": '[project]\nname = "x"\n', "inner/a.py": "", "b.py": ""})
    assert strips_docstrings(tmp_path / "inner" / "a.py") is None  # the inner project does not say
    assert strips_docstrings(tmp_path / "b.py") is True


def test_a_subclass_overriding_the_tool_method_is_read_from_its_override_only(tmp_path: Path) -> None:
    source = ATTRIBUTE_TOOLS + '''

class GrindPepper(KitchenTool):
    name = "grind_pepper"
    description = "Grind pepper."

    def to_tool(self) -> Tool:
        return Tool(name="grind_pepper_coarse", description=self.description, inputSchema=self.schema)
'''
    tools = extract_paths([_write(tmp_path, {"kitchen.py": source})])
    assert [t.name for t in tools.tools] == ["boil_kettle", "list_spices", "grind_pepper_coarse"]


def test_a_value_set_under_a_condition_in_init_is_a_finding(tmp_path: Path) -> None:
    source = '''
        from mcp.types import Tool


        class Heater:
            def __init__(self, loud: bool = False):
                self.name = "warm_room"
                if loud:
                    self.name = "warm_room_loudly"

            def tool(self) -> Tool:
                return Tool(name=self.name, description="Warm a room.", inputSchema={"type": "object"})
    '''
    tools = extract_paths([_write(tmp_path, {"heat.py": source})])
    assert tools.tools == []
    [message] = _messages(tools)
    assert "`self.name` is set under a condition in `Heater.__init__` (line 8)" in message


def test_a_handler_assigned_several_times_is_a_finding_naming_the_lines(tmp_path: Path) -> None:
    source = '''
        from fastmcp import FastMCP

        mcp = FastMCP("pond")


        def feed(fish: str) -> str:
            return fish


        def setup(careful: bool) -> None:
            handler = feed
            if careful:
                handler = slow(feed)
            mcp.tool(handler, name="feed_fish")
    '''
    tools = extract_paths([_write(tmp_path, {"pond.py": source})])
    assert tools.tools == []
    [finding] = tools.load_findings
    assert "`handler` is assigned 2 times (lines 11, 13)" in finding.message and finding.line == 14


def test_a_description_given_as_the_handlers_doc_follows_the_python_version(tmp_path: Path) -> None:
    source = '''
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("pond")


        def net(size: int) -> str:
            """Cast a net.
            Pull it back slowly."""
            return ""


        mcp.tool(name="cast_net", description=net.__doc__)(net)
    '''
    old = extract_paths([_write(tmp_path / "old", {".python-version": "3.11\n", "pond.py": source})])
    new = extract_paths([_write(tmp_path / "new", {".python-version": "3.14\n", "pond.py": source})])
    assert old.tools[0].description == "Cast a net.\n    Pull it back slowly."
    assert new.tools[0].description == "Cast a net.\nPull it back slowly."
