"""Finding successors: the thresholds, the words of names and enum members, the search for renames, actions,
splits and matches (`Finder`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from app.audit.listed_values import prose_values
from app.audit.models import Tool, ToolSet
from app.audit.successors.models import Successor, Target
from app.audit.text import STOPWORDS, cosine, has_token, jaccard, match_stem, split_identifier, tfidf_vectors, words

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


def stems(text: str) -> list[str]:
    return [match_stem(w) for w in words(text) if w not in STOPWORDS]


def name_stems(name: str) -> list[str]:
    return [match_stem(w) for w in split_identifier(name)]


def same_operation(a: str, b: str) -> bool:
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
            hit = next((w for w in left if same_operation(w, word)), None)
            paraphrased = paraphrased or hit is not None
        if hit is None:
            return None
        left.remove(hit)
    return left, paraphrased


class Finder:
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
            for w in set(name_stems(name)):
                counts[w] = counts.get(w, 0) + 1
        self.common = {w for w, n in counts.items() if len(kept) > 2 and n > len(kept) / 2}

    def distinctive(self, left: list[str], name: str, described: str = "") -> bool:
        """The old name's words left over are what `name` says (or, given `described`, what the name and that
        text say), and at least one of them, in the name, tells it apart."""
        own = set(name_stems(name))
        said = own | self.common | (set(stems(described)) if described else set())
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
        old_words = name_stems(old)
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
                    member_words = name_stems(member)
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
        old_words = name_stems(old)
        out: dict[str, str] = {}
        for param, members in _enum_params(self.head[new]):
            fits = [m for m in members if name_stems(m) and _covers(name_stems(m), old_words) is not None]
            if len(fits) == 1:
                out[param] = fits[0]
        return out

    def split(self, old: str) -> list[Target]:
        """One new tool per member of the old tool's enum: `manage_issue(action: create|close)` -> `create_issue`,
        `close_issue`."""
        old_words = name_stems(old)
        for _param, members in _enum_params(self.base[old]):
            targets: list[Target] = []
            for member in members:
                member_words = name_stems(member)
                fits = []
                for name in self.added:
                    covered = _covers(member_words, name_stems(name)) if member_words else None
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
        docs = [stems(_document(self.base[n])) for n in removed] + [stems(_document(self.head[n])) for n in added]
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
