"""All requests for one tool, in three families, best first within each and the families interleaved.

- explicit (explicit.py): the description's action as an imperative, with values ("Fetch the ticket T-1042."),
  and a second one from the tool's name words ("Get the dependabot alert #142 in acme/webshop.").
- task (frames.py): the user's goal in other words, from a frame of the verb's class ("Can you pull up the
  ticket T-1042?").
- indirect (frames.py): the situation, not the action ("The ticket T-1042 is no longer needed.").
A tool of several operations is read as the one its variant picks (operations.py). Frames are data (frames.yml),
every word list is in the lexicon (lexicon.yml, read as `WORDS`). Values go into the object phrase with
placing.py, said as mentions.py words them. Every request is finished by realiser.py: a sentence with a capital
letter, an end mark, no unfilled slot and no repeated word; anything else is dropped, never shown.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from app.audit.models import Tool
from app.audit.suite.explicit import explicit
from app.audit.suite.frames import framed
from app.audit.suite.operations import operation_reading
from app.audit.suite.phrase_parts import Phrased
from app.audit.suite.reading import TOOL_CACHE, read_tool
from app.audit.suite.realiser import finish
from app.audit.suite.values import ToolText, tool_text, tool_values
from app.audit.text import split_identifier

# A first name word shared by this share of a server's tools is the server's prefix.
PREFIX_SHARE = 0.3


def name_prefixes(names: list[str]) -> frozenset[str]:
    """Words that open many of a server's tool names ('slack_', 'browser_'): the server's, not the action's."""
    if len(names) < 3:
        return frozenset()
    firsts = Counter(split_identifier(n)[0] for n in names if split_identifier(n))
    return frozenset(w for w, c in firsts.items() if c / len(names) >= PREFIX_SHARE)


def phrasings(tool: Tool, *, variant: int = 0, prefixes: frozenset[str] = frozenset()) -> list[Phrased]:
    """All requests for `tool`, best first within each family, families interleaved.

    Kept per tool text: a tool short of scored cases asks for its requests again with a larger budget.
    """
    return list(_phrasings(tool_text(tool), variant, prefixes))


@lru_cache(maxsize=TOOL_CACHE)
def _phrasings(text: ToolText, variant: int, prefixes: frozenset[str]) -> tuple[Phrased, ...]:
    """`phrasings` of the tool `text` carries, kept by its text."""
    tool = text.tool
    read = read_tool(tool)
    reading = operation_reading(read, tool, variant=variant, prefixes=prefixes)
    values = tool_values(tool, variant=variant)
    if reading is not read and reading.verb_class in ("list", "delete"):
        # A listing names no one thing; what is removed is not written ('Delete the comment saying ...').
        gone = "ref" if reading.verb_class == "list" else "content"
        values = [v for v in values if v.role != gone]
    families = [
        explicit(reading, values, tool, prefixes),
        framed("task", reading, values),
        framed("indirect", reading, values),
    ]
    out: list[Phrased] = []
    seen: set[str] = set()
    for rank in range(max(len(f) for f in families)):
        for family in families:
            if rank < len(family) and (request := finish(family[rank].text)) and request.lower() not in seen:
                seen.add(request.lower())
                out.append(Phrased(request, family[rank].phrasing))
    return tuple(out)
