"""Successors of removed tools: where a merge, a split or a rename sent each removed tool's requests.

A pull request that merges four tab tools into one `browser_tabs` with `action: list|new|close|select` removes
four tools; their requests are not lost if they now reach `browser_tabs` with the right action. For each tool of
base absent from head, `find_successors` looks, in this order and deterministically, for:

1. `config`: the repository's `successors:` entry (`old: new` or `old: {tool: new, arguments: {action: close}}`);
2. `renamed`: a new tool whose definition apart from its name is the old one's (or whose description names the
   old tool, `named`);
3. `action`: a new or changed tool with an enum parameter whose member names the old tool's operation: the
   member's words are among the old name's words (a verb may be a paraphrase: delete/remove) and the rest of the
   old name is what the new tool's name says (`browser_tab_close` -> `browser_tabs`, `action: close`;
   `list_workflows` -> `actions_list`, `method: list_workflows`), or the reverse (a split of one tool with an
   enum into one tool per member);
4. `matched`: the one new tool most like it by description and parameters (TF-IDF cosine of words and shared
   parameter names), when the two are each other's best match by a clear margin; confidence under
   MIN_CONFIDENCE gives no successor.

On head, a base case expecting a removed tool with a successor is judged against the successor (and the argument
values it names): reaching it keeps the request, missing it is a regression (app/audit/selection.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field

from app.audit.listed_values import prose_values
from app.audit.models import Tool, ToolSet
from app.audit.text import STOPWORDS, cosine, has_token, jaccard, match_stem, split_identifier, tfidf_vectors, words
from app.errors import ConfigError

# No successor is claimed below this confidence.
MIN_CONFIDENCE = 0.7
# A removed and an added tool with the same parameters and descriptions this alike (word Jaccard) are a rename.
RENAMED = 0.8
# A `matched` successor must beat the next candidate by this much (both ways).
MATCH_MARGIN = 0.1
# Verbs that name one operation; a member and an old tool name match through them (delete_file -> action: remove).
# Only verbs of one meaning are grouped: get and list, for instance, name two operations.
PARAPHRASES: tuple[frozenset[str], ...] = tuple(
    frozenset(match_stem(w) for w in group.split())
    for group in (
        "delete remove destroy erase",
        "create add new make",
        "update edit modify change",
        "get read fetch retrieve show view describe",
        "select switch focus activate",
        "close shut",
        "open launch",
        "start run execute",
        "stop halt cancel",
    )
)


# How well an enum member names an old tool: (exact, rest in the name, literal, member words); larger is better.
Key = tuple[int, int, int, int]


class SuccessorRule(BaseModel):
    """One `successors:` entry of the config: the new tool and the argument values its call must carry."""

    tool: str = Field(min_length=1)
    arguments: dict[str, Any] = Field(default_factory=dict)
    # Where the entry is written, for errors (set by app/config.py; not part of the config's schema).
    file: str | None = Field(default=None, exclude=True)
    line: int | None = Field(default=None, exclude=True)


class Target(BaseModel):
    """One tool a removed tool's requests should now reach, with the argument values that select the operation."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)

    def label(self) -> str:
        args = ", ".join(f"{k}: {v}" for k, v in sorted(self.arguments.items()))
        return f"{self.tool} ({args})" if args else self.tool


class Successor(BaseModel):
    """Where a removed tool's requests go: one target (a merge or a rename) or several (a split)."""

    removed: str
    targets: list[Target]
    how: str  # "config", "renamed", "named", "action", "split", "matched"
    confidence: float

    def label(self) -> str:
        return " or ".join(t.label() for t in self.targets)


def _stems(text: str) -> list[str]:
    return [match_stem(w) for w in words(text) if w not in STOPWORDS]


def _name_stems(name: str) -> list[str]:
    return [match_stem(w) for w in split_identifier(name)]


def _same_operation(a: str, b: str) -> bool:
    return a == b or any(a in g and b in g for g in PARAPHRASES)


def _enum_params(tool: Tool) -> list[tuple[str, list[str]]]:
    """String parameters with a closed set of values: an `enum`, or (servers often write them so) values listed
    in prose (app/audit/listed_values.py)."""
    props = tool.input_schema.get("properties")
    if not isinstance(props, dict):
        return []
    out: list[tuple[str, list[str]]] = []
    for name, spec in sorted(props.items()):
        if not isinstance(spec, dict):
            continue
        values = spec.get("enum")
        if isinstance(values, list) and len(values) >= 2 and all(isinstance(v, str) for v in values):
            out.append((name, list(values)))
        elif listed := prose_values(name, spec, tool.description or ""):
            out.append((name, listed))
    return out


