"""Security checks on one tool's model-visible text (tool poisoning): hidden text, instructions addressed to the
model, encoded payloads and parameters that ask for what the tool has no use for.

Each check reads every `Field` of the tool (app/audit/rules/poison_text.py) and returns one failing verdict per
offending field, naming the field, what was found and a safe excerpt; `PASS` when nothing is found. The
patterns are the rules' options (rules/TC50x-*.yml); what lives here is how they are applied: invisible
characters with their legitimate uses (emoji sequences, right-to-left text) set apart, negations ("never send
credentials") not read as instructions, and exemptions for what the tool's own name says it is for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.audit.models import Tool
from app.audit.rules import decoding
from app.audit.rules.excerpts import excerpt, show
from app.audit.rules.invisible import hidden_characters
from app.audit.rules.poison_text import Field, Offense, fields, related
from app.audit.rules.registry import COUNT, PASS, REGEX_LIST, WORD_LIST, Target, Verdict, compiled, register
from app.audit.text import split_identifier

LABELLED_REGEXES = {"type": "object", "minProperties": 1, "additionalProperties": REGEX_LIST}
LABELLED_WORDS = {"type": "object", "additionalProperties": WORD_LIST}
POSITIVE = {"type": "integer", "minimum": 1}
DETAILS = ("where", "what", "evidence")
def describe(offenses: Sequence[Offense]) -> str:
    counts: dict[str, int] = {}
    for o in offenses:
        counts[o.label] = counts.get(o.label, 0) + 1
    return ", ".join(label if n == 1 else f"{label} ({n} places)" for label, n in counts.items())


def details_of(field: Field, offenses: Sequence[Offense]) -> dict[str, str]:
    """The message details of one offending field: where, what (with counts), and the first offense shown."""
    first = min(offenses, key=lambda o: (o.start, o.end))
    # A name is shown whole (the rules read it as words, so offsets are into `prose`, not the name).
    shown = show(field.text) if field.kind == "name" else excerpt(field.text, first.start, first.end)
    evidence = first.evidence or shown
    return {"where": field.where, "what": describe(offenses), "evidence": evidence}


def _verdicts(found: Iterable[tuple[Field, list[Offense]]]) -> Verdict | list[Verdict]:
    failures = [
        Verdict(False, details_of(field, offenses), anchor=field.anchor, parameter=field.parameter)
        for field, offenses in found
        if offenses
    ]
    return failures or PASS


# --- TC501 hidden text ---------------------------------------------------------------------------------


@register(
    "hidden_text",
    Target.TOOL,
    options={"min_spaces": POSITIVE, "min_line_breaks": POSITIVE, "markup": REGEX_LIST},
    required=("min_spaces", "min_line_breaks", "markup"),
    details=DETAILS,
)
def hidden_text(tool: Tool, options: Mapping[str, Any]) -> Verdict | list[Verdict]:
    """Invisible characters, whitespace runs long enough to push text out of view, and hidden markup."""
    runs = re.compile(rf"[^\S\n]{{{options['min_spaces']},}}|(?:[^\S\n]*\n){{{options['min_line_breaks']},}}")
    markup = compiled(tuple(options["markup"]))
    found = []
    for field in fields(tool):
        offenses = hidden_characters(field.text)
        if field.kind != "name":
            offenses += [Offense(m.start(), m.end(), "a long run of whitespace") for m in runs.finditer(field.text)]
            offenses += [Offense(m.start(), m.end(), "hidden markup") for m in markup.finditer(field.text)]
        found.append((field, offenses))
    return _verdicts(found)


# --- TC502 instructions addressed to the model ---------------------------------------------------------


_CLAUSE_END = re.compile(r"[.;:!?\n,()]")
# Words that put the object out of the verb's reach: "extract text FROM password-protected PDFs".
_PREPOSITIONS = re.compile(r"\b(?:from|in|into|with|on|at|to|for|by|about|inside|within|behind|via|through|when|if)\b",
                           re.IGNORECASE)
_MAX_GAP_WORDS = 4
# The end of the clause a destination is looked for in (not a colon or dot inside a URL or an address).
_DESTINATION_END = re.compile(r"[;!?\n]|[.,:](?=\s|$)")


def _clause_before(text: str, start: int) -> str:
    return _CLAUSE_END.split(text[max(0, start - 80) : start])[-1]


def _takes_credentials(tool: Tool, words: Sequence[str]) -> bool:
    """The tool declares a parameter for a credential (`api_key`, `password`, `authToken`)."""
    return any(w in words for name in tool.properties for w in split_identifier(name))


def _direct_object_end(text: str, verb: re.Match[str], objects: re.Pattern[str], negations: re.Pattern[str],
                       leads: re.Pattern[str], window: int) -> int | None:
    """Where the secret-bearing direct object of an imperative, not negated `verb` ends; None if there is none."""
    before = _clause_before(text, verb.start())
    if negations.search(before) or not leads.search(before):
        return None
    obj = objects.search(text, verb.end(), verb.end() + window)
    if obj is None:
        return None
    gap = text[verb.end() : obj.start()]
    if _CLAUSE_END.search(gap) or _PREPOSITIONS.search(gap) or len(gap.split()) > _MAX_GAP_WORDS:
        return None
    return obj.end()


def _destination(tool: Tool, text: str, start: int, destinations: re.Pattern[str]) -> bool:
    """The rest of the clause hands the object to one of the tool's parameters, a field, an address or a URL."""
    clause = _DESTINATION_END.split(text[start : start + 120], maxsplit=1)[0]
    if destinations.search(clause):
        return True
    return any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", clause) for name in tool.properties)


