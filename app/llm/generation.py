"""Cases written by the model (ai_generated) and checked by a separate validation call per case.

Per tool: one call for several phrasings, explicit to indirect. Negatives: off-topic requests (one call
per tool set) and a near-miss per tool (its most explicit phrasing with the tool removed, expecting
NO_TOOL). Then each case goes to a validation call that sees the tool set the case will run on and the
request, and names the tool it expects with a confidence; below the profile's threshold, or naming
another answer than the generator meant, the case is exploratory. The validator is the same family of
system as the selector, so these cases are directional evidence, not ground truth.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Protocol

from app.audit.models import NO_TOOL, Case, CaseFamily, CaseStatus, Provenance, ToolSet
from app.llm.answer import AnswerError, parse_json_answer
from app.llm.client import ChatClient
from app.llm.pool import map_bounded
from app.llm.profiles import LiveProfile, NamedSchema

log = logging.getLogger(__name__)

DIRECTIONAL_NOTE = (
    "ai_generated cases are written and validated by a model of the same family as the selector: "
    "directional evidence, not ground truth."
)


def _tools_text(tools: list[dict[str, Any]]) -> str:
    return json.dumps(tools, indent=2, ensure_ascii=False)


class ModelEndpoint(Protocol):
    """What a generator borrows from a live selector: its chat client, profile and concurrency."""

    chat: ChatClient
    profile: LiveProfile
    concurrency: int


class ModelCaseGenerator:
    """Implements app.audit.suite.CaseGenerator with model calls (cached like selection calls)."""

    def __init__(self, chat: ChatClient, *, profile: LiveProfile, concurrency: int = 8) -> None:
        self.chat = chat
        self.profile = profile
        self.concurrency = concurrency
        # Answers that could not be used (tool, why): the caller may show them in the report's notes.
        self.problems: list[str] = []

    @classmethod
    def for_selector(cls, selector: ModelEndpoint) -> ModelCaseGenerator:
        """A generator that uses the selector's endpoint, model, cache and concurrency."""
        return cls(selector.chat, profile=selector.profile, concurrency=selector.concurrency)

    def _ask(self, system: str, user: str, response: NamedSchema) -> tuple[dict[str, Any] | None, str | None]:
        done = self.chat.complete(
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
            tools=None,
            response=response,
        )
        try:
            return parse_json_answer(done.content, response.schema_), done.model
        except AnswerError as exc:
            return None, f"{exc} (raw: {(done.content or '')[:120]!r})"

    def _requests(self, prompt: str, *, what: str) -> list[str]:
        gen = self.profile
        value, info = self._ask(gen.generation_system, prompt, gen.generation_response)
        if value is None:
            self.problems.append(f"{what}: unusable generation answer: {info}")
            log.warning("case generation for %s gave an unusable answer: %s", what, info)
            return []
        seen: set[str] = set()
        out: list[str] = []
        for text in value.get("requests", []):
            cleaned = " ".join(str(text).split())
            if cleaned and cleaned.lower() not in seen:
                seen.add(cleaned.lower())
                out.append(cleaned)
        return out

    def generate(self, toolset: ToolSet, *, per_tool: int, negatives: bool) -> list[Case]:
        """Positives per tool, negatives when asked, each validated by a separate call."""
        if per_tool <= 0 or not toolset.tools:
            return []
        listing = _tools_text(toolset.to_mcp())
        names = toolset.names()

        def positives(name: str) -> list[str]:
            prompt = self.profile.positive_prompt.format(tools=listing, count=per_tool, tool=name)
            return self._requests(prompt, what=f"tool {name}")[:per_tool]

        per_name = map_bounded(positives, names, bound=self.concurrency)
        drafts: list[Case] = []
        for name, intents in zip(names, per_name, strict=True):
            for k, intent in enumerate(intents, start=1):
                drafts.append(
                    self._draft(
                        f"gen-{name}-{k}",
                        intent,
                        expected=name,
                        target=name,
                        note=f"phrasing {k} of {len(intents)} (1 = most explicit)",
                    )
                )
            if negatives and intents and len(names) > 1:
                drafts.append(
                    self._draft(
                        f"nearmiss-{name}",
                        intents[0],
                        expected=NO_TOOL,
                        target=name,
                        family=CaseFamily.NEAR_MISS,
                        removed=(name,),
                        note=f"{name} is removed from the tool set for this case",
                    )
                )
        if negatives:
            prompt = self.profile.off_topic_prompt.format(tools=listing, count=per_tool)
            for k, intent in enumerate(self._requests(prompt, what="off-topic requests")[:per_tool], start=1):
                drafts.append(
                    self._draft(f"offtopic-{k:02d}", intent, expected=NO_TOOL, target=None, family=CaseFamily.OFF_TOPIC)
                )
        return map_bounded(lambda case: self.validate(case, toolset), drafts, bound=self.concurrency)

    @staticmethod
    def _draft(
        case_id: str,
        intent: str,
        *,
        expected: str,
        target: str | None,
        family: CaseFamily = CaseFamily.POSITIVE,
        removed: tuple[str, ...] = (),
        note: str | None = None,
    ) -> Case:
        return Case(
            id=case_id,
            intent=intent,
            expected=expected,
            provenance=Provenance.AI_GENERATED,
            confidence=0.0,
            status=CaseStatus.EXPLORATORY,
            family=family,
            target_tool=target,
            removed_tools=removed,
            note=note,
        )

    def validate(self, case: Case, toolset: ToolSet) -> Case:
        """The case with the validator's confidence; scored only if it agrees and is confident enough."""
        visible = [t.to_mcp() for t in toolset.without(set(case.removed_tools))]
        prompt = self.profile.validation_prompt.format(tools=_tools_text(visible), request=case.intent)
        value, info = self._ask(self.profile.validation_system, prompt, self.profile.validation_response)
        parts = [case.note] if case.note else []
        if value is None:
            parts.append(f"validation answer unusable: {info}")
            return case.model_copy(
                update={"confidence": 0.0, "status": CaseStatus.EXPLORATORY, "note": "; ".join(parts)}
            )
        said = str(value.get("expected", ""))
        confidence = float(value.get("confidence", 0.0))
        agrees = said == case.expected
        scored = agrees and confidence >= self.profile.validation_threshold
        if not agrees:
            parts.append(f"validator expected {said} ({confidence:.2f}): {value.get('reason', '')}".strip())
        elif not scored:
            parts.append(f"validator agrees with low confidence {confidence:.2f}")
        return case.model_copy(
            update={
                "confidence": confidence,
                "status": CaseStatus.SCORED if scored else CaseStatus.EXPLORATORY,
                "note": "; ".join(parts) or None,
            }
        )
