"""A tool set indexed for the validator: each tool's words by where it has them (name, text, parameters), their
rarity, the tools that have each word, and a request's words that can name a tool (see validate.py)."""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict

from app.audit.models import Tool, ToolSet
from app.audit.suite.lexicon import WORDS
from app.audit.suite.reading import operation_members, read_tool
from app.audit.suite.request_words import VALUE, filler_words, frame_free_verbs
from app.audit.text import folded_stems, has_token, match_stem, split_identifier, words

# Where a tool has a request's word: in its name, in its title or description, only in its parameters.
NAME_WEIGHT, TEXT_WEIGHT, PARAMETER_WEIGHT = 1.0, 0.7, 0.4
# Letters a derivation shares with the name word it comes from ("aggregation" and "aggregate").
PREFIX = 7


def _replacements(tool: Tool, names: list[str]) -> set[str]:
    """The tools `tool`'s description marks it deprecated in favour of ("DEPRECATED: Use read_text_file instead")."""
    text = (tool.description or "").lower()
    if "deprecated" not in text or "instead" not in text:
        return set()
    return {n for n in names if n != tool.name and has_token(text, n.lower())}


def _parameter_text(tool: Tool) -> str:
    parts = []
    for param, spec in tool.properties.items():
        parts.append(" ".join(split_identifier(param)))
        if isinstance(spec, dict) and isinstance(spec.get("description"), str):
            parts.append(spec["description"])
    return " ".join(parts)


def _name_slots(name: str, operations: tuple[str, ...] = ()) -> list[frozenset[str]]:
    """A name's words as slots a request can fill; 'create_or_update_file' -> [{create, update}, {file}]. A name
    word that says only that the tool acts on a thing ('manage', 'lifecycle') is filled by the `operations` its
    schema offers: 'Start the VirtualMachine web-vm-1' says vm_lifecycle, whose `action` is start, stop or
    restart. Not 'read' or 'write': servers that have them also have the older one-operation tools, and a
    request for one operation is rightly contested between the two."""
    acting = {*WORDS.aspects, *WORDS.vague}
    slots: list[set[str]] = []
    joined = False
    for word in split_identifier(name):
        if word in ("or", "and"):
            joined = bool(slots)
            continue
        stems = set(folded_stems(word))
        if not stems:
            continue
        stems.update(folded_stems(" ".join(WORDS.slot_words.get(word, ()))))
        if word.lower() in acting:
            stems.update(folded_stems(" ".join(operations)))
        if joined:
            slots[-1] |= stems
        else:
            slots.append(stems)
        joined = False
    # "request_pull_request_reviewers": a word the name says twice is one slot, not two the request fills.
    return list(dict.fromkeys(frozenset(s) for s in slots))


