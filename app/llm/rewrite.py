"""The live_model description rewriter: the model proposes a rewrite under the optimizer's constraints.

The prompt is data (selectors/optimizer.yml, checked by optimizer.schema.json). The model's answer only
becomes a Rewrite; app.suggest.optimizer.check_rewrite then applies the same checks as to a synthetic
rewrite (length, facts kept, no invented identifiers, targeted rules passing) and the rerun uses the
same live selector (model and settings) as the audit.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator
from pydantic import BaseModel

from app.audit.models import sha256_of
from app.errors import SelectorError
from app.llm.answer import AnswerError, parse_json_answer
from app.llm.client import ChatClient
from app.llm.profiles import NamedSchema
from app.llm.selector import LiveSelector
from app.resources import selectors_dir
from app.suggest.models import Rewrite, RewriteContext

PROMPT_FILE = "optimizer.yml"
SCHEMA_FILE = "optimizer.schema.json"


class RewritePrompt(BaseModel):
    name: str
    max_chars: int
    system_prompt: str
    user_template: str
    response: NamedSchema
    hash: str


def load_prompt(path: Path | None = None) -> RewritePrompt:
    """The shipped prompt, or the one at `path`; a broken file raises SelectorError naming it."""
    return _load(path or selectors_dir() / PROMPT_FILE)


@cache
def _load(path: Path) -> RewritePrompt:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SelectorError(f"{path}: cannot read the rewriter prompt: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise SelectorError(f"{path}: the rewriter prompt is not valid YAML") from exc
    schema = json.loads((selectors_dir() / SCHEMA_FILE).read_text(encoding="utf-8"))
    errors = sorted(Draft202012Validator(schema).iter_errors(data), key=lambda e: [str(p) for p in e.path])
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(top level)"
        raise SelectorError(f"{path}: the rewriter prompt is invalid at {where}: {errors[0].message}")
    return RewritePrompt(
        name=data["name"],
        max_chars=data["max_chars"],
        system_prompt=data["system_prompt"].replace("{max_chars}", str(data["max_chars"])),
        user_template=data["user_template"],
        response=NamedSchema.of(data["response_schema"]),
        hash=sha256_of(data),
    )


class ModelRewriter:
    """Implements app.suggest.optimizer.Rewriter with one model call per tool (cached like selection calls)."""

    def __init__(self, chat: ChatClient, *, prompt: RewritePrompt | None = None) -> None:
        self.chat = chat
        self.prompt = prompt or load_prompt()
        # Answers that could not be used (tool: why), for the caller to show.
        self.problems: list[str] = []

    @classmethod
    def for_selector(cls, selector: LiveSelector) -> ModelRewriter:
        """A rewriter on the selector's endpoint, model, settings and cache."""
        return cls(selector.chat)

    @property
    def name(self) -> str:
        return f"live_model:{self.chat.model}"

    def user_message(self, context: RewriteContext) -> str:
        findings = "\n".join(f"- {f.rule_id}: {f.message}" for f in context.findings) or "- none"
        by_name = {t.name: t for t in context.sibling_tools}
        lines = []
        for s in context.siblings:
            text = (by_name[s.name].description or "").strip()[:300] if s.name in by_name else ""
            lines.append(f"- {s.name} ({s.why}): {text}")
        siblings = "\n".join(lines) or "- none"
        tool = json.dumps(context.tool.to_mcp(), indent=2, ensure_ascii=False)
        observed = (
            f"- {context.missed_to_no_tool} of its own requests got no tool (NO_TOOL)\n"
            f"- it was chosen for {context.took_no_tool} request(s) that needed no tool"
        )
        return (
            self.prompt.user_template.replace("{tool}", tool)
            .replace("{findings}", findings)
            .replace("{siblings}", siblings)
            .replace("{observed}", observed)
        )

    def rewrite(self, context: RewriteContext) -> Rewrite | None:
        done = self.chat.complete(
            messages=[
                {"role": "system", "content": self.prompt.system_prompt},
                {"role": "user", "content": self.user_message(context)},
            ],
            tools=None,
            response=self.prompt.response,
        )
        try:
            answer = parse_json_answer(done.content, self.prompt.response.schema_)
        except AnswerError as exc:
            self.problems.append(f"{context.tool.name}: {exc}")
            return None
        description = answer["description"].strip()
        return Rewrite(
            tool=context.tool.name,
            description=description if description != (context.tool.description or "").strip() else None,
            parameters={k: v.strip() for k, v in answer["parameters"].items()},
            rules=sorted(set(answer["rules"])),
            siblings=[s.name for s in context.siblings if s.name in description],
        )
