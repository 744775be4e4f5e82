"""General Python mechanisms, each on small sources written here: Enum members as names and texts, settings objects
built by factories or kept on `self`, variables of the functions around a tool, and modules imported whole."""

from __future__ import annotations

import enum
from pathlib import Path

from mcp.types import Tool

from app.extract import extract_paths
from app.extract.python.project import python_at_least
from tests.extract.py_sources import listed, messages, write_sources

_write, _tool, _messages = write_sources, listed, messages


# -- 1. Enum members ------------------------------------------------------------------------------------------
def test_the_sdk_sends_the_value_of_an_enum_member_given_as_a_text() -> None:
    """Why a member passed where a text is expected is read as its value: pydantic's lax `str` takes it so."""

    class Mixed(str, enum.Enum):  # noqa: UP042 - the mixed-in form is the one tested
        BAKE = "bake_bread"

    class Plain(enum.Enum):
        KNEAD = "knead_dough"

    for member, sent in ((Mixed.BAKE, "bake_bread"), (Plain.KNEAD, "knead_dough")):
        dumped = Tool(name=member, description=member, inputSchema={"type": "object"}).model_dump(mode="json")
        assert (dumped["name"], dumped["description"]) == (sent, sent)


BAKERY_NAMES = '''
from enum import Enum, IntEnum, StrEnum, auto


class Oven(str, Enum):
    BAKE = "bake_bread"
    ROAST = "roast_nuts"
    TOAST = "bake_bread"  # an alias of BAKE


class Shelf(StrEnum):
    STACK_TRAYS = auto()
    CLEAR_SHELF = auto()


class Crust(IntEnum):
    SOFT = auto()
    FIRM = auto()
    HARD = 7
    BURNT = auto()
'''

BAKERY_SERVER = '''
from enum import Enum
from mcp.server import Server
from mcp.types import Tool

from .names import Oven, Shelf

server = Server("bakery")


class Counter(Enum):
    SELL = "sell_loaf"
    WRAP = "wrap_loaf"


@server.list_tools()
async def list_tools() -> list[Tool]:
    return [
        Tool(name=Oven.BAKE.value, description="Bake one loaf.", inputSchema={"type": "object"}),
        Tool(name=Oven.ROAST, description=f"Roast. Alias of {Oven.TOAST.name}.", inputSchema={"type": "object"}),
        Tool(name=Shelf.STACK_TRAYS, description=f"Then {Shelf.CLEAR_SHELF}.", inputSchema={"type": "object"}),
        Tool(name=Counter.SELL.value, description=f"After {Counter.WRAP} or " + str(Counter.WRAP),
             inputSchema={"type": "object"}),
    ]
'''


def test_enum_members_as_names_and_descriptions(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"bakery/__init__.py": "", "bakery/names.py": BAKERY_NAMES,
                               "bakery/server.py": BAKERY_SERVER})
    tools = extract_paths([folder])
    assert [t.name for t in tools.tools] == ["bake_bread", "roast_nuts", "stack_trays", "sell_loaf"]
    assert _tool(tools, "roast_nuts")["description"] == "Roast. Alias of BAKE."  # an alias's name is its canonical's
    assert _tool(tools, "stack_trays")["description"] == "Then clear_shelf."  # StrEnum: value, auto() lower-cased
    assert _tool(tools, "sell_loaf")["description"] == "After Counter.WRAP or Counter.WRAP"  # a plain Enum prints so
    assert tools.load_findings == []


MIXED_FSTRING = '''
from enum import Enum
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("mill")


class Grain(str, Enum):
    RYE = "rye"


@mcp.tool(description=f"Grind {Grain.RYE} into flour.")
def grind(kilos: int) -> str:
    return "ok"
'''


def test_an_fstring_of_a_mixed_in_enum_member_follows_the_projects_python(tmp_path: Path) -> None:
    new = _write(tmp_path / "new", {"pyproject.toml": '[project]\nrequires-python = ">=3.11"\n',
                                    "mill.py": MIXED_FSTRING})
    old = _write(tmp_path / "old", {".python-version": "3.10\n", "mill.py": MIXED_FSTRING})
    unknown = _write(tmp_path / "unknown", {"pyproject.toml": '[project]\nrequires-python = ">=3.9"\n',
                                            "mill.py": MIXED_FSTRING})
    assert _tool(extract_paths([new]), "grind")["description"] == "Grind Grain.RYE into flour."
    assert _tool(extract_paths([old]), "grind")["description"] == "Grind rye into flour."
    tools = extract_paths([unknown])
    assert "description" not in _tool(tools, "grind")
    (message,) = _messages(tools)
    assert "gives `Grain.RYE` on Python 3.11+ and 'rye' before" in message
    assert python_at_least(unknown / "mill.py", (3, 11)) is None


