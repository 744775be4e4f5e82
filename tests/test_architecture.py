"""Import boundaries: the pure core imports no web, queue, GitHub or model-client code; data stays data."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"

# What app/audit/ may import besides itself and app.errors.
CORE_ALLOWED = {"pydantic", "jsonschema", "yaml"} | set(sys.stdlib_module_names)
# Which app packages each layer must never import (imports go one way, downward).
FORBIDDEN = {
    "app/audit": {
        "app.web",
        "app.jobs",
        "app.github",
        "app.llm",
        "app.render",
        "app.pipeline",
        "app.cli",
        "app.commands",
        "app.extract",
        "app.settings",
        "app.config",
        "app.inputs",
    },
    "app/render": {"app.web", "app.jobs", "app.github", "app.llm", "app.pipeline", "app.cli", "app.commands"},
    "app/extract": {"app.web", "app.jobs", "app.github", "app.llm", "app.pipeline", "app.cli", "app.commands"},
    "app/llm": {"app.web", "app.jobs", "app.github", "app.pipeline", "app.cli", "app.commands"},
    "app/github": {"app.web", "app.jobs", "app.cli", "app.commands"},
}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "app":  # `from app import resources` imports the module app.resources
                names.update(f"app.{alias.name}" for alias in node.names)
            else:
                names.add(node.module)
    return names


def test_core_imports_only_stdlib_pydantic_jsonschema_yaml() -> None:
    offenders = []
    for path in sorted((APP / "audit").rglob("*.py")):
        for name in imports_of(path):
            top = name.split(".")[0]
            if top == "app":
                if not (name.startswith("app.audit") or name == "app.errors" or name == "app.resources"):
                    offenders.append(f"{path.relative_to(ROOT)} imports {name}")
            elif top not in CORE_ALLOWED:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not offenders, "\n".join(offenders)


def test_layers_import_downward_only() -> None:
    offenders = []
    for folder, forbidden in FORBIDDEN.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            for name in imports_of(path):
                if any(name == f or name.startswith(f + ".") for f in forbidden):
                    offenders.append(f"{path.relative_to(ROOT)} imports {name}")
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