def _covers(member: list[str], name: list[str]) -> tuple[list[str], bool] | None:
    """Each member word matched by a distinct word of `name`: the words of `name` left, and whether a paraphrase
    was needed; None when some member word has no match."""
    left = list(name)
    paraphrased = False
    for word in member:
        hit = next((w for w in left if w == word), None)
        if hit is None:
            hit = next((w for w in left if _same_operation(w, word)), None)
            paraphrased = paraphrased or hit is not None
        if hit is None:
            return None
        left.remove(hit)
    return left, paraphrased


class _Finder:
    def __init__(self, base: ToolSet, head: ToolSet) -> None:
        self.base = base.by_name()
        self.head = head.by_name()
        self.removed = sorted(set(self.base) - set(self.head))
        self.added = sorted(set(self.head) - set(self.base))
        changed = sorted(
            n
            for n in set(self.base) & set(self.head)
            if self.base[n].definition_hash() != self.head[n].definition_hash()
        )
        self.candidates = [*self.added, *changed]
        # Description and schema of each new tool, for the rename checks of every removed one.
        self.bodies = {n: _body(self.head[n]) for n in self.added}
        # An enum member naming the old operation may also sit on a tool the change kept as it was (the
        # consolidated tool shipped earlier, the old ones are removed now); new and changed tools come first.
        self.everywhere = [*self.candidates, *sorted(n for n in self.head if n not in self.candidates)]
        # Words most of the tools both sides keep share in their names ("browser", "github") say nothing about
        # which tool a name means.
        kept = sorted(set(self.base) & set(self.head))
        counts: dict[str, int] = {}
        for name in kept:
            for w in set(_name_stems(name)):
                counts[w] = counts.get(w, 0) + 1
        self.common = {w for w, n in counts.items() if len(kept) > 2 and n > len(kept) / 2}

    def distinctive(self, left: list[str], name: str, described: str = "") -> bool:
        """The old name's words left over are what `name` says (or, given `described`, what the name and that
        text say), and at least one of them, in the name, tells it apart."""
        own = set(_name_stems(name))
        said = own | self.common | (set(_stems(described)) if described else set())
        return bool(left) and set(left) <= said and bool((set(left) & own) - self.common)

    def renamed(self, old: str) -> Successor | None:
        body = _body(self.base[old])
        same = [n for n in self.added if self.bodies[n] == body]
        if len(same) == 1:
            return Successor(removed=old, targets=[Target(tool=same[0])], how="renamed", confidence=1.0)
        # The same parameters, the description lightly reworded.
        close = [
            n
            for n in self.added
            if self.bodies[n][1] == body[1] and jaccard(words(body[0]), words(self.bodies[n][0])) >= RENAMED
        ]
        if len(close) == 1:
            return Successor(removed=old, targets=[Target(tool=close[0])], how="renamed", confidence=0.9)
        return None

    def named(self, old: str) -> list[str]:
        """New tools whose description names `old` (a name of one word is a word, not a name)."""
        if len(split_identifier(old)) < 2:
            return []
        needle = old.lower()
        return [n for n in self.candidates if has_token((self.head[n].description or "").lower(), needle)]

    def actions(self, old: str, within: Sequence[str]) -> list[tuple[Key, Target]]:
        """Enum members of the tools `within` that name `old`'s operation, best first: (exact, the rest of the
        old name in the new one's name rather than only in its descriptions, literal, words)."""
        old_words = _name_stems(old)
        found: list[tuple[Key, Target]] = []
        for name in within:
            tool = self.head[name]
            props = tool.input_schema.get("properties") or {}
            for param, members in _enum_params(tool):
                spec = props.get(param) if isinstance(props, dict) else None
                described = f"{tool.description or ''} {spec.get('description', '') if isinstance(spec, dict) else ''}"
                for member in members:
                    if member == old:
                        found.append(((1, 1, 1, 9), Target(tool=name, arguments={param: member})))
                        continue
                    member_words = _name_stems(member)
                    covered = _covers(member_words, old_words) if member_words else None
                    if covered is None:
                        continue
                    if self.distinctive(covered[0], name):
                        in_name = 1
                    elif self.distinctive(covered[0], name, described):
                        in_name = 0
                    else:
                        continue
                    key = (0, in_name, 0 if covered[1] else 1, len(member_words))
                    found.append((key, Target(tool=name, arguments={param: member})))
        return sorted(found, key=lambda kv: (*(-k for k in kv[0]), kv[1].tool))

    def member_for(self, old: str, new: str) -> dict[str, str]:
        """For a matched successor with closed-value parameters: the one value per parameter whose words are all
        in the old name (`create` for create_and_submit_review), where exactly one is."""
        old_words = _name_stems(old)
        out: dict[str, str] = {}
        for param, members in _enum_params(self.head[new]):
            fits = [m for m in members if _name_stems(m) and _covers(_name_stems(m), old_words) is not None]
            if len(fits) == 1:
                out[param] = fits[0]
        return out

    def split(self, old: str) -> list[Target]:
        """One new tool per member of the old tool's enum: `manage_issue(action: create|close)` -> `create_issue`,
        `close_issue`."""
        old_words = _name_stems(old)
        for _param, members in _enum_params(self.base[old]):
            targets: list[Target] = []
            for member in members:
                member_words = _name_stems(member)
                fits = []
                for name in self.added:
                    covered = _covers(member_words, _name_stems(name)) if member_words else None
                    if covered is not None and self.distinctive(covered[0], old) and set(covered[0]) <= set(old_words):
                        fits.append(name)
                if len(fits) == 1:
                    targets.append(Target(tool=fits[0]))
            if len(targets) >= 2:
                return targets
        return []

    def matched(self, removed: Sequence[str], added: Sequence[str]) -> dict[str, tuple[str, float]]:
        """Each removed tool's best match by words and parameter names, ahead of its runner-up by MATCH_MARGIN
        (several removed tools may match one new tool: a merge without an argument to tell them apart)."""
        if not removed or not added:
            return {}
        docs = [_stems(_document(self.base[n])) for n in removed] + [_stems(_document(self.head[n])) for n in added]
        vectors = tfidf_vectors(docs)
        old_v, new_v = vectors[: len(removed)], vectors[len(removed) :]
        sim = [
            [
                0.6 * cosine(ov, nv) + 0.4 * jaccard(_params(self.base[o]), _params(self.head[a]))
                for a, nv in zip(added, new_v, strict=True)
            ]
            for o, ov in zip(removed, old_v, strict=True)
        ]
        out: dict[str, tuple[str, float]] = {}
        for i, old in enumerate(removed):
            row = sim[i]
            j = max(range(len(added)), key=lambda k: (row[k], -k))
            best = row[j]
            runner = max((v for k, v in enumerate(row) if k != j), default=0.0)
            if best >= MIN_CONFIDENCE and best - runner >= MATCH_MARGIN:
                out[old] = (added[j], round(best, 2))
        return out


