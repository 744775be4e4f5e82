"""A real HTTP server on loopback speaking the OpenAI chat-completions API, answering from a script.

`FakeOpenAI(like_llama_cpp=True)` behaves as llama.cpp's Python server (0.3.36) was seen to (docs/live-model.md):
json_schema refused with HTTP 500 and a validation message; any model name answered by the one model loaded (the
name asked for echoed back, only the loaded one listed at /models); a wrong key refused with 401 and FastAPI's
`{"detail": ...}` body, not OpenAI's error shape; a prompt of `n_ctx` tokens or more refused with 400
`context_length_exceeded`; an answer longer than `max_tokens` cut there (`finish_reason: "length"`); completion
tokens counted from the answer; one request at a time (the others queue, their wait inside the client's timeout);
and, with `drops_tools=True`, a chat template that renders no tools (the prompt's token count leaves them out).
Prompt tokens are counted from the request unless a reply sets them, as every real server counts them.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

API_KEY = "test-key"
MODEL = "fake-model"
# What the server says it ran, as a real endpoint names a dated snapshot.
RETURNED_MODEL = "fake-model-2026-01-01"


@dataclass
class Reply:
    """One scripted answer: HTTP status, JSON body (or raw text), headers, and a delay before it."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def completion(content: str | None, *, tool_calls: list[dict[str, Any]] | None = None, finish: str = "stop") -> Reply:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return Reply(
        body={
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 1767225600,
            "model": RETURNED_MODEL,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            # prompt_tokens None: the server counts them from the request (see _count_usage).
            "usage": {"prompt_tokens": None, "completion_tokens": 30, "total_tokens": None},
        }
    )


def answer(
    tool: str, arguments: dict[str, Any] | None = None, *, confidence: float = 0.9, reason: str = "fits"
) -> Reply:
    """A well-formed selection answer naming `tool` (as sent: an alias when the name needed one)."""
    value = {"tool": tool, "arguments": arguments or {}, "confidence": confidence, "reason": reason}
    return completion(json.dumps(value))


