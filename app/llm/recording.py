"""Recordings of a live review's answers (`--record FILE`) and reviews answered from one (`--replay FILE`).

A recording is JSON Lines. The first line says what it was recorded against:
`{"recording": "toolchoice.answers/1", "endpoint": ..., "model": ..., "settings": {...}}` (the settings that
shape an answer); then one line per call, sorted by key: `{"key": <the call's cache key>, "request": <the
user message, for people>, "answers": [<answer>, ...]}`, where the first answer is the one the review used and
any further ones are the fresh answers of confirmation re-runs, in order. A replay answers only from the file:
a call whose key is missing is an error naming the key and the request, never a model call.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from app.errors import ReplayError

FORMAT = "toolchoice.answers/1"


def _user_text(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user":
            return str(message.get("content") or "")
    return ""


class Recorder:
    """Collects every answer a review used, by key, and writes them as a recording."""

    def __init__(self, path: Path, *, endpoint: str, model: str, settings: dict[str, Any]) -> None:
        self.path = path
        self.header = {"recording": FORMAT, "endpoint": endpoint, "model": model, "settings": settings}
        self._entries: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def add(self, key: str, answer: dict[str, Any], *, messages: list[dict[str, Any]], fresh: bool) -> None:
        with self._lock:
            entry = self._entries.setdefault(key, {"key": key, "request": _user_text(messages), "answers": []})
            if fresh or not entry["answers"]:
                entry["answers"].append(answer)

    def write(self) -> int:
        """Write the recording atomically; the number of calls it holds."""
        with self._lock:
            lines = [json.dumps(self.header, sort_keys=True, ensure_ascii=False)]
            lines += [json.dumps(self._entries[k], sort_keys=True, ensure_ascii=False) for k in sorted(self._entries)]
        target = self.path.resolve()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".jsonl")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write("\n".join(lines) + "\n")
            os.replace(tmp, target)
        except OSError as exc:
            raise ReplayError(f"cannot write the recording: {exc.strerror}", file=str(self.path)) from exc
        return len(lines) - 1


class Replay:
    """Answers read from a recording. `answer(key, fresh=...)` gives the first recorded answer, or for a fresh
    call (a confirmation re-run) the next one after it; ReplayError when the recording has none."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.header, self._entries = _read(path)
        self._served: dict[str, int] = {}
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return str(self.header.get("model", ""))

    @property
    def endpoint(self) -> str:
        return str(self.header.get("endpoint", ""))

    def check(self, *, model: str, endpoint: str, settings: dict[str, Any]) -> None:
        """ReplayError when the recording was made for another model, endpoint or answer settings."""
        where = str(self.path)
        if self.model != model:
            raise ReplayError(f"recorded for model {self.model!r}, not {model!r}", file=where, line=1)
        if self.endpoint != endpoint:
            raise ReplayError(f"recorded against endpoint {self.endpoint}, not {endpoint}", file=where, line=1)
        recorded = self.header.get("settings")
        if recorded != settings:
            raise ReplayError(
                f"recorded with answer settings {json.dumps(recorded, sort_keys=True)}, this review uses "
                f"{json.dumps(settings, sort_keys=True)}",
                file=where,
                line=1,
            )

    def answer(self, key: str, *, messages: list[dict[str, Any]], fresh: bool) -> dict[str, Any]:
        entry = self._entries.get(key)
        request = _user_text(messages)
        if entry is None:
            shown = request if len(request) <= 160 else request[:157] + "..."
            raise ReplayError(f"no answer recorded for the call {key[:16]}... (request {shown!r})", file=str(self.path))
        answers = entry["answers"]
        if not fresh:
            return dict(answers[0])
        with self._lock:
            index = self._served.get(key, 0) + 1
            self._served[key] = index
        if index >= len(answers):
            raise ReplayError(
                f"the recording holds {len(answers) - 1} re-runs of the call {key[:16]}..., this review asks for more "
                f"(request {request[:120]!r}); record it again with the same --repeats",
                file=str(self.path),
            )
        return dict(answers[index])


def _read(path: Path) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError("no such recording", file=where) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(f"cannot read the recording: {exc}", file=where) from None
    lines = text.split("\n")
    if not text.endswith("\n"):
        raise ReplayError("the recording is truncated (its last line is incomplete)", file=where, line=len(lines))
    header: dict[str, Any] | None = None
    entries: dict[str, dict[str, Any]] = {}
    for number, line in enumerate(lines[:-1], start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"not JSON: {exc.msg}", file=where, line=number) from None
        if header is None:
            if not isinstance(value, dict) or value.get("recording") != FORMAT:
                raise ReplayError(f"not a ToolChoice recording (its first line must name {FORMAT})", file=where, line=1)
            header = value
            continue
        answers = value.get("answers") if isinstance(value, dict) else None
        key = value.get("key") if isinstance(value, dict) else None
        if not isinstance(key, str) or not isinstance(answers, list) or not answers:
            raise ReplayError("a recorded call needs a key and a non-empty list of answers", file=where, line=number)
        if not all(isinstance(a, dict) for a in answers):
            raise ReplayError("every recorded answer must be an object", file=where, line=number)
        entries[key] = value
    if header is None:
        raise ReplayError("the recording is empty", file=where)
    return header, entries