class ToolIndex:
    """One tool set's words, indexed so that a request's scores read only the tools with one of its words."""

    def __init__(self, toolset: ToolSet) -> None:
        self.names = toolset.names()
        self.position = {name: i for i, name in enumerate(self.names)}
        self.repeated = len(self.position) < len(self.names)
        self.kinds = [read_tool(t).verb_class for t in toolset.tools]
        self.said = {t.name: frozenset(folded_stems(f"{t.title or ''} {t.description or ''}")) for t in toolset.tools}
        self.fields: list[dict[str, float]] = []
        self.name_terms: list[list[frozenset[str]]] = []
        self.param_names: list[frozenset[str]] = []
        df: Counter[str] = Counter()
        for tool in toolset.tools:
            name = set(folded_stems(" ".join(split_identifier(tool.name))))
            text = set(folded_stems(f"{tool.title or ''} {tool.description or ''}"))
            params = set(folded_stems(_parameter_text(tool)))
            weights = dict.fromkeys(params, PARAMETER_WEIGHT)
            weights.update(dict.fromkeys(text, TEXT_WEIGHT))
            weights.update(dict.fromkeys(name, NAME_WEIGHT))
            self.fields.append(weights)
            # Members that are a bare verb ('create'); 'resolve_thread' names a thing of its own, not what 'write' does.
            verbs = tuple(m for m in operation_members(tool) if len(split_identifier(m)) == 1)
            self.name_terms.append(_name_slots(tool.name, verbs))
            param_words = " ".join(" ".join(split_identifier(p)) for p in tool.properties)
            self.param_names.append(frozenset(folded_stems(param_words)))
            df.update(weights)
        n = len(self.fields)
        self.name_stems = [frozenset(t for slot in slots for t in slot) for slots in self.name_terms]
        self.named = frozenset().union(*self.name_stems)
        # "DEPRECATED: Use read_text_file instead": where the replacement fits too, the old tool can't be defended.
        self.replaced_by = {t.name: _replacements(t, self.names) for t in toolset.tools}
        self.by_prefix: dict[str, list[str]] = defaultdict(list)
        for stem in sorted(self.named):
            if len(stem) >= PREFIX:
                self.by_prefix[stem[:PREFIX]].append(stem)
        # Word pairs of the names ("pull request"): a frame's word inside one is the name's, not the frame's.
        self.pairs = frozenset(
            pair for t in toolset.tools for pair in itertools.pairwise(folded_stems(" ".join(split_identifier(t.name))))
        )
        self.idf = {t: math.log((1 + n) / (1 + c)) + 1.0 for t, c in df.items()}
        ordered = sorted(self.idf.values())
        self.unknown_idf = ordered[len(ordered) // 2] if ordered else 1.0
        self.postings: dict[str, list[int]] = defaultdict(list)
        for i, weights in enumerate(self.fields):
            for t in weights:
                self.postings[t].append(i)
        # Which tools' names have a word (some slot of theirs has it).
        self.name_postings: dict[str, list[int]] = defaultdict(list)
        for i, stems in enumerate(self.name_stems):
            for t in stems:
                self.name_postings[t].append(i)
        # Per tool, the words whose having counts: a frame's filler word only where the tool's name says it
        # (_counts), which is the same for every request.
        filler = filler_words()
        self.counting = [frozenset(t for t in ws if self._counts(i, t, filler)) for i, ws in enumerate(self.fields)]
        # Per word, the tools whose having it counts, by where they have it: one weight for each such group.
        self.counted: dict[str, list[tuple[float, list[int]]]] = {}
        for t, ids in self.postings.items():
            where: dict[float, list[int]] = defaultdict(list)
            for i in ids:
                if t in self.counting[i]:
                    where[self.fields[i][t]].append(i)
            self.counted[t] = list(where.items())
        # Per word, the tools with a parameter of that name (a request may give its value right after it).
        self.takes: dict[str, set[int]] = defaultdict(set)
        for i, taken in enumerate(self.param_names):
            for t in taken:
                self.takes[t].add(i)

    def _compounds(self, text: str) -> list[str]:
        """Name words the request writes as two ("free/busy", "TaskRun" for get-freebusy, tekton_taskrun_logs)."""
        said = words(text)
        joined = (match_stem(a + b) for a, b in itertools.pairwise(said))
        return [t for t in joined if t in self.named]

    def _terms(self, text: str) -> list[str]:
        """The request's words that can name a tool: no example values, no frame filler."""
        filler = filler_words()
        # A frame word the request uses as its own verb counts, but only for the tools whose name says it.
        verbs = frame_free_verbs(text) & filler & self.named
        said = folded_stems(VALUE.sub(" ", text))
        paired = {t for pair in itertools.pairwise(said) if pair in self.pairs for t in pair}
        # A derivation of a name word says it too ("an aggregation" for aggregate): 7 letters in common.
        long = [t for t in said if len(t) > PREFIX and t not in self.named]
        derived = [n for t in long for n in self.by_prefix.get(t[:PREFIX], ())]
        stems = dict.fromkeys([*said, *self._compounds(text), *derived])
        return [t for t in stems if t not in filler or t in verbs or t in paired]

    def _counts(self, i: int, term: str, filler: frozenset[str]) -> bool:
        """Whether tool i's having `term` counts: a frame's filler word only where the tool's name says it."""
        return term not in filler or self.fields[i][term] == NAME_WEIGHT
