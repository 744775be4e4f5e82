"""Safety checks on one tool: consequential tools state their effect; annotations agree with the wording.

MCP annotation defaults (spec 2025-06-18): readOnlyHint false, destructiveHint true. So a tool without
annotations counts as possibly destructive, and only an explicit readOnlyHint true or destructiveHint false
takes a tool out of the destructive set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.audit.models import Tool
from app.audit.rules.registry import PASS, REGEX_LIST, WORD_LIST, Anchor, Target, Verdict, register, search
from app.audit.rules.wording import annotation, description, first_verb, leading_words, name_words


def _action_verb(tool: Tool, verbs: list[str]) -> str | None:
    """A verb of `verbs` in the tool's name, or as one of the first two words of its description."""
    return first_verb(name_words(tool), verbs) or first_verb(leading_words(description(tool), 2), verbs)


@register(
    "consequential_states_effect",
    Target.TOOL,
    options={"verbs": WORD_LIST, "effect_patterns": REGEX_LIST},
    required=("verbs", "effect_patterns"),
    details=("verb",),
)
def consequential_states_effect(tool: Tool, options: Mapping[str, Any]) -> Verdict | None:
    """Applies to tools that may be destructive by their annotations and act by their wording."""
    if annotation(tool, "readOnlyHint") is True or annotation(tool, "destructiveHint") is False:
        return None
    verb = _action_verb(tool, options["verbs"])
    if verb is None:
        return None
    if search(options["effect_patterns"], description(tool)):
        return PASS
    return Verdict(False, {"verb": verb}, anchor=Anchor.DESCRIPTION)


@register(
    "annotations_match_text",
    Target.TOOL,
    options={"write_verbs": WORD_LIST, "destructive_verbs": WORD_LIST},
    required=("write_verbs", "destructive_verbs"),
    details=("hint", "verb"),
)
def annotations_match_text(tool: Tool, options: Mapping[str, Any]) -> Verdict | None:
    """readOnlyHint true on a tool that writes, or destructiveHint false on a tool that deletes, contradicts.

    Applies only to tools that set readOnlyHint true or destructiveHint false explicitly.
    """
    read_only = annotation(tool, "readOnlyHint") is True
    not_destructive = annotation(tool, "destructiveHint") is False
    if not (read_only or not_destructive):
        return None
    if read_only:
        verb = _action_verb(tool, options["write_verbs"])
        if verb:
            return Verdict(False, {"hint": "readOnlyHint: true", "verb": verb}, anchor=Anchor.TOOL)
    if not_destructive and not read_only:
        verb = _action_verb(tool, options["destructive_verbs"])
        if verb:
            return Verdict(False, {"hint": "destructiveHint: false", "verb": verb}, anchor=Anchor.TOOL)
    return PASS