GRAIN_PARAMETER = '''
from enum import IntEnum, auto
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("mill")


class Sieve(IntEnum):
    COARSE = auto()
    FINE = auto()
    SUPERFINE = 2  # an alias of FINE: not listed again


@mcp.tool()
def sift(sieve: Sieve) -> str:
    """Sift the flour."""
    return "ok"
'''


def test_auto_numbered_enum_members_in_a_parameter_schema(tmp_path: Path) -> None:
    tools = extract_paths([_write(tmp_path, {"mill.py": GRAIN_PARAMETER})])
    schema = _tool(tools, "sift")["inputSchema"]
    assert isinstance(schema, dict)
    assert schema["$defs"]["Sieve"]["enum"] == [1, 2]
    assert tools.load_findings == []


TEA_NAMES = '''
from enum import Enum, auto


class Brew(str, Enum):
    STEEP = auto()
    POUR = "pour_cup"
'''

TEA_SERVER = '''
from mcp.server import Server
from mcp.types import Tool

from . import names
import teahouse.names as kinds

server = Server("tea")


@server.list_tools()
async def list_tools() -> list[Tool]:
    return [
        Tool(name=names.Brew.POUR.value, description="Pour a cup.", inputSchema={"type": "object"}),
        Tool(name=kinds.Brew.POUR.value + "_twice", description="Pour two.", inputSchema={"type": "object"}),
        Tool(name=kinds.Brew.STEEP.value, description="Steep.", inputSchema={"type": "object"}),
    ]
'''


def test_enums_of_modules_imported_whole_and_a_failure_said_where_it_is_used(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"teahouse/__init__.py": "", "teahouse/names.py": TEA_NAMES,
                               "teahouse/server.py": TEA_SERVER})
    tools = extract_paths([folder])
    assert [t.name for t in tools.tools] == ["pour_cup", "pour_cup_twice"]
    (finding,) = tools.load_findings
    assert finding.file.endswith("server.py") and finding.line == 15  # the line using it, not the enum's own line
    assert "(imported `Brew`)" in finding.message and "auto()" in finding.message


# -- 2. settings objects --------------------------------------------------------------------------------------
GREENHOUSE_CONFIG = '''
from functools import lru_cache

from pydantic import Field
from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    prefix: str = "greenhouse"
    max_pots: int = Field(default=12, description="pots per call")


@lru_cache
def get_settings() -> Settings:
    return Settings()


_cached: Settings | None = None


def shared_settings() -> Settings:
    global _cached
    if _cached is None:
        _cached = Settings()
    return _cached
'''

GREENHOUSE_SERVER = '''
from mcp.server.fastmcp import FastMCP

from .config import Settings, get_settings, shared_settings

settings = get_settings()
mcp = FastMCP("greenhouse")


@mcp.tool(name=f"{settings.prefix}_water", description=f"Water up to {get_settings().max_pots} pots.")
def water(pots: int) -> str:
    return "ok"


class Potting:
    def __init__(self, server: FastMCP, extra: Settings | None = None, given: Settings | None = None) -> None:
        self.settings = Settings()
        self._settings = shared_settings()
        self.extra = extra or Settings()
        self.given = given
        server.tool(name=f"{self.settings.prefix}_repot", description=f"Repot {self._settings.max_pots}.")(self.repot)
        server.tool(name="plant_seed", description=f"Max {self.extra.max_pots}.")(self.plant)
        server.tool(name="label_pot", description=f"Max {self.given.max_pots}.")(self.plant)

    def repot(self, pot: str) -> str:
        return "ok"

    def plant(self, seed: str) -> str:
        return "ok"
'''


def test_settings_from_factories_and_on_self_are_their_defaults_with_a_note(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"gh/__init__.py": "", "gh/config.py": GREENHOUSE_CONFIG,
                               "gh/server.py": GREENHOUSE_SERVER})
    tools = extract_paths([folder])
    assert [t.name for t in tools.tools] == ["greenhouse_water", "greenhouse_repot", "plant_seed", "label_pot"]
    assert _tool(tools, "greenhouse_water")["description"] == "Water up to 12 pots."
    assert _tool(tools, "greenhouse_repot")["description"] == "Repot 12."
    assert "description" not in _tool(tools, "plant_seed")  # `extra or Settings()`: the argument decides
    messages = _messages(tools)
    notes = [m for m in messages if "environment variable" in m]
    assert len(notes) == 4 and all("imported, line" in m for m in notes)
    assert any("`self._settings.max_pots` is the default of the settings field `Settings.max_pots`" in m
               for m in notes)
    assert any("self.extra.max_pots" in m for m in messages if m not in notes)
    assert any("`given` is a parameter of `__init__`, known only when it is called" in m for m in messages)


