"""The synthetic selector's caches: analysed tools and indexed tool lists, bounded, reused across requests."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from app.audit.synthetic.analysis import ToolDoc, action_kinds, analyse_tool
from app.audit.synthetic.index import ToolSetIndex, build_index, derive_index, with_norms
from app.audit.synthetic.profiles import Profile

# A near-miss list differs from a cached one by a few removed tools; past this many, build anew.
_MAX_REMOVED_FOR_DERIVING = 8
# Tool lists compared by equality before keys are computed.
_RECENT_LISTS = 3
# Cached indexes tried as the base of a derived one, most recent first.
_DERIVE_CANDIDATES = 4

ToolKey = tuple[str, str, str, str]


class IndexCache:
    """Bounded LRU caches: analysed tools by their content, indexes by the tuple of their tools' keys."""

    def __init__(self, profile: Profile) -> None:
        self._profile = profile
        self._kinds = action_kinds(profile)
        self._tools: OrderedDict[ToolKey, ToolDoc] = OrderedDict()
        self._sets: OrderedDict[tuple[ToolKey, ...], ToolSetIndex] = OrderedDict()
        self._recent: list[tuple[list[dict[str, Any]], ToolSetIndex]] = []
        # Schema objects already serialised: id -> (the object, kept alive so the id stays its own; JSON).
        self._schemas: OrderedDict[int, tuple[Any, str]] = OrderedDict()
        self._lock = threading.Lock()

    def index_for(self, tools: list[dict[str, Any]]) -> ToolSetIndex:
        """The index of `tools`. Tool dicts are taken as immutable once passed in (lists may change)."""
        with self._lock:
            return self._index_for(tools)

    def _index_for(self, tools: list[dict[str, Any]]) -> ToolSetIndex:
        # Nearby requests usually carry an equal tool list; comparing is cheaper than computing keys.
        for seen, known in self._recent:
            if len(seen) == len(tools) and seen == tools:
                return known
        keys = tuple(self._key(t) for t in tools)
        index = self._sets.get(keys)
        if index is None:
            index = self._derived(keys) or build_index([self._doc(k, t) for k, t in zip(keys, tools, strict=True)])
            with_norms(index, self._profile)
            self._sets[keys] = index
            if len(self._sets) > self._profile.cache.tool_sets:
                self._sets.popitem(last=False)
        else:
            self._sets.move_to_end(keys)
        # A copy of the list, so that a caller who changes its own list later is not answered from it.
        self._recent = [(list(tools), index), *self._recent[: _RECENT_LISTS - 1]]
        return index

    def _derived(self, keys: tuple[ToolKey, ...]) -> ToolSetIndex | None:
        tried = 0
        for base_keys in reversed(self._sets):
            base = self._sets[base_keys]
            if base.remap is not None or not 0 < len(base_keys) - len(keys) <= _MAX_REMOVED_FOR_DERIVING:
                continue
            kept = _subsequence(keys, base_keys)
            if kept is not None:
                # Keep the base fresh: a run of near-miss lists derived from it must not evict it.
                self._sets.move_to_end(base_keys)
                return derive_index(base, kept)
            tried += 1
            if tried >= _DERIVE_CANDIDATES:
                break
        return None

    def _key(self, tool: dict[str, Any]) -> ToolKey:
        schema = tool.get("inputSchema")
        memo = self._schemas.get(id(schema))
        if memo is not None and memo[0] is schema:
            schema_json = memo[1]
        else:
            schema_json = json.dumps(schema, sort_keys=True, ensure_ascii=False, default=str)
            self._schemas[id(schema)] = (schema, schema_json)
            if len(self._schemas) > self._profile.cache.tools:
                self._schemas.popitem(last=False)
        name, title, description = tool.get("name"), tool.get("title"), tool.get("description")
        if type(name) is str and (title is None or type(title) is str) and type(description) is str:
            return (name, title or "", description, schema_json)
        return (_text(name), _text(title), _text(description), schema_json)

    def _doc(self, key: ToolKey, tool: dict[str, Any]) -> ToolDoc:
        doc = self._tools.get(key)
        if doc is None:
            doc = analyse_tool(tool, self._profile, kinds=self._kinds)
            self._tools[key] = doc
            if len(self._tools) > self._profile.cache.tools:
                self._tools.popitem(last=False)
        else:
            self._tools.move_to_end(key)
        return doc


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return "" if value is None else json.dumps(value, sort_keys=True, default=str)


def _subsequence(keys: tuple[ToolKey, ...], base: tuple[ToolKey, ...]) -> list[int] | None:
    """Positions in `base` of `keys` if `keys` is `base` with some items removed, else None."""
    kept: list[int] = []
    j = 0
    for key in keys:
        while j < len(base) and base[j] != key:
            j += 1
        if j == len(base):
            return None
        kept.append(j)
        j += 1
    return kept