def _params(tool: Tool) -> set[str]:
    props = tool.input_schema.get("properties")
    return set(props) if isinstance(props, dict) else set()


def _body(tool: Tool) -> tuple[str, str]:
    return tool.description or "", json.dumps(tool.input_schema, sort_keys=True)


def _document(tool: Tool) -> str:
    return f"{' '.join(split_identifier(tool.name))} {tool.description or ''} {' '.join(sorted(_params(tool)))}"


def find_successors(
    base: ToolSet, head: ToolSet, configured: Mapping[str, SuccessorRule] | None = None
) -> list[Successor]:
    """A successor for each tool of `base` absent from `head` where one is found (see the module docstring)."""
    check_configured(configured or {}, base, head)
    finder = _Finder(base, head)
    found: dict[str, Successor] = {}
    for old in finder.removed:
        rule = (configured or {}).get(old)
        if rule is not None:
            target = Target(tool=rule.tool, arguments=dict(rule.arguments))
            found[old] = Successor(removed=old, targets=[target], how="config", confidence=1.0)
    renamed_to: set[str] = set()
    for old in finder.removed:
        if old in found:
            continue
        renamed = finder.renamed(old)
        if renamed is not None and renamed.targets[0].tool not in renamed_to:
            found[old] = renamed
            renamed_to.add(renamed.targets[0].tool)
    # Enum members: each (tool, parameter, member) goes to the old tool it names best; a tie between two old tools
    # gives it to neither.
    claims: dict[tuple[str, str], list[tuple[Key, str, Target]]] = {}
    for old in finder.removed:
        if old in found:
            continue
        named = finder.named(old)
        options = finder.actions(old, named or finder.everywhere)
        if options:
            key, target = options[0]
            claims.setdefault((target.tool, repr(sorted(target.arguments.items()))), []).append((key, old, target))
        elif len(named) == 1:
            found[old] = Successor(removed=old, targets=[Target(tool=named[0])], how="named", confidence=0.9)
        elif len(named) > 1:
            found[old] = Successor(removed=old, targets=[Target(tool=n) for n in named], how="named", confidence=0.9)
    for _member, rivals in sorted(claims.items()):
        rivals.sort(key=lambda r: (*(-k for k in r[0]), r[1]))
        if len(rivals) > 1 and rivals[0][0] == rivals[1][0]:
            continue
        key, old, target = rivals[0]
        confidence = 1.0 if key[0] else (0.95 if key[2] else 0.85) - (0.0 if key[1] else 0.1)
        found[old] = Successor(removed=old, targets=[target], how="action", confidence=confidence)
    for old in finder.removed:
        if old not in found:
            targets = finder.split(old)
            if targets:
                found[old] = Successor(removed=old, targets=targets, how="split", confidence=0.85)
    taken = {t.tool for s in found.values() for t in s.targets if s.how in ("renamed", "config")}
    rest = [o for o in finder.removed if o not in found]
    for old, (new, confidence) in finder.matched(rest, [n for n in finder.added if n not in taken]).items():
        target = Target(tool=new, arguments=finder.member_for(old, new))
        found[old] = Successor(removed=old, targets=[target], how="matched", confidence=confidence)
    return [found[o] for o in sorted(found)]