# -- 3. variables of the functions around a tool --------------------------------------------------------------
KITCHEN = '''
from mcp.server import Server
from mcp.types import Tool

HINT = "module hint"


def build(locale: str) -> Server:
    server = Server("kitchen")
    HINT = "Use grams."
    unit = "grams"
    if locale == "us":
        unit = "ounces"
    greeting = f"Weigh in {HINT.lower()}"

    @server.list_tools()
    async def list_tools() -> list[Tool]:
        return [
            Tool(name="weigh", description=HINT, inputSchema={"type": "object"}),
            Tool(name="scale", description=f"In {unit}.", inputSchema={"type": "object"}),
            Tool(name="tare", description=f"For {locale}.", inputSchema={"type": "object"}),
        ]

    return server
'''


def test_variables_of_the_enclosing_functions(tmp_path: Path) -> None:
    tools = extract_paths([_write(tmp_path, {"kitchen.py": KITCHEN})])
    assert [t.name for t in tools.tools] == ["weigh", "scale", "tare"]
    assert _tool(tools, "weigh")["description"] == "Use grams."  # the function's own name hides the module's
    assert "description" not in _tool(tools, "scale") and "description" not in _tool(tools, "tare")
    messages = _messages(tools)
    assert any("`unit` is set more than once in `build` (line 10)" in m for m in messages)
    assert any("`locale` is a parameter of `build`, known only when it is called" in m for m in messages)


CLOCK = '''
from mcp.server import Server
from mcp.types import Tool


def serve(zone_override: str | None = None) -> Server:
    server = Server("clock")
    zone = str(pick_zone(zone_override))

    @server.list_tools()
    async def list_tools() -> list[Tool]:
        return [Tool(name="now", description="The time now.", inputSchema={
            "type": "object",
            "properties": {"zone": {"type": "string", "description": f"Defaults to {zone}."}},
        })]

    return server
'''


def test_a_value_computed_when_the_server_starts_is_said_with_where_it_is_set(tmp_path: Path) -> None:
    tools = extract_paths([_write(tmp_path, {"clock.py": CLOCK})])
    schema = _tool(tools, "now")["inputSchema"]
    assert schema == {"type": "object", "properties": {"zone": {"type": "string"}}}  # the description left out
    (message,) = _messages(tools)
    assert "`zone` (set in `serve`, line 7): a call to `pick_zone` computed at run time" in message


# -- 4. helpers that only return an expression, conditions over known values ----------------------------------
SCHEMA_PARTS = '''
PAGE_LIMIT = 40


def paging(limit: int = PAGE_LIMIT) -> dict:
    """Paging properties shared by the listing tools."""
    return {
        "offset": {"type": "integer", "minimum": 0},
        "limit": {"type": "integer", "maximum": limit, "description": f"At most {limit} rows."},
    }
'''

LIBRARY = '''
from mcp.server import Server
from mcp.types import Tool

from .parts import paging

VERBOSE = False


def shelf_property(kind: str, *, required: bool = True) -> dict:
    return {"type": "string", "description": f"Shelf holding {kind}." + (" Required." if required else "")}


def counted(name: str) -> dict:
    rows = load_rows(name)
    return {"type": "integer", "maximum": len(rows)}


server = Server("library")


@server.list_tools()
async def list_tools() -> list[Tool]:
    return [
        Tool(name="list_books", description="Detailed." if VERBOSE else "Short.", inputSchema={
            "type": "object",
            "properties": {"shelf": shelf_property("books"), **paging()},
        }),
        Tool(name="list_maps", description=VERBOSE or "Maps, folded.", inputSchema={
            "type": "object",
            "properties": {"shelf": shelf_property("maps", required=False), **paging(10), "count": counted("maps")},
        }),
    ]
'''


def test_helpers_that_return_one_expression_are_read_with_their_arguments(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"lib/__init__.py": "", "lib/parts.py": SCHEMA_PARTS, "lib/server.py": LIBRARY})
    tools = extract_paths([folder])
    books, maps = (_tool(tools, n) for n in ("list_books", "list_maps"))
    assert books["description"] == "Short." and maps["description"] == "Maps, folded."
    assert books["inputSchema"] == {"type": "object", "properties": {
        "shelf": {"type": "string", "description": "Shelf holding books. Required."},
        "offset": {"type": "integer", "minimum": 0},
        "limit": {"type": "integer", "maximum": 40, "description": "At most 40 rows."},
    }}
    properties = maps["inputSchema"]["properties"]  # type: ignore[index]
    assert properties["shelf"]["description"] == "Shelf holding maps."
    assert properties["limit"]["maximum"] == 10 and "count" not in properties  # `counted` does more than return
    (message,) = _messages(tools)
    assert "a call to `counted` computed at run time (`counted` does more than return one expression)" in message


