"""Import boundaries: which room of app/ may import which, no import cycles, the pure core, data stays data.

The rooms and their rules are drawn in docs/architecture.md; ROOMS below is the same table as code. Every
import counts, including those inside functions (a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"

# Room -> the app packages and modules it may import (besides itself). A room is a folder or a module of app/.
BASE = {"app.errors", "app.resources"}
ROOMS: dict[str, set[str]] = {
    "app.errors": set(),
    "app.resources": set(),
    "app.audit": BASE,
    "app.suggest": BASE | {"app.audit"},
    "app.redaction": BASE | {"app.audit"},
    "app.extract": BASE | {"app.audit"},
    # Starting a repository's MCP server and listing its tools: the command line's only (the App starts nothing).
    "app.listing": BASE,
    "app.config": BASE | {"app.audit"},
    "app.settings": BASE,
    "app.egress": BASE,
    # The sentence embedding (numpy, onnxruntime) the synthetic selector is given; kept out of the pure core.
    "app.semantic": BASE | {"app.audit"},
    "app.render": BASE | {"app.audit", "app.suggest", "app.redaction", "app"},
    "app.llm": BASE | {"app.audit", "app.suggest", "app.egress"},
    "app.github": BASE | {"app.audit", "app.suggest", "app.render", "app.egress"},
    "app.reports": BASE | {"app.audit", "app.redaction", "app.render"},
    "app.selector_factory": BASE | {"app.audit", "app.llm", "app.semantic"},
    "app.review": BASE
    | {"app.audit", "app.suggest", "app.redaction", "app.extract", "app.render"}
    | {"app.github", "app.config", "app.selector_factory"},
    "app.jobs": BASE
    | {
        "app.audit",
        "app.suggest",
        "app.redaction",
        "app.render",
        "app.github",
        "app.reports",
        "app.config",
        "app.settings",
        "app.semantic",
        "app.selector_factory",
        "app.review",
    },
    "app.web": BASE
    | {
        "app.audit",
        "app.redaction",
        "app.render",
        "app.github",
        "app.reports",
        "app.settings",
        "app.selector_factory",
        "app.jobs",
    },
    "app.commands": BASE
    | {
        "app.audit",
        "app.suggest",
        "app.redaction",
        "app.extract",
        "app.listing",
        "app.render",
        "app.llm",
        "app.config",
        "app.settings",
        "app.selector_factory",
        "app.jobs",
        "app.web",
    },
    "app.action": BASE
    | {"app.audit", "app.redaction", "app.render", "app.github"}
    | {"app.config", "app.commands", "app.review"},
    "app.cli": BASE | {"app.commands"},
}
# What the pure core (app/audit) and the suggestion room may import from outside app/.
PURE = {"app.audit", "app.suggest"}
# lemminflect: verb and noun forms for generated requests (app/audit/suite/word_forms.py); pure data, no I/O.
PURE_ALLOWED = {"pydantic", "jsonschema", "yaml", "lemminflect"} | set(sys.stdlib_module_names)


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, known: Iterable[str] = ()) -> set[str]:
    """Absolute module names imported anywhere in `path`; `from pkg import mod` resolves to pkg.mod when
    pkg.mod is one of the `known` modules."""
    modules = set(known)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                names.add(full if full in modules else node.module)
    return names


def room_of(module: str) -> str | None:
    """The longest room name that is `module` or a package above it."""
    best = None
    for room in ROOMS:
        if (module == room or module.startswith(room + ".")) and (best is None or len(room) > len(best)):
            best = room
    return best


def app_modules(app: Path = APP) -> dict[str, Path]:
    return {module_name(p, app.parent): p for p in sorted(app.rglob("*.py"))}


def room_violations(modules: Mapping[str, Path]) -> list[str]:
    offenders = []
    for name, path in modules.items():
        if name == "app":  # the package's face: its version string, imported by everyone
            continue
        room = room_of(name)
        if room is None:
            offenders.append(f"{path.relative_to(ROOT)} is in no room of ROOMS (add it, with its rule)")
            continue
        for imported in sorted(imports_of(path, modules)):
            if imported.split(".")[0] != "app":
                continue
            target = room_of(imported) or imported
            if target == room or target in ROOMS[room]:
                continue
            offenders.append(f"{path.relative_to(ROOT)} ({room}) imports {imported} ({target})")
    return offenders


def cycles(modules: Mapping[str, Path]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    graph = {}
    for name, path in modules.items():
        graph[name] = sorted(i for i in imports_of(path, modules) if i in modules and i != name)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_rooms_import_only_what_their_rule_allows() -> None:
    offenders = room_violations(app_modules())
    assert not offenders, "\n".join(offenders)


# The extractor's rooms by language, around its shared core (app/extract/*.py): a language reads the core and
# the audit, never another language.
EXTRACT_LANGUAGES = ("app.extract.go", "app.extract.python", "app.extract.typescript")


def test_extract_languages_import_no_other_language() -> None:
    modules = app_modules()
    offenders = []
    for name, path in modules.items():
        own = next((lang for lang in EXTRACT_LANGUAGES if name.startswith(lang + ".")), None)
        for imported in sorted(imports_of(path, modules)) if own else ():
            other = next((lang for lang in EXTRACT_LANGUAGES if imported.startswith(lang) and lang != own), None)
            if other:
                offenders.append(f"{path.relative_to(ROOT)} ({own}) imports {imported} ({other})")
    assert {lang for lang in EXTRACT_LANGUAGES if any(n.startswith(lang + ".") for n in modules)} == set(
        EXTRACT_LANGUAGES
    )
    assert not offenders, "\n".join(offenders)


def test_no_import_cycles_between_modules() -> None:
    found = cycles(app_modules())
    assert not found, "\n".join(" <-> ".join(c) for c in found)


def test_room_rules_form_no_cycle() -> None:
    rooms = {room: {r for r in allowed if r in ROOMS and r != room} for room, allowed in ROOMS.items()}
    seen: set[str] = set()

    def reaches(start: str, goal: str, path: tuple[str, ...]) -> tuple[str, ...] | None:
        for nxt in sorted(rooms[start]):
            if nxt == goal:
                return (*path, nxt)
            if nxt not in path:
                found = reaches(nxt, goal, (*path, nxt))
                if found:
                    return found
        return None

    for room in sorted(rooms):
        loop = reaches(room, room, (room,))
        assert loop is None, f"the room rules allow a cycle: {' -> '.join(loop or ())}"
        seen.add(room)


def test_the_checks_catch_a_broken_rule(tmp_path: Path) -> None:
    """A core module importing the web layer, and two modules importing each other, are both caught."""
    app = tmp_path / "app"
    (app / "audit").mkdir(parents=True)
    (app / "web").mkdir()
    for folder in (app, app / "audit", app / "web"):
        (folder / "__init__.py").write_text("")
    (app / "audit" / "core.py").write_text("from app.web.routes import router\n")
    (app / "web" / "routes.py").write_text("def f():\n    from app.audit import core\n")
    modules = app_modules(app)
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        offenders = room_violations(modules)
    finally:
        ROOT = saved
    assert any("app/audit/core.py (app.audit) imports app.web.routes" in o for o in offenders)
    assert cycles(modules) == [["app.audit.core", "app.web.routes"]]


def test_pure_rooms_import_only_stdlib_pydantic_jsonschema_yaml() -> None:
    modules = app_modules()
    offenders = []
    for name, path in modules.items():
        if room_of(name) not in PURE:
            continue
        for imported in imports_of(path, modules):
            top = imported.split(".")[0]
            if top != "app" and top not in PURE_ALLOWED:
                offenders.append(f"{path.relative_to(ROOT)} imports {imported}")
    assert not offenders, "\n".join(offenders)


def test_only_app_github_imports_githubkit() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in sorted(APP.rglob("*.py"))
        if not path.is_relative_to(APP / "github") and any(n.split(".")[0] == "githubkit" for n in imports_of(path))
    ]
    assert not offenders


def test_selectors_folder_is_data_and_does_not_shadow_the_stdlib() -> None:
    folder = ROOT / "selectors"
    assert not list(folder.rglob("*.py")), "selectors/ holds profiles as data, never Python"
    spec = importlib.util.find_spec("selectors")
    assert spec is not None and spec.origin is not None
    assert Path(spec.origin).parent != ROOT, "the stdlib selectors module must not be shadowed"
    import asyncio  # noqa: F401  (asyncio imports selectors)


def test_the_action_reviews_through_the_apps_pipeline() -> None:
    """One review pipeline serves App and Action: the Action runs `run_review`, not a copy of it on the CLI's."""
    modules = app_modules()
    imported = imports_of(APP / "action" / "run.py", modules)
    assert "app.review.run" in imported
    assert not {"app.commands.pair", "app.commands.git_sides"} & imported
