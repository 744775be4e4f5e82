"""The Jinja2 environment: StrictUndefined, our filters, and escaping of untrusted tool text."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from app.audit.gate import shown
from app.resources import templates_dir

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")
_MENTION = re.compile(r"@(?=\w)")


def md(value: Any, limit: int | None = 200) -> str:
    """Untrusted text (tool names, descriptions, intents) made inert inside Markdown and table cells.

    Markdown syntax and HTML are escaped, newlines folded, and @mentions broken (a zero-width joiner) so
    a tool description cannot ping people or inject markup into a PR comment.
    """
    text = " ".join(str(value).split())
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return _MENTION.sub("@\u200d", text)


def code(value: Any, limit: int | None = 120) -> str:
    """Untrusted text as inline code: backticks cannot be escaped there, so they are replaced."""
    text = " ".join(str(value).split()).replace("`", "'")
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"`{text}`" if text else "` `"


def signed(value: float) -> str:
    return f"{value:+.1f}" if abs(value) >= 0.05 else "±0.0"


def score(value: float) -> str:
    return f"{value:.1f}"


def shown_change(before: float, after: float) -> float:
    """The change between two scores as they are shown (one decimal), so that "82.5 → 82.5" is never followed
    by "-0.1": the unrounded difference stays in the exports."""
    return round(shown(after) - shown(before), 1)


_SHA = re.compile(r"[0-9a-f]{7,64}")


def short(value: str | None, n: int = 12) -> str:
    """A git SHA or a hash cut to `n` characters; anything else (a file name, a branch) is left whole."""
    text = value or ""
    return text[:n] if _SHA.fullmatch(text) else text


# How a removed tool's successor was found (app/audit/successors/), as a reader says it.
FOUND_BY = {
    "config": "from the config",
    "renamed": "renamed",
    "named": "named in its description",
    "action": "an argument value names it",
    "split": "one new tool per value of its argument",
    "matched": "the most alike new tool",
}


def found_by(how: str | None, confidence: float | None = None) -> str:
    """`action`, 0.95 -> "its operation is an argument value, confidence 0.95" (1.0 is not said)."""
    said = FOUND_BY.get(how or "", how or "")
    return f"{said}, confidence {confidence:.2f}" if confidence is not None and confidence < 1 else said


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        undefined=StrictUndefined,
        autoescape=select_autoescape(enabled_extensions=("html", "html.j2"), default_for_string=False, default=False),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(md=md, code=code, signed=signed, score=score, short=short, found_by=found_by)
    env.globals.update(shown_change=shown_change)
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)