def error(status: int, message: str, *, code: str | None = None, headers: dict[str, str] | None = None) -> Reply:
    body = {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": code}}
    return Reply(status=status, body=body, headers=headers or {})


# llama.cpp's Python server (0.3.x) validates response_format.type as text | json_object and answers a
# validation failure with 500, its message the validation error's text (the shape measured on 0.3.36).
LLAMA_CPP_FORMAT_MESSAGE = (
    "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
    "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', "
    "'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n  File \"llama_cpp/server/app.py\", line 376, "
    "in create_chat_completion\n    POST /v1/chat/completions"
)


# The context size the real-server test and the benchmark start llama.cpp with (tests/llm/llama_server.py).
LLAMA_CPP_N_CTX = 8192


def tokens(text: str) -> int:
    """What the fake counts for a text: about 4 characters a token."""
    return math.ceil(len(text) / 4)


def context_exceeded(prompt: int, max_tokens: int, n_ctx: int) -> Reply:
    """llama.cpp's refusal of a prompt that does not fit its context: 400, OpenAI's shape, its own wording."""
    message = (
        f"This model's maximum context length is {n_ctx} tokens. However, you requested {prompt + max_tokens} "
        f"tokens ({prompt} in the messages, {max_tokens} in the completion). Please reduce the length of the "
        "messages or completion."
    )
    body = {"message": message, "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}
    return Reply(status=400, body={"error": body})


def prompt_tokens(request: dict[str, Any], *, with_tools: bool = True) -> int:
    """What the fake counts for a request: about 4 characters a token over the messages (and the tools)."""
    chars = sum(len(str(m.get("content") or "")) for m in request.get("messages", []))
    if with_tools and request.get("tools"):
        chars += len(json.dumps(request["tools"]))
    return math.ceil(chars / 4) + 8


def _is_probe(body: dict[str, Any]) -> bool:
    return body.get("max_tokens") == 1 and "response_format" not in body and "tools" not in body


class _Server(ThreadingHTTPServer):
    # The default backlog of 5 drops connections when 16 clients connect at once (SYN retried after 1 s).
    request_queue_size = 128


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def mention_handler(request: dict[str, Any]) -> Reply:
    """Default answer: the first tool whose name appears in the user's text, else NO_TOOL."""
    text = next((m["content"] for m in request.get("messages", []) if m.get("role") == "user"), "")
    for tool in request.get("tools") or []:
        name = tool["function"]["name"]
        if name in text:
            return answer(name, {})
    return answer("NO_TOOL", {}, reason="nothing fits")


class FakeOpenAI:
    """Start with `with FakeOpenAI() as server:`; point the SDK at `server.url`.

    Replies come from `script` (consumed in order) while it lasts, then from `handler(request)`.
    Every request is recorded in `requests`. A wrong bearer key gets 401; an unknown model 404."""

    def __init__(
        self,
        *,
        script: list[Reply] | None = None,
        handler: Callable[[dict[str, Any]], Reply] = mention_handler,
        models: tuple[str, ...] = (MODEL,),
        api_key: str = API_KEY,
        like_llama_cpp: bool = False,
        drops_tools: bool = False,
        lists_models: bool = True,
        n_ctx: int = LLAMA_CPP_N_CTX,
    ) -> None:
        self.script: deque[Reply] = deque(script or [])
        self.handler = handler
        self.models = models
        self.api_key = api_key
        self.like_llama_cpp = like_llama_cpp
        self.drops_tools = drops_tools
        self.lists_models = lists_models
        self.n_ctx = n_ctx
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        # llama.cpp's server answers one request at a time; the others wait for this lock.
        self._serving = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """The chat calls that ask for an answer (not the one-token probe of whether the tools are shown)."""
        return [b for b in self._chats() if not _is_probe(b)]

    @property
    def probe_requests(self) -> list[dict[str, Any]]:
        """The one-token calls without tools or answer format that compare prompt token counts."""
        return [b for b in self._chats() if _is_probe(b)]

    def _chats(self) -> list[dict[str, Any]]:
        return [r.body for r in self.requests if r.path.endswith("/chat/completions")]

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _reply_for(self, path: str, body: dict[str, Any], auth: str) -> Reply:
        if auth != f"Bearer {self.api_key}" and self.like_llama_cpp:
            return Reply(status=401, body={"detail": "Invalid API key"})
        if auth != f"Bearer {self.api_key}":
            # Some gateways echo the key they were given; the client must not repeat it.
            return error(401, f"Incorrect API key provided: {auth.removeprefix('Bearer ')}.", code="invalid_api_key")
        if path.endswith("/models"):
            if not self.lists_models:
                return error(404, "Not Found")
            listed = [{"id": m, "object": "model", "owned_by": "me", "permissions": []} for m in self.models]
            return Reply(body={"object": "list", "data": listed})
        if self.like_llama_cpp and not path.endswith("/chat/completions"):
            return Reply(status=404, body={"detail": "Not Found"})
        if self.like_llama_cpp:
            if (body.get("response_format") or {}).get("type") not in (None, "text", "json_object"):
                return Reply(
                    status=500,
                    body={"error": {"message": LLAMA_CPP_FORMAT_MESSAGE, "type": "internal_server_error"}},
                )
            prompt = prompt_tokens(body, with_tools=not self.drops_tools)
            if prompt >= self.n_ctx:
                return context_exceeded(prompt, int(body.get("max_tokens") or 0), self.n_ctx)
        elif body.get("model") not in self.models:
            return error(404, f"The model `{body.get('model')}` does not exist.", code="model_not_found")
        with self._lock:
            scripted = self.script.popleft() if self.script else None
        return self._count_usage(scripted if scripted is not None else self.handler(body), body)

    def _count_usage(self, reply: Reply, request: dict[str, Any]) -> Reply:
        """Fills in what a real server reports of this request: its prompt tokens, and llama.cpp's model echo."""
        if reply.status != 200 or not isinstance(reply.body, dict) or not isinstance(reply.body.get("usage"), dict):
            return reply
        body = {**reply.body, "usage": dict(reply.body["usage"])}
        usage = body["usage"]
        if usage.get("prompt_tokens") is None:
            usage["prompt_tokens"] = prompt_tokens(request, with_tools=not self.drops_tools)
        usage["total_tokens"] = usage["prompt_tokens"] + int(usage.get("completion_tokens") or 0)
        if self.like_llama_cpp:
            body["model"] = request.get("model")
            body["choices"] = [self._cut(c, int(request.get("max_tokens") or 0), usage) for c in body["choices"]]
        return Reply(status=reply.status, body=body, headers=reply.headers, delay=reply.delay)

    @staticmethod
    def _cut(choice: dict[str, Any], max_tokens: int, usage: dict[str, Any]) -> dict[str, Any]:
        """llama.cpp's answer: completion tokens counted from it, cut at max_tokens with finish_reason "length"."""
        content = str((choice.get("message") or {}).get("content") or "")
        usage["completion_tokens"] = tokens(content)
        if max_tokens <= 0 or tokens(content) <= max_tokens:
            usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
            return choice
        usage["completion_tokens"] = max_tokens
        usage["total_tokens"] = usage["prompt_tokens"] + max_tokens
        message = {**choice["message"], "content": content[: max_tokens * 4]}
        return {**choice, "message": message, "finish_reason": "length"}

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in two writes; with Nagle on, the body waits for a delayed ACK (~40 ms).
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
                pass

            def _serve(self, body: dict[str, Any]) -> None:
                with fake._lock:
                    fake.requests.append(Recorded(self.path, dict(self.headers.items()), body))
                if fake.like_llama_cpp:
                    with fake._serving:
                        reply = fake._reply_for(self.path, body, self.headers.get("Authorization", ""))
                        time.sleep(reply.delay)
                else:
                    reply = fake._reply_for(self.path, body, self.headers.get("Authorization", ""))
                    time.sleep(reply.delay)
                data = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
                raw = data.encode("utf-8")
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                text = self.rfile.read(length).decode("utf-8")
                self._serve(json.loads(text) if text else {})

            def do_GET(self) -> None:
                self._serve({})

        return Handler
