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
from app.audit.rules.wording import annotation, description, is_form_of, leading_verb, leading_words, name_words


def _deciding_verb(tool: Tool, *verb_lists: list[str]) -> str | None:
    """The first listed verb in the name, else among the first two words of the description."""
    return leading_verb(name_words(tool), *verb_lists) or leading_verb(
        leading_words(description(tool), 2), *verb_lists
    )


@register(
    "consequential_states_effect",
    Target.TOOL,
    options={"verbs": WORD_LIST, "other_verbs": WORD_LIST, "effect_patterns": REGEX_LIST},
    required=("verbs", "other_verbs", "effect_patterns"),
    details=("verb",),
)
def consequential_states_effect(tool: Tool, options: Mapping[str, Any]) -> Verdict | None:
    """Applies to tools that may be destructive by their annotations and whose deciding verb is consequential.

    The deciding verb is the first word of the name (else of the description's first two words) found in
    `verbs` or `other_verbs`: `create_merge_request` is decided by 'create', so it is not a merge tool.
    """
    if annotation(tool, "readOnlyHint") is True or annotation(tool, "destructiveHint") is False:
        return None
    verb = _deciding_verb(tool, options["verbs"], options["other_verbs"])
    if not is_form_of(verb, options["verbs"]):
        return None
    if search(options["effect_patterns"], description(tool)):
        return PASS
    return Verdict(False, {"verb": str(verb)}, anchor=Anchor.DESCRIPTION)


@register(
    "annotations_match_text",
    Target.TOOL,
    options={"write_verbs": WORD_LIST, "destructive_verbs": WORD_LIST, "read_verbs": WORD_LIST},
    required=("write_verbs", "destructive_verbs", "read_verbs"),
    details=("hint", "verb"),
)
def annotations_match_text(tool: Tool, options: Mapping[str, Any]) -> Verdict | None:
    """readOnlyHint true on a tool that writes, or destructiveHint false on a tool that deletes, contradicts.

    Applies only to tools that set readOnlyHint true or destructiveHint false explicitly. The deciding verb
    is found as in consequential_states_effect, over all three verb lists.
    """
    read_only = annotation(tool, "readOnlyHint") is True
    not_destructive = annotation(tool, "destructiveHint") is False
    if not (read_only or not_destructive):
        return None
    verb = _deciding_verb(tool, options["write_verbs"], options["destructive_verbs"], options["read_verbs"])
    if read_only and is_form_of(verb, options["write_verbs"]):
        return Verdict(False, {"hint": "readOnlyHint: true", "verb": str(verb)})
    if not_destructive and not read_only and is_form_of(verb, options["destructive_verbs"]):
        return Verdict(False, {"hint": "destructiveHint: false", "verb": str(verb)})
    return PASS