def _harvest(tool: Tool, text: str, options: Mapping[str, Any]) -> list[Offense]:
    """An imperative verb whose direct object is a secret-bearing object, or a well-known secret file; neither
    negated in its clause ("never send credentials" is advice, not an instruction)."""
    negations = compiled(tuple(options["negations"]))
    leads = compiled(tuple(options["imperative_leads"]))
    objects = compiled(tuple(options["sensitive_objects"]))
    out: list[Offense] = []
    for path in compiled(tuple(options["sensitive_paths"])).finditer(text):
        if not negations.search(_clause_before(text, path.start())):
            out.append(Offense(path.start(), path.end(), "names a file that holds secrets"))
    if not objects.search(text):
        return out
    harvest = compiled(tuple(options["harvest_verbs"]))
    transfer = None if _takes_credentials(tool, options["credential_parameter_words"]) else compiled(
        tuple(options["transfer_verbs"]))
    for verbs, needs_destination in ((harvest, False), (transfer, True)):
        for verb in verbs.finditer(text) if verbs is not None else ():
            end = _direct_object_end(text, verb, objects, negations, leads, options["window_chars"])
            if end is None:
                continue
            if needs_destination and not _destination(tool, text, end, compiled(tuple(options["destinations"]))):
                continue
            out.append(Offense(verb.start(), end, "asks for credentials, secrets or private files"))
    return out


_INSTRUCTION_OPTIONS = {
    "instructions": LABELLED_REGEXES,
    "harvest_verbs": REGEX_LIST,
    "transfer_verbs": REGEX_LIST,
    "destinations": REGEX_LIST,
    "credential_parameter_words": WORD_LIST,
    "imperative_leads": REGEX_LIST,
    "sensitive_objects": REGEX_LIST,
    "sensitive_paths": REGEX_LIST,
    "negations": REGEX_LIST,
    "window_chars": POSITIVE,
    "purpose_words": WORD_LIST,
}
_INSTRUCTION_EXTRAS = {"label_instructions": LABELLED_REGEXES}


@register("model_instructions", Target.TOOL, options={**_INSTRUCTION_OPTIONS, **_INSTRUCTION_EXTRAS},
          required=tuple(_INSTRUCTION_OPTIONS), details=DETAILS)