def check_configured(configured: Mapping[str, SuccessorRule], base: ToolSet, head: ToolSet) -> None:
    """A `successors:` entry for a tool this change removes must name a tool of head and arguments it has.

    An entry naming no tool of either side is an error when this change removes tools (a misspelt name would
    silently do nothing); entries for tools that exist but are not removed here are left alone: they were written
    for another pull request (the config is read at the base branch, and outlives the merge that needed it)."""
    base_names, head_names = set(base.names()), set(head.names())
    by_name = head.by_name()
    removes = bool(base_names - head_names)
    for old, rule in sorted(configured.items()):
        where = {"file": rule.file, "line": rule.line, "key": f"successors.{old}"}
        if old not in base_names and old not in head_names and removes:
            raise ConfigError(
                f"successors.{old}: no tool of either side is named {old!r} (this change removes "
                f"{', '.join(sorted(base_names - head_names)[:8])}); correct the name or delete the entry",
                **where,
            )
        if old not in base_names or old in head_names:
            continue
        if rule.tool not in head_names:
            raise ConfigError(
                f"successors.{old}: {rule.tool!r} is not a tool of the head side (its tools: "
                f"{', '.join(sorted(head_names)[:8])}{', ...' if len(head_names) > 8 else ''})",
                **where,
            )
        props = by_name[rule.tool].input_schema.get("properties")
        props = props if isinstance(props, dict) else {}
        for arg, value in sorted(rule.arguments.items()):
            if arg not in props:
                raise ConfigError(f"successors.{old}: {rule.tool} has no parameter {arg!r}", **where)
            members = props[arg].get("enum") if isinstance(props[arg], dict) else None
            if isinstance(members, list) and value not in members:
                raise ConfigError(
                    f"successors.{old}: {value!r} is not a value of {rule.tool}'s parameter {arg} "
                    f"(one of: {', '.join(map(str, members))})",
                    **where,
                )


def choose_targets(successor: Successor, intent: str, head: Mapping[str, Tool]) -> list[Target]:
    """The targets a request fits best (a split's request goes to the new tool whose words it shares most); ties
    are all accepted."""
    if len(successor.targets) == 1:
        return list(successor.targets)
    asked = set(_stems(intent))

    def fit(target: Target) -> int:
        # Words of the tool's name (a verb through its paraphrases) count twice those of its description.
        tool = head.get(target.tool)
        named = sum(1 for w in set(_name_stems(target.tool)) if any(_same_operation(w, a) for a in asked))
        return 2 * named + len(asked & set(_stems(tool.description or "" if tool else "")))

    best = max(fit(t) for t in successor.targets)
    return [t for t in successor.targets if fit(t) == best]
