"""The separate validation step for machine-written cases: can the expected answer be defended?

The validator is deliberately a different scorer from the synthetic selector: TF-IDF cosine between
the request and each tool's whole text (name words, title, description, parameter names and
descriptions), computed over the tool set. For a positive case the expected tool must rank first;
its confidence is 1 - 0.5 x (runner-up / top), so a clear winner gets 1.0, a runner-up at 60% of the
top score 0.7, a tie 0.5. For a NO_TOOL case (near-miss or off-topic) the confidence is
1 - 1.0 x (best remaining tool's cosine), floored at 0: when another tool plausibly serves the
request, NO_TOOL cannot be defended. Cases under the threshold become `exploratory`.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter, defaultdict

from app.audit.models import NO_TOOL, Case, CaseStatus, Tool, ToolSet
from app.audit.text import content_stems, split_identifier

# Cases whose expected answer cannot be defended with at least this confidence are exploratory.
MIN_CONFIDENCE = 0.7
RUNNER_UP_WEIGHT = 0.5
NO_TOOL_WEIGHT = 1.0


def tool_text(tool: Tool) -> str:
    parts = [" ".join(split_identifier(tool.name)), tool.title or "", tool.description or ""]
    for param, spec in tool.properties.items():
        parts.append(" ".join(split_identifier(param)))
        if isinstance(spec, dict) and isinstance(spec.get("description"), str):
            parts.append(spec["description"])
    return " ".join(parts)


class CaseValidator:
    """Scores requests against one tool set with an inverted TF-IDF index."""

    def __init__(self, toolset: ToolSet) -> None:
        self.names = toolset.names()
        docs = [content_stems(tool_text(t)) for t in toolset.tools]
        n = len(docs)
        df: Counter[str] = Counter()
        for doc in docs:
            df.update(set(doc))
        self.idf = {t: math.log((1 + n) / (1 + c)) + 1.0 for t, c in df.items()}
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, doc in enumerate(docs):
            tf = Counter(doc)
            vec = {t: c * self.idf[t] for t, c in tf.items()}
            norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
            for t, v in vec.items():
                self.postings[t].append((i, v / norm))

    def scores(self, text: str, *, removed: tuple[str, ...] = ()) -> dict[str, float]:
        tf = Counter(t for t in content_stems(text) if t in self.idf)
        vec = {t: c * self.idf[t] for t, c in tf.items()}
        norm = math.sqrt(sum(v * v for v in vec.values()))
        if not norm:
            return {}
        acc: dict[int, float] = defaultdict(float)
        for t, v in vec.items():
            for i, w in self.postings[t]:
                acc[i] += (v / norm) * w
        return {self.names[i]: s for i, s in acc.items() if self.names[i] not in removed}

    def validate(self, case: Case, *, min_confidence: float) -> Case:
        scores = self.scores(case.intent, removed=case.removed_tools)
        ranked = heapq.nsmallest(2, scores.items(), key=lambda kv: (-kv[1], kv[0]))
        if case.expected == NO_TOOL:
            best = ranked[0] if ranked else None
            confidence = max(0.0, 1.0 - NO_TOOL_WEIGHT * best[1]) if best else 1.0
            note = (
                f"validator: closest remaining tool {best[0]} ({best[1]:.2f})" if best else "validator: no tool matches"
            )
        elif not ranked or ranked[0][0] != case.expected:
            confidence = 0.3 if ranked else 0.0
            note = f"validator expected {ranked[0][0]}" if ranked else "validator: no tool matches"
        else:
            runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
            confidence = 1.0 - RUNNER_UP_WEIGHT * (runner_up / ranked[0][1])
            note = f"validator agrees (runner-up {ranked[1][0]})" if len(ranked) > 1 else "validator agrees"
        confidence = round(confidence, 3)
        status = CaseStatus.SCORED if confidence >= min_confidence else CaseStatus.EXPLORATORY
        joined = f"{case.note}; {note}" if case.note else note
        return case.model_copy(update={"confidence": confidence, "status": status, "note": joined})