def model_instructions(tool: Tool, options: Mapping[str, Any]) -> Verdict | list[Verdict]:
    """Text that tells the model what to do beyond using this tool: about other tools, the conversation,
    secrecy towards the user, or credentials and files (unless the tool's name says that is its job); in a
    title, also any sentence that tells the model what to do (`label_instructions`)."""
    labelled = [(label, compiled(tuple(patterns))) for label, patterns in sorted(options["instructions"].items())]
    in_labels = [(label, compiled(tuple(patterns)))
                 for label, patterns in sorted(options.get("label_instructions", {}).items())]
    own_purpose = related(tool, options["purpose_words"])
    found = []
    for field in fields(tool):
        text = field.prose  # a name read as words: `always_call_this_first`
        patterns = labelled + in_labels if field.kind == "title" else labelled
        offenses = [Offense(m.start(), m.end(), label) for label, rx in patterns for m in rx.finditer(text)]
        if not own_purpose:
            offenses += _harvest(tool, text, options)
        found.append((field, offenses))
    return _verdicts(found)


# --- TC504 encoded payloads ----------------------------------------------------------------------------


def _declared_encoded(tool: Tool, parameter: str | None, words: Sequence[str]) -> bool:
    """The parameter says its values are encoded (contentEncoding, or a word like 'base64' in its text)."""
    if parameter is None:
        return False
    schema = tool.properties.get(parameter)
    if not isinstance(schema, dict):
        return False
    if schema.get("contentEncoding"):
        return True
    text = f"{parameter} {schema.get('description') or ''} {schema.get('format') or ''}".lower()
    return any(w in text for w in words)


@register(
    "encoded_payload",
    Target.TOOL,
    options={"min_base64": POSITIVE, "min_hex": POSITIVE, "min_words": COUNT, "encoded_value_words": WORD_LIST},
    required=("min_base64", "min_hex", "min_words", "encoded_value_words"),
    details=DETAILS,
)
def encoded_payload(tool: Tool, options: Mapping[str, Any]) -> Verdict | list[Verdict]:
    """Base64, hex, percent-encoded or escaped runs that decode to readable text (shown decoded, never run).

    Example, default, enum and const values of a parameter that declares encoded values are its data, not text.
    """
    found = []
    for field in fields(tool):
        if field.kind == "name":
            continue
        if field.kind in ("example", "default", "enum", "const") and _declared_encoded(
                tool, field.parameter, options["encoded_value_words"]):
            continue
        hits = decoding.payloads(field.text, min_base64=options["min_base64"], min_hex=options["min_hex"],
                                 min_words=options["min_words"])
        offenses = [Offense(p.start, p.end, f"{p.encoding} text",
                            f'{show(field.text[p.start:p.end], limit=40)} reads "{show(p.decoded, limit=90)}"')
                    for p in hits]
        found.append((field, offenses))
    return _verdicts(found)


# --- TC505 exfiltration-shaped parameters --------------------------------------------------------------


def _named_for(field: Field, words: Sequence[str]) -> bool:
    """The property the field belongs to is named for one of `words` (prefix match: 'phone' covers 'phones')."""
    own = split_identifier(field.prop or "")
    return any(w.startswith(p) for w in own for p in words)


@register(
    "exfiltration_parameter",
    Target.TOOL,
    options={"requests": LABELLED_REGEXES, "purpose_words": LABELLED_WORDS, "parameter_purpose_words": LABELLED_WORDS},
    required=("requests", "purpose_words"),
    details=DETAILS,
)
def exfiltration_parameter(tool: Tool, options: Mapping[str, Any]) -> Verdict | list[Verdict]:
    """A parameter whose text (description, title, name, default, example, enum or extension value) asks for the
    conversation, the model's instructions, secrets, personal data or file contents, unless the tool's name says
    that is what it works on (`summarize_chat` may take the chat) or, for the kinds listed in
    `parameter_purpose_words`, the property itself is named for it (`phone` may ask for a phone number)."""
    purposes = options["purpose_words"]
    by_parameter = options.get("parameter_purpose_words", {})
    labelled = [
        (label, compiled(tuple(patterns)), by_parameter.get(label))
        for label, patterns in sorted(options["requests"].items())
        if not related(tool, purposes.get(label, []))
    ]
    found = []
    for field in fields(tool):
        if field.parameter is None:
            continue
        # A name is read as words, so `conversation_history` asks for what "conversation history" does.
        found.append((field, [Offense(m.start(), m.end(), label) for label, rx, words in labelled
                              if not (words and _named_for(field, words)) for m in rx.finditer(field.prose)]))
    return _verdicts(found)