SWITCHES = '''
import os
from enum import Enum
from mcp.server.fastmcp import FastMCP

from pydantic_settings import BaseSettings


class Mode(Enum):
    FAST = "fast"


class Settings(BaseSettings):
    tool_prefix: str = ""


settings = Settings()
PREFIX = os.environ.get("LAB_PREFIX", "")
mcp = FastMCP("lab")


@mcp.tool(name=f"{settings.tool_prefix}_mix" if settings.tool_prefix else "mix")
def mix(amount: int) -> str:
    """Mix."""
    return "ok"


@mcp.tool(name=f"{PREFIX}_heat" if PREFIX else "heat")
def heat(degrees: int) -> str:
    return "ok"


@mcp.tool(description="Stir fast." if Mode.FAST == "fast" else "Stir.")
def stir(turns: int) -> str:
    return "ok"


@mcp.tool(description=f"Cool to {settings.tool_prefix or 'room'} and {os.getenv('LAB_ROOM')}.")
def cool(degrees: int) -> str:
    return "ok"
'''


def test_conditions_over_known_values_and_what_the_environment_decides(tmp_path: Path) -> None:
    tools = extract_paths([_write(tmp_path, {"lab.py": SWITCHES})])
    assert [t.name for t in tools.tools] == ["mix", "stir", "cool"]
    assert "description" not in _tool(tools, "cool") and "description" not in _tool(tools, "stir")
    messages = _messages(tools)
    assert any("settings field `Settings.tool_prefix`" in m and "tool `mix`" in m for m in messages)
    assert any("`PREFIX` (line 17): a call to `os.environ.get` computed at run time" in m for m in messages)
    # a value that could not be read keeps no note about the settings default it also used
    assert not any("tool `cool`" in m and "settings field" in m for m in messages)
    assert any("a call to `os.getenv` computed at run time" in m for m in messages)
    assert any("tool `stir`" in m and "a comparison with an Enum member" in m for m in messages)


BUILT_MEMBERS = '''
from enum import Enum
from mcp.server import Server
from mcp.types import Tool


class Chores(str, Enum):
    def __new__(cls, slug: str, text: str) -> "Chores":
        member = str.__new__(cls, slug)
        member._value_ = slug
        member.text = text
        return member

    SWEEP = ("sweep_floor", "Sweep one floor.")


server = Server("house")


@server.list_tools()
async def list_tools() -> list[Tool]:
    return [Tool(name=Chores.SWEEP.value, description="Sweep.", inputSchema={"type": "object"})]
'''


def test_an_enum_whose_new_makes_the_values_is_not_read_as_its_tuples(tmp_path: Path) -> None:
    tools = extract_paths([_write(tmp_path, {"house.py": BUILT_MEMBERS})])
    assert tools.tools == []
    assert any("`Chores` defines `__new__`" in m for m in _messages(tools))


# -- 5. tools built from specs in comprehensions --------------------------------------------------------------
POND = '''
from mcp.server import Server
from mcp.types import Tool

SPECS = {
    "feed_fish": {"text": "Feed the fish once.", "schema": {"type": "object"}},
    "skim_pond": {"text": "Skim the leaves off.", "schema": {"type": "object", "properties": {}}},
}
EXTRA = [
    {"name": "test_water", "description": "Measure the pH.", "inputSchema": {"type": "object"}},
]

server = Server("pond")


@server.list_tools()
async def list_tools() -> list[Tool]:
    tools = [Tool(name=key, description=spec["text"], inputSchema=spec["schema"]) for key, spec in SPECS.items()]
    tools += [Tool(**spec) for spec in EXTRA]
    tools += [Tool(name=key, description=SPECS[key]["missing"], inputSchema={}) for key in ["feed_fish"]]
    return tools
'''


def test_tool_specs_in_comprehensions_and_spread_dicts(tmp_path: Path) -> None:
    tools = extract_paths([_write(tmp_path, {"pond.py": POND})])
    assert [t.name for t in tools.tools] == ["feed_fish", "skim_pond", "test_water", "feed_fish"]
    assert _tool(tools, "skim_pond")["description"] == "Skim the leaves off."
    assert _tool(tools, "test_water")["description"] == "Measure the pH."
    (message,) = _messages(tools)
    assert "looks up 'missing', which the value does not hold" in message
