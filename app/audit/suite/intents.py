"""Deterministic intent generation from a tool's own text (the synthetic mode's case writer).

For each tool, up to five phrasings from explicit to indirect:
1. the description's first sentence turned into a request;
2. the tool's name words as an instruction, with example argument values;
3. a question built from the name words;
4. a goal stated with the description's most distinctive words (not the name's);
5. an indirect request naming only an example value and one distinctive word.
Negatives: a near-miss per tool (phrasing 1 with that tool removed from the set, expecting NO_TOOL) and
a fixed list of off-topic requests. All generated cases are `ai_generated` (machine-written, then
machine-validated by app/audit/suite/validate.py): directional evidence, not ground truth.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

from app.audit.models import NO_TOOL, Case, CaseFamily, Provenance, Tool, ToolSet
from app.audit.text import STOPWORDS, split_identifier, words

# Hand-written requests that no ordinary tool set should serve; the validator still checks each one.
OFF_TOPIC_REQUESTS = (
    "What's the capital of Australia?",
    "Write a four-line poem about autumn leaves.",
    "Tell me a joke about penguins.",
    "How many teaspoons are in a tablespoon?",
    "Who painted the Mona Lisa?",
    "Explain the difference between a virus and a bacterium in simple terms.",
    "Thanks, that's all for now!",
    "Suggest a name for my new puppy.",
)

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_LEAD_INS = re.compile(
    r"^(?:this tool |the tool |tool (?:to|that) |use this (?:tool )?to |a tool (?:to|that) |allows? (?:you )?to |"
    r"used to |lets you |helps? (?:you )?|can be used to )",
    re.IGNORECASE,
)
_NOISE = re.compile(r"^\s*(?:deprecated|note|warning|important)\s*[:.-]\s*", re.IGNORECASE)


def _example_value(name: str, spec: dict[str, Any]) -> Any:
    """A plausible value for a parameter, from its enum, type and name."""
    if isinstance(spec.get("enum"), list) and spec["enum"]:
        return spec["enum"][0]
    kind = spec.get("type")
    lowered = name.lower()
    hints = f"{lowered} {str(spec.get('description', '')).lower()}"
    if kind == "integer":
        return 42 if "id" in split_identifier(name) else 3
    if kind == "number":
        return 2.5
    if kind == "boolean" or kind in ("array", "object"):
        return None
    tokens = split_identifier(name)
    if "timezone" in lowered or "zone" in tokens:
        return "Europe/Berlin"
    if "hh:mm" in hints:
        return "14:30"
    if "url" in hints or "link" in lowered:
        return "https://example.com/docs/start"
    if "email" in hints:
        return "alex@example.com"
    if "path" in lowered or "file" in lowered or "dir" in lowered:
        return "/srv/data/report.txt"
    if {"date", "time", "since", "until", "timestamp"} & set(tokens):
        return "2026-03-14"
    if lowered in ("repo", "repository") or "owner/" in hints:
        return "acme/website"
    if lowered in ("owner", "org", "organization", "user", "username"):
        return "acme"
    if "id" in split_identifier(name) or lowered.endswith("id"):
        return "A-1042"
    if "query" in lowered or "search" in lowered or lowered == "q":
        return "quarterly revenue"
    if "name" in lowered or "title" in lowered:
        return "release-notes"
    return "sample"


def _first_sentence(text: str) -> str:
    text = _NOISE.sub("", text.strip())
    for part in _SENTENCE_END.split(text):
        part = _NOISE.sub("", part.strip())
        if len(part.split()) >= 3:
            return part.rstrip(".!?:; ")
    return text.rstrip(".!?:; ")


def _as_request(sentence: str) -> str:
    """'Reads a file from disk' -> 'Please read a file from disk.'"""
    sentence = _LEAD_INS.sub("", sentence).strip()
    if not sentence:
        return ""
    first, _, rest = sentence.partition(" ")
    adverb = ""
    if first.lower().endswith("ly") and rest:
        adverb, (first, _, rest) = first.lower() + " ", rest.partition(" ")
    verb = first.lower()
    if verb.endswith("ies") and len(verb) > 4:
        verb = verb[:-3] + "y"
    elif verb.endswith(("sses", "shes", "ches", "xes")):
        verb = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss") and len(verb) > 3:
        verb = verb[:-1]
    words_ = " ".join(rest.split()[:23])
    return f"Please {adverb}{verb} {words_}".strip() + "."


class TemplateCaseGenerator:
    """Writes cases from tool text alone; deterministic, no model."""

    def generate(self, toolset: ToolSet, *, per_tool: int, negatives: bool) -> list[Case]:
        idf = self._idf(toolset)
        cases: list[Case] = []
        for tool in toolset.tools:
            intents = self.intents(tool, idf=idf)[:per_tool]
            for k, intent in enumerate(intents, start=1):
                cases.append(
                    Case(
                        id=f"gen-{tool.name}-{k}",
                        intent=intent,
                        expected=tool.name,
                        acceptable_arguments=None,
                        provenance=Provenance.AI_GENERATED,
                        family=CaseFamily.POSITIVE,
                        target_tool=tool.name,
                        note=f"phrasing {k} of {len(intents)} (1 = most explicit)",
                    )
                )
            if negatives and intents and len(toolset.tools) > 1:
                cases.append(
                    Case(
                        id=f"nearmiss-{tool.name}",
                        intent=intents[0],
                        expected=NO_TOOL,
                        provenance=Provenance.AI_GENERATED,
                        family=CaseFamily.NEAR_MISS,
                        target_tool=tool.name,
                        removed_tools=(tool.name,),
                        note=f"{tool.name} is removed from the tool set for this case",
                    )
                )
        if negatives:
            for k, text in enumerate(OFF_TOPIC_REQUESTS, start=1):
                cases.append(
                    Case(
                        id=f"offtopic-{k:02d}",
                        intent=text,
                        expected=NO_TOOL,
                        provenance=Provenance.HUMAN_FIXTURE,
                        family=CaseFamily.OFF_TOPIC,
                    )
                )
        return cases

    @staticmethod
    def _idf(toolset: ToolSet) -> dict[str, float]:
        df: Counter[str] = Counter()
        for tool in toolset.tools:
            df.update(set(words(tool.description or "")))
        n = max(1, len(toolset.tools))
        return {w: math.log((1 + n) / (1 + c)) + 1 for w, c in df.items()}

    def intents(self, tool: Tool, *, idf: dict[str, float]) -> list[str]:
        name_words = [w for w in split_identifier(tool.name) if not w.isdigit()]
        action = " ".join(name_words) or tool.name
        values = self._values(tool)
        value_text = ", ".join(f"{k} {v}" for k, v in values[:2])
        out: list[str] = []
        sentence = _first_sentence(tool.description or "")
        request = _as_request(sentence) if sentence else ""
        if request and len(request.split()) >= 4:
            out.append(request)
        out.append(f"{action.capitalize()}{' with ' + value_text if value_text else ''}.")
        out.append(f"How do I {action}{' for ' + str(values[0][1]) if values else ''}?")
        distinctive = self._distinctive(tool, idf=idf, exclude=set(name_words))
        if distinctive:
            goal = " ".join(distinctive[:3])
            out.append(f"I need something that handles {goal}{' — ' + str(values[0][1]) if values else ''}.")
            if values:
                out.append(f"{distinctive[0].capitalize()}: {values[0][1]}")
        seen: set[str] = set()
        unique = []
        for intent in out:
            if intent.lower() not in seen:
                seen.add(intent.lower())
                unique.append(intent)
        return unique

    @staticmethod
    def _values(tool: Tool) -> list[tuple[str, Any]]:
        props = tool.properties
        order = [p for p in tool.required if p in props] + [p for p in props if p not in tool.required]
        values = []
        for param in order:
            spec = props[param]
            if isinstance(spec, dict):
                value = _example_value(param, spec)
                if value is not None:
                    values.append((param, value))
        return values

    @staticmethod
    def _distinctive(tool: Tool, *, idf: dict[str, float], exclude: set[str]) -> list[str]:
        candidates = [
            w
            for w in words(tool.description or "")
            if w not in STOPWORDS and w not in exclude and len(w) > 3 and not w.isdigit()
        ]
        ranked = sorted(dict.fromkeys(candidates), key=lambda w: (-idf.get(w, 0.0), candidates.index(w)))
        return ranked[:3]
